/**
 * Availability without maintenance (docs/sla.md#maintenance-windows): contracts exclude announced maintenance, so
 * a covered device's downtime inside one of the tenant's maintenance windows is not downtime — it is left out of
 * the monitored time altogether (neither up nor down: availability = up / (monitored − maintenance)). Pure (no
 * I/O); the windows are those `MaintenanceWindowsPort.overlapping` reads for the downtime (ONE bounded Query).
 *
 * Applied where downtime is counted, so every figure agrees by construction:
 *  - at WRITE time, by the heartbeat that ends a gap counted as downtime (`heartbeatTime` with the spans of
 *    `coveringSpans`; lambdas/data/devices.ts `ingestHeartbeat`): the day items, the roll-ups, the below-target
 *    index, the tenant's day aggregates and the reports only ever see the downtime outside the windows;
 *  - at READ time, for an outage still open (`openOutage` and `maintenanceOfOutage` of devices.ts, with the same spans).
 * A window deleted or shortened afterwards does not give back downtime already excluded (the days are sums).
 * Rules: the windows covering the device (`windowCovers`: by id or by its site) are merged, so overlapping windows
 * are never counted twice; the overlap is taken per UTC day of the downtime. Units: epoch ms.
 */
import type { MaintenanceWindow } from '../contract/maintenance-windows.js';
import { windowCovers } from './maintenance-windows.js';

const DAY_MS = 86_400_000;

/** What the rule needs of a window. */
export type WindowSpan = Pick<MaintenanceWindow, 'windowId' | 'scope' | 'startAt' | 'endAt'>;

/** A `[start, end)` interval, epoch ms. */
export type Span = [number, number];

/** Merged `[start, end)` ms intervals of `spans`, clipped to `[from, to)`, sorted, disjoint. */
export function mergedIntervals(spans: readonly { startAt: string; endAt: string }[], from: number, to: number): Span[] {
  const clipped = spans
    .map((s): Span => [Math.max(from, Date.parse(s.startAt)), Math.min(to, Date.parse(s.endAt))])
    .filter(([a, b]) => b > a)
    .sort((x, y) => x[0] - y[0]);
  const out: Span[] = [];
  for (const [a, b] of clipped) {
    const last = out[out.length - 1];
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

/**
 * The merged spans (epoch ms, clipped to `[from, to)`) of the windows among `windows` that cover `device` (by its
 * id or its site; `windowCovers`). Empty when none covers it.
 */
export function coveringSpans(windows: readonly WindowSpan[], device: { id: string; site?: string | undefined }, from: number, to: number): Span[] {
  return mergedIntervals(
    windows.filter((w) => windowCovers(w, device)),
    from,
    to,
  );
}

/** Ms of `[a, b)` inside the disjoint `spans`. */
export function overlapMs(spans: readonly Span[], a: number, b: number): number {
  let ms = 0;
  for (const [s, e] of spans) ms += Math.max(0, Math.min(b, e) - Math.max(a, s));
  return ms;
}

/**
 * Downtime per UTC day (`yyyy-mm-dd` → ms, as `outageDays` gives it for the contiguous interval starting at
 * `fromMs`: each day's part starts at `max(fromMs, start of the day)`) without its time inside `spans`. Days left
 * with none are kept with 0 (the caller skips them). Order kept.
 */
export function withoutSpans(dayMs: ReadonlyMap<string, number>, fromMs: number, spans: readonly Span[]): Map<string, number> {
  if (spans.length === 0) return new Map(dayMs);
  const out = new Map<string, number>();
  for (const [date, ms] of dayMs) {
    const start = Math.max(fromMs, Date.parse(`${date}T00:00:00.000Z`));
    out.set(date, Math.max(0, ms - overlapMs(spans, start, Math.min(start + ms, start - (start % DAY_MS) + DAY_MS))));
  }
  return out;
}

/**
 * The maintenance line of a report period `[from, to]` (ISO-8601 UTC, inclusive end as `monthPeriod` gives it):
 * `windows`, how many of `windows` overlap it (as `MaintenanceWindowsPort.overlapping` reads them), and
 * `minutes`, the time they cover inside it — overlapping windows once (merged), whole minutes rounded — whose
 * downtime the figures exclude (docs/sla.md#maintenance-windows).
 */
export function maintenanceOfPeriod(windows: readonly WindowSpan[], period: { from: string; to: string }): { windows: number; minutes: number } {
  const from = Date.parse(period.from);
  const to = Date.parse(period.to) + 1;
  const inside = windows.filter((w) => Date.parse(w.startAt) < to && Date.parse(w.endAt) > from);
  const ms = mergedIntervals(inside, from, to).reduce((a, [s, e]) => a + (e - s), 0);
  return { windows: inside.length, minutes: Math.round(ms / 60_000) };
}
