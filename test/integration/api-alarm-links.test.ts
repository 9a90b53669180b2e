/**
 * Alarms linked to incidents (docs/api.md#linked-alarms) over the REAL handlers on dynoxide, every response checked
 * against the OpenAPI document: `POST /incidents` with `alarms` links the incident and each alarm both ways in its
 * create transaction (`GET /incidents/{id}` lists them, `GET /alarms` / `GET /office365/alarms` show `incidentId`);
 * a second link of the same alarm is 409 ALARM_ALREADY_LINKED, an unknown or another tenant's alarm 404
 * ALARM_NOT_FOUND, a bad reference 400 — each writing nothing; staff resolving the incident clear its linked device
 * alarms still open through the collectors' clear path (device open-alarm count, the tenant's summary counts —
 * moved once — an `alarm.clear` audit entry each), and leave Office 365 alerts as they are. Request counts and
 * capacity of the linked create and of the detail read are measured with `captureCapacity`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startInProcessApi, type InProcessApi } from '../support/in-process-api.js';
import type { ApiHandler } from '../../lambdas/http/api.js';
import type { DeviceAlarm, Incident, IncidentDetail, Office365Alarm, Page, Summary } from '../../lambdas/contract/schemas.js';
import { bodyOf, type CallerSpec } from '../support/events.js';
import { createDocumentClient, type TableRef } from '../../lambdas/data/table/client.js';
import { dynamoRepository } from '../../lambdas/data/index.js';
import { createHandler as incidentsHandler } from '../../lambdas/handlers/incidents.js';
import { captureCapacity, type CapturedRequest } from '../support/capacity-capture.js';

const TABLE = 'vigia-alarm-links-main';
const ana: CallerSpec = { sub: 'sub-ana', email: 'ana@acme.example', groups: ['acme'] };
const soc: CallerSpec = { sub: 'sub-soc', email: 'soc@vigia.example', groups: ['admin'] };
const NOW = new Date('2026-05-04T10:00:00.000Z');
let api: InProcessApi;
let incidents: ApiHandler;
let devices: ApiHandler;
let office365: ApiHandler;
let reports: ApiHandler;

const iso = (minAgo: number) => new Date(NOW.getTime() - minAgo * 60_000).toISOString();
const create = (body: object, caller: CallerSpec = ana, h: ApiHandler = incidents) =>
  call(h, { method: 'POST', path: '/incidents', caller, body: { title: 'CPU alta en fw-a', description: 'Alarma de fw-a', severity: 'high', ...body }, query: caller === soc ? { tenant: 'acme' } : {} });
const detail = async (id: string) => bodyOf<IncidentDetail>(await call(incidents, { method: 'GET', path: `/incidents/${id}`, caller: ana }));
const deviceAlarms = async () => bodyOf<Page<DeviceAlarm>>(await call(devices, { method: 'GET', path: '/alarms', caller: ana, query: { limit: '100' } })).items;
const o365Alarms = async () => bodyOf<Page<Office365Alarm>>(await call(office365, { method: 'GET', path: '/office365/alarms', caller: ana, query: { limit: '100' } })).items;
const summary = async () => bodyOf<Summary>(await call(reports, { method: 'GET', path: '/summary', caller: ana }));
const incidentCount = async () => (await api.repository.incidents.listIncidents('acme', { limit: 100 })).items.length;
const dev = (id: string, deviceId = 'dev-1') => ({ kind: 'device', id, deviceId });

beforeAll(async () => {
  api = await startInProcessApi({ table: TABLE });
  incidents = api.handler('incidents', { now: () => NOW });
  devices = api.handler('devices', { now: () => NOW });
  office365 = api.handler('office365', { now: () => NOW });
  reports = api.handler('reports', { now: () => NOW });
  const { data } = api;
  await data.putTenant({ id: 'acme', name: 'Acme' });
  await data.putTenant({ id: 'globex', name: 'Globex' });
  const base = { type: 'firewall', site: 'Madrid', ipAddress: '10.0.0.1', vendor: 'Fortinet', model: 'FG-60F', lastHeartbeatAt: iso(1) };
  await data.putDevice({ ...base, tenantId: 'acme', id: 'dev-1', name: 'fw-a' });
  await data.putDevice({ ...base, tenantId: 'globex', id: 'dev-9', name: 'gx-fw' });
  const alarm = { tenantId: 'acme', deviceId: 'dev-1', severity: 'high' as const, title: 'CPU al 98 %' };
  for (const id of ['a1', 'a2', 'a3', 'a4', 'a5']) await data.putAlarm({ ...alarm, id, raisedAt: iso(30), state: 'active' });
  await data.putAlarm({ ...alarm, id: 'a6', raisedAt: iso(40), state: 'acknowledged', acknowledgedAt: iso(35), acknowledgedBy: 'ana@acme.example' });
  await data.putAlarm({ tenantId: 'globex', deviceId: 'dev-9', id: 'g1', severity: 'low', title: 'Disco', raisedAt: iso(30), state: 'active' });
  await data.upsertO365Alarm({ id: 'o1', tenantId: 'acme', title: 'Regla de reenvío sospechosa', severity: 'medium', category: 'ThreatManagement', status: 'active', affectedUser: 'luis@acme.example', detectedAt: iso(20), updatedAt: iso(20) });
});
afterAll(async () => {
  await api?.stop();
});

describe('alarms linked to incidents', () => {
  it('links on create, both ways, in one transaction; the incident lists its alarms and each alarm shows its incident', async () => {
    const listed = await call(devices, { method: 'GET', path: '/alarms', caller: ana, query: { limit: '100' } });
    const etag = Object.entries({ ...listed.headers, ...listed.multiValueHeaders }).find(([k]) => k.toLowerCase() === 'etag')?.[1];
    expect(etag).toBeTruthy();
    // A revalidation before the link is 304 (the check below can fail).
    expect((await call(devices, { method: 'GET', path: '/alarms', caller: ana, query: { limit: '100' }, headers: { 'If-None-Match': String(etag) } })).statusCode).toBe(304);
    const r = await create({ alarms: [dev('a1'), { kind: 'office365', id: 'o1' }] });
    expect(r.statusCode, r.body).toBe(201);
    const inc = bodyOf<Incident>(r);
    expect(inc.alarms).toEqual([dev('a1'), { kind: 'office365', id: 'o1' }]);
    const d = await detail(inc.id);
    expect(d.linkedAlarms).toEqual([
      { kind: 'device', id: 'a1', deviceId: 'dev-1', name: 'fw-a', title: 'CPU al 98 %', severity: 'high', state: 'active', at: iso(30), incidentId: inc.id },
      { kind: 'office365', id: 'o1', name: 'luis@acme.example', title: 'Regla de reenvío sospechosa', severity: 'medium', state: 'active', at: iso(20), incidentId: inc.id },
    ]);
    expect((await deviceAlarms()).find((a) => a.id === 'a1')?.incidentId).toBe(inc.id);
    expect((await deviceAlarms()).find((a) => a.id === 'a2')?.incidentId).toBeUndefined();
    // The alarm list changed: its ETag moved, so a revalidation gets the linked alarms (not 304 with the old page).
    const again = await call(devices, { method: 'GET', path: '/alarms', caller: ana, query: { limit: '100' }, headers: { 'If-None-Match': String(etag) } });
    expect(again.statusCode).toBe(200);
    expect((await o365Alarms()).find((a) => a.id === 'o1')?.incidentId).toBe(inc.id);
    // A collector's later update of the alert keeps the link (the collectors do not know it).
    await api.data.upsertO365Alarm({ id: 'o1', tenantId: 'acme', title: 'Regla de reenvío sospechosa', severity: 'medium', category: 'ThreatManagement', status: 'investigating', affectedUser: 'luis@acme.example', detectedAt: iso(20), updatedAt: iso(5) });
    expect((await o365Alarms()).find((a) => a.id === 'o1')).toMatchObject({ status: 'investigating', incidentId: inc.id });
    // An incident without links has neither field.
    const plain = bodyOf<Incident>(await create({}));
    expect(plain.alarms).toBeUndefined();
    expect((await detail(plain.id)).linkedAlarms).toBeUndefined();
  });

  it('answers 409 ALARM_ALREADY_LINKED to an alarm linked to an open incident, and writes nothing', async () => {
    const first = bodyOf<Incident>(await create({ alarms: [dev('a2')] }));
    const before = await incidentCount();
    const r = await create({ alarms: [dev('a3'), dev('a2')] });
    expect(r.statusCode, r.body).toBe(409);
    expect(bodyOf<{ code: string; details: unknown }>(r)).toMatchObject({ code: 'ALARM_ALREADY_LINKED', details: { alarms: [{ ...dev('a2'), incidentId: first.id }] } });
    expect(await incidentCount()).toBe(before);
    const alarms = await deviceAlarms();
    expect(alarms.find((a) => a.id === 'a2')?.incidentId).toBe(first.id);
    expect(alarms.find((a) => a.id === 'a3')?.incidentId).toBeUndefined(); // the other alarm of the refused request
  });

  it('answers 404 ALARM_NOT_FOUND to an unknown alarm or another tenant’s, and 400 to a bad reference; nothing written', async () => {
    const before = await incidentCount();
    const unknown = await create({ alarms: [dev('a4'), dev('nope')] });
    expect(unknown.statusCode, unknown.body).toBe(404);
    expect(bodyOf<{ code: string; details: unknown }>(unknown)).toMatchObject({ code: 'ALARM_NOT_FOUND', details: { alarms: [dev('nope')] } });
    const foreign = await create({ alarms: [dev('g1', 'dev-9')] });
    expect(foreign.statusCode, foreign.body).toBe(404);
    expect(bodyOf<{ code: string }>(foreign).code).toBe('ALARM_NOT_FOUND');
    for (const alarms of [[{ kind: 'device', id: 'a4' }], [{ kind: 'office365', id: 'o1', deviceId: 'dev-1' }], [dev('a4'), dev('a4')], Array.from({ length: 21 }, (_, i) => dev(`x${i}`)), []]) {
      const bad = await create({ alarms });
      expect(bad.statusCode, JSON.stringify(alarms)).toBe(400);
      expect(bodyOf<{ code: string }>(bad).code).toBe('VALIDATION_FAILED');
    }
    expect(await incidentCount()).toBe(before);
    expect((await deviceAlarms()).find((a) => a.id === 'a4')?.incidentId).toBeUndefined();
    expect((await api.repository.devices.listAlarms('globex', { limit: 10 })).items[0]?.incidentId).toBeUndefined();
  });

  it('resolving clears the linked device alarms still open, once: device count, summary counts and one alarm.clear audit entry each; Office 365 alerts stay', async () => {
    const inc = bodyOf<Incident>(await create({ alarms: [dev('a5'), dev('a6')] }, soc));
    expect(inc.alarms).toEqual([dev('a5'), dev('a6')]);
    const open0 = (await summary()).alarms;
    const moved = await call(incidents, { method: 'PATCH', path: `/incidents/${inc.id}`, caller: soc, query: { tenant: 'acme' }, body: { version: 1, status: 'in_progress', triage: { severity: 'high', reason: 'CPU sostenida' } } });
    expect(moved.statusCode, moved.body).toBe(200);
    const resolved = await call(incidents, { method: 'PATCH', path: `/incidents/${inc.id}`, caller: soc, query: { tenant: 'acme' }, body: { version: 2, status: 'resolved' } });
    expect(resolved.statusCode, resolved.body).toBe(200);
    const alarms = await deviceAlarms();
    expect(alarms.filter((a) => a.id === 'a5' || a.id === 'a6').map((a) => [a.id, a.state, a.clearedAt])).toEqual([
      ['a5', 'cleared', NOW.toISOString()],
      ['a6', 'cleared', NOW.toISOString()],
    ]);
    const open1 = (await summary()).alarms;
    expect(open1.open).toBe(open0.open - 2);
    expect(open1.active).toBe(open0.active - 1);
    expect(open1.acknowledged).toBe(open0.acknowledged - 1);
    const device = (await api.repository.devices.deviceHistory('acme', 'dev-1', '2026-01-01')).openAlarms.map((a) => a.id).sort();
    expect(device).not.toContain('a5');
    const audit = (await api.repository.audit.listTenant('acme', { limit: 100 })).items.filter((e) => e.action === 'alarm.clear');
    expect(audit.map((e) => e.target.id).sort()).toEqual(['dev-1/a5', 'dev-1/a6']);
    // The detail shows them cleared, still linked.
    expect((await detail(inc.id)).linkedAlarms?.map((a) => a.state)).toEqual(['cleared', 'cleared']);
  });

  it('resolving with clearLinkedAlarms: false leaves the alarms open', async () => {
    const inc = bodyOf<Incident>(await create({ alarms: [dev('a4')] }, soc));
    await call(incidents, { method: 'PATCH', path: `/incidents/${inc.id}`, caller: soc, query: { tenant: 'acme' }, body: { version: 1, status: 'in_progress', triage: { severity: 'high', reason: 'CPU sostenida' } } });
    const r = await call(incidents, { method: 'PATCH', path: `/incidents/${inc.id}`, caller: soc, query: { tenant: 'acme' }, body: { version: 2, status: 'resolved', clearLinkedAlarms: false } });
    expect(r.statusCode, r.body).toBe(200);
    expect((await deviceAlarms()).find((a) => a.id === 'a4')?.state).toBe('active');
  });

  it('costs: the linked create is one BatchGetItem of the alarms and one TransactWriteItems; the detail one Query and one BatchGetItem', async () => {
    const calls: CapturedRequest[] = [];
    const table: TableRef = { doc: createDocumentClient(api.documentClientOptions()), tableName: TABLE };
    captureCapacity(table, calls);
    const h = incidentsHandler(api.config, { repository: dynamoRepository(table), users: { listGroupMembers: async () => [] }, now: () => NOW });
    await api.data.putAlarm({ tenantId: 'acme', deviceId: 'dev-1', id: 'c1', severity: 'critical', title: 'Enlace caído', raisedAt: iso(3), state: 'active' });
    await api.data.putAlarm({ tenantId: 'acme', deviceId: 'dev-1', id: 'c2', severity: 'critical', title: 'Enlace caído', raisedAt: iso(2), state: 'active' });
    const r = await create({ alarms: [dev('c1'), dev('c2')] }, ana, h);
    expect(r.statusCode, r.body).toBe(201);
    const ops = calls.map((c) => c.op);
    expect(ops.filter((o) => o === 'BatchGetItem')).toHaveLength(1);
    expect(ops.filter((o) => o === 'TransactWriteItems')).toHaveLength(1);
    const tx = calls.find((c) => c.op === 'TransactWriteItems')!;
    const batch = calls.find((c) => c.op === 'BatchGetItem')!;
    console.log(`linked create (2 alarms): ${calls.length} requests, transaction ${tx.wcu} WCU, alarm read ${batch.rcu} RCU, total ${calls.reduce((a, c) => a + c.rcu, 0)} RCU / ${calls.reduce((a, c) => a + c.wcu, 0)} WCU`);
    calls.length = 0;
    const d = await call(h, { method: 'GET', path: `/incidents/${bodyOf<Incident>(r).id}`, caller: ana });
    expect(bodyOf<IncidentDetail>(d).linkedAlarms).toHaveLength(2);
    expect(calls.map((c) => c.op)).toEqual(['Query', 'BatchGetItem']);
    console.log(`detail with 2 linked alarms: ${calls.map((c) => `${c.op} ${c.rcu} RCU`).join(', ')}`);
    expect(calls[1]!.rcu).toBeLessThanOrEqual(1);
  });
});
