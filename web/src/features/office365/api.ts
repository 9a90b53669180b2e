/**
 * Office 365 hooks (routes `listOffice365Alarms`, `listOffice365Events`) and the time-range filter
 * shared by both screens. Filters live in the URL: `range` (`24h` | `7d` | `30d` | `all`, default
 * `7d`), plus `severity`/`status` (alarms) or `workload`/`result` (events, exact match).
 */
import { O365_ALARM_STATUSES, SEVERITIES } from '../../shared/lib/contract';
import type { OperationQuery } from '../../shared/lib/contract';
import { useApi, useApiSWRInfinite } from '../../shared/lib/api-context';
import { useTenantQuery } from '../../shared/lib/tenant';
import { t as msg } from '../../shared/lib/messages';

export const RANGES = { get '24h'() {
    return msg('common.periods.last24Hours');
  }, get '7d'() {
    return msg('common.periods.last7Days');
  }, get '30d'() {
    return msg('common.periods.last30Days');
  }, get all() { return msg('office365.options.all'); } } as const;
export type RangeKey = keyof typeof RANGES;
const RANGE_MS: Record<Exclude<RangeKey, 'all'>, number> = { '24h': 86_400_000, '7d': 7 * 86_400_000, '30d': 30 * 86_400_000 };

/** Workloads of the unified audit log offered in the events filter. */
export const WORKLOADS = ['AzureActiveDirectory', 'Exchange', 'SharePoint', 'OneDrive', 'MicrosoftTeams'] as const; // literal-ok: Microsoft's workload names (data)
export const RESULTS = ['Succeeded', 'Failed', 'PartiallySucceeded'] as const; // literal-ok: the audit log's result values (data)

export function rangeOf(params: URLSearchParams): RangeKey {
  const r = params.get('range');
  return r && r in RANGES ? (r as RangeKey) : '7d';
}

/**
 * `from` of a range, rounded down to the minute so the SWR key (and the API cursor, valid only with
 * the same filters) stays stable while the user pages within the same minute. ISO-8601 UTC.
 */
export function rangeFrom(range: RangeKey, now: number): string | undefined {
  if (range === 'all') return undefined;
  return new Date(Math.floor((now - RANGE_MS[range]) / 60_000) * 60_000).toISOString();
}

/** The filters of the Office 365 alert list (its query without tenant, page size and cursor). */
export type O365AlarmFilters = Omit<OperationQuery<'listOffice365Alarms'>, 'tenant' | 'limit' | 'cursor'>;
/** The filters of the Office 365 event list (its query without tenant, page size and cursor). */
export type O365EventFilters = Omit<OperationQuery<'listOffice365Events'>, 'tenant' | 'limit' | 'cursor'>;

/** URL → `GET /office365/alarms` query (unknown values dropped). */
export function alarmsQuery(params: URLSearchParams, now: number): O365AlarmFilters {
  const q: O365AlarmFilters = { from: rangeFrom(rangeOf(params), now) };
  const sev = params.get('severity');
  if (sev && (SEVERITIES as readonly string[]).includes(sev)) q.severity = sev;
  const st = params.get('status');
  if (st && (O365_ALARM_STATUSES as readonly string[]).includes(st)) q.status = st;
  const user = userOf(params);
  if (user) q.user = user;
  return q;
}

/** URL → `GET /office365/events` query (unknown values dropped). */
export function eventsQuery(params: URLSearchParams, now: number): O365EventFilters {
  const q: O365EventFilters = { from: rangeFrom(rangeOf(params), now) };
  const w = params.get('workload');
  if (w && (WORKLOADS as readonly string[]).includes(w)) q.workload = w;
  const r = params.get('result');
  if (r && (RESULTS as readonly string[]).includes(r)) q.result = r;
  const user = userOf(params);
  if (user) q.user = user;
  return q;
}

/** The `user` filter (an exact user principal name / e-mail, as the API matches it): trimmed, at most 254 characters, or undefined. */
function userOf(params: URLSearchParams): string | undefined {
  const u = params.get('user')?.trim();
  return u ? u.slice(0, 254) : undefined;
}

export function useO365Alarms(filters: O365AlarmFilters) {
  return useApiSWRInfinite('listOffice365Alarms', { query: { ...useTenantQuery(), ...filters, limit: 25 } });
}

export function useO365Events(filters: O365EventFilters) {
  return useApiSWRInfinite('listOffice365Events', { query: { ...useTenantQuery(), ...filters, limit: 50 } });
}

/** Acknowledges an active Office 365 alert of the active tenant (`POST /office365/alarms/{alarmId}/acknowledge`). */
export function useAcknowledgeO365() {
  const api = useApi();
  const tenant = useTenantQuery();
  return (a: { id: string }) => api.call('acknowledgeOffice365Alarm', { params: { alarmId: a.id }, query: tenant });
}
