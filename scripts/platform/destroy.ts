/**
 * Destroy a stage: `cdk destroy --all` of its stacks. Previews and dev leave nothing behind (no Retain
 * policies, buckets emptied, log groups deleted — asserted by test/infra). Production-profile stages
 * (prod, staging) are refused unless `--force-production`; their data resources are retained anyway and prod
 * stacks have termination protection (disable it in the console first, deliberately).
 *
 *   npm run platform:destroy -- --stage pr-42
 */
import { checkStage, contextArgs, destroyArgs, guardDestroy, runCdk } from './cdk.js';
import { optional, parse, progress, required, runCli } from './cli.js';
import { resolveRegion } from './aws.js';

export const USAGE = `
Usage: tsx scripts/platform/destroy.ts --stage <stage> [--force-production]

Deletes every stack of the stage (Vigia-<stage>-*).

Options:
  --stage              stage to destroy, e.g. pr-42
  --force-production   allow prod / staging (data is retained; prod needs termination protection off)
  --context            CDK context, repeatable (preview.yml: previewDeployer=github)
  --region             AWS region (default $AWS_REGION)
  -h, --help           this text
`;

async function main(argv: string[]): Promise<void | 'help'> {
  const p = parse(argv, { stage: { type: 'string' }, 'force-production': { type: 'boolean' }, region: { type: 'string' }, context: { type: 'string', multiple: true } });
  if (!p) return 'help';
  const log = progress('destroy');
  const stage = checkStage(required(p, 'stage'));
  guardDestroy(stage, p.values['force-production'] === true);
  const region = resolveRegion(optional(p, 'region'));
  process.env.AWS_REGION = region;
  process.env.CDK_DEFAULT_REGION = region;
  await runCdk([...destroyArgs(stage), ...contextArgs(p.values.context as unknown as string[] | undefined)], log);
  log(`stage ${stage} destroyed`);
}

runCli(import.meta.url, USAGE, main);
