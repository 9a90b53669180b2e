/**
 * Outage markers (docs/data-model.md#outage-markers), over the real engine (dynoxide): after any sequence of
 * heartbeats (in and out of order, gaps of minutes to days), seed heartbeats, daily availability items,
 * renames and runs of the SLA job's `markOutages` — some of them concurrent —
 *  - every marker still holds exactly the device item's values it copied (`OUTAGE_MARKER_ATTRIBUTES`) — its
 *    roll-up either the device's or one no reader uses (revisions that differ) — and its device's heartbeat
 *    item carries the flag that makes the return heartbeat delete it;
 *  - after one more run of the job, the readers take the markers (`readDevicesDown` source `markers`) and they
 *    name exactly the devices the device list shows in an outage, with the same values;
 *  - a heartbeat that returns after the job marked its device deletes the marker in its own transaction.
 * The job, the heartbeats and the readers run as their functions (`runAsFunction`): each call is evaluated
 * against that function's role, and a call AWS would deny fails the file (test/support/aws-rules-setup.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { useDynamoTable } from '../support/dynamo-table.js';
import type { TableRef } from '../../lambdas/data/table/client.js';
import { ingestHeartbeat, putDailyAvailability, putDevice, recordHeartbeat, rollupOf } from '../../lambdas/data/devices.js';
import { markOutages, readDevicesDown } from '../../lambdas/data/outages.js';
import { OUTAGE_MARKER_ATTRIBUTES, OUTAGE_MARKER_PROJECTION, readOutageMarkers } from '../../lambdas/data/outage-markers.js';
import { readTenantAggregates } from '../../lambdas/data/aggregates.js';
import { keys } from '../../lambdas/data/table/keys.js';
import { acquireRuntimeIamCheck, runAsFunction, type RuntimeIamCheck } from '../../scripts/aws-rules/recorder.js';
import { addDays, openOutage } from '../../lambdas/domain/devices.js';
import { devicesByStatus } from '../../lambdas/domain/aggregates.js';

const TABLE = 'vigia-outage-markers';
let table: TableRef;

useDynamoTable(TABLE, (t) => {
  table = t;
});

// IAM on every call made inside `runAsFunction` (docs/local-emulation.md#iam).
let iam: RuntimeIamCheck;
beforeAll(async () => {
  iam = await acquireRuntimeIamCheck();
}, 60_000);
afterAll(() => iam?.release());

const NOW = new Date();
const TODAY = NOW.toISOString().slice(0, 10);
const DEVICES = ['dev-1', 'dev-2', 'dev-3'] as const;

type Ev =
  | { kind: 'heartbeat' | 'seed-heartbeat'; device: number; minutesAgo: number }
  | { kind: 'day'; device: number; offset: number; pct: number }
  | { kind: 'rename'; device: number; name: string }
  | { kind: 'mark'; minutesAgo: number };

const device = fc.integer({ min: 0, max: DEVICES.length - 1 });
const evArb: fc.Arbitrary<Ev> = fc.oneof(
  // from 3 days ago to 1 min ago: often minutes apart (online), sometimes hours (an outage)
  { weight: 5, arbitrary: fc.record({ device, minutesAgo: fc.oneof(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 1, max: 3 * 1440 })) }).map((r): Ev => ({ kind: 'heartbeat', ...r })) },
  { weight: 1, arbitrary: fc.record({ device, minutesAgo: fc.integer({ min: 1, max: 3 * 1440 }) }).map((r): Ev => ({ kind: 'seed-heartbeat', ...r })) },
  { weight: 1, arbitrary: fc.record({ device, offset: fc.integer({ min: -10, max: 0 }), pct: fc.integer({ min: 0, max: 100 }) }).map((r): Ev => ({ kind: 'day', ...r })) },
  { weight: 1, arbitrary: fc.record({ device, name: fc.constantFrom('fw', 'core', 'edge') }).map((r): Ev => ({ kind: 'rename', ...r })) },
  // the job at some instant up to 2 h ago (its clock), or now
  { weight: 3, arbitrary: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 120 })).map((minutesAgo): Ev => ({ kind: 'mark', minutesAgo })) },
);

const ago = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000);
const deviceInput = (tenantId: string, id: string, name: string) => ({ tenantId, id, name, type: 'firewall', site: 'M', ipAddress: '10.0.0.1', vendor: 'v', model: 'm' });

/** The SLA job's step, as the job's function (its role evaluated on every call: IAM, docs/local-emulation.md#iam). */
async function runJob(tenantId: string, at: Date): Promise<{ marked: number; unmarked: number }> {
  const { heartbeat } = await readTenantAggregates(table, tenantId);
  return runAsFunction('sla-watch', () => markOutages(tenantId, heartbeat, at, table));
}

/** A collector's heartbeat, as the ingest function (a marked device's return deletes the marker: DeleteItem). */
const beat = (tenantId: string, deviceId: string, at: Date) => runAsFunction('ingest', () => ingestHeartbeat({ tenantId, deviceId, at: at.toISOString() }, table, NOW));

/** The devices down as the reports function reads them (`GET /summary`, reports, analytics). */
const readDown = (tenantId: string, down: number, at: Date) => runAsFunction('reports', () => readDevicesDown(tenantId, down, at, table));

async function apply(tenantId: string, e: Ev): Promise<void> {
  switch (e.kind) {
    case 'heartbeat':
      await beat(tenantId, DEVICES[e.device]!, ago(e.minutesAgo));
      return;
    case 'seed-heartbeat':
      await recordHeartbeat({ tenantId, deviceId: DEVICES[e.device]!, at: ago(e.minutesAgo).toISOString() }, table, NOW);
      return;
    case 'day':
      await putDailyAvailability({ tenantId, deviceId: DEVICES[e.device]!, date: addDays(TODAY, e.offset), availablePct: e.pct }, table, NOW);
      return;
    case 'rename':
      // putDevice keeps the recorded last heartbeat when the input gives it (as the administration's edit does).
      {
        const cur = await table.doc.send('GetItem', { TableName: TABLE, Key: keys.device(tenantId, DEVICES[e.device]!), ConsistentRead: true });
        await putDevice({ ...deviceInput(tenantId, DEVICES[e.device]!, e.name), lastHeartbeatAt: (cur.Item?.lastHeartbeatAt as string | null | undefined) ?? null }, table, NOW);
      }
      return;
    case 'mark':
      await runJob(tenantId, ago(e.minutesAgo));
      return;
  }
}

/** The devices' items projected as a marker copies them, by id (consistent reads). */
async function deviceItems(tenantId: string): Promise<Map<string, Record<string, unknown>>> {
  const out = new Map<string, Record<string, unknown>>();
  for (const id of DEVICES) {
    const res = await table.doc.send('GetItem', { TableName: TABLE, Key: keys.device(tenantId, id), ConsistentRead: true, ...OUTAGE_MARKER_PROJECTION });
    out.set(id, res.Item!);
  }
  return out;
}

const ROLLUP = new Set(['availRollupRev', 'availAsOf', 'availSum30d', 'availMon30d', 'availPct30d']);
const withoutRollup = (item: Record<string, unknown>) => Object.fromEntries(Object.entries(copied(item)).filter(([k]) => !ROLLUP.has(k)));
const copied = (item: Record<string, unknown>) => Object.fromEntries(OUTAGE_MARKER_ATTRIBUTES.filter((a) => item[a] !== undefined).map((a) => [a, item[a]]));

let run = 0;

describe('outage markers', () => {
  it('hold the device values they copied after random writes and job runs (some concurrent); the readers take them once the job ran', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(evArb, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 10 }), async (batches) => {
        const tenantId = `t${++run}`;
        for (const id of DEVICES) await putDevice(deviceInput(tenantId, id, id), table, NOW);
        for (const batch of batches) await Promise.all(batch.map((e) => apply(tenantId, e)));

        // The invariant: each marker holds its device's current values, and the flag is set.
        const items = await deviceItems(tenantId);
        for (const m of await readOutageMarkers(table, tenantId)) {
          const id = String(m.id);
          // The roll-up may be a copy taken between a heartbeat's transaction and its roll-up refresh: then its
          // revisions differ and no reader uses it (`rollupOf` null: the device's days are read instead).
          const device = items.get(id)!;
          expect(withoutRollup(m), `marker of ${id}`).toEqual(withoutRollup(device));
          const rollup = rollupOf(m);
          if (rollup !== null) expect(rollup, `roll-up of ${id}'s marker`).toEqual(rollupOf(device));
          const hb = await table.doc.send('GetItem', { TableName: TABLE, Key: keys.heartbeat(tenantId, id), ConsistentRead: true });
          expect(hb.Item?.outageMarked, `flag of ${id}`).toBe(true);
        }

        // One more run of the job at NOW: the readers take the markers, and they are the devices down.
        await runJob(tenantId, NOW);
        const expected = [...items.values()].filter((d) => typeof d.lastHeartbeatAt === 'string' && openOutage(d.lastHeartbeatAt, NOW).size > 0);
        const { heartbeat } = await readTenantAggregates(table, tenantId);
        const byStatus = devicesByStatus(heartbeat, NOW);
        expect(byStatus.degraded + byStatus.offline).toBe(expected.length);
        if (expected.length > 0) {
          const read = await readDown(tenantId, expected.length, NOW);
          expect(read.source).toBe('markers');
          const byId = (a: Record<string, unknown>, b: Record<string, unknown>) => String(a.id).localeCompare(String(b.id));
          expect(read.devices.map(withoutRollup).sort(byId)).toEqual(expected.map(withoutRollup).sort(byId));
        }
      }),
      { numRuns: 40 },
    );
  }, 240_000);

  it('the return heartbeat deletes its marker and the flag in its own transaction; the next reader goes back to the device list until the job runs', async () => {
    const tenantId = 'returns';
    for (const id of DEVICES) await putDevice(deviceInput(tenantId, id, id), table, NOW);
    await beat(tenantId, 'dev-1', ago(90));
    await beat(tenantId, 'dev-2', ago(60));
    await beat(tenantId, 'dev-3', ago(1));
    expect(await runJob(tenantId, NOW)).toEqual({ marked: 2, unmarked: 0 });
    expect(await runJob(tenantId, NOW)).toEqual({ marked: 0, unmarked: 0 });
    expect((await readDown(tenantId, 2, NOW)).source).toBe('markers');

    await beat(tenantId, 'dev-1', new Date(NOW.getTime() + 4 * 60_000));
    expect((await readOutageMarkers(table, tenantId)).map((m) => m.id)).toEqual(['dev-2']);
    const hb = await table.doc.send('GetItem', { TableName: TABLE, Key: keys.heartbeat(tenantId, 'dev-1'), ConsistentRead: true });
    expect(hb.Item?.outageMarked).toBeUndefined();
    // dev-3 goes down later: one marker for two devices down, so the reader takes the device list.
    const later = new Date(NOW.getTime() + 6 * 60_000);
    const down = await readDown(tenantId, 2, later);
    expect(down.source).toBe('device-list');
    expect(down.devices.map((d) => d.id).sort()).toEqual(['dev-2', 'dev-3']);
    expect(await runJob(tenantId, later)).toEqual({ marked: 1, unmarked: 0 });
    expect((await readDown(tenantId, 2, later)).source).toBe('markers');
  });
});
