/**
 * Backfill and drift check of the tenants' `userCount` (docs/data-model.md#tenant-counts): for each registered
 * tenant, compares the members of its Cognito group (one paged ListUsersInGroup) with its member ledger and
 * stored count. `--check` only reports (exit 1 when any tenant drifted: members added in the console or by a
 * federated first sign-in, or a stage older than the counts); without it the counts are repaired.
 *
 *   npm run platform:user-counts -- --stage prod --check
 *   npm run platform:user-counts -- --stage prod
 *   # local stack:
 *   npm run platform:user-counts -- --table vigia-local-main --user-pool-id <id> --endpoint http://127.0.0.1:9229 --dynamodb-endpoint http://127.0.0.1:8000 --region us-east-1
 */
import { drifted, reconcileUserCounts } from '../../lambdas/data/tenant-admin.js';
import { resolveRegion, resolveUserPoolId, TABLE_OPTIONS, tableFromOptions } from './aws.js';
import { optional, parse, progress, runCli, UsageError } from './cli.js';
import { operatorUsers } from './invite-user.js';

export const USAGE = `
Usage: tsx scripts/platform/user-counts.ts (--stage <stage> | --table <name> --user-pool-id <id>) [--tenant <id>] [--check]

Compares each tenant's Cognito group with its counted members (userCount on the registry item). With
--check, only reports the differences and exits 1 if there are any; otherwise counts the missing members,
uncounts the departed ones and sets userCount to the group's size.

Options:
  --stage               deployed stage: table and user pool from its stack outputs
  --table               table name (instead of --stage)
  --user-pool-id        user pool id (with --table)
  --tenant              one tenant only (default: every registered tenant)
  --check               compare only; exit 1 on drift
  --endpoint            Cognito endpoint override (local stack)
  --dynamodb-endpoint   DynamoDB endpoint override (local stack)
  --region              AWS region (default $AWS_REGION)
  -h, --help            this text
`;

export async function main(argv: string[]): Promise<void | 'help'> {
  const p = parse(argv, { ...TABLE_OPTIONS, tenant: { type: 'string' }, check: { type: 'boolean' }, 'user-pool-id': { type: 'string' }, endpoint: { type: 'string' } });
  if (!p) return 'help';
  const log = progress('user-counts');
  const check = p.values.check === true;
  const region = resolveRegion(optional(p, 'region'));
  if (!optional(p, 'stage') && !optional(p, 'table')) throw new UsageError('pass --stage <stage>, or --user-pool-id <id> with --table <name>');
  const { table, tableName, stage } = await tableFromOptions(p);
  try {
    const userPoolId = await resolveUserPoolId({ userPoolId: optional(p, 'user-pool-id'), stage, region });
    const users = await operatorUsers({ userPoolId, region, endpoint: optional(p, 'endpoint') });
    const only = optional(p, 'tenant');
    const report = await reconcileUserCounts(table, users, { check, ...(only ? { tenants: [only] } : {}), log });
    process.stdout.write(`${JSON.stringify({ table: tableName, check, drift: report.filter(drifted) })}\n`);
    if (check && report.some(drifted)) process.exitCode = 1;
  } finally {
    table.doc.destroy();
  }
}

runCli(import.meta.url, USAGE, main);
