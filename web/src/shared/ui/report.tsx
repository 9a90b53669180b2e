/**
 * Report figures (`ReportFigures` of `GET /reports` and `GET /analytics`, figures defined in
 * `lambdas/domain/reports.ts`) rendered for `/reports/general` and `/analytics`: the period (URL state,
 * `PeriodPicker` with the shared date range, and `useReportSWR`, whose period ends at "now" on every
 * request: docs/portal.md#report-periods), a duration formatter for MTTA/MTTR, the summary KPI row, and the
 * CSV export built from the same JSON (sections separated by a blank line; standard or Excel dialect via
 * `csv.ts`, docs/portal.md#csv-downloads).
 */
import { useMemo, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import useSWR from 'swr';
import type { ApiError, CallInput } from '../lib/api';
import { callOp, useApi } from '../lib/api-context';
import type { OperationResponse, ReportFigures } from '../lib/contract';
import { formatPercent, INCIDENT_STATUS_LABELS, SEVERITY_LABELS } from '../lib/format';
import { useStateResetOn } from '../lib/hooks';
import { t, useT } from '../lib/messages';
import { CSV_STANDARD, toCsv, type CsvDialect } from './csv';
import { DateRangeFields, dateRangeError } from './DateRange';
import { DEVICE_BELOW_TARGET_CSV_COLUMNS, TOP_ALARM_CSV_COLUMNS } from './report-fields';

/** Period presets: that many UTC days ending today. */
export const PERIODS = [7, 30, 90, 365] as const;

/**
 * The `[from, to]` of a report request. A preset of `days` is exactly that many UTC days ending today:
 * `from` = 00:00 UTC of today − (days − 1), `to` = now rounded down to the minute (so the SWR key stays
 * stable) — "7 días" is 7 calendar days, the same days the API counts (it counts the whole UTC days the
 * asked period touches: docs/portal.md#report-periods). With both local calendar dates `YYYY-MM-DD`
 * (a custom range), their local whole days; the API extends them to the whole UTC days they touch.
 */
export function periodQuery(days: number, fromDate: string, toDate: string, now: number): { from: string; to: string } {
  if (fromDate && toDate) {
    const [fy, fm, fd] = fromDate.split('-').map(Number) as [number, number, number];
    const [ty, tm, td] = toDate.split('-').map(Number) as [number, number, number];
    return { from: new Date(fy, fm - 1, fd).toISOString(), to: new Date(ty, tm - 1, td, 23, 59, 59, 999).toISOString() };
  }
  const to = Math.floor(now / 60_000) * 60_000;
  const today = Math.floor(now / 86_400_000) * 86_400_000;
  return { from: new Date(today - (days - 1) * 86_400_000).toISOString(), to: new Date(to).toISOString() };
}

/** Minutes → "45 min", "3 h 20 min", "2 d 4 h"; '—' for null. */
export function formatDuration(minutes: number | null): string {
  if (minutes === null || !Number.isFinite(minutes)) return '—';
  const m = Math.round(minutes);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 24) return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
}

/**
 * The fleet's availability over the period (%, null without monitored time) and how many devices are below
 * the availability target now (30 days; the report lists at most 10, so `belowIsAtLeast` says "10 or more").
 */
export function fleetHealth(f: ReportFigures): { pct: number | null; below: number; belowIsAtLeast: boolean } {
  return { pct: f.availability.fleetPct, below: f.availability.belowSla.length, belowIsAtLeast: f.availability.belowSla.length >= 10 };
}

/**
 * The report as CSV in `dialect` (default standard; docs/portal.md#csv-downloads): summary, incidents by
 * severity and status, the devices below the availability target, top alarms, sections separated by a
 * blank line.
 */
export function reportToCsv(f: ReportFigures, title: string, dialect: CsvDialect = CSV_STANDARD): string {
  const summary = toCsv(
    [
      [t('ui.report.csv.report'), title],
      [t('ui.report.csv.fromUtc'), f.period.from],
      [t('ui.report.csv.toUtc'), f.period.to],
      [t('fields.figures.incidents'), f.incidents.total],
      [t('fields.figures.mttaMin'), f.mttaMinutes === null ? '' : Math.round(f.mttaMinutes)],
      [t('fields.figures.mttrMin'), f.mttrMinutes === null ? '' : Math.round(f.mttrMinutes)],
      [t('ui.report.csv.resolved'), f.sla.resolved],
      [t('ui.report.csv.resolvedWithinSla'), f.sla.resolvedWithinSla],
      [t('fields.figures.slaCompliancePct'), f.sla.compliancePct ?? ''],
      [t('fields.figures.openBreached'), f.sla.openBreached],
      [t('ui.report.csv.availabilityTargetPct'), f.availability.slaTargetPct],
      [t('fields.figures.fleetAvailabilityPct'), f.availability.fleetPct ?? ''],
    ] as [string, string | number][],
    [
      { header: t('ui.report.csv.indicator'), value: (r) => r[0] },
      { header: t('ui.report.csv.value'), value: (r) => r[1] },
    ],
    dialect,
  );
  const bySeverity = toCsv(Object.entries(f.incidents.bySeverity), [
    { header: t('ui.report.csv.severity'), value: ([k]) => SEVERITY_LABELS[k as keyof typeof SEVERITY_LABELS] ?? k },
    { header: t('fields.figures.incidents'), value: ([, v]) => v },
  ], dialect);
  const byStatus = toCsv(Object.entries(f.incidents.byStatus), [
    { header: t('ui.report.csv.status'), value: ([k]) => INCIDENT_STATUS_LABELS[k as keyof typeof INCIDENT_STATUS_LABELS] ?? k },
    { header: t('fields.figures.incidents'), value: ([, v]) => v },
  ], dialect);
  const devices = toCsv(f.availability.belowSla, DEVICE_BELOW_TARGET_CSV_COLUMNS, dialect);
  const alarms = toCsv(f.topAlarms, TOP_ALARM_CSV_COLUMNS, dialect);
  return [summary, bySeverity, byStatus, devices, alarms].join('\r\n\r\n');
}

/** The KPI row of a report: incidents, MTTA, MTTR, SLA compliance, open breached, fleet health. */
export function FiguresSummary({ f }: { f: ReportFigures }) {
  const t = useT();
  const fleet = fleetHealth(f);
  return (
    <ul className="kpi-row" aria-label={t('ui.report.summary')}>
      <li>
        <span className="muted small">{t('ui.report.incidents')}</span>
        <strong>{f.incidents.total}</strong>
      </li>
      <li>
        <span className="muted small">{t('ui.report.mtta')}</span>
        <strong>{formatDuration(f.mttaMinutes)}</strong>
      </li>
      <li>
        <span className="muted small">{t('ui.report.mttr')}</span>
        <strong>{formatDuration(f.mttrMinutes)}</strong>
      </li>
      <li>
        <span className="muted small">{t('fields.figures.slaCompliance')}</span>
        <strong>{formatPercent(f.sla.compliancePct)}</strong>
        <span className="small">
          {t('ui.report.resolvedInTime', { within: f.sla.resolvedWithinSla, resolved: f.sla.resolved })}
        </span>
      </li>
      <li>
        <span className="muted small">{t('fields.figures.openBreached')}</span>
        <strong>{f.sla.openBreached}</strong>
      </li>
      <li>
        <span className="muted small">{t('ui.report.fleetAvailability')}</span>
        <strong>{formatPercent(fleet.pct)}</strong>
        <span className="small">{t('ui.report.belowTarget', { count: `${fleet.below}${fleet.belowIsAtLeast ? '+' : ''}` })}</span>
      </li>
    </ul>
  );
}

/** A report period as kept in the URL: a preset of `days` UTC days ending today, or whole local days `fromDate`–`toDate`. */
export interface PeriodSpec {
  days: number;
  /** `YYYY-MM-DD` (local) or '' (both set = a custom range). */
  fromDate: string;
  toDate: string;
}

/** URL state of a report period: `?days=30` (preset) or `?from=YYYY-MM-DD&to=YYYY-MM-DD` (custom). */
export function periodFromParams(params: URLSearchParams): PeriodSpec {
  const days = Number(params.get('days'));
  const date = (k: string) => (/^\d{4}-\d{2}-\d{2}$/.test(params.get(k) ?? '') ? params.get(k)! : '');
  const fromDate = date('from');
  const toDate = date('to');
  const custom = fromDate && toDate && !dateRangeError(fromDate, toDate);
  return { days: (PERIODS as readonly number[]).includes(days) ? days : 30, fromDate: custom ? fromDate : '', toDate: custom ? toDate : '' };
}

/**
 * Period controls: preset buttons and a custom date range applied with "Aplicar fechas". A range whose
 * "Desde" is after its "Hasta" is refused with `dateRangeMessage()` (shared with the incident list and the
 * audit log, `DateRange.tsx`) and the period stays as it was; so is a range with an empty end.
 */
export function PeriodPicker({ params, onChange }: { params: URLSearchParams; onChange: (next: URLSearchParams) => void }) {
  const t = useT();
  const p = periodFromParams(params);
  const custom = !!(p.fromDate && p.toDate);
  // Drafts of the two dates, reset whenever the applied period changes (another preset, Back/Forward).
  const [draft, setDraft] = useStateResetOn(`${p.fromDate}|${p.toDate}`, () => ({ from: p.fromDate, to: p.toDate, tried: false }));
  const rangeError = dateRangeError(draft.from, draft.to);
  const missing = draft.tried && (!draft.from || !draft.to) ? t('ui.report.bothDates') : null;
  const shown = rangeError ?? missing;
  return (
    <form
      className="card filters no-print"
      aria-label={t('ui.report.periodForm')}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (draft.from && draft.to && !rangeError) onChange(new URLSearchParams({ from: draft.from, to: draft.to }));
        else setDraft({ ...draft, tried: true });
      }}
    >
      <div className="field field-wide">
        <span id="period-presets">{t('fields.common.period')}</span>
        <div role="group" aria-labelledby="period-presets" className="segmented">
          {PERIODS.map((d) => (
            <button key={d} type="button" aria-pressed={!custom && d === p.days} onClick={() => onChange(new URLSearchParams({ days: String(d) }))}>
              {t('ui.report.days', { count: d })}
            </button>
          ))}
        </div>
      </div>
      <DateRangeFields idPrefix="period" from={draft.from} to={draft.to} errorId="period-error" onChange={(field, value) => setDraft({ ...draft, [field]: value, tried: false })} />
      <div className="filters-actions">
        <button type="submit" className="btn">
          {t('ui.report.applyDates')}
        </button>
      </div>
      {shown && (
        <p id="period-error" role="alert" className="field-error field-wide">
          {shown}
        </p>
      )}
    </form>
  );
}

/** How often an open report asks again for its figures (ms): the period's end then moves to the new "now". */
export const REPORT_REFRESH_MS = 60_000;

/** The two report operations: `GET /reports` (one tenant) and `GET /analytics` (every tenant, `admin`). */
export type ReportOperationId = 'getReport' | 'getAnalytics';

/**
 * Reads a report (`getReport` or `getAnalytics`) for `spec`'s period with `query` (e.g. the tenant; `null`
 * waits). The `{ from, to }` sent is computed when each request starts (`periodQuery` at that moment), so a
 * preset period ("30 días": the 30 UTC days ending today) always ends at the current minute: the report follows "now" on every
 * revalidation — when the window regains focus, every `REPORT_REFRESH_MS`, on `mutate()` ("Actualizar"),
 * and when the page is opened again — and never stays frozen at the time the page was opened
 * (docs/portal.md#report-periods). The SWR key holds the period's definition (`spec`), not its instants,
 * so on a revalidation the figures on screen stay while the next ones load; another tenant or period is a
 * new key and starts empty. The response's own `period` is what was counted.
 */
export function useReportSWR<Op extends ReportOperationId>(op: Op, query: Readonly<Record<string, string>> | null, spec: PeriodSpec) {
  const api = useApi();
  const key = query ? (['report', op, query, spec] as const) : null;
  return useSWR<OperationResponse<Op>, ApiError, typeof key>(
    key,
    ([, o, q, s]: NonNullable<typeof key>) => {
      const input = { query: { ...q, ...periodQuery(s.days, s.fromDate, s.toDate, Date.now()) } } as CallInput<Op>;
      return callOp(api, o, input);
    },
    // No keepPreviousData: another tenant or period is a new key and must not show the previous figures.
    { revalidateOnFocus: true, refreshInterval: REPORT_REFRESH_MS },
  );
}

/**
 * The report period kept in the page's URL (`?days=N` or `?from=YYYY-MM-DD&to=YYYY-MM-DD`, read by
 * `periodFromParams`): `spec` is the period's definition for `useReportSWR`; `picker` is the `PeriodPicker`
 * bound to the URL (a change replaces the history entry).
 */
export function useUrlPeriod(): { spec: PeriodSpec; picker: ReactNode } {
  const [params, setParams] = useSearchParams();
  const { days, fromDate, toDate } = periodFromParams(params);
  const spec = useMemo(() => ({ days, fromDate, toDate }), [days, fromDate, toDate]);
  return { spec, picker: <PeriodPicker params={params} onChange={(p) => setParams(p, { replace: true })} /> };
}
