/**
 * An in-memory `AttachmentStore` (lambdas/data/attachment-store.ts) for the suites that walk every route row
 * (input hardening, faults, property, OpenAPI): presigning is local on S3 too, so it only answers URLs of the
 * shape S3's have; `put` stands in for a browser's upload. The attachment suite itself uses the real local S3
 * (test/integration/api-attachments.test.ts).
 */
import { DOWNLOAD_EXPIRY_SECONDS, UPLOAD_EXPIRY_SECONDS, type AttachmentStore, type StoredObject } from '../../lambdas/data/attachment-store.js';

/** The in-memory store and its objects (`put` an object as an upload would). */
export function memoryAttachmentStore(): AttachmentStore & { put(key: string, o: StoredObject): void } {
  const objects = new Map<string, StoredObject>();
  const base = 'https://s3.eu-west-1.amazonaws.com/vigia-test-attachments';
  return {
    put: (key, o) => void objects.set(key, o),
    presignUpload: async (key, contentType) => ({
      url: base,
      fields: { key, 'Content-Type': contentType, Policy: 'e30', 'X-Amz-Signature': '0'.repeat(64) },
      expiresAt: new Date(Date.now() + UPLOAD_EXPIRY_SECONDS * 1000).toISOString(),
    }),
    head: async (key) => objects.get(key),
    presignDownload: async (key) => `${base}/${key}?X-Amz-Expires=${DOWNLOAD_EXPIRY_SECONDS}&X-Amz-Signature=${'0'.repeat(64)}`,
  };
}
