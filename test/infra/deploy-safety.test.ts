/**
 * The first deploy into a fresh account succeeds, a failed one can be retried, previews leave nothing
 * behind, stateful resources are not replaced, and the trust boundaries of the synthesized templates hold
 * (docs/platform.md#the-account-stack … #alarms). Synthesized prod, staging and pr-42 templates, plus the
 * once-per-account `Vigia-Account` stack and the `cdk diff` replacement check.
 */
import { readFileSync } from 'node:fs';
import { App, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { HANDLER_NAMES } from '../../lambdas/contract/routes.js';
import { ACCOUNT_STACK_DEPLOY_COMMAND, ACCOUNT_STACK_NAME, AccountStack } from '../../infra/account-stack.js';
import { BACKGROUND_FUNCTIONS, NO_SUBSCRIBER_WARNING } from '../../infra/monitoring-stack.js';
import { WAF_MANAGED_RULE_GROUPS } from '../../infra/api-waf.js';
import { SES_MISSING_ERROR } from '../../infra/auth-stack.js';
import { GUARDED_RESOURCE_TYPES, STATEFUL_STACK_POLICY, guardedStackNames, stageHasStackPolicy } from '../../infra/stack-policy.js';
import { stageConfig, stageOverridesFromContext } from '../../infra/stage-config.js';
import { addVigiaStacks } from '../../infra/vigia-app.js';
import { applyStackPolicies, checkApiGatewayAccount, MissingApiGatewayRoleError } from '../../scripts/platform/preflight.js';
import { guardedFindings, parseDiff } from '../../scripts/platform/replacements.js';
import { cdkJsonContext, ofType, PROD_ENV, resources, synth, synthPr42, synthProd, synthStaging, TEST_SES, type Synthed } from '../support/synth.js';

type Props = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const templates = (s: Synthed): Template[] => Object.values(s.t);
const one = (s: Synthed, stack: keyof Synthed['t'], type: string): Props => {
  const found = ofType(s.t[stack], type);
  expect(found, type).toHaveLength(1);
  return found[0]![1].Properties as Props;
};
/** Alarms with a labelled metric flattened to Namespace/MetricName/Dimensions. */
function alarms(s: Synthed): Props[] {
  return ofType(s.t.monitoring, 'AWS::CloudWatch::Alarm').map(([, a]) => {
    const p = a.Properties as Props;
    const stat = p.Metrics?.[0]?.MetricStat;
    return stat ? { ...p, Namespace: stat.Metric.Namespace, MetricName: stat.Metric.MetricName, Dimensions: stat.Metric.Dimensions, Period: stat.Period } : p;
  });
}

describe('1. API Gateway account CloudWatch role (Vigia-Account)', () => {
  const app = new App({ context: cdkJsonContext() });
  const stack = new AccountStack(app, ACCOUNT_STACK_NAME, { stackName: ACCOUNT_STACK_NAME, env: PROD_ENV });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  app.synth(); // throws on an unacknowledged cdk-nag finding
  const t = Template.fromStack(stack);

  it('creates AWS::ApiGateway::Account with a role API Gateway can assume; both retained', () => {
    const [, account] = ofType(t, 'AWS::ApiGateway::Account')[0]!;
    const [roleId, role] = ofType(t, 'AWS::IAM::Role')[0]!;
    expect(account.Properties!.CloudWatchRoleArn).toEqual({ 'Fn::GetAtt': [roleId, 'Arn'] });
    expect(JSON.stringify(role.Properties!.AssumeRolePolicyDocument)).toContain('apigateway.amazonaws.com');
    expect(JSON.stringify(role.Properties!.ManagedPolicyArns)).toContain('AmazonAPIGatewayPushToCloudWatchLogs');
    for (const r of [account, role]) expect(r.DeletionPolicy).toBe('RetainExceptOnCreate');
  });

  it('the stage stacks keep cloudWatchRole off (no account setting per stage) while logging access', () => {
    for (const s of [synthPr42(), synthProd()]) {
      for (const tpl of templates(s)) expect(ofType(tpl, 'AWS::ApiGateway::Account')).toEqual([]);
      expect(one(s, 'api', 'AWS::ApiGateway::Stage').AccessLogSetting).toBeDefined();
    }
  });

  it('platform:deploy stops before deploying when the account has no API Gateway CloudWatch role', async () => {
    await expect(checkApiGatewayAccount('eu-west-1', async () => ({}))).rejects.toThrow(MissingApiGatewayRoleError);
    await expect(checkApiGatewayAccount('eu-west-1', async () => ({ cloudwatchRoleArn: '' }))).rejects.toThrow(ACCOUNT_STACK_DEPLOY_COMMAND);
    const arn = 'arn:aws:iam::123456789012:role/Vigia-Account-ApiGatewayCloudWatchRole';
    const asked: string[] = [];
    await expect(checkApiGatewayAccount('eu-west-1', async (r) => (asked.push(r), { cloudwatchRoleArn: arn }))).resolves.toBe(arn);
    expect(asked).toEqual(['eu-west-1']);
  });

  it("the README's deploy steps name the account stack before the first stage deploy", () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const deploy = readme.slice(readme.indexOf('## Deploy'));
    const account = deploy.indexOf(ACCOUNT_STACK_DEPLOY_COMMAND);
    expect(account).toBeGreaterThan(0);
    expect(account).toBeLessThan(deploy.indexOf('npm run platform:deploy'));
  });
});

describe('2. retained resources never block the retry of a failed create', () => {
  it.each([
    ['prod', synthProd],
    ['staging', synthStaging],
  ] as const)('%s: nothing is plain Retain; table, user pool, buckets, log groups and the notification DLQ are RetainExceptOnCreate', (_stage, get) => {
    const s = get();
    const retained = new Set<string>();
    for (const tpl of templates(s)) {
      for (const [id, r] of Object.entries(resources(tpl))) {
        expect(r.DeletionPolicy, id).not.toBe('Retain');
        if (r.DeletionPolicy === 'RetainExceptOnCreate') retained.add(r.Type);
      }
    }
    // The notification DLQ holds activity events not yet delivered: kept like the table they came from.
    expect([...retained].sort()).toEqual(['AWS::Cognito::UserPool', 'AWS::DynamoDB::Table', 'AWS::Logs::LogGroup', 'AWS::S3::Bucket', 'AWS::SQS::Queue']);
  });

  it('no log group of a stage is named by hand (generated names cannot collide with a retained one)', () => {
    for (const s of [synthProd(), synthPr42()]) {
      for (const tpl of templates(s)) {
        for (const [id, r] of ofType(tpl, 'AWS::Logs::LogGroup')) {
          const name = r.Properties!.LogGroupName;
          // Only a name derived from a generated function name (the auto-delete provider, previews) is allowed.
          if (name !== undefined) expect(JSON.stringify(name), id).toContain('{"Ref":');
        }
      }
    }
  });

  it('the table name is one stage setting: Data stack, Lambda environment and alarms follow -c tableName', () => {
    const s = synth('prod', { env: PROD_ENV, alarmEmail: 'soc@example.com', overrides: { email: TEST_SES, tableName: 'vigia-prod-main-r1' } });
    // The restored table is adopted, not created (the old one stays, RetainExceptOnCreate).
    expect(Object.values(resources(s.t.data)).map((r) => r.Type)).toEqual(['AWS::CloudFormation::WaitConditionHandle']);
    s.t.data.hasOutput('TableName', { Value: 'vigia-prod-main-r1' });
    for (const [, f] of ofType(s.t.api, 'AWS::Lambda::Function')) {
      expect(JSON.stringify((f.Properties!.Environment as Props).Variables.TABLE_NAME)).toContain('vigia-prod-main-r1');
    }
    const ddb = alarms(s).filter((a) => a.Namespace === 'AWS/DynamoDB');
    expect(ddb.length).toBe(2);
    for (const a of ddb) expect(a.Dimensions).toEqual([{ Name: 'TableName', Value: 'vigia-prod-main-r1' }]);
    expect(stageConfig('prod').tableName).toBe('vigia-prod-main');
    expect(() => stageConfig('prod', { tableName: 'bad name!' })).toThrow(/tableName/);
  });
});

describe('3. previews leave nothing behind (pr-42)', () => {
  it('no access-log bucket, no CloudFront or S3 access logging', () => {
    const s = synthPr42();
    const buckets = ofType(s.t.hosting, 'AWS::S3::Bucket');
    expect(buckets).toHaveLength(1); // the site bucket only
    expect(buckets[0]![1].Properties!.LoggingConfiguration).toBeUndefined();
    expect(one(s, 'hosting', 'AWS::CloudFront::Distribution').DistributionConfig.Logging).toBeUndefined();
    for (const tpl of templates(s)) expect(ofType(tpl, 'AWS::S3::Bucket').filter(([, b]) => b.Properties!.OwnershipControls && JSON.stringify(b.Properties!.OwnershipControls).includes('BucketOwnerPreferred'))).toEqual([]);
  });

  it('every log group has retention and is deleted with its stack, including the auto-delete provider’s', () => {
    const s = synthPr42();
    let count = 0;
    for (const tpl of templates(s)) {
      for (const [id, r] of ofType(tpl, 'AWS::Logs::LogGroup')) {
        expect(r.Properties!.RetentionInDays, id).toBe(7);
        expect(r.DeletionPolicy ?? 'Delete', id).toBe('Delete');
        count += 1;
      }
    }
    expect(count).toBe(
      HANDLER_NAMES.length + BACKGROUND_FUNCTIONS.length /* notification consumer, SLA job */ + 1 /* access */ + 1 /* bucket deployment */ + 2 /* auto-delete (Hosting, Api: attachments) */ + 1 /* pre token generation trigger */,
    );
    // The preview's notification DLQ goes with the stack too.
    for (const [id, q] of ofType(s.t.api, 'AWS::SQS::Queue')) expect(q.DeletionPolicy ?? 'Delete', id).toBe('Delete');
    expect(ofType(s.t.api, 'AWS::SQS::Queue')).toHaveLength(1);
    // The auto-delete provider logs into the stack's log group, created before any custom resource runs.
    const [providerId] = ofType(s.t.hosting, 'AWS::Lambda::Function').find(([id]) => id.startsWith('CustomS3AutoDeleteObjects'))!;
    const [logId, log] = ofType(s.t.hosting, 'AWS::Logs::LogGroup')[0]!;
    expect(log.Properties!.LogGroupName).toEqual({ 'Fn::Join': ['', ['/aws/lambda/', { Ref: providerId }]] });
    for (const [id, c] of ofType(s.t.hosting, 'Custom::S3AutoDeleteObjects')) expect((c as Props).DependsOn, id).toContain(logId);
    // The same in the Api stack (the attachments bucket, infra/attachments-bucket.ts).
    const [apiProviderId] = ofType(s.t.api, 'AWS::Lambda::Function').find(([id]) => id.startsWith('CustomS3AutoDeleteObjects'))!;
    const [apiLogId] = ofType(s.t.api, 'AWS::Logs::LogGroup').find(([, l]) => JSON.stringify(l.Properties!.LogGroupName ?? null).includes(apiProviderId))!;
    for (const [id, c] of ofType(s.t.api, 'Custom::S3AutoDeleteObjects')) expect((c as Props).DependsOn, id).toContain(apiLogId);
    // Every Lambda function of the stage writes to a log group the stage owns.
    for (const tpl of templates(s)) {
      for (const [id, f] of ofType(tpl, 'AWS::Lambda::Function')) {
        if (id.startsWith('CustomS3AutoDeleteObjects')) continue;
        expect((f.Properties!.LoggingConfig as Props | undefined)?.LogGroup, id).toBeDefined();
      }
    }
  });
});

describe('4. replacements of stateful resources are refused', () => {
  it('the prod stack policy denies Update:Replace of exactly the guarded types the Auth and Data stacks hold', () => {
    const s = synthProd();
    expect(guardedStackNames('prod')).toEqual([s.stacks.auth.stackName, s.stacks.data.stackName]);
    const held = [...ofType(s.t.auth, 'AWS::Cognito::UserPool'), ...ofType(s.t.data, 'AWS::DynamoDB::Table')].map(([, r]) => r.Type);
    expect(held.sort()).toEqual([...GUARDED_RESOURCE_TYPES].sort());
    const deny = STATEFUL_STACK_POLICY.Statement.find((st) => st.Effect === 'Deny')!;
    expect(deny).toMatchObject({ Action: 'Update:Replace', Resource: '*' });
    expect(deny.Condition!.StringEquals.ResourceType).toEqual([...GUARDED_RESOURCE_TYPES]);
    expect([stageHasStackPolicy(stageConfig('prod')), stageHasStackPolicy(stageConfig('pr-42'))]).toEqual([true, false]);
  });

  const ESC = '\u001b';
  const sample = [
    'Stack Vigia-prod-Auth (aws://123456789012/eu-west-1)',
    'Resources',
    `${ESC}[33m[~]${ESC}[39m ${ESC}[36mAWS::Cognito::UserPool${ESC}[39m UserPool UserPool6BA7E5F2 ${ESC}[3m${ESC}[1m${ESC}[31mreplace${ESC}[39m${ESC}[22m${ESC}[23m`,
    ' └─ [~] UsernameAttributes (requires replacement)',
    '[~] AWS::Cognito::UserPoolClient UserPool/PortalClient UserPoolPortalClient1A2B3C4D',
    'Stack Vigia-prod-Data',
    '[~] AWS::DynamoDB::Table Table TableCD117FA1 may be replaced',
    '[-] AWS::DynamoDB::Table OldTable OldTable12345678 orphan',
    '[~] AWS::Lambda::Function IncidentsFunction IncidentsFunction1234 replace',
    'Stack Vigia-prod-Api',
    'There were no differences',
  ].join('\n');

  it('platform:deploy sets the policy on the Auth and Data stacks of production stages only', async () => {
    const sent: Array<{ StackName?: string; StackPolicyBody?: string }> = [];
    const cfn = { send: async (c: { input: object }) => (sent.push(c.input as never), {}) } as never;
    expect(await applyStackPolicies(cfn, 'pr-42')).toEqual([]);
    expect(await applyStackPolicies(cfn, 'prod')).toEqual(['Vigia-prod-Auth', 'Vigia-prod-Data']);
    expect(sent.map((i) => [i.StackName, JSON.parse(i.StackPolicyBody!)])).toEqual([
      ['Vigia-prod-Auth', STATEFUL_STACK_POLICY],
      ['Vigia-prod-Data', STATEFUL_STACK_POLICY],
    ]);
  });

  it('the cdk diff check parses stacks, types, logical ids and impacts', () => {
    expect(parseDiff(sample)).toEqual([
      { stack: 'Vigia-prod-Auth', prefix: '~', type: 'AWS::Cognito::UserPool', logicalId: 'UserPool6BA7E5F2', impact: 'replace' },
      { stack: 'Vigia-prod-Auth', prefix: '~', type: 'AWS::Cognito::UserPoolClient', logicalId: 'UserPoolPortalClient1A2B3C4D', impact: 'none' },
      { stack: 'Vigia-prod-Data', prefix: '~', type: 'AWS::DynamoDB::Table', logicalId: 'TableCD117FA1', impact: 'may be replaced' },
      { stack: 'Vigia-prod-Data', prefix: '-', type: 'AWS::DynamoDB::Table', logicalId: 'OldTable12345678', impact: 'orphan' },
      { stack: 'Vigia-prod-Data', prefix: '~', type: 'AWS::Lambda::Function', logicalId: 'IncidentsFunction1234', impact: 'replace' },
    ]);
  });

  it('fails on a replaced user pool or table, accepts other replacements, and a kept removal only when allowed', () => {
    const findings = guardedFindings(parseDiff(sample));
    expect(findings.map((f) => [f.stack, f.logicalId])).toEqual([
      ['Vigia-prod-Auth', 'UserPool6BA7E5F2'],
      ['Vigia-prod-Data', 'TableCD117FA1'],
      ['Vigia-prod-Data', 'OldTable12345678'],
    ]);
    expect(guardedFindings(parseDiff(sample), { allowRemoval: true }).map((f) => f.logicalId)).toEqual(['UserPool6BA7E5F2', 'TableCD117FA1']);
    expect(guardedFindings(parseDiff('Stack Vigia-prod-Data\n[-] AWS::DynamoDB::Table Table TableCD117FA1 destroy'), { allowRemoval: true })).toHaveLength(1);
    expect(guardedFindings(parseDiff('Stack Vigia-prod-Api\n[~] AWS::Lambda::Function F F1 replace\n[+] AWS::DynamoDB::Table T T1'))).toEqual([]);
  });
});

describe('6. Cognito e-mail for real users', () => {
  it.each([
    ['prod', synthProd],
    ['staging', synthStaging],
  ] as const)('%s sends through the configured SES identity', (_stage, get) => {
    const pool = one(get(), 'auth', 'AWS::Cognito::UserPool');
    expect(pool.EmailConfiguration).toMatchObject({ EmailSendingAccount: 'DEVELOPER', From: expect.stringContaining(TEST_SES.fromEmail) });
    expect(JSON.stringify(pool.EmailConfiguration.SourceArn)).toContain(`identity/${TEST_SES.fromEmail}`);
  });

  it('a production stage without an SES identity fails synth with an error naming the context values', () => {
    const app = new App({ context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [] } });
    addVigiaStacks(app, { stage: 'staging', env: PROD_ENV, nag: false, overrides: { alarmEmail: 'soc@example.com' } });
    expect(() => app.synth()).toThrow(new RegExp(`${SES_MISSING_ERROR}: stage staging .* -c sesFromEmail=`));
  });

  it('configuration set and SES region come from context', () => {
    const o = stageOverridesFromContext((k) => ({ sesFromEmail: 'a@b.example', sesRegion: 'eu-west-1', sesConfigurationSet: 'vigia' } as Record<string, string>)[k]);
    expect(o.email).toEqual({ fromEmail: 'a@b.example', sesRegion: 'eu-west-1', configurationSet: 'vigia' });
  });

  it('self sign-up is off on previews (their URL is public) and on production stages', () => {
    for (const s of [synthPr42(), synthProd()]) expect(one(s, 'auth', 'AWS::Cognito::UserPool').AdminCreateUserConfig.AllowAdminCreateUserOnly).toBe(true);
  });
});

describe('9. the WAF does not drop ingested security data', () => {
  it('every managed rule group is scoped down to paths outside /<stage>/ingest/', () => {
    const rules = one(synthProd(), 'api', 'AWS::WAFv2::WebACL').Rules as Props[];
    const managed = rules.filter((r) => r.Statement.ManagedRuleGroupStatement);
    expect(managed.map((r) => r.Name)).toEqual([...WAF_MANAGED_RULE_GROUPS]);
    for (const r of managed) {
      expect(r.Statement.ManagedRuleGroupStatement.ScopeDownStatement, r.Name).toEqual({
        NotStatement: {
          Statement: {
            ByteMatchStatement: {
              FieldToMatch: { UriPath: {} },
              PositionalConstraint: 'STARTS_WITH',
              SearchString: '/prod/ingest/',
              TextTransformations: [{ Priority: 0, Type: 'NONE' }],
            },
          },
        },
      });
    }
  });

  it('blocked requests raise an alarm', () => {
    const waf = alarms(synthProd()).filter((a) => a.Namespace === 'AWS/WAFV2');
    expect(waf).toHaveLength(1);
    expect(waf[0]!.MetricName).toBe('BlockedRequests');
    expect(waf[0]!.Dimensions).toEqual(expect.arrayContaining([{ Name: 'WebACL', Value: 'vigia-prod-api-waf' }, { Name: 'Rule', Value: 'ALL' }]));
  });
});

describe('10. staff-grade sessions', () => {
  it('refresh tokens rotate on every stage', () => {
    for (const s of [synthPr42(), synthProd()]) {
      const client = one(s, 'auth', 'AWS::Cognito::UserPoolClient');
      expect(client.RefreshTokenRotation).toEqual({ Feature: 'ENABLED', RetryGracePeriodSeconds: 10 });
      expect(client.ExplicitAuthFlows).not.toContain('ALLOW_REFRESH_TOKEN_AUTH');
    }
  });

  it('prod switches to the Plus plan with threat protection by stage setting; Essentials otherwise', () => {
    const base = one(synthProd(), 'auth', 'AWS::Cognito::UserPool');
    expect(base.UserPoolTier).toBe('ESSENTIALS');
    const plus = synth('prod', { env: PROD_ENV, alarmEmail: 'soc@example.com', overrides: { email: TEST_SES, threatProtection: 'enforce' } });
    const pool = one(plus, 'auth', 'AWS::Cognito::UserPool');
    expect(pool.UserPoolTier).toBe('PLUS');
    expect(pool.UserPoolAddOns).toEqual({ AdvancedSecurityMode: 'ENFORCED' });
    expect(() => stageConfig('pr-42', { threatProtection: 'enforce' })).toThrow(/production/);
  });
});

describe('13. alarms and tracing', () => {
  it('Cognito sign-in throttles, WAF blocks and ingest silence alarms exist on prod, all to the subscribed topic', () => {
    const s = synth('prod', { env: PROD_ENV, alarmEmail: 'soc@example.com', overrides: { email: TEST_SES, silenceTenants: ['acme', 'globex'], silenceMinutes: 60 } });
    const all = alarms(s);
    const [topicId] = ofType(s.t.monitoring, 'AWS::SNS::Topic')[0]!;
    for (const a of all) expect(a.AlarmActions).toEqual([{ Ref: topicId }]);
    expect(ofType(s.t.monitoring, 'AWS::SNS::Subscription')).toHaveLength(1);
    expect(all.filter((a) => a.Namespace === 'AWS/Cognito').map((a) => a.MetricName)).toEqual(['SignInThrottles']);
    // Ingest silence (test/infra/ingest-silence.test.ts has the metric math): the stage's, every tenant's, each configured tenant's.
    const silence = all.filter((a) => /ingest-silence|silent-tenants/.test(String(a.AlarmName)));
    expect(silence.map((a) => [a.AlarmName, a.ComparisonOperator, a.TreatMissingData])).toEqual([
      ['vigia-prod-ingest-silence', 'GreaterThanOrEqualToThreshold', 'notBreaching'],
      ['vigia-prod-silent-tenants', 'GreaterThanOrEqualToThreshold', 'notBreaching'],
      ['vigia-prod-ingest-silence-acme', 'GreaterThanOrEqualToThreshold', 'notBreaching'],
      ['vigia-prod-ingest-silence-globex', 'GreaterThanOrEqualToThreshold', 'notBreaching'],
    ]);
    // No metric filter counts heartbeats any more (the ingest function's EMF metric covers both routes).
    expect(ofType(s.t.api, 'AWS::Logs::MetricFilter')).toEqual([]);
  });

  it('previews get no ingest-silence alarms (no collectors); a topic without subscriber makes synth and deploy print a warning', () => {
    const s = synthPr42();
    // (The stage namespace also holds the jobs' failure alarms, test/infra/alarms.test.ts: only the silence alarms here.)
    const silenceOf = (x: ReturnType<typeof synthPr42>) => alarms(x).filter((a) => /ingest-silence|silent-tenants/.test(String(a.AlarmName))).map((a) => a.AlarmName);
    expect(silenceOf(s)).toEqual([]);
    // staging may run without collectors: no silence alarm unless asked for; prod has the stage's and every tenant's by default.
    expect(silenceOf(synthStaging())).toEqual([]);
    expect(silenceOf(synthProd())).toEqual(['vigia-prod-ingest-silence', 'vigia-prod-silent-tenants']);
    expect(ofType(s.t.monitoring, 'AWS::SNS::Subscription')).toEqual([]);
    const warnings = s.assembly.getStackArtifact(s.stacks.monitoring.artifactId).messages.filter((m) => m.level === 'warning');
    expect(warnings.map((m) => String(m.entry.data))).toEqual([expect.stringMatching(/vigia-pr-42-alarms has no subscriber.*-c alarmEmail=/)]);
    expect(String(warnings[0]!.entry.data)).toContain(NO_SUBSCRIBER_WARNING);
    const prod = synthProd().assembly.getStackArtifact(synthProd().stacks.monitoring.artifactId).messages;
    expect(prod.filter((m) => m.level === 'warning')).toEqual([]);
  });

  it('every API function has active tracing and no tracing SDK dependency', () => {
    for (const s of [synthPr42(), synthProd()]) {
      // Not CDK's auto-delete provider of the preview's attachments bucket (a custom resource handler, run at deletion).
      for (const [id, f] of ofType(s.t.api, 'AWS::Lambda::Function')) if (!id.startsWith('CustomS3AutoDeleteObjects')) expect(f.Properties!.TracingConfig, id).toEqual({ Mode: 'Active' });
    }
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { dependencies?: Record<string, string> };
    expect(Object.keys(pkg.dependencies ?? {}).filter((d) => /xray|tracer/i.test(d))).toEqual([]);
  });
});

describe('13. CloudFront 5xx alarm (opt-in edge stack in us-east-1)', () => {
  it('edgeAlarms=true adds Vigia-prod-EdgeMonitoring in us-east-1 alarming on the distribution’s 5xx rate', () => {
    const app = new App({ context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [] } });
    const s = addVigiaStacks(app, { stage: 'prod', env: PROD_ENV, edgeAlarms: true, overrides: { email: TEST_SES, alarmEmail: 'soc@example.com' } });
    app.synth(); // cdk-nag registered: throws on an unacknowledged finding
    expect([s.edge!.stackName, s.edge!.region]).toEqual(['Vigia-prod-EdgeMonitoring', 'us-east-1']);
    const t = Template.fromStack(s.edge!);
    const [, alarm] = ofType(t, 'AWS::CloudWatch::Alarm')[0]!;
    const p = alarm.Properties as Props;
    expect([p.Namespace, p.MetricName, p.Threshold]).toEqual(['AWS/CloudFront', '5xxErrorRate', 5]);
    expect(p.Dimensions).toEqual(expect.arrayContaining([{ Name: 'Region', Value: 'Global' }]));
    expect(ofType(t, 'AWS::SNS::Subscription')).toHaveLength(1);
    expect(() => addVigiaStacks(new App(), { stage: 'pr-42', edgeAlarms: true, nag: false })).toThrow(/edgeAlarms/);
  });
});
