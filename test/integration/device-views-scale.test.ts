/**
 * The device views at fleet scale (issue 28, point 4), on the in-process API (dynoxide, IAM on every call):
 * a tenant of 1,200 devices (past the portal's old 1,000-device cap), seeded through the data layer with
 * BatchWriteItem, then
 * - alarms raised by the collector (`POST /ingest/device-alarms`) on devices past #1,000 come back from
 *   `GET /alarms` with their device's NAME, a page being ONE Query (requests and RCU counted on the table);
 *   a rename (`putDevice`) reaches them; alarms stored before the copy get it from `upgradeAlarmDeviceNames`
 *   (idempotent);
 * - the device filter's search (`GET /devices?prefix=`) finds device #1,150 in ONE Query.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, collectorEvent, startInProcessApi, type InProcessApi } from '../support/in-process-api.js';
import type { ApiHandler } from '../../lambdas/http/api.js';
import type { Device, DeviceAlarm, Page } from '../../lambdas/contract/schemas.js';
import { bodyOf, lambdaContext, type CallerSpec } from '../support/events.js';
import { createDocumentClient, type TableRef } from '../../lambdas/data/table/client.js';
import { captureCapacity, type CapturedRequest, measuredOn, putItems } from '../support/capacity-capture.js';
import { AlarmEntity, DeviceEntity, itemOf } from '../../lambdas/data/entities.js';
import { listAlarms, listDevices } from '../../lambdas/data/devices.js';
import { upgradeAlarmDeviceNames } from '../../lambdas/data/migrations.js';
import type { StoredDevice } from '../../lambdas/domain/ports.js';

const TABLE = 'vigia-device-views-scale';
const FLEET = 1_200;
const alice: CallerSpec = { sub: 'sub-alice', groups: ['acme'] };
const COLLECTOR = { userArn: 'arn:aws:sts::000000000000:assumed-role/vigia-collector/i-0abc', accessKey: 'AKIDLOCAL' };

let api: InProcessApi;
let devices: ApiHandler;
let ingest: ApiHandler;
let table: TableRef;
const ops: CapturedRequest[] = [];

const num = (i: number) => String(i).padStart(4, '0');
const device = (i: number): StoredDevice => ({ tenantId: 'acme', id: `dev-${num(i)}`, name: `equipo ${num(i)}`, type: 'switch', site: `Sede ${i % 7}`, ipAddress: '10.0.0.1', vendor: 'Cisco', model: 'C9200', lastHeartbeatAt: null });
const NOW = Date.now();
const iso = (msAgo: number) => new Date(NOW - msAgo).toISOString();

const batchWrite = (items: Record<string, unknown>[]) => putItems(table, items);
/** `fn` with the requests and RCU it consumed on the table. */
const measured = <T>(fn: () => Promise<T>) => measuredOn(ops, fn);

beforeAll(async () => {
  api = await startInProcessApi({ table: TABLE });
  devices = api.handler('devices');
  ingest = api.handler('ingest');
  await api.data.putTenant({ id: 'acme', name: 'Acme' });
  await api.data.grantCollector('acme', 'arn:aws:iam::000000000000:role/vigia-collector');
  table = { doc: createDocumentClient(api.documentClientOptions()), tableName: TABLE };
  captureCapacity(table, ops);
  // 1,200 device items as the data layer writes them (keys and GSI1 from the declaration), no alarm open yet.
  await batchWrite(Array.from({ length: FLEET }, (_, i) => ({ ...itemOf(DeviceEntity, device(i + 1)), openAlarms: 0 })));
}, 240_000);

afterAll(async () => {
  table?.doc.destroy();
  await api?.stop();
});

/** The collector raises alarm `a-<k>` on device #`i`. */
const raise = (i: number, k: number) =>
  ingest(collectorEvent('/ingest/device-alarms', { action: 'raise', eventId: `r-${i}-${k}`, tenantId: 'acme', deviceId: `dev-${num(i)}`, alarmId: `a-${k}`, severity: 'high', title: `Enlace caído ${k}`, at: iso(60_000 * (100 - k)) }, COLLECTOR), lambdaContext);

describe('device views at 1,200 devices', () => {
  it('alarm rows of devices past the old 1,000 cap carry their names: a page is one Query; a rename reaches them', async () => {
    // 30 alarms raised by the collector on devices #1,001..#1,200 (past the portal's old 1,000-device read).
    for (let k = 0; k < 30; k++) {
      const r = await raise(1_001 + k * 6, k);
      expect(r.statusCode, r.body).toBe(202);
    }
    const r = await call(devices, { method: 'GET', path: '/alarms', caller: alice, query: { limit: '25' } });
    expect(r.statusCode, r.body).toBe(200);
    const page = bodyOf<Page<DeviceAlarm>>(r);
    expect(page.items).toHaveLength(25);
    for (const a of page.items) expect(a.deviceName).toBe(`equipo ${a.deviceId.slice(4)}`);
    expect(page.nextCursor).not.toBeNull();
    // What the handler reads for that page: one Query, whatever the fleet's size.
    const m = await measured(() => listAlarms('acme', { limit: 25 }, table));
    expect(m.out.items.map((a) => a.deviceName)).toEqual(page.items.map((a) => a.deviceName));
    expect(m.requests).toBe(1);
    expect(m.rcu).toBeLessThanOrEqual(5);
    // A rename: every alarm of the device shows the new name.
    await api.data.putDevice({ ...device(1_151), name: 'núcleo Sevilla' });
    const after = bodyOf<Page<DeviceAlarm>>(await call(devices, { method: 'GET', path: '/alarms', caller: alice, query: { deviceId: 'dev-1151' } }));
    expect(after.items.map((a) => a.deviceName)).toEqual(['núcleo Sevilla']);
    await api.data.putDevice(device(1_151));
  }, 240_000);

  it('alarms stored before the copy get their device names from the upgrade step (idempotent)', async () => {
    const legacy = Array.from({ length: 60 }, (_, k): DeviceAlarm => ({ id: `old-${k}`, tenantId: 'acme', deviceId: `dev-${num(1_000 + k * 3)}`, title: 'Antigua', severity: 'low', state: 'active', raisedAt: iso(86_400_000 + k * 1000), acknowledgedAt: null, acknowledgedBy: null, clearedAt: null }));
    await batchWrite(legacy.map((a) => itemOf(AlarmEntity, a)));
    const before = await listAlarms('acme', { limit: 100, from: iso(2 * 86_400_000), to: iso(86_000_000) }, table);
    expect(before.items.filter((a) => a.deviceName === undefined)).toHaveLength(60);
    expect(await upgradeAlarmDeviceNames(table)).toBe(60);
    expect(await upgradeAlarmDeviceNames(table)).toBe(0);
    const filled = await listAlarms('acme', { limit: 100, from: iso(2 * 86_400_000), to: iso(86_000_000) }, table);
    expect(filled.items).toHaveLength(60);
    for (const a of filled.items) expect(a.deviceName).toBe(`equipo ${a.deviceId.slice(4)}`);
  }, 240_000);

  it('the device filter finds device #1,150 by name prefix in one Query', async () => {
    const r = await call(devices, { method: 'GET', path: '/devices', caller: alice, query: { prefix: 'EQUIPO 115', limit: '10' } });
    expect(r.statusCode, r.body).toBe(200);
    const page = bodyOf<Page<Device>>(r);
    expect(page.items.map((d) => d.name)).toEqual(Array.from({ length: 10 }, (_, i) => `equipo ${1_150 + i}`));
    const m = await measured(() => listDevices('acme', { limit: 10, prefix: 'equipo 1150' }, table));
    expect(m.out.items.map((d) => d.device.id)).toEqual(['dev-1150']);
    expect(m.requests).toBe(1);
    expect(m.rcu).toBeLessThanOrEqual(2);
  }, 240_000);
});
