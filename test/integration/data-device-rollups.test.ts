/**
 * The device roll-ups (`openAlarms`, availability `availPct30d`) that make `GET /devices` one Query give
 * exactly the numbers of the from-scratch computation (`deviceStats` + `availability30d`), after a random
 * sequence of ingest and seed writes — heartbeats (in and out of order), daily availability items
 * (past, today, future), alarms raised / acknowledged / cleared / replaced — some of them concurrent.
 * Checked on the write day and on the following 30 days (sliding window without new data), and on days
 * the roll-up does not cover (the fallback path). Real dynoxide on a random port.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { useDynamoTable } from '../support/dynamo-table.js';
import type { TableRef } from '../../lambdas/data/table/client.js';
import {
  deviceStats,
  devicesRepository,
  ingestHeartbeat,
  listDevices,
  putAlarm,
  putDailyAvailability,
  putDevice,
  raiseAlarm,
  transitionAlarm,
} from '../../lambdas/data/devices.js';
import { addDays, availability30d, availabilityFromRollup, availabilityWindowStart, listDevicesView, withOpenOutage } from '../../lambdas/domain/devices.js';
import { ALARM_STATES, type AlarmState } from '../../lambdas/contract/schemas.js';

const TABLE = 'vigia-rollups-main';
let table: TableRef;

useDynamoTable(TABLE, (t) => {
  table = t;
});

const NOW = new Date();
const TODAY = NOW.toISOString().slice(0, 10);
const START_OF_TODAY = Date.parse(`${TODAY}T00:00:00Z`);
const ALARM_IDS = ['a1', 'a2', 'a3'] as const;

type Ev =
  | { kind: 'heartbeat'; minutes: number }
  | { kind: 'day'; offset: number; pct: number; monitored: number }
  | { kind: 'raise'; alarm: string }
  | { kind: 'ack'; alarm: string }
  | { kind: 'clear'; alarm: string }
  | { kind: 'putAlarm'; alarm: string; state: AlarmState };

const evArb: fc.Arbitrary<Ev> = fc.oneof(
  // heartbeats from 35 days ago to the end of today, often minutes apart (online) and sometimes hours
  { weight: 4, arbitrary: fc.integer({ min: -35 * 1440, max: 1439 }).map((minutes): Ev => ({ kind: 'heartbeat', minutes })) },
  {
    weight: 2,
    arbitrary: fc
      .record({ offset: fc.integer({ min: -40, max: 3 }), pct: fc.oneof(fc.integer({ min: 0, max: 10_000 }).map((x) => x / 100), fc.double({ min: 0.001, max: 100, noNaN: true })) /* DynamoDB rejects subnormals */, monitored: fc.integer({ min: 0, max: 86_400 }) })
      .map((r): Ev => ({ kind: 'day', ...r })),
  },
  { weight: 2, arbitrary: fc.constantFrom(...ALARM_IDS).map((alarm): Ev => ({ kind: 'raise', alarm })) },
  { weight: 1, arbitrary: fc.constantFrom(...ALARM_IDS).map((alarm): Ev => ({ kind: 'ack', alarm })) },
  { weight: 1, arbitrary: fc.constantFrom(...ALARM_IDS).map((alarm): Ev => ({ kind: 'clear', alarm })) },
  { weight: 1, arbitrary: fc.record({ alarm: fc.constantFrom(...ALARM_IDS), state: fc.constantFrom(...ALARM_STATES) }).map((r): Ev => ({ kind: 'putAlarm', ...r })) },
);

async function apply(tenantId: string, deviceId: string, e: Ev): Promise<void> {
  const alarm = (id: string, state: AlarmState) => ({
    id,
    tenantId,
    deviceId,
    title: `alarm ${id}`,
    severity: 'high' as const,
    state,
    raisedAt: NOW.toISOString(),
    acknowledgedAt: null,
    acknowledgedBy: null,
    clearedAt: state === 'cleared' ? NOW.toISOString() : null,
  });
  switch (e.kind) {
    case 'heartbeat':
      await ingestHeartbeat({ tenantId, deviceId, at: new Date(START_OF_TODAY + e.minutes * 60_000).toISOString() }, table, NOW);
      return;
    case 'day':
      await putDailyAvailability({ tenantId, deviceId, date: addDays(TODAY, e.offset), availablePct: e.pct, monitoredSeconds: e.monitored }, table, NOW);
      return;
    case 'raise':
      await raiseAlarm(alarm(e.alarm, 'active'), table);
      return;
    case 'ack':
      await transitionAlarm(table, tenantId, deviceId, e.alarm, ['active'], 'acknowledged', { acknowledgedAt: NOW.toISOString(), acknowledgedBy: 'x' });
      return;
    case 'clear':
      await transitionAlarm(table, tenantId, deviceId, e.alarm, ['active', 'acknowledged'], 'cleared', { clearedAt: NOW.toISOString() });
      return;
    case 'putAlarm':
      await putAlarm(alarm(e.alarm, e.state), table);
      return;
  }
}

let run = 0;

describe('device roll-ups', () => {
  it('equal the from-scratch computation after random ingest sequences (some concurrent)', async () => {
    const port = devicesRepository(table);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(evArb, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 12 }), async (batches) => {
        const tenantId = `t${++run}`;
        const deviceId = 'dev-1';
        await putDevice({ tenantId, id: deviceId, name: 'fw', type: 'firewall', site: 'M', ipAddress: '10.0.0.1', vendor: 'v', model: 'm' }, table, NOW);
        // events of a batch run concurrently; batches in order
        for (const batch of batches) await Promise.all(batch.map((e) => apply(tenantId, deviceId, e)));

        const [listed] = (await listDevices(tenantId, { limit: 10 }, table)).items;
        expect(listed?.openAlarms).not.toBeNull();
        for (const k of [-1, 0, 1, 7, 29, 30, 45]) {
          const readAt = new Date(Date.parse(`${addDays(TODAY, k)}T${k === 0 ? NOW.toISOString().slice(11) : '09:30:00.000Z'}`));
          const scratch = await deviceStats(tenantId, deviceId, availabilityWindowStart(readAt), table);
          const expected = { availability30d: availability30d(scratch.days, readAt), openAlarms: scratch.openAlarms };
          // the fast path is really taken on the days the roll-up covers
          const fromRollup = availabilityFromRollup(listed!.availability, readAt);
          if (k >= 0 && k < 30) expect(fromRollup, `day +${k}`).toBe(expected.availability30d);
          else expect(fromRollup).toBeUndefined();
          // the list adds the device's open outage at `readAt` (docs/data-model.md#outages), as the device page does
          const view = (await listDevicesView(port, tenantId, { limit: 10 }, readAt)).items[0]!;
          const withOutage = { availability30d: availability30d(withOpenOutage(scratch.days, listed!.device.lastHeartbeatAt, readAt), readAt), openAlarms: scratch.openAlarms };
          expect({ availability30d: view.availability30d, openAlarms: view.openAlarms }, `day +${k}`).toEqual(withOutage);
        }
      }),
      { numRuns: 40 },
    );
  }, 240_000);

  it('GET /devices reads one Query when roll-ups are current (no per-device Query)', async () => {
    const tenantId = 'one-query';
    for (const id of ['d1', 'd2', 'd3']) {
      await putDevice({ tenantId, id, name: id, type: 'firewall', site: 'M', ipAddress: '10.0.0.1', vendor: 'v', model: 'm' }, table, NOW);
      await putDailyAvailability({ tenantId, deviceId: id, date: addDays(TODAY, -1), availablePct: 99 }, table, NOW);
      await raiseAlarm({ id: 'a', tenantId, deviceId: id, title: 't', severity: 'low', state: 'active', raisedAt: NOW.toISOString(), acknowledgedAt: null, acknowledgedBy: null, clearedAt: null }, table);
    }
    const base = devicesRepository(table);
    let statsCalls = 0;
    const counted = { ...base, deviceStats: (t: string, d: string, f: string) => (statsCalls++, base.deviceStats(t, d, f)) };
    const page = await listDevicesView(counted, tenantId, { limit: 10 }, NOW);
    expect(page.items.map((d) => [d.id, d.availability30d, d.openAlarms])).toEqual([
      ['d1', 99, 1],
      ['d2', 99, 1],
      ['d3', 99, 1],
    ]);
    expect(statsCalls).toBe(0);
    // 31 days later nothing covers the day: the fallback answers (null: the only day left the window)
    const later = new Date(NOW.getTime() + 31 * 86_400_000);
    expect((await listDevicesView(counted, tenantId, { limit: 10 }, later)).items.map((d) => d.availability30d)).toEqual([null, null, null]);
    expect(statsCalls).toBe(3);
  });
});
