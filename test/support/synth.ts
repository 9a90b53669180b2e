/**
 * Shared synthesis for the infra tests: one App per (stage, options) key, memoised for the worker, built
 * with cdk.json's `context` (feature flags) exactly like `cdk synth`, with cdk-nag's AwsSolutions checks
 * registered. `app.synth()` throws if any finding is unacknowledged, so obtaining a `Synthed` already
 * proves "zero unacknowledged cdk-nag findings" for that stage.
 *
 * CloudFormation's built-in template validation is off here (it roughly doubles synth time; `cdk synth`
 * keeps it on), and Lambda bundling (esbuild) only runs when `bundle: true`.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App, type Environment, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CloudAssembly } from 'aws-cdk-lib/cx-api';
import type { StageOverrides } from '../../infra/stage-config.js';
import { addVigiaStacks, type VigiaStacks } from '../../infra/vigia-app.js';
import { cdkJsonContext } from '../../scripts/aws-rules/templates.js';

export { cdkJsonContext };

/** A fake portal build (index.html, favicon, one hashed asset) so tests do not depend on `web/dist`. */
export function fakeWebDist(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'vigia-web-dist-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Vigía</title>');
  writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
  return dir;
}

export interface SynthOptions {
  readonly env?: Environment;
  readonly bundle?: boolean;
  readonly nag?: boolean;
  /** Defaults to a fake build from {@link fakeWebDist}. */
  readonly webDistDir?: string;
  /** CDK context values added to cdk.json's (e.g. `{ alarmEmail: 'ops@example.com' }` is passed as overrides). */
  readonly alarmEmail?: string;
  readonly createdAt?: string;
  /** Further stage overrides (SES identity, table name, threat protection, silence tenants). */
  readonly overrides?: Omit<StageOverrides, 'alarmEmail'>;
}

export interface Synthed {
  readonly app: App;
  readonly stacks: VigiaStacks;
  readonly assembly: CloudAssembly;
  readonly all: readonly Stack[];
  readonly t: Record<'auth' | 'data' | 'hosting' | 'api' | 'portal' | 'monitoring', Template>;
}

const cache = new Map<string, Synthed>();

/** Synthesises (once per worker and options) the Vigía app for `stage`; throws on cdk-nag findings. */
export function synth(stage: string, options: SynthOptions = {}): Synthed {
  const key = JSON.stringify([stage, options]);
  const hit = cache.get(key);
  if (hit) return hit;
  const app = new App({
    outdir: mkdtempSync(path.join(tmpdir(), 'vigia-cdk-out-')),
    builtinCloudFormationValidation: false,
    context: {
      ...cdkJsonContext(),
      stage,
      ...(options.bundle ? {} : { 'aws:cdk:bundling-stacks': [] }),
    },
  });
  const stacks = addVigiaStacks(app, {
    stage,
    nag: options.nag ?? true,
    webDistDir: options.webDistDir ?? fakeWebDist(),
    ...(options.env ? { env: options.env } : {}),
    overrides: { ...options.overrides, ...(options.alarmEmail ? { alarmEmail: options.alarmEmail } : {}) },
    ...(options.createdAt ? { createdAt: options.createdAt } : {}),
  });
  const assembly = app.synth();
  const all = [stacks.auth, stacks.data, stacks.hosting, stacks.api, stacks.portal, stacks.monitoring];
  const t = {
    auth: Template.fromStack(stacks.auth),
    data: Template.fromStack(stacks.data),
    hosting: Template.fromStack(stacks.hosting),
    api: Template.fromStack(stacks.api),
    portal: Template.fromStack(stacks.portal),
    monitoring: Template.fromStack(stacks.monitoring),
  };
  const result: Synthed = { app, stacks, assembly, all, t };
  cache.set(key, result);
  return result;
}

/** Stages used across the suite: prod is env-bound (as with credentials), the others environment-agnostic. */
export const PROD_ENV: Environment = { account: '123456789012', region: 'eu-west-1' };
export const synthPr42 = (): Synthed => synth('pr-42');
/** Verified SES identity of the production stages in the tests (production stages require one). */
export const TEST_SES = { fromEmail: 'no-reply@vigia.example', sesRegion: 'eu-west-1' } as const;
export const synthProd = (): Synthed => synth('prod', { env: PROD_ENV, alarmEmail: 'soc@example.com', overrides: { email: TEST_SES } });
export const synthDev = (): Synthed => synth('dev');
export const synthStaging = (): Synthed => synth('staging', { env: PROD_ENV, alarmEmail: 'soc@example.com', overrides: { email: TEST_SES } });

type Resources = Record<string, { Type: string; Properties?: Record<string, unknown>; DeletionPolicy?: string; UpdateReplacePolicy?: string }>;

/** All resources of a template (logical id → resource). */
export function resources(t: Template): Resources {
  return (t.toJSON() as { Resources: Resources }).Resources;
}

/** One statement of an IAM policy document in a template. */
export type PolicyStatementJson = { Action: string | string[]; Resource: unknown; Condition?: unknown };

/** Every statement of the policies attached to the role of `description` in the stage's Api template. */
export function roleStatementsOf(stage: Synthed, description: string): PolicyStatementJson[] {
  const [roleId] = ofType(stage.t.api, 'AWS::IAM::Role').find(([, r]) => r.Properties!.Description === description)!;
  return ofType(stage.t.api, 'AWS::IAM::Policy')
    .filter(([, p]) => JSON.stringify(p.Properties!.Roles).includes(roleId))
    .flatMap(([, p]) => (p.Properties!.PolicyDocument as { Statement: PolicyStatementJson[] }).Statement);
}

/** Resources of one type. */
export function ofType(t: Template, type: string): Array<[string, Resources[string]]> {
  return Object.entries(resources(t)).filter(([, r]) => r.Type === type);
}
