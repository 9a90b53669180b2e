/**
 * Availability without maintenance (docs/sla.md#maintenance-windows; lambdas/domain/maintenance-availability.ts):
 * a downtime's time inside the windows covering the device is left out of the monitored time, per UTC day —
 * when the heartbeat that ends it is written (`heartbeatTime`) and while an outage is open (`openOutage`), the
 * same figure both ways. Gaps across midnight and month end, overlapping windows counted once, partial overlap,
 * a device no window covers unchanged, a window by site.
 */
import { describe, expect, it } from 'vitest';
import { downtimeSpan, heartbeatTime, openOutage, withOpenOutage, availability30d } from '../../../lambdas/domain/devices.js';
import { maintenanceOfOutage } from '../../../lambdas/domain/devices.js';
import { coveringSpans, mergedIntervals, overlapMs, withoutSpans, type WindowSpan } from '../../../lambdas/domain/maintenance-availability.js';
import { outageDayCounters, outageTimeCounters } from '../../../lambdas/domain/outages.js';

const H = 3_600_000;
const w = (id: string, startAt: string, endAt: string, scope: Partial<WindowSpan['scope']> = { deviceIds: ['fw-01'] }): WindowSpan => ({
  windowId: id,
  scope: { deviceIds: scope.deviceIds ?? [], sites: scope.sites ?? [] },
  startAt,
  endAt,
});
const FW = { id: 'fw-01', site: 'Madrid' };
const t = (iso: string) => Date.parse(iso);
const spansFor = (windows: WindowSpan[], from: string, to: string, device = FW) => coveringSpans(windows, device, t(from), t(to));

describe('coveringSpans / mergedIntervals / overlapMs', () => {
  it('merges overlapping windows once and clips them to the downtime', () => {
    const windows = [w('mw-a', '2026-05-10T01:00:00Z', '2026-05-10T03:00:00Z'), w('mw-b', '2026-05-10T02:00:00Z', '2026-05-10T04:00:00Z'), w('mw-c', '2026-05-10T02:30:00Z', '2026-05-10T02:45:00Z')];
    expect(mergedIntervals(windows, 0, Number.MAX_SAFE_INTEGER)).toEqual([[t('2026-05-10T01:00:00Z'), t('2026-05-10T04:00:00Z')]]);
    expect(spansFor(windows, '2026-05-10T02:00:00Z', '2026-05-10T10:00:00Z')).toEqual([[t('2026-05-10T02:00:00Z'), t('2026-05-10T04:00:00Z')]]);
    expect(overlapMs(spansFor(windows, '2026-05-10T00:00:00Z', '2026-05-11T00:00:00Z'), t('2026-05-10T00:00:00Z'), t('2026-05-11T00:00:00Z'))).toBe(3 * H);
  });

  it('keeps only the windows covering the device: by id or by its site', () => {
    const other = w('mw-a', '2026-05-10T00:00:00Z', '2026-05-10T04:00:00Z', { deviceIds: ['sw-02'], sites: ['Sevilla'] });
    expect(spansFor([other], '2026-05-10T00:00:00Z', '2026-05-11T00:00:00Z')).toEqual([]);
    const bySite = w('mw-b', '2026-05-10T00:00:00Z', '2026-05-10T01:00:00Z', { sites: ['Madrid'] });
    expect(spansFor([other, bySite], '2026-05-10T00:00:00Z', '2026-05-11T00:00:00Z')).toEqual([[t('2026-05-10T00:00:00Z'), t('2026-05-10T01:00:00Z')]]);
    expect(spansFor([bySite], '2026-05-10T00:00:00Z', '2026-05-11T00:00:00Z', { id: 'fw-01', site: undefined } as never)).toEqual([]);
  });

  it('withoutSpans takes each day its own part of the window', () => {
    const days = new Map([['2026-05-31', 2 * H], ['2026-06-01', 3 * H]]);
    const spans = spansFor([w('mw-a', '2026-05-31T23:30:00Z', '2026-06-01T01:00:00Z')], '2026-05-31T22:00:00Z', '2026-06-01T03:00:00Z');
    expect([...withoutSpans(days, t('2026-05-31T22:00:00Z'), spans)]).toEqual([['2026-05-31', 1.5 * H], ['2026-06-01', 2 * H]]);
  });
});

describe('heartbeatTime with maintenance (write time)', () => {
  const last = '2026-05-10T02:00:00.000Z';
  const back = '2026-05-10T04:00:00.000Z';

  it('a 2 h outage with 1 h inside a covering window records 1 h of downtime; the span read is the outage', () => {
    expect(downtimeSpan(last, last, back)).toEqual([t(last), t(back)]);
    const spans = spansFor([w('mw-a', '2026-05-10T03:00:00Z', '2026-05-10T05:00:00Z')], last, back);
    expect([...heartbeatTime(last, last, back, spans)]).toEqual([['2026-05-10', { m: H, u: 0 }]]);
    expect([...heartbeatTime(last, last, back)]).toEqual([['2026-05-10', { m: 2 * H, u: 0 }]]);
  });

  it('a heartbeat within the online threshold records no downtime: no span, nothing to read', () => {
    expect(downtimeSpan(last, last, '2026-05-10T02:01:00.000Z')).toBeNull();
  });

  it('splits an outage across midnight and the month end by UTC day', () => {
    const from = '2026-05-31T22:00:00.000Z';
    const to = '2026-06-01T02:00:00.000Z';
    const spans = spansFor([w('mw-a', '2026-05-31T23:00:00Z', '2026-06-01T00:30:00Z')], from, to);
    expect([...heartbeatTime(from, from, to, spans)]).toEqual([
      ['2026-05-31', { m: H, u: 0 }],
      ['2026-06-01', { m: 1.5 * H, u: 0 }],
    ]);
  });

  it('a window over a whole day of the outage leaves that day with no monitored time', () => {
    const from = '2026-05-09T12:00:00.000Z';
    const to = '2026-05-11T12:00:00.000Z';
    const spans = spansFor([w('mw-a', '2026-05-10T00:00:00Z', '2026-05-11T00:00:00Z')], from, to);
    expect([...heartbeatTime(from, from, to, spans)]).toEqual([
      ['2026-05-09', { m: 12 * H, u: 0 }],
      ['2026-05-10', { m: 0, u: 0 }],
      ['2026-05-11', { m: 12 * H, u: 0 }],
    ]);
  });

  it('a device no window covers is unchanged', () => {
    const spans = spansFor([w('mw-a', '2026-05-10T00:00:00Z', '2026-05-10T23:00:00Z', { deviceIds: ['sw-02'] })], last, back);
    expect(heartbeatTime(last, last, back, spans)).toEqual(heartbeatTime(last, last, back));
  });
});

describe('openOutage with maintenance (read time)', () => {
  it('counts an open outage as its return heartbeat would write it', () => {
    const last = '2026-05-10T02:00:00.000Z';
    const now = new Date('2026-05-10T04:00:00.000Z');
    const spans = spansFor([w('mw-a', '2026-05-10T03:00:00Z', '2026-05-10T05:00:00Z')], last, now.toISOString());
    expect([...openOutage(last, now, spans)]).toEqual([['2026-05-10', H]]);
    const written = heartbeatTime(last, last, now.toISOString(), spans).get('2026-05-10')!;
    expect(written.m).toBe(H);
    // The figure: 1 h down of the day's monitored time, the same as with the written day.
    const up = { date: '2026-05-10', availablePct: 100, monitoredSeconds: 2 * 3_600 };
    expect(availability30d(withOpenOutage([up], last, now, spans), now)).toBe(66.67);
  });
});

describe('fleet figures with maintenance', () => {
  it('the histogram outage time less the devices\' window time equals the per-device outage without it', () => {
    const now = new Date('2026-06-01T02:00:00.000Z');
    const last = '2026-05-31T22:00:00.000Z';
    const spans = spansFor([w('mw-a', '2026-05-31T23:00:00Z', '2026-06-01T01:00:00Z')], last, now.toISOString());
    const maintenanceMs = maintenanceOfOutage(last, now, spans);
    expect(maintenanceMs).toEqual({ '2026-05-31': H, '2026-06-01': H });
    const device = { deviceId: 'fw-01', name: 'fw', lastHeartbeatAt: last, days: [], maintenanceMs };
    const window = { first: '2026-05-03', last: '2026-06-01' };
    const whole = Object.fromEntries(openOutage(last, now));
    expect(outageTimeCounters(whole, window, [device])).toEqual(outageDayCounters([device], window, now));
    expect(outageDayCounters([device], window, now).map((c) => Object.values(c)[0])).toEqual([H, H]);
  });
});
