/**
 * Open outages in the tenant-wide figures (docs/data-model.md#outages): the fleet availability and the
 * devices below the availability target, at an instant, with the devices in an outage at that instant
 * (`DeviceOutage`, read by `ReportsPort.devicesInOutage`) counted as the device page counts them
 * (`openOutage` / `withOpenOutage` in lambdas/domain/devices.ts). Pure functions; ms and % (0–100).
 */
import { agg, type Counters } from './aggregates.js';
import { AVAILABILITY_SLA_TARGET_PCT, availability30d, openOutage, withOpenOutage } from './devices.js';
import type { DeviceOutage } from './ports.js';

/** A device below the availability target: its 30-day figure at the instant read, %. */
export interface BelowTarget {
  deviceId: string;
  name: string;
  availability30d: number;
}

/**
 * What the open outages at `now` add to the tenant's day aggregates of the UTC days `first` … `last`
 * (inclusive, `yyyy-mm-dd`): monitored, unavailable ms per day (`agg.availMonitoredMs`), one entry per
 * device-day — what the devices' return heartbeats at `now` would add (`heartbeatTime`).
 */
export function outageDayCounters(outages: readonly DeviceOutage[], window: { first: string; last: string }, now: Date): Counters[] {
  const out: Counters[] = [];
  for (const o of outages) {
    for (const [date, ms] of openOutage(o.lastHeartbeatAt, now)) {
      const kept = ms - (o.maintenanceMs?.[date] ?? 0);
      if (date >= window.first && date <= window.last && kept > 0) out.push({ [agg.availMonitoredMs]: kept });
    }
  }
  return out;
}

/**
 * What the open outages add to the tenant's day aggregates of the UTC days `first` … `last` (inclusive,
 * `yyyy-mm-dd`): monitored, unavailable ms per day (`agg.availMonitoredMs`), from the whole outage time per
 * day (`TenantOutages.dayMs`, `histogramOutage`) — the same sum as `outageDayCounters` over the devices — less
 * the devices' outage time inside their maintenance windows (`outages`' `maintenanceMs`).
 */
export function outageTimeCounters(dayMs: Readonly<Record<string, number>> | undefined, window: { first: string; last: string }, outages: readonly DeviceOutage[] = []): Counters[] {
  const out = new Map(Object.entries(dayMs ?? {}));
  // Outage time inside the windows covering a device is not downtime (docs/sla.md#maintenance-windows).
  for (const o of outages) for (const [date, ms] of Object.entries(o.maintenanceMs ?? {})) out.set(date, (out.get(date) ?? 0) - ms);
  return [...out]
    .filter(([date, ms]) => date >= window.first && date <= window.last && ms !== 0)
    .map(([, ms]) => ({ [agg.availMonitoredMs]: ms }));
}

/**
 * The devices below the target at `now` in `belowTargetOrder`, at most `limit`: the index's list
 * `stored` (figures of the stored days, `devicesBelowSla`) without the devices in an outage, plus those whose
 * figure with their open outage (`DeviceOutage.availability30d`, else `withOpenOutage` + `availability30d`) is below the target. Exact: an outage
 * only lowers a figure (and its place), so a device without one that belongs in the first `limit` is in `stored`.
 */
export function belowTargetWithOutages(stored: readonly BelowTarget[], outages: readonly DeviceOutage[], now: Date, limit: number): BelowTarget[] {
  const silent = new Set(outages.map((o) => o.deviceId));
  const out = stored.filter((d) => !silent.has(d.deviceId));
  for (const o of outages) {
    const pct = o.availability30d !== undefined ? o.availability30d : availability30d(withOpenOutage(o.days, o.lastHeartbeatAt, now), now);
    if (pct !== null && pct < AVAILABILITY_SLA_TARGET_PCT) out.push({ deviceId: o.deviceId, name: o.name, availability30d: pct });
  }
  return out.sort(belowTargetOrder).slice(0, limit);
}

/**
 * The below-target list's order: lowest figure to 0.01 % first, ties by device id — the below-SLA index key's
 * order; `devicesBelowSla` (lambdas/data/devices.ts) sorts with it too.
 */
export function belowTargetOrder(a: { deviceId: string; availability30d: number }, b: { deviceId: string; availability30d: number }): number {
  return Math.round(a.availability30d * 100) - Math.round(b.availability30d * 100) || (a.deviceId < b.deviceId ? -1 : a.deviceId > b.deviceId ? 1 : 0);
}
