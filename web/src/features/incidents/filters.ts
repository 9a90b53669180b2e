/**
 * Incident-list filters (`/incidents/all`) ⇄ URL search parameters ⇄ `GET /incidents` query
 * (`ListIncidentsQuery` in `lambdas/contract/schemas.ts`).
 *
 * URL form (shareable, what the dashboard tiles link to): `status` and `severity` as comma-separated
 * enum lists, `from`/`to` as calendar dates `YYYY-MM-DD` in the browser's time zone, `q` free text,
 * `sort` = `newest` | `oldest`. Unknown values are dropped. `from` is the start of that local day and
 * `to` the last millisecond of that local day, both sent as ISO-8601 UTC instants.
 */
import { INCIDENT_STATUSES, SEVERITIES } from '../../shared/lib/contract';
import type { Incident, IncidentStatus, OperationQuery, Severity } from '../../shared/lib/contract';
import { dateRangeError } from '../../shared/ui/DateRange';
import { formatDateTime } from '../../shared/lib/format';
import { t as msg } from '../../shared/lib/messages';

export type IncidentSort = 'newest' | 'oldest';

export interface IncidentFilters {
  status: IncidentStatus[];
  severity: Severity[];
  /** `YYYY-MM-DD` (local) or '' */
  from: string;
  to: string;
  q: string;
  sort: IncidentSort;
}

export const EMPTY_FILTERS: IncidentFilters = { status: [], severity: [], from: '', to: '', q: '', sort: 'newest' };

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function listOf<T extends string>(raw: string | null, allowed: readonly T[]): T[] {
  if (!raw) return [];
  return [...new Set(raw.split(',').map((s) => s.trim()))].filter((s): s is T => (allowed as readonly string[]).includes(s));
}

export function filtersFromParams(params: URLSearchParams): IncidentFilters {
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  return {
    status: listOf(params.get('status'), INCIDENT_STATUSES),
    severity: listOf(params.get('severity'), SEVERITIES),
    from: DATE.test(from) ? from : '',
    to: DATE.test(to) ? to : '',
    q: (params.get('q') ?? '').slice(0, 100),
    sort: params.get('sort') === 'oldest' ? 'oldest' : 'newest',
  };
}

/** Filters → URL search parameters (defaults left out). */
export function filtersToParams(f: IncidentFilters): URLSearchParams {
  const p = new URLSearchParams();
  if (f.status.length) p.set('status', f.status.join(','));
  if (f.severity.length) p.set('severity', f.severity.join(','));
  if (f.from) p.set('from', f.from);
  if (f.to) p.set('to', f.to);
  if (f.q.trim()) p.set('q', f.q.trim());
  if (f.sort !== 'newest') p.set('sort', f.sort);
  return p;
}

/** Local calendar date `YYYY-MM-DD` → the ISO-8601 UTC instant of its first (or last) millisecond. */
export function localDayBound(date: string, end: boolean): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const t = end ? new Date(y, m - 1, d, 23, 59, 59, 999) : new Date(y, m - 1, d, 0, 0, 0, 0);
  return t.toISOString();
}

/** Message (portal language) for filters the API would refuse, or null when they are valid. */
export function filtersError(f: IncidentFilters): string | null {
  if (f.q.trim().length === 1) return msg('incidents.filters.queryTooShort');
  return dateRangeError(f.from, f.to);
}

/** The filter part of the `listIncidents` query (without tenant, page size and cursor). */
export type IncidentQuery = Omit<OperationQuery<'listIncidents'>, 'tenant' | 'limit' | 'cursor'>;

/** Filters → the query of `GET /incidents` (without tenant/limit/cursor). Call only when `filtersError` is null. */
export function filtersToQuery(f: IncidentFilters): IncidentQuery {
  // `newest` is the API's default: left out so the unfiltered list keeps one cache key.
  const q: IncidentQuery = f.sort === 'oldest' ? { sort: 'oldest' } : {};
  if (f.status.length) q.status = f.status.join(',');
  if (f.severity.length) q.severity = f.severity.join(',');
  if (f.from) q.from = localDayBound(f.from, false);
  if (f.to) q.to = localDayBound(f.to, true);
  if (f.q.trim().length >= 2) q.q = f.q.trim();
  return q;
}

/** Human summary of the SLA state of an incident at `now`: "Vencido", "Vence <fecha>" or "Cumplido". */
export function slaLabel(i: Pick<Incident, 'slaDueAt' | 'resolvedAt'>, now: number = Date.now()): string {
  const due = Date.parse(i.slaDueAt);
  if (i.resolvedAt) return Date.parse(i.resolvedAt) <= due ? msg('fields.incident.met') : msg('fields.incident.breached');
  return due < now ? msg('incidents.filters.overdue') : msg('incidents.filters.due', { when: formatDateTime(i.slaDueAt) });
}

/**
 * A column order of the incident table: `severity` (ascending = most severe first: critical, high, medium,
 * low) or `sla` (ascending = the soonest SLA due time first, by `slaDueAt`, ISO-8601 UTC). Ties keep the
 * list's own order (newest first by default).
 */
export interface IncidentColumnSort {
  key: 'severity' | 'sla';
  direction: 'asc' | 'desc';
}

/**
 * The incidents re-ordered by a column (a new array; stable, so ties keep the incoming order). Sorting is
 * done in the browser over the rows already loaded (docs/portal.md#incident-list-sorting).
 */
export function sortIncidents<T extends Pick<Incident, 'severity' | 'slaDueAt'>>(items: readonly T[], sort: IncidentColumnSort): T[] {
  const sign = sort.direction === 'asc' ? 1 : -1;
  const key = sort.key === 'severity' ? (i: T) => SEVERITIES.indexOf(i.severity) : (i: T) => Date.parse(i.slaDueAt);
  return items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => sign * (key(a.item) - key(b.item)) || a.index - b.index)
    .map((x) => x.item);
}
