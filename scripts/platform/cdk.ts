/**
 * Deploying and destroying a stage with the pinned CDK CLI (`npx cdk`, aws-cdk 2.1148 from devDependencies;
 * why pinned: docs/platform.md#cdk-cli-pin).
 *
 * Pure parts (argument lists, guards, created-at resolution, stale-preview selection) are exported for unit
 * tests; `runCdk` spawns the CLI with telemetry and version checks off (docs/platform.md#cli-environment).
 */
import { spawn } from 'node:child_process';
import type { Stack } from '@aws-sdk/client-cloudformation';
import { stackName, stageProfile, STAGE_PATTERN } from '../../infra/stage-config.js';
import { TAG_CREATED_AT, TAG_PROJECT, TAG_STAGE } from '../../infra/vigia-app.js';
import { REPO_ROOT } from '../local/config.js';
import { UsageError } from './cli.js';

/** Preview stage names made by preview.yml: `pr-<pull request number>`. */
export const PREVIEW_STAGE = /^pr-\d+$/;

/** @throws UsageError for a name that is not a valid stage */
export function checkStage(stage: string): string {
  if (!STAGE_PATTERN.test(stage)) throw new UsageError(`invalid stage "${stage}": must match ${STAGE_PATTERN} (e.g. dev, staging, prod, pr-42)`);
  return stage;
}

export interface DeployArgs {
  stage: string;
  /** ISO-8601 UTC, tagged `created-at`. */
  createdAt: string;
  alarmEmail?: string;
  /** Skip the IAM/security-group change confirmation (`--require-approval never`; CI). */
  approve: boolean;
  /** Where the CLI writes the stack outputs (JSON). */
  outputsFile: string;
  /**
   * `--import-existing-resources`: CloudFormation adopts a retained resource whose static name the template
   * gives instead of failing on "already exists" (`retained.ts`, docs/platform.md#redeploying-over-retained-resources).
   */
  importExistingResources?: boolean;
}

/** Arguments of `cdk deploy` for a stage (all its stacks, in dependency order). */
export function deployArgs(a: DeployArgs): string[] {
  return [
    'deploy',
    '--all',
    '-c', `stage=${a.stage}`,
    '-c', `createdAt=${a.createdAt}`,
    ...(a.alarmEmail ? ['-c', `alarmEmail=${a.alarmEmail}`] : []),
    '--require-approval', a.approve ? 'never' : 'broadening',
    '--outputs-file', a.outputsFile,
    ...(a.importExistingResources ? ['--import-existing-resources'] : []),
    '--no-notices',
    '--progress', 'events',
  ];
}

/** Arguments of `cdk destroy` for a stage (no prompt: the caller has already guarded). */
export function destroyArgs(stage: string): string[] {
  return ['destroy', '--all', '--force', '-c', `stage=${stage}`, '--no-notices'];
}

/**
 * Refuses to destroy production-profile stages (prod, staging) unless forced. Note prod stacks also have
 * termination protection and retain their table, user pool, buckets and logs.
 * @throws UsageError
 */
export function guardDestroy(stage: string, forceProduction: boolean): void {
  checkStage(stage);
  if (stageProfile(stage) === 'production' && !forceProduction) {
    throw new UsageError(`refusing to destroy production stage "${stage}" (pass --force-production; data resources are retained anyway)`);
  }
}

/** The `created-at` tag of an existing stage stack, else `now` (so redeploys keep the creation time). */
export function resolveCreatedAt(existing: Stack | null, now: Date): string {
  const tag = existing?.Tags?.find((t) => t.Key === TAG_CREATED_AT)?.Value;
  if (tag && !Number.isNaN(Date.parse(tag))) return tag;
  if (existing?.CreationTime) return new Date(existing.CreationTime).toISOString();
  return now.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export interface PreviewStage {
  stage: string;
  /** ISO-8601 UTC of the stage's last deployment (newest LastUpdatedTime, else CreationTime, of its stacks). */
  lastDeployedAt: string;
  /** Hours since `lastDeployedAt`. */
  ageHours: number;
  stacks: string[];
}

/** An open pull request as `gh pr list --json number,updatedAt` prints it (`updatedAt` ISO-8601 UTC). */
export interface OpenPullRequest {
  number: number;
  updatedAt: string;
}

/**
 * Preview stages (tag `project=vigia`, tag `stage` = `pr-<n>`) to destroy, oldest first: those whose last
 * deployment (the newest `LastUpdatedTime`, else `CreationTime`, of the stage's stacks — a redeploy on every
 * push updates them) is more than `maxAgeHours` ago, except the stage of an open pull request updated within
 * `maxAgeHours` (someone is still working on it; its next push redeploys it). Stacks already deleted are
 * ignored. The `created-at` tag is not used: it is the FIRST deployment.
 */
export function stalePreviewStages(stacks: readonly Stack[], now: Date, maxAgeHours: number, openPullRequests: readonly OpenPullRequest[] = []): PreviewStage[] {
  const maxAgeMs = maxAgeHours * 3_600_000;
  const recentlyUpdated = new Set(
    openPullRequests.filter((pr) => now.getTime() - Date.parse(pr.updatedAt) <= maxAgeMs).map((pr) => `pr-${pr.number}`),
  );
  const byStage = new Map<string, { deployed: number; stacks: string[] }>();
  for (const s of stacks) {
    const tags = new Map((s.Tags ?? []).map((t) => [t.Key, t.Value]));
    const stage = tags.get(TAG_STAGE);
    if (tags.get(TAG_PROJECT) !== 'vigia' || !stage || !PREVIEW_STAGE.test(stage)) continue;
    if (s.StackStatus === 'DELETE_COMPLETE') continue;
    const when = s.LastUpdatedTime ?? s.CreationTime;
    const deployed = when ? new Date(when).getTime() : now.getTime();
    const entry = byStage.get(stage) ?? { deployed, stacks: [] };
    entry.deployed = Math.max(entry.deployed, deployed);
    entry.stacks.push(s.StackName ?? stackName(stage, '?'));
    byStage.set(stage, entry);
  }
  return [...byStage.entries()]
    .map(([stage, e]) => ({ stage, lastDeployedAt: new Date(e.deployed).toISOString(), ageHours: (now.getTime() - e.deployed) / 3_600_000, stacks: e.stacks.sort() }))
    .filter((p) => p.ageHours > maxAgeHours && !recentlyUpdated.has(p.stage))
    .sort((a, b) => b.ageHours - a.ageHours);
}

/**
 * Parses `gh pr list --json number,updatedAt` output.
 * @throws UsageError when it is not a JSON array of `{ number, updatedAt }`
 */
export function parseOpenPullRequests(json: string): OpenPullRequest[] {
  let v: unknown;
  try {
    v = JSON.parse(json);
  } catch (e) {
    throw new UsageError(`--open-prs: not JSON (${(e as Error).message})`);
  }
  if (!Array.isArray(v)) throw new UsageError('--open-prs: expected a JSON array (gh pr list --json number,updatedAt)');
  return v.map((x: unknown) => {
    const pr = x as Partial<OpenPullRequest>;
    if (!Number.isInteger(pr.number) || typeof pr.updatedAt !== 'string' || Number.isNaN(Date.parse(pr.updatedAt))) {
      throw new UsageError(`--open-prs: ${JSON.stringify(x)} is not { number, updatedAt }`);
    }
    return { number: pr.number!, updatedAt: pr.updatedAt };
  });
}

/** `-c key=value` arguments from repeated `--context key=value` options. @throws UsageError without `=` */
export function contextArgs(values: readonly string[] | undefined): string[] {
  return (values ?? []).flatMap((c) => {
    if (!/^[^=\s]+=/.test(c)) throw new UsageError(`--context "${c}" must be key=value`);
    return ['-c', c];
  });
}

/**
 * Runs `npx cdk <args>` in the repository, streaming its output to stderr.
 * @throws Error with the exit status when the CLI fails
 */
export async function runCdk(args: readonly string[], log: (l: string) => void): Promise<void> {
  log(`npx cdk ${args.join(' ')}`);
  await new Promise<void>((resolve, reject) => {
    const child = spawn('npx', ['cdk', ...args], {
      cwd: REPO_ROOT,
      stdio: ['ignore', process.stderr, process.stderr],
      env: { ...process.env, CDK_DISABLE_CLI_TELEMETRY: '1', CDK_DISABLE_VERSION_CHECK: '1' },
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`cdk ${args[0]} failed with exit status ${code}`))));
  });
}

/** Runs an npm script (e.g. `build:web`, or `platform:deploy` with `args` after `--`). @throws Error on failure */
export async function runNpm(script: string, log: (l: string) => void, args: readonly string[] = []): Promise<void> {
  log(`npm run ${script}${args.length > 0 ? ` -- ${args.join(' ')}` : ''}`);
  await new Promise<void>((resolve, reject) => {
    const child = spawn('npm', ['run', script, ...(args.length > 0 ? ['--', ...args] : [])], { cwd: REPO_ROOT, stdio: ['ignore', process.stderr, process.stderr] });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`npm run ${script} failed with exit status ${code}`))));
  });
}
