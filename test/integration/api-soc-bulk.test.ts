/**
 * Bulk work from the SOC queue (issue 31 point 6; docs/api.md#soc-bulk) over the REAL incidents handler on
 * dynoxide behind the rules proxy, every response checked against the OpenAPI document and every AWS call
 * against the function's IAM role:
 *  - each row is applied on its own as `PATCH /incidents/{id}` would, with its own audit entry; rows of
 *    several tenants in one request;
 *  - a stale version, an unknown id, an untriaged incident moved to a provider status, a transition the
 *    lifecycle refuses: that row's error (the code the single route answers), the others applied, nothing of
 *    the failed row written;
 *  - "close" moves resolved incidents to closed and the SOC queue's tab counts with them;
 *  - a bad envelope (duplicate row, > 25 rows, missing assignee) is 400 and applies nothing; a customer gets
 *    403; staff without TOTP 403 MFA_REQUIRED.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startInProcessApi, type InProcessApi } from '../support/in-process-api.js';
import { bodyOf, type CallerSpec } from '../support/events.js';
import type { ApiHandler } from '../../lambdas/http/api.js';
import type { Incident, PoolUser, SocBulkResult, SocQueuePage } from '../../lambdas/contract/schemas.js';
import type { UsersPort } from '../../lambdas/domain/ports.js';

const TABLE = 'vigia-soc-bulk';
const alice: CallerSpec = { sub: 'sub-alice', email: 'alice@acme.example', groups: ['acme'] };
const bob: CallerSpec = { sub: 'sub-bob', email: 'bob@globex.example', groups: ['globex'] };
const soc: CallerSpec = { sub: 'sub-soc', email: 'soc@vigia.example', groups: ['admin'] };
const T0 = Date.parse('2026-05-04T08:00:00.000Z');
let clock = T0;
let api: InProcessApi;
let incidents: ApiHandler;

const open = async (caller: CallerSpec, title: string) => {
  const r = await call(incidents, { method: 'POST', path: '/incidents', caller, body: { title, description: 'd', severity: 'high' } });
  expect(r.statusCode, r.body).toBe(201);
  return bodyOf<Incident>(r);
};
const bulk = (body: object, caller: CallerSpec = soc) => call(incidents, { method: 'POST', path: '/soc/bulk', caller, body });
const get = async (i: Pick<Incident, 'tenantId' | 'id'>) =>
  bodyOf<Incident>(await call(incidents, { method: 'GET', path: `/incidents/${i.id}`, caller: soc, query: { tenant: i.tenantId } }));
const auditOf = async (i: Pick<Incident, 'tenantId' | 'id'>) => (await api.repository.audit.listTenant(i.tenantId, { limit: 100 })).items.filter((e) => e.target.id === i.id).map((e) => e.action).sort();
const row = (i: Incident, version = i.version) => ({ tenantId: i.tenantId, id: i.id, version });
const counts = async () => bodyOf<SocQueuePage>(await call(incidents, { method: 'GET', path: '/soc/queue', caller: soc, query: { limit: '5' } })).counts;

beforeAll(async () => {
  const user = (username: string, email: string): PoolUser => ({ username, email, status: 'CONFIRMED', enabled: true, mfa: false });
  const groups: Record<string, PoolUser[]> = { acme: [user('u-1', 'alice@acme.example')], globex: [user('u-2', 'bob@globex.example')], admin: [user('u-3', 'soc@vigia.example')] };
  const users = { listGroupMembers: async (g: string) => groups[g] ?? [] } as Partial<UsersPort> as UsersPort;
  api = await startInProcessApi({ table: TABLE, users });
  incidents = api.handler('incidents', { now: () => new Date(clock) });
  await api.data.putTenant({ id: 'acme', name: 'Acme' });
  await api.data.putTenant({ id: 'globex', name: 'Globex' });
});
afterAll(async () => {
  await api?.stop();
});

describe('POST /soc/bulk', () => {
  it('assigns incidents of two tenants, each with its own audit entry; a stale version and an unknown id fail on their own row', async () => {
    const a1 = await open(alice, 'Phishing 1');
    const a2 = await open(alice, 'Phishing 2');
    const g1 = await open(bob, 'Malware 1');
    // a2 moves on in another tab: the bulk request still holds version 1.
    const moved = await call(incidents, { method: 'PATCH', path: `/incidents/${a2.id}`, caller: alice, body: { version: 1, title: 'Phishing 2 (CEO)' } });
    expect(moved.statusCode, moved.body).toBe(200);
    clock += 60_000;
    const r = await bulk({ action: 'assign', assignee: 'soc@vigia.example', items: [row(a1), row(a2), row(g1), { tenantId: 'globex', id: 'INC-999999', version: 1 }] });
    expect(r.statusCode, r.body).toBe(200);
    const out = bodyOf<SocBulkResult>(r);
    expect(out).toMatchObject({ applied: 2, failed: 2 });
    expect(out.results).toEqual([
      { tenantId: 'acme', id: a1.id, ok: true, version: 2 },
      expect.objectContaining({ tenantId: 'acme', id: a2.id, ok: false, code: 'VERSION_CONFLICT' }),
      { tenantId: 'globex', id: g1.id, ok: true, version: 2 },
      expect.objectContaining({ tenantId: 'globex', id: 'INC-999999', ok: false, code: 'NOT_FOUND' }),
    ]);
    expect(await get(a1)).toMatchObject({ assignee: 'soc@vigia.example', version: 2 });
    expect(await get(g1)).toMatchObject({ assignee: 'soc@vigia.example', version: 2 });
    // The stale row wrote nothing.
    expect(await get(a2)).toMatchObject({ assignee: null, version: 2, title: 'Phishing 2 (CEO)' });
    expect(await auditOf(a1)).toEqual(['incident.create', 'incident.update']);
    expect(await auditOf(g1)).toEqual(['incident.create', 'incident.update']);
    expect(await auditOf(a2)).toEqual(['incident.create', 'incident.update']); // the customer's title change only
    // An assignee who is not on the row's tenant's list fails that row (UNKNOWN_ASSIGNEE), as PATCH does.
    const wrong = bodyOf<SocBulkResult>(await bulk({ action: 'assign', assignee: 'bob@globex.example', items: [row(await get(a1)), row(await get(g1))] }));
    expect(wrong.results.map((x) => (x.ok ? 'ok' : x.code))).toEqual(['UNKNOWN_ASSIGNEE', 'ok']);
  });

  it('a status change triage-first per row; close moves resolved incidents to closed and the tab counts with them', async () => {
    const untriaged = await open(alice, 'Sin triaje');
    const triaged = await open(alice, 'Con triaje');
    const t = await call(incidents, { method: 'POST', path: `/incidents/${triaged.id}/triage`, caller: soc, query: { tenant: 'acme' }, body: { version: 1, severity: 'high', reason: 'Confirmado' } });
    expect(t.statusCode, t.body).toBe(200);
    const moved = bodyOf<SocBulkResult>(await bulk({ action: 'status', status: 'in_progress', items: [row(untriaged), row(await get(triaged))] }));
    expect(moved.results.map((x) => (x.ok ? 'ok' : x.code))).toEqual(['TRIAGE_REQUIRED', 'ok']);
    expect(await get(untriaged)).toMatchObject({ status: 'new', version: 1 });
    const resolved = bodyOf<SocBulkResult>(await bulk({ action: 'status', status: 'resolved', items: [row(await get(triaged))] }));
    expect(resolved.applied).toBe(1);
    const before = await counts();
    // Close: the resolved one closes; the new one cannot (new → closed is not a transition).
    const closed = bodyOf<SocBulkResult>(await bulk({ action: 'close', items: [row(await get(triaged)), row(untriaged)] }));
    expect(closed.results.map((x) => (x.ok ? 'ok' : x.code))).toEqual(['ok', 'INVALID_TRANSITION']);
    expect(await get(triaged)).toMatchObject({ status: 'closed' });
    expect(await counts()).toEqual({ open: before.open, resolved: before.resolved - 1 });
    expect(await auditOf(triaged)).toEqual(['incident.create', 'incident.triage', 'incident.update', 'incident.update', 'incident.update'].sort());
  });

  it('refuses a bad envelope with 400 and applies nothing; customers 403; staff without TOTP 403 MFA_REQUIRED', async () => {
    const inc = await open(alice, 'Envelope');
    const dup = await bulk({ action: 'assign', assignee: null, items: [row(inc), row(inc)] });
    expect(dup.statusCode).toBe(400);
    expect(bodyOf<{ code: string }>(dup).code).toBe('VALIDATION_FAILED');
    const many = await bulk({ action: 'close', items: Array.from({ length: 26 }, (_, n) => ({ tenantId: 'acme', id: `INC-${String(n + 1).padStart(6, '0')}`, version: 1 })) });
    expect(many.statusCode).toBe(400);
    expect((await bulk({ action: 'assign', items: [row(inc)] })).statusCode).toBe(400);
    expect((await bulk({ action: 'close', status: 'closed', items: [row(inc)] })).statusCode).toBe(400);
    expect((await bulk({ action: 'archive', items: [row(inc)] })).statusCode).toBe(400);
    expect(await get(inc)).toMatchObject({ version: 1 });
    expect(await auditOf(inc)).toEqual(['incident.create']);
    const customer = await bulk({ action: 'assign', assignee: null, items: [row(inc)] }, alice);
    expect(customer.statusCode).toBe(403);
    const noTotp = await bulk({ action: 'assign', assignee: null, items: [row(inc)] }, { ...soc, mfa: false });
    expect(noTotp.statusCode).toBe(403);
    expect(bodyOf<{ code: string }>(noTotp).code).toBe('MFA_REQUIRED');
  });
});
