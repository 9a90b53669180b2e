/**
 * A customer admin manages their own tenant's users (`/team`, docs/api.md#team-management; issue 32 point 1):
 * the admin Lambda in process over a real DynamoDB engine and the REAL local user pool (administrative calls
 * signed with the local operator key, as `npm start` wires them). Per role: viewer and operator get 403
 * ROLE_REQUIRED on every team route, the customer admin invites (a Cognito user in FORCE_CHANGE_PASSWORD with the
 * invitation written where offline e-mails go, in the tenant group and the role group), lists with a cursor,
 * changes the role, disables, removes (account deleted); another tenant's user and staff are 404; the last
 * enabled admin is 409 LAST_ADMIN; oneself is 409 OWN_ACCOUNT; a role outside the three is 400 and creates
 * nothing (checked with Cognito's ListUsers); a known e-mail is 409 USER_EXISTS; each write is audited.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../lambdas/contract/schemas.js';
import type { TeamMember, TeamPage } from '../../lambdas/contract/team.js';
import { awsJson11 } from '../../lambdas/data/table/aws-lite.js';
import { cognitoIdp } from '../../lambdas/data/cognito-users.js';
import type { UsersPort } from '../../lambdas/domain/ports.js';
import type { ApiHandler } from '../../lambdas/http/api.js';
import type { CallerSpec } from '../support/events.js';
import { call, type InProcessApi } from '../support/in-process-api.js';
import { startUserPoolApi, type UserPoolApi } from '../support/user-pool-api.js';

const TABLE = 'vigia-team-main';
let running: UserPoolApi | undefined;
let users: UsersPort;
let api: InProcessApi;
let h: ApiHandler;
let listUsersByEmail: (email: string) => Promise<unknown[]>;
const staff: CallerSpec = { sub: 'staff-1', email: 'soc@vigia.example', groups: ['admin'] };
const viewer: CallerSpec = { sub: 'u-vera', email: 'vera@acme.example', groups: ['acme', 'customer-viewer'] };
const operator: CallerSpec = { sub: 'u-olga', email: 'olga@acme.example', groups: ['acme', 'customer-operator'] };
let ana: CallerSpec;
let anaUsername: string;
let bobUsername: string;
let socUsername: string;

const json = <T>(r: { body: string }): T => JSON.parse(r.body) as T;
const code = (r: { body: string }) => json<{ code: string }>(r).code;
const enc = encodeURIComponent;

/** A pool user in `groups`, created as the invitation would (no password needed here). */
async function poolUser(email: string, groups: string[]): Promise<{ username: string; sub: string }> {
  const { user } = await users.createUser(email);
  for (const g of groups) await users.addToGroup(user.username, g);
  return { username: user.username, sub: user.sub ?? user.username };
}

beforeAll(async () => {
  running = await startUserPoolApi(TABLE, 'team');
  ({ users, api } = running);
  const send = awsJson11({ ...cognitoIdp(running.poolClient), common: { UserPoolId: running.pool.userPoolId } });
  listUsersByEmail = async (email) => ((await send('ListUsers', { Filter: `email = "${email}"`, Limit: 10 })).Users ?? []) as unknown[];
  for (const g of ['acme', 'globex', 'admin', 'customer-viewer', 'customer-operator', 'customer-admin']) await users.ensureGroup(g, g);
  const a = await poolUser('ana@acme.example', ['acme', 'customer-admin']);
  anaUsername = a.username;
  ana = { sub: a.sub, email: 'ana@acme.example', groups: ['acme', 'customer-admin'] };
  bobUsername = (await poolUser('bob@globex.example', ['globex', 'customer-admin'])).username;
  // Staff who is also in acme's group: still never listed nor touched by the tenant's admin.
  socUsername = (await poolUser('soc@vigia.example', ['admin', 'acme'])).username;
  h = api.handler('admin');
}, 60_000);

afterAll(async () => {
  await running?.stop();
});

describe('team management per role', () => {
  it('viewer and operator get 403 ROLE_REQUIRED on every team route; nothing is created', async () => {
    const attempts = [
      { method: 'GET', path: '/team' },
      { method: 'POST', path: '/team', body: { email: 'intruso@acme.example', name: 'Intruso', role: 'admin' } },
      { method: 'PUT', path: `/team/${enc(anaUsername)}`, body: { enabled: false } },
      { method: 'DELETE', path: `/team/${enc(anaUsername)}` },
    ];
    for (const caller of [viewer, operator]) {
      for (const a of attempts) {
        const r = await call(h, { ...a, caller });
        expect(r.statusCode, `${caller.sub} ${a.method} ${a.path}`).toBe(403);
        expect(code(r)).toBe('ROLE_REQUIRED');
      }
    }
    expect(await listUsersByEmail('intruso@acme.example')).toEqual([]);
    expect((await users.getUser(anaUsername))?.enabled).toBe(true);
  });

  it('a role outside viewer/operator/admin is 400 VALIDATION_FAILED on body.role and creates nothing in Cognito', async () => {
    for (const role of ['staff', 'superadmin', 'customer-admin', 'ADMIN', '']) {
      const r = await call(h, { method: 'POST', path: '/team', caller: ana, body: { email: 'rol@acme.example', name: 'Rol', role } });
      expect(r.statusCode, role).toBe(400);
      expect(code(r)).toBe('VALIDATION_FAILED');
      expect(JSON.stringify(json<{ details: unknown }>(r).details)).toContain('body.role');
    }
    const bad = await call(h, { method: 'PUT', path: `/team/${enc(anaUsername)}`, caller: ana, body: { role: 'admin-de-todo' } });
    expect(bad.statusCode).toBe(400);
    expect(await listUsersByEmail('rol@acme.example')).toEqual([]);
    expect(await users.groupsOf(anaUsername)).toEqual(expect.arrayContaining(['acme', 'customer-admin']));
  });

  it('the customer admin invites a viewer, lists the team with a cursor, changes the role, disables and removes; each audited', async () => {
    const invited = await call(h, { method: 'POST', path: '/team', caller: ana, body: { email: 'Carmen@Acme.example', name: 'Carmen Ruiz', role: 'viewer' } });
    expect(invited.statusCode, invited.body).toBe(201);
    const carmen = json<TeamMember>(invited);
    expect(carmen).toMatchObject({ email: 'carmen@acme.example', name: 'Carmen Ruiz', role: 'viewer', enabled: true, status: 'FORCE_CHANGE_PASSWORD', federated: false });
    expect((await users.groupsOf(carmen.username)).sort()).toEqual(['acme', 'customer-viewer']);
    // Offline the invitation e-mail (temporary password) is written to the invitations file.
    expect(await readFile(running!.invitationsFile, 'utf8')).toMatch(/ carmen@acme\.example user \S+ temporary password Tmp-\S+/);

    const again = await call(h, { method: 'POST', path: '/team', caller: ana, body: { email: 'carmen@acme.example', name: 'Otra', role: 'admin' } });
    expect(again.statusCode).toBe(409);
    expect(code(again)).toBe('USER_EXISTS');
    expect(await users.groupsOf(carmen.username)).not.toContain('customer-admin');

    // One page at a time: ana and carmen, never staff (soc) nor globex's bob.
    const seen: TeamMember[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const r = await call(h, { method: 'GET', path: '/team', caller: ana, query: { limit: '1', ...(cursor ? { cursor } : {}) } });
      expect(r.statusCode, r.body).toBe(200);
      const page = json<TeamPage>(r);
      seen.push(...page.items);
      cursor = page.nextCursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBeGreaterThanOrEqual(2);
    expect(seen.map((m) => m.email).sort()).toEqual(['ana@acme.example', 'carmen@acme.example']);
    expect(seen.find((m) => m.email === 'ana@acme.example')?.role).toBe('admin');
    // A cursor of acme's list is refused for another tenant and a forged one is refused.
    const first = json<TeamPage>(await call(h, { method: 'GET', path: '/team', caller: ana, query: { limit: '1' } }));
    const foreign = await call(h, { method: 'GET', path: '/team', caller: { sub: 'u-bob', groups: ['globex', 'customer-admin'] }, query: { cursor: first.nextCursor! } });
    expect(foreign.statusCode).toBe(400);
    expect(code(await call(h, { method: 'GET', path: '/team', caller: ana, query: { cursor: 'bm9wZQ' } }))).toBe('VALIDATION_FAILED');

    const promoted = await call(h, { method: 'PUT', path: `/team/${enc(carmen.username)}`, caller: ana, body: { role: 'operator' } });
    expect(promoted.statusCode, promoted.body).toBe(200);
    expect(json<TeamMember>(promoted).role).toBe('operator');
    expect((await users.groupsOf(carmen.username)).sort()).toEqual(['acme', 'customer-operator']);

    const disabled = await call(h, { method: 'PUT', path: `/team/${enc(carmen.username)}`, caller: ana, body: { enabled: false } });
    expect(json<TeamMember>(disabled).enabled).toBe(false);
    expect((await users.getUser(carmen.username))?.enabled).toBe(false);

    const removed = await call(h, { method: 'DELETE', path: `/team/${enc(carmen.username)}`, caller: ana });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await users.getUser(carmen.username)).toBeNull();
    expect(await listUsersByEmail('carmen@acme.example')).toEqual([]);

    const log = json<{ items: AuditEntry[] }>(await call(h, { method: 'GET', path: '/audit', caller: ana })).items.filter((e) => e.target.id === carmen.username);
    expect(log.map((e) => e.action)).toEqual(['team.remove', 'team.update', 'team.update', 'team.invite']);
    expect(log.every((e) => e.tenantId === 'acme' && e.actor.sub === ana.sub)).toBe(true);
    expect(log[2]).toMatchObject({ before: { role: 'viewer' }, after: { role: 'operator' } });
    expect(log[3]).toMatchObject({ after: { email: 'carmen@acme.example', role: 'viewer' } });
  });

  it("another tenant's user and staff are 404 and stay as they were", async () => {
    for (const username of [bobUsername, socUsername, 'nadie@ningun.example']) {
      for (const a of [{ method: 'PUT', body: { enabled: false } }, { method: 'PUT', body: { role: 'viewer' } }, { method: 'DELETE' }]) {
        const r = await call(h, { ...a, path: `/team/${enc(username)}`, caller: ana });
        expect(r.statusCode, `${a.method} ${username}`).toBe(404);
        expect(code(r)).toBe('NOT_FOUND');
      }
    }
    expect((await users.getUser(bobUsername))?.enabled).toBe(true);
    expect((await users.groupsOf(socUsername)).sort()).toEqual(['acme', 'admin']);
    expect(await users.groupsOf(bobUsername)).toContain('customer-admin');
  });

  it('oneself: 409 OWN_ACCOUNT; the last enabled admin: 409 LAST_ADMIN (staff on the tenant), nothing changed', async () => {
    for (const a of [{ method: 'PUT', body: { enabled: false } }, { method: 'PUT', body: { role: 'operator' } }, { method: 'DELETE' }]) {
      const r = await call(h, { ...a, path: `/team/${enc(anaUsername)}`, caller: ana });
      expect(r.statusCode, a.method).toBe(409);
      expect(code(r)).toBe('OWN_ACCOUNT');
    }
    for (const a of [{ method: 'PUT', body: { enabled: false } }, { method: 'PUT', body: { role: 'viewer' } }, { method: 'DELETE' }]) {
      const r = await call(h, { ...a, path: `/team/${enc(anaUsername)}`, caller: staff, query: { tenant: 'acme' } });
      expect(r.statusCode, `${a.method} ${r.body}`).toBe(409);
      expect(code(r)).toBe('LAST_ADMIN');
    }
    const after = await users.getUser(anaUsername);
    expect(after?.enabled).toBe(true);
    expect(await users.groupsOf(anaUsername)).toEqual(expect.arrayContaining(['acme', 'customer-admin']));

    // With a second enabled admin, staff may demote ana; a disabled admin does not count.
    const dora = await call(h, { method: 'POST', path: '/team', caller: ana, body: { email: 'dora@acme.example', name: 'Dora', role: 'admin' } });
    const doraName = json<TeamMember>(dora).username;
    await call(h, { method: 'PUT', path: `/team/${enc(doraName)}`, caller: ana, body: { enabled: false } });
    const still = await call(h, { method: 'PUT', path: `/team/${enc(anaUsername)}`, caller: staff, query: { tenant: 'acme' }, body: { role: 'operator' } });
    expect(code(still)).toBe('LAST_ADMIN');
    await call(h, { method: 'PUT', path: `/team/${enc(doraName)}`, caller: ana, body: { enabled: true } });
    const demoted = await call(h, { method: 'PUT', path: `/team/${enc(anaUsername)}`, caller: staff, query: { tenant: 'acme' }, body: { role: 'operator' } });
    expect(demoted.statusCode, demoted.body).toBe(200);
    expect(json<TeamMember>(demoted).role).toBe('operator');
    // Staff without TOTP are refused on the tenant's team (staff reach 'tenant').
    const noMfa = await call(h, { method: 'GET', path: '/team', caller: { ...staff, mfa: false }, query: { tenant: 'acme' } });
    expect(code(noMfa)).toBe('MFA_REQUIRED');
  });
});
