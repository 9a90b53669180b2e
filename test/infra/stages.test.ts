/**
 * Stage handling: configuration per stage, stage in every stack and physical name (pr-42 and prod coexist),
 * previews destroy while prod retains, and zero unacknowledged cdk-nag findings for dev, prod and pr-42.
 */
import { readFileSync } from 'node:fs';
import { App, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { describe, expect, it } from 'vitest';
import { InvalidStageError, stageConfig } from '../../infra/stage-config.js';
import { addVigiaStacks } from '../../infra/vigia-app.js';
import { cdkJsonContext, fakeWebDist, ofType, resources, synthDev, synthPr42, synthProd, type Synthed } from '../support/synth.js';

describe('stage configuration', () => {
  it('validates stage names', () => {
    for (const bad of ['', 'a', 'Prod', '1dev', 'pr_42', 'x'.repeat(22), 'dev!']) {
      expect(() => stageConfig(bad), bad).toThrow(InvalidStageError);
    }
    for (const good of ['dev', 'prod', 'staging', 'pr-42', 'alice', 'a'.repeat(21)]) expect(stageConfig(good).stage).toBe(good);
    expect(() => addVigiaStacks(new App(), { stage: 'Bad_Stage', nag: false })).toThrow(InvalidStageError);
  });

  it('self sign-up on dev only; prod/staging retain data; prod alone is deletion-protected', () => {
    const [dev, pr, staging, prod] = ['dev', 'pr-42', 'staging', 'prod'].map((s) => stageConfig(s)) as [
      ReturnType<typeof stageConfig>, ReturnType<typeof stageConfig>, ReturnType<typeof stageConfig>, ReturnType<typeof stageConfig>,
    ];
    expect([dev.selfSignUp, pr.selfSignUp, staging.selfSignUp, prod.selfSignUp]).toEqual([true, false, false, false]);
    expect([dev, pr].map((c) => [c.removalPolicy, c.autoDeleteObjects])).toEqual([
      [RemovalPolicy.DESTROY, true],
      [RemovalPolicy.DESTROY, true],
    ]);
    expect([staging, prod].map((c) => [c.removalPolicy, c.autoDeleteObjects])).toEqual([
      [RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE, false],
      [RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE, false],
    ]);
    expect([dev.deletionProtection, pr.deletionProtection, staging.deletionProtection, prod.deletionProtection]).toEqual([false, false, false, true]);
    expect(dev.extraCorsOrigins).toEqual(['http://localhost:5173']);
    expect(prod.extraCorsOrigins).toEqual([]);
  });
});

/** Values of every account-scoped physical name in a synthesized app (scoped sub-resource names excluded). */
function physicalNames(s: Synthed): string[] {
  // An alarm's MetricName is scoped by its Namespace (the stage's own `Vigia/<stage>`, or AWS/<service> with the
  // stage's resources as dimensions), not an account-wide name.
  const scoped = new Set(['GroupName', 'PolicyName', 'OperationName', 'AWS::ApiGateway::Model Name', 'Custom::S3AutoDeleteObjects BucketName', 'AWS::CloudWatch::Alarm MetricName']);
  const names: string[] = [];
  for (const t of Object.values(s.t) as Template[]) {
    for (const r of Object.values(resources(t))) {
      for (const [k, v] of Object.entries(r.Properties ?? {})) {
        // A name derived from a generated one (e.g. the auto-delete provider's `/aws/lambda/<function>`) is unique already.
        const generated = JSON.stringify(v).includes('{"Ref":');
        if (/Name$/.test(k) && !scoped.has(k) && !scoped.has(`${r.Type} ${k}`) && r.Type !== 'AWS::Lambda::Permission' && !generated) {
          names.push(JSON.stringify(v));
        }
      }
      if (r.Type === 'AWS::CloudFront::OriginAccessControl') {
        names.push(JSON.stringify((r.Properties!.OriginAccessControlConfig as { Name: string }).Name));
      }
    }
  }
  return names;
}

describe('stage isolation (pr-42 and prod in one account)', () => {
  it.each([
    ['pr-42', synthPr42],
    ['prod', synthProd],
  ] as const)('%s: every stack name and physical name contains the stage', (stage, get) => {
    const s = get();
    expect(s.all.map((x) => x.stackName)).toEqual(['Auth', 'Data', 'Hosting', 'Api', 'PortalDeployment', 'Monitoring'].map((p) => `Vigia-${stage}-${p}`));
    const names = physicalNames(s);
    expect(names.length).toBeGreaterThanOrEqual(12);
    for (const n of names) expect(n.includes(stage) || n.includes(stage.replace(/-/g, '')), n).toBe(true);
  });

  it('no physical name is shared between pr-42 and prod', () => {
    const a = new Set(physicalNames(synthPr42()));
    expect(physicalNames(synthProd()).filter((n) => a.has(n))).toEqual([]);
  });
});

describe('outputs', () => {
  it('cdk deploy prints site URL, API URL, user pool, app client, identity pool, region and stage', () => {
    const { t } = synthPr42();
    const outputs = (tpl: Template): string[] => Object.keys((tpl.toJSON() as { Outputs?: object }).Outputs ?? {});
    expect(outputs(t.auth)).toEqual(expect.arrayContaining(['UserPoolId', 'UserPoolClientId', 'IdentityPoolId', 'Region', 'Stage']));
    expect(outputs(t.hosting)).toContain('SiteUrl');
    expect(outputs(t.api)).toContain('ApiUrl');
    t.auth.hasOutput('Stage', { Value: 'pr-42' });
  });
});

describe('removal policies', () => {
  const stateful = ['AWS::DynamoDB::Table', 'AWS::Cognito::UserPool', 'AWS::S3::Bucket', 'AWS::Logs::LogGroup'];

  it('previews destroy everything: nothing retained, buckets auto-emptied', () => {
    const s = synthPr42();
    for (const t of Object.values(s.t) as Template[]) {
      for (const [id, r] of Object.entries(resources(t))) {
        expect(r.DeletionPolicy ?? 'Delete', id).not.toBe('Retain');
        expect(r.DeletionPolicy ?? 'Delete', id).not.toBe('RetainExceptOnCreate');
      }
    }
    expect(stateful.every((type) => Object.values(s.t).some((t) => ofType(t, type).length > 0))).toBe(true);
    s.t.hosting.resourceCountIs('Custom::S3AutoDeleteObjects', 1);
  });

  it('prod retains the table, user pool, buckets and log groups and never auto-deletes objects', () => {
    const s = synthProd();
    let checked = 0;
    for (const t of Object.values(s.t) as Template[]) {
      for (const type of stateful) {
        for (const [id, r] of ofType(t, type)) {
          expect(r.DeletionPolicy, `${type} ${id}`).toBe('RetainExceptOnCreate');
          checked += 1;
        }
      }
      t.resourceCountIs('Custom::S3AutoDeleteObjects', 0);
    }
    expect(checked).toBeGreaterThanOrEqual(1 + 1 + 2 + 4);
    expect(s.all.every((x) => x.terminationProtection)).toBe(true);
  });
});

describe('cdk-nag (AwsSolutions)', () => {
  it.each([
    ['dev', synthDev],
    ['prod (env-bound)', synthProd],
    ['pr-42', synthPr42],
  ] as const)('%s synthesizes with zero unacknowledged findings', (_stage, get) => {
    // synth() calls app.synth(), which throws on any unacknowledged finding.
    expect(get().assembly.stacks).toHaveLength(6);
  });

  it('the checks are active: an unacknowledged finding fails synthesis', () => {
    const app = new App({ builtinCloudFormationValidation: false, context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [] } });
    addVigiaStacks(app, { stage: 'pr-1', webDistDir: fakeWebDist() });
    new Bucket(new Stack(app, 'Vigia-pr-1-Extra'), 'Naked');
    let message = '';
    try {
      app.synth();
    } catch (e) {
      message = (e as Error).message;
    }
    const reportFile = /found in: (\S+)/.exec(message)?.[1];
    expect(reportFile, message).toBeDefined();
    const report = JSON.parse(readFileSync(reportFile!, 'utf8')) as {
      pluginReports: Array<{ violations: Array<{ ruleName: string; violatingConstructs: Array<{ constructPath: string }> }> }>;
    };
    const findings = report.pluginReports.flatMap((p) =>
      p.violations.flatMap((v) => v.violatingConstructs.map((c) => `${v.ruleName} ${c.constructPath}`)),
    );
    // Only the deliberately naked bucket is reported; the Vigía stacks stay clean. The report also lists the
    // (non-failing) warning of the alarm topic without subscriber (docs/platform.md#alarms).
    const [warnings, nag] = [findings.filter((f) => f.startsWith('Annotation::')), findings.filter((f) => !f.startsWith('Annotation::'))];
    expect(nag.sort()).toEqual(['AwsSolutions-S1 Vigia-pr-1-Extra/Naked/Resource', 'AwsSolutions-S10 Vigia-pr-1-Extra/Naked/Resource']);
    expect(warnings.every((w) => w.includes('alarm-topic-without-subscriber') || w.includes('Vigia-pr-1-Monitoring')), warnings.join('\n')).toBe(true);
  });
});
