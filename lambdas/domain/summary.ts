/**
 * `GET /summary` (docs/api.md#summary): the tenant's figures now and per UTC day, from its write-time
 * aggregates (docs/data-model.md#aggregates) — two GetItems, one Query of at most `MAX_SUMMARY_DAYS` day
 * items (a second one for the 30-day availability when the series does not cover it) and one Query of the
 * below-SLA index, whatever the tenant's size. The dashboard and the calendar read it instead of paging the lists.
 */
import { MAX_SUMMARY_DAYS, O365_ALARM_STATUSES, SEVERITIES, type Severity, type Summary } from '../contract/schemas.js';
import { agg, devicesByStatus, fleetAvailabilityPct, incidentCounts, type Counters } from './aggregates.js';
import { addDays, AVAILABILITY_SLA_TARGET_PCT, AVAILABILITY_WINDOW_DAYS } from './devices.js';
import { ApiError } from './errors.js';
import type { ReportsPort } from './ports.js';

/** Devices below the availability SLA target the summary lists (the lowest). */
export const LOWEST_DEVICES = 10;

/** Days of the default series (the dashboard's incident trend). */
export const DEFAULT_SUMMARY_DAYS = 30;

const bySeverity = (c: Counters, name: (s: Severity) => string): Record<Severity, number> =>
  Object.fromEntries(SEVERITIES.map((s) => [s, c[name(s)] ?? 0])) as Record<Severity, number>;

/**
 * The summary of `tenantId` at `now` for the series `from..to` (UTC dates; default the `DEFAULT_SUMMARY_DAYS`
 * days ending today). The query schema bounds the series; a default end before a given start is refused.
 * @throws ApiError VALIDATION_FAILED when the resulting series is empty or longer than `MAX_SUMMARY_DAYS`.
 */
export async function tenantSummary(port: Pick<ReportsPort, 'aggregates' | 'aggregateDays' | 'devicesBelowSla'>, tenantId: string, q: { from?: string | undefined; to?: string | undefined }, now: Date): Promise<Summary> {
  const to = q.to ?? (q.from ? addDays(q.from, DEFAULT_SUMMARY_DAYS - 1) : now.toISOString().slice(0, 10));
  const from = q.from ?? addDays(to, 1 - DEFAULT_SUMMARY_DAYS);
  const length = Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1;
  if (length < 1 || length > MAX_SUMMARY_DAYS) {
    throw new ApiError('VALIDATION_FAILED', 'invalid request query', [{ path: q.to === undefined ? 'query.from' : 'query.to', message: `the series is 1 to ${MAX_SUMMARY_DAYS} days` }]);
  }
  // The fleet's 30-day availability needs today and the 29 days before: read with the series when it covers
  // them (the default), else with a second Query.
  const today = now.toISOString().slice(0, 10);
  const window = { first: addDays(today, 1 - AVAILABILITY_WINDOW_DAYS), last: today };
  const covered = from <= window.first && to >= window.last;
  const [a, windowDays, lowest] = await Promise.all([
    port.aggregates(tenantId, from, to),
    covered ? null : port.aggregateDays(tenantId, window.first, window.last),
    port.devicesBelowSla(tenantId, now, LOWEST_DEVICES),
  ]);
  const last30 = covered ? [...a.days].filter(([d]) => d >= window.first && d <= window.last).map(([, c]) => c) : [...windowDays!.values()];
  const counts = incidentCounts(a.stats);
  const alarmsOpen = bySeverity(a.stats, agg.openAlarms);
  return {
    tenantId,
    generatedAt: now.toISOString(),
    incidents: { open: SEVERITIES.reduce((n, s) => n + counts.openBySeverity[s], 0), openBySeverity: counts.openBySeverity, byStatus: counts.byStatus },
    alarms: { open: SEVERITIES.reduce((n, s) => n + alarmsOpen[s], 0), openBySeverity: alarmsOpen, active: a.stats[agg.alarmState('active')] ?? 0, acknowledged: a.stats[agg.alarmState('acknowledged')] ?? 0 },
    office365: { alarmsByStatus: Object.fromEntries(O365_ALARM_STATUSES.map((s) => [s, a.stats[agg.o365Alarms(s)] ?? 0])) as Summary['office365']['alarmsByStatus'] },
    devices: { total: a.stats[agg.devices] ?? 0, byStatus: devicesByStatus(a.heartbeat, now) },
    availability: { pct30d: fleetAvailabilityPct(last30), slaTargetPct: AVAILABILITY_SLA_TARGET_PCT, belowSla: lowest },
    days: Array.from({ length }, (_, i) => {
      const date = addDays(from, i);
      const c = a.days.get(date) ?? {};
      return { date, incidentsCreated: bySeverity(c, agg.created), alarmsRaised: bySeverity(c, agg.alarmsRaised) };
    }),
  };
}
