/**
 * PortalDeployment stack (`Vigia-<stage>-PortalDeployment`): uploads the built portal (`web/dist`, from
 * `npm run build:web`) and its `config.json` into the Hosting stack's bucket.
 *
 * Why a separate stack (the CORS ↔ config cycle): the Api stack needs the site origin
 * (`https://<distribution domain>`) for CORS, and the portal's `config.json` needs the API URL. Putting the
 * bucket, distribution and upload in one stack would make Hosting → Api → Hosting a cycle. So the order is
 *
 *     Auth, Data ─┐
 *     Hosting ────┴─► Api ─► PortalDeployment (BucketDeployment + config.json)
 *
 * Hosting owns the bucket and distribution only; this stack owns the uploads.
 *
 * Uploads (two `BucketDeployment`s sharing one handler and log group):
 *  1. `assets/*` (content-hashed by Vite): `Cache-Control: public, max-age=31536000, immutable`, never
 *     pruned, so a browser still running the previous build can load its lazy chunks;
 *  2. everything else (`index.html`, `config.json`, public files): `Cache-Control: no-cache`, pruned
 *     (except `assets/`), uploaded after 1.
 * `config.json` is `Source.jsonData` of a {@link PortalConfig} whose values are CloudFormation tokens of the
 * other stacks (resolved by the deployment custom resource at deploy time). `index.html` is written the same
 * way, with a Content-Security-Policy meta element whose `connect-src` names this stage's API
 * (`stageConnectPolicy`, `infra/security-headers.ts`): the Hosting stack's header policy, deployed before
 * the API exists, can only allow the region's `*.execute-api` hosts, and the browser enforces both. It
 * also carries config.json's object as a JSON data block in place of the build's preload of `/config.json`
 * (`withInlinePortalConfig`), so the sign-in page makes no request for it (docs/portal.md#configuration-in-indexhtml).
 *
 * If `web/dist/index.html` is missing at synth time, a placeholder page (`infra/placeholder/`) is
 * deployed instead and a warning annotation tells you to run `npm run build:web` first.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Annotations, Aws, DefaultStackSynthesizer, Stack, type StackProps, Token, Validations } from 'aws-cdk-lib';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { openApiDocument } from '../lambdas/contract/openapi.js';
import type { PortalConfig } from '../lambdas/contract/portal-config.js';
import { withInlinePortalConfig } from '../lambdas/contract/portal-config-html.js';
import { attachmentsBucketName } from './attachments-bucket.js';
import { attachmentsUploadOrigin, awsPortalOrigins, stageConnectPolicy, withCspMeta } from './security-headers.js';
import type { StageConfig } from './stage-config.js';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Default location of the built portal. */
export const WEB_DIST_DIR = path.join(REPO_ROOT, 'web', 'dist');
/** Page deployed when the portal has not been built. */
export const PLACEHOLDER_DIR = path.join(REPO_ROOT, 'infra', 'placeholder');
/** Id of the warning added when `web/dist/index.html` is missing. */
export const WEB_DIST_MISSING_WARNING = 'vigia:web-dist-missing';

export interface PortalDeploymentStackProps extends StackProps {
  readonly config: StageConfig;
  /** Name of the Hosting stack's site bucket (see `siteBucketName`). */
  readonly siteBucketName: string;
  /** Contents of `/config.json` (values may be tokens from other stacks). */
  readonly portalConfig: PortalConfig;
  /** Built portal folder; defaults to {@link WEB_DIST_DIR}. */
  readonly webDistDir?: string;
}

export class PortalDeploymentStack extends Stack {
  /** The folder actually deployed (the build, or the placeholder). */
  readonly sourceDir: string;

  constructor(scope: Construct, id: string, props: PortalDeploymentStackProps) {
    super(scope, id, props);
    const { config } = props;
    const distDir = props.webDistDir ?? WEB_DIST_DIR;

    if (existsSync(path.join(distDir, 'index.html'))) {
      this.sourceDir = distDir;
    } else {
      this.sourceDir = PLACEHOLDER_DIR;
      Annotations.of(this).addWarningV2(
        WEB_DIST_MISSING_WARNING,
        `${path.relative(REPO_ROOT, distDir) || distDir}/index.html not found: deploying a placeholder page. Run \`npm run build:web\` first.`,
      );
    }

    // Imported by name (same account/region): no cross-stack token in the deployment role's policy.
    const siteBucket = Bucket.fromBucketName(this, 'SiteBucket', props.siteBucketName);
    const logGroup = new LogGroup(this, 'DeploymentLogs', {
      retention: config.logRetention,
      removalPolicy: config.removalPolicy,
    });

    // As the Hosting stack names the endpoints: concrete for an env-bound stage, AWS::URLSuffix otherwise.
    const urlSuffix = Token.isUnresolved(this.region) ? this.urlSuffix : this.region.startsWith('cn-') ? 'amazonaws.com.cn' : 'amazonaws.com';
    // index.html is uploaded from `Source.data` below (with the stage's CSP), never from the build as is.
    const files = Source.asset(this.sourceDir, { exclude: ['index.html'] });
    // It also carries config.json's object (docs/portal.md#configuration-in-indexhtml): the sign-in page needs no
    // request for it. Its string values may be tokens; `jsonEscape` below JSON-encodes what the deployment
    // substitutes for them, as `Source.jsonData` does for config.json.
    const indexHtml = withCspMeta(
      withInlinePortalConfig(readFileSync(path.join(this.sourceDir, 'index.html'), 'utf8'), JSON.stringify(props.portalConfig)),
      stageConnectPolicy(awsPortalOrigins(this.region, urlSuffix, config.federation?.domainPrefix).cognito, props.portalConfig.apiUrl, [
        attachmentsUploadOrigin(attachmentsBucketName(this, config.stage), this.region, urlSuffix),
      ]),
    );

    const assets = new BucketDeployment(this, 'Assets', {
      destinationBucket: siteBucket,
      sources: [files],
      exclude: ['*'],
      include: ['assets/*'],
      prune: false,
      cacheControl: [CacheControl.fromString('public, max-age=31536000, immutable')],
      memoryLimit: 512,
      logGroup,
    });

    const site = new BucketDeployment(this, 'Site', {
      destinationBucket: siteBucket,
      sources: [
        files,
        Source.jsonData('config.json', props.portalConfig),
        // The API contract of this deployment, served at /openapi.json (docs/platform.md#published-api-contract).
        Source.jsonData('openapi.json', openApiDocument({ serverUrl: props.portalConfig.apiUrl })),
        Source.data('index.html', indexHtml, { jsonEscape: true }),
      ],
      exclude: ['assets/*'],
      prune: true,
      cacheControl: [CacheControl.noCache()],
      memoryLimit: 512,
      logGroup,
    });
    site.node.addDependency(assets);

    // Findings on the BucketDeployment's own handler (a CDK-provided singleton Lambda).
    const ack = (id: string, reason: string): void => Validations.of(this).acknowledge({ id, reason });
    ack('AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      'CDK BucketDeployment handler role (CDK-managed); it only writes its own logs with this policy.');
    ack('AwsSolutions-L1', 'CDK BucketDeployment handler runtime is chosen by aws-cdk-lib, not by this app.');
    const s3Reason =
      'CDK BucketDeployment handler: reads the CDK asset bucket and syncs (list/put/delete) the objects of the site bucket only.';
    for (const action of ['s3:GetBucket*', 's3:GetObject*', 's3:List*', 's3:Abort*', 's3:DeleteObject*']) {
      ack(`AwsSolutions-IAM5[Action::${action}]`, s3Reason);
    }
    // cdk-nag prints unresolved pseudo parameters as <AWS::…> and concrete ones (env-bound stacks) literally.
    const nag = (value: string, pseudo: string): string => (Token.isUnresolved(value) ? `<${pseudo}>` : value);
    const partition = nag(this.partition, 'AWS::Partition');
    const qualifier: string =
      this.node.tryGetContext('@aws-cdk/core:bootstrapQualifier') ?? DefaultStackSynthesizer.DEFAULT_QUALIFIER;
    const assetBucket = `cdk-${qualifier}-assets-${nag(this.account, 'AWS::AccountId')}-${nag(this.region, 'AWS::Region')}`;
    ack(`AwsSolutions-IAM5[Resource::arn:${partition}:s3:::${assetBucket}/*]`, s3Reason);
    // The site bucket name always uses the AWS::AccountId / AWS::Region pseudo parameters (`siteBucketName`).
    const siteBucketNag = props.siteBucketName.replace(Aws.ACCOUNT_ID, '<AWS::AccountId>').replace(Aws.REGION, '<AWS::Region>');
    ack(`AwsSolutions-IAM5[Resource::arn:${partition}:s3:::${siteBucketNag}/*]`, s3Reason);
  }
}
