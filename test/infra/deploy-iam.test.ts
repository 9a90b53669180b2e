/**
 * Deploy-time IAM check (scripts/aws-rules/deploy-iam.ts, docs/platform.md#deploy-time-iam-check): every
 * resource type of every template has its CloudFormation handler permissions listed; each deployment context
 * has 0 denies; and, per deny fixed in infra/github-oidc-stack.ts, the check finds it again when the fix is
 * undone (naming context, principal, action and resource).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { IamPrincipal, PolicyDocument } from '../../scripts/aws-rules/iam.js';
import { CFN_PERMISSIONS, deployIamReport, type DeployIamReport, missingTypes, PRODUCTION_OVERRIDES, templateTypes } from '../../scripts/aws-rules/deploy-iam.js';
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
    expect(names).toEqual(expect.arrayContaining(['preview', 'preview-roles', 'staging', 'prod', 'account', 'steps:deploy.yml#staging', 'steps:deploy.yml#prod', 'steps:preview.yml#deploy']));
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
      expect(d, action).toMatchObject({ principal: 'vigia-github-deploy', source: 'npm run platform:deploy (prod)' });
      expect(d!.resource).toMatch(/^arn:aws:cognito-idp:eu-west-1:111111111111:userpool\//);
    }
  }, SLOW);

  it('the deploy role limited to its own region\'s bootstrap roles: the edgeAlarms stage cannot assume the us-east-1 ones', async () => {
    const r = await deployIamReport({ only: ['prod'], deployRole: (role) => withResources(role, (res) => !res.endsWith('-us-east-1')) });
    const denies = r.contexts[0]!.denies;
    expect(denies.map((d) => `${d.action} ${d.resource}`)).toEqual(
      expect.arrayContaining(['sts:AssumeRole arn:aws:iam::111111111111:role/cdk-hnb659fds-deploy-role-111111111111-us-east-1', 'sts:AssumeRole arn:aws:iam::111111111111:role/cdk-hnb659fds-file-publishing-role-111111111111-us-east-1']),
    );
    expect(denies.every((d) => d.context === 'prod' && d.principal === 'vigia-github-deploy')).toBe(true);
  }, SLOW);
});
