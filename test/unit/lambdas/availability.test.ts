/**
 * One availability formula (docs/data-model.md#availability): the device status page's 30-day figure
 * (`availability30d`, also behind the roll-up on the device item) and the report's fleet figure
 * (`buildReport`; one device: its own) choose the same UTC days and weight them the same way.
 */
import { describe, expect, it } from 'vitest';
import { availability30d, availabilityDays, availabilityPct, availabilityRollup, availabilityFromRollup } from '../../../lambdas/domain/devices.js';
import { buildReport } from '../../../lambdas/domain/reports.js';
import type { DailyAvailability } from '../../../lambdas/domain/ports.js';

const DAY = 86_400_000;
const now = new Date('2026-05-20T10:20:00.000Z');
const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);
// As the local seed writes them: one figure for each of the 30 days before today, none for today yet;
// the oldest day (31 days back counted from today) is the worst, as in the demo data that showed 95,38 % vs 95,31 %.
const days: DailyAvailability[] = Array.from({ length: 31 }, (_, i) => ({
  date: date(now.getTime() - (31 - i) * DAY),
  availablePct: i === 0 ? 40 : i % 5 === 0 ? 97.25 : 99.9,
  monitoredSeconds: 86_400,
}));
const device = { tenantId: 'acme', id: 'd1', name: 'FW-MAD-01', type: 'firewall', site: 'Madrid', ipAddress: '10.0.0.1', vendor: 'v', model: 'm', lastHeartbeatAt: null };

describe('availabilityDays', () => {
  it('a rolling 30-day period is today UTC and the 29 days before', () => {
    expect(availabilityDays(new Date(now.getTime() - 30 * DAY).toISOString(), now.toISOString())).toEqual({ first: '2026-04-21', last: '2026-05-20' });
  });
  it('a custom range of whole local days keeps its day count', () => {
    // 1–2 March in Madrid (UTC+1): 2026-02-28T23:00Z … 2026-03-02T22:59:59.999Z
    expect(availabilityDays('2026-02-28T23:00:00.000Z', '2026-03-02T22:59:59.999Z')).toEqual({ first: '2026-03-01', last: '2026-03-02' });
  });
  it('a period shorter than a day is its end day', () => {
    expect(availabilityDays('2026-03-02T10:00:00.000Z', '2026-03-02T11:00:00.000Z')).toEqual({ first: '2026-03-02', last: '2026-03-02' });
  });
});

describe('availabilityPct', () => {
  it('weights the days inside the window by monitored time, clamps to 0–100 and rounds to two decimals', () => {
    const d: DailyAvailability[] = [
      { date: '2026-03-01', availablePct: 100, monitoredSeconds: 86_400 },
      { date: '2026-03-02', availablePct: 98, monitoredSeconds: 43_200 },
      { date: '2026-03-03', availablePct: 120, monitoredSeconds: 0 },
      { date: '2026-03-04', availablePct: 0, monitoredSeconds: 86_400 },
    ];
    expect(availabilityPct(d, { first: '2026-03-01', last: '2026-03-03' })).toBe(99.33);
    expect(availabilityPct(d, { first: '2026-03-03', last: '2026-03-03' })).toBeNull();
  });
});

describe('status page and report agree on 30-day availability', () => {
  it('the report for the last 30 days gives a one-device fleet the figure of the status page', () => {
    const statusPage = availability30d(days, now);
    const report = buildReport(
      [{ tenantId: 'acme', incidents: [], devices: [{ device, days }], alarms: [] }],
      { from: new Date(now.getTime() - 30 * DAY).toISOString(), to: now.toISOString() },
      now,
    );
    expect(statusPage).not.toBeNull();
    // One device: the fleet figure is the device's own.
    expect(report.availability.fleetPct).toBe(statusPage);
    // and the stored roll-up (what GET /devices reads) holds the same number
    expect(availabilityFromRollup(availabilityRollup(days, date(now.getTime() - 3 * DAY)), now)).toBe(statusPage);
  });
});
