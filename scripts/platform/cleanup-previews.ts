/**
 * Destroy preview stages older than a maximum age, so none leak (preview.yml's scheduled job).
 * Previews are found by stack tags (`project=vigia`, `stage=pr-<n>`); the age comes from the `created-at`
 * tag written by deploy.ts (else the stack's CreationTime).
 *
 *   npm run platform:cleanup-previews -- --max-age-hours 72 --dry-run
 */
import { cloudFormationClient, listStacks, resolveRegion } from './aws.js';
import { destroyArgs, runCdk, stalePreviewStages } from './cdk.js';
import { optional, parse, progress, runCli, UsageError } from './cli.js';

export const USAGE = `
Usage: tsx scripts/platform/cleanup-previews.ts [--max-age-hours <h>] [--dry-run]

Lists preview stages (pr-<n>) by stack tag and destroys those older than the maximum age.

Options:
  --max-age-hours   maximum age in hours (default $PREVIEW_MAX_AGE_HOURS or 72)
  --dry-run         only list what would be destroyed
  --region          AWS region (default $AWS_REGION)
  -h, --help        this text
`;

/** Parses the maximum age. @throws UsageError unless a positive number */
export function parseMaxAge(raw: string | undefined): number {
  const v = Number(raw ?? 72);
  if (!Number.isFinite(v) || v <= 0) throw new UsageError(`--max-age-hours "${raw}" must be a positive number of hours`);
  return v;
}

async function main(argv: string[]): Promise<void | 'help'> {
  const p = parse(argv, { 'max-age-hours': { type: 'string' }, 'dry-run': { type: 'boolean' }, region: { type: 'string' } });
  if (!p) return 'help';
  const log = progress('cleanup-previews');
  const maxAge = parseMaxAge(optional(p, 'max-age-hours') ?? process.env.PREVIEW_MAX_AGE_HOURS);
  const region = resolveRegion(optional(p, 'region'));
  process.env.AWS_REGION = region;
  process.env.CDK_DEFAULT_REGION = region;
  const stale = stalePreviewStages(await listStacks(cloudFormationClient(region)), new Date(), maxAge);
  log(stale.length === 0 ? `no preview older than ${maxAge} h` : `${stale.length} preview stage(s) older than ${maxAge} h`);
  for (const s of stale) {
    log(`${s.stage}: created ${s.createdAt} (${s.ageHours.toFixed(1)} h), stacks ${s.stacks.join(', ')}`);
    if (!p.values['dry-run']) await runCdk(destroyArgs(s.stage), log);
  }
  process.stdout.write(`${JSON.stringify({ maxAgeHours: maxAge, dryRun: p.values['dry-run'] === true, stages: stale.map((s) => s.stage) })}\n`);
}

runCli(import.meta.url, USAGE, main);
