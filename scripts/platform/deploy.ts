/**
 * Deploy a stage: build the portal, then `cdk deploy --all` of the stage's six stacks with the `created-at`
 * tag kept from the first deployment, and print the stage URLs.
 *
 *   npm run platform:deploy -- --stage pr-42 --approve
 *   npm run platform:deploy -- --stage prod --alarm-email soc@example.com
 *
 * Needs AWS credentials for an account/region bootstrapped with `npx cdk bootstrap` and holding the
 * `Vigia-Account` stack (checked first: `preflight.ts`, with the fresh-account checks — Lambda concurrency, SES,
 * CloudFront — unless `--skip-preflight`). Production stages get the stateful stack policy
 * after the deploy. `--context key=value` (repeatable) is passed to the CDK app as `-c key=value`
 * (SES identity, table name, threat protection, silence tenants: `bin/app.ts`).
 * After the deploy, the enterprise providers staff configured at run time are put back on the app client
 * (`identity-providers.ts`: CloudFormation's update sends only the template's provider list).
 * The table: a restored table the Data stack's outputs name is kept without `--context tableName`
 * (`restore.ts` `tableContext`); on prod and staging, retained resources left by a destroyed stage are
 * adopted (`retained.ts`).
 * Output (stdout): one JSON line `{ stage, siteUrl, apiUrl, userPoolId, outputsFile }`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { stackName } from '../../infra/stage-config.js';
import { REPO_ROOT } from '../local/config.js';
import { tenantOfProvider } from '../../lambdas/data/identity-providers.js';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { cloudFormationClient, cognitoClient, describeStack, resolveRegion, stageTableName, tableRef } from './aws.js';
import { checkStage, deployArgs, resolveCreatedAt, runCdk, runNpm } from './cdk.js';
import { optional, parse, progress, required, runCli } from './cli.js';
import { reattachStaffProviders } from './identity-providers.js';
import { applyStackPolicies, deployPreflight } from './preflight.js';
import { tableContext } from './restore.js';
import { adoptionPlan, findRetained } from './retained.js';

export const USAGE = `
Usage: tsx scripts/platform/deploy.ts --stage <stage> [--approve] [--alarm-email <e-mail>] [--skip-build] [--skip-preflight]
       [--context key=value ...]

Builds the portal and deploys every stack of the stage (Vigia-<stage>-*).

Options:
  --stage         dev | staging | prod | pr-<n> | any name matching ^[a-z][a-z0-9-]{1,20}$
  --approve       do not ask before IAM / security changes (CI)
  --alarm-email   e-mail subscribed to the stage's alarm topic (SNS asks it to confirm)
  --skip-build    deploy the existing web/dist
  --skip-preflight  deploy without the account checks (API Gateway role, Lambda concurrency, SES, CloudFront)
  --context       CDK context for the app, repeatable (e.g. sesFromEmail=no-reply@example.com)
  --region        AWS region (default $AWS_REGION)
  -h, --help      this text
`;

async function main(argv: string[]): Promise<void | 'help'> {
  const p = parse(argv, {
    stage: { type: 'string' },
    approve: { type: 'boolean' },
    'alarm-email': { type: 'string' },
    'skip-build': { type: 'boolean' },
    'skip-preflight': { type: 'boolean' },
    region: { type: 'string' },
    context: { type: 'string', multiple: true },
  });
  if (!p) return 'help';
  const log = progress('deploy');
  const stage = checkStage(required(p, 'stage'));
  const region = resolveRegion(optional(p, 'region'));
  process.env.AWS_REGION = region;
  process.env.CDK_DEFAULT_REGION = region;

  await deployPreflight({ stage, region, context: (p.values.context as unknown as string[] | undefined) ?? [], skip: p.values['skip-preflight'] === true, log });

  const cfn = cloudFormationClient(region);
  const existing = await describeStack(cfn, stackName(stage, 'Auth'));
  const createdAt = resolveCreatedAt(existing, new Date());
  log(existing ? `updating stage ${stage} (created ${createdAt})` : `creating stage ${stage} in ${region}`);

  if (!p.values['skip-build']) await runNpm('build:web', log);
  const outputsFile = path.join('cdk.out', `outputs-${stage}.json`);
  const alarmEmail = optional(p, 'alarm-email');
  const given = (p.values.context as unknown as string[] | undefined) ?? [];
  // The table the stage uses (a restored one from the Data stack's outputs), and retained resources to adopt
  // (restore.ts, retained.ts; docs/platform.md#restoring-the-table, #redeploying-over-retained-resources).
  const ddb = new DynamoDBClient({ region });
  const table = await tableContext({ cfn, ddb }, stage, given);
  const context = [...given.flatMap((c) => ['-c', c]), ...table.args];
  const plan = adoptionPlan(stage, await findRetained({ cfn, ddb, sqs: new SQSClient({ region }) }, stage, table.tableName === stageTableName(stage)), ['-c', `createdAt=${createdAt}`, ...(alarmEmail ? ['-c', `alarmEmail=${alarmEmail}`] : []), ...context]);
  for (const line of [...(table.args.length > 0 ? [`table ${table.tableName} (${table.args.join(' ')})`] : []), ...plan.notes]) log(line);
  for (const args of plan.imports) await runCdk(args, log);
  await runCdk([...deployArgs({ stage, createdAt, approve: p.values.approve === true, outputsFile, importExistingResources: plan.importExistingResources, ...(alarmEmail ? { alarmEmail } : {}) }), ...context], log);
  const guarded = await applyStackPolicies(cfn, stage);
  if (guarded.length > 0) log(`stack policy (no replacement of user pool/table) set on ${guarded.join(', ')}`);

  const outputs = JSON.parse(readFileSync(path.join(REPO_ROOT, outputsFile), 'utf8')) as Record<string, Record<string, string>>;
  const out = (part: string, key: string) => outputs[stackName(stage, part)]?.[key];
  // A deploy that updated the app client dropped the providers staff configured at run time: put them back
  // (scripts/platform/identity-providers.ts). Stages without company sign-in have no Cognito domain output.
  const userPoolId = out('Auth', 'UserPoolId');
  const clientId = out('Auth', 'UserPoolClientId');
  if (out('Auth', 'OAuthDomain') && userPoolId && clientId) {
    const ref = tableRef({ region }, table.tableName);
    const added = await reattachStaffProviders(cognitoClient({ region }), { userPoolId, clientId, isBound: async (name) => (await tenantOfProvider(name, ref)) !== null });
    log(added.length > 0 ? `company sign-in: put ${added.join(', ')} back on the app client` : 'company sign-in: the app client lists every staff-configured provider');
  }
  const summary = { stage, siteUrl: out('Hosting', 'SiteUrl'), apiUrl: out('Api', 'ApiUrl'), userPoolId: out('Auth', 'UserPoolId'), outputsFile };
  log(`stage ${stage} deployed: portal ${summary.siteUrl}, API ${summary.apiUrl}`);
  process.stdout.write(`${JSON.stringify(summary)}\n`);
}

runCli(import.meta.url, USAGE, main);
