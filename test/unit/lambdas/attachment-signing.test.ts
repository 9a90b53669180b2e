/**
 * The attachment store's signatures (lambdas/data/attachment-store.ts) checked against clients this project did
 * not write: with the same clock, key (with and without a session token), bucket and key, the presigned POST is
 * byte for byte what `@aws-sdk/s3-presigned-post` answers (fields, policy document, SigV4 signature), and the
 * presigned GET (aws4, query-string SigV4) is the URL `@aws-sdk/s3-request-presigner` answers (its client computing no checksums,
 * which would add `x-amz-checksum-*` parameters to the URL, and without its `x-id` marker). The SDK is a
 * devDependency only: it is not in the Lambda bundles (test/infra/lambda-bundles.test.ts). Against the real local
 * S3: test/integration/api-attachments.test.ts.
 */
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { contentDisposition, DOWNLOAD_EXPIRY_SECONDS, s3AttachmentStore, UPLOAD_EXPIRY_SECONDS } from '../../../lambdas/data/attachment-store.js';

const NOW = new Date('2026-11-29T06:42:07.123Z');
const KEY = 'tenants/acme/incidents/INC-000001/att-0199a7c2-1b3d-7abc-8def-0123456789ab';
const region = 'eu-west-1';
const bucket = 'vigia-pr-42-attachments-123456789012-eu-west-1';
const keys = {
  'long-term key': { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' },
  'role session': { accessKeyId: 'ASIAEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', sessionToken: 'IQoJb3JpZ2luX2VjEXAMPLE/+=' },
};

afterEach(() => {
  vi.useRealTimers();
});

describe.each(Object.entries(keys))('attachment signatures (%s)', (_, credentials) => {
  for (const endpoint of [undefined, 'http://127.0.0.1:4569']) {
    const where = endpoint ? 'local S3, path-style' : 'AWS, virtual-hosted';
    const sdk = () => {
      const c = new S3Client({ region, credentials, requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED', ...(endpoint ? { endpoint, forcePathStyle: true } : {}) });
      // The SDK's own `x-id=GetObject` marker (signed, ignored by S3) is dropped before signing, so the URLs compare.
      c.middlewareStack.add(
        (next) => (args) => {
          delete (args.request as { query?: Record<string, unknown> }).query?.['x-id'];
          return next(args);
        },
        { step: 'build', name: 'dropXId' },
      );
      return c;
    };
    const ours = () => s3AttachmentStore({ bucket, region, endpoint, credentials, now: () => NOW });

    it(`presigned POST = @aws-sdk/s3-presigned-post's (${where})`, async () => {
      vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
      const theirs = await createPresignedPost(sdk(), {
        Bucket: bucket,
        Key: KEY,
        Conditions: [['eq', '$key', KEY], ['eq', '$Content-Type', 'text/plain'], ['content-length-range', 1, 4096]],
        Fields: { 'Content-Type': 'text/plain' },
        Expires: UPLOAD_EXPIRY_SECONDS,
      });
      const mine = await ours().presignUpload(KEY, 'text/plain', 4096);
      expect(mine.fields).toEqual(theirs.fields);
      expect(Object.keys(mine.fields)).toEqual(Object.keys(theirs.fields));
      expect(mine.url.replace(/\/$/, '')).toBe(theirs.url.replace(/\/$/, ''));
      expect(mine.expiresAt).toBe('2026-11-29T06:47:07Z');
    });

    it(`presigned GET = @aws-sdk/s3-request-presigner's, valid ${DOWNLOAD_EXPIRY_SECONDS} s, as a download (${where})`, async () => {
      const name = 'fw deny (ñ).log';
      const theirs = new URL(
        await getSignedUrl(sdk(), new GetObjectCommand({ Bucket: bucket, Key: KEY, ResponseContentDisposition: contentDisposition(name) }), {
          expiresIn: DOWNLOAD_EXPIRY_SECONDS,
          signingDate: NOW,
        }),
      );
      const mine = new URL(await ours().presignDownload(KEY, name));
      expect(mine.origin + mine.pathname).toBe(theirs.origin + theirs.pathname);
      const q = (u: URL) => Object.fromEntries([...u.searchParams.entries()].sort(([a], [b]) => a.localeCompare(b)));
      expect(q(mine)).toEqual(q(theirs));
      expect(mine.searchParams.get('X-Amz-Expires')).toBe('60');
      expect(mine.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    });
  }
});
