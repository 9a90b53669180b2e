/**
 * Device rules: status derived from the last heartbeat, 30-day availability, open alarms.
 *
 * Plain functions over a storage port (`DevicesPort`, implemented in `lambdas/data/devices.ts`);
 * no AWS imports. Times are ISO-8601 UTC; durations in ms; availability in % (0–100).
 */
import { auditEntryFor } from './audit.js';
import { ALARM_STATES, type AlarmState, type Device, type DeviceAlarm, type DeviceDetail, type DeviceStatus, type Page } from '../contract/schemas.js';
import { ApiError } from './errors.js';
import type { Identity } from './identity.js';
import type { AvailabilityRollup, DailyAvailability, DevicesPort } from './ports.js';
import { actorName } from './incidents.js';

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
 */
export function openOutage(lastHeartbeatAt: string | null, now: Date): Map<string, number> {
  const after = outageAfter(lastHeartbeatAt);
  if (after === null || !(now.getTime() > after)) return new Map();
  return outageDays(Date.parse(lastHeartbeatAt!), now.getTime());
}

/**
 * What a heartbeat at `at` adds to the device's days (ms per UTC day, `m` monitored, `u` available), given
 * its recorded last heartbeat `recordedAt` (the device item's) and the exact previous one `previousAt` (a later
 * heartbeat of the same minute, or `recordedAt`): past `outageAfter(recordedAt)` the whole interval from
 * `recordedAt` is an outage (`outageDays`, unavailable); otherwise the same-minute heartbeats after
 * `recordedAt` on its day and the interval since `previousAt` (`heartbeatInterval`) on the day of `at`, all
 * available. So an outage counts once, the same whether read while it lasts (`openOutage`) or written at its end.
 */
export function heartbeatTime(recordedAt: string, previousAt: string, at: string): Map<string, { m: number; u: number }> {
  const time = new Map<string, { m: number; u: number }>();
  if (Date.parse(at) > outageAfter(recordedAt)!) {
    for (const [date, ms] of outageDays(Date.parse(recordedAt), Date.parse(at))) time.set(date, { m: ms, u: 0 });
    return time;
  }
  const add = (date: string, m: number, u: number) => {
    const t = time.get(date) ?? { m: 0, u: 0 };
    time.set(date, { m: t.m + m, u: t.u + u });
  };
  const tail = Date.parse(previousAt) - Date.parse(recordedAt);
  if (tail > 0) add(recordedAt.slice(0, 10), tail, tail);
  const gap = heartbeatInterval(previousAt, at);
  add(at.slice(0, 10), Math.round(gap.monitoredSeconds * 1000), Math.round(gap.upSeconds * 1000));
  return time;
}

/**
 * The stored days `days` with the device's open outage at `now` (`openOutage`) added: each outage day's
 * monitored time grows by the outage's, its available time stays (the monitored-time-weighted figure the day
 * item gives after the return heartbeat's `ADD`). The one read-time rule of every availability figure
 * (device page, device list, below-target list, fleet figure, reports).
 */
export function withOpenOutage(days: readonly DailyAvailability[], lastHeartbeatAt: string | null, now: Date): DailyAvailability[] {
  const open = openOutage(lastHeartbeatAt, now);
  if (open.size === 0) return [...days];
  const out = days.map((d) => {
    const ms = open.get(d.date);
    if (ms === undefined) return d;
    open.delete(d.date);
    const mon = d.monitoredSeconds > 0 ? d.monitoredSeconds : 0;
    const up = (Math.min(100, Math.max(0, d.availablePct)) / 100) * mon;
    const monitoredSeconds = mon + ms / 1000;
    return { date: d.date, availablePct: (up / monitoredSeconds) * 100, monitoredSeconds };
  });
  for (const [date, ms] of open) out.push({ date, availablePct: 0, monitoredSeconds: ms / 1000 });
  return out;
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
 * Availability % (0–100) of the days `first` … `last` (inclusive, `yyyy-mm-dd` UTC): the mean of the daily
 * figures (each clamped to 0–100) weighted by their monitored seconds, rounded to two decimals; days without
 * monitored time are left out; null when no day in the window has any (docs/data-model.md#availability).
 * The one availability formula of the API: `availability30d`, the device page's windows and the reports use it.
 */
export function availabilityPct(days: readonly DailyAvailability[], window: { first: string; last: string }): number | null {
  let weight = 0;
  let sum = 0;
  for (const d of days) {
    if (d.date < window.first || d.date > window.last || !(d.monitoredSeconds > 0)) continue;
    const pct = Math.min(100, Math.max(0, d.availablePct));
    weight += d.monitoredSeconds;
    sum += pct * d.monitoredSeconds;
  }
  if (weight === 0) return null;
  return Math.round((sum / weight) * 100) / 100;
}

/**
 * Availability over the `windowDays`-day window ending on `now`'s UTC day (`availabilityPct` of the rolling
 * period `[now − windowDays × 24 h, now]`, see `availabilityDays`); null when no day has monitored time.
 */
export function availability30d(days: readonly DailyAvailability[], now: Date, windowDays: number = AVAILABILITY_WINDOW_DAYS): number | null {
  return availabilityPct(days, availabilityDays(new Date(now.getTime() - windowDays * 86_400_000).toISOString(), now.toISOString()));
}

/** `yyyy-mm-dd` + `n` days (UTC). */
export function addDays(date: string, n: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/**
 * The roll-up of `days` on the UTC day `asOf`: `availability30d` for each of the 30 days asOf … asOf + 29
 * (the same function the from-scratch path uses, over the same days in the same order, so the numbers are
 * bit-identical). `days` must hold every stored day with `date >= asOf - 29`.
 */
export function availabilityRollup(days: readonly DailyAvailability[], asOf: string): AvailabilityRollup {
  const pct30d: (number | null)[] = [];
  for (let k = 0; k < AVAILABILITY_WINDOW_DAYS; k++) pct30d.push(availability30d(days, new Date(`${addDays(asOf, k)}T12:00:00Z`)));
  return { asOf, pct30d };
}

/** `availability30d` at `now` from a roll-up, or undefined when the roll-up does not cover `now`'s UTC day. */
export function availabilityFromRollup(rollup: AvailabilityRollup | null, now: Date): number | null | undefined {
  if (!rollup) return undefined;
  const k = Math.round((Date.parse(`${now.toISOString().slice(0, 10)}T00:00:00Z`) - Date.parse(`${rollup.asOf}T00:00:00Z`)) / 86_400_000);
  if (!(k >= 0 && k < rollup.pct30d.length)) return undefined;
  return rollup.pct30d[k] ?? null;
}

/**
 * The device with availability per day (last 90 days, oldest first), over 7/30/90 days against
 * `AVAILABILITY_SLA_TARGET_PCT`, and its open alarms. @throws ApiError NOT_FOUND
 */
export async function deviceDetailView(port: DevicesPort, tenantId: string, deviceId: string, now: Date): Promise<DeviceDetail> {
  const maxDays = AVAILABILITY_WINDOWS[AVAILABILITY_WINDOWS.length - 1]!;
  const { device: stored, days: storedDays, openAlarms } = await port.deviceHistory(tenantId, deviceId, availabilityWindowStart(now, maxDays));
  if (!stored) throw new ApiError('NOT_FOUND', `device ${deviceId} not found`);
  const days = withOpenOutage(storedDays, stored.lastHeartbeatAt, now);
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
    daily: days
      .filter((d) => d.date <= today)
      .sort((a, b) => a.date.localeCompare(b.date))
      .map((d) => ({ ...d, availablePct: Math.round(Math.min(100, Math.max(0, d.availablePct)) * 100) / 100 })),
    activeAlarms: openAlarms,
  };
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
 * A page of devices with status, availability30d and openAlarms at `now`: one Query for the page (the
 * roll-ups on the device items); a device whose roll-up is missing, stale or does not cover `now`'s day
 * (no availability written for 30 days, clock skew), or that is in an outage at `now` (`openOutage`: its
 * roll-up does not hold it yet), falls back to the from-scratch `deviceStats` (+ `withOpenOutage`).
 */
export async function listDevicesView(
  port: DevicesPort,
  tenantId: string,
  opts: { limit: number; cursor?: string; prefix?: string | undefined },
  now: Date,
): Promise<Page<Device>> {
  const page = await port.listDevices(tenantId, opts);
  const from = availabilityWindowStart(now);
  const items = await Promise.all(
    page.items.map(async ({ device, openAlarms, availability }): Promise<Device> => {
      let pct = openOutage(device.lastHeartbeatAt, now).size > 0 ? undefined : availabilityFromRollup(availability, now);
      let open = openAlarms;
      if (pct === undefined || open === null) {
        const stats = await port.deviceStats(tenantId, device.id, from);
        if (pct === undefined) pct = availability30d(withOpenOutage(stats.days, device.lastHeartbeatAt, now), now);
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
