/**
 * Device rules: status derived from the last heartbeat, 30-day availability, open alarms.
 *
 * Plain functions over a storage port (`DevicesPort`, implemented in `lambdas/data/devices.ts`);
 * no AWS imports. Times are ISO-8601 UTC; durations in ms; availability in % (0–100).
 */
import type { Device, DeviceStatus, Page } from '../contract/schemas.js';

/**
 * The one place the heartbeat thresholds live: a device is `online` if its last heartbeat is at most
 * 5 min old, `degraded` up to 15 min, `offline` beyond, `unknown` if it never sent one.
 */
export const HEARTBEAT_THRESHOLDS_MS = { online: 5 * 60_000, degraded: 15 * 60_000 } as const;

/** Days of daily availability items that make up `availability30d` (today UTC and the 29 days before). */
export const AVAILABILITY_WINDOW_DAYS = 30;

/** Alarm states; `active` and `acknowledged` count as open. */
export const ALARM_STATES = ['active', 'acknowledged', 'cleared'] as const;
export type AlarmState = (typeof ALARM_STATES)[number];
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

/** `yyyy-mm-dd` (UTC) of the first day of the availability window ending on `now`'s UTC day. */
export function availabilityWindowStart(now: Date): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  d.setUTCDate(d.getUTCDate() - (AVAILABILITY_WINDOW_DAYS - 1));
  return d.toISOString().slice(0, 10);
}

/** One day of measured availability (written by the collector: `putDailyAvailability`). */
export interface DailyAvailability {
  /** `yyyy-mm-dd`, UTC. */
  date: string;
  /** % of the monitored time the device was available, 0–100. */
  availablePct: number;
  /** Seconds monitored that day (86 400 for a full day); weights the day in the 30-day figure. */
  monitoredSeconds: number;
}

/**
 * Availability over the window ending on `now`'s UTC day: monitored-time-weighted mean of the daily
 * figures inside the window, rounded to two decimals; null when there is no day with monitored time.
 */
export function availability30d(days: readonly DailyAvailability[], now: Date): number | null {
  const from = availabilityWindowStart(now);
  const to = now.toISOString().slice(0, 10);
  let weight = 0;
  let sum = 0;
  for (const d of days) {
    if (d.date < from || d.date > to || !(d.monitoredSeconds > 0)) continue;
    const pct = Math.min(100, Math.max(0, d.availablePct));
    weight += d.monitoredSeconds;
    sum += pct * d.monitoredSeconds;
  }
  if (weight === 0) return null;
  return Math.round((sum / weight) * 100) / 100;
}

/** A device as stored (no derived fields). */
export type StoredDevice = Omit<Device, 'status' | 'availability30d' | 'openAlarms'>;

/** Storage operations for the device list (implemented over DynamoDB in `lambdas/data/devices.ts`). */
export interface DevicesPort {
  /** Devices of the tenant ordered by name. @throws ApiError VALIDATION_FAILED for a foreign/garbled cursor. */
  listDevices(tenantId: string, opts: { limit: number; cursor?: string }): Promise<Page<StoredDevice>>;
  /** Daily availability items with `date >= fromDate` and the number of open alarms of one device. */
  deviceStats(tenantId: string, deviceId: string, fromDate: string): Promise<{ days: DailyAvailability[]; openAlarms: number }>;
}

/** A page of devices with status, availability30d and openAlarms derived at `now`. */
export async function listDevicesView(
  port: DevicesPort,
  tenantId: string,
  opts: { limit: number; cursor?: string },
  now: Date,
): Promise<Page<Device>> {
  const page = await port.listDevices(tenantId, opts);
  const from = availabilityWindowStart(now);
  const items = await Promise.all(
    page.items.map(async (d): Promise<Device> => {
      const stats = await port.deviceStats(tenantId, d.id, from);
      return {
        ...d,
        status: deviceStatus(d.lastHeartbeatAt, now),
        availability30d: availability30d(stats.days, now),
        openAlarms: stats.openAlarms,
      };
    }),
  );
  return { items, nextCursor: page.nextCursor };
}
