/**
 * The attachments bucket as the incidents Lambda uses it (issue 32 point 2): a
 * presigned POST for the browser's upload straight to S3 (no file passes through Lambda), HeadObject to
 * confirm an upload, and a short-lived presigned GET for the download. Objects live under
 * `tenants/<tenantId>/incidents/<incidentId>/<attachmentId>` ({@link attachmentKey}), the only prefix the
 * function's role may read or write.
 *
 * Over the AWS SDK v3 S3 client with `@aws-sdk/s3-presigned-post` and `@aws-sdk/s3-request-presigner`
 * (signing is local: presigning makes no request). Offline the endpoint is the local S3
 * (scripts/local/s3.ts, path-style addressing).
 */
import { GetObjectCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';

/** Largest attachment (bytes): 25 MiB = 26,214,400 bytes (issue 32 point 2). */
export const ATTACHMENT_MAX_BYTES = 26_214_400;
/** Lifetime of an upload's presigned POST (seconds): long enough to send 25 MiB on a slow link, short enough to leak little. */
export const UPLOAD_EXPIRY_SECONDS = 300;
/** Lifetime of a download's presigned GET (seconds). */
export const DOWNLOAD_EXPIRY_SECONDS = 60;

/** The attachments bucket of the offline stack (scripts/local/stack.ts); a deployed stage's is named by CloudFormation. */
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
  /** The object's size and type, or undefined when nothing is stored under `key`. */
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
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string } | undefined;
  /** Clock for the policy's expiration (tests). */
  now?: () => Date;
}

/** `Content-Disposition: attachment` with the name in RFC 6266/5987 form (ASCII fallback plus UTF-8). */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/** The S3-backed {@link AttachmentStore}. */
export function s3AttachmentStore(opts: AttachmentStoreOptions): AttachmentStore {
  const client = new S3Client({
    region: opts.region,
    ...(opts.endpoint ? { endpoint: opts.endpoint, forcePathStyle: true } : {}),
    ...(opts.credentials ? { credentials: opts.credentials } : {}),
  });
  const now = opts.now ?? (() => new Date());
  return {
    async presignUpload(key, contentType, maxBytes) {
      const { url, fields } = await createPresignedPost(client, {
        Bucket: opts.bucket,
        Key: key,
        Conditions: [
          ['eq', '$key', key],
          ['eq', '$Content-Type', contentType],
          ['content-length-range', 1, maxBytes],
        ],
        Fields: { 'Content-Type': contentType },
        Expires: UPLOAD_EXPIRY_SECONDS,
      });
      return { url, fields, expiresAt: new Date(now().getTime() + UPLOAD_EXPIRY_SECONDS * 1000).toISOString() };
    },
    async head(key) {
      try {
        const r = await client.send(new HeadObjectCommand({ Bucket: opts.bucket, Key: key }));
        return { size: r.ContentLength ?? 0, contentType: r.ContentType };
      } catch (e) {
        const err = e as { name?: string; $metadata?: { httpStatusCode?: number } };
        if (err.name === 'NotFound' || err.$metadata?.httpStatusCode === 404) return undefined;
        throw e;
      }
    },
    presignDownload(key, fileName) {
      return getSignedUrl(client, new GetObjectCommand({ Bucket: opts.bucket, Key: key, ResponseContentDisposition: contentDisposition(fileName) }), {
        expiresIn: DOWNLOAD_EXPIRY_SECONDS,
      });
    },
  };
}
