/**
 * Hosting stack (`Vigia-<stage>-Hosting`): the private S3 bucket that holds the built portal and the
 * CloudFront distribution in front of it. It holds no files itself — the portal and `config.json` are
 * uploaded by the PortalDeployment stack (see `portal-deployment-stack.ts` for why the split exists).
 *
 *  - Site bucket (`vigia-<stage>-site-<account>-<region>`): all public access blocked, SSL enforced, S3-managed encryption (SSE-S3), server access
 *    logs to the log bucket; emptied and deleted with the stack on non-production stages.
 *  - Distribution: origin access control (OAC) to the bucket, HTTP→HTTPS redirect, default root object
 *    `index.html`, SPA fallback (S3's 403/404 → `/index.html` with status 200, not cached) so deep links
 *    such as `/incidents/all` load the portal, security response headers, and no caching at all for
 *    `/index.html` and `/config.json` (a new deployment takes effect on the next page load; the hashed
 *    `assets/*` files are cached for a long time).
 *  - Log bucket: S3 server access logs (`s3/`) and CloudFront standard logs (`cloudfront/`), expired after
 *    `accessLogExpirationDays`; it needs ACLs (BUCKET_OWNER_PREFERRED) because CloudFront standard logging
 *    writes with ACLs (AWS CloudFront developer guide, "Configure standard logging (legacy)").
 */
import { Aws, CfnOutput, Duration, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  HttpVersion,
  PriceClass,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
  type BehaviorOptions,
} from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import type { StageConfig } from './stage-config.js';

/**
 * Physical name of the site bucket: `vigia-<stage>-site-<account>-<region>` (≤ 63 characters for stage
 * names ≤ 21 characters). Deterministic so the PortalDeployment stack can address the bucket without a
 * cross-stack token (which would make the BucketDeployment's IAM finding ids stack-output-dependent).
 * Account and region are the `AWS::AccountId` / `AWS::Region` pseudo parameters of the stack that uses it.
 */
export function siteBucketName(stage: string): string {
  return `vigia-${stage}-site-${Aws.ACCOUNT_ID}-${Aws.REGION}`;
}

export interface HostingStackProps extends StackProps {
  readonly config: StageConfig;
}

export class HostingStack extends Stack {
  readonly siteBucket: Bucket;
  readonly logBucket: Bucket;
  readonly distribution: Distribution;
  /** `https://<distribution domain>` — the portal's origin, used for CORS by the Api stack. */
  readonly siteOrigin: string;

  constructor(scope: Construct, id: string, props: HostingStackProps) {
    super(scope, id, props);
    const { config } = props;

    this.logBucket = new Bucket(this, 'LogBucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: Duration.days(config.accessLogExpirationDays) }],
      removalPolicy: config.removalPolicy,
      autoDeleteObjects: config.autoDeleteObjects,
    });
    Validations.of(this.logBucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'This is the access-log bucket itself; logging it into itself would loop.',
    });

    this.siteBucket = new Bucket(this, 'SiteBucket', {
      bucketName: siteBucketName(config.stage),
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: this.logBucket,
      serverAccessLogsPrefix: 's3/',
      removalPolicy: config.removalPolicy,
      autoDeleteObjects: config.autoDeleteObjects,
    });

    const origin = S3BucketOrigin.withOriginAccessControl(this.siteBucket);
    const noCache: BehaviorOptions = {
      origin,
      viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      responseHeadersPolicy: ResponseHeadersPolicy.SECURITY_HEADERS,
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
        responseHeadersPolicy: ResponseHeadersPolicy.SECURITY_HEADERS,
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
      enableLogging: true,
      logBucket: this.logBucket,
      logFilePrefix: 'cloudfront/',
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
