/**
 * Recomputes the write-time aggregates of a stage's tenants from their items (docs/data-model.md#aggregates)
 * and reports or repairs the drift. `--check` only compares (exit 1 when any tenant drifted: a write that
 * bypassed the aggregates, or a heartbeat writer that stopped midway); without it the aggregates are
 * replaced by the recomputed ones. Writes of a tenant running during a rebuild can be lost from its
 * aggregates: rebuild while the tenants are quiet, then `--check` again.
 *
 *   npm run platform:rebuild-aggregates -- --stage prod --check
 *   npm run platform:rebuild-aggregates -- --stage prod --tenant acme
 *   # local stack (npm start builds missing aggregates itself):
 *   npm run platform:rebuild-aggregates -- --table vigia-local-main --region us-east-1 --dynamodb-endpoint http://127.0.0.1:8000 --check
 */
import { rebuildTenantAggregates } from '../../lambdas/data/aggregates.js';
import { listTenants } from '../../lambdas/data/tenants.js';
import { TABLE_OPTIONS, tableFromOptions } from './aws.js';
import { optional, parse, progress, runCli } from './cli.js';

export const USAGE = `
Usage: tsx scripts/platform/rebuild-aggregates.ts (--stage <stage> | --table <name>) [--tenant <id>] [--check]

Recomputes each tenant's aggregates (incident, alarm and device counters, per-day figures, heartbeat
histogram) from its items. With --check, only reports the differences and exits 1 if there are any;
otherwise replaces the stored aggregates by the recomputed ones.

Options:
  --stage               deployed stage: table from the Vigia-<stage>-Data outputs
  --table               table name (instead of --stage)
  --tenant              one tenant only (default: every registered tenant)
  --check               compare only; exit 1 on drift
  --dynamodb-endpoint   DynamoDB endpoint override (local stack)
  --region              AWS region (default $AWS_REGION)
  -h, --help            this text
`;

export async function main(argv: string[]): Promise<void | 'help'> {
  const p = parse(argv, { ...TABLE_OPTIONS, tenant: { type: 'string' }, check: { type: 'boolean' } });
  if (!p) return 'help';
  const log = progress('rebuild-aggregates');
  const check = p.values.check === true;
  const { table, tableName } = await tableFromOptions(p);
  try {
    const only = optional(p, 'tenant');
    const tenants = only ? [only] : (await listTenants(table)).map((t) => t.id);
    const report: Record<string, string[]> = {};
    for (const [n, tenantId] of tenants.entries()) {
      const started = Date.now();
      const { drift } = await rebuildTenantAggregates(table, tenantId, { write: !check });
      report[tenantId] = drift;
      log(`${n + 1}/${tenants.length} ${tenantId}: ${drift.length === 0 ? 'no drift' : `${drift.length} difference(s)${check ? '' : ' repaired'}`} (${Date.now() - started} ms)`);
      for (const d of drift.slice(0, 20)) log(`  ${d}`);
      if (drift.length > 20) log(`  … ${drift.length - 20} more`);
    }
    process.stdout.write(`${JSON.stringify({ table: tableName, check, drift: report })}\n`);
    if (check && Object.values(report).some((d) => d.length > 0)) process.exitCode = 1;
  } finally {
    table.doc.destroy();
  }
}

runCli(import.meta.url, USAGE, main);
