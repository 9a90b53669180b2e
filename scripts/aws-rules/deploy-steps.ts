/**
 * The AWS calls of the workflow steps that run around CloudFormation (`.github/workflows/deploy.yml` and
 * `preview.yml`): which `npm run` script each job runs and, per script, the IAM actions it calls on which
 * resources of the stage. The action lists are the scripts' own exported constants (one source: the scripts
 * document them next to the calls), so the deploy-time IAM check (`./deploy-iam.ts`) evaluates exactly
 * what the code calls. docs/platform.md#deploy-time-iam-check.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { COGNITO_OPERATOR_ACTIONS } from '../../lambdas/data/cognito-users.js';
import { STAGE_OUTPUTS_ACTIONS } from '../platform/aws.js';
import { CREATE_TENANT_ACTIONS } from '../platform/create-tenant.js';
import { GRANT_COLLECTOR_ACTIONS } from '../platform/grant-collector.js';
import { REATTACH_PROVIDERS_ACTIONS, REATTACH_PROVIDERS_TABLE_ACTIONS } from '../platform/identity-providers.js';
import { INVITE_USER_ACTIONS } from '../platform/invite-user.js';
import { notificationsDlqName } from '../../infra/notifications.js';
import { FRESH_ACCOUNT_ACTIONS, PREFLIGHT_ACTIONS, SES_PREFLIGHT_ACTIONS, STACK_POLICY_ACTIONS } from '../platform/preflight.js';
import { SMOKE_INGEST_ACTIONS, SMOKE_INGEST_ROUTE } from '../platform/smoke.js';
import { stackName, stageConfig } from '../../infra/stage-config.js';
import { stageHasStackPolicy, guardedStackNames } from '../../infra/stack-policy.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The workflows whose jobs reach AWS, and the kind of stage they work on (each job's role: its `roleVariable`). */
export const WORKFLOWS = {
  '.github/workflows/deploy.yml': 'deploy',
  '.github/workflows/preview.yml': 'preview',
} as const;

/** One job of a workflow: the npm scripts it runs (in order) and the other AWS commands (`aws …`, `npx cdk …`). */
export interface WorkflowJob {
  workflow: string;
  job: string;
  scripts: string[];
  commands: string[];
  /** The stage the job works on: its `STAGE:` variable, else a `-c stage=<x>` of its commands. */
  stage?: string;
  /** The repository variable of its `role-to-assume: ${{ vars.<NAME> }}` (infra/github-oidc-stack.ts `ROLE_VARIABLES`). */
  roleVariable?: string;
}

/**
 * The jobs of a workflow file with the `npm run <script>` and `aws`/`npx cdk` commands of their steps, read
 * line by line from the YAML (the workflows keep one command per line; test/unit/platform-workflows.test.ts).
 */
export function workflowJobs(file: string, text: string = readFileSync(path.join(ROOT, file), 'utf8')): WorkflowJob[] {
  const jobs: WorkflowJob[] = [];
  let inJobs = false;
  let current: WorkflowJob | undefined;
  for (const line of text.split('\n')) {
    if (/^jobs:\s*$/.test(line)) {
      inJobs = true;
      continue;
    }
    if (!inJobs) continue;
    const job = /^ {2}([A-Za-z0-9_-]+):\s*$/.exec(line);
    if (job) {
      current = { workflow: file, job: job[1]!, scripts: [], commands: [] };
      jobs.push(current);
      continue;
    }
    if (!current || /^\s*#/.test(line)) continue;
    const stage = /^\s+STAGE: ([a-z][a-z0-9-]*)\s*$/.exec(line) ?? /-c stage=([a-z][a-z0-9-]*)/.exec(line);
    if (stage) current.stage ??= stage[1]!;
    const role = /role-to-assume: \$\{\{ vars\.([A-Z0-9_]+) \}\}/.exec(line);
    if (role) current.roleVariable ??= role[1]!;
    for (const m of line.matchAll(/npm run ([a-z][a-z0-9:-]*)/g)) current.scripts.push(m[1]!);
    const aws = /(?:^|[\s"(])(aws [a-z0-9-]+ [a-z0-9-]+|npx cdk [a-z]+)/.exec(line);
    if (aws) current.commands.push(aws[1]!);
  }
  return jobs;
}

/** One AWS call of a step: the action and the resource it acts on, with the request's condition keys. */
export interface StepCall {
  action: string;
  resource: string;
  context?: Record<string, string | string[]>;
}

/** What a step needs to know about the stage it runs against. */
export interface StepStage {
  stage: string;
  account: string;
  region: string;
  /** The stage's Auth stack has company sign-in (a Cognito domain output): platform:deploy re-attaches staff providers. */
  federated: boolean;
}

/** The steps CloudFormation itself covers (`cdk deploy`/`cdk destroy`: evaluated per resource by deploy-iam.ts). */
export const CLOUDFORMATION_STEPS = ['platform:deploy', 'platform:destroy', 'platform:cleanup-previews'] as const;

/** Steps that make no AWS call (build, local tools). */
export const LOCAL_STEPS = ['build:web'] as const;

const ARN = (s: StepStage) => ({
  stack: (part: string) => `arn:aws:cloudformation:${s.region}:${s.account}:stack/${stackName(s.stage, part)}/00000000-0000-0000-0000-000000000000`,
  // User pool ids are random; the pool carries the stage tags every stack puts on its resources.
  userPool: `arn:aws:cognito-idp:${s.region}:${s.account}:userpool/${s.region}_StagePool`,
  table: `arn:aws:dynamodb:${s.region}:${s.account}:table/vigia-${s.stage}-main`,
});

/** The tags a stage's resources carry (infra/vigia-app.ts): `aws:ResourceTag/…` of calls on them. */
export function stageTags(stage: string): Record<string, string> {
  return { 'aws:ResourceTag/project': 'vigia', 'aws:ResourceTag/stage': stage };
}

/**
 * The AWS calls of `npm run <script>` against a stage, outside CloudFormation's own resource operations.
 * @throws Error for a script this table does not know (a new workflow step must be added here)
 */
export function stepCalls(script: string, s: StepStage): StepCall[] {
  const a = ARN(s);
  const tags = stageTags(s.stage);
  const outputs = (parts: string[]) => parts.flatMap((p) => STAGE_OUTPUTS_ACTIONS.map((action) => ({ action, resource: a.stack(p) })));
  const onPool = (actions: readonly string[]) => actions.map((action) => ({ action, resource: a.userPool, context: tags }));
  const onTable = (actions: readonly string[]) => actions.map((action) => ({ action, resource: a.table }));
  switch (script) {
    case 'platform:deploy':
      return [
        ...PREFLIGHT_ACTIONS.map((action) => ({ action, resource: `arn:aws:apigateway:${s.region}::/account` })),
        // The fresh-account preflight: account-wide reads, the Hosting stack's existence, and on production
        // stages (Cognito mails through SES) the SES account and identity (scripts/platform/preflight.ts).
        ...FRESH_ACCOUNT_ACTIONS.map((action) => ({ action, resource: '*' })),
        ...outputs(['Hosting']),
        ...(stageConfig(s.stage).profile === 'production'
          ? [...SES_PREFLIGHT_ACTIONS.account.map((action) => ({ action, resource: '*' })), ...SES_PREFLIGHT_ACTIONS.identity.map((action) => ({ action, resource: `arn:aws:ses:${s.region}:${s.account}:identity/example.com` }))]
          : []),
        ...outputs(['Auth']),
        // The table the stage uses (scripts/platform/restore.ts tableContext): the Data stack's outputs, and a
        // restored table's stream (DescribeTable); on production stages the retained table and dead-letter
        // queue left by a destroyed stage, and whether a stack holds them (scripts/platform/retained.ts).
        ...outputs(['Data']),
        { action: 'dynamodb:DescribeTable', resource: `${a.table}-r20261120t080000z` },
        ...(stageConfig(s.stage).profile === 'production'
          ? [
              { action: 'dynamodb:DescribeTable', resource: a.table },
              { action: 'sqs:GetQueueUrl', resource: `arn:aws:sqs:${s.region}:${s.account}:${notificationsDlqName(s.stage)}` },
              // DescribeStackResources by physical id names no stack: authorised against "*".
              { action: 'cloudformation:DescribeStackResources', resource: '*' },
            ]
          : []),
        ...(stageHasStackPolicy(stageConfig(s.stage)) ? guardedStackNames(s.stage).flatMap((n) => STACK_POLICY_ACTIONS.map((action) => ({ action, resource: a.stack(n.slice(`Vigia-${s.stage}-`.length)) }))) : []),
        ...(s.federated ? [...onPool(REATTACH_PROVIDERS_ACTIONS), ...onTable(REATTACH_PROVIDERS_TABLE_ACTIONS)] : []),
      ];
    case 'platform:write-config':
      return outputs(['Auth', 'Hosting', 'Api']);
    case 'platform:create-tenant':
      return [...outputs(['Auth']), ...onPool(CREATE_TENANT_ACTIONS.userPool), ...onTable(CREATE_TENANT_ACTIONS.table)];
    case 'platform:invite-user':
      return [...outputs(['Auth']), ...onPool([...INVITE_USER_ACTIONS.userPool, ...COGNITO_OPERATOR_ACTIONS]), ...onTable(INVITE_USER_ACTIONS.table)];
    case 'platform:grant-collector':
      return onTable(GRANT_COLLECTOR_ACTIONS);
    case 'platform:smoke':
      // With --stage (deploy.yml): the outputs and one signed ingest call; without (preview.yml) the browser only.
      return [
        ...outputs(['Auth', 'Hosting', 'Api']),
        // The API id is random and known only after the deploy: the call is evaluated for any API id of the
        // stage (`*`), as the deploy role's statement names it.
        ...SMOKE_INGEST_ACTIONS.map((action) => ({ action, resource: `arn:aws:execute-api:${s.region}:${s.account}:*/${s.stage}/${SMOKE_INGEST_ROUTE}` })),
      ];
    case 'platform:destroy':
    case 'platform:cleanup-previews':
      // cdk destroy's DeleteStack and the resources' delete handlers are CloudFormation's part (deploy-iam.ts);
      // the reaper lists the account's stacks first.
      return [{ action: 'cloudformation:DescribeStacks', resource: '*' }];
    case 'build:web':
      return [];
    default:
      throw new Error(`workflow step "npm run ${script}": its AWS calls are not listed in scripts/aws-rules/deploy-steps.ts`);
  }
}

/** Whether `npm run <script>` of a job is given `--stage` (smoke without it makes no AWS call). */
export function smokeHasStage(job: WorkflowJob, text: string = readFileSync(path.join(ROOT, job.workflow), 'utf8')): boolean {
  const block = text.split(/\n {2}(?=[A-Za-z0-9_-]+:\s*\n)/).find((b) => b.startsWith(`${job.job}:`)) ?? '';
  return /npm run platform:smoke[^\n]*--stage/.test(block);
}
