/**
 * Outages cost nothing extra to read (issue 28, points 3–4; docs/data-model.md#outages), over the real engine
 * (dynoxide), requests and RCU counted on the table (`captureCapacity`). Three tenants of 200 devices written
 * through the data layer (`putDevice`: histogram move and fold, roll-up refresh; `putDailyAvailability`), the
 * same history each, with 0, 10 and 200 devices silent since Feb 28 (some 40 days before, some a few minutes
 * before the read), read at Feb 28 23:50 and Mar 1 02:00 UTC (across midnight and the month end):
 *  - `GET /devices` (`listDevicesView`, a page of 100): ONE Query whatever the number of devices down (was 1 +
 *    2 per device down: its days and its open alarms);
 *  - `GET /summary` (`tenantSummary`): the fleet figure from the heartbeat histogram read with the aggregates,
 *    and the below-target list from the roll-ups copied into the outage markers once the SLA job has marked
 *    the devices down (docs/data-model.md#outage-markers; before it, of the device list: one Query more, the
 *    same answer) — the same requests with 10 or 200 down (was the device list + one day Query per device
 *    down), and for 10 devices down a fraction of the device list's read units;
 *  - every figure equals the from-scratch one (`withOpenOutage` + `availability30d` over the device's days;
 *    the fleet's Σ available / Σ monitored over every device-day plus each device's `openOutage`) to the last
 *    digit, and the histogram's outage time per day (`histogramOutage`) is exactly the devices' sum;
 *  - the aggregates drift check (`rebuildTenantAggregates`, now with the histogram's sums and day bins) is empty.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useDynamoTable } from '../support/dynamo-table.js';
import { captureCapacity, roundTrips, type CapturedRequest } from '../support/capacity-capture.js';
import type { TableRef } from '../../lambdas/data/table/client.js';
import { deviceStats, devicesRepository, putDailyAvailability, putDevice, rekeyBelowSla } from '../../lambdas/data/devices.js';
import { reportsRepository } from '../../lambdas/data/reports.js';
import { putTenant } from '../../lambdas/data/tenants.js';
import { readTenantAggregates, rebuildTenantAggregates } from '../../lambdas/data/aggregates.js';
import { markOutages } from '../../lambdas/data/outages.js';
import { addDays, availability30d, availabilityWindowStart, listDevicesView, openOutage, withOpenOutage } from '../../lambdas/domain/devices.js';
import { agg, availabilityDay, fleetAvailabilityPct, histogramOutage, type Counters } from '../../lambdas/domain/aggregates.js';
import { LOWEST_DEVICES, tenantSummary } from '../../lambdas/domain/summary.js';

const TABLE = 'vigia-outage-read-cost';
const FLEET = 200;
const SEEDED_AT = new Date('2026-02-28T23:40:00.000Z');
const READS = [new Date('2026-02-28T23:50:00.000Z'), new Date('2026-03-01T02:00:00.000Z')];
const TENANTS = [
  { id: 'none-down', down: 0 },
  { id: 'ten-down', down: 10 },
  { id: 'all-down', down: FLEET },
] as const;

let table: TableRef;
const ops: CapturedRequest[] = [];

useDynamoTable(TABLE, (t) => {
  table = t;
});

const num = (i: number) => String(i).padStart(3, '0');

/**
 * Device #i's last heartbeat: a down device beat last at one of several instants (40 days before, Feb 27,
 * Feb 28 at 20:00 + i s, or 20 min before the seed); an up one 1 min before the seed (+ i × 0.13 s).
 */
function lastBeat(i: number, down: boolean, at: Date): string {
  if (!down) return new Date(at.getTime() - 60_000 + i * 130).toISOString();
  const kind = i % 4;
  if (kind === 0) return new Date(Date.parse('2026-01-19T08:00:00.000Z') + i * 1_001).toISOString();
  if (kind === 1) return new Date(Date.parse('2026-02-27T11:00:00.000Z') + i * 7_919).toISOString();
  if (kind === 2) return new Date(Date.parse('2026-02-28T20:00:00.000Z') + i * 1_013).toISOString();
  return new Date(SEEDED_AT.getTime() - 20 * 60_000 + i * 37).toISOString();
}

const deviceOf = (tenantId: string, i: number, lastHeartbeatAt: string) => ({ tenantId, id: `dev-${num(i)}`, name: `equipo ${num(i)}`, type: 'switch', site: 'Madrid', ipAddress: '10.0.0.1', vendor: 'v', model: 'm', lastHeartbeatAt });

/** The devices that are up beat 1 min before `now` (`putDevice` moves the histogram; no day written). */
async function beatUp(tenantId: string, down: number, now: Date): Promise<void> {
  for (let i = down; i < FLEET; i++) await putDevice(deviceOf(tenantId, i, lastBeat(i, false, now)), table, now);
}

beforeAll(async () => {
  for (const t of TENANTS) {
    await putTenant({ id: t.id, name: t.id }, table);
    for (let i = 0; i < FLEET; i++) {
      const id = `dev-${num(i)}`;
      await putDevice(deviceOf(t.id, i, lastBeat(i, i < t.down, SEEDED_AT)), table, SEEDED_AT);
      // Stored days of the window: one at 99.1–100 % over 86,400 − i s two days before, one at 97–99 % five days before.
      await putDailyAvailability({ tenantId: t.id, deviceId: id, date: '2026-02-26', availablePct: 99.1 + (i % 10) / 10, monitoredSeconds: 86_400 - i }, table, SEEDED_AT);
      await putDailyAvailability({ tenantId: t.id, deviceId: id, date: '2026-02-23', availablePct: 97 + (i % 7) / 3 }, table, SEEDED_AT);
    }
  }
  captureCapacity(table, ops);
}, 600_000);

/** `fn` with the requests and RCU it consumed on the table. */
async function measured<T>(fn: () => Promise<T>): Promise<{ out: T; requests: number; rcu: number; trips: number }> {
  ops.length = 0;
  const out = await fn();
  return { out, requests: ops.length, rcu: Math.round(ops.reduce((a, o) => a + o.rcu, 0) * 10) / 10, trips: roundTrips(ops) };
}

/** From scratch: every device's days and last heartbeat (two Queries a device; not measured). */
async function scratch(tenantId: string, now: Date) {
  const port = devicesRepository(table);
  const out: { id: string; name: string; lastHeartbeatAt: string | null; days: Awaited<ReturnType<typeof deviceStats>>['days'] }[] = [];
  for (let cursor: string | undefined, first = true; first || cursor; first = false) {
    const page = await port.listDevices(tenantId, { limit: 100, ...(cursor ? { cursor } : {}) });
    for (const { device } of page.items) out.push({ id: device.id, name: device.name, lastHeartbeatAt: device.lastHeartbeatAt, days: (await deviceStats(tenantId, device.id, availabilityWindowStart(now), table)).days });
    cursor = page.nextCursor ?? undefined;
  }
  return out;
}

const measuredCost: Record<string, { list: number; listRcu: number; unmarked: number; unmarkedRcu: number; unmarkedTrips: number; summary: number; summaryRcu: number; summaryTrips: number }> = {};

describe('outages cost nothing extra to read (200 devices)', () => {
  for (const now of READS) {
    for (const t of TENANTS) {
      it(`${t.id} at ${now.toISOString()}: the device page is one Query, the summary's requests do not grow with the devices down, every figure the from-scratch one`, async () => {
        await beatUp(t.id, t.down, now);
        // The SLA job's daily re-key of the below-SLA index (lambdas/triggers/sla-watch.ts), as on a new day.
        await rekeyBelowSla(t.id, table, now);
        const devices = await scratch(t.id, now);
        const expected = new Map(devices.map((d) => [d.id, availability30d(withOpenOutage(d.days, d.lastHeartbeatAt, now), now)]));
        const down = devices.filter((d) => openOutage(d.lastHeartbeatAt, now).size > 0);
        expect(down.length).toBe(t.down);

        // GET /devices: pages of 100, ONE Query each, whatever the number of devices down.
        const port = devicesRepository(table);
        const p1 = await measured(() => listDevicesView(port, t.id, { limit: 100 }, now));
        const p2 = await measured(() => listDevicesView(port, t.id, { limit: 100, cursor: p1.out.nextCursor! }, now));
        expect([p1.requests, p2.requests]).toEqual([1, 1]);
        for (const d of [...p1.out.items, ...p2.out.items]) expect(d.availability30d, d.id).toBe(expected.get(d.id));

        // GET /summary: the fleet figure from the histogram; the below-target list from the roll-ups — of the
        // device list before the SLA job marked the devices down, of the outage markers after
        // (docs/data-model.md#outage-markers); the same answer both ways.
        const before = await measured(() => tenantSummary(reportsRepository(table), t.id, {}, now));
        await markOutages(t.id, (await readTenantAggregates(table, t.id)).heartbeat, now, table);
        const s = await measured(() => tenantSummary(reportsRepository(table), t.id, {}, now));
        expect(s.out).toEqual(before.out);
        const window = { first: addDays(now.toISOString().slice(0, 10), -29), last: now.toISOString().slice(0, 10) };
        const fleetDays: Counters[] = [];
        const outageByDay = new Map<string, number>();
        for (const d of devices) {
          for (const day of d.days) if (day.date >= window.first && day.date <= window.last) fleetDays.push(availabilityDay(day));
          for (const [date, ms] of openOutage(d.lastHeartbeatAt, now)) outageByDay.set(date, (outageByDay.get(date) ?? 0) + ms);
        }
        // The histogram's outage time per day is exactly the devices' (integer ms).
        const { heartbeat } = await readTenantAggregates(table, t.id);
        expect(histogramOutage(heartbeat, now)).toEqual(outageByDay);
        const fleet = fleetAvailabilityPct([...fleetDays, ...[...outageByDay].filter(([d]) => d >= window.first).map(([, ms]) => ({ [agg.availMonitoredMs]: ms }))]);
        expect(s.out.availability.pct30d).toBe(fleet);
        const below = devices
          .map((d) => ({ deviceId: d.id, name: d.name, availability30d: expected.get(d.id)! }))
          .filter((d) => d.availability30d !== null && d.availability30d < 99.5)
          .sort((a, b) => Math.round(a.availability30d * 100) - Math.round(b.availability30d * 100) || (a.deviceId < b.deviceId ? -1 : 1))
          .slice(0, LOWEST_DEVICES);
        expect(s.out.availability.belowSla).toEqual(below);

        // The aggregates, the histogram's sums and day bins included, equal the ones rebuilt from the items.
        const { drift } = await rebuildTenantAggregates(table, t.id, { write: false, now });
        expect(drift.filter((x) => !x.startsWith('stats.aggVersion'))).toEqual([]);
        measuredCost[`${t.id} ${now.toISOString()}`] = { list: p1.requests, listRcu: p1.rcu, unmarked: before.requests, unmarkedRcu: before.rcu, unmarkedTrips: before.trips, summary: s.requests, summaryRcu: s.rcu, summaryTrips: s.trips };
      }, 120_000);
    }
  }

  it('the summary costs the same with 10 and 200 devices down, at most two requests more than with none (the markers, the maintenance windows), reads for the devices down only, in two round trips', () => {
    console.log('outage read cost (requests, RCU):', JSON.stringify(measuredCost));
    for (const now of READS) {
      const at = (id: string) => measuredCost[`${id} ${now.toISOString()}`]!;
      expect(at('ten-down').summary).toBe(at('all-down').summary);
      // ONE Query of the markers and ONE of the maintenance windows over the outages (docs/sla.md#maintenance-windows).
      expect(at('all-down').summary).toBeLessThanOrEqual(at('none-down').summary + 2);
    }
    // At the first read, before the job marked them: one Query more, the device list (200 devices whatever the
    // number down); with the markers, 10 devices down cost a fraction of its read units. (At the second read the
    // markers of the first are still current: nothing moved.)
    const first = (id: string) => measuredCost[`${id} ${READS[0]!.toISOString()}`]!;
    // Round trips on the way to the answer (the summary's latency): the head (stats + histogram, ONE Query), then
    // everything else at once — days, below-target index, outage markers and maintenance windows — and the
    // device list a third only while the markers are behind (was 3 with none down, 4–5 with devices down).
    for (const now of READS) {
      const at = (id: string) => measuredCost[`${id} ${now.toISOString()}`]!;
      expect([at('none-down').summaryTrips, at('ten-down').summaryTrips, at('all-down').summaryTrips]).toEqual([2, 2, 2]);
    }
    expect([first('ten-down').unmarkedTrips, first('all-down').unmarkedTrips]).toEqual([3, 3]);
    expect(first('ten-down').unmarked).toBe(first('ten-down').summary + 1);
    expect(first('ten-down').summaryRcu - first('none-down').summaryRcu).toBeLessThan((first('ten-down').unmarkedRcu - first('none-down').summaryRcu) / 4);
  });
});
