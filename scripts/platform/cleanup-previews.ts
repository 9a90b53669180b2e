/**
 * Destroy preview stages not deployed for a maximum age, so none leak (preview.yml's scheduled job).
 * Previews are found by stack tags (`project=vigia`, `stage=pr-<n>`); the age is measured from the last
 * deployment (stack LastUpdatedTime, else CreationTime), and the stage of an open pull request updated within
 * the maximum age is kept (`stalePreviewStages` in cdk.ts). Open pull requests come from
 * `gh pr list --json number,updatedAt` (`--open-prs <file>`).
 *
 *   gh pr list --state open --json number,updatedAt > open-prs.json
 *   npm run platform:cleanup-previews -- --max-age-hours 72 --open-prs open-prs.json --dry-run
 */
import { readFileSync } from 'node:fs';
import { cloudFormationClient, type CfnLike, listStacks, resolveRegion } from './aws.js';
import { contextArgs, destroyArgs, type OpenPullRequest, parseOpenPullRequests, type PreviewStage, runCdk, stalePreviewStages } from './cdk.js';
import { optional, parse, progress, runCli, UsageError } from './cli.js';

export const USAGE = `
Usage: tsx scripts/platform/cleanup-previews.ts [--max-age-hours <h>] [--open-prs <file>] [--dry-run]

Lists preview stages (pr-<n>) by stack tag and destroys those whose last deployment is older than the
maximum age, except the stages of open pull requests updated within it.

Options:
  --max-age-hours   maximum age in hours (default $PREVIEW_MAX_AGE_HOURS or 72)
  --open-prs        JSON file of \`gh pr list --json number,updatedAt\` (open pull requests)
  --context         CDK context for cdk destroy, repeatable (preview.yml: previewDeployer=github)
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

/**
 * Chooses the stale previews of the account/region (DescribeStacks, every page) and destroys each with
 * `destroy` (unless `dryRun`). @returns the chosen stages, oldest first
 */
export async function cleanupPreviews(o: {
  cfn: CfnLike;
  now: Date;
  maxAgeHours: number;
  openPullRequests?: readonly OpenPullRequest[];
  dryRun: boolean;
  destroy: (stage: string) => Promise<void>;
  log?: (line: string) => void;
}): Promise<PreviewStage[]> {
  const log = o.log ?? (() => undefined);
  const stale = stalePreviewStages(await listStacks(o.cfn), o.now, o.maxAgeHours, o.openPullRequests ?? []);
  log(stale.length === 0 ? `no preview last deployed more than ${o.maxAgeHours} h ago` : `${stale.length} preview stage(s) last deployed more than ${o.maxAgeHours} h ago`);
  for (const s of stale) {
    log(`${s.stage}: last deployed ${s.lastDeployedAt} (${s.ageHours.toFixed(1)} h), stacks ${s.stacks.join(', ')}`);
    if (!o.dryRun) await o.destroy(s.stage);
  }
  return stale;
}

async function main(argv: string[]): Promise<void | 'help'> {
  const p = parse(argv, {
    'max-age-hours': { type: 'string' },
    'open-prs': { type: 'string' },
    context: { type: 'string', multiple: true },
    'dry-run': { type: 'boolean' },
    region: { type: 'string' },
  });
  if (!p) return 'help';
  const log = progress('cleanup-previews');
  const maxAge = parseMaxAge(optional(p, 'max-age-hours') ?? process.env.PREVIEW_MAX_AGE_HOURS);
  const openPrsFile = optional(p, 'open-prs');
  const openPullRequests = openPrsFile ? parseOpenPullRequests(readFileSync(openPrsFile, 'utf8')) : [];
  const context = contextArgs(p.values.context as unknown as string[] | undefined);
  const region = resolveRegion(optional(p, 'region'));
  process.env.AWS_REGION = region;
  process.env.CDK_DEFAULT_REGION = region;
  const dryRun = p.values['dry-run'] === true;
  const stale = await cleanupPreviews({
    cfn: cloudFormationClient(region),
    now: new Date(),
    maxAgeHours: maxAge,
    openPullRequests,
    dryRun,
    destroy: (stage) => runCdk([...destroyArgs(stage), ...context], log),
    log,
  });
  process.stdout.write(`${JSON.stringify({ maxAgeHours: maxAge, dryRun, kept: openPullRequests.length, stages: stale.map((s) => s.stage) })}\n`);
}

runCli(import.meta.url, USAGE, main);
