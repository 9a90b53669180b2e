/**
 * The local S3 (scripts/local/s3.ts: s3rver behind the POST-policy front) with the attachment store of the
 * incidents Lambda (lambdas/data/attachment-store.ts), issue 32 point 2. Uploads go through the presigned POST
 * with a plain `fetch` + `FormData` (a client this project did not write), downloads through the presigned GET.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTACHMENT_MAX_BYTES, attachmentKey, s3AttachmentStore, type AttachmentStore, type PresignedUpload } from '../../lambdas/data/attachment-store.js';
import { checkPostPolicy, LOCAL_S3_CREDENTIALS, startLocalS3, type LocalS3 } from '../../scripts/local/s3.js';

const BUCKET = 'vigia-attachments-test';
const ORIGIN = 'http://localhost:5173';
let s3: LocalS3;
let store: AttachmentStore;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'vigia-s3-'));
  s3 = await startLocalS3({ port: 0, dataDir: dir, buckets: [BUCKET], origins: [ORIGIN] });
  store = s3AttachmentStore({ bucket: BUCKET, region: 'eu-west-1', endpoint: s3.endpoint, credentials: LOCAL_S3_CREDENTIALS });
});

afterAll(async () => {
  await s3?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Uploads `body` with the presigned POST, as a browser form would (fields first, then `file`). */
async function upload(p: PresignedUpload, body: Blob, override: Record<string, string> = {}): Promise<Response> {
  const form = new FormData();
  for (const [k, v] of Object.entries({ ...p.fields, ...override })) form.append(k, v);
  form.append('file', body, 'evidence.txt');
  return fetch(p.url, { method: 'POST', body: form, headers: { Origin: ORIGIN } });
}

describe('attachments on the local S3', () => {
  it('stores an upload sent through the presigned POST; HeadObject sees its size and type; the presigned GET downloads it', async () => {
    const key = attachmentKey('acme', 'inc-1', 'att-1');
    const p = await store.presignUpload(key, 'text/plain', ATTACHMENT_MAX_BYTES);
    const res = await upload(p, new Blob(['firewall log line\n'], { type: 'text/plain' }));
    expect([200, 204]).toContain(res.status);
    expect(await store.head(key)).toEqual({ size: 18, contentType: 'text/plain' });
    const url = await store.presignDownload(key, 'firewall log.txt');
    expect(url).toContain('X-Amz-Expires=60');
    const got = await fetch(url);
    expect(got.status).toBe(200);
    expect(await got.text()).toBe('firewall log line\n');
    expect(got.headers.get('content-disposition')).toMatch(/^attachment; filename="firewall log.txt"/);
  });

  it('HeadObject of a key never uploaded is undefined (complete before upload)', async () => {
    expect(await store.head(attachmentKey('acme', 'inc-1', 'never'))).toBeUndefined();
  });

  it('refuses an upload over the size in the policy (EntityTooLarge) and stores nothing', async () => {
    const key = attachmentKey('acme', 'inc-1', 'att-big');
    const p = await store.presignUpload(key, 'text/plain', 10);
    const res = await upload(p, new Blob(['x'.repeat(11)]));
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('<Code>EntityTooLarge</Code>');
    expect(await store.head(key)).toBeUndefined();
  });

  it('refuses an empty file (content-length-range starts at 1)', async () => {
    const key = attachmentKey('acme', 'inc-1', 'att-empty');
    const res = await upload(await store.presignUpload(key, 'text/plain', 10), new Blob([]));
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('<Code>EntityTooSmall</Code>');
  });

  it('refuses another Content-Type than the signed one, and another key than the signed one', async () => {
    const key = attachmentKey('acme', 'inc-1', 'att-type');
    const p = await store.presignUpload(key, 'text/plain', ATTACHMENT_MAX_BYTES);
    const wrongType = await upload(p, new Blob(['<html>']), { 'Content-Type': 'text/html' });
    expect(wrongType.status).toBe(403);
    expect(await wrongType.text()).toContain('Policy Condition failed');
    const otherKey = attachmentKey('globex', 'inc-9', 'att-x');
    const wrongKey = await upload(p, new Blob(['hi']), { key: otherKey });
    expect(wrongKey.status).toBe(403);
    expect(await store.head(key)).toBeUndefined();
    expect(await store.head(otherKey)).toBeUndefined();
  });

  it('refuses a tampered policy (SignatureDoesNotMatch) and an extra, unsigned field', async () => {
    const key = attachmentKey('acme', 'inc-1', 'att-sig');
    const p = await store.presignUpload(key, 'text/plain', 10);
    const policy = JSON.parse(Buffer.from(p.fields.Policy!, 'base64').toString()) as { conditions: unknown[] };
    policy.conditions = policy.conditions.map((c) => (Array.isArray(c) && c[0] === 'content-length-range' ? ['content-length-range', 1, ATTACHMENT_MAX_BYTES] : c));
    const tampered = await upload(p, new Blob(['x'.repeat(11)]), { Policy: Buffer.from(JSON.stringify(policy)).toString('base64') });
    expect(tampered.status).toBe(403);
    expect(await tampered.text()).toContain('<Code>SignatureDoesNotMatch</Code>');
    const extra = await upload(p, new Blob(['x']), { 'x-amz-meta-owner': 'mallory' });
    expect(extra.status).toBe(403);
    expect(await extra.text()).toContain('Extra input fields');
  });

  it('refuses an expired policy (checkPostPolicy with a clock past the expiration)', async () => {
    const p = await store.presignUpload(attachmentKey('acme', 'inc-1', 'att-exp'), 'text/plain', 10);
    const fields = new Map(Object.entries(p.fields).map(([k, v]) => [k.toLowerCase(), v]));
    expect(checkPostPolicy(fields, 5, BUCKET, LOCAL_S3_CREDENTIALS, new Date())).toBeUndefined();
    expect(checkPostPolicy(fields, 5, BUCKET, LOCAL_S3_CREDENTIALS, new Date(Date.now() + 301_000))).toMatchObject({ status: 403, message: expect.stringContaining('expired') });
  });

  it('a download URL stops working once expired (s3rver checks X-Amz-Expires)', async () => {
    const key = attachmentKey('acme', 'inc-1', 'att-1');
    const url = new URL(await store.presignDownload(key, 'a.txt'));
    // Same signature, but signed as of 2 minutes ago: a 60 s URL is expired (the signature then no longer
    // matches either; S3 and s3rver check the expiry first).
    const date = url.searchParams.get('X-Amz-Date')!;
    const past = new Date(Date.parse(`${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 11)}:${date.slice(11, 13)}:${date.slice(13, 15)}Z`) - 120_000);
    url.searchParams.set('X-Amz-Date', past.toISOString().replace(/[-:]|\.\d+/g, ''));
    const res = await fetch(url);
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('Request has expired');
  });

  it('answers CORS for the portal origin only', async () => {
    const ok = await fetch(`${s3.endpoint}/${BUCKET}`, { method: 'OPTIONS', headers: { Origin: ORIGIN, 'Access-Control-Request-Method': 'POST' } });
    // s3rver answers a matched preflight with `*` where S3 echoes the origin; either lets the portal read.
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).not.toBeNull();
    const other = await fetch(`${s3.endpoint}/${BUCKET}`, { method: 'OPTIONS', headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' } });
    expect(other.status).toBe(403);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });
});
