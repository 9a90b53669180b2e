/**
 * Deploy-time IAM check (scripts/aws-rules/deploy-iam.ts, docs/platform.md#deploy-time-iam-check): every
 * resource type of every template has its CloudFormation handler permissions listed; each deployment context
 * has 0 denies; and, per deny fixed in infra/github-oidc-stack.ts, the check finds it again when the fix is
 * undone (naming context, principal, action and resource).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { IamPrincipal, PolicyDocument } from '../../scripts/aws-rules/iam.js';
import { ROLE_VARIABLES } from '../../infra/github-oidc-stack.js';
import { evaluate } from '../../scripts/aws-rules/iam.js';
import { CFN_PERMISSIONS, deployIamReport, type DeployIamReport, missingTypes, oidcRole, PRODUCTION_OVERRIDES, templateTypes } from '../../scripts/aws-rules/deploy-iam.js';
import { stepCalls, workflowJobs, WORKFLOWS } from '../../scripts/aws-rules/deploy-steps.js';
import { FAKE_ACCOUNT, synthOnceStacks, synthStage } from '../../scripts/aws-rules/templates.js';

const SLOW = 240_000;
type Statement = Record<string, unknown>;
const statements = (p: PolicyDocument): Statement[] => (Array.isArray(p.Statement) ? p.Statement : [p.Statement]) as Statement[];

/** The principal with `drop` removed from the Allow statements' actions (the policy before a fix). */
function withoutActions(role: IamPrincipal, drop: (action: string, sid: string | undefined) => boolean): IamPrincipal {
  return {
    ...role,
    identityPolicies: role.identityPolicies.map((p) => ({
      ...p,
      policy: {
        ...p.policy,
        Statement: statements(p.policy).flatMap((st) => {
          if (st.Effect !== 'Allow') return [st];
          const kept = ([] as string[]).concat(st.Action as string).filter((a) => !drop(a, st.Sid as string | undefined));
          return kept.length ? [{ ...st, Action: kept }] : [];
        }),
      },
    })),
  };
}

/** The principal with its Allow resources limited by `keep` (e.g. only its own region's bootstrap roles). */
function withResources(role: IamPrincipal, keep: (resource: string) => boolean): IamPrincipal {
  return {
    ...role,
    identityPolicies: role.identityPolicies.map((p) => ({
      ...p,
      policy: { ...p.policy, Statement: statements(p.policy).map((st) => (st.Effect === 'Allow' && Array.isArray(st.Resource) ? { ...st, Resource: (st.Resource as string[]).filter(keep) } : st)) },
    })),
  };
}

describe('cfn-permissions.json', () => {
  it('lists every resource type of every template (dev, pr-42 preview, staging and prod with SES, federation and edge alarms, the once-per-account stacks)', () => {
    const env = { account: FAKE_ACCOUNT, region: 'eu-west-1' };
    const stacks = [
      ...synthStage({ stage: 'dev' }).stacks,
      ...synthStage({ stage: 'pr-42', previewDeployer: true }).stacks,
      ...['staging', 'prod'].flatMap((stage) => synthStage({ stage, env, edgeAlarms: true, overrides: PRODUCTION_OVERRIDES }).stacks),
      ...(['all', 'preview', 'deploy'] as const).flatMap((githubRoles) => synthOnceStacks({ githubRepo: 'o/r', githubRoles }).stacks),
    ];
    expect(templateTypes(stacks).length).toBeGreaterThan(40);
    expect(missingTypes(stacks)).toEqual([]);
  }, SLOW);

  it('names the schema each type was read from, and custom resources invoke their provider function', () => {
    for (const [type, e] of Object.entries(CFN_PERMISSIONS)) {
      expect(e.source.repo ?? e.source.url, type).toBeTruthy();
      expect(e.create.length + e.delete.length, type).toBeGreaterThan(0);
    }
    for (const t of ['AWS::CloudFormation::CustomResource', 'Custom::CDKBucketDeployment', 'Custom::S3AutoDeleteObjects']) expect(CFN_PERMISSIONS[t]!.create).toEqual(['lambda:InvokeFunction']);
  });
});

describe('workflow steps', () => {
  it('every npm script a workflow job runs has its AWS calls listed', () => {
    const stage = { stage: 'staging', account: FAKE_ACCOUNT, region: 'eu-west-1', federated: true };
    for (const workflow of Object.keys(WORKFLOWS)) {
      for (const job of workflowJobs(workflow)) for (const script of job.scripts) expect(() => stepCalls(script, stage), `${workflow} ${job.job}: ${script}`).not.toThrow();
    }
  });

  it('the identity-provider step of platform:deploy calls ListIdentityProviders, DescribeUserPoolClient, UpdateUserPoolClient', () => {
    const calls = stepCalls('platform:deploy', { stage: 'prod', account: FAKE_ACCOUNT, region: 'eu-west-1', federated: true }).map((c) => c.action);
    expect(calls).toEqual(expect.arrayContaining(['cognito-idp:ListIdentityProviders', 'cognito-idp:DescribeUserPoolClient', 'cognito-idp:UpdateUserPoolClient', 'cloudformation:SetStackPolicy']));
  });
});

describe('deploy-time IAM: 0 denies', () => {
  let report: DeployIamReport;
  beforeAll(async () => {
    report = await deployIamReport();
  }, SLOW);

  it('evaluates every context: preview, the preview roles, staging, prod, the account stacks and each workflow job', () => {
    const names = report.contexts.map((c) => c.context);
    expect(names).toEqual(expect.arrayContaining(['preview', 'preview-roles', 'staging', 'prod', 'account', 'steps:deploy.yml#staging', 'steps:deploy.yml#prod-diff', 'steps:deploy.yml#prod', 'steps:preview.yml#deploy']));
    for (const c of report.contexts.filter((x) => !x.context.startsWith('steps:'))) expect(c.resources, c.context).toBeGreaterThan(0);
    for (const c of report.contexts) expect(c.calls, c.context).toBeGreaterThan(0);
  });

  for (const context of ['preview', 'preview-roles', 'staging', 'prod', 'account', 'steps']) {
    it(`${context}: no call is denied`, () => {
      const denies = report.contexts.filter((c) => c.context === context || c.context.startsWith(`${context}:`)).flatMap((c) => c.denies);
      expect(denies).toEqual([]);
    });
  }

});

describe('deploy-time IAM: the check finds each fixed deny again', () => {
  it('the preview role without events and sqs (the old PREVIEW_SERVICES): events:PutRule of the Api stack\'s rules and sqs:CreateQueue denied', async () => {
    const r = await deployIamReport({ only: ['preview'], previewRole: (role) => withoutActions(role, (a) => a === 'events:*' || a === 'sqs:*') });
    const denies = r.contexts[0]!.denies;
    const rule = denies.find((d) => d.action === 'events:PutRule');
    expect(rule).toMatchObject({ context: 'preview', principal: 'vigia-github-preview', decision: 'ImplicitlyDenied' });
    expect(rule!.source).toMatch(/^Vigia-pr-42-Api\/\S+ AWS::Events::Rule create$/);
    expect(rule!.resource).toMatch(/^arn:aws:events:us-east-1:111111111111:rule\/Vigia-pr-42-Api-/);
    expect(denies.find((d) => d.action === 'sqs:CreateQueue')?.resource).toBe('arn:aws:sqs:us-east-1:111111111111:vigia-pr-42-notifications-dlq');
    expect(denies.some((d) => d.action === 'sqs:SetQueueAttributes' && d.source.includes('AWS::SQS::QueuePolicy'))).toBe(true);
  }, SLOW);

  it('the boundary without sqs: the notification consumer may not send to its dead-letter queue', async () => {
    const drop = (b: PolicyDocument): PolicyDocument => ({ ...b, Statement: statements(b).map((st) => (st.Sid === 'PreviewFunctions' ? { ...st, Action: ([] as string[]).concat(st.Action as string).filter((a) => a !== 'sqs:*') } : st)) });
    const r = await deployIamReport({ only: ['preview-roles'], previewBoundary: drop });
    const d = r.contexts[0]!.denies.find((x) => x.action === 'sqs:SendMessage');
    expect(d).toMatchObject({ context: 'preview-roles', resource: 'arn:aws:sqs:us-east-1:111111111111:vigia-pr-42-notifications-dlq' });
    expect(d!.principal).toMatch(/^Vigia-pr-42-Api\/NotificationDeliveryRole/);
    expect(d!.reason).toMatch(/permissions boundary/);
  }, SLOW);

  it('the boundary\'s table fence on dynamodb:* (before): the consumer\'s stream mapping may not ListStreams', async () => {
    const old = (b: PolicyDocument): PolicyDocument => ({ ...b, Statement: statements(b).map((st) => (st.Sid === 'DenyNonPreviewTables' ? { ...st, Action: 'dynamodb:*' } : st)) });
    const r = await deployIamReport({ only: ['preview-roles'], previewBoundary: old });
    const d = r.contexts[0]!.denies.find((x) => x.action === 'dynamodb:ListStreams');
    expect(d?.principal).toMatch(/^Vigia-pr-42-Api\/NotificationDeliveryRole/);
  }, SLOW);

  it('the deploy role without the identity-provider actions: platform:deploy\'s step is denied on the stage\'s user pool', async () => {
    const r = await deployIamReport({ only: ['steps'], deployRole: (role) => withoutActions(role, (_a, sid) => sid === 'ReattachIdentityProviders') });
    const denies = r.contexts.flatMap((c) => c.denies);
    for (const action of ['cognito-idp:ListIdentityProviders', 'cognito-idp:DescribeUserPoolClient', 'cognito-idp:UpdateUserPoolClient']) {
      const d = denies.find((x) => x.action === action && x.context === 'steps:deploy.yml#prod');
      expect(d, action).toMatchObject({ principal: 'vigia-github-deploy-prod', source: 'npm run platform:deploy (prod)' });
      expect(d!.resource).toMatch(/^arn:aws:cognito-idp:eu-west-1:111111111111:userpool\//);
    }
  }, SLOW);

  it('the deploy role limited to its own region\'s bootstrap roles: the edgeAlarms stage cannot assume the us-east-1 ones', async () => {
    const r = await deployIamReport({ only: ['prod'], deployRole: (role) => withResources(role, (res) => !res.endsWith('-us-east-1')) });
    const denies = r.contexts[0]!.denies;
    expect(denies.map((d) => `${d.action} ${d.resource}`)).toEqual(
      expect.arrayContaining(['sts:AssumeRole arn:aws:iam::111111111111:role/cdk-hnb659fds-deploy-role-111111111111-us-east-1', 'sts:AssumeRole arn:aws:iam::111111111111:role/cdk-hnb659fds-file-publishing-role-111111111111-us-east-1']),
    );
    expect(denies.every((d) => d.context === 'prod' && d.principal === 'vigia-github-deploy-prod')).toBe(true);
  }, SLOW);
});

describe('CI roles: one deploy role per environment, a read-only diff role', () => {
  const env = { account: FAKE_ACCOUNT, region: 'eu-west-1' };
  const oidc = synthOnceStacks({ githubRepo: 'acme/vigia', githubRoles: 'deploy', env }).stacks;
  const role = (name: string) => oidcRole(oidc, name);
  const trust = (name: string): Statement => {
    const r = Object.values(oidc.find((s) => s.stackName === 'Vigia-GitHubOidc')!.template.Resources).find((x) => x.Type === 'AWS::IAM::Role' && x.Properties?.RoleName === name)!;
    return statements(r.Properties!.AssumeRolePolicyDocument as PolicyDocument)[0]!;
  };
  const sub = (e: string) => `repo:acme/vigia:environment:${e}:job_workflow_ref:acme/vigia/.github/workflows/deploy.yml@refs/heads/main`;
  const stack = (name: string) => `arn:aws:cloudformation:eu-west-1:${FAKE_ACCOUNT}:stack/${name}/00000000-0000-0000-0000-000000000000`;
  const bootstrap = (kind: string, region = 'eu-west-1') => `arn:aws:iam::${FAKE_ACCOUNT}:role/cdk-hnb659fds-${kind}-role-${FAKE_ACCOUNT}-${region}`;

  it('each role trusts exactly one GitHub environment of deploy.yml on main (StringEquals, no wildcard)', () => {
    for (const [name, e] of [['vigia-github-deploy-staging', 'staging'], ['vigia-github-deploy-prod', 'prod'], ['vigia-github-diff', 'prod-diff']] as const) {
      const st = trust(name);
      expect(st.Action).toBe('sts:AssumeRoleWithWebIdentity');
      expect(st.Condition, name).toEqual({ StringEquals: { 'token.actions.githubusercontent.com:aud': 'sts.amazonaws.com', 'token.actions.githubusercontent.com:sub': sub(e) } });
    }
    expect(oidc.filter((s) => s.stackName === 'Vigia-GitHubOidc').flatMap((s) => Object.values(s.template.Resources)).filter((r) => r.Type === 'AWS::IAM::Role').map((r) => r.Properties?.RoleName).sort()).toEqual(['vigia-github-deploy-prod', 'vigia-github-deploy-staging', 'vigia-github-diff']);
  });

  it('the staging role cannot touch prod (stack policies, smoke users, identity providers, table), nor prod the staging ones', async () => {
    const cases = (stage: string) => [
      { action: 'cloudformation:SetStackPolicy', resource: stack(`Vigia-${stage}-Data`) },
      { action: 'cognito-idp:AdminCreateUser', resource: `arn:aws:cognito-idp:eu-west-1:${FAKE_ACCOUNT}:userpool/eu-west-1_x`, context: { 'aws:ResourceTag/project': 'vigia', 'aws:ResourceTag/stage': stage } },
      { action: 'cognito-idp:UpdateUserPoolClient', resource: `arn:aws:cognito-idp:eu-west-1:${FAKE_ACCOUNT}:userpool/eu-west-1_x`, context: { 'aws:ResourceTag/project': 'vigia', 'aws:ResourceTag/stage': stage } },
      { action: 'dynamodb:PutItem', resource: `arn:aws:dynamodb:eu-west-1:${FAKE_ACCOUNT}:table/vigia-${stage}-main` },
    ];
    for (const [mine, other] of [['staging', 'prod'], ['prod', 'staging']] as const) {
      const r = role(`vigia-github-deploy-${mine}`);
      for (const req of cases(mine)) expect((await evaluate(r, req)).result, `${mine} ${req.action}`).toBe('Allowed');
      for (const req of cases(other)) expect((await evaluate(r, req)).result, `${mine} on ${other}: ${req.action}`).not.toBe('Allowed');
    }
  });

  it('the diff role reads (lookup role, DescribeStacks, GetTemplate of prod) and can change nothing', async () => {
    const diff = role('vigia-github-diff');
    for (const req of [
      { action: 'sts:AssumeRole', resource: bootstrap('lookup') },
      { action: 'sts:AssumeRole', resource: bootstrap('lookup', 'us-east-1') },
      { action: 'cloudformation:DescribeStacks', resource: '*' },
      { action: 'cloudformation:GetTemplate', resource: stack('Vigia-prod-Api') },
    ]) expect((await evaluate(diff, req)).result, `${req.action} ${req.resource}`).toBe('Allowed');
    for (const req of [
      ...['deploy', 'file-publishing', 'image-publishing', 'cfn-exec'].map((k) => ({ action: 'sts:AssumeRole', resource: bootstrap(k) })),
      ...['CreateChangeSet', 'ExecuteChangeSet', 'UpdateStack', 'DeleteStack', 'SetStackPolicy'].map((a) => ({ action: `cloudformation:${a}`, resource: stack('Vigia-prod-Api') })),
      { action: 'cloudformation:GetTemplate', resource: stack('Vigia-staging-Api') },
      { action: 'dynamodb:PutItem', resource: `arn:aws:dynamodb:eu-west-1:${FAKE_ACCOUNT}:table/vigia-prod-main` },
      { action: 'cognito-idp:AdminCreateUser', resource: `arn:aws:cognito-idp:eu-west-1:${FAKE_ACCOUNT}:userpool/eu-west-1_x`, context: { 'aws:ResourceTag/project': 'vigia', 'aws:ResourceTag/stage': 'prod' } },
    ]) expect((await evaluate(diff, req)).result, `${req.action} ${req.resource}`).not.toBe('Allowed');
  });

  it('deploy.yml: each job assumes its own role (its role-to-assume variable); the diff runs `cdk diff --method template`', () => {
    const jobs = workflowJobs('.github/workflows/deploy.yml');
    expect(jobs.map((j) => [j.job, j.roleVariable, ROLE_VARIABLES[j.roleVariable as keyof typeof ROLE_VARIABLES]])).toEqual([
      ['staging', 'AWS_STAGING_DEPLOY_ROLE_ARN', 'vigia-github-deploy-staging'],
      ['prod-diff', 'AWS_PROD_DIFF_ROLE_ARN', 'vigia-github-diff'],
      ['prod', 'AWS_PROD_DEPLOY_ROLE_ARN', 'vigia-github-deploy-prod'],
    ]);
  });

  it('the check finds it again: the prod diff job run as the diff role with the old `cdk diff` (deploy role assumed) is denied', async () => {
    const r = await deployIamReport({ only: ['steps:deploy.yml#prod-diff'] });
    const c = r.contexts.find((x) => x.context === 'steps:deploy.yml#prod-diff')!;
    expect(c.deployer).toBe('vigia-github-diff');
    expect(c.denies).toEqual([]);
    expect(c.calls).toBeGreaterThan(0);
    const old = await evaluate(role('vigia-github-diff'), { action: 'sts:AssumeRole', resource: bootstrap('deploy') });
    expect(old.result).toBe('ImplicitlyDenied');
  }, SLOW);
});
