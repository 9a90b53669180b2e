/**
 * Names reserved for the staff (docs/api.md#reserved-names), over the REAL admin handler and dynoxide (in
 * memory, random port), with the stage's staff e-mail domain `vigia.example`:
 *
 *  - `POST /tenants {"tenantId":"admin"}` → 400 RESERVED_NAME: no registry item, no audit entry, no Cognito group;
 *  - a tenant `admin` registered before the rule (a legacy item): the tenant-user routes and the identity-provider
 *    routes on it → 400 RESERVED_NAME, nothing written, no user-pool change (they would make and remove staff
 *    without the staff rules);
 *  - `PUT /tenants/acme/identity-provider` routed from `vigia.example` or a subdomain → 400 RESERVED_NAME naming
 *    the domains, nothing written; a customer domain is still accepted;
 *  - the collector grant of the operator script (`grantCollector`, scripts/platform/grant-collector.ts) refuses
 *    tenant `admin` through the same domain rule, writing nothing; so does `validateTenant` of create-tenant.ts.
 *
 * Before the rule, the first case answered 201 (issue 29, point 2).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { startInProcessApi, type InProcessApi } from '../support/in-process-api.js';
import { memoryUsers } from '../support/memory-users.js';
import { seedExamples } from '../support/route-examples.js';
import { apiEvent, bodyOf, lambdaContext, type CallerSpec, type EventSpec } from '../support/events.js';
import type { ApiHandler } from '../../lambdas/http/api.js';
import type { UsersPort } from '../../lambdas/domain/ports.js';
import { createDocumentClient } from '../../lambdas/data/table/client.js';
import { getTenantCollectors } from '../../lambdas/data/tenants.js';
import { grantCollector } from '../../scripts/platform/grant-collector.js';
import { validateTenant } from '../../scripts/platform/create-tenant.js';
import { UsageError } from '../../scripts/platform/cli.js';
import { tableSnapshot } from '../support/table-snapshot.js';

const TABLE = 'vigia-reserved-main';
const STAFF: CallerSpec = { sub: 'u-soc', groups: ['admin'] };
let api: InProcessApi;
let raw: DynamoDBClient;
let admin: ApiHandler;
/** Every user-pool call that changes something (the in-memory pool, wrapped). */
const poolChanges: string[] = [];

/** `memoryUsers()` recording each call of a changing method. */
function recordingUsers(): UsersPort {
  const pool = memoryUsers();
  const changing = new Set(['ensureGroup', 'createUser', 'addToGroup', 'removeFromGroup', 'setEnabled', 'resetMfa', 'resendInvitation', 'globalSignOut']);
  return new Proxy(pool, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (typeof v !== 'function' || !changing.has(String(prop))) return v;
      return (...args: unknown[]) => {
        poolChanges.push(`${String(prop)}(${args.map((a) => JSON.stringify(a)).join(', ')})`);
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

beforeAll(async () => {
  api = await startInProcessApi({
    table: TABLE,
    users: recordingUsers(),
    config: {
      identityProviders: {
        secretPrefix: 'vigia/test/identity-providers/',
        oauthDomain: 'vigia-test.auth.eu-west-1.amazoncognito.com',
        staffEmailDomains: ['vigia.example'],
      },
    },
  });
  raw = api.rawClient();
  admin = api.handler('admin');
  await seedExamples(api.data);
}, 60_000);

afterAll(async () => {
  raw?.destroy();
  await api?.stop();
});

/** Hash of every item of the table (test/support/table-snapshot.ts). */
const snapshot = (): Promise<string> => tableSnapshot(raw, TABLE);

const send = (spec: Omit<EventSpec, 'caller'>) => admin(apiEvent({ ...spec, caller: STAFF }), lambdaContext);

/** `spec` answers 400 RESERVED_NAME naming `names`, and changes neither the table nor the user pool. */
async function expectReserved(spec: Omit<EventSpec, 'caller'>, field: string, names: string[]): Promise<void> {
  const before = await snapshot();
  const changes = poolChanges.length;
  const res = await send(spec);
  expect({ status: res.statusCode, ...bodyOf<{ code: string; details: unknown }>(res) }).toMatchObject({ status: 400, code: 'RESERVED_NAME', details: { fields: [field], names } });
  expect(await snapshot()).toBe(before);
  expect(poolChanges.slice(changes)).toEqual([]);
}

describe('tenant id `admin` (the staff group)', () => {
  it('POST /tenants refuses it: no registry item, no audit entry, no Cognito group', async () => {
    await expectReserved({ method: 'POST', path: '/tenants', body: { tenantId: 'admin', name: 'Admin' } }, 'tenantId', ['admin']);
    expect(await api.repository.tenants.getTenant('admin')).toBeNull();
  });

  it('a customer tenant is still created (control)', async () => {
    const res = await send({ method: 'POST', path: '/tenants', body: { tenantId: 'initech', name: 'Initech' } });
    expect(res.statusCode).toBe(201);
  });

  describe('registered before the rule', () => {
    beforeAll(async () => {
      await api.data.putTenant({ id: 'admin', name: 'Legacy' });
    });

    it.each([
      ['GET', '/tenants/admin', undefined],
      ['PATCH', '/tenants/admin', { name: 'Otro' }],
      ['GET', '/tenants/admin/users', undefined],
      ['POST', '/tenants/admin/users', { email: 'nuevo@acme.example' }],
      ['DELETE', '/tenants/admin/users/u-1', undefined],
      ['GET', '/tenants/admin/identity-provider', undefined],
      ['PUT', '/tenants/admin/identity-provider', { type: 'saml', metadataUrl: 'https://login.example/metadata.xml', emailDomains: ['evil.example'] }],
      ['DELETE', '/tenants/admin/identity-provider', undefined],
    ] as const)('%s %s → 400 RESERVED_NAME, nothing written', async (method, path, body) => {
      await expectReserved({ method, path, ...(body ? { body } : {}) }, 'tenantId', ['admin']);
    });
  });
});

describe('identity-provider e-mail domains of the staff', () => {
  const put = (emailDomains: string[]) => ({ method: 'PUT', path: '/tenants/acme/identity-provider', body: { type: 'saml', metadataUrl: 'https://login.example/metadata.xml', emailDomains } });

  it.each([
    [['vigia.example'], ['vigia.example']],
    [['acme.example', 'soc.vigia.example'], ['soc.vigia.example']],
  ])('%j → 400 RESERVED_NAME naming %j, nothing written', async (domains, names) => {
    await expectReserved(put(domains), 'emailDomains', names);
  });

  it('a look-alike that is not a subdomain, and a customer domain, are accepted (control)', async () => {
    const res = await send(put(['acme.example', 'notvigia.example']));
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe('operator scripts: the same rule', () => {
  it('grant-collector refuses tenant admin (registered or not) and writes nothing', async () => {
    const table = { doc: createDocumentClient(api.documentClientOptions()), tableName: TABLE };
    try {
      const before = await snapshot();
      const before0 = await getTenantCollectors('admin', table);
      await expect(grantCollector(table, { tenantId: 'admin', arn: 'arn:aws:iam::000000000000:role/x' })).rejects.toThrow(UsageError);
      await expect(grantCollector(table, { tenantId: 'admin', arn: 'arn:aws:iam::000000000000:role/x' })).rejects.toThrow(/reserved for the staff/);
      expect(await getTenantCollectors('admin', table)).toEqual(before0);
      expect(await snapshot()).toBe(before);
      // Control: a customer tenant is granted.
      expect((await grantCollector(table, { tenantId: 'globex', arn: 'arn:aws:iam::000000000000:role/x' })).collectors).toContain('arn:aws:iam::000000000000:role/x');
    } finally {
      table.doc.destroy();
    }
  });

  it('create-tenant refuses tenant admin before any call', () => {
    expect(() => validateTenant({ id: 'admin', name: 'Admin' })).toThrow(/reserved for the staff/);
    expect(() => validateTenant({ id: 'initech', name: 'Initech' })).not.toThrow();
  });
});
