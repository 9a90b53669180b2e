/**
 * Access requests (docs/api.md#access-requests) and staff access to oneself: the REAL admin handler in process over a
 * real DynamoDB engine and the REAL local user pool, whose pre token generation trigger records a sign-in of a user
 * in no group (the same trigger code as the deployed pool) through the data layer's `raise`:
 *  - the request is an item listed for staff (pending by default, newest first, paged by cursor); "Conceder" adds the
 *    user to the tenant's Cognito group and user count with its audit entry (naming the user by e-mail); a second
 *    decision is 409 ACCESS_REQUEST_DECIDED, an unknown request or tenant 404, and a decision landing during a grant leaves
 *    no group behind; "Descartar" is audited and a later sign-in raises nothing;
 *  - staff cannot remove their own staff access: 409 OWN_STAFF_ACCESS, nothing changed.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessRequest, AuditEntry, PoolUser, TenantSummary } from '../../lambdas/contract/schemas.js';
import { cognitoUsers } from '../../lambdas/data/cognito-users.js';
import { dismissAccessRequest, grantAccessRequest } from '../../lambdas/domain/access-requests.js';
import type { UsersPort } from '../../lambdas/domain/ports.js';
import type { ApiHandler } from '../../lambdas/http/api.js';
import type { RecordAudit } from '../../lambdas/triggers/pre-token-generation.js';
import { startUserPool, type RunningUserPool } from '../../scripts/local/cognito/index.js';
import { signInWithSrp } from '../../scripts/local/cognito/sign-in.js';
import { LOCAL_OPERATOR_CREDENTIAL } from '../../scripts/local/config.js';
import type { CallerSpec } from '../support/events.js';
import { call, startInProcessApi, type InProcessApi } from '../support/in-process-api.js';

const TABLE = 'vigia-access-requests-main';
const PASSWORD = 'Solicitud-123-Acc';
const staff: CallerSpec = { sub: 'staff-1', email: 'soc@vigia.example', groups: ['admin'] };

let dataDir: string;
let pool: RunningUserPool;
let users: UsersPort;
let api: InProcessApi;
let h: ApiHandler;
let pub: CognitoIdentityProviderClient;
let raise: RecordAudit | undefined;

const json = <T>(r: { body: string }): T => JSON.parse(r.body) as T;
const code = (r: { body: string }) => json<{ code?: string }>(r).code;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'vigia-access-requests-'));
  pool = await startUserPool({ dataDir, port: 0, internalPort: 0, invitationsFile: join(dataDir, 'invitations.log'), recordAudit: (e, r) => raise!(e, r) });
  users = cognitoUsers({ userPoolId: pool.userPoolId, region: 'eu-west-1', endpoint: pool.endpoint, credentials: { ...LOCAL_OPERATOR_CREDENTIAL } });
  api = await startInProcessApi({ table: TABLE, users });
  raise = async (entry, request) => void (await api.repository.accessRequests.raise(request, entry));
  for (const [id, name] of [['acme', 'Acme'], ['globex', 'Globex']] as const) {
    await api.data.putTenant({ id, name });
    await users.ensureGroup(id, id);
  }
  await users.ensureGroup('admin', 'staff');
  h = api.handler('admin');
  pub = new CognitoIdentityProviderClient({ endpoint: pool.endpoint, region: 'eu-west-1' });
}, 60_000);

afterAll(async () => {
  pub?.destroy();
  await api?.stop();
  await pool?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** A user of the local pool in no group who signs in once (the trigger records its request); returns it. */
async function signsInWithoutTenant(prefix: string): Promise<PoolUser & { email: string }> {
  const email = `${prefix}-${randomUUID().slice(0, 8)}@example.com`;
  const { user } = await users.createUser(email, { permanentPassword: PASSWORD });
  await signInWithSrp(pub, { userPoolId: pool.userPoolId, clientId: pool.userPoolClientId, username: email, password: PASSWORD });
  return { ...user, email };
}

const pending = async (query: Record<string, string> = {}) => json<{ items: AccessRequest[]; nextCursor: string | null }>(await call(h, { method: 'GET', path: '/access-requests', caller: staff, query }));
const userCount = async (tenantId: string) =>
  json<{ items: TenantSummary[] }>(await call(h, { method: 'GET', path: '/admin/tenants', caller: staff })).items.find((t) => t.id === tenantId)?.userCount ?? 0;

describe('access requests (Solicitudes de acceso)', () => {
  it('a sign-in in no group is a pending request; Conceder adds the user to the tenant (group, count, audit by e-mail); a second decision is 409', async () => {
    const ana = await signsInWithoutTenant('ana');
    const before = await userCount('acme');
    const list = await pending();
    const req = list.items.find((r) => r.id === ana.username);
    expect(req).toMatchObject({ id: ana.username, sub: ana.sub, email: ana.email, emailDomain: 'example.com', status: 'pending', provider: null, tenantId: null, decidedAt: null });

    expect(code(await call(h, { method: 'POST', path: `/access-requests/${ana.username}/grant`, caller: staff, body: { tenantId: 'no-such' } }))).toBe('NOT_FOUND');
    expect(code(await call(h, { method: 'POST', path: '/access-requests/nadie/grant', caller: staff, body: { tenantId: 'acme' } }))).toBe('NOT_FOUND');
    expect(await users.groupsOf(ana.username)).toEqual([]);

    const granted = await call(h, { method: 'POST', path: `/access-requests/${ana.username}/grant`, caller: staff, body: { tenantId: 'acme' } });
    expect(granted.statusCode).toBe(200);
    expect(json<AccessRequest>(granted)).toMatchObject({ status: 'granted', tenantId: 'acme', decidedBy: 'soc@vigia.example' });
    expect(await users.groupsOf(ana.username)).toEqual(['acme']);
    expect(await userCount('acme')).toBe(before + 1);
    expect((await pending()).items.map((r) => r.id)).not.toContain(ana.username);
    expect((await pending({ status: 'granted' })).items.map((r) => r.id)).toContain(ana.username);

    const log = json<{ items: AuditEntry[] }>(await call(h, { method: 'GET', path: '/audit', caller: staff, query: { tenant: 'acme', action: 'access_request.grant' } })).items;
    expect(log[0]).toMatchObject({ actor: { sub: 'staff-1', email: 'soc@vigia.example' }, target: { type: 'user', id: ana.username, name: ana.email }, after: { status: 'granted', group: 'acme' } });
    const raised = json<{ items: AuditEntry[] }>(await call(h, { method: 'GET', path: '/audit', caller: staff, query: { action: 'user.access_request' } })).items;
    expect(raised.find((e) => e.target.id === ana.username)?.target.name).toBe(ana.email);

    for (const [path, body] of [[`/access-requests/${ana.username}/grant`, { tenantId: 'globex' }], [`/access-requests/${ana.username}/dismiss`, undefined]] as const) {
      const again = await call(h, { method: 'POST', path, caller: staff, ...(body ? { body } : {}) });
      expect(again.statusCode).toBe(409);
      expect(code(again)).toBe('ACCESS_REQUEST_DECIDED');
    }
    expect(await users.groupsOf(ana.username)).toEqual(['acme']);
    expect(await userCount('acme')).toBe(before + 1);
  });

  it('a decision landing while a grant runs: the grant is 409 and takes back the group it added (nothing half-applied)', async () => {
    const bob = await signsInWithoutTenant('bob');
    const r = api.repository;
    const req = { identity: { sub: 'staff-1', email: 'soc@vigia.example', groups: ['admin'], tenants: [], isAdmin: true, mfa: true }, requestId: 'req-race', sourceIp: '127.0.0.1', now: new Date() };
    // Another staff member dismisses the request right after this grant put the user in the group.
    const racing: UsersPort = { ...users, addToGroup: async (u, g) => (await users.addToGroup(u, g), void (await dismissAccessRequest({ accessRequests: r.accessRequests }, u, req))) };
    const before = await userCount('acme');
    await expect(grantAccessRequest({ tenants: r.tenants, tenantAdmin: r.tenantAdmin, audit: r.audit, users: racing, accessRequests: r.accessRequests }, bob.username, 'acme', req)).rejects.toMatchObject({
      code: 'ACCESS_REQUEST_DECIDED',
      details: { status: 'dismissed' },
    });
    expect(await users.groupsOf(bob.username)).toEqual([]);
    expect(await userCount('acme')).toBe(before);
  });

  it('Descartar: audited under the staff log, gone from the pending list; a later sign-in raises nothing', async () => {
    const eve = await signsInWithoutTenant('eve');
    const dismissed = await call(h, { method: 'POST', path: `/access-requests/${eve.username}/dismiss`, caller: staff });
    expect(dismissed.statusCode).toBe(200);
    expect(json<AccessRequest>(dismissed)).toMatchObject({ status: 'dismissed', tenantId: null });
    expect((await pending()).items.map((r) => r.id)).not.toContain(eve.username);
    const log = json<{ items: AuditEntry[] }>(await call(h, { method: 'GET', path: '/audit', caller: staff, query: { action: 'access_request.dismiss' } })).items;
    expect(log.find((e) => e.target.id === eve.username)?.target.name).toBe(eve.email);
    await signInWithSrp(pub, { userPoolId: pool.userPoolId, clientId: pool.userPoolClientId, username: eve.email, password: PASSWORD });
    expect((await pending()).items.map((r) => r.id)).not.toContain(eve.username);
    expect((await pending({ status: 'dismissed' })).items.map((r) => r.id)).toContain(eve.username);
  });

  it('the pending list is newest first and pages by cursor; customers are refused', async () => {
    const made = [];
    for (const p of ['p1', 'p2', 'p3']) made.push((await signsInWithoutTenant(p)).username);
    const first = await pending({ limit: '2' });
    expect(first.items.map((r) => r.id)).toEqual([made[2], made[1]]);
    expect(first.nextCursor).not.toBeNull();
    const second = await pending({ limit: '2', cursor: first.nextCursor! });
    expect(second.items[0]!.id).toBe(made[0]);
    expect(code(await call(h, { method: 'GET', path: '/access-requests', caller: staff, query: { status: 'granted', cursor: first.nextCursor! } }))).toBe('VALIDATION_FAILED');
    const customer = await call(h, { method: 'GET', path: '/access-requests', caller: { sub: 'u-acme', email: 'ana@acme.example', groups: ['acme'] } });
    expect(customer.statusCode).toBe(403);
  });
});

describe('own staff access', () => {
  it('staff cannot remove their own staff access: 409 OWN_STAFF_ACCESS, still staff; another staff member can', async () => {
    const { user } = await users.createUser(`jefa-${randomUUID().slice(0, 8)}@vigia.example`, { permanentPassword: PASSWORD });
    await users.addToGroup(user.username, 'admin');
    const self: CallerSpec = { sub: user.sub!, email: user.email!, groups: ['admin'] };
    const own = await call(h, { method: 'DELETE', path: `/staff/${user.username}`, caller: self });
    expect(own.statusCode).toBe(409);
    expect(code(own)).toBe('OWN_STAFF_ACCESS');
    expect(await users.groupsOf(user.username)).toContain('admin');
    const other = await call(h, { method: 'DELETE', path: `/staff/${user.username}`, caller: staff });
    expect(other.statusCode).toBe(200);
    expect(await users.groupsOf(user.username)).not.toContain('admin');
  });
});
