/**
 * Grant (or revoke) a collector's IAM principal the right to write one tenant through the ingest routes:
 * adds the principal to (or removes it from) the `collectors` string set of the tenant's registry item in
 * the stage table (`setTenantCollector` from lambdas/data). Rules and the principal's form:
 * docs/api.md#collectors-and-tenants.
 *
 *   npm run platform:grant-collector -- --stage prod --tenant acme --role-arn arn:aws:iam::123456789012:role/vigia-collector-acme
 *   npm run platform:grant-collector -- --stage prod --tenant acme --role-arn arn:aws:iam::123456789012:role/vigia-collector-acme --revoke
 *   # local stack:
 *   npm run platform:grant-collector -- --table vigia-local-main --region us-east-1 \
 *       --dynamodb-endpoint http://127.0.0.1:8000 --tenant acme --role-arn arn:aws:iam::000000000000:role/my-collector
 */
import { TenantId } from '../../lambdas/contract/schemas.js';
import type { TableRef } from '../../lambdas/data/table/client.js';
import { getTenantCollectors, setTenantCollector, TenantNotRegistered } from '../../lambdas/data/tenants.js';
import { collectorGrant } from '../../lambdas/domain/collectors.js';
import { ApiError } from '../../lambdas/domain/errors.js';
import { TABLE_OPTIONS, tableFromOptions } from './aws.js';
import { parse, progress, required, runCli, UsageError } from './cli.js';

export const USAGE = `
Usage: tsx scripts/platform/grant-collector.ts (--stage <stage> | --table <name>) --tenant <id> --role-arn <arn> [--revoke]

Allows the collector calling as <arn> to write the tenant's data through /ingest/* (or, with --revoke,
no longer). The tenant must exist (platform:create-tenant).

Options:
  --stage               deployed stage: table from the Vigia-<stage>-Data outputs
  --table               table name (instead of --stage)
  --tenant              tenant id (e.g. acme)
  --role-arn            the collector's IAM role ARN (arn:aws:iam::<account>:role/<name>); an assumed-role
                        ARN (arn:aws:sts::<account>:assumed-role/<name>/<session>) or an IAM user ARN also works
  --revoke              remove the grant instead of adding it
  --dynamodb-endpoint   DynamoDB endpoint override (local stack)
  --region              AWS region (default $AWS_REGION)
  -h, --help            this text
`;

/** The IAM actions of a run on the stage table (`setTenantCollector`, `getTenantCollectors`). */
export const GRANT_COLLECTOR_ACTIONS = ['dynamodb:UpdateItem', 'dynamodb:GetItem'] as const;

/**
 * Grants or revokes `arn` (normalised by `collectorPrincipal`) on `tenantId`.
 * @returns the principal stored and the tenant's collectors after the change (sorted)
 * @throws UsageError for a malformed tenant id or ARN, a reserved tenant id (`collectorGrant`:
 *   docs/api.md#reserved-names; nothing written), or a tenant that is not registered
 */
export async function grantCollector(
  table: TableRef,
  input: { tenantId: string; arn: string; revoke?: boolean },
  log: (l: string) => void = () => undefined,
): Promise<{ principal: string; collectors: string[] }> {
  if (!TenantId.safeParse(input.tenantId).success) throw new UsageError(`--tenant "${input.tenantId}" is not a tenant id`);
  let principal: string;
  try {
    principal = collectorGrant(input.tenantId, input.arn);
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    if (e.code === 'RESERVED_NAME') throw new UsageError(`--tenant "${input.tenantId}" is reserved for the staff (the staff group's name), not a tenant`);
    throw new UsageError(`--role-arn "${input.arn}" is not an IAM role, assumed-role or user ARN`);
  }
  try {
    await setTenantCollector(input.tenantId, principal, input.revoke ? 'revoke' : 'grant', table);
  } catch (e) {
    if (e instanceof TenantNotRegistered) throw new UsageError(`tenant ${input.tenantId} is not registered in ${table.tableName} (create it first)`);
    throw e;
  }
  log(`${principal} ${input.revoke ? 'may no longer write' : 'may write'} tenant ${input.tenantId}`);
  return { principal, collectors: (await getTenantCollectors(input.tenantId, table)) ?? [] };
}

export async function main(argv: string[]): Promise<void | 'help'> {
  const p = parse(argv, {
    ...TABLE_OPTIONS,
    tenant: { type: 'string' },
    'role-arn': { type: 'string' },
    revoke: { type: 'boolean' },
  });
  if (!p) return 'help';
  const log = progress('grant-collector');
  const { table, tableName } = await tableFromOptions(p);
  try {
    const tenantId = required(p, 'tenant');
    const r = await grantCollector(table, { tenantId, arn: required(p, 'role-arn'), revoke: p.values.revoke === true }, log);
    process.stdout.write(`${JSON.stringify({ tenant: tenantId, table: tableName, ...r })}\n`);
  } finally {
    table.doc.destroy();
  }
}

runCli(import.meta.url, USAGE, main);
