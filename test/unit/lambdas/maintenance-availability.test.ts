/**
 * Availability without maintenance (docs/sla.md#maintenance-windows; lambdas/domain/maintenance-availability.ts): a
 * covered device's downtime inside a window is added back per UTC day, capped at the day's recorded downtime,
 * overlapping windows counted once, windows across midnight and month end split by day, a device no window
 * covers unchanged, a window over the whole period never lifting a day above 100 %.
 */
import { describe, expect, it } from 'vitest';
import { availabilityPct } from '../../../lambdas/domain/devices.js';
import { excludeMaintenance, mergedIntervals, type WindowSpan } from '../../../lambdas/domain/maintenance-availability.js';

const DAY = 86_400;
const w = (id: string, startAt: string, endAt: string, scope: Partial<WindowSpan['scope']> = { deviceIds: ['fw-01'] }): WindowSpan => ({
  windowId: id,
  scope: { deviceIds: scope.deviceIds ?? [], sites: scope.sites ?? [] },
  startAt,
  endAt,
});
const FW = { id: 'fw-01', site: 'Madrid' };
/** A full day down for `downHours`. */
const day = (date: string, downHours: number) => ({ date, availablePct: ((24 - downHours) / 24) * 100, monitoredSeconds: DAY });
const MAY = { from: '2026-05-01T00:00:00.000Z', to: '2026-06-01T00:00:00.000Z' };

describe('excludeMaintenance', () => {
  it('2 h down of which 1 h in a window: 1 h of downtime left, 60 minutes excluded, one window', () => {
    const r = excludeMaintenance([day('2026-05-10', 2)], [w('mw-a', '2026-05-10T03:00:00Z', '2026-05-10T04:00:00Z')], FW, MAY);
    expect(r.days[0]!.availablePct).toBeCloseTo((23 / 24) * 100, 10);
    expect(r.creditMs).toEqual({ '2026-05-10': 3_600_000 });
    expect(r.excludedMinutes).toBe(60);
    expect(r.windowIds).toEqual(['mw-a']);
  });

  it('caps the credit at the recorded downtime: a 6 h window on a day 2 h down gives 100 %, never more', () => {
    const r = excludeMaintenance([day('2026-05-10', 2)], [w('mw-a', '2026-05-10T00:00:00Z', '2026-05-10T06:00:00Z')], FW, MAY);
    expect(r.days[0]!.availablePct).toBe(100);
    expect(r.excludedMinutes).toBe(120);
  });

  it('splits a window across midnight and across the month end by UTC day, and clips it to the period', () => {
    const days = [day('2026-05-30', 3), day('2026-05-31', 3), day('2026-06-01', 3)];
    const r = excludeMaintenance(days, [w('mw-a', '2026-05-30T23:00:00Z', '2026-05-31T01:00:00Z'), w('mw-b', '2026-05-31T23:30:00Z', '2026-06-01T02:00:00Z')], FW, MAY);
    expect(r.creditMs).toEqual({ '2026-05-30': 3_600_000, '2026-05-31': 3_600_000 + 1_800_000 });
    // June 1st is outside May: not credited, unchanged.
    expect(r.days[2]).toEqual(days[2]);
    expect(r.windowIds).toEqual(['mw-a', 'mw-b']);
    const june = excludeMaintenance(days, [w('mw-b', '2026-05-31T23:30:00Z', '2026-06-01T02:00:00Z')], FW, { from: '2026-06-01T00:00:00.000Z', to: '2026-07-01T00:00:00.000Z' });
    expect(june.creditMs).toEqual({ '2026-06-01': 7_200_000 });
  });

  it('counts overlapping windows once', () => {
    const windows = [w('mw-a', '2026-05-10T01:00:00Z', '2026-05-10T03:00:00Z'), w('mw-b', '2026-05-10T02:00:00Z', '2026-05-10T04:00:00Z'), w('mw-c', '2026-05-10T02:30:00Z', '2026-05-10T02:45:00Z')];
    const r = excludeMaintenance([day('2026-05-10', 10)], windows, FW, MAY);
    expect(r.excludedMinutes).toBe(180);
    expect(r.windowIds).toHaveLength(3);
    expect(mergedIntervals(windows, 0, Number.MAX_SAFE_INTEGER)).toEqual([[Date.parse('2026-05-10T01:00:00Z'), Date.parse('2026-05-10T04:00:00Z')]]);
  });

  it('leaves a device no window covers unchanged; a site covers every device of it', () => {
    const days = [day('2026-05-10', 2)];
    const other = excludeMaintenance(days, [w('mw-a', '2026-05-10T00:00:00Z', '2026-05-10T04:00:00Z', { deviceIds: ['sw-02'], sites: ['Sevilla'] })], FW, MAY);
    expect(other).toEqual({ days, creditMs: {}, windowIds: [], excludedMinutes: 0 });
    const bySite = excludeMaintenance(days, [w('mw-a', '2026-05-10T00:00:00Z', '2026-05-10T01:00:00Z', { sites: ['Madrid'] })], FW, MAY);
    expect(bySite.excludedMinutes).toBe(60);
  });

  it('a window over the whole period makes every recorded downtime not downtime: 100 %, never above', () => {
    const days = [day('2026-05-01', 5), day('2026-05-02', 0), { date: '2026-05-03', availablePct: 50, monitoredSeconds: 3_600 }];
    const r = excludeMaintenance(days, [w('mw-a', '2026-04-20T00:00:00Z', '2026-05-20T00:00:00Z')], FW, MAY);
    expect(r.days.map((d) => d.availablePct)).toEqual([100, 100, 100]);
    // The unmonitored rest of May 3rd is not credited: only the 30 minutes recorded down.
    expect(r.creditMs).toEqual({ '2026-05-01': 5 * 3_600_000, '2026-05-03': 1_800_000 });
    expect(availabilityPct(r.days, { first: '2026-05-01', last: '2026-05-31' })).toBe(100);
  });

  it('merges several entries of one day (stored day + open outage) before crediting', () => {
    const r = excludeMaintenance([day('2026-05-10', 0), { date: '2026-05-10', availablePct: 0, monitoredSeconds: 7_200 }], [w('mw-a', '2026-05-10T10:00:00Z', '2026-05-10T11:00:00Z')], FW, MAY);
    expect(r.days).toHaveLength(1);
    expect(r.days[0]!.monitoredSeconds).toBe(DAY + 7_200);
    expect(r.excludedMinutes).toBe(60);
  });
});
