/**
 * A heartbeat and a device alarm cost the same WCU at a busy tenant as at a quiet one (issue 28 point 4;
 * docs/data-model.md#day-item-layout): each writer updates its own part of the tenant day — the availability
 * pair in `DAY#<date>#v`, the alarms raised in `DAY#<date>#a` — instead of the one day item whose unresolved
 * incidents (`o<n>`, one attribute each) made it 1.8 KB at 260 incidents unresolved (a 5,000-device tenant's
 * day), 2 WCU more on every heartbeat and alarm. The readers get the parts with the day in the same Query, the
 * rebuild writes them (and moves an item of the older layout into them) with no drift. Real dynoxide, the
 * repository's own write paths, capacity from the engine (`captureCapacity`).
 */
import { describe, expect, it } from 'vitest';
import { useDynamoTable } from '../support/dynamo-table.js';
import type { TableRef } from '../../lambdas/data/table/client.js';
import { captureCapacity, type CapturedRequest } from '../support/capacity-capture.js';
import { createIncident } from '../../lambdas/data/incidents.js';
import { ingestHeartbeat, putDevice, raiseAlarm } from '../../lambdas/data/devices.js';
import { readTenantDays, rebuildTenantAggregates } from '../../lambdas/data/aggregates.js';
import { keys } from '../../lambdas/data/table/keys.js';
import { agg } from '../../lambdas/domain/aggregates.js';
import { newIncident } from '../../lambdas/domain/incidents.js';
import { DEVICE_ALARM_TYPES } from '../../lambdas/domain/alarm-types.js';
import { SEVERITIES } from '../../lambdas/contract/schemas.js';

const TABLE = 'vigia-day-parts';
let table: TableRef;
const ops: CapturedRequest[] = [];
useDynamoTable(TABLE, (t) => {
  table = t;
  captureCapacity(table, ops);
});

/** DynamoDB's item size (attribute names + values; a number is ~1 byte per two significant digits + 1). */
function itemBytes(item: Record<string, unknown>): number {
  const num = (n: number) => Math.ceil(String(Math.abs(n)).replace('.', '').replace(/^0+/, '').length / 2) + 1;
  return Object.entries(item).reduce((s, [k, v]) => s + Buffer.byteLength(k) + (typeof v === 'number' ? num(v) : Buffer.byteLength(String(v))), 0);
}
const base = { type: 'firewall', site: 'Madrid', ipAddress: '10.0.0.1', vendor: 'Fortinet', model: 'FG-60F' };
const TYPES = Object.values(DEVICE_ALARM_TYPES);
const wcu = () => ops.reduce((a, o) => a + o.wcu, 0);
const drift = async (t: string) => (await rebuildTenantAggregates(table, t, { write: false })).drift.filter((l) => !l.startsWith('stats.aggVersion'));

/**
 * A tenant with `unresolved` incidents created today and left open and `alarms` alarms raised today; then
 * the WCU of a heartbeat that opens a new minute (the device's day moves the tenant day's availability), of an
 * alarm raise, and the day's items.
 */
async function tenantDay(t: string, unresolved: number, alarms: number) {
  const now = Date.now();
  const today = new Date(now).toISOString().slice(0, 10);
  await putDevice({ ...base, tenantId: t, id: 'd-0', name: 'd-0' }, table);
  for (let k = 0; k < unresolved; k++) {
    const at = new Date(Math.max(Date.parse(`${today}T00:00:00.000Z`), now - k * 60_000)).toISOString();
    await createIncident(t, (seq) => newIncident(t, seq, { title: 'Prueba', description: 'x', severity: SEVERITIES[k % 4]!, category: 'general' }, 'a@x.example', at), table);
  }
  for (let k = 0; k < alarms; k++) {
    const ty = TYPES[k % TYPES.length]!;
    await raiseAlarm({ id: `a-${k}`, tenantId: t, deviceId: 'd-0', title: ty.title, severity: ty.severity, state: 'cleared', raisedAt: new Date(now - k * 1000).toISOString(), acknowledgedAt: null, acknowledgedBy: null, clearedAt: new Date(now).toISOString() }, table);
  }
  const m0 = Math.floor(now / 60_000) * 60_000;
  await ingestHeartbeat({ tenantId: t, deviceId: 'd-0', at: new Date(m0 - 120_000).toISOString() }, table);
  ops.length = 0;
  expect(await ingestHeartbeat({ tenantId: t, deviceId: 'd-0', at: new Date(m0 - 60_000).toISOString() }, table)).toBe(true);
  const heartbeat = wcu();
  ops.length = 0;
  const ty = TYPES[0]!;
  expect(await raiseAlarm({ id: 'a-x', tenantId: t, deviceId: 'd-0', title: ty.title, severity: ty.severity, state: 'active', raisedAt: new Date(now).toISOString(), acknowledgedAt: null, acknowledgedBy: null, clearedAt: null }, table)).toBe(true);
  const alarm = wcu();
  const get = async (key: { PK: string; SK: string }) => (await table.doc.send('GetItem', { TableName: TABLE, Key: key, ConsistentRead: true })).Item ?? {};
  const items = { day: await get(keys.day(t, today)), a: await get(keys.dayPart(t, today, 'a')), v: await get(keys.dayPart(t, today, 'v')) };
  return { today, heartbeat, alarm, items };
}

describe('tenant day parts: heartbeats and alarms at a fixed cost', () => {
  it('a heartbeat and an alarm raise cost the same WCU with 260 incidents unresolved today as with 1; the parts they write are the same size', async () => {
    const quiet = await tenantDay('day-quiet', 1, 1);
    const busy = await tenantDay('day-busy', 260, 80);
    // What grows is the incidents' part (one attribute per unresolved incident): past 1 KB here.
    expect(itemBytes(busy.items.day)).toBeGreaterThan(1024);
    // The writers' parts: fixed names, only the counts' digits differ.
    for (const p of ['a', 'v'] as const) {
      expect(Object.keys(busy.items[p]).length, p).toBeGreaterThan(0);
      expect(itemBytes(busy.items[p]), p).toBeLessThanOrEqual(itemBytes(quiet.items[p]) + 200);
      expect(itemBytes(busy.items[p]), p).toBeLessThan(1024);
    }
    expect(Object.keys(busy.items.day).filter((k) => k === 'avMs' || k === 'upMs' || /^r[chml]$/.test(k))).toEqual([]);
    // The writes: equal WCU (±0.5), a heartbeat and an alarm no longer pay for the day's incidents.
    expect(Math.abs(busy.heartbeat - quiet.heartbeat)).toBeLessThanOrEqual(0.5);
    expect(Math.abs(busy.alarm - quiet.alarm)).toBeLessThanOrEqual(0.5);
    // The readers see the whole day (the parts in the same Query), and the rebuild agrees with the items.
    const day = (await readTenantDays(table, 'day-busy', busy.today, busy.today)).get(busy.today)!;
    expect(day[agg.availMonitoredMs]).toBeGreaterThan(0);
    expect(SEVERITIES.reduce((n, s) => n + (day[agg.alarmsRaised(s)] ?? 0), 0)).toBe(81);
    expect(SEVERITIES.reduce((n, s) => n + (day[agg.created(s)] ?? 0), 0)).toBe(260);
    expect(await drift('day-busy')).toEqual([]);
  }, 300_000);

  it('the rebuild moves a day item of the one-item layout into its parts, with the same figures', async () => {
    const t = 'day-legacy';
    const { today } = await tenantDay(t, 3, 2);
    const before = (await readTenantDays(table, t, today, today)).get(today)!;
    // The older layout: every counter on the day item, no parts.
    const all = { ...(await table.doc.send('GetItem', { TableName: TABLE, Key: keys.day(t, today) })).Item };
    for (const p of ['a', 'v'] as const) {
      const part = (await table.doc.send('GetItem', { TableName: TABLE, Key: keys.dayPart(t, today, p) })).Item ?? {};
      for (const [k, v] of Object.entries(part)) if (!['PK', 'SK', 'entity', 'date'].includes(k)) all[k] = v;
      await table.doc.send('DeleteItem', { TableName: TABLE, Key: keys.dayPart(t, today, p) });
    }
    await table.doc.send('PutItem', { TableName: TABLE, Item: all });
    expect((await readTenantDays(table, t, today, today)).get(today)).toEqual(before);
    expect(await drift(t)).toEqual([]);
    await rebuildTenantAggregates(table, t, { write: true });
    const day = (await table.doc.send('GetItem', { TableName: TABLE, Key: keys.day(t, today) })).Item ?? {};
    expect(Object.keys(day).filter((k) => k === 'avMs' || k === 'upMs' || /^r[chml]$/.test(k))).toEqual([]);
    expect((await table.doc.send('GetItem', { TableName: TABLE, Key: keys.dayPart(t, today, 'v') })).Item?.avMs).toBeGreaterThan(0);
    expect((await readTenantDays(table, t, today, today)).get(today)).toEqual(before);
    expect(await drift(t)).toEqual([]);
  }, 120_000);
});
