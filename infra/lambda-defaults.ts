/**
 * The props every Vigía Lambda function shares (the API handlers of `infra/api-stack.ts`, the notification
 * consumer and digest of `infra/notifications.ts` / `infra/notification-digest.ts`, the SLA job of
 * `infra/sla-watch.ts`): one `NodejsFunction` entry under `lambdas/` bundled locally with esbuild
 * (`HANDLER_BUNDLING`), handler `handler`, Node.js 24 on arm64, active tracing per stage, source-mapped stack
 * traces (`NODE_OPTIONS`). Each function adds what is its own: name, description, memory, timeout, role and
 * log group.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Validations } from 'aws-cdk-lib';
import { type IRole, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import type { NodejsFunctionProps } from 'aws-cdk-lib/aws-lambda-nodejs';
import { HANDLER_BUNDLING, HANDLER_NODE_OPTIONS } from './handler-bundling.js';
import type { StageConfig } from './stage-config.js';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Lambda runtime of every function (cdk-nag L1 wants the latest Node.js runtime CDK knows). */
export const LAMBDA_RUNTIME = Runtime.NODEJS_24_X;

/**
 * The shared props of a function whose code is `lambdas/<entry>` (e.g. `handlers/incidents.ts`) exporting
 * `handler`, with `environment` (from `lambdaEnvironment`) plus `NODE_OPTIONS`.
 */
export function lambdaDefaults(
  config: Pick<StageConfig, 'tracing'>,
  entry: string,
  environment: Record<string, string>,
  runtime: Runtime = LAMBDA_RUNTIME,
): Pick<NodejsFunctionProps, 'entry' | 'handler' | 'projectRoot' | 'depsLockFilePath' | 'runtime' | 'architecture' | 'tracing' | 'environment' | 'bundling'> {
  return {
    entry: path.join(REPO_ROOT, 'lambdas', entry),
    handler: 'handler',
    projectRoot: REPO_ROOT,
    depsLockFilePath: path.join(REPO_ROOT, 'package-lock.json'),
    runtime,
    architecture: Architecture.ARM_64,
    tracing: config.tracing ? Tracing.ACTIVE : Tracing.DISABLED,
    environment: { ...environment, NODE_OPTIONS: HANDLER_NODE_OPTIONS },
    bundling: HANDLER_BUNDLING,
  };
}

/**
 * cdk-nag's reason for the one `Resource: *` that active tracing adds to a function's role: X-Ray's
 * PutTraceSegments/PutTelemetryRecords support no resource-level permissions (AWS X-Ray developer guide,
 * "Identity-based policies").
 */
export const XRAY_WILDCARD_REASON =
  'Lambda active tracing: xray:PutTraceSegments/PutTelemetryRecords support no resource-level permissions (AWS X-Ray developer guide, "Identity-based policies").';

/** Acknowledges (cdk-nag `AwsSolutions-IAM5[Resource::*]`) the X-Ray wildcard on `role` when the stage traces. */
export function acknowledgeTracingWildcard(role: IRole, config: Pick<StageConfig, 'tracing'>): void {
  if (config.tracing) Validations.of(role).acknowledge({ id: 'AwsSolutions-IAM5[Resource::*]', reason: XRAY_WILDCARD_REASON });
}

/**
 * A background function's own log group (`Logs`: the stage's retention and removal policy) and role
 * (`Role`: assumed by Lambda, may write that log group only), created in `scope` with those construct ids.
 * The caller adds the function's own statements to the role.
 */
export function functionLogsAndRole(
  scope: Construct,
  config: Pick<StageConfig, 'logRetention' | 'removalPolicy'>,
  description: string,
): { logGroup: LogGroup; role: Role } {
  const logGroup = new LogGroup(scope, 'Logs', { retention: config.logRetention, removalPolicy: config.removalPolicy });
  const role = new Role(scope, 'Role', { assumedBy: new ServicePrincipal('lambda.amazonaws.com'), description });
  logGroup.grantWrite(role);
  return { logGroup, role };
}
