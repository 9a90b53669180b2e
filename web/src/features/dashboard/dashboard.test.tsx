import { describe, expect, it } from 'vitest';
import { incidentTrend, latestUpdates, lowestAvailability, meanAvailability, trendStart, TREND_DAYS } from './api';
import type { Incident } from '../../shared/lib/contract';

describe('dashboard aggregation', () => {
  it('counts incidents per UTC day and severity over the 30-day window, ignoring older ones', () => {
    const start = trendStart(new Date('2026-03-30T15:00:00Z'));
    expect(start.toISOString()).toBe('2026-03-01T00:00:00.000Z');
    const points = incidentTrend(
      [
        { createdAt: '2026-03-01T00:00:00.000Z', severity: 'high' },
        { createdAt: '2026-03-01T23:59:59.999Z', severity: 'high' },
        { createdAt: '2026-03-30T08:00:00.000Z', severity: 'critical' },
        { createdAt: '2026-02-28T23:59:59.999Z', severity: 'low' },
      ],
      start,
    );
    expect(points).toHaveLength(TREND_DAYS);
    expect(points[0]).toEqual({ date: '2026-03-01', critical: 0, high: 2, medium: 0, low: 0 });
    expect(points[29]).toEqual({ date: '2026-03-30', critical: 1, high: 0, medium: 0, low: 0 });
    expect(points.reduce((n, p) => n + p.low, 0)).toBe(0);
  });

  it('averages 30-day availability over devices with history', () => {
    expect(meanAvailability([{ availability30d: 99 }, { availability30d: null }, { availability30d: 100 }])).toBe(99.5);
    expect(meanAvailability([{ availability30d: null }])).toBeNull();
    expect(lowestAvailability([{ name: 'a', availability30d: 99.9 }, { name: 'b', availability30d: null }, { name: 'c', availability30d: 95 }, { name: 'd', availability30d: 98 }], 2)).toEqual([
      { name: 'c', value: 95 },
      { name: 'd', value: 98 },
    ]);
  });

  it('lists the latest updated incidents once each', () => {
    const inc = (id: string, updatedAt: string) => ({ id, updatedAt }) as Incident;
    const latest = latestUpdates([[inc('A', '2026-03-02T00:00:00Z'), inc('B', '2026-03-05T00:00:00Z')], [inc('A', '2026-03-02T00:00:00Z'), inc('C', '2026-03-01T00:00:00Z')]], 2);
    expect(latest.map((i) => i.id)).toEqual(['B', 'A']);
  });
});
