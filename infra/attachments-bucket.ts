/**
 * The stage's attachments bucket (issue 32 point 2), in the Api stack (infra/api-stack.ts, which grants the incidents
 * function `s3:PutObject`/`s3:GetObject` on `tenants/*` only): evidence files of incidents,
 * uploaded by the browser straight to S3 with a presigned POST and downloaded with short-lived presigned GETs
 * that the incidents function signs (lambdas/data/attachment-store.ts). Objects live under
 * `tenants/<tenantId>/incidents/<incidentId>/<attachmentId>`.
 *
 *  - Block Public Access on, TLS only (`enforceSSL`: a bucket policy denying `aws:SecureTransport = false`),
 *    bucket owner enforced (no ACLs), no versioning (an attachment is written once under a fresh id and never
 *    overwritten; the metadata item in the table is the record).
 *  - Encryption: SSE-S3 (AES-256, S3-managed keys). SSE-KMS with a customer key would add a `kms:Decrypt` /
 *    `kms:GenerateDataKey` grant to the function and a KMS request per upload and download (cost and
 *    throttling: 5,500–50,000 req/s per account and region) for no gain in this design: only the function's
 *    role can read the objects (no public access, no other principal granted), and key-level audit is not
 *    required by the issue ("encrypted"). Switching later only needs `BucketEncryption.KMS` here and the grant.
 *  - Lifecycle: incomplete multipart uploads aborted after 1 day (a presigned POST is a single PUT, but the
 *    rule keeps stray parts of any other writer from being billed forever).
 *  - CORS: POST (uploads) and GET (downloads) from the portal origins only (the site origin first, then the
 *    stage's extra origins), `ETag` exposed.
 *  - Name: `vigia-<stage>-attachments-<account>-<region>` — unique across accounts and regions, and inside the
 *    preview fence, which allows a preview's roles S3 only on `vigia-pr-*` buckets (docs/platform.md#the-preview-fence).
 *  - Removal: the stage's `removalPolicy`, like the table (retained on production stages); disposable stages
 *    (`autoDeleteObjects`) empty it on deletion, so a preview leaves nothing behind
 *    (docs/platform.md#previews-leave-nothing-behind).
 */
import { Aws, Duration, Stack, Token, type RemovalPolicy, Validations } from 'aws-cdk-lib';
import { BlockPublicAccess, Bucket, BucketEncryption, HttpMethods, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';

/** Key prefix under which every attachment object lives (the function's grant is `<bucket>/tenants/*`). */
export const ATTACHMENTS_PREFIX = 'tenants/';

export interface AttachmentsBucketProps {
  /** Origins allowed to POST and GET from a browser (the portal's). */
  readonly allowOrigins: readonly string[];
  readonly removalPolicy: RemovalPolicy;
  /** Empty the bucket when the stack is deleted (disposable stages). */
  readonly autoDeleteObjects: boolean;
  /** The stage name (the bucket's name). */
  readonly stage: string;
}

/**
 * The attachments bucket's name: `vigia-<stage>-attachments-<account>-<region>`, as a literal when the stack's
 * account and region are known, else with the deploy-time pseudo parameters (as the site bucket's name).
 */
export function attachmentsBucketName(stack: Stack, stage: string): string {
  if (Token.isUnresolved(stack.account) || Token.isUnresolved(stack.region)) return `vigia-${stage}-attachments-${Aws.ACCOUNT_ID}-${Aws.REGION}`;
  return `vigia-${stage}-attachments-${stack.account}-${stack.region}`;
}

/** The attachments bucket of a stage (see module doc). */
export class AttachmentsBucket extends Construct {
  readonly bucket: Bucket;

  constructor(scope: Construct, id: string, props: AttachmentsBucketProps) {
    super(scope, id);
    this.bucket = new Bucket(this, 'Bucket', {
      bucketName: attachmentsBucketName(Stack.of(this), props.stage),
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      versioned: false,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      lifecycleRules: [{ abortIncompleteMultipartUploadAfter: Duration.days(1) }],
      cors: [{ allowedOrigins: [...props.allowOrigins], allowedMethods: [HttpMethods.POST, HttpMethods.GET], allowedHeaders: ['*'], exposedHeaders: ['ETag'], maxAge: 300 }],
      removalPolicy: props.removalPolicy,
      autoDeleteObjects: props.autoDeleteObjects,
    });
    Validations.of(this.bucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'Every object access goes through a URL the incidents function presigns after its authorization check, and that request is in the API access log and the audit log; S3 server access logs would repeat it.',
    });
  }
}
