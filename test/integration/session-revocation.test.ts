/**
 * Session revocation (docs/api.md#session-revocation): after "Deshabilitar", "Quitar del cliente" or "Quitar
 * acceso SOC", the user's open session — an ID token issued before the act — is refused with 401
 * SESSION_REVOKED within the window (each container re-reads the marker after `REVOCATION_CACHE_MS`), while a
 * token issued after re-enabling or re-adding works and other users are untouched. The REAL handlers in
 * process, over a real DynamoDB engine and the REAL local user pool; every AWS call is evaluated against the
 * function's IAM role. The handlers share a controllable clock (`now`), so the 30 s cache window passes
 * without sleeping; the clock runs an hour ahead of the wall clock, so the marker written after the Cognito
 * call is at the test clock's time.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PoolUser } from '../../lambdas/contract/schemas.js';
import { cognitoUsers } from '../../lambdas/data/cognito-users.js';
import type { UsersPort } from '../../lambdas/domain/ports.js';
import { REVOCATION_CACHE_MS } from '../../lambdas/domain/session-revocation.js';
import { startUserPool, type RunningUserPool } from '../../scripts/local/cognito/index.js';
import { LOCAL_OPERATOR_CREDENTIAL } from '../../scripts/local/config.js';
import type { CallerSpec } from '../support/events.js';
import { call, startInProcessApi, type InProcessApi } from '../support/in-process-api.js';

const TABLE = 'vigia-revocation-main';
const staff: CallerSpec = { sub: 'staff-1', email: 'soc@vigia.example', groups: ['admin'] };
const bob: CallerSpec = { sub: 'u-bob', email: 'bob@globex.example', groups: ['globex'] };

let dataDir: string;
let pool: RunningUserPool;
let users: UsersPort;
let api: InProcessApi;
let nowMs = Date.now() + 3_600_000;
const clock = () => new Date(nowMs);
const seconds = (ms: number) => Math.floor(ms / 1000);

const code = (r: { body: string }) => (JSON.parse(r.body) as { code?: string }).code;

/** A user of the local pool in `groups`, and the claims of a token it was issued now (test clock). */
async function poolUser(email: string, groups: string[]): Promise<{ user: PoolUser; token: (g?: string[]) => CallerSpec }> {
  const { user } = await users.createUser(email, { permanentPassword: 'Secreta-123-Rv0k' });
  for (const g of groups) await users.addToGroup(user.username, g);
  return { user, token: (g = groups) => ({ sub: user.sub!, email, groups: g, iat: seconds(nowMs) }) };
}

async function markers(): Promise<number> {
  const raw = api.rawClient();
  try {
    const res = await raw.send(new ScanCommand({ TableName: TABLE, FilterExpression: 'entity = :e', ExpressionAttributeValues: { ':e': { S: 'SessionRevocation' } } }));
    return res.Count ?? 0;
  } finally {
    raw.destroy();
  }
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'vigia-revocation-'));
  pool = await startUserPool({ dataDir, port: 0, internalPort: 0, invitationsFile: join(dataDir, 'invitations.log') });
  users = cognitoUsers({ userPoolId: pool.userPoolId, region: 'eu-west-1', endpoint: pool.endpoint, credentials: { ...LOCAL_OPERATOR_CREDENTIAL } });
  api = await startInProcessApi({ table: TABLE, users });
  await api.data.putTenant({ id: 'acme', name: 'Acme' });
  await api.data.putTenant({ id: 'globex', name: 'Globex' });
  for (const g of ['acme', 'globex', 'admin']) await users.ensureGroup(g, g);
}, 60_000);

afterAll(async () => {
  await api?.stop();
  await pool?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('an administrative act ends the open session within the window', () => {
  it('"Deshabilitar": the open token is refused 401 SESSION_REVOKED once the cache window passed (at once in a fresh container); after re-enabling, a new token works', async () => {
    const admin = api.handler('admin', { now: clock });
    const incidents = api.handler('incidents', { now: clock });
    const ana = await poolUser('ana@acme.example', ['acme']);
    const open = ana.token();
    nowMs += 5_000;
    expect((await call(incidents, { method: 'GET', path: '/incidents', caller: open })).statusCode).toBe(200);

    const disabled = await call(admin, { method: 'POST', path: `/users/${encodeURIComponent(ana.user.username)}/enabled`, caller: staff, body: { enabled: false } });
    expect(disabled.statusCode).toBe(200);
    // This container read "no marker" 0 s ago: it trusts that for the cache window (bounded cost), then reads again.
    expect((await call(incidents, { method: 'GET', path: '/incidents', caller: open })).statusCode).toBe(200);
    nowMs += REVOCATION_CACHE_MS;
    const refused = await call(incidents, { method: 'GET', path: '/incidents', caller: open });
    expect(refused.statusCode).toBe(401);
    expect(code(refused)).toBe('SESSION_REVOKED');
    // Another function (another container) refuses at once, whatever the route.
    const me = await call(api.handler('account', { now: clock }), { method: 'GET', path: '/me', caller: open });
    expect([me.statusCode, code(me)]).toEqual([401, 'SESSION_REVOKED']);
    // Other users are untouched.
    expect((await call(incidents, { method: 'GET', path: '/incidents', caller: bob })).statusCode).toBe(200);

    const enabled = await call(admin, { method: 'POST', path: `/users/${encodeURIComponent(ana.user.username)}/enabled`, caller: staff, body: { enabled: true } });
    expect(enabled.statusCode).toBe(200);
    nowMs += 1_000;
    expect(code(await call(incidents, { method: 'GET', path: '/incidents', caller: open }))).toBe('SESSION_REVOKED');
    expect((await call(incidents, { method: 'GET', path: '/incidents', caller: ana.token() })).statusCode).toBe(200);
  });

  it('"Quitar del cliente": the token that still names the tenant is refused; a new one (the groups left) works', async () => {
    const admin = api.handler('admin', { now: clock });
    const incidents = api.handler('incidents', { now: clock });
    const carlos = await poolUser('carlos@acme.example', ['acme', 'globex']);
    const open = carlos.token();
    nowMs += 5_000;
    expect((await call(incidents, { method: 'GET', path: '/incidents', query: { tenant: 'acme' }, caller: open })).statusCode).toBe(200);

    const removed = await call(admin, { method: 'DELETE', path: `/tenants/acme/users/${encodeURIComponent(carlos.user.username)}`, caller: staff });
    expect(removed.statusCode).toBeLessThan(300);
    nowMs += REVOCATION_CACHE_MS;
    for (const tenant of ['acme', 'globex']) {
      const r = await call(incidents, { method: 'GET', path: '/incidents', query: { tenant }, caller: open });
      expect([r.statusCode, code(r)], tenant).toEqual([401, 'SESSION_REVOKED']);
    }
    nowMs += 1_000;
    const fresh = carlos.token(['globex']);
    expect((await call(incidents, { method: 'GET', path: '/incidents', caller: fresh })).statusCode).toBe(200);
    // Re-added: a token issued after that names acme again and works.
    await users.addToGroup(carlos.user.username, 'acme');
    nowMs += 1_000;
    expect((await call(incidents, { method: 'GET', path: '/incidents', query: { tenant: 'acme' }, caller: carlos.token(['acme', 'globex']) })).statusCode).toBe(200);
  });

  it('"Quitar acceso SOC": the staff token is refused on staff and customer routes; a new token without admin gets only its tenant', async () => {
    const admin = api.handler('admin', { now: clock });
    const account = api.handler('account', { now: clock });
    const eva = await poolUser('eva@vigia.example', ['admin', 'acme']);
    const open = { ...eva.token(), mfa: true };
    nowMs += 5_000;
    expect((await call(admin, { method: 'GET', path: '/staff', caller: open })).statusCode).toBe(200);

    const revoked = await call(admin, { method: 'DELETE', path: `/staff/${encodeURIComponent(eva.user.username)}`, caller: staff });
    expect(revoked.statusCode).toBeLessThan(300);
    nowMs += REVOCATION_CACHE_MS;
    for (const [h, path] of [[admin, '/staff'], [account, '/me']] as const) {
      const r = await call(h, { method: 'GET', path, caller: open });
      expect([r.statusCode, code(r)], path).toEqual([401, 'SESSION_REVOKED']);
    }
    nowMs += 1_000;
    const fresh = eva.token(['acme']);
    expect((await call(account, { method: 'GET', path: '/me', caller: fresh })).statusCode).toBe(200);
    expect(code(await call(admin, { method: 'GET', path: '/staff', caller: fresh }))).toBe('FORBIDDEN');
  });

  it('refused acts write no marker: an unknown user (404), one\u2019s own account (409), a non-member (404); a token without iat after a marker is refused', async () => {
    const admin = api.handler('admin', { now: clock });
    const before = await markers();
    const unknown = await call(admin, { method: 'POST', path: '/users/nadie%40acme.example/enabled', caller: staff, body: { enabled: false } });
    expect([unknown.statusCode, code(unknown)]).toEqual([404, 'NOT_FOUND']);
    const self = await poolUser('soc2@vigia.example', ['admin']);
    const own = await call(admin, { method: 'POST', path: `/users/${encodeURIComponent(self.user.username)}/enabled`, caller: { ...self.token(), sub: self.user.sub! }, body: { enabled: false } });
    expect([own.statusCode, code(own)]).toEqual([409, 'INVALID_TRANSITION']);
    const notMember = await call(admin, { method: 'DELETE', path: `/tenants/globex/users/${encodeURIComponent(self.user.username)}`, caller: staff });
    expect([notMember.statusCode, code(notMember)]).toEqual([404, 'NOT_FOUND']);
    const badBody = await call(admin, { method: 'POST', path: `/users/${encodeURIComponent(self.user.username)}/enabled`, caller: staff, body: { enabled: 'no' } });
    expect([badBody.statusCode, code(badBody)]).toEqual([400, 'VALIDATION_FAILED']);
    expect(await markers()).toBe(before);

    // A token whose issue time cannot be read is treated as issued at the epoch: refused once a marker exists.
    await call(admin, { method: 'DELETE', path: `/staff/${encodeURIComponent(self.user.username)}`, caller: staff });
    expect(await markers()).toBe(before + 1);
    const { iat: _iat, ...noIat } = self.token();
    const r = await call(api.handler('account', { now: clock }), { method: 'GET', path: '/me', caller: noIat });
    expect([r.statusCode, code(r)]).toEqual([401, 'SESSION_REVOKED']);
  });
});
