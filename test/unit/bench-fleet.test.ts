/**
 * The fleet section's pure parts (scripts/bench/fleet.ts, cost.ts, budgets.ts): the fleet plan at full size,
 * the minute's schedule, the hot-key meter's per-second peaks and projection inputs, the item keys a write
 * touches, the heartbeat bill from units at list prices, and the fleet budgets (judged only when measured).
 * The harness itself on the engine: test/integration/bench-fleet.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { HotKeyMeter, itemClass, planFleet, scheduleMinute, writtenKeys } from '../../scripts/bench/fleet.js';
import { HEARTBEATS_PER_DEVICE_MONTH, heartbeatDesigns, heartbeatDeviceMonth, PRICES } from '../../scripts/bench/cost.js';
import { checkFleetBudgets } from '../../scripts/bench/budgets.js';
import type { BenchResults, FleetResults } from '../../scripts/bench/types.js';

describe('planFleet', () => {
  it('full size: 100,000 devices in 1,000 tenants, one of 50,000', () => {
    const t = planFleet(1);
    expect(t).toHaveLength(1000);
    expect(t.reduce((s, x) => s + x.devices.length, 0)).toBe(100_000);
    expect(t[0]!.devices).toHaveLength(50_000);
    expect(Math.max(...t.slice(1).map((x) => x.devices.length))).toBeLessThanOrEqual(51);
  });

  it('a smaller scale keeps the shape', () => {
    const t = planFleet(0.01);
    expect(t).toHaveLength(10);
    expect(t[0]!.devices).toHaveLength(500);
    expect(t.reduce((s, x) => s + x.devices.length, 0)).toBe(1000);
  });
});

describe('scheduleMinute', () => {
  it('sends every device once, in batches of at most 100 spread over the 60 s', () => {
    const tenants = planFleet(0.01);
    const batches = scheduleMinute(tenants, 100);
    expect(batches.reduce((s, b) => s + b.devices.length, 0)).toBe(1000);
    expect(Math.max(...batches.map((b) => b.devices.length))).toBe(100);
    const offsets = batches.map((b) => b.offsetMs);
    expect(Math.min(...offsets)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...offsets)).toBeLessThan(60_000);
    expect(new Set(offsets.map((o) => Math.floor(o / 1000))).size).toBe(batches.length);
  });
});

describe('HotKeyMeter', () => {
  it('peaks per simulated second, totals over the run', () => {
    const m = new HotKeyMeter();
    for (let i = 0; i < 5; i++) m.add('K', 't', 'tenant', 3, 2);
    m.add('K', 't', 'tenant', 4, 2);
    m.endMinute();
    m.add('K', 't', 'tenant', 61, 2);
    m.endMinute();
    expect(m.keys.get('K')).toMatchObject({ writes: 7, wcu: 14, peakWrites: 5, peakWcu: 10 });
  });
});

describe('writtenKeys / itemClass', () => {
  it('every action of a transaction, a single write, a batch', () => {
    expect(writtenKeys('TransactWriteItems', { TransactItems: [{ Update: { Key: { PK: 'A', SK: '1' } } }, { ConditionCheck: { Key: { PK: 'B', SK: '2' } } }, { Put: { Item: { PK: 'C', SK: '3', x: 1 } } }] })).toEqual([
      { pk: 'A', sk: '1' },
      { pk: 'B', sk: '2' },
      { pk: 'C', sk: '3' },
    ]);
    expect(writtenKeys('UpdateItem', { Key: { PK: 'A', SK: '1' } })).toEqual([{ pk: 'A', sk: '1' }]);
    expect(writtenKeys('BatchWriteItem', { RequestItems: { t: [{ PutRequest: { Item: { PK: 'A', SK: '1' } } }, { DeleteRequest: { Key: { PK: 'B', SK: '2' } } }] } })).toHaveLength(2);
    expect(writtenKeys('Query', { KeyConditionExpression: 'x' })).toEqual([]);
    expect(itemClass('TENANT#a#DEVICE#d1', 'AVAIL#2026-11-28')).toBe('device:AVAIL#<date>');
    expect(itemClass('TENANT#a#DAYS', 'DAY#2026-11-28')).toBe('tenant:DAY#<date>');
  });
});

const fleet = (over: Partial<FleetResults> = {}): FleetResults => ({
  scale: 0.01,
  tenants: 10,
  devices: 1000,
  largestTenantDevices: 500,
  minutes: 10,
  batchSize: 100,
  batches: 140,
  sent: 11_000,
  applied: 11_000,
  replayed: 0,
  errored: 0,
  lost: 0,
  resent: 0,
  storedMismatch: 0,
  measuredHeartbeats: 10_000,
  perHeartbeat: { requests: 6, readUnits: 2, writeUnits: 14, indexWriteUnits: 2, byOperation: {} },
  itemClasses: [
    { itemClass: 'device:DEVICE', writesPerHeartbeat: 2, wcuPerHeartbeat: 3 },
    { itemClass: 'device:HEARTBEAT', writesPerHeartbeat: 1, wcuPerHeartbeat: 2 },
    { itemClass: 'device:AVAIL#<date>', writesPerHeartbeat: 1, wcuPerHeartbeat: 2 },
    { itemClass: 'tenant:STATS#HB', writesPerHeartbeat: 1, wcuPerHeartbeat: 2 },
    { itemClass: 'tenant:DAY#<date>', writesPerHeartbeat: 1, wcuPerHeartbeat: 2 },
    { itemClass: 'tenant:STATS', writesPerHeartbeat: 1, wcuPerHeartbeat: 1 },
  ],
  hottestPartitions: [{ key: 'TENANT#fleet-0000', scope: 'tenant', peakWcuPerSecond: 300, projectedWcuPerSecond: 2500, peakWritesPerSecond: 200, projectedWritesPerSecond: 1666 }],
  hottestItems: [{ key: 'TENANT#fleet-0000 | STATS#HB', scope: 'tenant', peakWcuPerSecond: 200, projectedWcuPerSecond: 1666, peakWritesPerSecond: 100, projectedWritesPerSecond: 833 }],
  rules: { transactionConflicts: 0, singleItemTransactionConflicts: 0, throttledReads: 0, throttledWrites: 0, unprocessedByThrottling: 0, hottestWallClockPartitions: [] },
  drift: { tenantsChecked: 10, tenantsWithDrift: 0, entries: 0 },
  lambdaMsPerBatch: { p50: 1000, mean: 1000 },
  wallMs: 1,
  heartbeatsPerWallSecond: 30,
  ...over,
});

describe('heartbeat cost model', () => {
  it('DynamoDB writes of a device-month = 43,200 × WRU × the per-million price', () => {
    const b = heartbeatDeviceMonth({ requests: 6, rru: 2, wru: 14 }, 100);
    expect(HEARTBEATS_PER_DEVICE_MONTH).toBe(43_200);
    expect(b.dynamoWrites).toBeCloseTo((43_200 * 14 * PRICES.dynamoWriteRequestUnitPerMillion) / 1e6, 10);
    expect(b.apiGateway).toBeCloseTo((432 * PRICES.apiGatewayRestPerMillion) / 1e6, 10);
    // A single collector pays API Gateway once per heartbeat: already above $0.01 on its own.
    expect(heartbeatDeviceMonth({ requests: 6, rru: 2, wru: 14 }, 1).apiGateway).toBeGreaterThan(0.01);
  });

  it('the designs: coalescing divides only the tenant items by the batch; presence is the cheapest', () => {
    const d = Object.fromEntries(heartbeatDesigns(fleet()).map((x) => [x.id, x]));
    expect(d.current!.wru).toBe(14);
    expect(d.coalesce!.wru).toBeCloseTo(3 + 2 + 2 + 2 + 5 / 100, 10);
    expect(d.presence!.batched.dollarsPerDeviceMonth).toBeLessThan(d.coalesce!.batched.dollarsPerDeviceMonth);
    // Today's hot keys are the measured (projected) ones; coalescing writes them once per batch of 100.
    expect(d.current!.hottestItemWritesPerSecond).toBe(833);
    expect(d.coalesce!.hottestItemWritesPerSecond).toBeCloseTo(8.33, 6);
    expect(d.coalesce!.hottestPartitionWcuPerSecond).toBeCloseTo(25, 6);
  });
});

describe('fleet budgets', () => {
  const results = (f: FleetResults | null) => ({ fleet: f, scale: null }) as unknown as BenchResults;
  it('are not judged when the section was not measured (a default run, CI fixtures)', () => {
    expect(checkFleetBudgets(results(null))).toEqual([]);
  });
  it('fail on the current design: hot partition and item, cost; pass lost and drift', () => {
    const o = Object.fromEntries(checkFleetBudgets(results(fleet())).map((x) => [x.id, x.pass]));
    expect(o).toEqual({ 'fleet.lost': true, 'fleet.partition-wcu': false, 'fleet.item-writes': false, 'fleet.drift': true, 'fleet.cost:batched': false, 'fleet.cost:single': false });
  });
  it('a lost heartbeat or a drift fails', () => {
    const o = Object.fromEntries(checkFleetBudgets(results(fleet({ lost: 1, drift: { tenantsChecked: 10, tenantsWithDrift: 1, entries: 2 } }))).map((x) => [x.id, x.pass]));
    expect([o['fleet.lost'], o['fleet.drift']]).toEqual([false, false]);
  });
});
