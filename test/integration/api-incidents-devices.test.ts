/**
 * End-to-end over the REAL handler functions and a real engine: dynoxide in memory on a random port,
 * the application table created by `ensureTable`, API Gateway-shaped events with string claims.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startInProcessApi, type InProcessApi } from '../support/in-process-api.js';
import type { ApiHandler } from '../../lambdas/http/api.js';
import type { Incident, IncidentDetail, Page, Device, Me } from '../../lambdas/contract/schemas.js';
import { bodyOf, headerOf, type CallerSpec } from '../support/events.js';

const TABLE = 'vigia-test-main';
const ORIGIN = 'http://localhost:5173';

const alice: CallerSpec = { sub: 'sub-alice', groups: ['acme'] };
const bob: CallerSpec = { sub: 'sub-bob', groups: ['globex'], groupsForm: 'bracket' };
const carol: CallerSpec = { sub: 'sub-carol', groups: ['admin'] };
const dave: CallerSpec = { sub: 'sub-dave', groups: ['acme', 'globex'], groupsForm: 'space' };
const erin: CallerSpec = { sub: 'sub-erin', groups: [] };

let api: InProcessApi;
let incidents: ApiHandler;
let devices: ApiHandler;
let account: ApiHandler;


beforeAll(async () => {
  api = await startInProcessApi({ table: TABLE, config: { allowedOrigins: ['https://portal.example.com', ORIGIN] } });
  const { data } = api;
  incidents = api.handler('incidents');
  devices = api.handler('devices');
  account = api.handler('account');

  await data.putTenant({ id: 'acme', name: 'Acme Corp' });
  await data.putTenant({ id: 'globex', name: 'Globex' });
  await data.putTenant({ id: 'acme', name: 'Acme Corp' }); // idempotent

  const now = Date.now();
  const iso = (msAgo: number) => new Date(now - msAgo).toISOString();
  const base = { tenantId: 'acme', type: 'firewall', site: 'Madrid', ipAddress: '10.0.0.1', vendor: 'Fortinet', model: 'FG-60F' };
  await data.putDevice({ ...base, id: 'dev-1', name: 'fw-a', lastHeartbeatAt: iso(60_000) });
  await data.putDevice({ ...base, id: 'dev-2', name: 'fw-b', lastHeartbeatAt: iso(10 * 60_000) });
  await data.putDevice({ ...base, id: 'dev-3', name: 'fw-c', lastHeartbeatAt: iso(3_600_000) });
  await data.putDevice({ ...base, id: 'dev-4', name: 'fw-d' });
  await data.putDevice({ ...base, tenantId: 'globex', id: 'dev-9', name: 'gx-fw' });
  expect(await data.recordHeartbeat({ tenantId: 'acme', deviceId: 'dev-3', at: iso(2 * 3_600_000) })).toBe(false); // older: ignored
  expect(await data.recordHeartbeat({ tenantId: 'acme', deviceId: 'nope', at: iso(0) })).toBe(false);
  const day = (daysAgo: number) => new Date(now - daysAgo * 86_400_000).toISOString().slice(0, 10);
  await data.putDailyAvailability({ tenantId: 'acme', deviceId: 'dev-1', date: day(0), availablePct: 100 });
  await data.putDailyAvailability({ tenantId: 'acme', deviceId: 'dev-1', date: day(1), availablePct: 50 });
  await data.putDailyAvailability({ tenantId: 'acme', deviceId: 'dev-1', date: day(40), availablePct: 0 });
  const alarm = { tenantId: 'acme', deviceId: 'dev-1', severity: 'high' as const, title: 'CPU' };
  await data.putAlarm({ ...alarm, id: 'a1', raisedAt: iso(1000), state: 'active' });
  await data.putAlarm({ ...alarm, id: 'a2', raisedAt: iso(2000), state: 'acknowledged' });
  await data.putAlarm({ ...alarm, id: 'a3', raisedAt: iso(3000), state: 'cleared', clearedAt: iso(500) });
});

afterAll(async () => {
  await api?.stop();
});

describe('incidents API over dynoxide', () => {
  const created: Incident[] = [];

  it('creates incidents with per-tenant ids and SLA due dates', async () => {
    for (let i = 0; i < 23; i++) {
      const r = await call(incidents, {
        method: 'POST',
        path: '/incidents',
        caller: alice,
        body: { title: `Phishing campaign ${i}`, description: 'Users reported mails', severity: i % 2 ? 'high' : 'critical' },
      });
      expect(r.statusCode, r.body).toBe(201);
      expect(headerOf(r, 'content-type')).toMatch(/^application\/json/);
      created.push(bodyOf<Incident>(r));
    }
    expect(created[0]!.id).toBe('INC-000001');
    expect(created[22]!.id).toBe('INC-000023');
    const c = created[0]!;
    expect(Date.parse(c.slaDueAt) - Date.parse(c.createdAt)).toBe(4 * 3_600_000);
    expect(c).toMatchObject({ status: 'new', version: 1, tenantId: 'acme', reporter: 'sub-alice@example.com', category: 'general' });
    // another tenant's counter is independent
    const g = await call(incidents, { method: 'POST', path: '/incidents', caller: bob, body: { title: 'Globex one', description: 'x', severity: 'low' } });
    expect(bodyOf<Incident>(g).id).toBe('INC-000001');
  });

  it('lists newest first and paginates over every item exactly once', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const q: Record<string, string> = { limit: '10', ...(cursor ? { cursor } : {}) };
      const r = await call(incidents, { method: 'GET', path: '/incidents', caller: alice, query: q });
      expect(r.statusCode, r.body).toBe(200);
      const page = bodyOf<Page<Incident>>(r);
      seen.push(...page.items.map((i) => i.id));
      cursor = page.nextCursor;
      pages++;
    } while (cursor && pages < 10);
    expect(seen).toHaveLength(23);
    expect(new Set(seen).size).toBe(23);
    expect(seen).toEqual(created.map((c) => c.id).reverse());
    expect(seen).not.toContain(undefined);
  });

  it('gets, updates with a comment (history from → to), rejects a stale version without losing data', async () => {
    const id = 'INC-000003';
    const g = await call(incidents, { method: 'GET', path: `/incidents/${id}`, caller: alice });
    expect(g.statusCode).toBe(200);
    expect(bodyOf<IncidentDetail>(g)).toMatchObject({ id, version: 1, comments: [], history: [] });

    // Provider statuses are the SOC's (docs/api.md#incident-roles): carol is staff.
    const u = await call(incidents, {
      method: 'PATCH',
      path: `/incidents/${id}`,
      caller: carol,
      query: { tenant: 'acme' },
      // Triage first (docs/sla.md#triage-first): the acknowledgement confirms the reported severity.
      body: { version: 1, status: 'in_progress', comment: 'Looking into it', triage: { severity: 'critical', reason: 'Confirmed' } },
    });
    expect(u.statusCode, u.body).toBe(200);
    expect(bodyOf<Incident>(u)).toMatchObject({ version: 2, status: 'in_progress' });

    const stale = await call(incidents, { method: 'PATCH', path: `/incidents/${id}`, caller: dave, query: { tenant: 'acme' }, body: { version: 1, description: 'stale edit' } });
    expect(stale.statusCode).toBe(409);
    expect(bodyOf(stale)).toMatchObject({ code: 'VERSION_CONFLICT', details: { currentVersion: 2 } });

    const bad = await call(incidents, { method: 'PATCH', path: `/incidents/${id}`, caller: carol, query: { tenant: 'acme' }, body: { version: 2, status: 'closed' } });
    expect(bad.statusCode).toBe(409);
    expect(bodyOf(bad)).toMatchObject({ code: 'INVALID_TRANSITION', details: { from: 'in_progress', to: 'closed', allowed: ['on_hold', 'resolved'] } });

    const c = await call(incidents, { method: 'POST', path: `/incidents/${id}/comments`, caller: alice, body: { body: 'Second note' } });
    expect(c.statusCode, c.body).toBe(201);

    const after = bodyOf<IncidentDetail>(await call(incidents, { method: 'GET', path: `/incidents/${id}`, caller: alice }));
    expect(after.version).toBe(2);
    expect(after.severity).toBe('critical');
    expect(after.history).toEqual([
      {
        version: 2,
        at: after.updatedAt,
        by: 'sub-carol@example.com',
        bySub: 'sub-carol',
        changes: [{ field: 'slaTargets', from: null, to: 'response 15 min, resolution 240 min' }, { field: 'status', from: 'new', to: 'in_progress' }],
        reason: 'Confirmed',
      },
    ]);
    expect(after.comments.map((x) => x.body)).toEqual(['Looking into it', 'Second note']);

    const res = await call(incidents, { method: 'PATCH', path: `/incidents/${id}`, caller: carol, query: { tenant: 'acme' }, body: { version: 2, status: 'resolved' } });
    expect(bodyOf<Incident>(res).resolvedAt).not.toBeNull();
  });

  it('lets an admin pick any existing tenant and asks callers with several tenants to choose', async () => {
    const none = await call(incidents, { method: 'GET', path: '/incidents', caller: carol });
    expect(bodyOf(none)).toMatchObject({ code: 'TENANT_REQUIRED' });
    expect(none.statusCode).toBe(400);
    const acme = await call(incidents, { method: 'GET', path: '/incidents', caller: carol, query: { tenant: 'acme', limit: '100' } });
    expect(bodyOf<Page<Incident>>(acme).items).toHaveLength(23);
    const missing = await call(incidents, { method: 'GET', path: '/incidents', caller: carol, query: { tenant: 'initech' } });
    expect(missing.statusCode).toBe(404);
    const several = await call(incidents, { method: 'GET', path: '/incidents', caller: dave });
    expect(several.statusCode).toBe(400);
    const chosen = await call(incidents, { method: 'GET', path: '/incidents', caller: dave, query: { tenant: 'globex' } });
    expect(bodyOf<Page<Incident>>(chosen).items).toHaveLength(1);
    const noGroup = await call(incidents, { method: 'GET', path: '/incidents', caller: erin });
    expect(noGroup.statusCode).toBe(403);
    const noClaims = await call(incidents, { method: 'GET', path: '/incidents', caller: null });
    expect(noClaims.statusCode).toBe(401);
  });

  it('maps client mistakes to 4xx with per-field details', async () => {
    const unknown = await call(incidents, { method: 'POST', path: '/incidents', caller: alice, body: { title: 'abc', description: 'd', severity: 'urgent', tenantId: 'globex' } });
    expect(unknown.statusCode).toBe(400);
    const details = (bodyOf(unknown) as { details: { path: string }[] }).details.map((d) => d.path).sort();
    expect(details).toEqual(['body.severity', 'body.tenantId']);
    const big = await call(incidents, { method: 'POST', path: '/incidents', caller: alice, body: { title: 'abc', description: 'x'.repeat(20_000), severity: 'low' } });
    expect([big.statusCode, bodyOf(big).code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    const text = await call(incidents, { method: 'POST', path: '/incidents', caller: alice, body: '{}', headers: { 'content-type': 'text/plain' } });
    expect(text.statusCode).toBe(415);
    const broken = await call(incidents, { method: 'POST', path: '/incidents', caller: alice, body: '{"title":', headers: { 'Content-Type': 'application/json; charset=utf-8' } });
    expect([broken.statusCode, bodyOf(broken).code]).toEqual([400, 'INVALID_JSON']);
    const badId = await call(incidents, { method: 'GET', path: '/incidents/INC-12', caller: alice });
    expect(badId.statusCode).toBe(400);
    expect(bodyOf(badId)).toMatchObject({ details: [{ path: 'path.id' }] });
    const noRoute = await call(incidents, { method: 'DELETE', path: '/incidents/INC-000001', caller: alice });
    expect(noRoute.statusCode).toBe(404);
  });

  it('answers CORS only for allowed origins', async () => {
    const ok = await call(incidents, { method: 'GET', path: '/incidents', caller: alice, headers: { Origin: ORIGIN } });
    expect(headerOf(ok, 'access-control-allow-origin')).toBe(ORIGIN);
    const err = await call(incidents, { method: 'GET', path: '/incidents', caller: bob, query: { tenant: 'acme' }, headers: { Origin: ORIGIN } });
    expect(headerOf(err, 'access-control-allow-origin')).toBe(ORIGIN);
    const evil = await call(incidents, { method: 'GET', path: '/incidents', caller: alice, headers: { Origin: 'https://evil.example' } });
    expect(headerOf(evil, 'access-control-allow-origin')).toBeUndefined();
  });
});

describe('devices and account API over dynoxide', () => {
  it('lists devices by name with derived status, 30-day availability and open alarms', async () => {
    const r = await call(devices, { method: 'GET', path: '/devices', caller: alice });
    expect(r.statusCode, r.body).toBe(200);
    const page = bodyOf<Page<Device>>(r);
    expect(page.items.map((d) => [d.id, d.status])).toEqual([
      ['dev-1', 'online'],
      ['dev-2', 'degraded'],
      ['dev-3', 'offline'],
      ['dev-4', 'unknown'],
    ]);
    expect(page.items[0]).toMatchObject({ availability30d: 75, openAlarms: 2, type: 'firewall' });
    expect(page.items[3]).toMatchObject({ availability30d: null, openAlarms: 0, lastHeartbeatAt: null });
    const p1 = bodyOf<Page<Device>>(await call(devices, { method: 'GET', path: '/devices', caller: alice, query: { limit: '3' } }));
    const p2 = bodyOf<Page<Device>>(await call(devices, { method: 'GET', path: '/devices', caller: alice, query: { limit: '3', cursor: p1.nextCursor! } }));
    expect([...p1.items, ...p2.items].map((d) => d.id)).toEqual(['dev-1', 'dev-2', 'dev-3', 'dev-4']);
    const gx = bodyOf<Page<Device>>(await call(devices, { method: 'GET', path: '/devices', caller: bob }));
    expect(gx.items.map((d) => d.id)).toEqual(['dev-9']);
  });

  it('describes the caller and lists tenants for admins only', async () => {
    const me = bodyOf<Me>(await call(account, { method: 'GET', path: '/me', caller: dave }));
    expect(me).toEqual({
      sub: 'sub-dave',
      email: 'sub-dave@example.com',
      groups: ['acme', 'globex'],
      // A user of the pool's own sign-in, not of a company's identity provider (docs/api.md#me).
      federated: false,
      isAdmin: false,
      tenants: [{ id: 'acme', name: 'Acme Corp' }, { id: 'globex', name: 'Globex' }],
      // In no role group: an operator (docs/api.md#customer-roles).
      role: 'operator',
    });
    const viewer = bodyOf<Me>(await call(account, { method: 'GET', path: '/me', caller: { ...dave, groups: ['acme', 'customer-viewer'] } }));
    expect(viewer).toMatchObject({ role: 'viewer', tenants: [{ id: 'acme', name: 'Acme Corp' }] });
    const admin = bodyOf<Me>(await call(account, { method: 'GET', path: '/me', caller: carol }));
    expect(admin.isAdmin).toBe(true);
    expect(admin.role).toBeUndefined();
    expect(admin.tenants.map((t) => t.id)).toEqual(['acme', 'globex']);
    expect((await call(account, { method: 'GET', path: '/me', caller: erin })).statusCode).toBe(403);
    expect((await call(account, { method: 'GET', path: '/tenants', caller: alice })).statusCode).toBe(403);
    const t = await call(account, { method: 'GET', path: '/tenants', caller: carol });
    expect(bodyOf(t)).toEqual({ items: [{ id: 'acme', name: 'Acme Corp' }, { id: 'globex', name: 'Globex' }] });
  });

  it('really talks to the engine named by AWS_ENDPOINT_URL_DYNAMODB', async () => {
    const c = api.rawClient();
    const { ListTablesCommand } = await import('@aws-sdk/client-dynamodb');
    expect((await c.send(new ListTablesCommand({}))).TableNames).toContain(TABLE);
    c.destroy();
  });
});
