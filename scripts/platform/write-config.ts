/**
 * Point the local portal at a deployed stage: writes `web/public/config.json` (git-ignored) from the stage's
 * CloudFormation outputs, so `npm run dev:web` (Vite on http://localhost:5173) signs in against that stage's
 * user pool and calls its API. The API accepts `http://localhost:5173` only on the `dev` stage
 * (`extraCorsOrigins`); for other stages the browser's CORS check will refuse the API calls.
 * `--github-output` also appends `site_url`, `api_url`, `user_pool_id`, `table_name` to `$GITHUB_OUTPUT`.
 *
 *   npm run platform:write-config -- --stage dev
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../local/config.js';
import { cloudFormationClient, portalConfigFromOutputs, resolveRegion, stageOutputs, stageTable, stageTableName } from './aws.js';
import { checkStage } from './cdk.js';
import { optional, parse, progress, required, runCli } from './cli.js';

export const USAGE = `
Usage: tsx scripts/platform/write-config.ts --stage <stage> [--out <file>] [--github-output]

Writes the portal config.json of a deployed stage (from its stack outputs).

Options:
  --stage           deployed stage, e.g. dev
  --out             file to write (default web/public/config.json; "-" = stdout only)
  --github-output   also append site_url, api_url, user_pool_id, table_name to $GITHUB_OUTPUT
  --region          AWS region (default $AWS_REGION)
  -h, --help        this text
`;

/**
 * `key=value` lines for `$GITHUB_OUTPUT`. `table_name` is the deployed table (output `TableName` of the Data
 * stack, which differs from `vigia-<stage>-main` after a restore); the default name only when absent.
 */
export function githubOutputLines(stage: string, outputs: Record<string, string>): string {
  const lines = {
    site_url: outputs.SiteUrl ?? '',
    api_url: outputs.ApiUrl ?? '',
    user_pool_id: outputs.UserPoolId ?? '',
    table_name: outputs.TableName ?? stageTableName(stage),
  };
  return Object.entries(lines).map(([k, v]) => `${k}=${v}\n`).join('');
}

export async function main(argv: string[]): Promise<void | 'help'> {
  const p = parse(argv, { stage: { type: 'string' }, out: { type: 'string' }, 'github-output': { type: 'boolean' }, region: { type: 'string' } });
  if (!p) return 'help';
  const log = progress('write-config');
  const stage = checkStage(required(p, 'stage'));
  const region = resolveRegion(optional(p, 'region'));
  const cfn = cloudFormationClient(region);
  const outputs: Record<string, string> = { ...(await stageOutputs(cfn, stage, region)), TableName: (await stageTable(cfn, stage, region)).tableName };
  const config = portalConfigFromOutputs(stage, outputs);
  const json = `${JSON.stringify(config, null, 2)}\n`;
  const out = optional(p, 'out') ?? path.join(REPO_ROOT, 'web/public/config.json');
  if (out === '-') {
    process.stdout.write(json);
  } else {
    mkdirSync(path.dirname(out), { recursive: true });
    writeFileSync(out, json);
    log(`wrote ${path.relative(process.cwd(), out) || out} for stage ${stage} (portal ${outputs.SiteUrl ?? '?'})`);
    if (stage !== 'dev') log('note: only the dev stage allows http://localhost:5173 as a CORS origin');
  }
  if (p.values['github-output']) {
    const file = process.env.GITHUB_OUTPUT;
    if (!file) throw new Error('--github-output: $GITHUB_OUTPUT is not set (only inside GitHub Actions)');
    appendFileSync(file, githubOutputLines(stage, outputs));
  }
}

runCli(import.meta.url, USAGE, main);
