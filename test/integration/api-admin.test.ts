/**
 * The admin Lambda per role, in process, over a real DynamoDB engine and the REAL local user pool (its
 * administrative operations signed with the local operator key, as `npm start` wires them): customers get
 * 403 on administration routes; staff create and edit tenants, invite users (FORCE_CHANGE_PASSWORD, in the
 * tenant group), disable/enable, reset MFA, grant/revoke staff; every change writes an audit entry with
 * actor, before/after, request id and source IP, which the tenant's customers read and another tenant's do
 * not; a CSV export of the audit log is itself audited. Every response is checked against the OpenAPI
 * document.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry, PoolUser, Tenant } from '../../lambdas/contract/schemas.js';
import type { UsersPort } from '../../lambdas/domain/ports.js';
import type { ApiHandler } from '../../lambdas/http/api.js';
import { apiEvent, lambdaContext, type CallerSpec } from '../support/events.js';
import { call, type InProcessApi } from '../support/in-process-api.js';
import { startUserPoolApi, type UserPoolApi } from '../support/user-pool-api.js';

const TABLE = 'vigia-admin-main';
const staff: CallerSpec = { sub: 'staff-1', email: 'soc@vigia.example', groups: ['admin'] };
const acmeUser: CallerSpec = { sub: 'u-acme', email: 'ana@acme.example', groups: ['acme'] };
const globexUser: CallerSpec = { sub: 'u-globex', email: 'bob@globex.example', groups: ['globex'] };

let running: UserPoolApi | undefined;
let users: UsersPort;
let api: InProcessApi;
let h: ApiHandler;

const json = <T>(r: { body: string }): T => JSON.parse(r.body) as T;

beforeAll(async () => {
  running = await startUserPoolApi(TABLE, 'admin');
  ({ users, api } = running);
  await users.ensureGroup('acme', 'acme');
  await users.ensureGroup('globex', 'globex');
  await users.ensureGroup('admin', 'staff');
  h = api.handler('admin');
}, 60_000);

afterAll(async () => {
  await running?.stop();
});

describe('admin routes per role', () => {
  it('customers get 403 FORBIDDEN on every administration route', async () => {
    const attempts = [
      { method: 'POST', path: '/tenants', body: { tenantId: 'evil', name: 'Evil' } },
      { method: 'PATCH', path: '/tenants/acme', body: { name: 'Mine' } },
      { method: 'GET', path: '/tenants/acme/users' },
      { method: 'POST', path: '/tenants/acme/users', body: { email: 'x@acme.example' } },
      { method: 'PUT', path: '/staff/u-acme' },
      { method: 'GET', path: '/staff' },
    ];
    for (const a of attempts) {
      const r = await call(h, { ...a, caller: acmeUser });
      expect(r.statusCode, `${a.method} ${a.path}`).toBe(403);
      expect(json<{ code: string }>(r).code).toBe('FORBIDDEN');
    }
  });

  it('staff create a tenant (its group exists) and edit its contract targets; both audited in the tenant log', async () => {
    const created = await call(h, { method: 'POST', path: '/tenants', caller: staff, body: { tenantId: 'initech', name: 'Initech' } });
    expect(created.statusCode).toBe(201);
    expect(json<Tenant>(created)).toEqual({ id: 'initech', name: 'Initech' });
    const again = await call(h, { method: 'POST', path: '/tenants', caller: staff, body: { tenantId: 'initech', name: 'Otra' } });
    expect(again.statusCode).toBe(409);

    const ev = apiEvent({
      method: 'PATCH',
      path: '/tenants/initech',
      caller: staff,
      body: { name: 'Initech S.A.', slaTargets: { critical: { responseMinutes: 10, resolutionMinutes: 120 } }, availabilityTargetPct: 99.5 },
    });
    ev.requestContext.identity = { ...ev.requestContext.identity, sourceIp: '198.51.100.7' };
    const patched = await h(ev, lambdaContext);
    expect(patched.statusCode).toBe(200);
    expect(json<Tenant>(patched)).toMatchObject({ name: 'Initech S.A.', availabilityTargetPct: 99.5, slaTargets: { critical: { responseMinutes: 10 } } });
    const got = await call(h, { method: 'GET', path: '/tenants/initech', caller: staff });
    expect(json<Tenant>(got).slaTargets?.critical).toEqual({ responseMinutes: 10, resolutionMinutes: 120 });

    const log = await call(h, { method: 'GET', path: '/audit', caller: staff, query: { tenant: 'initech' } });
    const items = json<{ items: AuditEntry[] }>(log).items;
    expect(items.map((e) => e.action)).toEqual(['tenant.update', 'tenant.create']);
    expect(items[0]).toMatchObject({
      tenantId: 'initech',
      actor: { sub: 'staff-1', email: 'soc@vigia.example' },
      target: { type: 'tenant', id: 'initech' },
      before: { name: 'Initech' },
      after: { name: 'Initech S.A.', availabilityTargetPct: 99.5 },
    });
    expect(items[0]!.requestId).toMatch(/^req-/);
    expect(items[0]!.sourceIp).toBe('198.51.100.7');
  });

  it('staff invite a user: it exists in the local pool in FORCE_CHANGE_PASSWORD, in the tenant group; disable/enable; reset MFA', async () => {
    const invited = await call(h, { method: 'POST', path: '/tenants/acme/users', caller: staff, body: { email: 'Nuevo@Acme.example' } });
    expect(invited.statusCode).toBe(201);
    const user = json<PoolUser>(invited);
    expect(user).toMatchObject({ email: 'nuevo@acme.example', status: 'FORCE_CHANGE_PASSWORD', enabled: true, mfa: false });
    expect(await users.groupsOf(user.username)).toContain('acme');
    // Offline, the temporary password is written where `npm start` says, not e-mailed.
    const invitations = () => readFile(running!.invitationsFile, 'utf8');
    expect(await invitations()).toMatch(/ nuevo@acme\.example user \S+ temporary password Tmp-\S+/);
    const resent = await call(h, { method: 'POST', path: `/users/${encodeURIComponent(user.username)}/resend-invitation`, caller: staff });
    expect(resent.statusCode).toBe(200);
    expect(json<PoolUser>(resent).status).toBe('FORCE_CHANGE_PASSWORD');
    expect((await invitations()).match(/nuevo@acme\.example/g)).toHaveLength(2);

    const list = await call(h, { method: 'GET', path: '/tenants/acme/users', caller: staff });
    expect(json<{ items: PoolUser[] }>(list).items.map((u) => u.email)).toContain('nuevo@acme.example');

    const disabled = await call(h, { method: 'POST', path: `/users/${encodeURIComponent(user.username)}/enabled`, caller: staff, body: { enabled: false } });
    expect(json<PoolUser>(disabled).enabled).toBe(false);
    expect((await users.getUser(user.username))?.enabled).toBe(false);
    const enabled = await call(h, { method: 'POST', path: `/users/${encodeURIComponent(user.username)}/enabled`, caller: staff, body: { enabled: true } });
    expect(json<PoolUser>(enabled).enabled).toBe(true);

    const reset = await call(h, { method: 'POST', path: `/users/${encodeURIComponent(user.username)}/reset-mfa`, caller: staff });
    expect(reset.statusCode).toBe(200);
    expect(json<PoolUser>(reset).mfa).toBe(false);

    // The tenant's customers see these entries; another tenant's customers do not.
    const acmeLog = json<{ items: AuditEntry[] }>(await call(h, { method: 'GET', path: '/audit', caller: acmeUser })).items;
    expect(acmeLog.map((e) => e.action)).toEqual(expect.arrayContaining(['user.invite', 'user.resend_invitation', 'user.disable', 'user.enable', 'user.reset_mfa']));
    expect(acmeLog.find((e) => e.action === 'user.disable')).toMatchObject({ before: { enabled: true }, after: { enabled: false }, target: { type: 'user', id: user.username } });
    const globexLog = json<{ items: AuditEntry[] }>(await call(h, { method: 'GET', path: '/audit', caller: globexUser })).items;
    expect(globexLog.filter((e) => e.tenantId !== 'globex')).toEqual([]);
    expect(globexLog.some((e) => e.target.id === user.username)).toBe(false);
    const forbidden = await call(h, { method: 'GET', path: '/audit', caller: globexUser, query: { tenant: 'acme' } });
    expect(forbidden.statusCode).toBe(403);
  });

  it('the assignee list and the incidents Lambda\u2019s assignee check read the real pool: a disabled user is neither listed nor assignable', async () => {
    const u = json<PoolUser>(await call(h, { method: 'POST', path: '/tenants/globex/users', caller: staff, body: { email: 'turno@globex.example' } }));
    const emails = async () => json<{ items: Array<{ email: string }> }>(await call(h, { method: 'GET', path: '/assignees', caller: staff, query: { tenant: 'globex' } })).items.map((a) => a.email);
    expect(await emails()).toContain('turno@globex.example');
    const incidents = api.handler('incidents');
    const opened = await call(incidents, { method: 'POST', path: '/incidents', caller: staff, query: { tenant: 'globex' }, body: { title: 'Phishing reportado', description: 'd', severity: 'low', assignee: 'turno@globex.example' } });
    expect(opened.statusCode, opened.body).toBe(201);
    const id = json<{ id: string }>(opened).id;
    await call(h, { method: 'POST', path: `/users/${encodeURIComponent(u.username)}/enabled`, caller: staff, body: { enabled: false } });
    expect(await emails()).not.toContain('turno@globex.example');
    const unassign = await call(incidents, { method: 'PATCH', path: `/incidents/${id}`, caller: staff, query: { tenant: 'globex' }, body: { version: 1, assignee: null } });
    expect(unassign.statusCode, unassign.body).toBe(200);
    const again = await call(incidents, { method: 'PATCH', path: `/incidents/${id}`, caller: staff, query: { tenant: 'globex' }, body: { version: 2, assignee: 'turno@globex.example' } });
    expect(again.statusCode).toBe(400);
    expect(json<{ code: string; details: unknown }>(again)).toMatchObject({ code: 'UNKNOWN_ASSIGNEE', details: { fields: ['assignee'] } });
  });

  it('staff grant and revoke staff membership (not their own), audited in the staff log', async () => {
    const invited = json<PoolUser>(await call(h, { method: 'POST', path: '/tenants/globex/users', caller: staff, body: { email: 'analista@globex.example' } }));
    const granted = await call(h, { method: 'PUT', path: `/staff/${encodeURIComponent(invited.username)}`, caller: staff });
    expect(granted.statusCode).toBe(200);
    expect(await users.groupsOf(invited.username)).toContain('admin');
    const staffList = json<{ items: PoolUser[] }>(await call(h, { method: 'GET', path: '/staff', caller: staff })).items;
    expect(staffList.map((u) => u.username)).toContain(invited.username);
    const revoked = await call(h, { method: 'DELETE', path: `/staff/${encodeURIComponent(invited.username)}`, caller: staff });
    expect(revoked.statusCode).toBe(200);
    expect(await users.groupsOf(invited.username)).not.toContain('admin');

    const all = json<{ items: AuditEntry[] }>(await call(h, { method: 'GET', path: '/audit', caller: staff, query: { action: 'staff.grant' } })).items;
    expect(all[0]).toMatchObject({ tenantId: '_staff', action: 'staff.grant', target: { id: invited.username } });
  });

  it('a CSV export of the audit log is a download and writes an export.audit entry', async () => {
    const csv = await call(h, { method: 'GET', path: '/audit', caller: acmeUser, query: { format: 'csv' } });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers?.['Content-Type'] ?? csv.headers?.['content-type']).toMatch(/text\/csv/);
    expect(csv.body.split('\r\n')[0]).toBe('at,tenantId,actorSub,actorEmail,action,targetType,targetId,before,after,requestId,sourceIp');
    const log = json<{ items: AuditEntry[] }>(await call(h, { method: 'GET', path: '/audit', caller: acmeUser, query: { action: 'export.audit' } })).items;
    expect(log[0]).toMatchObject({ tenantId: 'acme', actor: { sub: 'u-acme' }, action: 'export.audit' });
  });

  it('staff read every tenant newest first on one index, with cursor pages', async () => {
    const first = json<{ items: AuditEntry[]; nextCursor: string | null }>(await call(h, { method: 'GET', path: '/audit', caller: staff, query: { limit: '2' } }));
    expect(first.items).toHaveLength(2);
    expect(first.nextCursor).not.toBeNull();
    const second = json<{ items: AuditEntry[] }>(await call(h, { method: 'GET', path: '/audit', caller: staff, query: { limit: '2', cursor: first.nextCursor! } }));
    expect(second.items[0]!.at <= first.items[1]!.at).toBe(true);
    expect(new Set([...first.items, ...second.items].map((e) => e.tenantId)).size).toBeGreaterThanOrEqual(1);
    const bad = await call(h, { method: 'GET', path: '/audit', caller: staff, query: { cursor: 'eyJzIjoiVEVOQU5UI2FjbWUjQVVESVQiLCJrIjp7fX0' } });
    expect(bad.statusCode).toBe(400);
  });

  it('staff list tenants with user counts (members of the tenant group) and device counts; customers get 403', async () => {
    expect((await call(h, { method: 'POST', path: '/tenants', caller: staff, body: { tenantId: 'umbrella', name: 'Umbrella' } })).statusCode).toBe(201);
    for (const id of ['fw-1', 'sw-1', 'ap-1']) {
      await api.data.putDevice({ tenantId: 'umbrella', id, name: id, type: 'firewall', site: 'Lima', ipAddress: '10.1.0.1', vendor: 'Fortinet', model: 'FG-60F' });
    }
    for (const email of ['uno@umbrella.example', 'dos@umbrella.example']) {
      expect((await call(h, { method: 'POST', path: '/tenants/umbrella/users', caller: staff, body: { email } })).statusCode).toBe(201);
    }
    const r = await call(h, { method: 'GET', path: '/admin/tenants', caller: staff, query: { limit: '100' } });
    expect(r.statusCode).toBe(200);
    const items = json<{ items: Array<Tenant & { userCount?: number; deviceCount?: number }> }>(r).items;
    expect(items.map((t) => t.id)).toEqual([...items.map((t) => t.id)].sort());
    expect(items.find((t) => t.id === 'umbrella')).toEqual({ id: 'umbrella', name: 'Umbrella', userCount: 2, deviceCount: 3 });
    // Registered with putTenant (no aggregates) and members added around the API: no count until the backfill
    // (docs/data-model.md#tenant-counts); the list never counts per view.
    expect(items.find((t) => t.id === 'globex')).not.toHaveProperty('deviceCount');
    const forbidden = await call(h, { method: 'GET', path: '/admin/tenants', caller: acmeUser });
    expect(forbidden.statusCode).toBe(403);
  });

  it('customer writes and exports elsewhere are audited in the same request: recommendation update, alarm acknowledge, report CSV', async () => {
    const now = new Date().toISOString();
    await api.data.putDevice({ tenantId: 'acme', id: 'fw-9', name: 'fw-9', type: 'firewall', site: 'Madrid', ipAddress: '10.0.0.9', vendor: 'Fortinet', model: 'FG-60F' });
    await api.data.putAlarm({ tenantId: 'acme', deviceId: 'fw-9', id: 'al-9', title: 'CPU', severity: 'high', state: 'active', raisedAt: now });
    await api.data.putRecommendation({ id: 'rec-9', tenantId: 'acme', title: 'MFA', rationale: 'r', priority: 'high', category: 'identity', status: 'open', createdAt: now, statusNote: null, statusChangedBy: null, statusChangedAt: null });

    const ack = await call(api.handler('devices'), { method: 'POST', path: '/devices/fw-9/alarms/al-9/acknowledge', caller: acmeUser });
    expect(ack.statusCode).toBe(200);
    const rec = await call(api.handler('recommendations'), { method: 'PATCH', path: '/recommendations/rec-9', caller: acmeUser, body: { status: 'accepted', note: 'Vale' } });
    expect(rec.statusCode).toBe(200);
    expect(json<{ status: string }>(rec).status).toBe('accepted');
    const csv = await call(api.handler('reports'), { method: 'GET', path: '/reports', caller: acmeUser, query: { format: 'csv' } });
    expect(csv.statusCode).toBe(200);
    const again = await call(api.handler('devices'), { method: 'POST', path: '/devices/fw-9/alarms/al-9/acknowledge', caller: acmeUser });
    expect(again.statusCode).toBe(409);

    const log = json<{ items: AuditEntry[] }>(await call(h, { method: 'GET', path: '/audit', caller: acmeUser })).items;
    const by = (a: string) => log.filter((e) => e.action === a);
    expect(by('alarm.acknowledge')).toHaveLength(1); // the refused second acknowledgement wrote nothing
    expect(by('alarm.acknowledge')[0]).toMatchObject({ target: { type: 'alarm', id: 'fw-9/al-9' }, before: { state: 'active' }, after: { state: 'acknowledged' } });
    expect(by('recommendation.update')[0]).toMatchObject({ target: { id: 'rec-9' }, before: { status: 'open' }, after: { status: 'accepted', note: 'Vale' } });
    expect(by('export.report')[0]).toMatchObject({ actor: { sub: 'u-acme' }, after: { format: 'csv' } });
  });
});
