/**
 * Device rules: status derived from the last heartbeat, 30-day availability, open alarms.
 *
 * Plain functions over a storage port (`DevicesPort`, implemented in `lambdas/data/devices.ts`);
 * no AWS imports. Times are ISO-8601 UTC; durations in ms; availability in % (0–100).
 */
import { auditEntryFor } from './audit.js';
import { ALARM_STATES, type AlarmConsoleItem, type AlarmState, type Device, type DeviceAlarm, type DeviceDetail, type DeviceStatus, type Page } from '../contract/schemas.js';
import { ApiError } from './errors.js';
import type { Identity } from './identity.js';
import type { AvailabilityRollup, DailyAvailability, DevicesPort, MaintenanceWindowsPort } from './ports.js';
import { actorName } from './incidents.js';
import { coveringSpans, overlapMs, withoutSpans, type Span } from './maintenance-availability.js';

/**
 * The one place the heartbeat thresholds live: a device is `online` if its last heartbeat is at most
 * 5 min old, `degraded` up to 15 min, `offline` beyond, `unknown` if it never sent one.
 */
export const HEARTBEAT_THRESHOLDS_MS = { online: 5 * 60_000, degraded: 15 * 60_000 } as const;

/** Days of daily availability items that make up `availability30d` (today UTC and the 29 days before). */
export const AVAILABILITY_WINDOW_DAYS = 30;

/** Alarm states (from the contract); `active` and `acknowledged` count as open. */
export { ALARM_STATES, type AlarmState };
export const OPEN_ALARM_STATES: readonly AlarmState[] = ['active', 'acknowledged'];

/** Status at `now` from `lastHeartbeatAt` (a heartbeat in the future — clock skew — counts as online). */
export function deviceStatus(lastHeartbeatAt: string | null, now: Date): DeviceStatus {
  if (!lastHeartbeatAt) return 'unknown';
  const t = Date.parse(lastHeartbeatAt);
  if (Number.isNaN(t)) return 'unknown';
  const age = now.getTime() - t;
  if (age <= HEARTBEAT_THRESHOLDS_MS.online) return 'online';
  if (age <= HEARTBEAT_THRESHOLDS_MS.degraded) return 'degraded';
  return 'offline';
}

/**
 * What a heartbeat at `at` adds to the availability of its UTC day, given the previous heartbeat at
 * `previousAt` (both ISO-8601 UTC): the interval between them, capped at one day, is monitored time, and
 * also available time when it is within the online threshold (`HEARTBEAT_THRESHOLDS_MS.online`). Seconds;
 * an `at` not after `previousAt` adds nothing.
 */
export function heartbeatInterval(previousAt: string, at: string): { monitoredSeconds: number; upSeconds: number } {
  const monitoredSeconds = Math.min(86_400, Math.max(0, (Date.parse(at) - Date.parse(previousAt)) / 1000));
  return { monitoredSeconds, upSeconds: monitoredSeconds * 1000 <= HEARTBEAT_THRESHOLDS_MS.online ? monitoredSeconds : 0 };
}

/**
 * Days an outage is counted back from its end (the return heartbeat, or `now` while it lasts): today UTC and
 * the days before it, the window of `availability30d` (docs/data-model.md#outages). Bounds the day items a
 * return heartbeat writes (2 per day in one TransactWriteItems of at most 100).
 */
export const OUTAGE_MAX_DAYS = AVAILABILITY_WINDOW_DAYS;

/**
 * The instant (epoch ms) after which a device whose recorded last heartbeat is `lastHeartbeatAt` (the device
 * item's, the first heartbeat of its last UTC minute) is in an outage: the start of that minute + the online
 * threshold, the instant the heartbeat histogram's minute ages past it (`devicesByStatus`). Null for none.
 */
export function outageAfter(lastHeartbeatAt: string | null): number | null {
  if (!lastHeartbeatAt) return null;
  const t = Date.parse(lastHeartbeatAt);
  return Number.isNaN(t) ? null : Math.floor(t / 60_000) * 60_000 + HEARTBEAT_THRESHOLDS_MS.online;
}

/**
 * The interval `[fromMs, toMs)` (epoch ms) split per UTC day, only its part within the `OUTAGE_MAX_DAYS`
 * days ending on the UTC day of `toMs`: `yyyy-mm-dd` → ms, oldest first.
 */
export function outageDays(fromMs: number, toMs: number): Map<string, number> {
  const out = new Map<string, number>();
  const lastDay = Math.floor(toMs / 86_400_000);
  let t = Math.max(fromMs, (lastDay - (OUTAGE_MAX_DAYS - 1)) * 86_400_000);
  while (t < toMs) {
    const end = Math.min(toMs, (Math.floor(t / 86_400_000) + 1) * 86_400_000);
    out.set(new Date(t).toISOString().slice(0, 10), end - t);
    t = end;
  }
  return out;
}

/**
 * The open outage of a device at `now` (docs/data-model.md#outages): when `now` is past `outageAfter`, the
 * time from its recorded last heartbeat to `now` is monitored, unavailable time, per UTC day (ms, capped as
 * `outageDays`) — exactly what its return heartbeat at `now` would write (`heartbeatTime`). Empty otherwise.
 * `maintenance`: the merged spans of the windows covering the device (`coveringSpans`), whose time is not
 * downtime (docs/sla.md#maintenance-windows); a day left with 0 ms stays in the map.
 */
export function openOutage(lastHeartbeatAt: string | null, now: Date, maintenance: readonly Span[] = []): Map<string, number> {
  const after = outageAfter(lastHeartbeatAt);
  if (after === null || !(now.getTime() > after)) return new Map();
  const from = Date.parse(lastHeartbeatAt!);
  return withoutSpans(outageDays(from, now.getTime()), from, maintenance);
}

/**
 * Ms per UTC day of the open outage of a device whose recorded last heartbeat is `lastHeartbeatAt`, at `now`,
 * inside `spans` (its covering windows, `coveringSpans`): `openOutage` without the spans minus with them; days
 * with none left out. What the fleet figures take off the histogram's outage time (`DeviceOutage.maintenanceMs`).
 */
export function maintenanceOfOutage(lastHeartbeatAt: string, now: Date, spans: readonly Span[]): Record<string, number> {
  const kept = openOutage(lastHeartbeatAt, now, spans);
  const out: Record<string, number> = {};
  for (const [date, ms] of openOutage(lastHeartbeatAt, now)) {
    const excluded = ms - (kept.get(date) ?? 0);
    if (excluded > 0) out[date] = excluded;
  }
  return out;
}

/**
 * The downtime a heartbeat at `at` would record (`heartbeatTime`'s arguments), as one `[start, end)` interval in
 * epoch ms, or null when it records none (the gap is within the online threshold): past `outageAfter(recordedAt)`
 * the outage from `recordedAt`; otherwise a gap since `previousAt` beyond the online threshold (capped at one
 * day, as `heartbeatInterval`). The interval whose maintenance windows `ingestHeartbeat` reads (ONE Query, only
 * then; docs/sla.md#maintenance-windows).
 */
export function downtimeSpan(recordedAt: string, previousAt: string, at: string): Span | null {
  const end = Date.parse(at);
  if (end > outageAfter(recordedAt)!) return [Date.parse(recordedAt), end];
  const gap = heartbeatInterval(previousAt, at);
  return gap.monitoredSeconds > 0 && gap.upSeconds < gap.monitoredSeconds ? [end - Math.round(gap.monitoredSeconds * 1000), end] : null;
}

/**
 * What a heartbeat at `at` adds to the device's days (ms per UTC day, `m` monitored, `u` available), given
 * its recorded last heartbeat `recordedAt` (the device item's) and the exact previous one `previousAt` (a later
 * heartbeat of the same minute, or `recordedAt`): past `outageAfter(recordedAt)` the whole interval from
 * `recordedAt` is an outage (`outageDays`, unavailable); otherwise the same-minute heartbeats after
 * `recordedAt` on its day and the interval since `previousAt` (`heartbeatInterval`) on the day of `at`, all
 * available. So an outage counts once, the same whether read while it lasts (`openOutage`) or written at its end.
 * `maintenance`: the merged spans of the windows covering the device over `downtimeSpan` (`coveringSpans`): their
 * time in the downtime is left out of the monitored time (docs/sla.md#maintenance-windows).
 */
export function heartbeatTime(recordedAt: string, previousAt: string, at: string, maintenance: readonly Span[] = []): Map<string, { m: number; u: number }> {
  const time = new Map<string, { m: number; u: number }>();
  if (Date.parse(at) > outageAfter(recordedAt)!) {
    const from = Date.parse(recordedAt);
    for (const [date, ms] of withoutSpans(outageDays(from, Date.parse(at)), from, maintenance)) time.set(date, { m: ms, u: 0 });
    return time;
  }
  const add = (date: string, m: number, u: number) => {
    const t = time.get(date) ?? { m: 0, u: 0 };
    time.set(date, { m: t.m + m, u: t.u + u });
  };
  const tail = Date.parse(previousAt) - Date.parse(recordedAt);
  if (tail > 0) add(recordedAt.slice(0, 10), tail, tail);
  const gap = heartbeatInterval(previousAt, at);
  const m = Math.round(gap.monitoredSeconds * 1000);
  // A gap beyond the online threshold is downtime: its time inside a covering window is not monitored.
  const excluded = gap.upSeconds < gap.monitoredSeconds ? overlapMs(maintenance, Date.parse(at) - m, Date.parse(at)) : 0;
  add(at.slice(0, 10), m - excluded, Math.round(gap.upSeconds * 1000));
  return time;
}

/**
 * The device's open outage at `now` (`openOutage`) as day entries, oldest first: one per UTC day of it,
 * `availablePct` 0 and its monitored seconds (ms / 1000) — the monitored, unavailable time the readers add to
 * the stored days (docs/data-model.md#outages). Empty when the device is not in an outage.
 */
export function openOutageDays(lastHeartbeatAt: string | null, now: Date, maintenance: readonly Span[] = []): DailyAvailability[] {
  return [...openOutage(lastHeartbeatAt, now, maintenance)].filter(([, ms]) => ms > 0).map(([date, ms]) => ({ date, availablePct: 0, monitoredSeconds: ms / 1000 }));
}

/**
 * The stored days `days` with the device's open outage at `now` added (`openOutageDays`, appended after the
 * stored days: a day of the outage that also has stored figures appears twice, the stored entry unchanged
 * and the outage's). `availabilityPct` over them is the monitored-time-weighted figure the day items give
 * after the return heartbeat's `ADD` (the outage's available time is 0), and — because the outage entries
 * come last — bit-identical to the roll-up's figure with the outage (`availabilityFromRollup` with a
 * `lastHeartbeatAt`), which continues the same sums (`availabilitySums`) from the stored days' totals.
 * The one read-time rule of every availability figure (device page, device list, below-target list, fleet
 * figure, reports). For a per-day display, `mergeDays`.
 */
export function withOpenOutage(days: readonly DailyAvailability[], lastHeartbeatAt: string | null, now: Date, maintenance: readonly Span[] = []): DailyAvailability[] {
  return [...days, ...openOutageDays(lastHeartbeatAt, now, maintenance)];
}

/**
 * One entry per UTC day of `days` (as `withOpenOutage` gives them): the entries of a day combined — monitored
 * seconds added (those ≤ 0 count as 0), available % = Σ clamp(pct) / 100 × monitored / Σ monitored × 100 —
 * in first-seen order. The device page's daily figures.
 */
export function mergeDays(days: readonly DailyAvailability[]): DailyAvailability[] {
  const out = new Map<string, { up: number; mon: number }>();
  for (const d of days) {
    const mon = d.monitoredSeconds > 0 ? d.monitoredSeconds : 0;
    const up = (Math.min(100, Math.max(0, d.availablePct)) / 100) * mon;
    const cur = out.get(d.date);
    out.set(d.date, cur ? { up: cur.up + up, mon: cur.mon + mon } : { up, mon });
  }
  return days.flatMap((d) => {
    const m = out.get(d.date);
    if (!m) return [];
    out.delete(d.date);
    const single = days.filter((x) => x.date === d.date).length === 1;
    return [single ? d : { date: d.date, availablePct: m.mon > 0 ? (m.up / m.mon) * 100 : 0, monitoredSeconds: m.mon }];
  });
}

/**
 * Availability target of the managed-service SLA, % per window (the one place it is set; contractual
 * figure of the service description, 99.5 % = at most ~3.6 h down per 30 days).
 */
export const AVAILABILITY_SLA_TARGET_PCT = 99.5;

/** Windows reported by `GET /devices/{id}`, days. */
export const AVAILABILITY_WINDOWS = [7, 30, 90] as const;

/** `yyyy-mm-dd` (UTC) of the first day of the `days`-day window ending on `now`'s UTC day. */
export function availabilityWindowStart(now: Date, days: number = AVAILABILITY_WINDOW_DAYS): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  d.setUTCDate(d.getUTCDate() - (days - 1));
  return d.toISOString().slice(0, 10);
}

/**
 * The UTC days whose daily figures make up the availability of the period `[from, to]` (ISO-8601 UTC):
 * the day of `to` and the days before it, as many as whole days in the period (rounded, at least one).
 * A rolling 30-day period (`to` = now, `from` = now − 30 × 24 h) is today UTC and the 29 days before, the
 * window of `availability30d`; the same rule for the status page, the device page and the reports
 * (docs/data-model.md#availability). Returns inclusive `yyyy-mm-dd` bounds.
 */
export function availabilityDays(from: string, to: string): { first: string; last: string } {
  const last = new Date(to).toISOString().slice(0, 10);
  const count = Math.max(1, Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000));
  return { first: addDays(last, -(count - 1)), last };
}

/**
 * What an availability figure is made of (docs/data-model.md#availability): `sum` = Σ clamp(pct, 0, 100) ×
 * monitored seconds and `weight` = Σ monitored seconds of the days in the window (% × s and s).
 */
export interface AvailabilitySums {
  sum: number;
  weight: number;
}

/**
 * The sums (`AvailabilitySums`) of the days of `days` within `first` … `last` (inclusive, `yyyy-mm-dd` UTC)
 * that have monitored time, accumulated in the order given, starting from `from` (default 0, 0). The one
 * accumulation of every availability figure: `availabilityPct`, the roll-up's per-day sums
 * (`availabilityRollup`) and their continuation with an open outage (`availabilityFromRollup`), so a figure
 * continued from stored sums is bit-identical to the one summed from scratch over the same days in the same order.
 */
export function availabilitySums(days: readonly DailyAvailability[], window: { first: string; last: string }, from: AvailabilitySums = { sum: 0, weight: 0 }): AvailabilitySums {
  let { sum, weight } = from;
  for (const d of days) {
    if (d.date < window.first || d.date > window.last || !(d.monitoredSeconds > 0)) continue;
    const pct = Math.min(100, Math.max(0, d.availablePct));
    weight += d.monitoredSeconds;
    sum += pct * d.monitoredSeconds;
  }
  return { sum, weight };
}

/** The figure of `AvailabilitySums`: Σ / weight, %, rounded to two decimals; null when the weight is 0. */
export function availabilityFigure(s: AvailabilitySums): number | null {
  if (s.weight === 0) return null;
  return Math.round((s.sum / s.weight) * 100) / 100;
}

/**
 * Availability % (0–100) of the days `first` … `last` (inclusive, `yyyy-mm-dd` UTC): the mean of the daily
 * figures (each clamped to 0–100) weighted by their monitored seconds, rounded to two decimals; days without
 * monitored time are left out; null when no day in the window has any (docs/data-model.md#availability).
 * The one availability formula of the API: `availability30d`, the device page's windows and the reports use it
 * (`availabilityFigure` of `availabilitySums`).
 */
export function availabilityPct(days: readonly DailyAvailability[], window: { first: string; last: string }): number | null {
  return availabilityFigure(availabilitySums(days, window));
}

/** The UTC days of the `windowDays`-day window ending on `now`'s UTC day (`availabilityDays` of `[now − windowDays × 24 h, now]`). */
export function availabilityWindow(now: Date, windowDays: number = AVAILABILITY_WINDOW_DAYS): { first: string; last: string } {
  return availabilityDays(new Date(now.getTime() - windowDays * 86_400_000).toISOString(), now.toISOString());
}

/**
 * Availability over the `windowDays`-day window ending on `now`'s UTC day (`availabilityPct` of the rolling
 * period `[now − windowDays × 24 h, now]`, see `availabilityDays`); null when no day has monitored time.
 */
export function availability30d(days: readonly DailyAvailability[], now: Date, windowDays: number = AVAILABILITY_WINDOW_DAYS): number | null {
  return availabilityPct(days, availabilityWindow(now, windowDays));
}

/** `yyyy-mm-dd` + `n` days (UTC). */
export function addDays(date: string, n: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/**
 * The roll-up of `days` on the UTC day `asOf`: for each of the 30 days asOf … asOf + 29 what `availability30d`
 * on that day is made of (`availabilitySums` of its window: the same function over the same days in the same
 * order as the from-scratch path, so the numbers are bit-identical) and the figure itself. `days` must hold
 * every stored day with `date >= asOf - 29`.
 */
export function availabilityRollup(days: readonly DailyAvailability[], asOf: string): AvailabilityRollup {
  const sum: number[] = [];
  const weight: number[] = [];
  for (let k = 0; k < AVAILABILITY_WINDOW_DAYS; k++) {
    const s = availabilitySums(days, availabilityWindow(new Date(`${addDays(asOf, k)}T12:00:00Z`)));
    sum.push(s.sum);
    weight.push(s.weight);
  }
  return rollupOfSums(asOf, sum, weight);
}

/** A roll-up from its per-day sums (`sum[k]`, `weight[k]` for the day asOf + k): the figures derived (`availabilityFigure`). */
export function rollupOfSums(asOf: string, sum: readonly number[], weight: readonly number[]): AvailabilityRollup {
  const n = Math.min(sum.length, weight.length);
  const pct30d: (number | null)[] = [];
  for (let k = 0; k < n; k++) pct30d.push(availabilityFigure({ sum: sum[k]!, weight: weight[k]! }));
  return { asOf, pct30d, sums: { sum: sum.slice(0, n), weight: weight.slice(0, n) } };
}

/**
 * `availability30d` at `now` from a roll-up, or undefined when the roll-up does not cover `now`'s UTC day.
 * With `lastHeartbeatAt`, the device's open outage at `now` is counted (`withOpenOutage`): its days
 * (`openOutageDays`) continue the roll-up's sums of `now`'s day (`availabilitySums`), so the figure is
 * bit-identical to `availability30d(withOpenOutage(days, lastHeartbeatAt, now), now)` with no day read; a
 * roll-up of the old shape (figures only, no `sums`) gives undefined for a device in an outage (the caller's
 * from-scratch fallback). `maintenance`: as `openOutage`.
 */
export function availabilityFromRollup(rollup: AvailabilityRollup | null, now: Date, lastHeartbeatAt: string | null = null, maintenance: readonly Span[] = []): number | null | undefined {
  if (!rollup) return undefined;
  const k = Math.round((Date.parse(`${now.toISOString().slice(0, 10)}T00:00:00Z`) - Date.parse(`${rollup.asOf}T00:00:00Z`)) / 86_400_000);
  if (!(k >= 0 && k < rollup.pct30d.length)) return undefined;
  const open = openOutageDays(lastHeartbeatAt, now, maintenance);
  if (open.length === 0) return rollup.pct30d[k] ?? null;
  if (!rollup.sums || !(k < rollup.sums.sum.length)) return undefined;
  return availabilityFigure(availabilitySums(open, availabilityWindow(now), { sum: rollup.sums.sum[k]!, weight: rollup.sums.weight[k]! }));
}

/**
 * The merged spans of the maintenance windows covering each of `devices` that is in an outage at `now`
 * (`openOutage`), by device id (docs/sla.md#maintenance-windows): ONE Query of the tenant's windows over the
 * outages (from the earliest recorded last heartbeat to `now`) when any is in one; no request otherwise.
 */
export async function outageMaintenance(
  windows: Pick<MaintenanceWindowsPort, 'overlapping'>,
  tenantId: string,
  devices: readonly { id: string; site?: string | undefined; lastHeartbeatAt: string | null }[],
  now: Date,
): Promise<Map<string, Span[]>> {
  const down = devices.filter((d) => openOutage(d.lastHeartbeatAt, now).size > 0);
  const out = new Map<string, Span[]>();
  if (down.length === 0) return out;
  const earliest = Math.min(...down.map((d) => Date.parse(d.lastHeartbeatAt!)));
  const found = await windows.overlapping(tenantId, new Date(earliest).toISOString(), now.toISOString());
  for (const d of down) out.set(d.id, coveringSpans(found, { id: d.id, site: d.site }, Date.parse(d.lastHeartbeatAt!), now.getTime()));
  return out;
}

/**
 * The device with availability per day (last 90 days, oldest first), over 7/30/90 days against
 * `AVAILABILITY_SLA_TARGET_PCT`, and its open alarms. In an outage, its time inside the maintenance windows
 * covering it is not downtime (`outageMaintenance` with `windows`: ONE Query, only then). @throws ApiError NOT_FOUND
 */
export async function deviceDetailView(port: DevicesPort, tenantId: string, deviceId: string, now: Date, windows?: Pick<MaintenanceWindowsPort, 'overlapping'>): Promise<DeviceDetail> {
  const maxDays = AVAILABILITY_WINDOWS[AVAILABILITY_WINDOWS.length - 1]!;
  const { device: stored, days: storedDays, openAlarms } = await port.deviceHistory(tenantId, deviceId, availabilityWindowStart(now, maxDays));
  if (!stored) throw new ApiError('NOT_FOUND', `device ${deviceId} not found`);
  const maintenance = windows ? await outageMaintenance(windows, tenantId, [stored], now) : new Map<string, Span[]>();
  const days = withOpenOutage(storedDays, stored.lastHeartbeatAt, now, maintenance.get(stored.id));
  const window = (n: number) => {
    const pct = availability30d(days, now, n);
    return { days: n, availablePct: pct, meetsSla: pct === null ? null : pct >= AVAILABILITY_SLA_TARGET_PCT };
  };
  const today = now.toISOString().slice(0, 10);
  return {
    ...stored,
    status: deviceStatus(stored.lastHeartbeatAt, now),
    availability30d: availability30d(days, now),
    openAlarms: openAlarms.length,
    slaTargetPct: AVAILABILITY_SLA_TARGET_PCT,
    availability: { last7d: window(7), last30d: window(30), last90d: window(90) },
    daily: mergeDays(days)
      .filter((d) => d.date <= today)
      .sort((a, b) => a.date.localeCompare(b.date))
      .map((d) => ({ ...d, availablePct: Math.round(Math.min(100, Math.max(0, d.availablePct)) * 100) / 100 })),
    activeAlarms: openAlarms,
  };
}

/**
 * A page of the staff alarm console (`GET /soc/alarms`): device alarms and Office 365 alerts of every tenant,
 * newest raised first, filtered by `tenant`, `severity`, `state` (on the console's scale) and `kind`; ONE Query
 * of one index partition per page (docs/data-model.md#alarm-console).
 */
export function listAlarmConsole(
  port: Pick<DevicesPort, 'listAlarmConsole'>,
  q: { tenant?: string | undefined; severity?: string | undefined; state?: string | undefined; kind?: string | undefined; limit: number; cursor?: string | undefined },
): Promise<Page<AlarmConsoleItem>> {
  return port.listAlarmConsole({ tenantId: q.tenant, severity: q.severity, state: q.state, kind: q.kind, limit: q.limit, cursor: q.cursor });
}

/**
 * A customer (or the SOC) acknowledges an active alarm: active → acknowledged with who and when.
 * @throws ApiError NOT_FOUND; INVALID_TRANSITION (409, `details.state`) when it is not active.
 */
export async function acknowledgeAlarm(
  port: DevicesPort,
  tenantId: string,
  deviceId: string,
  alarmId: string,
  identity: Identity,
  now: Date,
  /** The request, for the audit entry written with the change (docs/api.md#audit-log); none = not audited. */
  request?: { requestId: string; sourceIp: string },
): Promise<DeviceAlarm> {
  const fields = { acknowledgedAt: now.toISOString(), acknowledgedBy: actorName(identity), acknowledgedBySub: identity.sub };
  const audit = request
    ? auditEntryFor({ identity, now, ...request }, tenantId, 'alarm.acknowledge', { type: 'alarm', id: `${deviceId}/${alarmId}` }, {
        before: { state: 'active' },
        after: { state: 'acknowledged', ...fields },
      })
    : undefined;
  const r = await port.transitionAlarm(tenantId, deviceId, alarmId, ['active'], 'acknowledged', fields, audit);
  if (!r) throw new ApiError('NOT_FOUND', `alarm ${alarmId} of device ${deviceId} not found`);
  if (!r.changed) {
    throw new ApiError('INVALID_TRANSITION', `the alarm is ${r.alarm.state}; only active alarms can be acknowledged`, {
      state: r.alarm.state,
    });
  }
  return r.alarm;
}

/**
 * A page of devices with status, availability30d and openAlarms at `now`: ONE Query for the page (the
 * roll-ups on the device items), whatever the number of devices in an outage — a device in an outage at `now`
 * gets its figure from its roll-up's sums with the outage added (`availabilityFromRollup` with its
 * `lastHeartbeatAt`; docs/data-model.md#outages). A device whose roll-up is missing, stale, does not cover
 * `now`'s day (no availability written for 30 days, clock skew) or is of the old shape while the device is in
 * an outage falls back to the from-scratch `deviceStats` (+ `withOpenOutage`). With `windows`, the outage time
 * inside the maintenance windows covering a device is not downtime (`outageMaintenance`: ONE Query for the page,
 * only when a device of it is in an outage).
 */
export async function listDevicesView(
  port: DevicesPort,
  tenantId: string,
  opts: { limit: number; cursor?: string; prefix?: string | undefined; ip?: string | undefined },
  now: Date,
  windows?: Pick<MaintenanceWindowsPort, 'overlapping'>,
): Promise<Page<Device>> {
  const page = await port.listDevices(tenantId, opts);
  const from = availabilityWindowStart(now);
  const maintenance = windows ? await outageMaintenance(windows, tenantId, page.items.map((i) => i.device), now) : new Map<string, Span[]>();
  const items = await Promise.all(
    page.items.map(async ({ device, openAlarms, availability }): Promise<Device> => {
      const spans = maintenance.get(device.id);
      let pct = availabilityFromRollup(availability, now, device.lastHeartbeatAt, spans);
      let open = openAlarms;
      if (pct === undefined || open === null) {
        const stats = await port.deviceStats(tenantId, device.id, from);
        if (pct === undefined) pct = availability30d(withOpenOutage(stats.days, device.lastHeartbeatAt, now, spans), now);
        if (open === null) open = stats.openAlarms;
      }
      return { ...device, status: deviceStatus(device.lastHeartbeatAt, now), availability30d: pct, openAlarms: open };
    }),
  );
  return { items, nextCursor: page.nextCursor };
}

/** A page of the tenant's device alarms for a validated `ListAlarmsQuery` (its `tenant` is not a filter). */
export function listAlarms(
  port: Pick<DevicesPort, 'listAlarms'>,
  tenantId: string,
  q: Parameters<DevicesPort['listAlarms']>[1] & { tenant?: string | undefined },
): Promise<Page<DeviceAlarm>> {
  const { tenant: _tenant, ...opts } = q;
  return port.listAlarms(tenantId, opts);
}
