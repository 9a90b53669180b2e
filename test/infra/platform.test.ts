/**
 * Platform (docs/platform.md#stages): per-stage synthesized differences (PITR, deletion protection, WAF, throttling, alarm
 * e-mail, tags), the CloudFront security headers (same builder as the local portal), alarms and dashboard,
 * and the once-per-account GitHub OIDC stack.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App, type Environment } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { HANDLER_NAMES } from '../../lambdas/contract/routes.js';
import { WAF_MANAGED_RULE_GROUPS } from '../../infra/api-waf.js';
import { allowedSubjects, deploySubjects, GitHubOidcStack, type GitHubOidcStackProps, previewSubjects } from '../../infra/github-oidc-stack.js';
import { ALARM_THRESHOLDS, BACKGROUND_FUNCTIONS } from '../../infra/monitoring-stack.js';
import { awsPortalOrigins, securityHeaderSettings, securityHeaders } from '../../infra/security-headers.js';
import { stageConfig } from '../../infra/stage-config.js';
import { addVigiaStacks, TAG_CREATED_AT } from '../../infra/vigia-app.js';
import { cdkJsonContext, fakeWebDist, ofType, PROD_ENV, resources, synth, synthPr42, synthProd, synthStaging, type Synthed } from '../support/synth.js';

type Props = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const one = (s: Synthed, stack: keyof Synthed['t'], type: string): Props => {
  const found = ofType(s.t[stack], type);
  expect(found, type).toHaveLength(1);
  return found[0]![1].Properties!;
};

describe('stage configuration matrix', () => {
  it('PITR and WAF on production stages only; alarm e-mail from context, validated', () => {
    const rows = ['dev', 'pr-42', 'staging', 'prod'].map((s) => stageConfig(s)).map((c) => [c.stage, c.pointInTimeRecovery, c.waf, c.alarmEmail]);
    expect(rows).toEqual([
      ['dev', false, false, undefined],
      ['pr-42', false, false, undefined],
      ['staging', true, true, undefined],
      ['prod', true, true, undefined],
    ]);
    expect(stageConfig('prod', { alarmEmail: ' soc@example.com ' }).alarmEmail).toBe('soc@example.com');
    expect(() => stageConfig('prod', { alarmEmail: 'not-an-email' })).toThrow(/alarmEmail/);
    expect(() => addVigiaStacks(new App(), { stage: 'pr-1', nag: false, createdAt: 'yesterday' })).toThrow(/ISO-8601/);
  });
});

describe('synthesized differences per stage', () => {
  it('pr-42 leaves nothing behind: no Retain, buckets auto-emptied, log groups deleted, no PITR, no deletion protection', () => {
    const s = synthPr42();
    let logGroups = 0;
    for (const t of Object.values(s.t)) {
      for (const [id, r] of Object.entries(resources(t))) {
        expect(r.DeletionPolicy ?? 'Delete', id).toBe('Delete');
        expect(r.UpdateReplacePolicy ?? 'Delete', id).toBe('Delete');
        if (r.Type === 'AWS::Logs::LogGroup') logGroups += 1;
        if (r.Type === 'AWS::S3::Bucket') {
          // every bucket has an auto-delete custom resource pointing at it
          const autoDelete = ofType(t, 'Custom::S3AutoDeleteObjects').map(([, c]) => JSON.stringify(c.Properties!.BucketName));
          expect(autoDelete, id).toContain(JSON.stringify({ Ref: id }));
        }
      }
    }
    expect(logGroups).toBeGreaterThanOrEqual(HANDLER_NAMES.length + 2);
    const table = one(s, 'data', 'AWS::DynamoDB::Table');
    expect(table.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: false });
    expect(table.DeletionProtectionEnabled).toBe(false);
    expect(one(s, 'auth', 'AWS::Cognito::UserPool').DeletionProtection).toBe('INACTIVE');
    expect(s.all.some((x) => x.terminationProtection)).toBe(false);
    s.t.api.resourceCountIs('AWS::WAFv2::WebACL', 0);
    expect(one(s, 'auth', 'AWS::Cognito::UserPool').Policies).toBeDefined();
    // The preview URL is public on the pull request: users are admin-created only.
    expect(one(s, 'auth', 'AWS::Cognito::UserPool').AdminCreateUserConfig.AllowAdminCreateUserOnly).toBe(true);
  });

  it('prod keeps its data: RetainExceptOnCreate on table/pool/buckets/logs, PITR, deletion protection, termination protection, no self sign-up', () => {
    const s = synthProd();
    const table = ofType(s.t.data, 'AWS::DynamoDB::Table')[0]![1] as Props;
    expect(table.DeletionPolicy).toBe('RetainExceptOnCreate');
    expect(table.UpdateReplacePolicy).toBe('Retain');
    expect(table.Properties!.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    expect(table.Properties!.DeletionProtectionEnabled).toBe(true);
    const pool = ofType(s.t.auth, 'AWS::Cognito::UserPool')[0]![1] as Props;
    expect(pool.DeletionPolicy).toBe('RetainExceptOnCreate');
    expect(pool.Properties!.DeletionProtection).toBe('ACTIVE');
    expect(pool.Properties!.AdminCreateUserConfig.AllowAdminCreateUserOnly).toBe(true);
    for (const t of Object.values(s.t)) {
      for (const [id, r] of ofType(t, 'AWS::Logs::LogGroup')) expect(r.DeletionPolicy, id).toBe('RetainExceptOnCreate');
      t.resourceCountIs('Custom::S3AutoDeleteObjects', 0);
    }
    expect(s.all.every((x) => x.terminationProtection)).toBe(true);
  });

  it('staging: production profile (retained, PITR, WAF) without deletion protection', () => {
    const s = synthStaging();
    const table = ofType(s.t.data, 'AWS::DynamoDB::Table')[0]![1] as Props;
    expect(table.DeletionPolicy).toBe('RetainExceptOnCreate');
    expect(table.Properties!.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    expect(table.Properties!.DeletionProtectionEnabled).toBe(false);
    s.t.api.resourceCountIs('AWS::WAFv2::WebACL', 1);
  });

  it.each([
    ['pr-42', synthPr42, { rateLimit: 5, burstLimit: 10 }],
    ['staging', synthStaging, { rateLimit: 20, burstLimit: 40 }],
    ['prod', synthProd, { rateLimit: 50, burstLimit: 100 }],
  ] as const)('%s: API stage throttling', (_stage, get, limits) => {
    const stage = one(get(), 'api', 'AWS::ApiGateway::Stage');
    expect(stage.MethodSettings).toEqual(
      expect.arrayContaining([expect.objectContaining({ ThrottlingRateLimit: limits.rateLimit, ThrottlingBurstLimit: limits.burstLimit })]),
    );
  });

  it('prod: WAF web ACL with the AWS managed rules and a per-IP rate rule, associated with the API stage', () => {
    const s = synthProd();
    const acl = one(s, 'api', 'AWS::WAFv2::WebACL');
    expect(acl.Scope).toBe('REGIONAL');
    expect(acl.DefaultAction).toEqual({ Allow: {} });
    const rules = acl.Rules as Props[];
    expect(rules.map((r) => r.Name)).toEqual(['RateLimitPerIp', ...WAF_MANAGED_RULE_GROUPS]);
    expect(rules[0]!.Statement.RateBasedStatement).toEqual({ Limit: 2000, AggregateKeyType: 'IP' });
    for (const r of rules.slice(1)) expect(r.Statement.ManagedRuleGroupStatement.VendorName).toBe('AWS');
    const assoc = one(s, 'api', 'AWS::WAFv2::WebACLAssociation');
    const [stageId] = ofType(s.t.api, 'AWS::ApiGateway::Stage')[0]!;
    expect(JSON.stringify(assoc.ResourceArn)).toContain(`"/stages/",{"Ref":"${stageId}"}`);
    expect(one(s, 'api', 'AWS::ApiGateway::Stage').StageName).toBe('prod');
  });

  it('tags: project and stage on every stack; created-at when given', () => {
    const s = synth('pr-7', { createdAt: '2026-11-20T08:00:00Z' });
    for (const stack of s.all) {
      expect(stack.tags.tagValues(), stack.stackName).toEqual({ project: 'vigia', stage: 'pr-7', [TAG_CREATED_AT]: '2026-11-20T08:00:00Z' });
    }
    // …and they reach taggable resources such as the user pool (the deploy role's seeding condition uses them).
    expect(one(s, 'auth', 'AWS::Cognito::UserPool').UserPoolTags).toEqual({ project: 'vigia', stage: 'pr-7', [TAG_CREATED_AT]: '2026-11-20T08:00:00Z' });
    expect(synthPr42().all[0]!.tags.tagValues()[TAG_CREATED_AT]).toBeUndefined();
  });
});

describe('CloudFront security headers', () => {
  /** The policy's headers as a browser would receive them. */
  function policyHeaders(p: Props): Record<string, string> {
    const sec = p.ResponseHeadersPolicyConfig.SecurityHeadersConfig;
    const hsts = sec.StrictTransportSecurity;
    return {
      'Content-Security-Policy': sec.ContentSecurityPolicy.ContentSecurityPolicy,
      'Strict-Transport-Security': `max-age=${hsts.AccessControlMaxAgeSec}${hsts.IncludeSubdomains ? '; includeSubDomains' : ''}`,
      'X-Content-Type-Options': sec.ContentTypeOptions.Override ? 'nosniff' : '',
      'X-Frame-Options': sec.FrameOptions.FrameOption,
      'Referrer-Policy': sec.ReferrerPolicy.ReferrerPolicy,
      ...Object.fromEntries((p.ResponseHeadersPolicyConfig.CustomHeadersConfig.Items as Props[]).map((h) => [h.Header, h.Value])),
    };
  }

  it('prod (eu-west-1): exactly the headers of security-headers.ts, with the region\'s Cognito and API Gateway origins', () => {
    const s = synthProd();
    const policy = one(s, 'hosting', 'AWS::CloudFront::ResponseHeadersPolicy');
    // The browser uploads attachments to the stage's bucket (docs/api.md#attachments), named before it exists.
    const uploads = [`https://vigia-prod-attachments-${PROD_ENV.account}-eu-west-1.s3.eu-west-1.amazonaws.com`];
    const expected = securityHeaders(securityHeaderSettings({ ...awsPortalOrigins(PROD_ENV.region!), uploads }));
    expect(policyHeaders(policy)).toEqual(expected);
    const csp = expected['Content-Security-Policy']!;
    expect(csp).toContain(
      `connect-src 'self' https://cognito-idp.eu-west-1.amazonaws.com https://cognito-identity.eu-west-1.amazonaws.com https://*.execute-api.eu-west-1.amazonaws.com ${uploads[0]};`,
    );
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe');
    for (const item of policy.ResponseHeadersPolicyConfig.CustomHeadersConfig.Items as Props[]) expect(item.Override).toBe(true);
  });

  it('every distribution behaviour uses the policy', () => {
    const s = synthPr42();
    const [policyId] = ofType(s.t.hosting, 'AWS::CloudFront::ResponseHeadersPolicy')[0]!;
    const dist = one(s, 'hosting', 'AWS::CloudFront::Distribution').DistributionConfig;
    const behaviours = [dist.DefaultCacheBehavior, ...(dist.CacheBehaviors as Props[])];
    expect(behaviours.length).toBe(3);
    for (const b of behaviours) expect(b.ResponseHeadersPolicyId).toEqual({ Ref: policyId });
  });
});

describe('alarms and dashboard', () => {
  it('API 5xx/latency, Lambda errors/throttles per function, DynamoDB throttles → the stage topic; dashboard per stage', () => {
    const s = synthPr42();
    // Labelled metrics synthesize as a one-element `Metrics` array: flatten to the classic shape.
    const alarms = ofType(s.t.monitoring, 'AWS::CloudWatch::Alarm').map(([, a]): Props => {
      const p = a.Properties as Props;
      const stat = p.Metrics?.[0]?.MetricStat;
      return stat
        ? { ...p, Namespace: stat.Metric.Namespace, MetricName: stat.Metric.MetricName, Dimensions: stat.Metric.Dimensions, Statistic: stat.Stat }
        : p;
    });
    // API 5xx/latency, Errors/Throttles of every function (API handlers, notification consumer, SLA job), table
    // throttles, Cognito sign-in throttles and the notification DLQ (previews have no WAF and no ingest-silence alarms).
    const functions = [...HANDLER_NAMES, ...BACKGROUND_FUNCTIONS].map((h) => `vigia-pr-42-${h}`).sort();
    // + 5 of test/infra/alarms.test.ts: pre token trigger errors/throttles, stream iterator age, 2 job-failure alarms.
    expect(alarms).toHaveLength(2 + 2 * functions.length + 2 + 1 + 1 + 5);
    const [topicId] = ofType(s.t.monitoring, 'AWS::SNS::Topic')[0]!;
    for (const a of alarms) {
      expect(a.AlarmActions, a.AlarmName).toEqual([{ Ref: topicId }]);
      expect(a.TreatMissingData).toBe('notBreaching');
      expect(a.AlarmName).toMatch(/^vigia-pr-42-/);
    }
    const byMetric = (ns: string, name: string) => alarms.filter((a) => a.Namespace === ns && a.MetricName === name);
    expect(byMetric('AWS/ApiGateway', '5XXError')[0]!.Dimensions).toEqual(
      expect.arrayContaining([{ Name: 'ApiName', Value: 'vigia-pr-42-api' }, { Name: 'Stage', Value: 'pr-42' }]),
    );
    const latency = byMetric('AWS/ApiGateway', 'Latency')[0]!;
    expect([latency.Statistic ?? latency.ExtendedStatistic, latency.Threshold, latency.EvaluationPeriods]).toEqual(['p95', ALARM_THRESHOLDS.apiLatencyP95Ms, 3]);
    const withTrigger = [...functions, 'vigia-pr-42-pre-token-generation'].sort();
    expect(byMetric('AWS/Lambda', 'Errors').map((a) => a.Dimensions[0].Value).sort()).toEqual(withTrigger);
    expect(byMetric('AWS/Lambda', 'Throttles').map((a) => a.Dimensions[0].Value).sort()).toEqual(withTrigger);
    // Every function of the Api stack is one of them (a new function without alarms fails here), but CDK's
    // auto-delete provider of the preview's attachments bucket (a custom resource handler, run at deletion only).
    const apiFunctions = ofType(s.t.api, 'AWS::Lambda::Function').filter(([id]) => !id.startsWith('CustomS3AutoDeleteObjects'));
    expect(apiFunctions.map(([, f]) => f.Properties!.FunctionName).sort()).toEqual(functions);
    expect(byMetric('AWS/SQS', 'ApproximateNumberOfMessagesVisible').map((a) => a.Dimensions)).toEqual([[{ Name: 'QueueName', Value: 'vigia-pr-42-notifications-dlq' }]]);
    expect(byMetric('AWS/DynamoDB', 'ReadThrottleEvents')[0]!.Dimensions).toEqual([{ Name: 'TableName', Value: 'vigia-pr-42-main' }]);
    expect(byMetric('AWS/DynamoDB', 'WriteThrottleEvents')).toHaveLength(1);
    s.t.monitoring.resourceCountIs('AWS::SNS::Subscription', 0);
    expect(one(s, 'monitoring', 'AWS::CloudWatch::Dashboard').DashboardName).toBe('vigia-pr-42-dashboard');
    // The topic refuses non-TLS publishing.
    expect(JSON.stringify(one(s, 'monitoring', 'AWS::SNS::TopicPolicy'))).toContain('aws:SecureTransport');
  });

  it('the alarm e-mail of the stage is subscribed', () => {
    const sub = one(synthStaging(), 'monitoring', 'AWS::SNS::Subscription');
    expect([sub.Protocol, sub.Endpoint]).toEqual(['email', 'soc@example.com']);
  });
});

describe('GitHub OIDC stack (once per account)', () => {
  const oidc = (repo: string, props: Partial<GitHubOidcStackProps> = {}, env: Environment | undefined = PROD_ENV) => {
    const app = new App({ builtinCloudFormationValidation: false, context: cdkJsonContext() });
    const stack = new GitHubOidcStack(app, 'Vigia-GitHubOidc', { githubRepo: repo, ...props, ...(env ? { env } : {}) });
    return { app, stack, t: Template.fromStack(stack) };
  };
  const trust = (t: Template, roleName: string): Props => {
    const role = ofType(t, 'AWS::IAM::Role').map(([, r]) => r.Properties as Props).find((r) => r.RoleName === roleName)!;
    const [statement] = role.AssumeRolePolicyDocument.Statement as Props[];
    return statement!;
  };

  it('deploy roles: each only its own environment of deploy.yml on main (job_workflow_ref in the subject)', () => {
    const { t } = oidc('acme/vigia');
    t.hasResourceProperties('AWS::IAM::OIDCProvider', { Url: 'https://token.actions.githubusercontent.com', ClientIdList: ['sts.amazonaws.com'] });
    for (const env of ['staging', 'prod']) {
      const statement = trust(t, `vigia-github-deploy-${env}`);
      expect(statement.Action).toBe('sts:AssumeRoleWithWebIdentity');
      expect(statement.Condition).toEqual({
        StringEquals: {
          'token.actions.githubusercontent.com:aud': 'sts.amazonaws.com',
          'token.actions.githubusercontent.com:sub': `repo:acme/vigia:environment:${env}:job_workflow_ref:acme/vigia/.github/workflows/deploy.yml@refs/heads/main`,
        },
      });
      expect(JSON.stringify(statement)).not.toMatch(/pull_request|:ref:refs\/heads|\*/);
    }
  });

  it('preview role: only pull requests and the reaper environment, never main or the deploy environments', () => {
    const { t } = oidc('acme/vigia');
    const statement = trust(t, 'vigia-github-preview');
    expect(statement.Condition).toEqual({
      StringEquals: { 'token.actions.githubusercontent.com:aud': 'sts.amazonaws.com' },
      'ForAnyValue:StringLike': { 'token.actions.githubusercontent.com:sub': previewSubjects('acme/vigia') },
    });
    expect(previewSubjects('acme/vigia')).toEqual([
      'repo:acme/vigia:pull_request',
      'repo:acme/vigia:pull_request:job_workflow_ref:acme/vigia/.github/workflows/preview.yml@refs/pull/*/merge',
      'repo:acme/vigia:environment:preview-cleanup:job_workflow_ref:acme/vigia/.github/workflows/preview.yml@refs/heads/main',
    ]);
    for (const s of previewSubjects('acme/vigia')) expect(s).not.toMatch(/environment:(staging|prod)|ref:refs\/heads/);
    expect(allowedSubjects('acme/vigia')).toEqual([...previewSubjects('acme/vigia'), ...deploySubjects('acme/vigia'), 'repo:acme/vigia:environment:prod-diff:job_workflow_ref:acme/vigia/.github/workflows/deploy.yml@refs/heads/main']);
  });

  it('deploy roles assume only the CDK bootstrap roles (its region and us-east-1, for edgeAlarms), the diff role only the lookup ones; other rights are read-only or scoped to their stage', () => {
    const { t } = oidc('acme/vigia', { roles: 'deploy' });
    expect(ofType(t, 'AWS::IAM::Role')).toHaveLength(3);
    const ids = Object.fromEntries(ofType(t, 'AWS::IAM::Role').map(([id, r]) => [(r.Properties as Props).RoleName as string, id]));
    const policyOf = (name: string) => ofType(t, 'AWS::IAM::Policy').filter(([, p]) => JSON.stringify((p.Properties as Props).Roles).includes(ids[name]!)).flatMap(([, p]) => (p.Properties as Props).PolicyDocument.Statement as Props[]);
    const bootstrap = (kinds: string[]) => ['eu-west-1', 'us-east-1'].flatMap((r) => kinds.map((k) => `arn:aws:iam::123456789012:role/cdk-hnb659fds-${k}-role-123456789012-${r}`)).sort();
    for (const name of ['vigia-github-deploy-staging', 'vigia-github-deploy-prod', 'vigia-github-diff']) {
      const statements = policyOf(name);
      const assume = statements.filter((s) => [s.Action].flat().includes('sts:AssumeRole'));
      expect(assume).toHaveLength(1);
      expect([assume[0]!.Resource].flat().sort()).toEqual(bootstrap(name === 'vigia-github-diff' ? ['lookup'] : ['deploy', 'file-publishing', 'image-publishing', 'lookup']));
      expect(JSON.stringify(statements)).not.toMatch(/"(iam:\*|cloudformation:\*|sts:\*|cognito-idp:\*|dynamodb:\*|\*:\*|pr-\*)"/);
      // On "*" only reads: listing stacks, and the deploy roles' fresh-account preflight (scripts/platform/preflight.ts) and retained-resource lookup.
      expect(statements.filter((s) => s.Resource === '*')).toEqual([
        { Sid: 'ReadStacks', Effect: 'Allow', Action: 'cloudformation:DescribeStacks', Resource: '*' },
        ...(name === 'vigia-github-diff'
          ? []
          : [
              { Sid: 'DeployPreflight', Effect: 'Allow', Action: ['cloudfront:ListDistributions', 'lambda:GetAccountSettings', 'ses:GetAccount'], Resource: '*' },
              // platform:deploy asks which stack holds a retained table or queue (scripts/platform/retained.ts).
              { Sid: 'DeployFindsStackOfResource', Effect: 'Allow', Action: 'cloudformation:DescribeStackResources', Resource: '*' },
            ]),
      ]);
      const other = name.endsWith('-staging') ? 'prod' : 'staging';
      expect(JSON.stringify(statements), name).not.toContain(`${other}-`);
    }
  });

  it('an account that already has the GitHub provider passes its ARN instead of creating a second one', () => {
    const arn = 'arn:aws:iam::123456789012:oidc-provider/token.actions.githubusercontent.com';
    const { t } = oidc('acme/vigia', { existingProviderArn: arn });
    t.resourceCountIs('AWS::IAM::OIDCProvider', 0);
    expect(trust(t, 'vigia-github-deploy-prod').Principal).toEqual({ Federated: arn });
    expect(trust(t, 'vigia-github-preview').Principal).toEqual({ Federated: arn });
    expect(() => oidc('acme/vigia', { existingProviderArn: 'arn:aws:iam::123456789012:oidc-provider/example.com' })).toThrow(/githubOidcProviderArn/);
  });

  it('one role per account: githubRoles=preview in the preview account, deploy in the production one', () => {
    const names = (roles: 'preview' | 'deploy') => ofType(oidc('acme/vigia', { roles }).t, 'AWS::IAM::Role').map(([, r]) => (r.Properties as Props).RoleName);
    expect(names('preview')).toEqual(['vigia-github-preview']);
    expect(names('deploy')).toEqual(['vigia-github-deploy-staging', 'vigia-github-deploy-prod', 'vigia-github-diff']);
    expect(() => oidc('acme/vigia', { roles: 'both' as never })).toThrow(/githubRoles/);
  });

  describe('the preview role cannot touch anything but Vigia-pr-* (IAM evaluation of its own policy)', () => {
    const { t } = oidc('acme/vigia');
    const ids = Object.fromEntries(Object.entries(t.toJSON().Resources as Record<string, Props>).map(([id, r]) => [id, r]));
    const boundaryId = Object.keys(ids).find((id) => ids[id]!.Type === 'AWS::IAM::ManagedPolicy')!;
    const bucketId = Object.keys(ids).find((id) => ids[id]!.Type === 'AWS::S3::Bucket')!;
    const BOUNDARY = 'arn:aws:iam::123456789012:policy/vigia-github-preview-boundary';
    const BUCKET = 'arn:aws:s3:::vigia-preview-assets-123456789012-eu-west-1';
    /** Resolves the intrinsics the statements use (partition, bucket ARN, boundary ARN). */
    const resolve = (v: unknown): unknown => {
      if (Array.isArray(v)) return v.map(resolve);
      if (v && typeof v === 'object') {
        const o = v as Props;
        if (o['Fn::Join']) return (o['Fn::Join'][1] as unknown[]).map(resolve).join(o['Fn::Join'][0]);
        if (o.Ref === 'AWS::Partition') return 'aws';
        if (o.Ref === boundaryId) return BOUNDARY;
        if (o['Fn::GetAtt']?.[0] === bucketId && o['Fn::GetAtt'][1] === 'Arn') return BUCKET;
        return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, resolve(x)]));
      }
      return v;
    };
    const role = Object.values(ids).find((r) => r.Type === 'AWS::IAM::Role' && r.Properties.RoleName === 'vigia-github-preview')!;
    const roleId = Object.keys(ids).find((id) => ids[id] === role)!;
    const roleStatements = ofType(t, 'AWS::IAM::Policy')
      .filter(([, p]) => JSON.stringify((p.Properties as Props).Roles).includes(roleId))
      .flatMap(([, p]) => resolve((p.Properties as Props).PolicyDocument.Statement) as Props[]);
    const boundaryStatements = resolve(ids[boundaryId]!.Properties.PolicyDocument.Statement) as Props[];

    interface Request { action: string; resource: string; tags?: Record<string, string>; context?: Record<string, string> }
    const glob = (pattern: string, value: string, ci = false) =>
      new RegExp(`^${pattern.split('*').map((x) => x.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`, ci ? 'i' : '').test(value);
    const value = (req: Request, key: string) => (key.startsWith('aws:ResourceTag/') ? req.tags?.[key.slice('aws:ResourceTag/'.length)] : req.context?.[key]);
    const conditionHolds = (cond: Props | undefined, req: Request): boolean =>
      Object.entries(cond ?? {}).every(([op, pairs]) =>
        Object.entries(pairs as Record<string, string | string[]>).every(([key, want]) => {
          const v = value(req, key);
          const wants = [want].flat();
          switch (op) {
            case 'StringEquals': return v !== undefined && wants.includes(v);
            case 'StringLike': return v !== undefined && wants.some((w) => glob(w, v));
            case 'StringNotEquals': return v === undefined || !wants.includes(v); // negated operators hold on a missing key
            case 'StringNotLike': return v === undefined || !wants.some((w) => glob(w, v));
            case 'ForAllValues:StringNotEquals': return v === undefined || !wants.includes(v); // single-valued here; holds on a missing key
            case 'Null': return (v === undefined) === (wants[0] === 'true');
            default: throw new Error(`operator ${op} not modelled`);
          }
        }),
      );
    const applies = (s: Props, req: Request) =>
      (s.Action ? [s.Action].flat().some((a: string) => glob(a, req.action, true)) : ![s.NotAction].flat().some((a: string) => glob(a, req.action, true))) &&
      (s.Resource ? [s.Resource].flat().some((r: string) => glob(r, req.resource)) : ![s.NotResource].flat().some((r: string) => glob(r, req.resource))) &&
      conditionHolds(s.Condition, req);
    /** IAM's decision for one policy set: an explicit deny wins, then an allow, else the implicit deny. */
    const decide = (statements: Props[], req: Request): 'allow' | 'deny' => {
      const hits = statements.filter((s) => applies(s, req));
      return hits.some((s) => s.Effect === 'Deny') ? 'deny' : hits.some((s) => s.Effect === 'Allow') ? 'allow' : 'deny';
    };
    const stack = (name: string) => `arn:aws:cloudformation:eu-west-1:123456789012:stack/${name}/0a1b2c`;
    const stackActions = ['CreateChangeSet', 'ExecuteChangeSet', 'DeleteStack', 'UpdateStack', 'CreateStack', 'RollbackStack', 'SetStackPolicy', 'UpdateTerminationProtection', 'DeleteChangeSet'].map((a) => `cloudformation:${a}`);

    it('deploys and destroys preview stacks and their resources', () => {
      for (const action of stackActions.filter((a) => !/SetStackPolicy|UpdateTerminationProtection/.test(a))) {
        expect(decide(roleStatements, { action, resource: stack('Vigia-pr-42-Api') }), action).toBe('allow');
      }
      const pr = { project: 'vigia', stage: 'pr-42' };
      expect(decide(roleStatements, { action: 'dynamodb:DeleteTable', resource: 'arn:aws:dynamodb:eu-west-1:123456789012:table/vigia-pr-42-main', tags: pr })).toBe('allow');
      expect(decide(roleStatements, { action: 'cognito-idp:DeleteUserPool', resource: 'arn:aws:cognito-idp:eu-west-1:123456789012:userpool/eu-west-1_x', tags: pr })).toBe('allow');
      expect(decide(roleStatements, { action: 'iam:CreateRole', resource: 'arn:aws:iam::123456789012:role/Vigia-pr-42-Api-FnRole1', context: { 'iam:PermissionsBoundary': BOUNDARY } })).toBe('allow');
      expect(decide(roleStatements, { action: 's3:PutObject', resource: `${BUCKET}/asset.zip` })).toBe('allow');
      expect(decide(roleStatements, { action: 's3:DeleteBucket', resource: 'arn:aws:s3:::vigia-pr-42-site-123456789012-eu-west-1' })).toBe('allow');
      expect(decide(roleStatements, { action: 'cloudformation:DescribeStacks', resource: '*' })).toBe('allow');
    });

    it.each(['prod', 'staging', 'dev', 'preview', 'production'])('refuses every stack operation on Vigia-%s-* stacks and their resources', (stage) => {
      for (const action of stackActions) {
        for (const part of ['Auth', 'Data', 'Api']) expect(decide(roleStatements, { action, resource: stack(`Vigia-${stage}-${part}`) }), `${action} ${stage}`).toBe('deny');
      }
      for (const name of ['Vigia-GitHubOidc', 'Vigia-Account', 'CDKToolkit']) expect(decide(roleStatements, { action: 'cloudformation:DeleteStack', resource: stack(name) })).toBe('deny');
      const tags = { project: 'vigia', stage };
      const table = `arn:aws:dynamodb:eu-west-1:123456789012:table/vigia-${stage}-main`;
      for (const action of ['dynamodb:DeleteTable', 'dynamodb:PutItem', 'dynamodb:Scan', 'dynamodb:UpdateTable']) {
        expect(decide(roleStatements, { action, resource: table }), action).toBe('deny');
        expect(decide(roleStatements, { action, resource: table, tags }), action).toBe('deny');
        expect(decide(boundaryStatements, { action, resource: table }), `boundary ${action}`).toBe('deny');
      }
      for (const [action, resource] of [
        ['cognito-idp:DeleteUserPool', 'arn:aws:cognito-idp:eu-west-1:123456789012:userpool/eu-west-1_x'],
        ['lambda:UpdateFunctionCode', `arn:aws:lambda:eu-west-1:123456789012:function:Vigia-${stage}-Api-Fn`],
        ['cloudfront:UpdateDistribution', 'arn:aws:cloudfront::123456789012:distribution/E123'],
        ['apigateway:DELETE', 'arn:aws:apigateway:eu-west-1::/restapis/abc'],
        ['logs:DeleteLogGroup', `arn:aws:logs:eu-west-1:123456789012:log-group:Vigia-${stage}-Api-Logs`],
      ] as const) {
        expect(decide(roleStatements, { action, resource, tags }), action).toBe('deny');
        expect(decide(boundaryStatements, { action, resource, tags }), `boundary ${action}`).toBe('deny');
      }
      expect(decide(roleStatements, { action: 's3:PutObject', resource: `arn:aws:s3:::vigia-${stage}-site-123456789012-eu-west-1/index.html` })).toBe('deny');
      expect(decide(boundaryStatements, { action: 's3:PutObject', resource: `arn:aws:s3:::vigia-${stage}-site-123456789012-eu-west-1/index.html` })).toBe('deny');
    });

    it('fits IAM size quotas (inline role policies 10,240 characters, managed policy 6,144, without whitespace)', () => {
      const size = (statements: Props[]) => JSON.stringify({ Version: '2012-10-17', Statement: statements }).length;
      expect(size(roleStatements)).toBeLessThan(10_240 * 0.8);
      expect(size(boundaryStatements)).toBeLessThan(6_144 * 0.8);
    });

    it('cannot escalate: no bootstrap role, no role without the boundary, no writes to the CDK bootstrap bucket', () => {
      for (const kind of ['deploy', 'cfn-exec', 'file-publishing']) {
        expect(decide(roleStatements, { action: 'sts:AssumeRole', resource: `arn:aws:iam::123456789012:role/cdk-hnb659fds-${kind}-role-123456789012-eu-west-1` })).toBe('deny');
      }
      expect(decide(roleStatements, { action: 'iam:CreateRole', resource: 'arn:aws:iam::123456789012:role/Vigia-pr-42-Evil' })).toBe('deny');
      expect(decide(roleStatements, { action: 'iam:DeleteRolePermissionsBoundary', resource: 'arn:aws:iam::123456789012:role/Vigia-pr-42-Api-FnRole1' })).toBe('deny');
      for (const resource of ['arn:aws:iam::123456789012:role/vigia-github-deploy', 'arn:aws:iam::123456789012:role/vigia-github-preview', BOUNDARY, 'arn:aws:iam::123456789012:role/cdk-hnb659fds-cfn-exec-role-123456789012-eu-west-1']) {
        for (const action of ['iam:AttachRolePolicy', 'iam:PutRolePolicy', 'iam:CreatePolicyVersion', 'iam:UpdateAssumeRolePolicy', 'iam:PassRole']) {
          expect(decide(roleStatements, { action, resource }), `${action} ${resource}`).toBe('deny');
        }
      }
      expect(decide(roleStatements, { action: 's3:PutObject', resource: 'arn:aws:s3:::cdk-hnb659fds-assets-123456789012-eu-west-1/abc.zip' })).toBe('deny');
      expect(decide(boundaryStatements, { action: 'iam:CreateRole', resource: 'arn:aws:iam::123456789012:role/Vigia-pr-42-x' })).toBe('deny');
      expect(decide(boundaryStatements, { action: 'sts:AssumeRole', resource: '*' })).toBe('deny');
    });
  });

  it('a preview stage deployed by the preview role: CLI credentials, its own assets bucket, the boundary on every role', () => {
    const app = new App({ outdir: mkdtempSync(path.join(tmpdir(), 'vigia-cdk-out-')), builtinCloudFormationValidation: false, context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [] } });
    const webDistDir = fakeWebDist();
    writeFileSync(path.join(webDistDir, 'index.html'), '<!doctype html><html><head><title>Vigía</title></head><body></body></html>');
    const stacks = addVigiaStacks(app, { stage: 'pr-42', previewDeployer: true, webDistDir });
    const assembly = app.synth();
    const all = [stacks.auth, stacks.data, stacks.hosting, stacks.api, stacks.portal, stacks.monitoring];
    let roles = 0;
    for (const s of all) {
      const artifact = assembly.getStackByName(s.stackName);
      expect(artifact.assumeRoleArn, s.stackName).toBeUndefined();
      expect(artifact.cloudFormationExecutionRoleArn, s.stackName).toBeUndefined();
      for (const [, r] of ofType(Template.fromStack(s), 'AWS::IAM::Role')) {
        roles += 1;
        expect(JSON.stringify((r.Properties as Props).PermissionsBoundary), s.stackName).toContain(':policy/vigia-github-preview-boundary');
      }
    }
    expect(roles).toBeGreaterThan(5);
    const manifest = readFileSync(path.join(assembly.directory, `${stacks.api.artifactId}.assets.json`), 'utf8');
    expect(manifest).toContain('vigia-preview-assets-${AWS::AccountId}-${AWS::Region}');
    expect(manifest).not.toContain('cdk-hnb659fds');
    expect(() => addVigiaStacks(new App({ context: cdkJsonContext() }), { stage: 'prod', previewDeployer: true, nag: false })).toThrow(/pr-<n> stages only/);
  });

  it('passes cdk-nag (env-bound and environment-agnostic) and rejects a malformed repository', async () => {
    const { AwsSolutionsChecks } = await import('cdk-nag');
    const { Validations } = await import('aws-cdk-lib');
    for (const env of [PROD_ENV, undefined]) {
      const app = new App({ builtinCloudFormationValidation: false, context: cdkJsonContext() });
      new GitHubOidcStack(app, 'Vigia-GitHubOidc', { githubRepo: 'acme/vigia', ...(env ? { env } : {}) });
      Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
      expect(() => app.synth()).not.toThrow();
    }
    expect(() => oidc('not a repo')).toThrow(/githubRepo/);
    expect(() => oidc('acme/vigia/extra')).toThrow(/githubRepo/);
  });
});

it('fake web dist helper stays available to other suites', () => {
  expect(fakeWebDist()).toMatch(/vigia-web-dist-/);
});
