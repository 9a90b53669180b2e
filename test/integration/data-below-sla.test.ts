/**
 * The tenant's devices below the availability target (`devicesBelowSla`, GSI2 `TENANT#t#BELOWSLA`,
 * docs/data-model.md "Devices below the SLA target"), on real dynoxide:
 * - cost: a tenant with 15 devices below the target and one with 200 pay the same RCU and requests for the
 *   list (ConsumedCapacity), one Query, once the index is keyed on the day;
 * - correctness: after random daily-availability writes on random past days (roll-ups of different ages,
 *   so index keys of earlier days) with or without the SLA job's re-key in between, the list equals the
 *   from-scratch one (`availability30d` over the stored days, below the target, lowest first by the figure
 *   to 0.01 % then by device id, 10 at most) on a random later day; entries in the version-1 key format (no day) are read and re-keyed;
 *   the upgrade's refresh gives the same list.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { useDynamoTable } from '../support/dynamo-table.js';
import type { TableRef } from '../../lambdas/data/table/client.js';
import { captureCapacity, type CapturedRequest } from '../support/capacity-capture.js';
import { dayOf, devicesBelowSla, putDailyAvailability, putDevice, refreshAvailabilityRollup, rekeyBelowSla } from '../../lambdas/data/devices.js';
import { queryAll } from '../../lambdas/data/table/dynamo-util.js';
import { reportsRepository } from '../../lambdas/data/reports.js';
import { putTenant } from '../../lambdas/data/tenants.js';
import { tenantReport } from '../../lambdas/domain/reports.js';
import { tenantSummary } from '../../lambdas/domain/summary.js';
import { keys } from '../../lambdas/data/table/keys.js';
import { AVAILABILITY_SLA_TARGET_PCT, addDays, availability30d } from '../../lambdas/domain/devices.js';

const TABLE = 'vigia-below-sla-main';
let table: TableRef;
const ops: CapturedRequest[] = [];

useDynamoTable(TABLE, (t) => {
  table = t;
  captureCapacity(table, ops);
});

const TODAY = new Date().toISOString().slice(0, 10);
const at = (day: string) => new Date(`${day}T12:00:00Z`);
const device = (tenantId: string, id: string, name: string) => ({ tenantId, id, name, type: 'switch' as const, site: 'Madrid', ipAddress: '10.0.0.1', vendor: 'v', model: 'm' });

/** The list from scratch: every device's stored days, `availability30d` at `now`, below the target. */
async function reference(tenantId: string, ids: readonly { id: string; name: string }[], now: Date, limit = 10) {
  const out: { deviceId: string; name: string; availability30d: number }[] = [];
  for (const d of ids) {
    const days = (await queryAll(table, { KeyConditionExpression: 'PK = :pk AND begins_with(SK, :a)', ExpressionAttributeValues: { ':pk': keys.devicePk(tenantId, d.id), ':a': 'AVAIL#' } })).map(dayOf);
    const pct = availability30d(days, now);
    if (pct !== null && pct < AVAILABILITY_SLA_TARGET_PCT) out.push({ deviceId: d.id, name: d.name, availability30d: pct });
  }
  // Lowest first by the figure to 0.01 % (what the portal shows), then by device id.
  return out.sort((a, b) => Math.round(a.availability30d * 100) - Math.round(b.availability30d * 100) || (a.deviceId < b.deviceId ? -1 : a.deviceId > b.deviceId ? 1 : 0)).slice(0, limit);
}

/** `devicesBelowSla` with the requests and RCU it consumed. */
async function measured(tenantId: string, now: Date) {
  ops.length = 0;
  const list = await devicesBelowSla(tenantId, now, 10, table);
  return { list, requests: ops.length, rcu: ops.reduce((a, o) => a + o.rcu, 0) };
}

describe('devices below the availability target', () => {
  it('costs the same for 15 devices below the target as for 200: one Query of 10 entries', async () => {
    // The same devices (same names' length, same days) in both tenants; only how many are below differs.
    const fill = async (tenantId: string, below: number, above: number) => {
      for (let i = 0; i < below + above; i++) {
        const id = `dev-${String(i).padStart(4, '0')}`;
        await putDevice(device(tenantId, id, `equipo ${String(i).padStart(4, '0')}`), table, at(TODAY));
        const pct = i < below ? 90 + i / 100 : 99.9;
        await putDailyAvailability({ tenantId, deviceId: id, date: addDays(TODAY, -1), availablePct: pct }, table, at(TODAY));
      }
    };
    await fill('small', 15, 5);
    await fill('large', 200, 5);
    const small = await measured('small', at(TODAY));
    const large = await measured('large', at(TODAY));
    expect(small.list).toEqual(await reference('small', Array.from({ length: 20 }, (_, i) => ({ id: `dev-${String(i).padStart(4, '0')}`, name: `equipo ${String(i).padStart(4, '0')}` })), at(TODAY)));
    expect(large.list).toHaveLength(10);
    expect(large.list).toEqual(await reference('large', Array.from({ length: 205 }, (_, i) => ({ id: `dev-${String(i).padStart(4, '0')}`, name: `equipo ${String(i).padStart(4, '0')}` })), at(TODAY)));
    expect(small.requests).toBe(1);
    expect(large.requests).toBe(1);
    expect(large.rcu).toBe(small.rcu);
    // The days after, with no new data: once the SLA job has re-keyed, the same single Query.
    for (const k of [1, 7, 28]) {
      const day = addDays(TODAY, k);
      await rekeyBelowSla('small', table, at(day));
      await rekeyBelowSla('large', table, at(day));
      const s = await measured('small', at(day));
      const l = await measured('large', at(day));
      expect([s.requests, l.requests, l.rcu]).toEqual([1, 1, s.rcu]);
      expect(l.list).toHaveLength(10);
    }
    // Past the roll-ups' 30 days nothing is below (no data in the window) and the job empties the index.
    await rekeyBelowSla('large', table, at(addDays(TODAY, 30)));
    expect((await measured('large', at(addDays(TODAY, 30)))).list).toEqual([]);
    expect(await queryAll(table, { IndexName: 'GSI2', KeyConditionExpression: 'GSI2PK = :p', ExpressionAttributeValues: { ':p': keys.belowSlaGsi2Pk('large') } })).toHaveLength(0);
  }, 240_000);

  it('equals the from-scratch list after writes on random days, with or without the re-key (stale roll-ups)', async () => {
    const PCTS = [85, 92.5, 97, 97, 99, 99, 99.4, 99.5, 99.7, 100];
    const write = fc.record({ device: fc.integer({ min: 0, max: 17 }), writeDay: fc.integer({ min: -25, max: 0 }), back: fc.integer({ min: 0, max: 3 }), pct: fc.constantFrom(...PCTS), monitored: fc.constantFrom(3_600, 43_200, 86_400) });
    // A case found by the property: nine devices tied at 85 % and two at 99 % (ties across the 10th).
    const TIES = [3, 10, 5, 6, 0, 7, 4, 1, 9, 0, 2, 8].map((device) => ({ device, writeDay: 0, back: 0, pct: [7, 8].includes(device) ? 99 : 85, monitored: 3_600 as const }));
    let run = 0;
    let nonTrivial = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(write, { minLength: 8, maxLength: 40 }), fc.array(fc.integer({ min: -25, max: 0 }), { maxLength: 4 }), fc.oneof(fc.integer({ min: 0, max: 8 }), fc.integer({ min: 0, max: 35 })), async (writes, rekeyDays, after) => {
        const tenantId = `t-prop-${run++}`;
        const ids = Array.from({ length: 18 }, (_, i) => ({ id: `d${i}`, name: ['ap', 'router', 'switch'][i % 3]! + ` ${i % 5}` }));
        // Writes and re-keys in time order (a re-key at noon, after that day's writes).
        const actions = [...writes.map((w) => ({ t: w.writeDay, k: 0, w })), ...rekeyDays.map((d) => ({ t: d, k: 1, w: null }))].sort((a, b) => a.t - b.t || a.k - b.k);
        const created = new Set<number>();
        const lastWrite = new Map<number, number>();
        for (const a of actions) {
          const day = addDays(TODAY, a.t);
          if (!a.w) {
            await rekeyBelowSla(tenantId, table, at(day));
            continue;
          }
          if (!created.has(a.w.device)) {
            created.add(a.w.device);
            await putDevice(device(tenantId, ids[a.w.device]!.id, ids[a.w.device]!.name), table, at(day));
          }
          await putDailyAvailability({ tenantId, deviceId: ids[a.w.device]!.id, date: addDays(day, -a.w.back), availablePct: a.w.pct, monitoredSeconds: a.w.monitored }, table, at(day));
          lastWrite.set(a.w.device, a.t);
        }
        const last = Math.max(...actions.map((a) => a.t));
        const now = at(addDays(TODAY, last + after));
        // A device whose roll-up no longer covers the day (nothing written for 30 days) is left out, as
        // `GET /summary` always did (its from-scratch figure there only holds a part of a day).
        const present = ids.filter((_, i) => created.has(i) && lastWrite.get(i)! >= last + after - 29);
        const want = await reference(tenantId, present, now);
        if (want.length >= 8) nonTrivial++;
        expect(await devicesBelowSla(tenantId, now, 10, table)).toEqual(want);
        expect(await devicesBelowSla(tenantId, now, 3, table)).toEqual(await reference(tenantId, present, now, 3));
        // The job's re-key (twice: idempotent) leaves the same list, read in one Query.
        await rekeyBelowSla(tenantId, table, now);
        await rekeyBelowSla(tenantId, table, now);
        const once = await measured(tenantId, now);
        expect(once.list).toEqual(await reference(tenantId, present, now));
        // One Query, ties with the 10th or not (the key breaks them by device id).
        expect(once.requests).toBe(1);
        // The upgrade's path (a refresh of every roll-up) gives the same list.
        for (const d of present) await refreshAvailabilityRollup(tenantId, d.id, table, now);
        expect(await devicesBelowSla(tenantId, now, 10, table)).toEqual(once.list);
      }),
      { numRuns: 25, examples: [[TIES, [], 0]] },
    );
    expect(nonTrivial).toBeGreaterThan(3);
  }, 600_000);

  it('300 devices tied below the target (a site-wide outage): the list is one Query of 10, ordered by id; summary and 30-day report ≤ 10 requests', async () => {
    const tenantId = 'outage';
    await putTenant({ id: tenantId, name: 'Outage' }, table);
    // 300 devices at exactly 50 % (one site down half of yesterday), 20 above the target; names in reverse id order.
    for (let i = 0; i < 320; i++) {
      const id = `dev-${String(i).padStart(4, '0')}`;
      await putDevice(device(tenantId, id, `equipo ${String(999 - i).padStart(4, '0')}`), table, at(TODAY));
      await putDailyAvailability({ tenantId, deviceId: id, date: addDays(TODAY, -1), availablePct: i < 300 ? 50 : 99.9 }, table, at(TODAY));
    }
    const m = await measured(tenantId, at(TODAY));
    expect(m.list.map((d) => d.deviceId)).toEqual(Array.from({ length: 10 }, (_, i) => `dev-${String(i).padStart(4, '0')}`));
    expect(m.list.every((d) => d.availability30d === 50)).toBe(true);
    expect(m.requests).toBe(1);
    expect(m.rcu).toBeLessThanOrEqual(2);
    const ids = Array.from({ length: 320 }, (_, i) => ({ id: `dev-${String(i).padStart(4, '0')}`, name: `equipo ${String(999 - i).padStart(4, '0')}` }));
    expect(m.list).toEqual(await reference(tenantId, ids, at(TODAY)));
    // The views that list them: the summary and the 30-day report, whole requests counted.
    const port = reportsRepository(table);
    ops.length = 0;
    const summary = await tenantSummary(port, tenantId, {}, at(TODAY));
    expect(summary.availability.belowSla.map((d) => d.deviceId).sort()).toEqual(m.list.map((d) => d.deviceId));
    expect(ops.length).toBeLessThanOrEqual(10);
    ops.length = 0;
    await tenantReport(port, tenantId, { from: new Date(at(TODAY).getTime() - 30 * 86_400_000).toISOString(), to: at(TODAY).toISOString(), format: 'json' }, at(TODAY));
    expect(ops.length).toBeLessThanOrEqual(10);
  }, 240_000);

  it('reads entries of the earlier key format (no day) and the re-key moves them to the day', async () => {
    const tenantId = 'legacy';
    for (const [id, pct] of [['a', 91], ['b', 95], ['c', 99.9]] as const) {
      await putDevice(device(tenantId, id, `equipo ${id}`), table, at(TODAY));
      await putDailyAvailability({ tenantId, deviceId: id, date: TODAY, availablePct: pct }, table, at(TODAY));
    }
    // As the previous version keyed them: `<figure × 100, 5 digits>#<id>`.
    for (const [id, key] of [['a', '09100#a'], ['b', '09500#b']] as const) {
      await table.doc.send('UpdateItem', { TableName: TABLE, Key: keys.device(tenantId, id), UpdateExpression: 'SET GSI2SK = :s', ExpressionAttributeValues: { ':s': key } });
    }
    const want = [{ deviceId: 'a', name: 'equipo a', availability30d: 91 }, { deviceId: 'b', name: 'equipo b', availability30d: 95 }];
    expect(await devicesBelowSla(tenantId, at(TODAY), 10, table)).toEqual(want);
    expect(await rekeyBelowSla(tenantId, table, at(TODAY))).toBe(2);
    expect(await rekeyBelowSla(tenantId, table, at(TODAY))).toBe(0);
    const after = await measured(tenantId, at(TODAY));
    expect(after.list).toEqual(want);
    expect(after.requests).toBe(1);
  });
});
