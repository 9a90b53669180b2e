/**
 * create-tenant.ts and invite-user.ts as real command lines (tsx subprocesses) against the LOCAL stack
 * (both through the domain's administration use cases, audited with the operator as actor)
 * (cognito-local behind the compatibility proxy + dynoxide, random ports, temp folder) through their
 * endpoint overrides — the same code paths preview.yml uses against a deployed stage.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { AdminGetUserCommand, CognitoIdentityProviderClient, CreateGroupCommand, ListUsersInGroupCommand } from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTenant } from '../../lambdas/data/tenants.js';
import { dynamoRepository } from '../../lambdas/data/index.js';
import { IncidentEntity, itemOf } from '../../lambdas/data/entities.js';
import { LOCAL_OPERATOR_CREDENTIAL, DEMO_REGION, localTable } from '../../scripts/local/config.js';
import { startLocalStack, type RunningLocalStack } from '../../scripts/local/stack.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let stack: RunningLocalStack;
let dataDir: string;

async function cli(script: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    // `node --import tsx` rather than `npx tsx`: the same TypeScript loader without starting npm each time.
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', `scripts/platform/${script}.ts`, ...args], {
      cwd: ROOT,
      timeout: 60_000,
      env: { ...process.env, AWS_ACCESS_KEY_ID: '', AWS_SECRET_ACCESS_KEY: '', AWS_REGION: '' },
    });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

const local = () => ['--region', DEMO_REGION, '--user-pool-id', stack.config.userPoolId, '--endpoint', stack.urls.cognito];
const data = () => ['--table', stack.tableName, '--dynamodb-endpoint', stack.urls.dynamodb, '--region', DEMO_REGION];

describe('platform scripts against the local stack', () => {
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'vigia-platform-scripts-'));
    // No demo data (nor its collector simulator): the scripts create what the test reads.
    stack = await startLocalStack({ dataDir, persist: false, seed: false, serveWeb: false, ports: { dynamodb: 0, cognito: 0, cognitoInternal: 0, api: 0, web: 0 } });
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('create-tenant creates the Cognito group and the registry item (once, as the API); invite-user adds a user to it', async () => {
    const created = await cli('create-tenant', [...local(), '--table', stack.tableName, '--dynamodb-endpoint', stack.urls.dynamodb, '--tenant', 'initech', '--name', 'Initech S.L.']);
    expect(created.code, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ tenant: 'initech', groupCreated: true });
    expect(created.stderr).toContain('[create-tenant] group initech created');

    const table = localTable(stack.urls.dynamodb, stack.tableName);
    expect(await getTenant('initech', table)).toEqual({ id: 'initech', name: 'Initech S.L.' });
    table.doc.destroy();

    const again = await cli('create-tenant', [...local(), '--table', stack.tableName, '--dynamodb-endpoint', stack.urls.dynamodb, '--tenant', 'initech', '--name', 'Initech']);
    // Same rule as POST /tenants (409): a registered tenant is not renamed here.
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('tenant initech is registered already');
    expect(await getTenant('initech', localTable(stack.urls.dynamodb, stack.tableName))).toEqual({ id: 'initech', name: 'Initech S.L.' });
    // --if-missing (the workflows seed on every run): the registered tenant is left as it is, exit 0.
    const seeded = await cli('create-tenant', [...local(), ...data(), '--tenant', 'initech', '--name', 'Initech', '--if-missing']);
    expect(seeded.code, seeded.stderr).toBe(0);
    expect(JSON.parse(seeded.stdout)).toMatchObject({ tenant: 'initech', registeredAlready: true });
    expect(await getTenant('initech', localTable(stack.urls.dynamodb, stack.tableName))).toEqual({ id: 'initech', name: 'Initech S.L.' });

    const invited = await cli('invite-user', [...local(), ...data(), '--email', 'Nuevo@Initech.example', '--tenant', 'initech', '--password', 'Secreta123']);
    expect(invited.code, invited.stderr).toBe(0);
    expect(JSON.parse(invited.stdout)).toEqual({ email: 'nuevo@initech.example', group: 'initech', created: true, delivery: 'none' });
    // The domain's invitation: audited in the tenant's log with the operator ("cli:<OS user>") as actor.
    const repo = dynamoRepository(localTable(stack.urls.dynamodb, stack.tableName));
    const log = await repo.audit.listTenant('initech', { limit: 10 });
    expect(log.items.map((e) => [e.action, e.actor.sub.startsWith('cli:'), e.sourceIp])).toEqual([['user.invite', true, 'cli'], ['tenant.create', true, 'cli']]);
    // --tenant admin: the same user made staff (invitation of an existing user + grant, in the staff log).
    // The staff group is the Auth stack's; this bare local pool (no demo data) gets it here.
    const operator = new CognitoIdentityProviderClient({ endpoint: stack.urls.cognito, region: DEMO_REGION, credentials: { accessKeyId: LOCAL_OPERATOR_CREDENTIAL.accessKeyId, secretAccessKey: LOCAL_OPERATOR_CREDENTIAL.secretAccessKey } });
    await operator.send(new CreateGroupCommand({ UserPoolId: stack.config.userPoolId, GroupName: 'admin' }));
    operator.destroy();
    const staff = await cli('invite-user', [...local(), ...data(), '--email', 'nuevo@initech.example', '--tenant', 'admin']);
    expect(staff.code, staff.stderr).toBe(0);
    expect(JSON.parse(staff.stdout)).toEqual({ email: 'nuevo@initech.example', group: 'admin', created: false, delivery: 'none' });
    expect((await repo.audit.listTenant('_staff', { limit: 10 })).items.map((e) => e.action).sort()).toEqual(['staff.grant', 'user.invite']);

    const idp = new CognitoIdentityProviderClient({ endpoint: stack.urls.cognito, region: DEMO_REGION, credentials: { accessKeyId: LOCAL_OPERATOR_CREDENTIAL.accessKeyId, secretAccessKey: LOCAL_OPERATOR_CREDENTIAL.secretAccessKey } });
    const members = await idp.send(new ListUsersInGroupCommand({ UserPoolId: stack.config.userPoolId, GroupName: 'initech' }));
    expect(members.Users?.map((u) => u.Attributes?.find((a) => a.Name === 'email')?.Value)).toEqual(['nuevo@initech.example']);
    const staffMembers = await idp.send(new ListUsersInGroupCommand({ UserPoolId: stack.config.userPoolId, GroupName: 'admin' }));
    expect(staffMembers.Users?.map((u) => u.Attributes?.find((a) => a.Name === 'email')?.Value)).toContain('nuevo@initech.example');
    const user = await idp.send(new AdminGetUserCommand({ UserPoolId: stack.config.userPoolId, Username: 'nuevo@initech.example' }));
    expect(user.UserStatus).toBe('CONFIRMED');
    idp.destroy();
  }, 120_000);

  it('invite-user into a tenant that is not registered fails with a clear message and exit status 1', async () => {
    const [r, usage, noTable] = await Promise.all([
      cli('invite-user', [...local(), ...data(), '--email', 'x@nowhere.example', '--tenant', 'nowhere']),
      cli('invite-user', [...local(), ...data(), '--email', 'x@nowhere.example']),
      cli('invite-user', [...local(), '--email', 'x@nowhere.example', '--tenant', 'nowhere']),
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('tenant "nowhere" is not registered');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--tenant is required');
    expect(noTable.code).toBe(2);
    expect(noTable.stderr).toContain('--table');
  });
  it('rebuild-aggregates --check finds a write that bypassed the aggregates (exit 1); a rebuild repairs it; a new tenant starts drift-free', async () => {
    const created = await cli('create-tenant', [...local(), ...data(), '--tenant', 'umbrella', '--name', 'Umbrella S.A.']);
    expect(created.code, created.stderr).toBe(0);
    const clean = await cli('rebuild-aggregates', [...data(), '--tenant', 'umbrella', '--check']);
    expect(clean.code, clean.stderr).toBe(0);
    expect(JSON.parse(clean.stdout)).toMatchObject({ check: true, drift: { umbrella: [] } });
    // An incident written straight into the table, as data stored before the aggregates existed.
    const at = new Date().toISOString();
    const incident = { id: 'INC-000001', tenantId: 'umbrella', title: 'Acceso sospechoso', description: 'x', severity: 'high', status: 'new', category: 'general', source: 'portal', reporter: 'x@umbrella.example', reporterSub: 'x', assignee: null, createdAt: at, updatedAt: at, resolvedAt: null, slaDueAt: at, version: 1, slaTargets: null, triagedAt: null, firstAcknowledgedAt: null, closureRequested: false, closedAt: null, slaResult: null } as const;
    const table = localTable(stack.urls.dynamodb, stack.tableName);
    await table.doc.send('PutItem', { TableName: stack.tableName, Item: itemOf(IncidentEntity, incident) });
    const drifted = await cli('rebuild-aggregates', [...data(), '--tenant', 'umbrella', '--check']);
    expect(drifted.code).toBe(1);
    expect(drifted.stderr).toContain('stats.inc#new#high: stored 0, items 1');
    const repaired = await cli('rebuild-aggregates', [...data(), '--tenant', 'umbrella']);
    expect(repaired.code, repaired.stderr).toBe(0);
    expect(repaired.stderr).toContain('repaired');
    const after = await cli('rebuild-aggregates', [...data(), '--check']);
    expect(after.code, after.stderr).toBe(0);
  });
});
