/**
 * The outage rule as pure functions (docs/data-model.md#outages): when an outage starts counting, how it is
 * split per UTC day and capped, what the return heartbeat writes, and how the readers add it to stored days.
 */
import { describe, expect, it } from 'vitest';
import { availability30d, heartbeatTime, mergeDays, openOutage, outageAfter, outageDays, OUTAGE_MAX_DAYS, withOpenOutage } from '../../../lambdas/domain/devices.js';
import { belowTargetWithOutages, outageDayCounters } from '../../../lambdas/domain/outages.js';
import { agg, delta, deviceHeartbeat, histogramFold, histogramOutage, nonZero, sumInto, type Counters } from '../../../lambdas/domain/aggregates.js';

const H = 3_600_000;

describe('outages', () => {
  it('count from the start of the last heartbeat minute + 5 min, then from the heartbeat itself', () => {
    const last = '2026-01-31T20:00:40.000Z';
    expect(outageAfter(last)).toBe(Date.parse('2026-01-31T20:05:00.000Z'));
    expect(outageAfter(null)).toBeNull();
    expect(openOutage(last, new Date('2026-01-31T20:05:00.000Z')).size).toBe(0);
    expect([...openOutage(last, new Date('2026-01-31T20:05:00.001Z'))]).toEqual([['2026-01-31', 4 * 60_000 + 20_001]]);
    expect(openOutage(null, new Date())).toEqual(new Map());
  });

  it('split per UTC day across midnight and a month end, capped at the 30 days ending on the last day', () => {
    expect([...outageDays(Date.parse('2026-01-31T20:00:00Z'), Date.parse('2026-02-01T03:00:00Z'))]).toEqual([
      ['2026-01-31', 4 * H],
      ['2026-02-01', 3 * H],
    ]);
    const long = outageDays(Date.parse('2025-12-01T12:00:00Z'), Date.parse('2026-02-15T06:00:00Z'));
    expect(long.size).toBe(OUTAGE_MAX_DAYS);
    expect([...long.keys()][0]).toBe('2026-01-17');
    expect(long.get('2026-01-17')).toBe(24 * H);
    expect(long.get('2026-02-15')).toBe(6 * H);
  });

  it('the return heartbeat writes what the readers added; a gap within the threshold stays available', () => {
    const back = '2026-02-01T03:00:00.000Z';
    expect(heartbeatTime('2026-01-31T20:00:00.000Z', '2026-01-31T20:00:30.000Z', back)).toEqual(
      new Map([...openOutage('2026-01-31T20:00:00.000Z', new Date(back))].map(([d, ms]) => [d, { m: ms, u: 0 }])),
    );
    // 4 min after the minute's second heartbeat, 4 min 30 s after its first: all available, on their days.
    expect(heartbeatTime('2026-01-31T23:58:00.000Z', '2026-01-31T23:58:30.000Z', '2026-02-01T00:02:30.000Z')).toEqual(
      new Map([
        ['2026-01-31', { m: 30_000, u: 30_000 }],
        ['2026-02-01', { m: 240_000, u: 240_000 }],
      ]),
    );
  });

  it('are added to the stored days as unavailable monitored time, on every figure', () => {
    const now = new Date('2026-02-01T03:00:00Z');
    const last = '2026-01-31T20:00:00.000Z';
    const days = [{ date: '2026-01-31', availablePct: 100, monitoredSeconds: 3 * 3600 }];
    // The stored days unchanged, then the outage's days (unavailable); per day, merged for display.
    expect(withOpenOutage(days, last, now)).toEqual([
      { date: '2026-01-31', availablePct: 100, monitoredSeconds: 3 * 3600 },
      { date: '2026-01-31', availablePct: 0, monitoredSeconds: 4 * 3600 },
      { date: '2026-02-01', availablePct: 0, monitoredSeconds: 3 * 3600 },
    ]);
    expect(mergeDays(withOpenOutage(days, last, now))).toEqual([
      { date: '2026-01-31', availablePct: (3 / 7) * 100, monitoredSeconds: 7 * 3600 },
      { date: '2026-02-01', availablePct: 0, monitoredSeconds: 3 * 3600 },
    ]);
    expect(availability30d(withOpenOutage(days, last, now), now)).toBe(30);
    const outage = { deviceId: 'fw', name: 'fw', lastHeartbeatAt: last, days };
    expect(outageDayCounters([outage], { first: '2026-02-01', last: '2026-02-01' }, now)).toEqual([{ [agg.availMonitoredMs]: 3 * H }]);
    // The stored list without the device, plus the device with its outage, lowest first.
    const stored = [{ deviceId: 'fw', name: 'fw', availability30d: 99 }, { deviceId: 'ap', name: 'ap', availability30d: 98 }];
    expect(belowTargetWithOutages(stored, [outage], now, 10)).toEqual([
      { deviceId: 'fw', name: 'fw', availability30d: 30 },
      { deviceId: 'ap', name: 'ap', availability30d: 98 },
    ]);
  });

  it('are summed exactly from the heartbeat histogram (counts and sums of last heartbeats), through its folds and moves', () => {
    // 400 devices with last heartbeats from 45 days before to 1 min before, some moved later (a heartbeat).
    let seed = 7;
    const rnd = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
    const end = Date.parse('2026-03-01T02:00:00.000Z');
    const last = Array.from({ length: 400 }, () => new Date(end - Math.floor(rnd() * 45 * 24 * H) - 60_000).toISOString());
    let hist: Counters = {};
    const fold = (at: number) => {
      const { remove, add } = histogramFold(hist, new Date(at), 50);
      for (const k of remove) delete hist[k];
      hist = nonZero(sumInto(hist, add));
    };
    // Each device enters at its heartbeat's time (folding as the writers do), in time order.
    for (const [i, t] of last.map((t, i) => [i, t] as const).sort((a, b) => a[1].localeCompare(b[1]))) {
      sumInto(hist, delta(i % 3 === 0 ? deviceHeartbeat(null) : null, deviceHeartbeat(t)));
      fold(Date.parse(t));
    }
    // A third move again after being folded (their old minute or day bin gets the negative entry).
    for (let i = 0; i < last.length; i += 3) {
      const t = new Date(Math.max(Date.parse(last[i]!), end - 20 * 60_000) + 30_000 + i).toISOString();
      sumInto(hist, delta(deviceHeartbeat(last[i]!), deviceHeartbeat(t)));
      last[i] = t;
    }
    for (const at of [end - 10 * 60_000, end - 2 * 60_000, end + 3 * 60_000, end + 26 * H]) {
      const now = new Date(at);
      const expected = new Map<string, number>();
      for (const t of last) for (const [date, ms] of openOutage(t, now)) expected.set(date, (expected.get(date) ?? 0) + ms);
      expect(new Map([...histogramOutage(hist, now)].sort()), now.toISOString()).toEqual(new Map([...expected].sort()));
      fold(at);
      expect(new Map([...histogramOutage(hist, now)].sort()), `${now.toISOString()} folded`).toEqual(new Map([...expected].sort()));
    }
    expect(Object.keys(hist).some((k) => k.startsWith('d#'))).toBe(true);
    expect(hist[agg.hbOld]).toBeGreaterThan(0);
  });
});
