/**
 * The lists the dashboard polls answer 304 while nothing they show changed (issue 28 point 4;
 * docs/api.md#conditional-requests): `GET /incidents` and `GET /alarms` carry a weak ETag made of the
 * tenant's list marker of their records and a digest of the request and caller (route table `validatedBy`,
 * lambdas/http/api.ts); a poll with the last ETag answers 304 with no body after ONE GetItem (≤ 0.5 RCU), also
 * after 100 devices beat a new minute; each kind of change the list would show (an incident created, an
 * incident's title edited — no counter moves —, an alarm raised, acknowledged, cleared, a device renamed)
 * answers 200 with a new ETag. Real dynoxide behind the rules proxy, the Lambdas in process, capacity from the
 * engine (`captureCapacity`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startInProcessApi, validatingHandler, type InProcessApi } from '../support/in-process-api.js';
import { bodyOf } from '../support/events.js';
import { createDocumentClient, type TableRef } from '../../lambdas/data/table/client.js';
import { captureCapacity, type CapturedRequest } from '../support/capacity-capture.js';
import { dynamoRepository } from '../../lambdas/data/index.js';
import { ingestHeartbeat, putDevice, raiseAlarm, transitionAlarm } from '../../lambdas/data/devices.js';
import { createIncident, getIncident, saveIncidentUpdate } from '../../lambdas/data/incidents.js';
import { newIncident } from '../../lambdas/domain/incidents.js';
import * as devicesHandler from '../../lambdas/handlers/devices.js';
import * as incidentsHandler from '../../lambdas/handlers/incidents.js';
import type { ApiHandler } from '../../lambdas/http/api.js';
import type { DeviceAlarm, Incident } from '../../lambdas/contract/schemas.js';

const TABLE = 'vigia-list-etag';
const T = 'listco';
const ana = { sub: 'sub-ana', groups: [T] };

let api: InProcessApi;
let table: TableRef;
const ops: CapturedRequest[] = [];
const clock = { now: new Date() };
let incidents: ApiHandler;
let devices: ApiHandler;

beforeAll(async () => {
  api = await startInProcessApi({ table: TABLE });
  table = { doc: createDocumentClient(api.documentClientOptions()), tableName: TABLE };
  captureCapacity(table, ops);
  const deps = { repository: dynamoRepository(table, { retention: api.config.retention }), now: () => clock.now };
  incidents = validatingHandler(incidentsHandler.createHandler(api.config, deps));
  devices = validatingHandler(devicesHandler.createHandler(api.config, deps));
  await api.data.putTenant({ id: T, name: 'List Co' });
}, 60_000);

afterAll(async () => {
  table?.doc.destroy();
  await api?.stop();
});

const base = { type: 'firewall', site: 'Madrid', ipAddress: '10.0.0.1', vendor: 'Fortinet', model: 'FG-60F' };
const hdr = (r: { headers?: Record<string, unknown>; multiValueHeaders?: Record<string, unknown[]> }, name: string): string => {
  const find = <V>(o: Record<string, V> | undefined) => Object.entries(o ?? {}).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
  const multi = find(r.multiValueHeaders);
  return multi ? multi.map(String).join(', ') : String(find(r.headers) ?? '');
};
const minuteStart = (t: number) => Math.floor(t / 60_000) * 60_000;

/** The dashboard's two list polls, as the portal makes them (web/src/features/dashboard/api.ts). */
const LISTS = {
  incidents: () => ({ h: incidents, path: '/incidents', query: { limit: '20' } }),
  alarms: () => ({ h: devices, path: '/alarms', query: { state: 'active,acknowledged', limit: '5' } }),
};
type ListName = keyof typeof LISTS;

async function poll(list: ListName, etag?: string, caller = ana) {
  const { h, path, query } = LISTS[list]();
  return call(h, { method: 'GET', path, query, caller, ...(etag ? { headers: { 'If-None-Match': etag } } : {}) });
}

/** A poll with `etag` answers 304 with no body and the same ETag after ONE GetItem of ≤ 0.5 RCU. */
async function expectNotModified(list: ListName, etag: string, what: string): Promise<void> {
  ops.length = 0;
  const r = await poll(list, etag);
  expect(r.statusCode, `${list} ${what}`).toBe(304);
  expect(r.body).toBe('');
  expect(hdr(r, 'ETag')).toBe(etag);
  expect(ops.map((o) => o.op), `${list} ${what}`).toEqual(['GetItem']);
  expect(ops[0]!.rcu).toBeLessThanOrEqual(0.5);
}

/** A poll with `etag` answers 200 with a new ETag (and the list); returns the new ETag and the body. */
async function expectChanged<B>(list: ListName, etag: string, what: string): Promise<{ etag: string; body: B }> {
  const r = await poll(list, etag);
  expect(r.statusCode, `${list} after ${what}`).toBe(200);
  const next = hdr(r, 'ETag');
  expect(next, `${list} after ${what}`).toMatch(/^W\/"l1\./);
  expect(next, `${list} after ${what}`).not.toBe(etag);
  return { etag: next, body: bodyOf<B>(r) };
}

describe('dashboard lists with If-None-Match', () => {
  it('answer 304 after one GetItem while unchanged (also after 100 heartbeats), 200 with a new ETag after each kind of change', async () => {
    const ids = Array.from({ length: 100 }, (_, i) => `d-${String(i).padStart(3, '0')}`);
    for (const id of ids) await putDevice({ ...base, tenantId: T, id, name: `fw-${id}` }, table);
    await createIncident(T, (seq) => newIncident(T, seq, { title: 'Primero', description: 'x', severity: 'low', category: 'general' }, 'a@listco.example', clock.now.toISOString()), table);
    const alarm: DeviceAlarm = { id: 'al-1', tenantId: T, deviceId: 'd-000', title: 'CPU', severity: 'high', state: 'active', raisedAt: clock.now.toISOString(), acknowledgedAt: null, acknowledgedBy: null, clearedAt: null };
    expect(await raiseAlarm(alarm, table)).toBe(true);

    // The first poll: 200 with an ETag and Cache-Control: private, no-cache.
    const first = { incidents: await poll('incidents'), alarms: await poll('alarms') };
    const etag: Record<ListName, string> = { incidents: '', alarms: '' };
    for (const list of ['incidents', 'alarms'] as const) {
      expect(first[list].statusCode, first[list].body).toBe(200);
      etag[list] = hdr(first[list], 'ETag');
      expect(etag[list]).toMatch(/^W\/"l1\.\d+\.[0-9a-f]{16}"$/);
      expect(hdr(first[list], 'Cache-Control')).toBe('private, no-cache');
      await expectNotModified(list, etag[list], 'unchanged');
    }

    // 100 devices beat a new minute (recorded on the devices, the histogram, the days): both lists still 304.
    const t0 = minuteStart(Date.now()) - 2 * 60_000 + 1_000;
    for (const t of [t0, t0 + 60_000]) {
      for (let i = 0; i < ids.length; i += 20) await Promise.all(ids.slice(i, i + 20).map((id) => ingestHeartbeat({ tenantId: T, deviceId: id, at: new Date(t).toISOString() }, table)));
    }
    for (const list of ['incidents', 'alarms'] as const) await expectNotModified(list, etag[list], 'after 100 heartbeats');

    // A different caller or another query is another answer: its own ETag, never this one's 304.
    const bea = { sub: 'sub-bea', groups: [T] };
    const other = await poll('incidents', etag.incidents, bea);
    expect(other.statusCode).toBe(200);
    expect(hdr(other, 'ETag')).not.toBe(etag.incidents);
    const page2 = await call(incidents, { method: 'GET', path: '/incidents', query: { limit: '19' }, caller: ana, headers: { 'If-None-Match': etag.incidents } });
    expect(page2.statusCode).toBe(200);

    // Incidents: created → 200; title edited (no counter moves, the summary's marker does not) → 200; an alarm write leaves the incident list 304.
    const created = await createIncident(T, (seq) => newIncident(T, seq, { title: 'Segundo', description: 'x', severity: 'high', category: 'general' }, 'a@listco.example', clock.now.toISOString()), table);
    let r = await expectChanged<{ items: Incident[] }>('incidents', etag.incidents, 'an incident created');
    expect(r.body.items.map((i) => i.id)).toContain(created.id);
    etag.incidents = r.etag;
    await expectNotModified('incidents', etag.incidents, 'unchanged');
    const cur = (await getIncident(T, created.id, table))!;
    const edited: Incident = { ...cur, title: 'Segundo (editado)', version: cur.version + 1, updatedAt: new Date().toISOString() };
    expect(await saveIncidentUpdate(T, edited, cur, { version: edited.version, at: edited.updatedAt, by: 'x', bySub: 'x', changes: [] }, null, table)).toBe(true);
    r = await expectChanged<{ items: Incident[] }>('incidents', etag.incidents, 'a title edited');
    expect(r.body.items.find((i) => i.id === created.id)?.title).toBe('Segundo (editado)');
    etag.incidents = r.etag;

    // Alarms: raised, acknowledged, cleared, the device renamed → 200 each, with what changed.
    expect(await raiseAlarm({ ...alarm, id: 'al-2', deviceId: 'd-001', raisedAt: new Date().toISOString() }, table)).toBe(true);
    let a = await expectChanged<{ items: DeviceAlarm[] }>('alarms', etag.alarms, 'an alarm raised');
    expect(a.body.items.map((x) => x.id)).toContain('al-2');
    etag.alarms = a.etag;
    await expectNotModified('alarms', etag.alarms, 'unchanged');
    await expectNotModified('incidents', etag.incidents, 'after an alarm write');
    await transitionAlarm(table, T, 'd-001', 'al-2', ['active'], 'acknowledged', { acknowledgedAt: new Date().toISOString(), acknowledgedBy: 'a@listco.example' });
    a = await expectChanged<{ items: DeviceAlarm[] }>('alarms', etag.alarms, 'an alarm acknowledged');
    expect(a.body.items.find((x) => x.id === 'al-2')?.state).toBe('acknowledged');
    etag.alarms = a.etag;
    await transitionAlarm(table, T, 'd-001', 'al-2', ['active', 'acknowledged'], 'cleared', { clearedAt: new Date().toISOString() });
    a = await expectChanged<{ items: DeviceAlarm[] }>('alarms', etag.alarms, 'an alarm cleared');
    expect(a.body.items.map((x) => x.id)).not.toContain('al-2');
    etag.alarms = a.etag;
    await expectNotModified('alarms', etag.alarms, 'unchanged');
    await putDevice({ ...base, tenantId: T, id: 'd-000', name: 'fw-renombrado' }, table);
    a = await expectChanged<{ items: DeviceAlarm[] }>('alarms', etag.alarms, 'a device renamed');
    expect(a.body.items.find((x) => x.id === 'al-1')?.deviceName).toBe('fw-renombrado');
    await expectNotModified('alarms', a.etag, 'unchanged');
  }, 120_000);
});
