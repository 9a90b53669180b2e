/**
 * IAM on every call, offline: every AWS request the Lambda code makes (published by `lambdas/data/table/aws-lite.ts`
 * on `AWS_CALL_CHANNEL`) is attributed to the function that makes it on AWS and evaluated against that
 * function's role and permissions boundary as synthesized for a stage (`./iam.ts`). A request AWS would deny is
 * refused as AWS refuses it (`AccessDeniedException`, AWS's message), so the product answers what it would on AWS
 * (a 500 for an API route), and it is recorded: `runtimeIamReport()` lists it, the test suites fail on it
 * (test/support/aws-rules-setup.ts, test/support/e2e.ts) and `npm start` prints it.
 *
 * Attribution: the local gateway runs each handler invocation, and the local stack each job (SLA job, outbox
 * consumer, digest, pre-token trigger), inside {@link runAsFunction} with the function's name (the route row's
 * `handler`, or the job's function). A call made outside any function (the demo seed, a test's own data-layer
 * client, an operator script) is counted as unattributed and not evaluated: on AWS it runs with an operator's
 * credentials, which the deploy-time check covers (`./deploy-iam.ts`).
 *
 * The evaluated stage: {@link LOCAL_IAM_STAGE}, `dev` with the local stack's features (staff-configured
 * identity providers, e-mail through SES), so every role the local stack exercises exists. The local resource
 * names map to that stage's (table `vigia-local-main` → `vigia-dev-main`, the local pool → the stage's pool,
 * `vigia/local/…` secrets → `vigia/dev/…`).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AWS_CALL_CHANNEL, type AwsCallMessage } from '../../lambdas/data/table/aws-lite.js';
import { describeCall, type StageResourceMap } from './aws-calls.js';
import { accessDeniedMessage, evaluate, type IamDecision, type IamPrincipal, type IamRequest } from './iam.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The stage the local stack's calls are evaluated against, and the context values it is synthesized with. */
export const LOCAL_IAM_STAGE = {
  stage: 'dev',
  overrides: {
    identityProviders: JSON.stringify({ adminConfiguredProviders: true }),
    email: { fromEmail: 'notificaciones@vigia.example', sesRegion: 'us-east-1' },
  },
} as const;

const current = new AsyncLocalStorage<string>();

/**
 * Runs `body` as the function `name` (the route table's handler name, `incidents`, or a job's, `sla-watch`):
 * every AWS call made inside it, across awaits, is attributed to `vigia-<stage>-<name>`.
 */
export function runAsFunction<T>(name: string, body: () => T): T {
  return current.run(name, body);
}

/** The function the current code runs as, if any. */
export function currentFunction(): string | undefined {
  return current.getStore();
}

/** One call AWS would deny. */
export interface DeniedCall {
  /** The function (`vigia-dev-incidents`) or principal that made it. */
  principal: string;
  operation: string;
  action: string;
  resource: string;
  /** AWS's AccessDenied message. */
  message: string;
}

/** What the runtime check saw in this process. */
export interface RuntimeIamReport {
  stage: string;
  /** Calls made inside a function, each evaluated. */
  calls: number;
  /** IAM requests evaluated (a transaction of 5 actions is 5). */
  requests: number;
  /** Calls made outside any function (seed, tests' own clients): not evaluated. */
  unattributed: number;
  /** Per principal: calls and the distinct actions on resources it used (`dynamodb:Query table/…/index/GSI1`). */
  byPrincipal: Record<string, { calls: number; used: string[] }>;
  denies: DeniedCall[];
}

/** The stage's principals and resource map, as cached on disk. */
interface StagePolicies {
  stage: string;
  account: string;
  region: string;
  tableArn: string;
  tableStreamArn: string;
  userPoolArn: string;
  apiArnPrefix: string;
  functions: Record<string, IamPrincipal>;
  collector: IamPrincipal | undefined;
}

function sourceFiles(dir: string, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir)) {
    const p = path.join(dir, e);
    if (statSync(p).isDirectory()) sourceFiles(p, out);
    else if (/\.(ts|json)$/.test(e) && !/\.test\.ts$/.test(e)) out.push(p);
  }
  return out;
}

/** Hash of everything a synthesized role can depend on (infra, the Lambda code's declared actions, cdk.json, this folder). */
function policiesKey(): string {
  const h = createHash('sha256');
  h.update(JSON.stringify(LOCAL_IAM_STAGE));
  const files = [...sourceFiles(path.join(ROOT, 'infra')), ...sourceFiles(path.join(ROOT, 'lambdas')), ...sourceFiles(path.join(ROOT, 'scripts/aws-rules')), path.join(ROOT, 'bin/app.ts'), path.join(ROOT, 'cdk.json'), path.join(ROOT, 'package-lock.json')].sort();
  for (const f of files) h.update(f).update(readFileSync(f));
  return h.digest('hex').slice(0, 24);
}

let policiesPromise: Promise<StagePolicies> | undefined;

/**
 * The principals of {@link LOCAL_IAM_STAGE}: synthesized once per source state (about 3 s, cached under
 * `node_modules/.cache/vigia-aws-rules/`), then read from the cache.
 */
export function localStagePolicies(): Promise<StagePolicies> {
  policiesPromise ??= (async () => {
    const key = policiesKey();
    const dir = path.join(ROOT, 'node_modules/.cache/vigia-aws-rules');
    const file = path.join(dir, `policies-${key}.json`);
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as StagePolicies;
    const { synthStage, createResolver } = await import('./templates.js');
    const { functionPrincipals, managedPolicyPrincipal } = await import('./iam.js');
    const { physicalName } = await import('../../infra/stage-config.js');
    const synthed = synthStage({ stage: LOCAL_IAM_STAGE.stage, overrides: LOCAL_IAM_STAGE.overrides });
    const resolver = createResolver(synthed.stacks);
    const find = (type: string) => {
      for (const s of synthed.stacks) for (const [id, r] of Object.entries(s.template.Resources)) if (r.Type === type) return { s, id };
      throw new Error(`aws-rules: the ${LOCAL_IAM_STAGE.stage} stage has no ${type}`);
    };
    const table = find('AWS::DynamoDB::Table');
    const pool = find('AWS::Cognito::UserPool');
    const api = find('AWS::ApiGateway::RestApi');
    const stage = LOCAL_IAM_STAGE.stage;
    const policies: StagePolicies = {
      stage,
      account: table.s.account,
      region: table.s.region,
      tableArn: resolver.arnOf(table.s.stackName, table.id),
      tableStreamArn: String(resolver.resolve({ 'Fn::GetAtt': [table.id, 'StreamArn'] }, table.s.stackName)),
      userPoolArn: resolver.arnOf(pool.s.stackName, pool.id),
      apiArnPrefix: `arn:aws:execute-api:${api.s.region}:${api.s.account}:${String(resolver.resolve({ Ref: api.id }, api.s.stackName))}/${stage}`,
      functions: Object.fromEntries(functionPrincipals(synthed.stacks)),
      collector: managedPolicyPrincipal(synthed.stacks, physicalName(stage, 'collector-invoke'), `arn:aws:iam::${table.s.account}:role/${physicalName(stage, 'collector')}`),
    };
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, JSON.stringify(policies));
    return policies;
  })();
  policiesPromise.catch(() => {
    policiesPromise = undefined;
  });
  return policiesPromise;
}

function resourceMap(p: StagePolicies): StageResourceMap {
  return {
    account: p.account,
    region: p.region,
    tableArn: () => p.tableArn,
    userPoolArn: p.userPoolArn,
    tableStreamArn: p.tableStreamArn,
    queueArn: (name) => `arn:aws:sqs:${p.region}:${p.account}:${name.replace(/^vigia-local-/, `vigia-${p.stage}-`)}`,
    secretName: (name) => name.replace(/^vigia\/local\//, `vigia/${p.stage}/`),
    // The local and test attachments buckets (`vigia-<x>-attachments`) are the stage's (infra/attachments-bucket.ts).
    bucketName: (name) => (/^vigia-[a-z0-9-]+-attachments$/.test(name) ? `vigia-${p.stage}-attachments-${p.account}-${p.region}` : name),
  };
}

/** Process-wide state: one subscriber however many local stacks run in the process. */
const state = {
  users: 0,
  report: { stage: LOCAL_IAM_STAGE.stage, calls: 0, requests: 0, unattributed: 0, byPrincipal: {}, denies: [] } as RuntimeIamReport,
  decisions: new Map<string, Promise<IamDecision>>(),
  listeners: new Set<(d: DeniedCall) => void>(),
  subscriber: undefined as ((m: unknown) => void) | undefined,
};

/** Whether any policy of the principal has a Condition (only then can the request's context keys change the answer). */
const conditional = new WeakMap<IamPrincipal, boolean>();
function hasConditions(p: IamPrincipal): boolean {
  let c = conditional.get(p);
  if (c === undefined) {
    c = JSON.stringify([p.identityPolicies, p.permissionsBoundary]).includes('"Condition"');
    conditional.set(p, c);
  }
  return c;
}

function decide(principal: IamPrincipal, request: IamRequest): Promise<IamDecision> {
  // Without conditions the decision depends on action and resource only: one evaluation serves every key value.
  const relevant = hasConditions(principal) ? request : { action: request.action, resource: request.resource };
  const key = `${principal.name}\u0000${JSON.stringify(relevant)}`;
  let d = state.decisions.get(key);
  if (!d) {
    if (state.decisions.size > 50_000) state.decisions.clear();
    d = evaluate(principal, relevant);
    state.decisions.set(key, d);
  }
  return d;
}

function recordUse(principal: string, requests: IamRequest[]): void {
  const entry = (state.report.byPrincipal[principal] ??= { calls: 0, used: [] });
  entry.calls += 1;
  for (const r of requests) {
    const used = `${r.action} ${r.resource}`;
    if (!entry.used.includes(used)) entry.used.push(used);
  }
}

/** Records a denied call (report, listeners) and returns it. */
function deny(principal: IamPrincipal, operation: string, request: IamRequest, decision: IamDecision): DeniedCall {
  const denied: DeniedCall = { principal: principal.name, operation, action: request.action, resource: request.resource, message: accessDeniedMessage(principal, request, decision) };
  state.report.denies.push(denied);
  for (const l of state.listeners) l(denied);
  return denied;
}

/** The error AWS answers a denied call with: `AccessDeniedException` and its message. */
function accessDenied(denied: DeniedCall): Error {
  const err = new Error(denied.message);
  err.name = 'AccessDeniedException';
  (err as Error & { __type?: string }).__type = 'com.amazon.coral.service#AccessDeniedException';
  return err;
}

/** A principal with no policies, for a caller the stage does not have (every request implicitly denied). */
function missingPrincipal(name: string, account: string): IamPrincipal {
  return { name, arn: `arn:aws:iam::${account}:role/${name}`, account, identityPolicies: [], awsManagedPolicies: [] };
}

async function verdictOf(policies: StagePolicies, fn: string, message: AwsCallMessage): Promise<Error | undefined> {
  const name = `vigia-${policies.stage}-${fn}`;
  const principal = policies.functions[name];
  const call = describeCall(message, resourceMap(policies));
  state.report.calls += 1;
  state.report.requests += call.requests.length;
  recordUse(name, call.requests);
  if (!principal) {
    return accessDenied(deny(missingPrincipal(name, policies.account), call.operation, call.requests[0]!, { allowed: false, result: 'ImplicitlyDenied', reason: `because the ${policies.stage} stage has no function ${name}` }));
  }
  const decisions = await Promise.all(call.requests.map((r) => decide(principal, r)));
  const groups = new Map<string, boolean>();
  for (const [i, r] of call.requests.entries()) {
    if (r.anyOf) groups.set(r.anyOf, (groups.get(r.anyOf) ?? false) || decisions[i]!.allowed);
  }
  for (const [i, r] of call.requests.entries()) {
    if (r.anyOf ? groups.get(r.anyOf) : decisions[i]!.allowed) continue;
    return accessDenied(deny(principal, call.operation, r, decisions[i]!));
  }
  return undefined;
}

/** A handle on the process-wide runtime check; `release` unsubscribes when the last holder releases. */
export interface RuntimeIamCheck {
  stage: string;
  /** Evaluates a collector's `execute-api:Invoke` of `method path` (the local gateway calls it after the signature). */
  authorizeInvoke(method: string, requestPath: string): Promise<DeniedCall | undefined>;
  release(): void;
}

/**
 * Subscribes (once per process) to the Lambda code's AWS calls and evaluates each one made inside
 * {@link runAsFunction}. `onDeny` is called for each call denied while this handle is held.
 * @throws Error when the stage cannot be synthesized (a broken infra change): the local stack must not run unchecked.
 */
export async function acquireRuntimeIamCheck(onDeny?: (d: DeniedCall) => void): Promise<RuntimeIamCheck> {
  const policies = await localStagePolicies();
  if (onDeny) state.listeners.add(onDeny);
  if (state.users++ === 0) {
    state.subscriber = (m: unknown) => {
      const message = m as AwsCallMessage;
      const fn = current.getStore();
      if (!fn) {
        state.report.unattributed += 1;
        return;
      }
      message.verdict = verdictOf(policies, fn, message);
    };
    subscribe(AWS_CALL_CHANNEL, state.subscriber);
  }
  let released = false;
  return {
    stage: policies.stage,
    async authorizeInvoke(method, requestPath) {
      const principal = policies.collector;
      const request: IamRequest = { action: 'execute-api:Invoke', resource: `${policies.apiArnPrefix}/${method}${requestPath}` };
      state.report.calls += 1;
      state.report.requests += 1;
      recordUse(principal?.name ?? 'collector', [request]);
      if (!principal) return deny(missingPrincipal('collector', policies.account), 'Invoke', request, { allowed: false, result: 'ImplicitlyDenied', reason: 'because the stage has no collector policy' });
      const decision = await decide(principal, request);
      return decision.allowed ? undefined : deny(principal, 'Invoke', request, decision);
    },
    release() {
      if (released) return;
      released = true;
      if (onDeny) state.listeners.delete(onDeny);
      if (--state.users === 0 && state.subscriber) {
        unsubscribe(AWS_CALL_CHANNEL, state.subscriber);
        state.subscriber = undefined;
      }
    },
  };
}

/**
 * Evaluates, without sending it, a call the function `name` makes outside aws-lite (the pre-token trigger's AWS
 * SDK calls), counted and recorded like a published one; answers the AccessDenied error or undefined.
 */
export async function checkCallAs(name: string, message: AwsCallMessage): Promise<Error | undefined> {
  return verdictOf(await localStagePolicies(), name, message);
}

/** Where each test file writes what it evaluated (`npm run check:aws` reads them). */
export const RUNTIME_REPORTS_DIR = path.join(ROOT, 'test-results/aws-rules');

/**
 * Writes what this process evaluated, plus `extra` (e.g. the DynamoDB rules' counters), to
 * `RUNTIME_REPORTS_DIR/runtime-<name>.json`, and returns the report.
 */
export function writeRuntimeReport(name: string, extra: Record<string, unknown> = {}): RuntimeIamReport {
  const report = runtimeIamReport();
  mkdirSync(RUNTIME_REPORTS_DIR, { recursive: true });
  writeFileSync(path.join(RUNTIME_REPORTS_DIR, `runtime-${name.replace(/[^\w.-]/g, '_')}.json`), JSON.stringify({ file: name, ...report, ...extra }));
  return report;
}

/** What the runtime check saw in this process so far (a copy). */
export function runtimeIamReport(): RuntimeIamReport {
  return structuredClone(state.report);
}

/** Forgets the calls and denies seen so far (a test that provokes a deny on purpose cleans up after itself). */
export function resetRuntimeIamReport(): void {
  state.report = { stage: LOCAL_IAM_STAGE.stage, calls: 0, requests: 0, unattributed: 0, byPrincipal: {}, denies: [] };
}
