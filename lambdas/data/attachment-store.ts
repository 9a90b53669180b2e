/**
 * The attachments bucket as the incidents Lambda uses it (issue 32 point 2; docs/api.md#attachments): a
 * presigned POST for the browser's upload straight to S3 (no file passes through Lambda), HeadObject to
 * confirm an upload, and a short-lived presigned GET for the download. Objects live under
 * `tenants/<tenantId>/incidents/<incidentId>/<attachmentId>` ({@link attachmentKey}), the only prefix the
 * function's role may read or write (infra/api-stack.ts).
 *
 * No AWS SDK in the bundle (test/infra/lambda-bundles.test.ts; docs/decisions/aws-lite-dynamodb-client.md):
 *  - HeadObject is one `HEAD /<key>` request signed and sent by `@aws-lite/client` (published on the
 *    `vigia:aws-call` channel like every AWS call, so the offline stack and the tests check it against the role);
 *  - the presigned GET is SigV4 query-string authentication computed by `aws4` (aws-lite's own signer, a direct
 *    dependency): https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-query-string-auth.html;
 *  - the presigned POST is the policy document and its SigV4 signature, {@link presignPost}: the documented
 *    HMAC chain (no maintained library signs POST policies without the SDK),
 *    https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-HTTPPOSTConstructPolicy.html and
 *    https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-post-example.html.
 * Both signatures are checked against the AWS SDK's own presigners with a fixed clock and key
 * (test/unit/lambdas/attachment-signing.test.ts) and against the real local S3 (s3rver, whose front checks POST
 * policies: scripts/local/s3.ts; test/integration/api-attachments.test.ts).
 *
 * Credentials: the function role's (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`, read by
 * aws-lite); a session token is carried in the POST form (`X-Amz-Security-Token`, in the policy) and in the GET's
 * query, as S3 requires for temporary credentials. Offline: the local S3's key (`LOCAL_S3_CREDENTIALS`).
 * Addressing: virtual-hosted `https://<bucket>.s3.<region>.amazonaws.com/<key>` in AWS; path-style
 * `<endpoint>/<bucket>/<key>` on an endpoint override (the local S3).
 */
import { createHmac } from 'node:crypto';
import aws4 from 'aws4';
import { lazyAwsLite, type AwsCredentials, type AwsLiteClient } from './table/aws-lite.js';

/** Largest attachment (bytes): 25 MiB = 26,214,400 bytes; declared in the contract (lambdas/contract/attachments.ts). */
export { ATTACHMENT_MAX_BYTES } from '../contract/attachments.js';
/** Lifetime of an upload's presigned POST (seconds): long enough to send 25 MiB on a slow link, short enough to leak little. */
export const UPLOAD_EXPIRY_SECONDS = 300;
/** Lifetime of a download's presigned GET (seconds; issue 32 point 2: short-lived). */
export const DOWNLOAD_EXPIRY_SECONDS = 60;
/**
 * The only S3 actions the incidents role is granted, on `<bucket>/tenants/*` (infra/api-stack.ts): PutObject
 * authorizes the presigned POST, GetObject the presigned GET and HeadObject.
 */
export const ATTACHMENT_OBJECT_ACTIONS = ['s3:PutObject', 's3:GetObject'] as const;

/** The attachments bucket of the offline stack (scripts/local/stack.ts); a deployed stage's is `vigia-<stage>-attachments-<account>-<region>`. */
export const LOCAL_ATTACHMENTS_BUCKET = 'vigia-local-attachments';

/** The object key of an attachment: `tenants/<tenantId>/incidents/<incidentId>/<attachmentId>`. */
export function attachmentKey(tenantId: string, incidentId: string, attachmentId: string): string {
  return `tenants/${tenantId}/incidents/${incidentId}/${attachmentId}`;
}

/** A presigned POST: the form's action URL and the fields to send before `file`. */
export interface PresignedUpload {
  url: string;
  fields: Record<string, string>;
  /** When the policy expires (ISO 8601). */
  expiresAt: string;
}

/** What HeadObject says of a stored object. */
export interface StoredObject {
  /** Bytes (`Content-Length`). */
  size: number;
  contentType: string | undefined;
}

/** The bucket operations of attachments. */
export interface AttachmentStore {
  /**
   * A presigned POST for exactly `key`, exactly `contentType`, a body of 1..`maxBytes` bytes, valid
   * {@link UPLOAD_EXPIRY_SECONDS} seconds.
   */
  presignUpload(key: string, contentType: string, maxBytes: number): Promise<PresignedUpload>;
  /** The object's size and type, or undefined when nothing is stored under `key`. @throws the aws-lite error of any other answer */
  head(key: string): Promise<StoredObject | undefined>;
  /** A presigned GET valid {@link DOWNLOAD_EXPIRY_SECONDS} seconds, answered as a download named `fileName`. */
  presignDownload(key: string, fileName: string): Promise<string>;
}

/** Where the store is and how it signs. */
export interface AttachmentStoreOptions {
  bucket: string;
  region: string;
  /** Offline: the local S3 endpoint (path-style). */
  endpoint?: string | undefined;
  /** Default: the function role's, from the environment (aws-lite). */
  credentials?: AwsCredentials | undefined;
  /** Clock of the signatures and the policy's expiration (tests). */
  now?: () => Date;
  /** The aws-lite client to send HeadObject with (tests). */
  connect?: (() => Promise<AwsLiteClient & { credentials?: AwsCredentials }>) | undefined;
}

/** `Content-Disposition: attachment` with the name in RFC 6266/5987 form (ASCII fallback plus UTF-8). */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/** `20261129T064200Z`: the SigV4 time stamp (ISO 8601 basic, UTC, seconds). */
const amzDate = (d: Date): string => d.toISOString().replace(/[:-]|\.\d{3}/g, '');

const hmac = (key: Buffer | string, data: string): Buffer => createHmac('sha256', key).update(data, 'utf8').digest();

/** Inputs of {@link presignPost}. */
export interface PostPolicyInput {
  url: string;
  bucket: string;
  key: string;
  contentType: string;
  /** Largest body S3 accepts (`content-length-range` 1..maxBytes), bytes. */
  maxBytes: number;
  region: string;
  credentials: AwsCredentials;
  now: Date;
  /** Seconds the policy is valid. */
  expiresIn: number;
}

/**
 * A presigned POST (browser-based upload, SigV4) as AWS documents it
 * (https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-HTTPPOSTConstructPolicy.html, "Calculating a signature":
 * https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-authentication-HTTPPOST.html):
 *  1. the policy: `expiration` (ISO 8601) and `conditions` — `["eq","$key",key]`, `["eq","$Content-Type",type]`,
 *     `["content-length-range",1,maxBytes]`, then every other form field exactly (`Content-Type`, `bucket`,
 *     `X-Amz-Algorithm`, `X-Amz-Credential`, `X-Amz-Date`, `X-Amz-Security-Token` with temporary credentials, `key`);
 *  2. StringToSign = base64(UTF-8 JSON of the policy);
 *  3. signing key = HMAC(HMAC(HMAC(HMAC("AWS4"+secret, yyyymmdd), region), "s3"), "aws4_request");
 *  4. signature = hex(HMAC-SHA256(signing key, StringToSign)).
 * Fields, policy and signature are byte for byte those `@aws-sdk/s3-presigned-post` answers for the same
 * conditions, key and clock (test/unit/lambdas/attachment-signing.test.ts). Pure: no request is made.
 */
export function presignPost(i: PostPolicyInput): PresignedUpload {
  const date = amzDate(i.now);
  const day = date.slice(0, 8);
  const credential = `${i.credentials.accessKeyId}/${day}/${i.region}/s3/aws4_request`;
  const signed: Record<string, string> = {
    'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
    'X-Amz-Credential': credential,
    'X-Amz-Date': date,
    ...(i.credentials.sessionToken ? { 'X-Amz-Security-Token': i.credentials.sessionToken } : {}),
  };
  // Seconds precision, as the policy's `expiration` is usually written (and as the AWS SDK writes it).
  const expiresAt = new Date(i.now.getTime() + i.expiresIn * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const fields: Record<string, string> = { 'Content-Type': i.contentType, bucket: i.bucket, ...signed };
  const policy = {
    expiration: expiresAt,
    // Every form field but `file`, `Policy` and `X-Amz-Signature` is named by a condition (S3 refuses extra fields).
    conditions: [
      ['eq', '$key', i.key],
      ['eq', '$Content-Type', i.contentType],
      ['content-length-range', 1, i.maxBytes],
      ...Object.entries(fields).map(([k, v]) => ({ [k]: v })),
      { key: i.key },
    ],
  };
  const policyB64 = Buffer.from(JSON.stringify(policy), 'utf8').toString('base64');
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${i.credentials.secretAccessKey}`, day), i.region), 's3'), 'aws4_request');
  const signature = createHmac('sha256', signingKey).update(policyB64, 'utf8').digest('hex');
  return {
    url: i.url,
    fields: { ...fields, key: i.key, Policy: policyB64, 'X-Amz-Signature': signature },
    expiresAt,
  };
}

/** Where requests for `bucket` go: the host and the path prefix before the key. */
function addressing(opts: AttachmentStoreOptions): { origin: string; host: string; prefix: string } {
  if (opts.endpoint) {
    const u = new URL(opts.endpoint);
    return { origin: u.origin, host: u.host, prefix: `/${opts.bucket}` };
  }
  const host = `${opts.bucket}.s3.${opts.region}.amazonaws.com`;
  return { origin: `https://${host}`, host, prefix: '' };
}

/** An object key as a URL path (each segment percent-encoded, `/` kept). */
const keyPath = (key: string): string => key.split('/').map(encodeURIComponent).join('/');

/** The S3-backed {@link AttachmentStore} (see module doc). */
export function s3AttachmentStore(opts: AttachmentStoreOptions): AttachmentStore {
  const at = addressing(opts);
  const now = opts.now ?? (() => new Date());
  const connect =
    opts.connect ??
    (lazyAwsLite({ region: opts.region, endpoint: at.origin, ...(opts.credentials ?? {}) }) as () => Promise<AwsLiteClient & { credentials?: AwsCredentials }>);
  /** The signing credentials: the given ones, else those aws-lite found (the role's). */
  const credentials = async (): Promise<AwsCredentials> => {
    if (opts.credentials) return opts.credentials;
    const c = (await connect()).credentials;
    if (!c?.accessKeyId || !c.secretAccessKey) throw new Error('attachments: no AWS credentials to sign with');
    return c;
  };
  return {
    async presignUpload(key, contentType, maxBytes) {
      return presignPost({
        url: `${at.origin}${at.prefix}`,
        bucket: opts.bucket,
        key,
        contentType,
        maxBytes,
        region: opts.region,
        credentials: await credentials(),
        now: now(),
        expiresIn: UPLOAD_EXPIRY_SECONDS,
      });
    },
    async head(key) {
      const aws = await connect();
      try {
        const res = (await aws({ service: 's3', method: 'HEAD', path: `${at.prefix}/${keyPath(key)}`, headers: {}, payload: '', awsjson: false } as Parameters<AwsLiteClient>[0])) as {
          headers?: Record<string, string>;
        };
        const h = Object.fromEntries(Object.entries(res.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
        return { size: Number(h['content-length'] ?? 0), contentType: h['content-type'] };
      } catch (e) {
        if ((e as { statusCode?: number }).statusCode === 404) return undefined;
        throw e;
      }
    },
    async presignDownload(key, fileName) {
      const c = await credentials();
      // `X-Amz-Content-Sha256: UNSIGNED-PAYLOAD` as the AWS SDK's presigner sends it (a GET has no payload to hash).
      const query = new URLSearchParams({
        'X-Amz-Content-Sha256': 'UNSIGNED-PAYLOAD',
        'X-Amz-Date': amzDate(now()),
        'X-Amz-Expires': String(DOWNLOAD_EXPIRY_SECONDS),
        'response-content-disposition': contentDisposition(fileName),
      });
      const signed = aws4.sign(
        { host: at.host, path: `${at.prefix}/${keyPath(key)}?${query.toString()}`, method: 'GET', service: 's3', region: opts.region, signQuery: true },
        { accessKeyId: c.accessKeyId, secretAccessKey: c.secretAccessKey, ...(c.sessionToken ? { sessionToken: c.sessionToken } : {}) },
      );
      return `${at.origin}${signed.path}`;
    },
  };
}
