/**
 * Availability without maintenance (docs/sla.md#maintenance-windows): contracts exclude announced maintenance, so
 * a covered device's downtime inside one of the tenant's maintenance windows is not downtime. Pure (no I/O);
 * the windows are those `MaintenanceWindowsPort.overlapping` reads for the period (ONE bounded Query).
 *
 * The rule, per UTC day of the device's figures (`DailyAvailability`: the stored data has no down intervals,
 * only each day's available % of its monitored seconds):
 *  - the windows covering the device (`windowCovers`: by id or by its site) are clipped to the period and merged,
 *    so overlapping windows are never counted twice;
 *  - the merged windows' time inside the day (ms) is added back to the day's available time, capped at the
 *    day's recorded downtime (monitored − available), so a day never exceeds 100 % and time the device was up
 *    is not counted again;
 *  - days outside every window are unchanged; a device no window covers is unchanged.
 * Units: ms inside, minutes in the totals (`excludedMinutes`, rounded to two decimals). Instants ISO-8601 UTC.
 */
import type { MaintenanceWindow } from '../contract/maintenance-windows.js';
import { mergeDays } from './devices.js';
import { windowCovers } from './maintenance-windows.js';
import type { DailyAvailability } from './ports.js';

const DAY_MS = 86_400_000;

/** What the rule needs of a window. */
export type WindowSpan = Pick<MaintenanceWindow, 'windowId' | 'scope' | 'startAt' | 'endAt'>;

/** The result of `excludeMaintenance`. */
export interface MaintenanceExclusion {
  /** The device's days (one per date, as `mergeDays` gives them), with the window time added back. */
  days: DailyAvailability[];
  /** Ms added back per UTC day (`yyyy-mm-dd`), only days with some; what a fleet figure adds to its available time. */
  creditMs: Record<string, number>;
  /** Ids of the windows that cover the device and overlap the period (those the figures exclude). */
  windowIds: string[];
  /** Downtime excluded, minutes (Σ `creditMs` / 60 000, two decimals). */
  excludedMinutes: number;
}

/** Merged `[start, end)` ms intervals of `spans`, clipped to `[from, to)`, sorted, disjoint. */
export function mergedIntervals(spans: readonly { startAt: string; endAt: string }[], from: number, to: number): [number, number][] {
  const clipped = spans
    .map((s): [number, number] => [Math.max(from, Date.parse(s.startAt)), Math.min(to, Date.parse(s.endAt))])
    .filter(([a, b]) => b > a)
    .sort((x, y) => x[0] - y[0]);
  const out: [number, number][] = [];
  for (const [a, b] of clipped) {
    const last = out[out.length - 1];
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

/**
 * A device's days with its maintenance time excluded (module doc). `days` may hold several entries per date
 * (stored day + open outage, as `withOpenOutage` gives): they are merged first (`mergeDays`).
 * `period` bounds the windows (ISO-8601 UTC, `[from, to)`); only days of `days` are credited.
 */
export function excludeMaintenance(
  days: readonly DailyAvailability[],
  windows: readonly WindowSpan[],
  device: { id: string; site?: string | undefined },
  period: { from: string; to: string },
): MaintenanceExclusion {
  const from = Date.parse(period.from);
  const to = Date.parse(period.to);
  const covering = windows.filter((w) => windowCovers(w, device) && Date.parse(w.startAt) < to && Date.parse(w.endAt) > from);
  const merged = mergeDays(days);
  if (covering.length === 0) return { days: merged, creditMs: {}, windowIds: [], excludedMinutes: 0 };
  const spans = mergedIntervals(covering, from, to);
  const creditMs: Record<string, number> = {};
  let total = 0;
  const out = merged.map((d) => {
    const dayStart = Date.parse(`${d.date}T00:00:00.000Z`);
    let inWindow = 0;
    for (const [a, b] of spans) inWindow += Math.max(0, Math.min(b, dayStart + DAY_MS) - Math.max(a, dayStart));
    const monitoredMs = Math.max(0, d.monitoredSeconds) * 1000;
    const upMs = (Math.min(100, Math.max(0, d.availablePct)) / 100) * monitoredMs;
    // Whole ms, as the aggregates keep time (aggregates.ts `availabilityDay`).
    const down = Math.round(monitoredMs - upMs);
    const credit = Math.min(inWindow, down);
    if (!(credit > 0)) return d;
    creditMs[d.date] = credit;
    total += credit;
    // All of the day's downtime inside a window: exactly 100 % (no rounding residue).
    return { ...d, availablePct: credit >= down ? 100 : Math.min(100, ((upMs + credit) / monitoredMs) * 100) };
  });
  return { days: out, creditMs, windowIds: covering.map((w) => w.windowId), excludedMinutes: Math.round((total / 60_000) * 100) / 100 };
}
