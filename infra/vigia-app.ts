/**
 * Assembles the Vigía CDK app for one stage: the five stacks, their wiring, tags and the cdk-nag
 * AwsSolutions checks. Shared by `bin/app.ts` (the CDK app command) and `test/infra/*`.
 *
 * Stacks (dependency order; every name contains the stage so stages coexist in one account):
 *   `Vigia-<stage>-Auth`, `Vigia-<stage>-Data`, `Vigia-<stage>-Hosting`,
 *   `Vigia-<stage>-Api` (needs Auth, Data, Hosting), `Vigia-<stage>-PortalDeployment` (needs all).
 * See `portal-deployment-stack.ts` for why hosting and upload are split.
 */
import { type App, type Environment, Tags, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { PortalConfig } from '../lambdas/contract/portal-config.js';
import { ApiStack } from './api-stack.js';
import { AuthStack } from './auth-stack.js';
import { DataStack } from './data-stack.js';
import { HostingStack, siteBucketName } from './hosting-stack.js';
import { PortalDeploymentStack } from './portal-deployment-stack.js';
import { stackName, stageConfig, type StageConfig } from './stage-config.js';

/** Brand shown by the portal (`config.json` → `brandName`). */
export const BRAND_NAME = 'Vigía';

export interface VigiaAppOptions {
  /** Stage name; validated by `stageConfig` (throws `InvalidStageError`). */
  readonly stage: string;
  /** Account/region; omit for an environment-agnostic app. */
  readonly env?: Environment;
  /** Register cdk-nag's AwsSolutions checks (default true). */
  readonly nag?: boolean;
  /** Built portal folder (default `web/dist`). */
  readonly webDistDir?: string;
}

export interface VigiaStacks {
  readonly config: StageConfig;
  readonly auth: AuthStack;
  readonly data: DataStack;
  readonly hosting: HostingStack;
  readonly api: ApiStack;
  readonly portal: PortalDeploymentStack;
}

/** Adds the stacks of one stage to `app`; returns them with the resolved stage configuration. */
export function addVigiaStacks(app: App, options: VigiaAppOptions): VigiaStacks {
  const config = stageConfig(options.stage);
  const common = {
    config,
    terminationProtection: config.deletionProtection,
    ...(options.env ? { env: options.env } : {}),
  };
  const s = config.stage;

  const auth = new AuthStack(app, stackName(s, 'Auth'), {
    ...common,
    stackName: stackName(s, 'Auth'),
    description: `Vigía ${s}: Cognito user pool, app client, admin group, identity pool`,
  });
  const data = new DataStack(app, stackName(s, 'Data'), {
    ...common,
    stackName: stackName(s, 'Data'),
    description: `Vigía ${s}: DynamoDB table`,
  });
  const hosting = new HostingStack(app, stackName(s, 'Hosting'), {
    ...common,
    stackName: stackName(s, 'Hosting'),
    description: `Vigía ${s}: portal bucket and CloudFront distribution`,
  });
  const api = new ApiStack(app, stackName(s, 'Api'), {
    ...common,
    stackName: stackName(s, 'Api'),
    description: `Vigía ${s}: REST API and Lambda functions`,
    userPool: auth.userPool,
    table: data.table,
    siteOrigin: hosting.siteOrigin,
  });

  const portalConfig: PortalConfig = {
    region: auth.region,
    userPoolId: auth.userPool.userPoolId,
    userPoolClientId: auth.userPoolClient.userPoolClientId,
    identityPoolId: auth.identityPool.identityPoolId,
    apiUrl: api.apiUrl,
    stage: s,
    allowSignUp: config.selfSignUp,
    brandName: BRAND_NAME,
  };
  const portal = new PortalDeploymentStack(app, stackName(s, 'PortalDeployment'), {
    ...common,
    stackName: stackName(s, 'PortalDeployment'),
    description: `Vigía ${s}: portal files and config.json`,
    siteBucketName: siteBucketName(s),
    portalConfig,
    ...(options.webDistDir ? { webDistDir: options.webDistDir } : {}),
  });
  portal.addStackDependency(hosting);

  for (const stack of [auth, data, hosting, api, portal]) {
    Tags.of(stack).add('project', 'vigia');
    Tags.of(stack).add('stage', s);
  }
  if (options.nag ?? true) Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return { config, auth, data, hosting, api, portal };
}
