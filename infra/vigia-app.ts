/**
 * Assembles the Vigía CDK app for one stage: the six stacks, their wiring, tags and the cdk-nag
 * AwsSolutions checks. Shared by `bin/app.ts` (the CDK app command) and `test/infra/*`.
 *
 * Stacks (dependency order; every name contains the stage so stages coexist in one account):
 *   `Vigia-<stage>-Data`, `Vigia-<stage>-Hosting`, `Vigia-<stage>-Auth` (needs Data: its trigger audits access
 *   requests; and Hosting on a stage with federated sign-in: the site is the OAuth callback URL),
 *   `Vigia-<stage>-Api` (needs Auth, Data, Hosting; holds the optional WAF of `api-waf.ts`),
 *   `Vigia-<stage>-PortalDeployment` (needs all), `Vigia-<stage>-Monitoring` (alarms + dashboard; needs Api, Data).
 * Tags on every stack (and so on every taggable resource): `project=vigia`, `stage=<stage>` and, when
 * given, `created-at=<ISO-8601 UTC>` — the preview clean-up job finds stale previews by these tags.
 * The once-per-account `Vigia-GitHubOidc` stack is not part of a stage (`bin/app.ts`). Why hosting and upload
 * are split: `portal-deployment-stack.ts` and docs/platform.md#why-hosting-and-upload-are-two-stacks.
 */
import { type App, type Environment, Tags, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { PortalConfig } from '../lambdas/contract/portal-config.js';
import { ApiStack } from './api-stack.js';
import { AuthStack } from './auth-stack.js';
import { DataStack } from './data-stack.js';
import { ApiWaf } from './api-waf.js';
import { applyPreviewBoundary, previewStackSynthesizer } from './github-oidc-stack.js';
import { HostingStack, siteBucketName } from './hosting-stack.js';
import { CLOUDFRONT_METRICS_REGION, EdgeMonitoringStack } from './edge-monitoring-stack.js';
import { MonitoringStack } from './monitoring-stack.js';
import { PortalDeploymentStack } from './portal-deployment-stack.js';
import { stackName, stageConfig, type StageConfig, type StageOverrides } from './stage-config.js';
import { AMPLIFY_SOCIAL_NAMES, OAUTH_SCOPES } from './federation-config.js';

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
  /** Per-deployment values (alarm e-mail) from CDK context. */
  readonly overrides?: StageOverrides;
  /** ISO-8601 UTC creation time of the stage, tagged `created-at` (set by `scripts/platform/deploy.ts`). */
  readonly createdAt?: string;
  /**
   * Deployed by the GitHub preview role (`-c previewDeployer=github`, pr-<n> stages only): CLI-credentials
   * synthesizer and the preview permissions boundary on every role (`infra/github-oidc-stack.ts`).
   * @throws Error for a stage that is not pr-<n>
   */
  readonly previewDeployer?: boolean;
  /**
   * Add `Vigia-<stage>-EdgeMonitoring` in us-east-1 with the CloudFront 5xx alarm (`edge-monitoring-stack.ts`);
   * production stages with an `env` only. @throws Error otherwise
   */
  readonly edgeAlarms?: boolean;
}

/** Tag keys put on every stack of a stage. */
export const TAG_PROJECT = 'project';
export const TAG_STAGE = 'stage';
export const TAG_CREATED_AT = 'created-at';

export interface VigiaStacks {
  readonly config: StageConfig;
  readonly auth: AuthStack;
  readonly data: DataStack;
  readonly hosting: HostingStack;
  readonly api: ApiStack;
  readonly portal: PortalDeploymentStack;
  readonly monitoring: MonitoringStack;
  readonly waf?: ApiWaf;
  readonly edge?: EdgeMonitoringStack;
}

/** Adds the stacks of one stage to `app`; returns them with the resolved stage configuration. */
export function addVigiaStacks(app: App, options: VigiaAppOptions): VigiaStacks {
  const config = stageConfig(options.stage, options.overrides);
  if (options.createdAt !== undefined && Number.isNaN(Date.parse(options.createdAt))) {
    throw new Error(`createdAt "${options.createdAt}" is not an ISO-8601 date`);
  }
  // Stack-level tags (DescribeStacks shows them; CloudFormation propagates them to resources). With the
  // `@aws-cdk/core:explicitStackTags` flag, Tags.of(stack) below only reaches the resources.
  const stackTags: Record<string, string> = {
    [TAG_PROJECT]: 'vigia',
    [TAG_STAGE]: config.stage,
    ...(options.createdAt ? { [TAG_CREATED_AT]: options.createdAt } : {}),
  };
  if (options.previewDeployer && !/^pr-\d+$/.test(config.stage)) {
    throw new Error(`previewDeployer=github is for pr-<n> stages only, not "${config.stage}"`);
  }
  const common = {
    ...(options.previewDeployer ? { synthesizer: previewStackSynthesizer() } : {}),
    config,
    tags: stackTags,
    terminationProtection: config.deletionProtection,
    ...(options.env ? { env: options.env } : {}),
  };
  const s = config.stage;

  // Created first: a federated stage's app client names the site as its OAuth callback (Auth then depends on Hosting).
  const hosting = new HostingStack(app, stackName(s, 'Hosting'), {
    ...common,
    ...(options.edgeAlarms ? { crossRegionReferences: true } : {}),
    stackName: stackName(s, 'Hosting'),
    description: `Vigía ${s}: portal bucket and CloudFront distribution`,
  });
  const auth = new AuthStack(app, stackName(s, 'Auth'), {
    ...common,
    stackName: stackName(s, 'Auth'),
    description: `Vigía ${s}: Cognito user pool, app client, admin group, identity pool`,
    ...(config.federation ? { siteUrl: hosting.siteOrigin } : {}),
  });
  const data = new DataStack(app, stackName(s, 'Data'), {
    ...common,
    stackName: stackName(s, 'Data'),
    description: `Vigía ${s}: DynamoDB table`,
  });
  // The user pool's trigger writes access requests to the table's audit log: Auth depends on Data.
  auth.recordAccessRequestsIn(data.table);
  if (options.edgeAlarms && (config.profile !== 'production' || !options.env?.account || !options.env.region)) {
    throw new Error('edgeAlarms=true needs a production stage and a known account and region (CDK_DEFAULT_ACCOUNT/CDK_DEFAULT_REGION)');
  }
  const api = new ApiStack(app, stackName(s, 'Api'), {
    ...common,
    stackName: stackName(s, 'Api'),
    description: `Vigía ${s}: REST API and Lambda functions`,
    userPool: auth.userPool,
    userPoolClientId: auth.userPoolClient.userPoolClientId,
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
    ...(config.federation && auth.oauthDomain
      ? {
          oauth: {
            domain: auth.oauthDomain,
            scopes: [...OAUTH_SCOPES],
            redirectSignIn: `${hosting.siteOrigin}/`,
            redirectSignOut: `${hosting.siteOrigin}/`,
            socialProviders: config.federation.social.map((p) => AMPLIFY_SOCIAL_NAMES[p.type]),
            enterprise: config.federation.enterprise.length > 0 || config.federation.adminConfiguredProviders === true,
          },
        }
      : {}),
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

  // ─── Platform: WAF on the API stage (production profile), alarms + dashboard ───
  const waf = config.waf
    ? new ApiWaf(api, 'Waf', { stage: s, apiStageArn: api.api.deploymentStage.stageArn, rateLimitPer5Min: config.wafRateLimitPer5Min })
    : undefined;
  const monitoring = new MonitoringStack(app, stackName(s, 'Monitoring'), {
    ...common,
    stackName: stackName(s, 'Monitoring'),
    description: `Vigía ${s}: CloudWatch alarms, alarm topic and dashboard`,
    userPoolId: auth.userPool.userPoolId,
    userPoolClientId: auth.userPoolClient.userPoolClientId,
  });
  monitoring.addStackDependency(api);
  const edge = options.edgeAlarms
    ? new EdgeMonitoringStack(app, stackName(s, 'EdgeMonitoring'), {
        ...common,
        env: { account: options.env!.account!, region: CLOUDFRONT_METRICS_REGION },
        crossRegionReferences: true,
        stackName: stackName(s, 'EdgeMonitoring'),
        description: `Vigía ${s}: CloudFront alarm and its topic (us-east-1)`,
        config,
        distributionId: hosting.distribution.distributionId,
      })
    : undefined;
  monitoring.addStackDependency(data);

  // Dashboard tags are recent in CloudFormation; cfn-lint 1.51's schema still rejects them, and nothing needs
  // them (docs/platform.md#tags).
  const tagProps = { excludeResourceTypes: ['AWS::CloudWatch::Dashboard'] };
  for (const stack of [auth, data, hosting, api, portal, monitoring, ...(edge ? [edge] : [])]) {
    for (const [key, value] of Object.entries(stackTags)) Tags.of(stack).add(key, value, tagProps);
    if (options.previewDeployer) applyPreviewBoundary(stack);
  }
  if (options.nag ?? true) Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return { config, auth, data, hosting, api, portal, monitoring, ...(waf ? { waf } : {}), ...(edge ? { edge } : {}) };
}
