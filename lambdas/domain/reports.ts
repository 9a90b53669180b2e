/**
 * Report figures for a period (pure; `loadReportData` in `lambdas/data/reports.ts` reads the data):
 * incidents by severity and status, MTTA, MTTR, SLA compliance, availability per device against the SLA
 * target, top alarms. Also the CSV rendering of a report.
 *
 * Definitions (managed-SOC practice; the incident SLA table is `SLA_HOURS`):
 *  - MTTA: mean of firstAcknowledgedAt (the first staff acknowledgement) − createdAt, minutes, over
 *    incidents created in the period that have one (docs/sla.md#mtta);
 *  - MTTR: mean of resolvedAt − createdAt, minutes, over incidents created in the period with `resolvedAt`;
 *  - SLA compliance: share of those resolved incidents with resolvedAt ≤ slaDueAt (a closed incident counts
 *    with the result fixed when it closed, `slaResult`; docs/sla.md); `openBreached` counts
 *    unresolved incidents whose `slaDueAt` is before the end of the period (or now, if earlier);
 *  - device availability: `availabilityPct` over the period's UTC days (`availabilityDays`), the same function
 *    and day rule as the device status page's 30-day figure (docs/data-model.md#availability).
 */
import {
  MAX_REPORT_DAYS,
  SEVERITIES,
  INCIDENT_STATUSES,
  type Analytics,
  type Report,
  type ReportFigures,
  type Severity,
} from '../contract/schemas.js';
import { csvText, type CsvCell } from '../contract/csv.js';
import { AVAILABILITY_SLA_TARGET_PCT, availabilityDays, withOpenOutage } from './devices.js';
import { agg, alarmDay, alarmTitleOf, availabilityDay, fleetAvailabilityPct, hourOf, incidentDay, isUnresolved, openDueBefore, sumInto, type Counters } from './aggregates.js';
import { ApiError } from './errors.js';
import { belowTargetWithOutages, outageTimeCounters } from './outages.js';
import type { AnalyticsPageData, ReportAggregates, ReportData, ReportsPort } from './ports.js';

/** A CSV file to send as an attachment (`text/csv; charset=utf-8`, `Content-Disposition: attachment`). */
export class CsvDownload {
  static readonly contentType = 'text/csv; charset=utf-8';
  constructor(
    /** File name offered to the browser, e.g. `vigia-acme-2025-01-01-2025-01-31.csv`. */
    readonly filename: string,
    /** The CSV text (UTF-8, CRLF lines). */
    readonly text: string,
  ) {}
}

/** Default report period: the 30 days before now. */
export const DEFAULT_REPORT_DAYS = 30;

/** The validated report query (`ReportQuery` output). */
export interface ReportRequest {
  from?: string | undefined;
  to?: string | undefined;
  format: 'json' | 'csv';
}

/**
 * `[from, to]` of a report query (ISO-8601 UTC): `to` defaults to now, `from` to `DEFAULT_REPORT_DAYS` before
 * `to`. The resulting period is bounded whatever was given (both, one or neither): longer than
 * `MAX_REPORT_DAYS` days → 400 VALIDATION_FAILED on the parameter that was given (`query.from` when `to`
 * defaulted to now, else `query.to`), so no request reads more than that (docs/api.md#success-statuses).
 * @throws ApiError VALIDATION_FAILED
 */
export function reportPeriod(q: { from?: string | undefined; to?: string | undefined }, now: Date): { from: string; to: string } {
  const to = q.to ? new Date(q.to).toISOString() : now.toISOString();
  const from = q.from ? new Date(q.from).toISOString() : new Date(Date.parse(to) - DEFAULT_REPORT_DAYS * 86_400_000).toISOString();
  const days = (Date.parse(to) - Date.parse(from)) / 86_400_000;
  if (days > MAX_REPORT_DAYS) {
    const path = q.to === undefined ? 'query.from' : 'query.to';
    throw new ApiError('VALIDATION_FAILED', 'invalid request query', [{ path, message: `the period is at most ${MAX_REPORT_DAYS} days` }]);
  }
  if (days < 0) {
    throw new ApiError('VALIDATION_FAILED', 'invalid request query', [{ path: 'query.from', message: 'from must not be after to' }]);
  }
  return { from, to };
}

/**
 * The report of one tenant for the query's period, as JSON or (with `format: 'csv'`) a CSV download. The
 * period counted is the whole UTC days the asked one touches (`wholeUtcDays`, as analytics; the response's
 * `period` and the CSV file name say which), so the report reads only the tenant's day items, its below-SLA
 * index, one SOC queue Query and the heartbeat histogram — 4 requests whose size does not grow with how busy
 * the tenant is, plus the devices in an outage when there are any (`devicesInOutage`;
 * docs/data-model.md#reports-from-the-aggregates, docs/data-model.md#outages).
 */
export async function tenantReport(port: ReportsPort, tenantId: string, q: ReportRequest, now: Date): Promise<Report | CsvDownload> {
  const period = wholeUtcDays(reportPeriod(q, now));
  const data = await port.loadAggregates(tenantId, period.from, period.to, now);
  const report: Report = { tenantId, generatedAt: now.toISOString(), ...reportFromAggregates([data], period, now) };
  if (q.format === 'csv') return new CsvDownload(`vigia-${tenantId}-${period.from.slice(0, 10)}-${period.to.slice(0, 10)}.csv`, reportToCsv(report));
  return report;
}

/**
 * The whole UTC days period `p` touches: `from` to the start of its UTC day, `to` to the end of its UTC day
 * (the period reports and analytics count: docs/api.md#success-statuses).
 */
export function wholeUtcDays(p: { from: string; to: string }): { from: string; to: string } {
  return { from: `${p.from.slice(0, 10)}T00:00:00.000Z`, to: `${p.to.slice(0, 10)}T23:59:59.999Z` };
}

/** The validated analytics query (`AnalyticsQuery` output): a report query and the page. */
export interface AnalyticsRequest extends ReportRequest {
  cursor?: string | undefined;
  limit?: number | undefined;
}

/**
 * Pages the CSV export reads at most (`analytics` with `format: 'csv'`): 2,000 pages of 3 tenants (`analyticsPageSize`)
 * — 6,000 tenants for any period. Past it the export fails
 * (500) rather than send a file that leaves tenants out.
 */
export const ANALYTICS_CSV_MAX_PAGES = 2_000;

/**
 * The admin analytics (`GET /analytics`) for the whole UTC days the query's period touches (`wholeUtcDays`).
 * JSON: ONE page of tenants (after `q.cursor`, at most `q.limit`), each with its report figures, read by
 * `ReportsPort.loadAnalyticsPage` in at most `ANALYTICS_PAGE_REQUESTS` (10) DynamoDB requests whatever the
 * number of tenants (more only for devices in an outage); `totals` (the figures across every tenant) only
 * when that one page holds the whole registry, else null. CSV: every tenant, the loader's pages read one
 * after the other on the server (at most `ANALYTICS_CSV_MAX_PAGES`), the totals' rows first, then each
 * tenant's rows without the header line (docs/api.md#analytics).
 */
export async function analytics(ports: { reports: Pick<ReportsPort, 'loadAnalyticsPage'> }, q: AnalyticsRequest, now: Date): Promise<Analytics | CsvDownload> {
  const period = wholeUtcDays(reportPeriod(q, now));
  const rowsOf = (page: AnalyticsPageData) => page.tenants.map((t, i) => ({ tenantId: t.id, tenantName: t.name, ...reportFromAggregates([page.data[i]!], period, now) }));
  if (q.format === 'csv') {
    const data: ReportAggregates[] = [];
    const tenants: Analytics['tenants'] = [];
    let cursor: string | undefined;
    for (let pages = 0; ; pages++) {
      if (pages === ANALYTICS_CSV_MAX_PAGES) throw new Error(`analytics CSV: more than ${ANALYTICS_CSV_MAX_PAGES} pages of tenants`);
      const page = await ports.reports.loadAnalyticsPage({ cursor }, period.from, period.to, now);
      data.push(...page.data);
      tenants.push(...rowsOf(page));
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    const parts = [reportToCsv(reportFromAggregates(data, period, now)), ...tenants.map((t) => reportToCsv(t).split('\r\n').slice(1).join('\r\n'))];
    return new CsvDownload(`vigia-analytics-${period.from.slice(0, 10)}-${period.to.slice(0, 10)}.csv`, parts.join(''));
  }
  const page = await ports.reports.loadAnalyticsPage({ cursor: q.cursor, limit: q.limit }, period.from, period.to, now);
  return {
    generatedAt: now.toISOString(),
    period,
    totals: !q.cursor && page.nextCursor === null ? reportFromAggregates(page.data, period, now) : null,
    tenants: rowsOf(page),
    nextCursor: page.nextCursor,
  };
}

const round2 = (x: number) => Math.round(x * 100) / 100;
const mean = (xs: number[]) => (xs.length ? round2(xs.reduce((a, b) => a + b, 0) / xs.length) : null);
const minutesBetween = (a: string, b: string) => (Date.parse(b) - Date.parse(a)) / 60_000;

/**
 * Figures of one or several tenants (several = analytics totals) for `[from, to]` at `now` from their
 * aggregates (`ReportAggregates`): the day counters of the whole days and the hour counters of the whole
 * hours of the partial days, plus the contributions of the partial hours' incidents and the partial days'
 * alarms (the same functions that maintain the counters), so the figures are those of `buildReport` over
 * the items; `openBreached` from the SLA-due-hour counters before the hour of the horizon, the boundary
 * hour's count and the partial hours' incidents. Availability: the fleet figure over
 * the period's UTC days and the devices below the target now, both with the open outages at `now`
 * (`outageTimeCounters` of the histogram's outage time, `belowTargetWithOutages`; docs/data-model.md#outages).
 */
export function reportFromAggregates(data: readonly ReportAggregates[], period: { from: string; to: string }, now: Date): ReportFigures {
  const horizon = new Date(Math.min(Date.parse(period.to), now.getTime())).toISOString();
  const horizonHour = hourOf(horizon);
  const c: Counters = {};
  let openBreached = 0;
  const belowSla: ReportFigures['availability']['belowSla'] = [];
  const availability: Counters[] = [];
  for (const d of data) {
    for (const counters of [...d.wholeDays, ...d.wholeHours]) {
      sumInto(c, counters);
      openBreached += openDueBefore(counters, horizonHour);
    }
    openBreached += d.boundaryBreached;
    for (const i of d.partialIncidents) {
      sumInto(c, incidentDay(i));
      if (isUnresolved(i) && i.slaDueAt < horizon) openBreached++;
    }
    for (const a of d.partialAlarms) sumInto(c, alarmDay(a));
    for (const counters of d.partialAlarmCounters ?? []) sumInto(c, counters);
    // The devices in an outage now count as their return heartbeat would (docs/data-model.md#outages).
    availability.push(...d.availabilityDays, ...outageTimeCounters(d.outages?.dayMs, availabilityDays(period.from, period.to), d.outages?.devices));
    belowSla.push(...belowTargetWithOutages(d.belowSla, d.outages?.devices ?? [], now, BELOW_SLA_LISTED).map((b) => ({ tenantId: d.tenantId, ...b })));
  }
  const bySeverity = Object.fromEntries(SEVERITIES.map((s) => [s, c[agg.created(s)] ?? 0])) as Record<Severity, number>;
  const byStatus = Object.fromEntries(INCIDENT_STATUSES.map((s) => [s, c[agg.createdStatus(s)] ?? 0])) as ReportFigures['incidents']['byStatus'];
  const meanMinutes = (sum: number | undefined, n: number | undefined) => (n ? round2((sum ?? 0) / n / 60_000) : null);
  const resolved = c[agg.ttrCount] ?? 0;
  const within = c[agg.slaMet] ?? 0;
  const titles = new Map<string, { count: number; highestSeverity: Severity }>();
  for (const [k, v] of Object.entries(c)) {
    const named = v === 0 ? null : alarmTitleOf(k);
    if (!named) continue;
    const { title, severity } = named;
    const g = titles.get(title);
    if (!g) titles.set(title, { count: v, highestSeverity: severity });
    else {
      g.count += v;
      if (SEVERITIES.indexOf(severity) < SEVERITIES.indexOf(g.highestSeverity)) g.highestSeverity = severity;
    }
  }
  return {
    period,
    incidents: { total: SEVERITIES.reduce((n, s) => n + bySeverity[s], 0), bySeverity, byStatus },
    mttaMinutes: meanMinutes(c[agg.ttaSumMs], c[agg.ttaCount]),
    mttrMinutes: meanMinutes(c[agg.ttrSumMs], c[agg.ttrCount]),
    sla: { resolved, resolvedWithinSla: within, compliancePct: resolved ? round2((within / resolved) * 100) : null, openBreached },
    availability: {
      slaTargetPct: AVAILABILITY_SLA_TARGET_PCT,
      fleetPct: fleetAvailabilityPct(availability),
      belowSla: belowSla.sort((a, b) => a.availability30d - b.availability30d || a.name.localeCompare(b.name)).slice(0, BELOW_SLA_LISTED),
    },
    topAlarms: topAlarmsOf(titles),
  };
}

/** Devices below the availability target a report lists. */
export const BELOW_SLA_LISTED = 10;

/** The 10 most frequent alarm titles, most frequent first (ties by title). */
function topAlarmsOf(groups: Map<string, { count: number; highestSeverity: Severity }>): ReportFigures['topAlarms'] {
  return [...groups.entries()]
    .map(([title, g]) => ({ title, ...g }))
    .sort((a, b) => b.count - a.count || a.title.localeCompare(b.title))
    .slice(0, 10);
}

/**
 * Figures of one or several tenants' data read from the items (`loadReportData`) for `[from, to]` at `now`:
 * the reference `reportFromAggregates` is tested against (O(items)); its availability is the fleet figure of
 * the devices' days with their open outages at `now` (`withOpenOutage`) and lists no device below the target
 * (that list comes from the roll-ups).
 */
export function buildReport(data: readonly ReportData[], period: { from: string; to: string }, now: Date): ReportFigures {
  const bySeverity = Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>;
  const byStatus = Object.fromEntries(INCIDENT_STATUSES.map((s) => [s, 0])) as ReportFigures['incidents']['byStatus'];
  const tta: number[] = [];
  const ttr: number[] = [];
  let resolved = 0;
  let within = 0;
  let openBreached = 0;
  const horizon = Math.min(Date.parse(period.to), now.getTime());
  let total = 0;
  // The period's UTC days, chosen as the status page chooses its 30 days (docs/data-model.md#availability).
  const window = availabilityDays(period.from, period.to);
  for (const d of data) {
    for (const { incident: i, firstResponseAt } of d.incidents) {
      total++;
      bySeverity[i.severity]++;
      byStatus[i.status]++;
      if (firstResponseAt) tta.push(minutesBetween(i.createdAt, firstResponseAt));
      if (i.resolvedAt) {
        resolved++;
        ttr.push(minutesBetween(i.createdAt, i.resolvedAt));
        // A closed incident's SLA result was fixed when it closed and never changes (docs/sla.md).
        if (i.slaResult ? i.slaResult === 'met' : i.resolvedAt <= i.slaDueAt) within++;
      } else if (i.status !== 'closed' && Date.parse(i.slaDueAt) < horizon) {
        openBreached++;
      }
    }
  }
  // Each device's days with its open outage at `now` (docs/data-model.md#outages).
  const fleet: Counters[] = data.flatMap((d) =>
    d.devices.flatMap(({ device, days }) => withOpenOutage(days, device.lastHeartbeatAt, now).filter((x) => x.date >= window.first && x.date <= window.last).map((x) => availabilityDay(x))),
  );
  const groups = new Map<string, { count: number; highestSeverity: Severity }>();
  for (const a of data.flatMap((d) => d.alarms)) {
    const g = groups.get(a.title);
    if (!g) groups.set(a.title, { count: 1, highestSeverity: a.severity });
    else {
      g.count++;
      if (SEVERITIES.indexOf(a.severity) < SEVERITIES.indexOf(g.highestSeverity)) g.highestSeverity = a.severity;
    }
  }
  return {
    period,
    incidents: { total, bySeverity, byStatus },
    mttaMinutes: mean(tta),
    mttrMinutes: mean(ttr),
    sla: { resolved, resolvedWithinSla: within, compliancePct: resolved ? round2((within / resolved) * 100) : null, openBreached },
    availability: { slaTargetPct: AVAILABILITY_SLA_TARGET_PCT, fleetPct: fleetAvailabilityPct(fleet), belowSla: [] },
    topAlarms: topAlarmsOf(groups),
  };
}

/**
 * The report as CSV: `section,key,value[,extra]` rows, one section per figure (UTF-8, CRLF lines), written
 * by the project's one CSV writer (`lambdas/contract/csv.ts`: RFC 4180, formula-like cells neutralised).
 */
export function reportToCsv(r: ReportFigures & { tenantId?: string }): string {
  const rows: CsvCell[][] = [['section', 'key', 'value', 'extra']];
  if (r.tenantId) rows.push(['report', 'tenant', r.tenantId, null]);
  rows.push(['report', 'from', r.period.from, null], ['report', 'to', r.period.to, null]);
  rows.push(['incidents', 'total', r.incidents.total, null]);
  for (const [k, v] of Object.entries(r.incidents.bySeverity)) rows.push(['incidents_by_severity', k, v, null]);
  for (const [k, v] of Object.entries(r.incidents.byStatus)) rows.push(['incidents_by_status', k, v, null]);
  rows.push(['times', 'mtta_minutes', r.mttaMinutes, null], ['times', 'mttr_minutes', r.mttrMinutes, null]);
  rows.push(
    ['sla', 'resolved', r.sla.resolved, null],
    ['sla', 'resolved_within_sla', r.sla.resolvedWithinSla, null],
    ['sla', 'compliance_pct', r.sla.compliancePct, null],
    ['sla', 'open_breached', r.sla.openBreached, null],
  );
  rows.push(['availability', 'fleet_pct', r.availability.fleetPct, null], ['availability', 'sla_target_pct', r.availability.slaTargetPct, null]);
  for (const d of r.availability.belowSla) rows.push(['below_sla_30d_pct', `${d.tenantId}/${d.deviceId}`, d.availability30d, d.name]);
  for (const a of r.topAlarms) rows.push(['top_alarms', a.title, a.count, a.highestSeverity]);
  return csvText(rows, { trailingNewline: true });
}
