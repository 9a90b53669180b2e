/**
 * Incident roles and SLA integrity over the REAL incidents and reports handlers on dynoxide, every response
 * checked against the OpenAPI document (docs/api.md#incident-roles, docs/sla.md):
 *  - customers cannot change severity, assignee or status (403), and use closure request / reopen / confirm;
 *  - staff triage (severity with a reason; targets fixed from the tenant's contract), assign, acknowledge,
 *    resolve, close; each change is in the history with actor, time and reason, and in the audit log;
 *  - MTTA runs to the first staff acknowledgement; a closed incident's SLA result never changes;
 *  - the SOC queue by SLA due time (`sort=due`) lists open incidents of every tenant, with filters and cursors;
 *  - the upgrade step fills old incidents and is idempotent;
 *  - an assignee must be on the tenant's assignee list (tenant users and staff, enabled, with e-mail):
 *    anyone else is 400 UNKNOWN_ASSIGNEE, on PATCH and on create (docs/api.md#assignees).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startInProcessApi, type InProcessApi } from '../support/in-process-api.js';
import type { ApiHandler } from '../../lambdas/http/api.js';
import type { Incident, IncidentDetail, Page, Report } from '../../lambdas/contract/schemas.js';
import { bodyOf, type CallerSpec } from '../support/events.js';
import { createDocumentClient } from '../../lambdas/data/index.js';
import { upgradeIncidents } from '../../lambdas/data/migrations.js';
import { itemOf, IncidentEntity, HistoryEntity } from '../../lambdas/data/entities.js';
import type { AssigneeList, PoolUser } from '../../lambdas/contract/schemas.js';
import type { UsersPort } from '../../lambdas/domain/ports.js';

const TABLE = 'vigia-roles-main';
const alice: CallerSpec = { sub: 'sub-alice', email: 'alice@acme.example', groups: ['acme'] };
const carol: CallerSpec = { sub: 'sub-carol', email: 'carol@initech.example', groups: ['initech'] };
const soc: CallerSpec = { sub: 'sub-soc', email: 'soc@vigia.example', groups: ['admin'] };
const T0 = Date.parse('2026-05-04T08:00:00.000Z');
const MIN = 60_000;
let clock = T0;
/** Groups listed from the user pool, in order (assignee checks and GET /assignees). */
const poolReads: string[] = [];
let api: InProcessApi;
let incidents: ApiHandler;
let reports: ApiHandler;
let admin: ApiHandler;

type Q = Record<string, string>;
const asStaff = (tenant: string): Q => ({ tenant });
const open = async (caller: CallerSpec, severity = 'high', title = 'Acceso sospechoso') => {
  const r = await call(incidents, { method: 'POST', path: '/incidents', caller, body: { title, description: 'd', severity } });
  expect(r.statusCode, r.body).toBe(201);
  return bodyOf<Incident>(r);
};
const req = (caller: CallerSpec, method: 'PATCH' | 'POST', path: string, body: object, query: Q = {}) => call(incidents, { method, path, caller, body, query });
const detail = async (id: string, caller: CallerSpec = alice, query: Q = {}) => bodyOf<IncidentDetail>(await call(incidents, { method: 'GET', path: `/incidents/${id}`, caller, query }));

beforeAll(async () => {
  // A user pool of three: a tenant user, a disabled tenant user, a staff member (only group listings are read).
  const user = (username: string, email: string, enabled: boolean): PoolUser => ({ username, email, status: 'CONFIRMED', enabled, mfa: false });
  const groups: Record<string, PoolUser[]> = {
    acme: [user('u-1', 'u-1@acme.example', true), user('u-2', 'baja@acme.example', false)],
    initech: [user('u-4', 'carol@initech.example', true)],
    admin: [user('u-3', 'soc@vigia.example', true)],
  };
  const users = {
    listGroupMembers: async (g: string) => (poolReads.push(g), (groups[g] ?? []).map(({ mfa: _m, ...u }) => u)),
  } as Partial<UsersPort> as UsersPort;
  api = await startInProcessApi({ table: TABLE, users });
  admin = api.handler('admin');
  incidents = api.handler('incidents', { now: () => new Date(clock) });
  reports = api.handler('reports', { now: () => new Date(clock) });
  await api.data.putTenant({ id: 'acme', name: 'Acme', slaTargets: { high: { responseMinutes: 30, resolutionMinutes: 120 } } });
  await api.data.putTenant({ id: 'initech', name: 'Initech' });
});
afterAll(async () => {
  await api?.stop();
});

describe('customer role', () => {
  it('answers 403 to a customer PATCH of severity, assignee or a provider status, and changes nothing', async () => {
    clock = T0;
    const inc = await open(alice);
    for (const body of [{ severity: 'low' }, { assignee: 'alguien@acme.example' }, { status: 'in_progress' }, { status: 'on_hold' }, { status: 'resolved' }, { status: 'closed' }]) {
      const r = await req(alice, 'PATCH', `/incidents/${inc.id}`, { version: 1, ...body });
      expect(r.statusCode, r.body).toBe(403);
      expect(bodyOf<{ code: string }>(r).code).toBe('FORBIDDEN');
    }
    expect(await detail(inc.id)).toMatchObject({ version: 1, severity: 'high', status: 'new', assignee: null });
    // Title, description and comments stay the customer's.
    const ok = await req(alice, 'PATCH', `/incidents/${inc.id}`, { version: 1, description: 'Más detalle', comment: 'Adjunto contexto' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await req(alice, 'POST', `/incidents/${inc.id}/comments`, { body: 'Más contexto' })).statusCode).toBe(201);
    // Opening, editing and commenting are audited; the refused calls are not.
    const audit = await api.repository.audit.listTenant('acme', { limit: 50 });
    expect(audit.items.filter((e) => e.target.id === inc.id).map((e) => e.action).sort()).toEqual(['incident.comment', 'incident.create', 'incident.update']);
    // Triage and the SOC queue are staff-only routes.
    expect((await req(alice, 'POST', `/incidents/${inc.id}/triage`, { version: 2, severity: 'low', reason: 'no es grave' })).statusCode).toBe(403);
    expect((await call(incidents, { method: 'GET', path: '/soc/queue', caller: alice })).statusCode).toBe(403);
  });
});

describe('staff work an incident; the customer requests closure and confirms', () => {
  it('triage fixes the targets from the contract with a reason in the history; MTTA from the first staff acknowledgement', async () => {
    clock = T0;
    const inc = await open(alice, 'medium');
    expect(inc).toMatchObject({ slaTargets: null, triagedAt: null, firstAcknowledgedAt: null, closureRequested: false, slaResult: null });
    // Staff may not change severity without a reason (PATCH) — triage is the way.
    expect((await req(soc, 'PATCH', `/incidents/${inc.id}`, { version: 1, severity: 'high' }, asStaff('acme'))).statusCode).toBe(400);
    clock = T0 + 5 * MIN;
    const t = await req(soc, 'POST', `/incidents/${inc.id}/triage`, { version: 1, severity: 'high', reason: 'Cuenta de administrador afectada' }, asStaff('acme'));
    expect(t.statusCode, t.body).toBe(200);
    const triaged = bodyOf<Incident>(t);
    expect(triaged).toMatchObject({
      severity: 'high',
      slaTargets: { responseMinutes: 30, resolutionMinutes: 120 },
      triagedAt: new Date(T0 + 5 * MIN).toISOString(),
      slaDueAt: new Date(T0 + 120 * MIN).toISOString(),
      firstAcknowledgedAt: null,
    });
    // A customer's closure request is not an acknowledgement.
    clock = T0 + 10 * MIN;
    const cr = await req(alice, 'POST', `/incidents/${inc.id}/closure-request`, { note: 'Creo que ya está' });
    expect(cr.statusCode, cr.body).toBe(200);
    expect(bodyOf<Incident>(cr)).toMatchObject({ closureRequested: true, firstAcknowledgedAt: null });
    clock = T0 + 25 * MIN;
    const ack = await req(soc, 'PATCH', `/incidents/${inc.id}`, { version: 3, status: 'in_progress', assignee: 'soc@vigia.example' }, asStaff('acme'));
    expect(ack.statusCode, ack.body).toBe(200);
    expect(bodyOf<Incident>(ack)).toMatchObject({ status: 'in_progress', assignee: 'soc@vigia.example', firstAcknowledgedAt: new Date(T0 + 25 * MIN).toISOString() });
    clock = T0 + 60 * MIN;
    const res = await req(soc, 'PATCH', `/incidents/${inc.id}`, { version: 4, status: 'resolved' }, asStaff('acme'));
    expect(res.statusCode, res.body).toBe(200);
    clock = T0 + 70 * MIN;
    const conf = await req(alice, 'POST', `/incidents/${inc.id}/confirm-resolution`, { note: 'Gracias' });
    expect(conf.statusCode, conf.body).toBe(200);
    expect(bodyOf<Incident>(conf)).toMatchObject({ status: 'closed', closedAt: new Date(T0 + 70 * MIN).toISOString(), slaResult: 'met', closureRequested: false });

    const d = await detail(inc.id);
    const triageEntry = d.history.find((h) => h.changes.some((c) => c.field === 'severity'));
    expect(triageEntry).toMatchObject({ by: 'soc@vigia.example', at: new Date(T0 + 5 * MIN).toISOString(), reason: 'Cuenta de administrador afectada' });
    expect(triageEntry!.changes).toEqual(expect.arrayContaining([{ field: 'severity', from: 'medium', to: 'high' }, { field: 'slaTargets', from: null, to: 'response 30 min, resolution 120 min' }]));
    // Every change is audited in the same transaction.
    const audit = await api.repository.audit.listTenant('acme', { limit: 50 });
    expect(audit.items.filter((e) => e.target.id === inc.id).map((e) => e.action).sort()).toEqual(
      ['incident.create', 'incident.closure_request', 'incident.confirm_resolution', 'incident.triage', 'incident.update', 'incident.update'].sort(),
    );
  });

  it('a later triage is recorded the same way (actor, time, reason; new targets and due time); customers cannot send SLA fields', async () => {
    clock = T0;
    const inc = await open(alice, 'medium');
    clock = T0 + 5 * MIN;
    expect((await req(soc, 'POST', `/incidents/${inc.id}/triage`, { version: 1, severity: 'high', reason: 'Primera valoración' }, asStaff('acme'))).statusCode).toBe(200);
    clock = T0 + 15 * MIN;
    const again = await req(soc, 'POST', `/incidents/${inc.id}/triage`, { version: 2, severity: 'low', reason: 'Falso positivo parcial' }, asStaff('acme'));
    expect(again.statusCode, again.body).toBe(200);
    // `low` has no contract target at acme: the default (72 h) applies; triagedAt stays the first triage.
    expect(bodyOf<Incident>(again)).toMatchObject({ severity: 'low', triagedAt: new Date(T0 + 5 * MIN).toISOString(), slaDueAt: new Date(T0 + 72 * 60 * MIN).toISOString() });
    const second = (await detail(inc.id)).history.find((h) => h.reason === 'Falso positivo parcial');
    expect(second).toMatchObject({ by: 'soc@vigia.example', at: new Date(T0 + 15 * MIN).toISOString() });
    expect(second!.changes).toEqual(expect.arrayContaining([{ field: 'severity', from: 'high', to: 'low' }, expect.objectContaining({ field: 'slaTargets', from: 'response 30 min, resolution 120 min' })]));
    // The SLA fields are not part of a PATCH body at all (400), for customers and staff alike.
    for (const caller of [alice, soc]) {
      const r = await req(caller, 'PATCH', `/incidents/${inc.id}`, { version: 3, slaTargets: { responseMinutes: 1, resolutionMinutes: 99999 } }, caller === soc ? asStaff('acme') : {});
      expect(r.statusCode).toBe(400);
    }
    expect(await detail(inc.id)).toMatchObject({ version: 3, slaDueAt: new Date(T0 + 72 * 60 * MIN).toISOString() });
  });

  it('reports MTTA as the time to the first staff acknowledgement, not any status change', async () => {
    clock = T0;
    const inc = await open(carol, 'low');
    clock = T0 + 7 * MIN;
    expect((await req(carol, 'POST', `/incidents/${inc.id}/closure-request`, { note: 'Ya no pasa' })).statusCode).toBe(200);
    clock = T0 + 40 * MIN;
    expect((await req(soc, 'PATCH', `/incidents/${inc.id}`, { version: 2, status: 'in_progress', triage: { severity: 'low', reason: 'Sin impacto confirmado' } }, asStaff('initech'))).statusCode).toBe(200);
    clock = T0 + 24 * 60 * MIN;
    const rep = bodyOf<Report>(await call(reports, { method: 'GET', path: '/reports', caller: carol }));
    expect(rep.mttaMinutes).toBe(40);
  });
});

describe('SLA integrity', () => {
  it('never changes a closed incident\u2019s SLA result, whatever is called later', async () => {
    clock = T0;
    const inc = await open(alice, 'high'); // acme contract: 120 min to resolve
    const v = async () => (await detail(inc.id)).version;
    // Triage first (docs/sla.md#triage-first): the acknowledgement carries it, at the reported severity.
    expect((await req(soc, 'PATCH', `/incidents/${inc.id}`, { version: 1, status: 'in_progress', triage: { severity: 'high', reason: 'Confirmado' } }, asStaff('acme'))).statusCode).toBe(200);
    clock = T0 + 300 * MIN; // breached
    expect((await req(soc, 'PATCH', `/incidents/${inc.id}`, { version: 2, status: 'resolved' }, asStaff('acme'))).statusCode).toBe(200);
    expect((await req(soc, 'PATCH', `/incidents/${inc.id}`, { version: 3, status: 'closed' }, asStaff('acme'))).statusCode).toBe(200);
    const closed = await detail(inc.id);
    expect(closed).toMatchObject({ status: 'closed', slaResult: 'breached' });
    const reportBefore = bodyOf<Report>(await call(reports, { method: 'GET', path: '/reports', caller: alice }));

    // Lowering the severity (customer or staff), retriaging, editing: refused; the result stays.
    expect((await req(alice, 'PATCH', `/incidents/${inc.id}`, { version: await v(), severity: 'low' })).statusCode).toBe(403);
    expect((await req(soc, 'PATCH', `/incidents/${inc.id}`, { version: await v(), severity: 'low' }, asStaff('acme'))).statusCode).toBe(400);
    expect((await req(soc, 'POST', `/incidents/${inc.id}/triage`, { version: await v(), severity: 'low', reason: 'rebajar' }, asStaff('acme'))).statusCode).toBe(409);
    expect((await req(soc, 'PATCH', `/incidents/${inc.id}`, { version: await v(), status: 'in_progress' }, asStaff('acme'))).statusCode).toBe(409);
    expect((await req(alice, 'POST', `/incidents/${inc.id}/confirm-resolution`, {})).statusCode).toBe(409);
    // Reopened within the grace period and closed again: the result fixed at the first closure stays.
    clock = T0 + 400 * MIN;
    const re = await req(alice, 'POST', `/incidents/${inc.id}/reopen`, { reason: 'Ha vuelto a pasar' });
    expect(re.statusCode, re.body).toBe(200);
    expect(bodyOf<Incident>(re)).toMatchObject({ status: 'in_progress', slaResult: 'breached', resolvedAt: null });
    expect((await req(soc, 'PATCH', `/incidents/${inc.id}`, { version: await v(), status: 'resolved' }, asStaff('acme'))).statusCode).toBe(200);
    expect((await req(alice, 'POST', `/incidents/${inc.id}/confirm-resolution`, {})).statusCode).toBe(200);
    expect(await detail(inc.id)).toMatchObject({ status: 'closed', slaResult: 'breached' });
    const reportAfter = bodyOf<Report>(await call(reports, { method: 'GET', path: '/reports', caller: alice }));
    expect(reportAfter.sla.resolvedWithinSla).toBe(reportBefore.sla.resolvedWithinSla);
  });

  it('refuses a reopen after the grace period', async () => {
    clock = T0;
    const inc = await open(alice, 'low');
    expect((await req(soc, 'PATCH', `/incidents/${inc.id}`, { version: 1, status: 'in_progress', triage: { severity: 'low', reason: 'Confirmado' } }, asStaff('acme'))).statusCode).toBe(200);
    expect((await req(soc, 'PATCH', `/incidents/${inc.id}`, { version: 2, status: 'resolved' }, asStaff('acme'))).statusCode).toBe(200);
    clock = T0 + 8 * 24 * 60 * MIN;
    const r = await req(alice, 'POST', `/incidents/${inc.id}/reopen`, { reason: 'Sigue pasando' });
    expect(r.statusCode, r.body).toBe(409);
    expect(bodyOf<{ details: { graceDays: number } }>(r).details.graceDays).toBe(7);
  });
});

describe('SOC queue', () => {
  it('lists open incidents of every tenant by SLA due time, with filters and cursors', async () => {
    clock = T0 + 9 * 24 * 60 * MIN;
    const a = await open(alice, 'critical', 'Ransomware');
    const b = await open(carol, 'low', 'Spam');
    const get = async (query: Q) => {
      // By SLA due time alone (`sort=due`; the default ranked order: test/integration/api-soc-queue.test.ts).
      const r = await call(incidents, { method: 'GET', path: '/soc/queue', caller: soc, query: { sort: 'due', ...query } });
      expect(r.statusCode, r.body).toBe(200);
      return bodyOf<Page<Incident & { minutesToBreach: number }>>(r);
    };
    const all = await get({ limit: '100' });
    const dues = all.items.map((i) => i.slaDueAt);
    expect(dues).toEqual([...dues].sort());
    expect(all.items.every((i) => i.status !== 'closed')).toBe(true);
    expect(all.items.map((i) => `${i.tenantId}/${i.id}`)).toEqual(expect.arrayContaining([`acme/${a.id}`, `initech/${b.id}`]));
    expect(all.items.find((i) => i.id === a.id && i.tenantId === 'acme')!.minutesToBreach).toBe(4 * 60);
    expect((await get({ tenant: 'initech', limit: '100' })).items.every((i) => i.tenantId === 'initech')).toBe(true);
    expect((await get({ severity: 'critical', limit: '100' })).items.map((i) => i.id)).toEqual([a.id]);
    // Assigned to me.
    expect((await req(soc, 'PATCH', `/incidents/${b.id}`, { version: 1, assignee: 'soc@vigia.example' }, asStaff('initech'))).statusCode).toBe(200);
    expect((await get({ mine: 'true', limit: '100' })).items.map((i) => `${i.tenantId}/${i.id}`)).toEqual([`initech/${b.id}`]);
    // Cursor paging walks the same list.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const p = await get({ limit: '2', ...(cursor ? { cursor } : {}) });
      seen.push(...p.items.map((i) => `${i.tenantId}/${i.id}`));
      cursor = p.nextCursor;
    } while (cursor);
    expect(seen).toEqual((await get({ limit: '100' })).items.map((i) => `${i.tenantId}/${i.id}`));
    expect((await call(incidents, { method: 'GET', path: '/soc/queue', caller: soc, query: { sort: 'due', cursor: 'eyJ4IjoxfQ' } })).statusCode).toBe(400);
  });
});

describe('upgrade of incidents stored before the SLA fields', () => {
  it('fills the fields from the history, queues the open ones, and changes nothing on a second run', async () => {
    const table = { doc: createDocumentClient(api.documentClientOptions()), tableName: TABLE };
    try {
      const legacy = (id: string, status: Incident['status'], resolvedAt: string | null) => ({
        id, tenantId: 'initech', title: 'Antiguo', description: 'd', severity: 'high' as const, status, category: 'general', source: 'portal' as const,
        reporter: 'carol@initech.example', assignee: null, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T10:00:00.000Z', resolvedAt,
        slaDueAt: '2026-01-01T08:00:00.000Z', version: 3,
      });
      const strip = (item: Record<string, unknown>) => {
        for (const k of ['slaTargets', 'triagedAt', 'firstAcknowledgedAt', 'closureRequested', 'closedAt', 'slaResult', 'GSI2PK', 'GSI2SK']) delete item[k];
        return item;
      };
      const hist = (id: string, version: number, at: string, from: string, to: string) =>
        itemOf(HistoryEntity, { tenantId: 'initech', incidentId: id, incidentCreatedAt: '2026-01-01T00:00:00.000Z', version, at, by: 'x', changes: [{ field: 'status', from, to }] });
      const items = [
        strip(itemOf(IncidentEntity, { ...legacy('INC-000900', 'closed', '2026-01-01T09:00:00.000Z') } as Incident)),
        hist('INC-000900', 2, '2026-01-01T00:30:00.000Z', 'new', 'in_progress'),
        hist('INC-000900', 3, '2026-01-01T10:00:00.000Z', 'resolved', 'closed'),
        strip(itemOf(IncidentEntity, { ...legacy('INC-000901', 'in_progress', null) } as Incident)),
        hist('INC-000901', 2, '2026-01-01T00:45:00.000Z', 'new', 'in_progress'),
      ];
      for (const Item of items) await table.doc.send('PutItem', { TableName: TABLE, Item });
      expect(await upgradeIncidents(table)).toBe(2);
      expect(await upgradeIncidents(table)).toBe(0);
      expect(await detail('INC-000900', carol)).toMatchObject({
        firstAcknowledgedAt: '2026-01-01T00:30:00.000Z', closedAt: '2026-01-01T10:00:00.000Z', slaResult: 'breached',
        slaTargets: { responseMinutes: 60, resolutionMinutes: 480 }, closureRequested: false,
      });
      expect(await detail('INC-000901', carol)).toMatchObject({ firstAcknowledgedAt: '2026-01-01T00:45:00.000Z', closedAt: null, slaResult: null });
      const q = bodyOf<Page<Incident>>(await call(incidents, { method: 'GET', path: '/soc/queue', caller: soc, query: { tenant: 'initech', sort: 'due', limit: '100' } }));
      expect(q.items.map((i) => i.id)).toContain('INC-000901');
      expect(q.items.map((i) => i.id)).not.toContain('INC-000900');
    } finally {
      table.doc.destroy();
    }
  });
});

describe('assignee picker', () => {
  it('lists the tenant\u2019s enabled users and the staff (staff first), for staff only', async () => {
    const r = await call(admin, { method: 'GET', path: '/assignees', caller: soc, query: { tenant: 'acme' } });
    expect(r.statusCode, r.body).toBe(200);
    expect(bodyOf<AssigneeList>(r).items.map((a) => [a.email, a.staff])).toEqual([
      ['soc@vigia.example', true],
      ['u-1@acme.example', false],
    ]);
    expect((await call(admin, { method: 'GET', path: '/assignees', caller: alice })).statusCode).toBe(403);
  });

  it('bounds PATCH assignee to that list: anyone else is 400 UNKNOWN_ASSIGNEE naming the field, nothing written', async () => {
    clock = T0;
    const inc = await open(alice);
    for (const who of ['alguien@acme.example', 'baja@acme.example', 'carol@initech.example', 'u-1']) {
      const r = await req(soc, 'PATCH', `/incidents/${inc.id}`, { version: 1, assignee: who, status: 'in_progress' }, asStaff('acme'));
      expect(r.statusCode, who).toBe(400);
      expect(bodyOf<{ code: string; details: unknown }>(r)).toMatchObject({ code: 'UNKNOWN_ASSIGNEE', details: { fields: ['assignee'] } });
    }
    expect(await detail(inc.id)).toMatchObject({ version: 1, status: 'new', assignee: null, firstAcknowledgedAt: null });
    expect((await api.repository.audit.listTenant('acme', { limit: 100 })).items.filter((e) => e.target.id === inc.id).map((e) => e.action)).toEqual(['incident.create']);
    // A tenant user (any case; stored as the pool spells it), a staff member, and unassigning are accepted.
    const tenantUser = await req(soc, 'PATCH', `/incidents/${inc.id}`, { version: 1, assignee: 'U-1@Acme.Example' }, asStaff('acme'));
    expect(tenantUser.statusCode, tenantUser.body).toBe(200);
    expect(bodyOf<Incident>(tenantUser).assignee).toBe('u-1@acme.example');
    expect((await req(soc, 'PATCH', `/incidents/${inc.id}`, { version: 2, assignee: 'soc@vigia.example' }, asStaff('acme'))).statusCode).toBe(200);
    expect((await req(soc, 'PATCH', `/incidents/${inc.id}`, { version: 3, assignee: null }, asStaff('acme'))).statusCode).toBe(200);
    // A customer naming even a valid assignee is refused as a role error (403), before any pool read.
    poolReads.length = 0;
    const customer = await req(alice, 'PATCH', `/incidents/${inc.id}`, { version: 4, assignee: 'u-1@acme.example' });
    expect(customer.statusCode).toBe(403);
    expect(bodyOf<{ code: string }>(customer).code).toBe('FORBIDDEN');
    // Changes without a new assignee, and stale versions, do not read the pool either.
    expect((await req(soc, 'PATCH', `/incidents/${inc.id}`, { version: 4, category: 'malware' }, asStaff('acme'))).statusCode).toBe(200);
    expect((await req(soc, 'PATCH', `/incidents/${inc.id}`, { version: 1, assignee: 'nadie@acme.example' }, asStaff('acme'))).statusCode).toBe(409);
    expect(poolReads).toEqual([]);
  });

  it('bounds the assignee of an incident staff file the same way; customers may not name one at all', async () => {
    const bad = await call(incidents, { method: 'POST', path: '/incidents', caller: soc, query: asStaff('acme'), body: { title: 'Malware detectado', description: 'd', severity: 'low', assignee: 'carol@initech.example' } });
    expect(bad.statusCode).toBe(400);
    expect(bodyOf<{ code: string; details: unknown }>(bad)).toMatchObject({ code: 'UNKNOWN_ASSIGNEE', details: { fields: ['assignee'] } });
    const ok = await call(incidents, { method: 'POST', path: '/incidents', caller: soc, query: asStaff('initech'), body: { title: 'Malware detectado', description: 'd', severity: 'low', assignee: 'carol@initech.example' } });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(bodyOf<Incident>(ok).assignee).toBe('carol@initech.example');
    const customer = await call(incidents, { method: 'POST', path: '/incidents', caller: alice, body: { title: 'Malware detectado', description: 'd', severity: 'low', assignee: 'u-1@acme.example' } });
    expect(customer.statusCode).toBe(403);
  });
});
