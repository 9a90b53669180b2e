/** Pure parts of the platform scripts and their AWS calls against injected fake clients. */
import type { Stack } from '@aws-sdk/client-cloudformation';
import { describe, expect, it } from 'vitest';
import { describeStack, listStacks, portalConfigFromOutputs, resolveRegion, stageOutputs, StageNotDeployedError, type CfnLike } from '../../scripts/platform/aws.js';
import { checkStage, contextArgs, deployArgs, destroyArgs, guardDestroy, resolveCreatedAt, stalePreviewStages } from '../../scripts/platform/cdk.js';
import { parseMaxAge } from '../../scripts/platform/cleanup-previews.js';
import { parse, required, UsageError } from '../../scripts/platform/cli.js';
import { createTenant, validateTenant } from '../../scripts/platform/create-tenant.js';
import { operatorRequest } from '../../scripts/platform/aws.js';
import { inviteUser, validateInvite } from '../../scripts/platform/invite-user.js';
import { githubOutputLines } from '../../scripts/platform/write-config.js';
import type { TableRef } from '../../lambdas/data/table/client.js';
import type { AuditEntry, PoolUser } from '../../lambdas/contract/schemas.js';
import type { AdminPorts } from '../../lambdas/domain/admin.js';
import type { AuditPort, TenantAdminPort, TenantsPort, UsersPort } from '../../lambdas/domain/ports.js';

/** A fake SDK client: records `[CommandName, input]` and answers from `handler`. */
function fakeClient(handler: (name: string, input: Record<string, unknown>) => unknown = () => ({})) {
  const calls: Array<[string, Record<string, unknown>]> = [];
  return {
    calls,
    send: async (cmd: object) => {
      const name = cmd.constructor.name.replace(/Command$/, '');
      const input = (cmd as { input: Record<string, unknown> }).input;
      calls.push([name, input]);
      return handler(name, input);
    },
  };
}
const awsError = (name: string, message = name) => Object.assign(new Error(message), { name });

describe('command line', () => {
  it('parses options, rejects unknown ones and reports missing required values', () => {
    expect(parse(['--stage', 'pr-1'], { stage: { type: 'string' } })?.values.stage).toBe('pr-1');
    expect(parse(['--help'], { stage: { type: 'string' } })).toBeNull();
    expect(() => parse(['--nope'], { stage: { type: 'string' } })).toThrow(UsageError);
    expect(() => required(parse([], { stage: { type: 'string' } })!, 'stage')).toThrow('--stage is required');
  });

  it('region comes from the flag or the environment, else a clear error', () => {
    expect(resolveRegion('eu-west-1', {})).toBe('eu-west-1');
    expect(resolveRegion(undefined, { AWS_DEFAULT_REGION: 'us-east-2' })).toBe('us-east-2');
    expect(() => resolveRegion(undefined, {})).toThrow(/--region/);
  });
});

describe('deploy / destroy', () => {
  it('deploy arguments carry stage, created-at, alarm e-mail and approval mode', () => {
    expect(deployArgs({ stage: 'pr-42', createdAt: '2026-11-20T10:00:00Z', approve: true, outputsFile: 'cdk.out/o.json' })).toEqual([
      'deploy', '--all', '-c', 'stage=pr-42', '-c', 'createdAt=2026-11-20T10:00:00Z',
      '--require-approval', 'never', '--outputs-file', 'cdk.out/o.json', '--no-notices', '--progress', 'events',
    ]);
    const prod = deployArgs({ stage: 'prod', createdAt: 'x', approve: false, outputsFile: 'o', alarmEmail: 'soc@example.com' });
    expect(prod).toContain('alarmEmail=soc@example.com');
    expect(prod.slice(prod.indexOf('--require-approval'))[1]).toBe('broadening');
    expect(destroyArgs('pr-42')).toEqual(['destroy', '--all', '--force', '-c', 'stage=pr-42', '--no-notices']);
    expect(contextArgs(['previewDeployer=github', 'a=b=c'])).toEqual(['-c', 'previewDeployer=github', '-c', 'a=b=c']);
    expect(contextArgs(undefined)).toEqual([]);
    expect(() => contextArgs(['novalue'])).toThrow(UsageError);
  });

  it('stage names are validated; production stages need --force-production to be destroyed', () => {
    expect(() => checkStage('PR_42')).toThrow(UsageError);
    expect(() => guardDestroy('prod', false)).toThrow(/refusing/);
    expect(() => guardDestroy('staging', false)).toThrow(/refusing/);
    expect(() => guardDestroy('prod', true)).not.toThrow();
    expect(() => guardDestroy('pr-42', false)).not.toThrow();
  });

  it('created-at is kept across redeploys', () => {
    const now = new Date('2026-11-20T12:34:56.789Z');
    expect(resolveCreatedAt(null, now)).toBe('2026-11-20T12:34:56Z');
    expect(resolveCreatedAt({ StackName: 'a', Tags: [{ Key: 'created-at', Value: '2026-11-01T00:00:00Z' }] } as Stack, now)).toBe('2026-11-01T00:00:00Z');
    expect(resolveCreatedAt({ StackName: 'a', CreationTime: new Date('2026-10-01T00:00:00Z') } as Stack, now)).toBe('2026-10-01T00:00:00.000Z');
  });
});

describe('stale preview selection (scheduled clean-up)', () => {
  const stack = (name: string, tags: Record<string, string>, extra: Partial<Stack> = {}): Stack =>
    ({ StackName: name, Tags: Object.entries(tags).map(([Key, Value]) => ({ Key, Value })), ...extra }) as Stack;
  const now = new Date('2026-11-20T12:00:00Z');

  it('selects only vigia pr-<n> stages last deployed before the maximum age, oldest first, all their stacks', () => {
    const stacks = [
      // first deployed long ago (created-at), the age counts from the last deployment
      stack('Vigia-pr-1-Auth', { project: 'vigia', stage: 'pr-1', 'created-at': '2026-11-01T12:00:00Z' }, { CreationTime: new Date('2026-11-01T12:00:00Z'), LastUpdatedTime: new Date('2026-11-10T12:00:00Z') }),
      stack('Vigia-pr-1-Api', { project: 'vigia', stage: 'pr-1', 'created-at': '2026-11-01T12:00:00Z' }, { CreationTime: new Date('2026-11-01T12:00:00Z') }),
      stack('Vigia-pr-2-Auth', { project: 'vigia', stage: 'pr-2', 'created-at': '2026-11-01T00:00:00Z' }, { CreationTime: new Date('2026-11-01T00:00:00Z'), LastUpdatedTime: new Date('2026-11-20T06:00:00Z') }), // redeployed 6 h ago: young
      stack('Vigia-pr-3-Auth', { project: 'vigia', stage: 'pr-3' }, { CreationTime: new Date('2026-11-15T12:00:00Z') }), // never updated
      stack('Vigia-prod-Auth', { project: 'vigia', stage: 'prod' }, { CreationTime: new Date('2020-01-01T00:00:00Z') }), // never
      stack('Vigia-pr-4-Auth', { project: 'other', stage: 'pr-4' }, { CreationTime: new Date('2020-01-01T00:00:00Z') }), // not ours
      stack('Vigia-pr-5-Auth', { project: 'vigia', stage: 'pr-5' }, { CreationTime: new Date('2020-01-01T00:00:00Z'), StackStatus: 'DELETE_COMPLETE' }),
      stack('Unrelated', {}),
    ];
    const stale = stalePreviewStages(stacks, now, 72);
    expect(stale.map((s) => [s.stage, s.ageHours, s.stacks])).toEqual([
      ['pr-1', 240, ['Vigia-pr-1-Api', 'Vigia-pr-1-Auth']],
      ['pr-3', 120, ['Vigia-pr-3-Auth']],
    ]);
    expect(stalePreviewStages(stacks, now, 1).map((s) => s.stage)).toEqual(['pr-1', 'pr-3', 'pr-2']);
    // An open pull request updated within the maximum age keeps its stage.
    expect(stalePreviewStages(stacks, now, 72, [{ number: 1, updatedAt: '2026-11-19T12:00:00Z' }]).map((s) => s.stage)).toEqual(['pr-3']);
    expect(stalePreviewStages(stacks, now, 72, [{ number: 1, updatedAt: '2026-11-10T12:00:00Z' }]).map((s) => s.stage)).toEqual(['pr-1', 'pr-3']);
  });

  it('maximum age must be a positive number', () => {
    expect(parseMaxAge(undefined)).toBe(72);
    expect(parseMaxAge('12')).toBe(12);
    for (const bad of ['0', '-1', 'abc']) expect(() => parseMaxAge(bad)).toThrow(UsageError);
  });
});

describe('stage outputs → portal config.json', () => {
  const outputs = {
    'Vigia-pr-9-Auth': [['UserPoolId', 'eu-west-1_AbC'], ['UserPoolClientId', 'client123'], ['IdentityPoolId', 'eu-west-1:abc'], ['Region', 'eu-west-1'], ['Stage', 'pr-9']],
    'Vigia-pr-9-Hosting': [['SiteUrl', 'https://d1.cloudfront.net']],
    'Vigia-pr-9-Api': [['ApiUrl', 'https://x1.execute-api.eu-west-1.amazonaws.com/pr-9']],
  } as Record<string, string[][]>;
  const cfn = fakeClient((_n, input) => {
    const o = outputs[input.StackName as string];
    if (!o) throw awsError('ValidationError', `Stack with id ${String(input.StackName)} does not exist`);
    return { Stacks: [{ StackName: input.StackName, Outputs: o.map(([OutputKey, OutputValue]) => ({ OutputKey, OutputValue })) }] };
  });

  it('reads the Auth, Hosting and Api outputs and builds a valid PortalConfig', async () => {
    const o = await stageOutputs(cfn as unknown as CfnLike, 'pr-9', 'eu-west-1');
    expect(portalConfigFromOutputs('pr-9', o)).toEqual({
      region: 'eu-west-1',
      userPoolId: 'eu-west-1_AbC',
      userPoolClientId: 'client123',
      identityPoolId: 'eu-west-1:abc',
      apiUrl: 'https://x1.execute-api.eu-west-1.amazonaws.com/pr-9',
      stage: 'pr-9',
      allowSignUp: false, // previews: self sign-up off (docs/platform.md#cognito-user-pool)
      brandName: 'Vigía',
    });
    expect(portalConfigFromOutputs('prod', o).allowSignUp).toBe(false);
    expect(portalConfigFromOutputs('dev', o).allowSignUp).toBe(true);
    expect(githubOutputLines('pr-9', o)).toBe(
      'site_url=https://d1.cloudfront.net\napi_url=https://x1.execute-api.eu-west-1.amazonaws.com/pr-9\nuser_pool_id=eu-west-1_AbC\ntable_name=vigia-pr-9-main\n',
    );
  });

  it('a missing stage or output is a clear error; other errors propagate', async () => {
    await expect(stageOutputs(cfn as unknown as CfnLike, 'pr-10', 'eu-west-1')).rejects.toThrow(StageNotDeployedError);
    expect(() => portalConfigFromOutputs('pr-9', { Region: 'eu-west-1' })).toThrow(/UserPoolId is missing/);
    const denied = fakeClient(() => {
      throw awsError('AccessDenied');
    });
    await expect(describeStack(denied as unknown as CfnLike, 'x')).rejects.toThrow('AccessDenied');
  });

  it('lists stacks across pages', async () => {
    const pages = fakeClient((_n, input) => (input.NextToken ? { Stacks: [{ StackName: 'b' }] } : { Stacks: [{ StackName: 'a' }], NextToken: 't' }));
    expect((await listStacks(pages as unknown as CfnLike)).map((s) => s.StackName)).toEqual(['a', 'b']);
  });
});

describe('invite a user', () => {
  /** Administration ports over memory: tenant `acme` registered, a users port that records its calls. */
  function ports(existing: string[] = []) {
    const calls: Array<[string, ...unknown[]]> = [];
    const entries: AuditEntry[] = [];
    const known = new Set(existing);
    const user = (email: string): PoolUser => ({ username: `id-${email}`, email, status: 'FORCE_CHANGE_PASSWORD', enabled: true, mfa: false });
    const users = {
      createUser: async (email: string, opts: unknown) => {
        calls.push(['createUser', email, opts]);
        const created = !known.has(email);
        known.add(email);
        return { user: user(email), created };
      },
      addToGroup: async (u: string, g: string) => void calls.push(['addToGroup', u, g]),
      getUser: async (u: string) => user(u.slice(3)),
    } as Partial<UsersPort> as UsersPort;
    const p: AdminPorts = {
      tenants: { getTenant: async (id: string) => (id === 'acme' ? { id, name: 'Acme' } : null) } as Partial<TenantsPort> as TenantsPort,
      // the member ledger and userCount with the user.invite entry (TenantAdminPort.addMember)
      tenantAdmin: { addMember: async (_t: string, _u: string, _at: string, a: AuditEntry | null) => (a && void entries.push(a), true) } as Partial<TenantAdminPort> as TenantAdminPort,
      audit: { put: async (e: AuditEntry) => void entries.push(e) } as Partial<AuditPort> as AuditPort,
      users,
    };
    return { p, calls, entries };
  }
  const req = operatorRequest(new Date('2026-11-23T10:00:00Z'), 'ops');

  it('calls the domain invitation (Cognito e-mails the temporary password), audited with the cli actor', async () => {
    const { p, calls, entries } = ports();
    expect(await inviteUser(p, { email: 'Ana@Acme.com', group: 'acme' }, undefined, req)).toEqual({ created: true, delivery: 'email' });
    expect(calls).toEqual([['createUser', 'ana@acme.com', {}], ['addToGroup', 'id-ana@acme.com', 'acme']]);
    expect(entries).toEqual([expect.objectContaining({ tenantId: 'acme', action: 'user.invite', actor: { sub: 'cli:ops' }, sourceIp: 'cli', after: { email: 'ana@acme.com', group: 'acme', created: true } })]);
  });

  it('with --password: a permanent password and no e-mail; an existing user is only added to the group', async () => {
    const { p, calls } = ports(['ci@example.com']);
    expect(await inviteUser(p, { email: 'ci@example.com', group: 'acme', password: 'Secreta123' }, undefined, req)).toEqual({ created: false, delivery: 'none' });
    expect(calls[0]).toEqual(['createUser', 'ci@example.com', { permanentPassword: 'Secreta123' }]);
  });

  it('--tenant admin invites staff: the staff group and the staff log (invitation + grant)', async () => {
    const { p, calls, entries } = ports();
    expect(await inviteUser(p, { email: 'soc@vigia.example', group: 'admin' }, undefined, req)).toEqual({ created: true, delivery: 'email' });
    expect(calls.filter(([op]) => op === 'addToGroup')).toEqual([['addToGroup', 'id-soc@vigia.example', 'admin']]);
    expect(entries.map((e) => [e.tenantId, e.action, e.actor.sub])).toEqual([['_staff', 'user.invite', 'cli:ops'], ['_staff', 'staff.grant', 'cli:ops']]);
  });

  it('refuses an unregistered tenant, a bad e-mail or a bad tenant id before creating anything', async () => {
    const { p, calls, entries } = ports();
    await expect(inviteUser(p, { email: 'a@b.co', group: 'nope' }, undefined, req)).rejects.toThrow(/tenant "nope" is not registered: create the tenant first/);
    await expect(inviteUser(p, { email: 'not-mail', group: 'acme' }, undefined, req)).rejects.toThrow(UsageError);
    expect(calls).toEqual([]);
    expect(entries).toEqual([]);
    expect(() => validateInvite({ email: 'not-mail', group: 'acme' })).toThrow(UsageError);
    expect(() => validateInvite({ email: 'a@b.co', group: 'Bad Tenant' })).toThrow(UsageError);
    expect(() => validateInvite({ email: 'a@b.co', group: 'admin' })).not.toThrow();
  });
});

describe('create a tenant', () => {
  it('calls the domain createTenant: Cognito group, then registry item and tenant.create audit entry in one transaction', async () => {
    const ops: Array<[string, Record<string, unknown>]> = [];
    const table: TableRef = { tableName: 'vigia-pr-9-main', doc: { send: async (op, input) => (ops.push([op, input as unknown as Record<string, unknown>]), {}) as never, destroy: () => undefined } };
    const idp = fakeClient();
    const req = operatorRequest(new Date('2026-11-23T10:00:00Z'), 'ops');
    expect(await createTenant(idp, table, { userPoolId: 'pool', id: 'initech', name: ' Initech ' }, undefined, req)).toEqual({ groupCreated: true });
    expect(idp.calls).toEqual([['CreateGroup', { UserPoolId: 'pool', GroupName: 'initech', Description: 'Vigía tenant Initech' }]]);
    expect(ops.map(([op]) => op)).toEqual(['GetItem', 'TransactWriteItems']);
    const items = (ops[1]![1].TransactItems as Array<Record<string, { Item?: Record<string, unknown> }>>).map((t) => Object.values(t)[0]!.Item);
    expect(items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ PK: 'TENANTS', SK: 'TENANT#initech', id: 'initech', name: 'Initech' }),
        expect.objectContaining({ action: 'tenant.create', tenantId: 'initech', requestId: `cli-${Date.parse('2026-11-23T10:00:00Z')}`, sourceIp: 'cli' }),
      ]),
    );
    expect(req.identity).toMatchObject({ sub: 'cli:ops', isAdmin: true });

    // An existing group is kept (the API's rule too).
    const kept = fakeClient(() => {
      throw awsError('GroupExistsException');
    });
    expect(await createTenant(kept, table, { userPoolId: 'pool', id: 'globex', name: 'Globex' })).toEqual({ groupCreated: false });
  });

  it('a registered tenant is refused as the API does (409 there): nothing is written, rename in the portal', async () => {
    const ops: string[] = [];
    const table: TableRef = {
      tableName: 'vigia-pr-9-main',
      doc: { send: async (op) => (ops.push(op), op === 'GetItem' ? { Item: { PK: 'TENANTS', SK: 'TENANT#initech', id: 'initech', name: 'Initech' } } : {}) as never, destroy: () => undefined },
    };
    const idp = fakeClient();
    await expect(createTenant(idp, table, { userPoolId: 'pool', id: 'initech', name: 'Otra' })).rejects.toThrow(/registered already.*rename it in the portal/);
    expect(ops).toEqual(['GetItem']);
    expect(idp.calls).toEqual([]);
    expect(() => validateTenant({ id: 'admin', name: 'x' })).toThrow(/staff group/);
    expect(() => validateTenant({ id: 'UPPER', name: 'x' })).toThrow(UsageError);
    expect(() => validateTenant({ id: 'ok-1', name: ' ' })).toThrow(/--name/);
  });
});
