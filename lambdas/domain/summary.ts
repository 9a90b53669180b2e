/**
 * `GET /summary` (docs/api.md#summary): the tenant's figures now and per UTC day, from its write-time
 * aggregates (docs/data-model.md#aggregates) — ONE Query of the head (stats + heartbeat histogram), then at
 * once one Query of at most `MAX_SUMMARY_DAYS` day items (a second one for the 30-day availability when the
 * series does not cover it), one Query of the below-SLA index and, with a device down, the outage reads
 * (lambdas/data/outages.ts): two round trips, whatever the tenant's size. The dashboard and the calendar read it instead of paging the lists.
 */
import { createHash } from 'node:crypto';
import { MAX_SUMMARY_DAYS, O365_ALARM_STATUSES, SEVERITIES, type Severity, type Summary } from '../contract/schemas.js';
import { agg, devicesByStatus, devicesDown, fleetAvailabilityPct, histogramOutage, incidentCounts, type Counters } from './aggregates.js';
import { addDays, AVAILABILITY_SLA_TARGET_PCT, AVAILABILITY_WINDOW_DAYS } from './devices.js';
import { ApiError } from './errors.js';
import { belowTargetWithOutages, outageTimeCounters } from './outages.js';
import type { ReportsPort } from './ports.js';

/** Devices below the availability SLA target the summary lists (the lowest). */
export const LOWEST_DEVICES = 10;

/** How long a summary stays current while a device is in an outage (its availability falls with time), ms. */
export const OUTAGE_REVALIDATE_MS = 60_000;

/** Days of the default series (the dashboard's incident trend). */
export const DEFAULT_SUMMARY_DAYS = 30;

const bySeverity = (c: Counters, name: (s: Severity) => string): Record<Severity, number> =>
  Object.fromEntries(SEVERITIES.map((s) => [s, c[name(s)] ?? 0])) as Record<Severity, number>;

/**
 * The summary of `tenantId` at `now` for the series `from..to` (UTC dates; default the `DEFAULT_SUMMARY_DAYS`
 * days ending today). The query schema bounds the series; a default end before a given start is refused.
 * @throws ApiError VALIDATION_FAILED when the resulting series is empty or longer than `MAX_SUMMARY_DAYS`.
 */
export async function tenantSummary(port: Pick<ReportsPort, 'aggregateHead' | 'aggregateDays' | 'devicesBelowSla' | 'devicesInOutage'>, tenantId: string, q: { from?: string | undefined; to?: string | undefined }, now: Date): Promise<Summary> {
  return (await readSummary(port, tenantId, q, now)).summary;
}

/** The summary and the validator (`summaryEtag`) of the figures it was built from. */
async function readSummary(port: Pick<ReportsPort, 'aggregateHead' | 'aggregateDays' | 'devicesBelowSla' | 'devicesInOutage'>, tenantId: string, q: { from?: string | undefined; to?: string | undefined }, now: Date): Promise<{ summary: Summary; etag: string }> {
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
  // The head (stats, change marker, heartbeat histogram: ONE Query) before the rest: what is read after the
  // marker is at least as new as the marker, so the ETag never vouches for older figures
  // (docs/data-model.md#aggregates). Then everything else at once — the series' days (and the availability
  // window's when the series does not cover it), the below-target index and, only when the histogram shows a
  // device down, the devices in an outage (docs/data-model.md#outages): two round trips on the way to the
  // answer, three when the outage markers are behind.
  const head = await port.aggregateHead(tenantId);
  const byStatus = devicesByStatus(head.heartbeat, now);
  const [days, windowDays, stored, outages] = await Promise.all([
    port.aggregateDays(tenantId, from, to),
    covered ? null : port.aggregateDays(tenantId, window.first, window.last),
    port.devicesBelowSla(tenantId, now, LOWEST_DEVICES),
    devicesDown(byStatus) > 0 ? port.devicesInOutage(tenantId, now, head.heartbeat) : [],
  ]);
  const a = { ...head, days };
  const lowest = belowTargetWithOutages(stored, outages, now, LOWEST_DEVICES);
  // The fleet's open-outage time from the histogram already read (`histogramOutage`: no device read).
  const last30 = [
    ...(covered ? [...a.days].filter(([d]) => d >= window.first && d <= window.last).map(([, c]) => c) : [...windowDays!.values()]),
    ...outageTimeCounters(Object.fromEntries(histogramOutage(a.heartbeat, now)), window, outages),
  ];
  const counts = incidentCounts(a.stats);
  const alarmsOpen = bySeverity(a.stats, agg.openAlarms);
  const summary: Summary = {
    tenantId,
    generatedAt: now.toISOString(),
    incidents: { open: SEVERITIES.reduce((n, s) => n + counts.openBySeverity[s], 0), openBySeverity: counts.openBySeverity, byStatus: counts.byStatus },
    alarms: { open: SEVERITIES.reduce((n, s) => n + alarmsOpen[s], 0), openBySeverity: alarmsOpen, active: a.stats[agg.alarmState('active')] ?? 0, acknowledged: a.stats[agg.alarmState('acknowledged')] ?? 0 },
    office365: { alarmsByStatus: Object.fromEntries(O365_ALARM_STATUSES.map((s) => [s, a.stats[agg.o365Alarms(s)] ?? 0])) as Summary['office365']['alarmsByStatus'] },
    devices: { total: a.stats[agg.devices] ?? 0, byStatus },
    availability: { pct30d: fleetAvailabilityPct(last30), slaTargetPct: AVAILABILITY_SLA_TARGET_PCT, belowSla: lowest },
    days: Array.from({ length }, (_, i) => {
      const date = addDays(from, i);
      const c = a.days.get(date) ?? {};
      return { date, incidentsCreated: bySeverity(c, agg.created), alarmsRaised: bySeverity(c, agg.alarmsRaised) };
    }),
  };
  return { summary, etag: summaryEtag(a.marker, statusDigest(devicesByStatus(a.heartbeat, now)), summaryValidUntil(a.heartbeat, now), summaryKey(tenantId, q)) };
}

/**
 * Until when (epoch ms, exclusive) the summary built at `now` stays what the same writes would give, but for
 * the device statuses (validated on each conditional request from the histogram, {@link statusDigest}): at
 * most `HEARTBEAT_FIGURES_MAX_AGE_MS` (the availability the heartbeats record with no change-marker bump), the next UTC midnight (the default series, the
 * 30-day window and the below-SLA figures move to the next day), or, while a device is in an outage,
 * `OUTAGE_REVALIDATE_MS` after `now` (its downtime grows with no write), whichever comes first.
 */
export function summaryValidUntil(hist: Counters, now: Date): number {
  const t = now.getTime();
  let until = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  // A device in an outage lowers the availability figures as time passes (docs/data-model.md#outages): a minute.
  const byStatus = devicesByStatus(hist, now);
  if (devicesDown(byStatus) > 0) until = Math.min(until, t + OUTAGE_REVALIDATE_MS);
  return Math.min(until, t + HEARTBEAT_FIGURES_MAX_AGE_MS);
}

/**
 * How long (ms) a summary's heartbeat-recorded figures (the fleet's 30-day availability and the devices below
 * target, moved by heartbeats that no longer bump the change marker: docs/data-model.md#aggregates) may be
 * served unchanged by a 304: one hour, 0.14 % of the 30-day window.
 */
export const HEARTBEAT_FIGURES_MAX_AGE_MS = 3_600_000;

/**
 * The device statuses a summary shows (`devicesByStatus` of the heartbeat histogram at the request's time),
 * as 8 hex digits: part of the ETag, recomputed on a conditional request from the histogram read with the
 * change marker, so a status that time or a heartbeat moved ends the 304 at once, and heartbeats that leave
 * the statuses as they were do not.
 */
export function statusDigest(byStatus: Record<string, number>): string {
  const canonical = Object.keys(byStatus).sort().map((k) => `${k}=${byStatus[k]}`).join(',');
  return createHash('sha256').update(canonical).digest('hex').slice(0, 8);
}

/** What identifies one summary request's answer besides the figures: tenant and series (12 hex digits). */
export function summaryKey(tenantId: string, q: { from?: string | undefined; to?: string | undefined }): string {
  return createHash('sha256').update(`${tenantId}\n${q.from ?? ''}\n${q.to ?? ''}`).digest('hex').slice(0, 12);
}

/**
 * The weak ETag of a summary (RFC 9110 section 8.8.3; weak: `generatedAt` differs between equal answers):
 * `W/"s2.<change marker>.<statusDigest>.<valid until, epoch ms base 36>.<summaryKey>"`.
 */
export function summaryEtag(marker: number, digest: string, validUntil: number, key: string): string {
  return `W/"s2.${marker}.${digest}.${validUntil.toString(36)}.${key}"`;
}

/**
 * Whether an `If-None-Match` value (one or more entity tags, weak or strong) names a summary answer that is
 * still current: same tenant and series, the tenant's change marker unchanged, the same device statuses
 * (`digest`, {@link statusDigest} now), and `now` before its valid-until instant; returns the entity tag that
 * matched, or null. `*` does not match (a summary always exists; a client that sends it wants it anyway).
 */
export function summaryStillCurrent(ifNoneMatch: string, marker: number, digest: string, key: string, now: Date): string | null {
  for (const raw of ifNoneMatch.split(',')) {
    const m = /^(?:W\/)?"s2\.(\d{1,15})\.([0-9a-f]{8})\.([0-9a-z]{1,12})\.([0-9a-f]{12})"$/.exec(raw.trim());
    if (m && Number(m[1]) === marker && m[2] === digest && now.getTime() < parseInt(m[3]!, 36) && m[4] === key) return raw.trim();
  }
  return null;
}

/**
 * `GET /summary` with conditional requests (docs/api.md#summary): with an `If-None-Match` that is still
 * current (`summaryStillCurrent`) the answer is `{ summary: null }` after ONE read (the change marker and
 * the heartbeat histogram, `ReportsPort.aggregateHead`: one Query of ≤ 0.5 RCU); otherwise the summary is built (`tenantSummary`) with its ETag.
 * @throws ApiError VALIDATION_FAILED as `tenantSummary`.
 */
export async function conditionalSummary(
  port: Pick<ReportsPort, 'aggregateHead' | 'aggregateDays' | 'devicesBelowSla' | 'devicesInOutage'>,
  tenantId: string,
  q: { from?: string | undefined; to?: string | undefined },
  now: Date,
  ifNoneMatch: string | undefined,
): Promise<{ summary: Summary | null; etag: string }> {
  const key = summaryKey(tenantId, q);
  if (ifNoneMatch && /"s2\./.test(ifNoneMatch)) {
    const { marker, heartbeat } = await port.aggregateHead(tenantId);
    const current = summaryStillCurrent(ifNoneMatch, marker, statusDigest(devicesByStatus(heartbeat, now)), key, now);
    if (current) return { summary: null, etag: current };
  }
  return readSummary(port, tenantId, q, now);
}
