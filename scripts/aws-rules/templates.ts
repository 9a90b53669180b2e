/**
 * The CloudFormation templates of a stage as CI and operators deploy them, synthesized in process (no CDK
 * CLI, no credentials, no Lambda bundling), and a resolver that turns their intrinsic functions into the
 * concrete strings CloudFormation would produce in one account — the input of the offline IAM checks
 * (`./iam.ts`, `./deploy-iam.ts`, docs/local-emulation.md#iam).
 *
 *  - {@link synthStage}: the stacks of one stage (`Vigia-<stage>-*`), as `bin/app.ts` builds them from the
 *    same context values (`previewDeployer`, `edgeAlarms`, SES overrides…).
 *  - {@link synthOnceStacks}: the once-per-account stacks (`Vigia-Account`, `Vigia-GitHubOidc`).
 *  - {@link createResolver}: Ref / Fn::GetAtt / Fn::Join / Fn::Sub / Fn::Select / Fn::Split /
 *    Fn::ImportValue / Fn::GetStackOutput / Fn::If / pseudo parameters → strings. Environment-agnostic stacks are placed in
 *    {@link FAKE_ACCOUNT} and `us-east-1`. Physical ids follow {@link ARN_FORMATS} (the resource's name
 *    property when it has one, else its logical id), so two lookups of one resource always agree.
 *
 * Source of the intrinsic semantics: AWS CloudFormation User Guide, "Intrinsic function reference" and
 * "Pseudo parameters reference"; ARN formats: the Service Authorization Reference's resource types per service.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { App, type Environment } from 'aws-cdk-lib';
import type { StageOverrides } from '../../infra/stage-config.js';
import { addVigiaStacks } from '../../infra/vigia-app.js';
import { ACCOUNT_STACK_NAME, AccountStack } from '../../infra/account-stack.js';
import { GITHUB_OIDC_STACK_NAME, GitHubOidcStack, type GitHubRoles } from '../../infra/github-oidc-stack.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The account environment-agnostic stacks are placed in (any 12 digits; never a real account). */
export const FAKE_ACCOUNT = '111111111111';
/** The region environment-agnostic stacks are placed in (the local stack's region, scripts/local/config.ts). */
export const DEFAULT_REGION = 'us-east-1';

/** A CloudFormation resource as synthesized. */
export interface CfnResource {
  Type: string;
  Properties?: Record<string, unknown>;
  DependsOn?: string | string[];
  Condition?: string;
  DeletionPolicy?: string;
  Metadata?: Record<string, unknown>;
}

/** A synthesized template (the members these checks read). */
export interface CfnTemplate {
  Resources: Record<string, CfnResource>;
  Outputs?: Record<string, { Value: unknown; Export?: { Name: unknown } }>;
  Parameters?: Record<string, { Type: string; Default?: unknown }>;
  Conditions?: Record<string, unknown>;
}

/** One synthesized stack: its name, where it deploys and its template. */
export interface SynthesizedStack {
  stackName: string;
  account: string;
  region: string;
  template: CfnTemplate;
}

/** The stacks of one stage (or of the once-per-account apps). */
export interface SynthesizedStage {
  stage: string;
  stacks: SynthesizedStack[];
}

/** Options of {@link synthStage}: the CDK context values `bin/app.ts` reads. */
export interface SynthStageOptions {
  stage: string;
  /** `-c previewDeployer=github` (pr-<n> stages deployed by the preview role). */
  previewDeployer?: boolean;
  /** `-c edgeAlarms=true` (production stages with an `env`). */
  edgeAlarms?: boolean;
  env?: Environment;
  overrides?: StageOverrides;
}

/** cdk.json's `context` (feature flags), as the CDK CLI passes it to the app. */
export function cdkJsonContext(): Record<string, unknown> {
  return (JSON.parse(readFileSync(path.join(ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> }).context;
}

/** A fake portal build folder (PortalDeployment uploads it; its content does not matter here). */
function fakeWebDist(): string {
  return path.join(ROOT, 'scripts/aws-rules/fixtures/web-dist');
}

function newApp(context: Record<string, unknown>): { app: App; outdir: string } {
  const outdir = mkdtempSync(path.join(tmpdir(), 'vigia-aws-rules-'));
  const app = new App({
    outdir,
    builtinCloudFormationValidation: false,
    context: { ...cdkJsonContext(), ...context, 'aws:cdk:bundling-stacks': [] },
  });
  return { app, outdir };
}

function collect(app: App, outdir: string): SynthesizedStack[] {
  // Annotations (e.g. dev's "alarm topic without subscriber" warning) are the infra tests' concern, not
  // this check's: keep them off the terminal of `npm start` and the test runs.
  const saved = { log: console.log, warn: console.warn, error: console.error };
  console.log = console.warn = console.error = () => undefined;
  let assembly;
  try {
    assembly = app.synth();
  } finally {
    Object.assign(console, saved);
  }
  const stacks = assembly.stacks.map((s) => ({
    stackName: s.stackName,
    account: /^\d{12}$/.test(s.environment.account) ? s.environment.account : FAKE_ACCOUNT,
    region: /^[a-z]{2}(-[a-z]+)+-\d$/.test(s.environment.region) ? s.environment.region : DEFAULT_REGION,
    template: s.template as CfnTemplate,
  }));
  rmSync(outdir, { recursive: true, force: true });
  return stacks;
}

const stageCache = new Map<string, SynthesizedStage>();

/**
 * Synthesizes every stack of a stage without bundling and without cdk-nag (the infra tests run it),
 * memoised per process and options.
 * @throws whatever `addVigiaStacks` throws for an invalid stage or option combination.
 */
export function synthStage(opts: SynthStageOptions): SynthesizedStage {
  const key = JSON.stringify(opts);
  const hit = stageCache.get(key);
  if (hit) return hit;
  const { app, outdir } = newApp({ stage: opts.stage });
  addVigiaStacks(app, {
    stage: opts.stage,
    nag: false,
    webDistDir: fakeWebDist(),
    ...(opts.env ? { env: opts.env } : {}),
    overrides: opts.overrides ?? {},
    ...(opts.edgeAlarms ? { edgeAlarms: true } : {}),
    ...(opts.previewDeployer ? { previewDeployer: true } : {}),
  });
  const out = { stage: opts.stage, stacks: collect(app, outdir) };
  stageCache.set(key, out);
  return out;
}

/** Options of {@link synthOnceStacks}. */
export interface OnceStacksOptions {
  /** `owner/name` of the repository the OIDC stack trusts (`-c githubRepo`). */
  githubRepo: string;
  /** `-c githubRoles` (default `all`). */
  githubRoles?: GitHubRoles;
  env?: Environment;
}

/** Synthesizes the once-per-account stacks `Vigia-Account` and `Vigia-GitHubOidc` (bin/app.ts's other two apps). */
export function synthOnceStacks(opts: OnceStacksOptions): SynthesizedStage {
  const stacks: SynthesizedStack[] = [];
  {
    const { app, outdir } = newApp({});
    new AccountStack(app, ACCOUNT_STACK_NAME, { stackName: ACCOUNT_STACK_NAME, ...(opts.env ? { env: opts.env } : {}) });
    stacks.push(...collect(app, outdir));
  }
  {
    const { app, outdir } = newApp({});
    new GitHubOidcStack(app, GITHUB_OIDC_STACK_NAME, {
      stackName: GITHUB_OIDC_STACK_NAME,
      githubRepo: opts.githubRepo,
      ...(opts.githubRoles ? { roles: opts.githubRoles } : {}),
      ...(opts.env ? { env: opts.env } : {}),
    });
    stacks.push(...collect(app, outdir));
  }
  return { stage: 'account', stacks };
}

/** Context of one ARN: the resource's stack, logical id, resource, and its resolved physical name. */
interface ArnInput {
  partition: string;
  region: string;
  account: string;
  logicalId: string;
  /** The resolved name property of the resource, or undefined. */
  name: string | undefined;
  props: Record<string, unknown>;
}

/**
 * Per resource type: the property that names it (if any), what `Ref` returns and what `Fn::GetAtt …Arn`
 * returns (AWS CloudFormation User Guide, each resource type's "Return values"). Types missing here
 * get `Ref` = physical name and `Arn` = `arn:<p>:<service>:<region>:<account>:<type>/<name>`.
 */
export const ARN_FORMATS: Record<string, { nameProp?: string; ref?: 'name' | 'arn'; arn: (a: ArnInput) => string }> = {
  'AWS::DynamoDB::Table': { nameProp: 'TableName', arn: (a) => `arn:${a.partition}:dynamodb:${a.region}:${a.account}:table/${a.name ?? a.logicalId}` },
  'AWS::Cognito::UserPool': { arn: (a) => `arn:${a.partition}:cognito-idp:${a.region}:${a.account}:userpool/${a.region}_${a.logicalId.slice(0, 9)}` },
  'AWS::IAM::Role': { nameProp: 'RoleName', arn: (a) => `arn:${a.partition}:iam::${a.account}:role/${a.name ?? a.logicalId}` },
  'AWS::IAM::ManagedPolicy': { nameProp: 'ManagedPolicyName', ref: 'arn', arn: (a) => `arn:${a.partition}:iam::${a.account}:policy/${a.name ?? a.logicalId}` },
  'AWS::IAM::OIDCProvider': { ref: 'arn', arn: (a) => `arn:${a.partition}:iam::${a.account}:oidc-provider/${String(a.props.Url ?? a.logicalId).replace(/^https:\/\//, '')}` },
  'AWS::Lambda::Function': { nameProp: 'FunctionName', arn: (a) => `arn:${a.partition}:lambda:${a.region}:${a.account}:function:${a.name ?? a.logicalId}` },
  'AWS::SQS::Queue': { nameProp: 'QueueName', arn: (a) => `arn:${a.partition}:sqs:${a.region}:${a.account}:${a.name ?? a.logicalId}` },
  'AWS::SNS::Topic': { nameProp: 'TopicName', ref: 'arn', arn: (a) => `arn:${a.partition}:sns:${a.region}:${a.account}:${a.name ?? a.logicalId}` },
  'AWS::S3::Bucket': { nameProp: 'BucketName', arn: (a) => `arn:${a.partition}:s3:::${a.name ?? a.logicalId.toLowerCase()}` },
  'AWS::Logs::LogGroup': { nameProp: 'LogGroupName', arn: (a) => `arn:${a.partition}:logs:${a.region}:${a.account}:log-group:${a.name ?? a.logicalId}:*` },
  // Ref of a stage is its name (the `StageName` property), as `arnForExecuteApi` puts it in execute-api ARNs.
  'AWS::ApiGateway::Stage': { nameProp: 'StageName', arn: (a) => `arn:${a.partition}:apigateway:${a.region}::/restapis/*/stages/${a.name ?? a.logicalId}` },
  'AWS::ApiGateway::RestApi': { arn: (a) => `arn:${a.partition}:apigateway:${a.region}::/restapis/${a.logicalId}` },
  'AWS::SecretsManager::Secret': { nameProp: 'Name', ref: 'arn', arn: (a) => `arn:${a.partition}:secretsmanager:${a.region}:${a.account}:secret:${a.name ?? a.logicalId}-AbCdEf` },
  'AWS::Events::Rule': { nameProp: 'Name', arn: (a) => `arn:${a.partition}:events:${a.region}:${a.account}:rule/${a.name ?? a.logicalId}` },
  'AWS::CloudFront::Distribution': { arn: (a) => `arn:${a.partition}:cloudfront::${a.account}:distribution/${a.logicalId}` },
  'AWS::CloudWatch::Alarm': { nameProp: 'AlarmName', arn: (a) => `arn:${a.partition}:cloudwatch:${a.region}:${a.account}:alarm:${a.name ?? a.logicalId}` },
  'AWS::CloudWatch::Dashboard': { nameProp: 'DashboardName', arn: (a) => `arn:${a.partition}:cloudwatch::${a.account}:dashboard/${a.name ?? a.logicalId}` },
  'AWS::KMS::Key': { arn: (a) => `arn:${a.partition}:kms:${a.region}:${a.account}:key/${a.logicalId}` },
  'AWS::Lambda::LayerVersion': { nameProp: 'LayerName', ref: 'arn', arn: (a) => `arn:${a.partition}:lambda:${a.region}:${a.account}:layer:${a.name ?? a.logicalId}:1` },
  'AWS::WAFv2::WebACL': { nameProp: 'Name', arn: (a) => `arn:${a.partition}:wafv2:${a.region}:${a.account}:regional/webacl/${a.name ?? a.logicalId}/${a.logicalId}` },
};

/**
 * IAM service prefix of a resource type's own API (`AWS::Cognito::UserPool` → `cognito-idp`; custom resources
 * → `lambda`, whose function CloudFormation invokes).
 */
export function serviceOfType(type: string): string {
  if (type.startsWith('Custom::') || type === 'AWS::CloudFormation::CustomResource') return 'lambda';
  const [, svc = '', kind = ''] = type.split('::');
  if (svc === 'Cognito') return kind.startsWith('IdentityPool') ? 'cognito-identity' : 'cognito-idp';
  return svc.toLowerCase();
}

/** The property that names a resource of `type` when the template sets it (`FunctionName`…), from {@link ARN_FORMATS}. */
export function nameProperty(type: string): string | undefined {
  return ARN_FORMATS[type]?.nameProp;
}

/** Resolves intrinsics of a set of stacks deployed together (see module doc). */
export interface Resolver {
  /** The value with every intrinsic replaced by a string (or `undefined` for AWS::NoValue). */
  resolve(value: unknown, stackName: string): unknown;
  /** The ARN of a resource (`Fn::GetAtt [id, Arn]`). */
  arnOf(stackName: string, logicalId: string): string;
  /** The stack of that name. @throws Error when absent. */
  stack(stackName: string): SynthesizedStack;
}

/**
 * A resolver over stacks deployed together (a stage's, or the once-per-account ones): exports of one are
 * the imports of another.
 * @throws Error (from `resolve`) on an intrinsic it cannot resolve (an unknown export, a missing resource).
 */
export function createResolver(stacks: readonly SynthesizedStack[]): Resolver {
  const byName = new Map(stacks.map((s) => [s.stackName, s]));
  const stack = (name: string): SynthesizedStack => {
    const s = byName.get(name);
    if (!s) throw new Error(`no stack ${name}`);
    return s;
  };
  const partition = 'aws';

  const nameOf = (s: SynthesizedStack, logicalId: string): string | undefined => {
    const r = s.template.Resources[logicalId];
    if (!r) throw new Error(`${s.stackName}: no resource ${logicalId}`);
    const prop = ARN_FORMATS[r.Type]?.nameProp;
    const v = prop ? r.Properties?.[prop] : undefined;
    return v === undefined ? undefined : String(resolve(v, s.stackName));
  };

  const arnOf = (stackName: string, logicalId: string): string => {
    const s = stack(stackName);
    const r = s.template.Resources[logicalId];
    if (!r) throw new Error(`${stackName}: no resource ${logicalId}`);
    const input: ArnInput = { partition, region: s.region, account: s.account, logicalId, name: nameOf(s, logicalId), props: r.Properties ?? {} };
    const f = ARN_FORMATS[r.Type];
    if (f) return f.arn(input);
    return `arn:${partition}:${serviceOfType(r.Type)}:${s.region}:${s.account}:${r.Type.split('::')[2]?.toLowerCase()}/${input.name ?? logicalId}`;
  };

  const refOf = (s: SynthesizedStack, logicalId: string): string | undefined => {
    switch (logicalId) {
      case 'AWS::AccountId':
        return s.account;
      case 'AWS::Region':
        return s.region;
      case 'AWS::Partition':
        return partition;
      case 'AWS::URLSuffix':
        return 'amazonaws.com';
      case 'AWS::StackName':
        return s.stackName;
      case 'AWS::StackId':
        return `arn:${partition}:cloudformation:${s.region}:${s.account}:stack/${s.stackName}/00000000-0000-0000-0000-000000000000`;
      case 'AWS::NoValue':
        return undefined;
      case 'AWS::NotificationARNs':
        return '';
    }
    const param = s.template.Parameters?.[logicalId];
    if (param) return param.Default === undefined ? `{param:${logicalId}}` : String(param.Default);
    const r = s.template.Resources[logicalId];
    if (!r) throw new Error(`${s.stackName}: Ref to unknown ${logicalId}`);
    const f = ARN_FORMATS[r.Type];
    if (f?.ref === 'arn') return arnOf(s.stackName, logicalId);
    if (r.Type === 'AWS::Cognito::UserPool') return `${s.region}_${logicalId.slice(0, 9)}`;
    if (r.Type === 'AWS::SQS::Queue') return `https://sqs.${s.region}.amazonaws.com/${s.account}/${nameOf(s, logicalId) ?? logicalId}`;
    if (r.Type === 'AWS::S3::Bucket') return nameOf(s, logicalId) ?? logicalId.toLowerCase();
    return nameOf(s, logicalId) ?? logicalId;
  };

  const getAtt = (s: SynthesizedStack, logicalId: string, attr: string): string => {
    if (attr === 'Arn') return arnOf(s.stackName, logicalId);
    const r = s.template.Resources[logicalId];
    if (!r) throw new Error(`${s.stackName}: GetAtt of unknown ${logicalId}`);
    if (r.Type === 'AWS::DynamoDB::Table' && attr === 'StreamArn') return `${arnOf(s.stackName, logicalId)}/stream/2026-01-01T00:00:00.000`;
    if (r.Type === 'AWS::SQS::Queue' && attr === 'QueueName') return nameOf(s, logicalId) ?? logicalId;
    if (r.Type === 'AWS::Cognito::UserPool' && attr === 'ProviderName') return `cognito-idp.${s.region}.amazonaws.com/${refOf(s, logicalId)}`;
    if (r.Type === 'AWS::IAM::Role' && attr === 'RoleId') return `AROA${logicalId.toUpperCase().slice(0, 16)}`;
    return `${logicalId}.${attr}`;
  };

  const condition = (s: SynthesizedStack, name: string): boolean => {
    const c = s.template.Conditions?.[name];
    if (c === undefined) throw new Error(`${s.stackName}: unknown condition ${name}`);
    return Boolean(evalCondition(c, s));
  };
  const evalCondition = (c: unknown, s: SynthesizedStack): boolean => {
    const o = c as Record<string, unknown>;
    if ('Fn::Equals' in o) {
      const [a, b] = o['Fn::Equals'] as unknown[];
      return JSON.stringify(resolve(a, s.stackName)) === JSON.stringify(resolve(b, s.stackName));
    }
    if ('Fn::Not' in o) return !evalCondition((o['Fn::Not'] as unknown[])[0], s);
    if ('Fn::And' in o) return (o['Fn::And'] as unknown[]).every((x) => evalCondition(x, s));
    if ('Fn::Or' in o) return (o['Fn::Or'] as unknown[]).some((x) => evalCondition(x, s));
    if ('Condition' in o) return condition(s, String(o.Condition));
    return Boolean(resolve(c, s.stackName));
  };

  const resolve = (value: unknown, stackName: string): unknown => {
    const s = stack(stackName);
    if (Array.isArray(value)) return value.map((v) => resolve(v, stackName)).filter((v) => v !== undefined);
    if (value === null || typeof value !== 'object') return value;
    const o = value as Record<string, unknown>;
    const keys = Object.keys(o);
    if (keys.length === 1) {
      const k = keys[0]!;
      const arg = o[k];
      switch (k) {
        case 'Ref':
          return refOf(s, String(arg));
        case 'Fn::GetAtt': {
          const [id, attr] = Array.isArray(arg) ? (arg as string[]) : String(arg).split('.');
          return getAtt(s, id!, attr!);
        }
        case 'Fn::Join': {
          const [sep, parts] = arg as [string, unknown[]];
          return (resolve(parts, stackName) as unknown[]).map(String).join(sep);
        }
        case 'Fn::Sub': {
          const [tpl, vars] = Array.isArray(arg) ? (arg as [string, Record<string, unknown>]) : [String(arg), {}];
          return tpl.replace(/\$\{([^}!][^}]*)\}/g, (_m, name: string) => {
            if (name in vars) return String(resolve(vars[name], stackName));
            if (name.includes('.')) {
              const [id, attr] = name.split('.');
              return getAtt(s, id!, attr!);
            }
            return String(refOf(s, name));
          });
        }
        case 'Fn::Select': {
          const [i, list] = arg as [unknown, unknown];
          return (resolve(list, stackName) as unknown[])[Number(resolve(i, stackName))];
        }
        case 'Fn::Split': {
          const [sep, str] = arg as [string, unknown];
          return String(resolve(str, stackName)).split(sep);
        }
        case 'Fn::ImportValue': {
          const exportName = String(resolve(arg, stackName));
          for (const other of stacks) {
            for (const out of Object.values(other.template.Outputs ?? {})) {
              if (out.Export && resolve(out.Export.Name, other.stackName) === exportName) return resolve(out.Value, other.stackName);
            }
          }
          throw new Error(`${stackName}: no stack exports ${exportName}`);
        }
        case 'Fn::GetStackOutput': {
          // CDK's cross-stack reference (feature flag of cdk.json): another stack's output, by stack and output name.
          const { StackName, OutputName } = resolve(arg, stackName) as { StackName: string; OutputName: string };
          const out = stack(StackName).template.Outputs?.[OutputName];
          if (!out) throw new Error(`${stackName}: ${StackName} has no output ${OutputName}`);
          return resolve(out.Value, StackName);
        }
        case 'Fn::If': {
          const [cond, a, b] = arg as [string, unknown, unknown];
          return resolve(condition(s, cond) ? a : b, stackName);
        }
        case 'Fn::GetAZs':
          return ['a', 'b', 'c'].map((z) => `${s.region}${z}`);
        case 'Fn::Base64':
          return Buffer.from(String(resolve(arg, stackName))).toString('base64');
        case 'Condition':
          return condition(s, String(arg));
      }
    }
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(o)) {
      const r = resolve(v, stackName);
      if (r !== undefined) out[k] = r;
    }
    return out;
  };

  return { resolve, arnOf, stack };
}
