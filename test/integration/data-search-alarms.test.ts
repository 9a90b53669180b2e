/**
 * Device alarm search (`GET /search/alarms`, docs/api.md#alarm-search, docs/data-model.md#search; issue 32 point 8,
 * issue 28's scale budgets): a tenant with 2,000 alarms sharing their common words and another tenant with the same
 * words, on the in-process API (dynoxide behind the rules proxy, IAM evaluated on every call).
 *  - an alarm raised by the collectors is found by any word of its title (case and accents ignored), by a viewer and
 *    by staff with ?tenant=, never by another tenant; its words are written in the raise's own transaction;
 *  - a replaced title drops the old words (items deleted) and indexes the new; clearing gives the words the alarm's TTL;
 *  - a common word pages newest first with a cursor, each page ≤ 7 requests and ≤ 50 RCU; a rare word is ONE Query and
 *    ONE BatchGetItem; a rare word behind a common longer one stays bounded and finds every match across pages;
 *  - empty `q` and one letter → 400 VALIDATION_FAILED; stop words only → an empty page; a foreign cursor → 400;
 *  - `upgradeAlarmSearch` (`platform:upgrade-data`) indexes the alarms stored before the index, once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type InProcessApi } from '../support/in-process-api.js';
import { startTwoTenantApi, stopTwoTenantApi } from '../support/seeded-api.js';
import type { ApiHandler } from '../../lambdas/http/api.js';
import type { DeviceAlarm, Page } from '../../lambdas/contract/schemas.js';
import { bodyOf, type CallerSpec } from '../support/events.js';
import type { TableRef } from '../../lambdas/data/table/client.js';
import { captureCapacity, type CapturedRequest, expectPagesWithin, measuredOn, pageThrough, putItems } from '../support/capacity-capture.js';
import { AlarmEntity, itemOf } from '../../lambdas/data/entities.js';
import { alarmTokenItems, searchAlarms } from '../../lambdas/data/alarm-search.js';
import { transitionAlarm } from '../../lambdas/data/devices.js';
import { keys } from '../../lambdas/data/table/keys.js';
import { upgradeAlarmSearch } from '../../lambdas/data/migrations.js';

const TABLE = 'vigia-search-alarms';
const ALARMS = 2_000;
/** Every `RARE_EVERY`-th alarm's title also says "fibra". */
const RARE_EVERY = 50;
const alice: CallerSpec = { sub: 'sub-alice', email: 'alice@acme.example', groups: ['acme'] };
const viewer: CallerSpec = { sub: 'u-viewer', email: 'victor@acme.example', groups: ['acme', 'customer-viewer'] };
const bob: CallerSpec = { sub: 'sub-bob', email: 'bob@globex.example', groups: ['globex'] };
const staff: CallerSpec = { sub: 'sub-soc', email: 'soc@vigia.example', groups: ['admin'] };

let api: InProcessApi;
let devices: ApiHandler;
let table: TableRef;
const ops: CapturedRequest[] = [];

/** `fn` with the requests and RCU it consumed on the table. */
const measured = <T>(fn: () => Promise<T>) => measuredOn(ops, fn);
const search = (caller: CallerSpec, query: Record<string, string>) => call(devices, { method: 'GET', path: '/search/alarms', caller, query });
const ids = (r: Awaited<ReturnType<typeof search>>) => bodyOf<Page<DeviceAlarm>>(r).items.map((a) => a.id);
/** The word items stored for `token` in `tenantId`. */
const wordItems = async (tenantId: string, token: string) =>
  (await table.doc.send('Query', { TableName: TABLE, KeyConditionExpression: 'PK = :p', ExpressionAttributeValues: { ':p': keys.alarmTokenPk(tenantId, token) } })).Items ?? [];

/** Alarm #i of a seeded tenant, on device dev-<i % 20>, one minute apart (2026-01-01 onwards), with its word items. */
function seeded(tenantId: string, i: number) {
  const a: DeviceAlarm = {
    id: `a-${String(i).padStart(5, '0')}`, tenantId, deviceId: `dev-${i % 20}`, deviceName: `Equipo ${i % 20}`,
    title: `Enlace WAN caído en el equipo ${i}${i % RARE_EVERY === 0 ? ', corte de fibra' : ''}`, severity: 'high', state: 'active',
    raisedAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(), acknowledgedAt: null, acknowledgedBy: null, clearedAt: null,
  };
  return [itemOf(AlarmEntity, a), ...alarmTokenItems(a)];
}

beforeAll(async () => {
  ({ api, table } = await startTwoTenantApi(TABLE));
  devices = api.handler('devices');
  await putItems(table, [...Array.from({ length: ALARMS }, (_, i) => seeded('acme', i)).flat(), ...Array.from({ length: 300 }, (_, i) => seeded('globex', i)).flat()]);
  await api.data.putDevice({ tenantId: 'acme', id: 'fw-cba', name: 'Cortafuegos Córdoba', type: 'firewall', site: 'Córdoba', ipAddress: '10.9.0.1', vendor: 'Fortinet', model: 'FG-60F' });
  captureCapacity(table, ops);
}, 300_000);

afterAll(() => stopTwoTenantApi(api, table));

describe('alarm search', () => {
  it('finds a raised alarm by its title words (its words written in the raise), for a viewer and staff, never for another tenant', async () => {
    const raised = await measured(() =>
      api.data.raiseAlarm({ id: 'temp-1', tenantId: 'acme', deviceId: 'fw-cba', deviceName: 'Cortafuegos Córdoba', title: 'Temperatura alta en la Sucursal Córdoba', severity: 'critical', state: 'active', raisedAt: '2026-06-01T10:00:00.000Z', acknowledgedAt: null, acknowledgedBy: null, clearedAt: null }),
    );
    expect(raised.out).toBe(true);
    // One transaction (after the device read): the words were not written apart from the alarm.
    expect(ops.slice(-raised.requests).map((o) => o.op)).not.toContain('BatchWriteItem');
    for (const [caller, query] of [[alice, { q: 'cordoba' }], [viewer, { q: 'Temperatura SUCURSAL' }], [staff, { q: 'córdoba alta', tenant: 'acme' }]] as const) {
      const s = await search(caller, query);
      expect(s.statusCode, s.body).toBe(200);
      expect(bodyOf<Page<DeviceAlarm>>(s).items.map((a) => [a.id, a.deviceId, a.deviceName, a.title])).toEqual([['temp-1', 'fw-cba', 'Cortafuegos Córdoba', 'Temperatura alta en la Sucursal Córdoba']]);
    }
    expect(ids(await search(bob, { q: 'cordoba' }))).toEqual([]);
    // Acknowledged: still found, and the acknowledgement wrote no word item.
    const ack = await call(devices, { method: 'POST', path: '/devices/fw-cba/alarms/temp-1/acknowledge', caller: alice });
    expect(ack.statusCode, ack.body).toBe(200);
    expect(ids(await search(alice, { q: 'cordoba' }))).toEqual(['temp-1']);
  }, 60_000);

  it('a replaced title drops its old words; clearing gives the words the alarm\'s TTL', async () => {
    await api.data.putAlarm({ id: 'temp-1', tenantId: 'acme', deviceId: 'fw-cba', title: 'Ventilador detenido en Córdoba', severity: 'critical', state: 'acknowledged', raisedAt: '2026-06-01T10:00:00.000Z' });
    expect(ids(await search(alice, { q: 'temperatura' }))).toEqual([]);
    expect(await wordItems('acme', 'temperatura')).toEqual([]);
    expect(ids(await search(alice, { q: 'ventilador cordoba' }))).toEqual(['temp-1']);
    const cleared = await transitionAlarm(table, 'acme', 'fw-cba', 'temp-1', ['active', 'acknowledged'], 'cleared', { clearedAt: '2026-06-02T10:00:00.000Z' });
    expect(cleared?.changed).toBe(true);
    const alarm = (await table.doc.send('GetItem', { TableName: TABLE, Key: keys.alarm('acme', 'fw-cba', 'temp-1') })).Item!;
    const words = await wordItems('acme', 'ventilador');
    expect(words).toHaveLength(1);
    expect(alarm.expiresAt).toBe(Date.parse('2026-06-02T10:00:00.000Z') / 1000 + 90 * 86_400);
    expect(words[0]!.expiresAt).toBe(alarm.expiresAt);
    expect(ids(await search(alice, { q: 'ventilador' }))).toEqual(['temp-1']);
  }, 60_000);

  it('a common word pages newest first within the budget; a rare word is one Query; tenants never mix', async () => {
    const { items, pages } = await pageThrough((cursor) => measured(() => searchAlarms(table, 'acme', { q: 'enlace', limit: 20, ...(cursor ? { cursor } : {}) })), 3);
    console.log(`alarm search 'enlace' at ${ALARMS} alarms: ${pages[0]!.requests} requests, ${pages[0]!.rcu} RCU a page`);
    expectPagesWithin(pages, 7, 50);
    expect(items.map((a) => a.id)).toEqual(Array.from({ length: 60 }, (_, k) => `a-${String(ALARMS - 1 - k).padStart(5, '0')}`));
    const rare = await measured(() => searchAlarms(table, 'acme', { q: 'fibra', limit: 100 }));
    console.log(`alarm search 'fibra': ${rare.requests} requests, ${rare.rcu} RCU, ${rare.out.items.length} hits`);
    expect(rare.out.items).toHaveLength(ALARMS / RARE_EVERY);
    expect(rare.requests).toBe(2); // ONE Query + ONE BatchGetItem
    const globex = bodyOf<Page<DeviceAlarm>>(await search(bob, { q: 'fibra', limit: '100' }));
    expect(globex.items).toHaveLength(300 / RARE_EVERY);
    expect(globex.items.every((a) => a.tenantId === 'globex')).toBe(true);
  }, 120_000);

  it('a rare word behind a common longer one stays bounded and finds every match across pages', async () => {
    const { items, pages } = await pageThrough((cursor) => measured(() => searchAlarms(table, 'acme', { q: 'enlace fibra', limit: 20, ...(cursor ? { cursor } : {}) })), 100);
    console.log(`alarm search 'enlace fibra': at most ${Math.max(...pages.map((p) => p.requests))} requests a page`);
    expectPagesWithin(pages, 7, 50);
    expect(items.map((a) => a.id)).toEqual(Array.from({ length: ALARMS / RARE_EVERY }, (_, k) => `a-${String(ALARMS - RARE_EVERY - k * RARE_EVERY).padStart(5, '0')}`));
  }, 120_000);

  it('empty or one-letter q, or a foreign cursor → 400 VALIDATION_FAILED; stop words only → an empty page', async () => {
    for (const q of ['', '  ', 'a']) {
      const r = await search(alice, { q });
      expect(r.statusCode, r.body).toBe(400);
      expect(r.body).toContain('VALIDATION_FAILED');
    }
    const bad = Buffer.from(JSON.stringify({ p: 'TENANT#globex#x' })).toString('base64url');
    const r = await search(alice, { q: 'enlace', cursor: bad });
    expect(r.statusCode, r.body).toBe(400);
    expect(r.body).toContain('VALIDATION_FAILED');
    const stop = await search(alice, { q: 'de la y' });
    expect(stop.statusCode, stop.body).toBe(200);
    expect(bodyOf<Page<DeviceAlarm>>(stop)).toEqual({ items: [], nextCursor: null });
  }, 30_000);

  it('the upgrade indexes alarms stored before the index, once', async () => {
    const old: DeviceAlarm = { id: 'old-1', tenantId: 'acme', deviceId: 'fw-cba', title: 'Antiguo aviso de murciélago', severity: 'low', state: 'active', raisedAt: '2025-06-01T10:00:00.000Z', acknowledgedAt: null, acknowledgedBy: null, clearedAt: null };
    await table.doc.send('PutItem', { TableName: TABLE, Item: itemOf(AlarmEntity, old) });
    expect(ids(await search(alice, { q: 'murcielago' }))).toEqual([]);
    expect(await upgradeAlarmSearch(table)).toBe(3); // antiguo, aviso, murcielago
    expect(await upgradeAlarmSearch(table)).toBe(0);
    expect(ids(await search(alice, { q: 'murcielago' }))).toEqual(['old-1']);
  }, 120_000);
});
