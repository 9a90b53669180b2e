/**
 * The attachments bucket and the incidents function's grant on it (issue 32 point 2; infra/attachments-bucket.ts).
 * `synth` fails on any cdk-nag finding, so these stacks are also nag-clean.
 */
import { describe, expect, it } from 'vitest';
import { ofType, synthPr42, synthProd } from '../support/synth.js';

type Statement = { Action: string | string[]; Resource: unknown; Effect: string; Condition?: unknown };

describe('attachments bucket', () => {
  it('blocks public access, encrypts with SSE-S3, has no versioning, aborts incomplete multipart uploads after 1 day, and CORS POST/GET from the portal origins only', () => {
    const { t } = synthPr42();
    const buckets = ofType(t.api, 'AWS::S3::Bucket');
    expect(buckets).toHaveLength(1);
    const p = buckets[0]![1].Properties as Record<string, unknown>;
    expect(p.PublicAccessBlockConfiguration).toEqual({ BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true });
    expect(p.BucketEncryption).toEqual({ ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] });
    expect(p.VersioningConfiguration).toBeUndefined();
    expect(p.LifecycleConfiguration).toEqual({ Rules: [{ AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 }, Status: 'Enabled' }] });
    const cors = (p.CorsConfiguration as { CorsRules: Array<{ AllowedMethods: string[]; AllowedOrigins: unknown[] }> }).CorsRules;
    expect(cors).toHaveLength(1);
    expect(cors[0]!.AllowedMethods.sort()).toEqual(['GET', 'POST']);
    expect(JSON.stringify(cors[0]!.AllowedOrigins)).not.toContain('"*"');
  });

  it('denies every request without TLS (enforceSSL)', () => {
    const { t } = synthPr42();
    const policies = ofType(t.api, 'AWS::S3::BucketPolicy');
    const statements = policies.flatMap(([, r]) => (r.Properties as { PolicyDocument: { Statement: Statement[] } }).PolicyDocument.Statement);
    expect(statements.some((s) => s.Effect === 'Deny' && JSON.stringify(s.Condition) === JSON.stringify({ Bool: { 'aws:SecureTransport': 'false' } }))).toBe(true);
  });

  it('is retained on production and destroyed with disposable stages, like the table', () => {
    for (const [{ t }, expected] of [[synthProd(), 'RetainExceptOnCreate'], [synthPr42(), 'Delete']] as const) {
      const table = ofType(t.data, 'AWS::DynamoDB::Table')[0]![1].DeletionPolicy;
      expect(ofType(t.api, 'AWS::S3::Bucket')[0]![1].DeletionPolicy).toBe(expected);
      expect(table).toBe(expected);
    }
  });

  it('grants s3:PutObject and s3:GetObject on tenants/* to the incidents function only, and no other S3 action', () => {
    const { t } = synthPr42();
    const s3Statements = ofType(t.api, 'AWS::IAM::Policy').flatMap(([id, r]) =>
      (r.Properties as { PolicyDocument: { Statement: Statement[] } }).PolicyDocument.Statement.filter((s) => [s.Action].flat().some((a) => a.startsWith('s3:'))).map((s) => ({ id, s })),
    );
    expect(s3Statements).toHaveLength(1);
    expect(s3Statements[0]!.id).toMatch(/^IncidentsRole/);
    expect([s3Statements[0]!.s.Action].flat().sort()).toEqual(['s3:GetObject', 's3:PutObject']);
    expect(JSON.stringify(s3Statements[0]!.s.Resource)).toMatch(/"\/tenants\/\*"\]/);
  });
});
