/**
 * Device search by IP address (`GET /devices?ip=`, docs/data-model.md#search, issue 32 point 8, issue 28's scale
 * budgets): a tenant with 5,000 devices and another tenant holding the same addresses, on the in-process API
 * (dynoxide behind the rules proxy, IAM evaluated on every call), every request counted with its capacity.
 *  - an exact address finds that device only (not `10.0.3.10`–`19` for `10.0.3.1`), in ONE Query;
 *  - a prefix (`10.0.3.`) pages through exactly the tenant's devices under it, ordered by IP, each page ONE Query
 *    whose RCU follows the page, never the fleet; another tenant's devices never appear;
 *  - `putDevice` keeps the key current (a new address moves the device); a cursor of another search → 400;
 *    input outside 2–45 of `[0-9a-f.:]`, or with `prefix` → 400 VALIDATION_FAILED;
 *  - devices stored before the index get their key from `upgradeSearchIndex` (idempotent).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type InProcessApi } from '../support/in-process-api.js';
import { startTwoTenantApi, stopTwoTenantApi } from '../support/seeded-api.js';
import type { ApiHandler } from '../../lambdas/http/api.js';
import type { Device, Page } from '../../lambdas/contract/schemas.js';
import { bodyOf, type CallerSpec } from '../support/events.js';
import type { TableRef } from '../../lambdas/data/table/client.js';
import { captureCapacity, type CapturedRequest, measuredOn, pageThrough, putItems } from '../support/capacity-capture.js';
import { DeviceEntity, itemOf } from '../../lambdas/data/entities.js';
import { listDevices } from '../../lambdas/data/devices.js';
import { upgradeSearchIndex } from '../../lambdas/data/migrations.js';
import { keys } from '../../lambdas/data/table/keys.js';
import type { StoredDevice } from '../../lambdas/domain/ports.js';

const TABLE = 'vigia-search-device-ip';
const FLEET = 5_000;
const alice: CallerSpec = { sub: 'sub-alice', groups: ['acme'] };

let api: InProcessApi;
let devices: ApiHandler;
let table: TableRef;
const ops: CapturedRequest[] = [];

/** Device #i's address: 10.<i / 65536>.<i / 256 % 256>.<i % 256> (so `10.0.3.` holds #768–#1023). */
const ipOf = (i: number) => `10.${Math.floor(i / 65_536)}.${Math.floor(i / 256) % 256}.${i % 256}`;
const device = (tenantId: string, i: number): StoredDevice => ({ tenantId, id: `dev-${String(i).padStart(4, '0')}`, name: `equipo ${i}`, type: 'switch', site: 'Sede', ipAddress: ipOf(i), vendor: 'Cisco', model: 'C9200', lastHeartbeatAt: null });

const batchWrite = (items: Record<string, unknown>[]) => putItems(table, items);
/** `fn` with the requests and RCU it consumed on the table. */
const measured = <T>(fn: () => Promise<T>) => measuredOn(ops, fn);

const get = (query: Record<string, string>) => call(devices, { method: 'GET', path: '/devices', caller: alice, query });

beforeAll(async () => {
  ({ api, table } = await startTwoTenantApi(TABLE));
  devices = api.handler('devices');
  // 5,000 devices of acme and 1,100 of globex with the same addresses, as the data layer writes them.
  const items = [
    ...Array.from({ length: FLEET }, (_, i) => ({ ...itemOf(DeviceEntity, device('acme', i)), openAlarms: 0 })),
    ...Array.from({ length: 1_100 }, (_, i) => ({ ...itemOf(DeviceEntity, device('globex', i)), openAlarms: 0 })),
  ];
  await batchWrite(items);
  captureCapacity(table, ops);
}, 300_000);

afterAll(() => stopTwoTenantApi(api, table));

describe('device search by IP at 5,000 devices', () => {
  it('an exact address finds only that device, in one Query', async () => {
    const r = await get({ ip: '10.0.3.1', limit: '20' });
    expect(r.statusCode, r.body).toBe(200);
    const page = bodyOf<Page<Device>>(r);
    expect(page.items.map((d) => [d.tenantId, d.id, d.ipAddress])).toEqual([['acme', 'dev-0769', '10.0.3.1']]);
    expect(page.nextCursor).toBeNull();
    const m = await measured(() => listDevices('acme', { limit: 20, ip: '10.0.3.1' }, table));
    expect(m.out.items.map((d) => d.device.id)).toEqual(['dev-0769']);
    expect(m.requests).toBe(1);
    expect(m.rcu).toBeLessThanOrEqual(1);
  }, 120_000);

  it('a prefix pages through exactly the tenant\'s devices under it, ordered by IP, one Query a page', async () => {
    const want = Array.from({ length: FLEET }, (_, i) => device('acme', i))
      .filter((d) => d.ipAddress.startsWith('10.0.3.'))
      .map((d) => d.ipAddress)
      .sort();
    expect(want).toHaveLength(256);
    const { items, pages } = await pageThrough((cursor) => measured(() => listDevices('acme', { limit: 50, ip: '10.0.3.', cursor }, table)), 20);
    expect(items.every((d) => d.device.tenantId === 'acme')).toBe(true);
    expect(items.map((d) => d.device.ipAddress)).toEqual(want);
    for (const p of pages) {
      expect(p.requests).toBe(1);
      // ~0.2 KB a device item, eventually consistent: a 50-device page is ~2.5 RCU, not the fleet's ~125.
      expect(p.rcu).toBeLessThanOrEqual(4);
    }
    console.log(`device IP prefix 10.0.3. over ${FLEET} devices: pages ${JSON.stringify(pages)}`);
    // Through the API, a page of the same prefix, and its cursor of the next one.
    const first = bodyOf<Page<Device>>(await get({ ip: '10.0.3.', limit: '50' }));
    expect(first.items.map((d) => d.ipAddress)).toEqual(want.slice(0, 50));
    const second = bodyOf<Page<Device>>(await get({ ip: '10.0.3.', limit: '50', cursor: first.nextCursor! }));
    expect(second.items.map((d) => d.ipAddress)).toEqual(want.slice(50, 100));
    // That cursor belongs to that search: with another address it is refused.
    const other = await get({ ip: '10.0.4.', limit: '50', cursor: first.nextCursor! });
    expect(other.statusCode, other.body).toBe(400);
    expect(bodyOf<{ code: string }>(other).code).toBe('VALIDATION_FAILED');
  }, 120_000);

  it('refuses input outside 2–45 of [0-9a-f.:] and ip with prefix', async () => {
    const bad: Record<string, string>[] = [{ ip: '1' }, { ip: '10.0.3.x' }, { ip: '1'.repeat(46) }, { ip: '10.0.', prefix: 'equipo' }];
    for (const query of bad) {
      const r = await get(query);
      expect(r.statusCode, `${JSON.stringify(query)} ${r.body}`).toBe(400);
      expect(bodyOf<{ code: string }>(r).code).toBe('VALIDATION_FAILED');
    }
  });

  it('putDevice keeps the key current: a new address moves the device', async () => {
    await api.data.putDevice({ ...device('acme', 42), ipAddress: '192.168.77.5' });
    expect(bodyOf<Page<Device>>(await get({ ip: '192.168.77.5' })).items.map((d) => d.id)).toEqual(['dev-0042']);
    expect(bodyOf<Page<Device>>(await get({ ip: ipOf(42) })).items).toEqual([]);
    await api.data.putDevice(device('acme', 42));
    expect(bodyOf<Page<Device>>(await get({ ip: ipOf(42) })).items.map((d) => d.id)).toEqual(['dev-0042']);
  });

  it('devices stored before the index get their key from the upgrade step, once', async () => {
    await api.data.putTenant({ id: 'legacy', name: 'Legacy' });
    const d = device('legacy', 7);
    // As an earlier version stored it: keys and GSI1, no GSI3 keys.
    await table.doc.send('PutItem', { TableName: TABLE, Item: { ...keys.device('legacy', d.id), ...keys.deviceGsi1('legacy', d.id, 'equipo 7'), entity: 'Device', ...d } });
    expect((await listDevices('legacy', { limit: 10, ip: '10.0.0.7' }, table)).items).toEqual([]);
    expect((await upgradeSearchIndex(table)).devices).toBeGreaterThanOrEqual(1);
    expect((await listDevices('legacy', { limit: 10, ip: '10.0.0.7' }, table)).items.map((x) => x.device.id)).toEqual([d.id]);
    expect((await upgradeSearchIndex(table)).devices).toBe(0);
  }, 120_000);
});
