/**
 * Staff tenant list at many tenants (issue 28, point 5): `GET /admin/tenants` is a cursor-paginated Query of the
 * registry whose user and device counts are kept at write time (docs/data-model.md#tenant-counts), so a page costs
 * at most a few DynamoDB requests and NO Cognito call. Over a real DynamoDB engine and the REAL local user pool:
 * every Cognito call of the admin handler and every DynamoDB request of its table are counted. Counts move with
 * invite / remove / device add, and a retried membership write counts once.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PoolUser, TenantSummary } from '../../lambdas/contract/schemas.js';
import type { DocumentClient } from '../../lambdas/data/table/client.js';
import { wrapTableClient } from '../../lambdas/data/table/client.js';
import { cognitoUsers } from '../../lambdas/data/cognito-users.js';
import { addTenantMember, reconcileTenantMembers } from '../../lambdas/data/tenant-admin.js';
import { DEFAULT_RETENTION } from '../../lambdas/data/retention.js';
import type { UsersPort } from '../../lambdas/domain/ports.js';
import type { ApiHandler } from '../../lambdas/http/api.js';
import { startUserPool, type RunningUserPool } from '../../scripts/local/cognito/index.js';
import { LOCAL_OPERATOR_CREDENTIAL } from '../../scripts/local/config.js';
import type { CallerSpec } from '../support/events.js';
import { call, startInProcessApi, type InProcessApi } from '../support/in-process-api.js';

const TABLE = 'vigia-tenant-counts';
const staff: CallerSpec = { sub: 'staff-1', email: 'soc@vigia.example', groups: ['admin'] };
const TENANTS = 120;

let dataDir: string;
let pool: RunningUserPool;
let api: InProcessApi;
let h: ApiHandler;
/** Cognito calls of the admin handler (every UsersPort method call), by method name. */
const cognitoCalls: string[] = [];
/** DynamoDB requests on the handlers' table, by operation name. */
let dynamoCalls: string[] = [];

const json = <T>(r: { body: string }): T => JSON.parse(r.body) as T;
type Page = { items: TenantSummary[]; nextCursor: string | null };

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'vigia-tenant-counts-'));
  pool = await startUserPool({ dataDir, port: 0, internalPort: 0, invitationsFile: join(dataDir, 'invitations.log') });
  const real = cognitoUsers({ userPoolId: pool.userPoolId, region: 'eu-west-1', endpoint: pool.endpoint, credentials: { ...LOCAL_OPERATOR_CREDENTIAL } });
  const counted = new Proxy(real, {
    get: (target, name: string) => {
      const f = target[name as keyof UsersPort] as (...a: unknown[]) => unknown;
      return (...args: unknown[]) => (cognitoCalls.push(name), f.apply(target, args));
    },
  });
  api = await startInProcessApi({ table: TABLE, users: counted });
  wrapTableClient(api.data.table, (inner): DocumentClient => ({
    send: (op, input) => (dynamoCalls.push(op), inner.send(op, input)),
    destroy: () => inner.destroy(),
  }));
  h = api.handler('admin');
  for (let i = 0; i < TENANTS; i++) await api.data.putTenant({ id: `t-${String(i).padStart(4, '0')}`, name: `Tenant ${i}` });
  expect((await call(h, { method: 'POST', path: '/tenants', caller: staff, body: { tenantId: 'umbrella', name: 'Umbrella' } })).statusCode).toBe(201);
}, 120_000);

afterAll(async () => {
  await api?.stop();
  await pool?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** Every page of `GET /admin/tenants` with `limit`, each with its Cognito and DynamoDB calls. */
async function allPages(limit: number): Promise<{ pages: Page[]; cognito: number[]; dynamo: number[] }> {
  const pages: Page[] = [];
  const cognito: number[] = [];
  const dynamo: number[] = [];
  let cursor: string | null | undefined;
  do {
    cognitoCalls.length = 0;
    dynamoCalls = [];
    const r = await call(h, { method: 'GET', path: '/admin/tenants', caller: staff, query: { limit: String(limit), ...(cursor ? { cursor } : {}) } });
    expect(r.statusCode, r.body).toBe(200);
    const page = json<Page>(r);
    pages.push(page);
    cognito.push(cognitoCalls.length);
    dynamo.push(dynamoCalls.length);
    cursor = page.nextCursor;
  } while (cursor && pages.length < 20);
  return { pages, cognito, dynamo };
}

const find = async (id: string) => (await allPages(100)).pages.flatMap((p) => p.items).find((t) => t.id === id);

describe('GET /admin/tenants at 121 tenants', () => {
  it('pages through every tenant in id order, 0 Cognito calls and at most 2 DynamoDB requests per page', async () => {
    const { pages, cognito, dynamo } = await allPages(50);
    const ids = pages.flatMap((p) => p.items.map((t) => t.id));
    expect(ids).toHaveLength(TENANTS + 1);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([...ids].sort());
    expect(pages.map((p) => p.items.length)).toEqual([50, 50, 21]);
    expect(pages.at(-1)!.nextCursor).toBeNull();
    expect(cognito).toEqual([0, 0, 0]);
    // One Query of the registry and one BatchGetItem of the page's stats items.
    for (const n of dynamo) expect(n).toBeLessThanOrEqual(2);
    // Registered without aggregates or counted members (as before the counts existed): no count is made up.
    expect(pages[0]!.items.find((t) => t.id === 't-0000')).toEqual({ id: 't-0000', name: 'Tenant 0' });
    expect(pages.at(-1)!.items.find((t) => t.id === 'umbrella')).toEqual({ id: 'umbrella', name: 'Umbrella', deviceCount: 0 });
  });

  it('refuses a forged cursor with 400 VALIDATION_FAILED', async () => {
    const forged = Buffer.from(JSON.stringify({ s: 'TENANT#acme#INCIDENTS', k: { PK: 'TENANT#acme#INCIDENTS', SK: 'x' } })).toString('base64url');
    const r = await call(h, { method: 'GET', path: '/admin/tenants', caller: staff, query: { cursor: forged } });
    expect(r.statusCode).toBe(400);
    expect(json<{ code: string }>(r).code).toBe('VALIDATION_FAILED');
  });
});

describe('counts kept at write time', () => {
  it('invite and remove move userCount, a device add moves deviceCount', async () => {
    for (const email of ['uno@umbrella.example', 'dos@umbrella.example', 'tres@umbrella.example']) {
      expect((await call(h, { method: 'POST', path: '/tenants/umbrella/users', caller: staff, body: { email } })).statusCode).toBe(201);
    }
    for (const id of ['fw-1', 'sw-1']) {
      await api.data.putDevice({ tenantId: 'umbrella', id, name: id, type: 'firewall', site: 'Lima', ipAddress: '10.1.0.1', vendor: 'Fortinet', model: 'FG-60F' });
    }
    expect(await find('umbrella')).toEqual({ id: 'umbrella', name: 'Umbrella', userCount: 3, deviceCount: 2 });

    // Inviting a member again is audited again but counted once.
    expect((await call(h, { method: 'POST', path: '/tenants/umbrella/users', caller: staff, body: { email: 'uno@umbrella.example' } })).statusCode).toBe(201);
    expect((await find('umbrella'))!.userCount).toBe(3);

    const members = json<{ items: PoolUser[] }>(await call(h, { method: 'GET', path: '/tenants/umbrella/users', caller: staff })).items;
    const dos = members.find((u) => u.email === 'dos@umbrella.example')!;
    expect((await call(h, { method: 'DELETE', path: `/tenants/umbrella/users/${encodeURIComponent(dos.username)}`, caller: staff })).statusCode).toBe(200);
    expect((await find('umbrella'))!.userCount).toBe(2);
    // The removal repeated: 404, and the count does not move again.
    expect((await call(h, { method: 'DELETE', path: `/tenants/umbrella/users/${encodeURIComponent(dos.username)}`, caller: staff })).statusCode).toBe(404);
    expect((await find('umbrella'))!.userCount).toBe(2);
  });

  it('a retried membership write counts once; a removal whose count write failed is uncounted by its retry', async () => {
    const table = api.data.table;
    expect(await addTenantMember('t-0001', 'retry-user', '2026-11-28T00:00:00.000Z', null, table, DEFAULT_RETENTION)).toBe(true);
    expect(await addTenantMember('t-0001', 'retry-user', '2026-11-28T00:00:01.000Z', null, table, DEFAULT_RETENTION)).toBe(false);
    expect((await find('t-0001'))!.userCount).toBe(1);

    // Cognito removed the user, the count's write did not happen (simulated: the ledger still has it); the retry answers 404 and uncounts it.
    const invited = json<PoolUser>(await call(h, { method: 'POST', path: '/tenants/umbrella/users', caller: staff, body: { email: 'cuatro@umbrella.example' } }));
    expect((await find('umbrella'))!.userCount).toBe(3);
    const users = cognitoUsers({ userPoolId: pool.userPoolId, region: 'eu-west-1', endpoint: pool.endpoint, credentials: { ...LOCAL_OPERATOR_CREDENTIAL } });
    await users.removeFromGroup(invited.username, 'umbrella');
    expect((await call(h, { method: 'DELETE', path: `/tenants/umbrella/users/${encodeURIComponent(invited.username)}`, caller: staff })).statusCode).toBe(404);
    expect((await find('umbrella'))!.userCount).toBe(2);
  });

  it('the backfill counts members added before the counts (drift check first, then repair)', async () => {
    const users = cognitoUsers({ userPoolId: pool.userPoolId, region: 'eu-west-1', endpoint: pool.endpoint, credentials: { ...LOCAL_OPERATOR_CREDENTIAL } });
    await users.ensureGroup('t-0002', 't-0002');
    const { user } = await users.createUser('legacy@t2.example');
    await users.addToGroup(user.username, 't-0002');
    const members = (await users.listGroupMembers('t-0002')).map((m) => m.username);
    const now = new Date();
    const drift = await reconcileTenantMembers('t-0002', members, api.data.table, DEFAULT_RETENTION, { check: true, now });
    expect(drift).toEqual({ tenantId: 't-0002', missing: [user.username], extra: [], storedCount: null, groupCount: 1 });
    expect((await find('t-0002'))!.userCount).toBeUndefined();
    await reconcileTenantMembers('t-0002', members, api.data.table, DEFAULT_RETENTION, { check: false, now });
    expect((await find('t-0002'))!.userCount).toBe(1);
    expect(await reconcileTenantMembers('t-0002', members, api.data.table, DEFAULT_RETENTION, { check: true, now })).toEqual({ tenantId: 't-0002', missing: [], extra: [], storedCount: 1, groupCount: 1 });
  });
});
