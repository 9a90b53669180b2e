/**
 * The fleet harness (scripts/bench/fleet.ts) at a tiny size on the real engine behind the DynamoDB rules
 * proxy, through the real ingest handler: its accounting (heartbeats sent = applied + replayed + lost, a
 * dropped entry is counted lost and seen missing from the stored heartbeat item), and its hot-key rates
 * computed from the captured writes (per simulated second, and projected to the full fleet).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { measureFleet, planFleet } from '../../scripts/bench/fleet.js';
import type { FleetResults } from '../../scripts/bench/types.js';

let r: FleetResults;
// 2 tenants of 50 devices (scale 0.001), a warm-up minute + 1 measured minute; the 4th entry of every batch
// is dropped before sending (the collector "loses" it), so 2 tenants × 2 minutes = 4 heartbeats are lost.
beforeAll(async () => {
  r = await measureFleet({ scale: 0.001, minutes: 1, concurrency: 2, dropEntry: 3 });
}, 240_000);

describe('fleet harness at 2 × 50 devices', () => {
  it('sent = applied + replayed + lost; the dropped entries are lost and missing from the stored items', () => {
    expect(planFleet(0.001).map((t) => t.devices.length)).toEqual([50, 50]);
    expect(r.sent).toBe(200);
    expect(r.sent).toBe(r.applied + r.replayed + r.lost);
    expect(r.lost).toBe(4);
    expect(r.errored).toBe(0);
    // d00003 of each tenant never beat: its heartbeat item does not hold the last `at` sent.
    expect(r.storedMismatch).toBe(2);
    expect(r.measuredHeartbeats).toBe(100);
    expect(r.drift.entries).toBe(0);
  });

  it('units per heartbeat are the sum of the captured writes', () => {
    const table = r.itemClasses.reduce((s, c) => s + c.wcuPerHeartbeat, 0);
    expect(table + r.perHeartbeat.indexWriteUnits).toBeCloseTo(r.perHeartbeat.writeUnits, 2);
    expect(r.perHeartbeat.writeUnits).toBeGreaterThan(0);
  });

  it('hot keys: the tenant histogram is written by each applied heartbeat, in its batch\'s simulated second', () => {
    const hb = r.hottestItems.find((h) => h.key === 'TENANT#fleet-0000 | STATS#HB');
    expect(hb).toBeDefined();
    // One batch of 49 applied heartbeats (50 − the dropped one) in one simulated second.
    expect(hb!.peakWritesPerSecond).toBe(49);
    // 49 writes over 60 measured simulated seconds, × 50,000 / 50 devices at full size.
    expect(hb!.projectedWritesPerSecond).toBeCloseTo((49 / 60) * 1000, 1);
    // A device's own items: one heartbeat a minute, not scaled.
    const device = r.hottestItems.find((h) => h.scope === 'device');
    if (device) expect(device.projectedWritesPerSecond).toBeLessThan(1);
    const partition = r.hottestPartitions[0]!;
    expect(partition.scope).toBe('tenant');
    expect(partition.projectedWcuPerSecond).toBeGreaterThan(300);
  });
});
