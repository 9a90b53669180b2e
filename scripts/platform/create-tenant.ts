/**
 * Create a tenant in a stage: the Cognito group (group name = tenant id; tenants are groups, see
 * docs/platform.md#cognito-user-pool) and the tenant registry item with its `tenant.create` audit entry.
 * Calls the same domain code as `POST /tenants` (`createTenant` of lambdas/domain/admin.ts) over the same
 * ports: the stage table's repository (`dynamoRepository`) and, for the one Cognito call the use case makes
 * (`ensureGroup`), the SDK client signed with the operator's AWS credentials (default provider chain), which
 * also tells whether the group was new. Same rule as the API: an existing group is
 * kept, but a tenant registered already is refused (exit 2); rename it in the portal (`PATCH /tenants/{id}`).
 * With `--if-missing` (the deploy and preview workflows seed their tenant on every run) a registered tenant
 * is left as it is and the command exits 0.
 *
 *   npm run platform:create-tenant -- --stage prod --tenant acme --name "Acme S.A."
 *   # local stack:
 *   npm run platform:create-tenant -- --user-pool-id local_vigia --table vigia-local-main --region us-east-1 \
 *       --endpoint http://127.0.0.1:9229 --dynamodb-endpoint http://127.0.0.1:8000 --tenant initech --name Initech
 */
import { TenantId } from '../../lambdas/contract/schemas.js';
import type { TableRef } from '../../lambdas/data/table/client.js';
import { CreateGroupCommand } from '@aws-sdk/client-cognito-identity-provider';
import { dynamoRepository } from '../../lambdas/data/index.js';
import { createTenant as createTenantUseCase } from '../../lambdas/domain/admin.js';
import type { AuditRequest } from '../../lambdas/domain/audit.js';
import { ApiError } from '../../lambdas/domain/errors.js';
import { isReservedTenantId } from '../../lambdas/domain/reserved-names.js';
import type { UsersPort } from '../../lambdas/domain/ports.js';
import { cognitoClient, operatorRequest, resolveUserPoolId, TABLE_OPTIONS, tableFromOptions, type CognitoLike } from './aws.js';
import { optional, parse, progress, required, runCli, UsageError } from './cli.js';

export const USAGE = `
Usage: tsx scripts/platform/create-tenant.ts (--stage <stage> | --user-pool-id <id> --table <name>) --tenant <id> --name <name>

Creates the tenant's Cognito group and its registry item in the stage table.

Options:
  --stage               deployed stage: user pool from the Vigia-<stage>-Auth outputs, table from the Vigia-<stage>-Data outputs
  --user-pool-id        user pool id (instead of --stage)
  --table               table name (default: the deployed stage's, from its Vigia-<stage>-Data outputs)
  --tenant              tenant id: lower-case letters, digits and dashes (e.g. acme)
  --name                display name (e.g. "Acme S.A.")
  --if-missing          a tenant registered already is left as it is, exit 0 (CI seeding on every deploy)
  --endpoint            Cognito endpoint override (local stack)
  --dynamodb-endpoint   DynamoDB endpoint override (local stack)
  --region              AWS region (default $AWS_REGION)
  -h, --help            this text
`;

/**
 * The IAM actions of a run (besides the user pool id from the Auth stack's outputs): CreateGroup on the
 * pool, and the tenant read and the TransactWriteItems of the registry item and its audit entry (two Puts)
 * on the table.
 */
export const CREATE_TENANT_ACTIONS = {
  userPool: ['cognito-idp:CreateGroup'],
  table: ['dynamodb:GetItem', 'dynamodb:PutItem'],
} as const;

export interface TenantInput {
  userPoolId: string;
  id: string;
  name: string;
}

/** Validates a tenant. @throws UsageError */
export function validateTenant(t: { id: string; name: string }): void {
  // The same rule as POST /tenants (docs/api.md#reserved-names).
  if (isReservedTenantId(t.id)) throw new UsageError(`--tenant "${t.id}" is reserved for the staff (the staff group's name), not a tenant`);
  if (!TenantId.safeParse(t.id).success) throw new UsageError(`--tenant "${t.id}": 2–63 lower-case letters, digits or dashes, starting with a letter or digit`);
  if (t.name.trim() === '') throw new UsageError('--name must not be empty');
}

/**
 * The users port of the create-tenant use case: `ensureGroup` as CreateGroup through the operator's SDK
 * client (GroupExistsException = kept), recording whether the group was new; the use case calls nothing else.
 */
function groupPort(idp: CognitoLike, userPoolId: string): { users: UsersPort; created: () => boolean } {
  let created = false;
  const unused = () => Promise.reject(new Error('create-tenant: only ensureGroup is available'));
  const users: UsersPort = {
    listGroupMembers: unused, listGroupUsers: unused, countGroupUsers: unused, getUser: unused, createUser: unused, resendInvitation: unused,
    addToGroup: unused, removeFromGroup: unused, setEnabled: unused, resetMfa: unused, groupsOf: unused, listGroupPage: unused, deleteUser: unused,
    async ensureGroup(group, description) {
      try {
        await idp.send(new CreateGroupCommand({ UserPoolId: userPoolId, GroupName: group, Description: description }));
        created = true;
      } catch (e) {
        if ((e as { name?: string }).name !== 'GroupExistsException') throw e;
      }
    },
  };
  return { users, created: () => created };
}

/** The tenant is registered already (the API answers 409); `--if-missing` turns it into a no-op. */
export class TenantRegisteredError extends UsageError {}

const registeredAlready = (id: string, table: string) =>
  new TenantRegisteredError(`tenant ${id} is registered already in ${table}: rename it in the portal (PATCH /tenants/${id}), not here`);

/**
 * Registers the tenant with the domain's `createTenant` (Cognito group created unless present, then the
 * registry item and its audit entry in one transaction). @returns whether the group was new
 * @throws UsageError when the tenant is registered already (the API answers 409 VERSION_CONFLICT); Cognito errors
 */
export async function createTenant(idp: CognitoLike, table: TableRef, t: TenantInput, log: (l: string) => void = () => undefined, req: AuditRequest = operatorRequest()): Promise<{ groupCreated: boolean }> {
  validateTenant(t);
  const repo = dynamoRepository(table);
  if ((await repo.tenants.getTenant(t.id)) !== null) throw registeredAlready(t.id, table.tableName);
  const group = groupPort(idp, t.userPoolId);
  try {
    await createTenantUseCase({ tenants: repo.tenants, tenantAdmin: repo.tenantAdmin, audit: repo.audit, users: group.users }, { tenantId: t.id, name: t.name }, req);
  } catch (e) {
    if (e instanceof ApiError && e.code === 'VERSION_CONFLICT') throw registeredAlready(t.id, table.tableName);
    throw e;
  }
  log(group.created() ? `group ${t.id} created in ${t.userPoolId}` : `group ${t.id} already exists`);
  log(`tenant ${t.id} ("${t.name.trim()}") registered in ${table.tableName}`);
  return { groupCreated: group.created() };
}

export async function main(argv: string[]): Promise<void | 'help'> {
  const p = parse(argv, {
    ...TABLE_OPTIONS,
    'user-pool-id': { type: 'string' },
    tenant: { type: 'string' },
    name: { type: 'string' },
    endpoint: { type: 'string' },
    'if-missing': { type: 'boolean' },
  });
  if (!p) return 'help';
  const log = progress('create-tenant');
  const tenant = { id: required(p, 'tenant'), name: required(p, 'name') };
  validateTenant(tenant);
  const { table, tableName, stage, region } = await tableFromOptions(p);
  const userPoolId = await resolveUserPoolId({ userPoolId: optional(p, 'user-pool-id'), stage, region });
  const endpoint = optional(p, 'endpoint');
  const idp = cognitoClient({ region, ...(endpoint ? { cognitoEndpoint: endpoint } : {}) });
  try {
    const r = await createTenant(idp, table, { userPoolId, ...tenant }, log);
    process.stdout.write(`${JSON.stringify({ tenant: tenant.id, name: tenant.name, userPoolId, table: tableName, ...r })}\n`);
  } catch (e) {
    if (!(p.values['if-missing'] === true && e instanceof TenantRegisteredError)) throw e;
    log(`tenant ${tenant.id} is registered already; left as it is (--if-missing)`);
    process.stdout.write(`${JSON.stringify({ tenant: tenant.id, userPoolId, table: tableName, registeredAlready: true })}\n`);
  } finally {
    idp.destroy();
    table.doc.destroy();
  }
}

runCli(import.meta.url, USAGE, main);
