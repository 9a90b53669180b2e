/**
 * The attachments bucket construct (issue 32 point 2; infra/attachments-bucket.ts), synthesized on its own. In the
 * stage it is in the Api stack with the incidents function's `s3:PutObject`/`s3:GetObject` grant on `tenants/*`
 * (test/infra/api.test.ts) and the auto-delete provider's log group (test/infra/deploy-safety.test.ts).
 */
import { App, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { AttachmentsBucket } from '../../infra/attachments-bucket.js';

type Statement = { Effect: string; Condition?: unknown };

function synth(stage: string, removalPolicy: RemovalPolicy, autoDeleteObjects: boolean, env?: { account: string; region: string }) {
  const stack = new Stack(new App(), `T-${stage}`, env ? { env } : {});
  new AttachmentsBucket(stack, 'Attachments', { allowOrigins: ['https://portal.example'], removalPolicy, autoDeleteObjects, stage });
  return Template.fromStack(stack).toJSON() as { Resources: Record<string, { Type: string; Properties?: Record<string, unknown>; DeletionPolicy?: string }> };
}
const of = (t: ReturnType<typeof synth>, type: string) => Object.values(t.Resources).filter((r) => r.Type === type);

describe('attachments bucket', () => {
  it('blocks public access, encrypts with SSE-S3, has no versioning, aborts incomplete multipart uploads after 1 day, and CORS POST/GET from the portal origins only', () => {
    const p = of(synth('pr-42', RemovalPolicy.DESTROY, true), 'AWS::S3::Bucket')[0]!.Properties!;
    expect(p.PublicAccessBlockConfiguration).toEqual({ BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true });
    expect(p.BucketEncryption).toEqual({ ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] });
    expect(p.VersioningConfiguration).toBeUndefined();
    expect(p.LifecycleConfiguration).toEqual({ Rules: [{ AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 }, Status: 'Enabled' }] });
    const cors = (p.CorsConfiguration as { CorsRules: Array<{ AllowedMethods: string[]; AllowedOrigins: unknown[] }> }).CorsRules;
    expect(cors).toHaveLength(1);
    expect(cors[0]!.AllowedMethods.sort()).toEqual(['GET', 'POST']);
    expect(cors[0]!.AllowedOrigins).toEqual(['https://portal.example']);
  });

  it('is named inside the preview fence (vigia-<stage>-…) and unique per account and region', () => {
    const p = of(synth('pr-42', RemovalPolicy.DESTROY, true, { account: '123456789012', region: 'eu-west-1' }), 'AWS::S3::Bucket')[0]!.Properties!;
    expect(p.BucketName).toBe('vigia-pr-42-attachments-123456789012-eu-west-1');
    expect(String(p.BucketName).length).toBeLessThanOrEqual(63);
  });

  it('denies every request without TLS (enforceSSL)', () => {
    const statements = of(synth('pr-42', RemovalPolicy.DESTROY, true), 'AWS::S3::BucketPolicy').flatMap((r) => (r.Properties as { PolicyDocument: { Statement: Statement[] } }).PolicyDocument.Statement);
    expect(statements.some((s) => s.Effect === 'Deny' && JSON.stringify(s.Condition) === JSON.stringify({ Bool: { 'aws:SecureTransport': 'false' } }))).toBe(true);
  });

  it('is retained on production, and emptied then destroyed with a disposable stage', () => {
    const prod = synth('prod', RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE, false);
    expect(of(prod, 'AWS::S3::Bucket')[0]!.DeletionPolicy).toBe('RetainExceptOnCreate');
    expect(of(prod, 'Custom::S3AutoDeleteObjects')).toHaveLength(0);
    const pr = synth('pr-42', RemovalPolicy.DESTROY, true);
    expect(of(pr, 'AWS::S3::Bucket')[0]!.DeletionPolicy).toBe('Delete');
    expect(of(pr, 'Custom::S3AutoDeleteObjects')).toHaveLength(1);
  });
});
