/**
 * Create a tenant in a stage: the Cognito group (group name = tenant id; tenants are groups, see
 * docs/platform.md#cognito-user-pool) and the tenant registry item in the stage table (`putTenant` from
 * lambdas/data: `PK=TENANTS`, `SK=TENANT#<id>`, `name`).
 * Idempotent: an existing group is kept, the registry item is replaced (renames the tenant).
 *
 *   npm run platform:create-tenant -- --stage prod --tenant acme --name "Acme S.A."
 *   # local stack:
 *   npm run platform:create-tenant -- --user-pool-id local_vigia --table vigia-local-main --region us-east-1 \
 *       --endpoint http://127.0.0.1:9229 --dynamodb-endpoint http://127.0.0.1:8000 --tenant initech --name Initech
 */
import { CreateGroupCommand } from '@aws-sdk/client-cognito-identity-provider';
import { ADMIN_GROUP } from '../../lambdas/contract/routes.js';
import { TenantId } from '../../lambdas/contract/schemas.js';
import type { TableRef } from '../../lambdas/data/client.js';
import { putTenant } from '../../lambdas/data/tenants.js';
import { cognitoClient, resolveRegion, stageTableName, tableRef } from './aws.js';
import { optional, parse, progress, required, runCli, UsageError } from './cli.js';
import { resolveUserPoolId, type CognitoLike } from './invite-user.js';

export const USAGE = `
Usage: tsx scripts/platform/create-tenant.ts (--stage <stage> | --user-pool-id <id> --table <name>) --tenant <id> --name <name>

Creates the tenant's Cognito group and its registry item in the stage table.

Options:
  --stage               deployed stage: user pool from the Vigia-<stage>-Auth outputs, table vigia-<stage>-main
  --user-pool-id        user pool id (instead of --stage)
  --table               table name (default vigia-<stage>-main)
  --tenant              tenant id: lower-case letters, digits and dashes (e.g. acme)
  --name                display name (e.g. "Acme S.A.")
  --endpoint            Cognito endpoint override (local stack)
  --dynamodb-endpoint   DynamoDB endpoint override (local stack)
  --region              AWS region (default $AWS_REGION)
  -h, --help            this text
`;

export interface TenantInput {
  userPoolId: string;
  id: string;
  name: string;
}

/** Validates a tenant. @throws UsageError */
export function validateTenant(t: { id: string; name: string }): void {
  if (t.id === ADMIN_GROUP) throw new UsageError(`"${ADMIN_GROUP}" is the staff group, not a tenant`);
  if (!TenantId.safeParse(t.id).success) throw new UsageError(`--tenant "${t.id}": 2–63 lower-case letters, digits or dashes, starting with a letter or digit`);
  if (t.name.trim() === '') throw new UsageError('--name must not be empty');
}

/** Creates the group (kept if present) and writes the registry item. @returns whether the group was new */
export async function createTenant(idp: CognitoLike, table: TableRef, t: TenantInput, log: (l: string) => void = () => undefined): Promise<{ groupCreated: boolean }> {
  validateTenant(t);
  let groupCreated = true;
  try {
    await idp.send(new CreateGroupCommand({ UserPoolId: t.userPoolId, GroupName: t.id, Description: t.name.trim() }));
    log(`group ${t.id} created in ${t.userPoolId}`);
  } catch (e) {
    if ((e as { name?: string }).name !== 'GroupExistsException') throw e;
    groupCreated = false;
    log(`group ${t.id} already exists`);
  }
  await putTenant({ id: t.id, name: t.name.trim() }, table);
  log(`tenant ${t.id} ("${t.name.trim()}") registered in ${table.tableName}`);
  return { groupCreated };
}

async function main(argv: string[]): Promise<void | 'help'> {
  const p = parse(argv, {
    stage: { type: 'string' },
    'user-pool-id': { type: 'string' },
    table: { type: 'string' },
    tenant: { type: 'string' },
    name: { type: 'string' },
    endpoint: { type: 'string' },
    'dynamodb-endpoint': { type: 'string' },
    region: { type: 'string' },
  });
  if (!p) return 'help';
  const log = progress('create-tenant');
  const tenant = { id: required(p, 'tenant'), name: required(p, 'name') };
  validateTenant(tenant);
  const region = resolveRegion(optional(p, 'region'));
  const stage = optional(p, 'stage');
  const tableName = optional(p, 'table') ?? (stage ? stageTableName(stage) : undefined);
  if (!tableName) throw new UsageError('pass --stage <stage> or --table <name>');
  const userPoolId = await resolveUserPoolId({ userPoolId: optional(p, 'user-pool-id'), stage, region });
  const endpoint = optional(p, 'endpoint');
  const ddbEndpoint = optional(p, 'dynamodb-endpoint');
  const idp = cognitoClient({ region, ...(endpoint ? { cognitoEndpoint: endpoint } : {}) });
  const table = tableRef({ region, ...(ddbEndpoint ? { dynamodbEndpoint: ddbEndpoint } : {}) }, tableName);
  try {
    const r = await createTenant(idp, table, { userPoolId, ...tenant }, log);
    process.stdout.write(`${JSON.stringify({ tenant: tenant.id, name: tenant.name, userPoolId, table: tableName, ...r })}\n`);
  } finally {
    idp.destroy();
    table.doc.destroy();
  }
}

runCli(import.meta.url, USAGE, main);
