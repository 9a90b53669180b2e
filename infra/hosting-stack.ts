/**
 * Hosting stack (`Vigia-<stage>-Hosting`): the private S3 bucket that holds the built portal and the
 * CloudFront distribution in front of it. It holds no files itself — the portal and `config.json` are
 * uploaded by the PortalDeployment stack (see `portal-deployment-stack.ts` for why the split exists).
 *
 *  - Site bucket (`vigia-<stage>-site-<account>-<region>`): all public access blocked, SSL enforced,
 *    S3-managed encryption (SSE-S3), server access logs to the log bucket (production stages); retained on
 *    production stages (`RETAIN_ON_UPDATE_OR_DELETE`), emptied and deleted with the stack otherwise.
 *  - Distribution: origin access control (OAC) to the bucket, HTTP→HTTPS redirect, default root object
 *    `index.html`, SPA fallback (S3's 403/404 → `/index.html` with status 200, not cached) so deep links
 *    such as `/incidents/all` load the portal, the security response headers of `security-headers.ts`
 *    (CSP naming only the site, the stage region's Cognito endpoints and API Gateway; HSTS; nosniff;
 *    frame-ancestors 'none'; no-referrer) on every response, and no caching at all for
 *    `/index.html` and `/config.json` (a new deployment takes effect on the next page load; the hashed
 *    `assets/*` files are cached for a long time).
 *  - Log bucket (production stages only): S3 server access logs (`s3/`) and CloudFront standard logs
 *    (`cloudfront/`), expired after `accessLogExpirationDays`; it needs ACLs (BUCKET_OWNER_PREFERRED)
 *    because CloudFront standard logging writes with ACLs (AWS CloudFront developer guide, "Configure
 *    standard logging (legacy)"). dev and previews have none: access logs keep arriving after the stack
 *    starts deleting and make an auto-emptied log bucket's deletion fail (docs/platform.md#previews-leave-nothing-behind).
 *  - The log group of CDK's auto-delete-objects provider (dev/previews) is created by this stack with the
 *    stage's retention and removal policy, instead of by Lambda on its first run (never expiring, never
 *    deleted).
 */
import { Aws, CfnOutput, CfnResource, Duration, Fn, Stack, type StackProps, Token, Validations } from 'aws-cdk-lib';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  HttpVersion,
  PriceClass,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
  type BehaviorOptions,
} from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { attachmentsBucketName } from './attachments-bucket.js';
import { attachmentsUploadOrigin, awsPortalOrigins, securityHeaderSettings, type REFERRER_POLICY, type SecurityHeaderSettings } from './security-headers.js';
import { physicalName, type StageConfig } from './stage-config.js';

/**
 * Physical name of the site bucket: `vigia-<stage>-site-<account>-<region>` (≤ 63 characters for stage
 * names ≤ 21 characters). Deterministic so the PortalDeployment stack can address the bucket without a
 * cross-stack token (which would make the BucketDeployment's IAM finding ids stack-output-dependent).
 * Account and region are the `AWS::AccountId` / `AWS::Region` pseudo parameters of the stack that uses it.
 */
export function siteBucketName(stage: string): string {
  return `vigia-${stage}-site-${Aws.ACCOUNT_ID}-${Aws.REGION}`;
}

/**
 * The site bucket's name as the Hosting stack's template writes it: the same value as {@link siteBucketName},
 * spelled as a literal when the stack's account and region are known (`bin/app.ts` sets them from the
 * deploying credentials). A literal is what CloudFormation's auto-import needs to adopt a retained bucket of
 * that name ("The resource must have a static custom name defined in your template",
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/import-resources-automatically.html;
 * docs/platform.md#redeploying-over-retained-resources).
 */
export function siteBucketNameIn(stack: Stack, stage: string): string {
  if (Token.isUnresolved(stack.account) || Token.isUnresolved(stack.region)) return siteBucketName(stage);
  return `vigia-${stage}-site-${stack.account}-${stack.region}`;
}

/**
 * A CloudFront response headers policy carrying `settings` (all values override the origin's).
 * @param name policy name, unique per account (e.g. `vigia-prod-security-headers`)
 */
export function portalResponseHeadersPolicy(scope: Construct, name: string, settings: SecurityHeaderSettings): ResponseHeadersPolicy {
  const referrer: Record<typeof REFERRER_POLICY, HeadersReferrerPolicy> = { 'no-referrer': HeadersReferrerPolicy.NO_REFERRER };
  return new ResponseHeadersPolicy(scope, 'SecurityHeaders', {
    responseHeadersPolicyName: name,
    comment: 'Vigía portal: CSP, HSTS, nosniff, frame-ancestors none, no-referrer',
    securityHeadersBehavior: {
      contentSecurityPolicy: { contentSecurityPolicy: settings.contentSecurityPolicy, override: true },
      strictTransportSecurity: {
        accessControlMaxAge: Duration.seconds(settings.hsts.maxAgeSeconds),
        includeSubdomains: settings.hsts.includeSubdomains,
        override: true,
      },
      contentTypeOptions: { override: true },
      frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
      referrerPolicy: { referrerPolicy: referrer[settings.referrerPolicy], override: true },
    },
    customHeadersBehavior: {
      customHeaders: Object.entries(settings.custom).map(([header, value]) => ({ header, value, override: true })),
    },
  });
}

export interface HostingStackProps extends StackProps {
  readonly config: StageConfig;
}

/** Whether a stage keeps S3/CloudFront access logs (production profile: yes; dev and previews: no). */
export function keepsAccessLogs(config: StageConfig): boolean {
  return config.profile === 'production';
}

export class HostingStack extends Stack {
  readonly siteBucket: Bucket;
  /** Access-log bucket (production stages only, see {@link keepsAccessLogs}). */
  readonly logBucket?: Bucket;
  readonly distribution: Distribution;
  /** `https://<distribution domain>` — the portal's origin, used for CORS by the Api stack. */
  readonly siteOrigin: string;
  /** The security headers every portal response carries. */
  readonly securityHeaders: SecurityHeaderSettings;

  constructor(scope: Construct, id: string, props: HostingStackProps) {
    super(scope, id, props);
    const { config } = props;

    const logBucket = keepsAccessLogs(config)
      ? new Bucket(this, 'LogBucket', {
          blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
          encryption: BucketEncryption.S3_MANAGED,
          enforceSSL: true,
          objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
          lifecycleRules: [{ expiration: Duration.days(config.accessLogExpirationDays) }],
          removalPolicy: config.removalPolicy,
        })
      : undefined;
    if (logBucket) {
      this.logBucket = logBucket;
      Validations.of(logBucket).acknowledge({
        id: 'AwsSolutions-S1',
        reason: 'This is the access-log bucket itself; logging it into itself would loop.',
      });
    }

    this.siteBucket = new Bucket(this, 'SiteBucket', {
      bucketName: siteBucketNameIn(this, config.stage),
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      ...(logBucket ? { serverAccessLogsBucket: logBucket, serverAccessLogsPrefix: 's3/' } : {}),
      removalPolicy: config.removalPolicy,
      autoDeleteObjects: config.autoDeleteObjects,
    });
    if (!logBucket) {
      Validations.of(this.siteBucket).acknowledge({
        id: 'AwsSolutions-S1',
        reason: `Stage ${config.stage} is disposable: no access-log bucket, whose late log deliveries would block the stack deletion (docs/platform.md#previews-leave-nothing-behind).`,
      });
    }
    if (config.autoDeleteObjects) autoDeleteProviderLogGroup(this, config);

    // ─── Security response headers (security-headers.ts; same builder as the local portal server) ───
    // Env-bound stacks get literal origins; environment-agnostic ones resolve region/suffix at deploy time.
    const urlSuffix = Token.isUnresolved(this.region) ? this.urlSuffix : this.region.startsWith('cn-') ? 'amazonaws.com.cn' : 'amazonaws.com';
    // The attachments bucket (Api stack) has a name known before it exists, so its origin needs no cross-stack reference.
    const uploads = [attachmentsUploadOrigin(attachmentsBucketName(this, config.stage), this.region, urlSuffix)];
    this.securityHeaders = securityHeaderSettings({ ...awsPortalOrigins(this.region, urlSuffix, config.federation?.domainPrefix), uploads });
    const responseHeadersPolicy = portalResponseHeadersPolicy(this, physicalName(config.stage, 'security-headers'), this.securityHeaders);

    const origin = S3BucketOrigin.withOriginAccessControl(this.siteBucket);
    const noCache: BehaviorOptions = {
      origin,
      viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      responseHeadersPolicy,
      compress: true,
    };

    this.distribution = new Distribution(this, 'Distribution', {
      comment: `Vigía portal (${config.stage})`,
      defaultRootObject: 'index.html',
      httpVersion: HttpVersion.HTTP2_AND_3,
      priceClass: PriceClass.PRICE_CLASS_100,
      defaultBehavior: {
        origin,
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy,
        compress: true,
      },
      additionalBehaviors: { '/index.html': noCache, '/config.json': noCache },
      // SPA fallback: S3 answers 403 (no ListBucket for OAC) or 404 for client-side routes.
      errorResponses: [403, 404].map((httpStatus) => ({
        httpStatus,
        responseHttpStatus: 200,
        responsePagePath: '/index.html',
        ttl: Duration.seconds(0),
      })),
      ...(logBucket ? { enableLogging: true, logBucket, logFilePrefix: 'cloudfront/' } : { enableLogging: false }),
    });
    this.siteOrigin = `https://${this.distribution.distributionDomainName}`;

    Validations.of(this.distribution).acknowledge(
      {
        id: 'AwsSolutions-CFR1',
        reason: 'The portal serves customers in several countries; access is controlled by Cognito sign-in, not geography.',
      },
      {
        id: 'AwsSolutions-CFR2',
        reason: 'Static portal files only (no server-side logic behind CloudFront); the API has its own throttling. WAF can be added per account later.',
      },
      ...(logBucket
        ? []
        : [{
            id: 'AwsSolutions-CFR3',
            reason: `Stage ${config.stage} is disposable: no access-log bucket, whose late log deliveries would block the stack deletion (docs/platform.md#previews-leave-nothing-behind).`,
          }]),
      {
        id: 'AwsSolutions-CFR4',
        reason: 'Uses the default *.cloudfront.net certificate, for which CloudFront fixes the TLS policy; set a custom domain + certificate to enforce TLSv1.2_2021.',
      },
    );

    new CfnOutput(this, 'SiteUrl', { value: this.siteOrigin, description: 'Portal URL (CloudFront)' });
    new CfnOutput(this, 'SiteBucketName', { value: this.siteBucket.bucketName, description: 'Bucket with the built portal' });
    new CfnOutput(this, 'DistributionId', { value: this.distribution.distributionId, description: 'CloudFront distribution id' });
  }
}

/** Construct id CDK gives its per-stack auto-delete-objects provider (`Bucket` with `autoDeleteObjects`). */
export const AUTO_DELETE_PROVIDER_ID = 'Custom::S3AutoDeleteObjectsCustomResourceProvider';

/**
 * Creates the log group of CDK's auto-delete-objects provider function (`/aws/lambda/<function name>`)
 * with the stage's retention and removal policy, and makes every auto-delete custom resource of the stack
 * wait for it, so the provider never creates its own never-expiring log group on its first run.
 * @throws Error when the stack has no such provider (call it after creating a bucket with autoDeleteObjects)
 */
export function autoDeleteProviderLogGroup(stack: Stack, config: StageConfig): LogGroup {
  const provider = stack.node.tryFindChild(AUTO_DELETE_PROVIDER_ID);
  const handler = provider?.node.tryFindChild('Handler');
  if (!(handler instanceof CfnResource)) throw new Error(`${AUTO_DELETE_PROVIDER_ID}: no Handler function found`);
  const logGroup = new LogGroup(stack, 'AutoDeleteObjectsLogs', {
    logGroupName: Fn.join('', ['/aws/lambda/', handler.ref]),
    retention: config.logRetention,
    removalPolicy: config.removalPolicy,
  });
  for (const c of stack.node.findAll()) {
    if (c instanceof CfnResource && c.cfnResourceType === 'Custom::S3AutoDeleteObjects') c.node.addDependency(logGroup);
  }
  return logGroup;
}
