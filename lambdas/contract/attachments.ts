/**
 * Contract of incident attachments (evidence files: logs, screenshots, `.eml`; issue 32 point 2;
 * docs/api.md#attachments). The limits here are the one source of both the API's checks
 * (lambdas/domain/attachments.ts) and the portal's client-side check (web/src/features/incidents).
 *
 * Flow: `POST /incidents/{id}/attachments` declares the file (name, type, size) and answers a presigned POST the
 * browser sends the file with straight to S3 (no file passes through Lambda; S3 itself refuses another size,
 * type or key); `POST …/{attachmentId}/complete` confirms it (HeadObject) and marks it `available`;
 * `GET …/attachments` lists them (one Query, cursor); `GET …/{attachmentId}` answers a presigned GET valid 60 s.
 */
import * as z from 'zod';
import { Cursor, IncidentId, Limit, TenantId } from './schemas.js';

/** Largest attachment, bytes: 25 MiB = 26,214,400 (issue 32 point 2). */
export const ATTACHMENT_MAX_BYTES = 26_214_400;

/**
 * The content types an attachment may have (an allow-list): plain text and CSV logs, JSON exports, PDF reports,
 * PNG/JPEG screenshots, `.eml` messages (`message/rfc822`) and ZIP archives of several logs. Anything else
 * (HTML, SVG, executables…) answers 400 ATTACHMENT_TYPE_NOT_ALLOWED: a file the browser could render as active
 * content is never served from the bucket.
 */
export const ATTACHMENT_CONTENT_TYPES = [
  'text/plain',
  'text/csv',
  'application/json',
  'application/pdf',
  'image/png',
  'image/jpeg',
  'message/rfc822',
  'application/zip',
] as const;
export type AttachmentContentType = (typeof ATTACHMENT_CONTENT_TYPES)[number];

/** Whether `t` is on the allow-list. */
export function isAllowedAttachmentType(t: string): t is AttachmentContentType {
  return (ATTACHMENT_CONTENT_TYPES as readonly string[]).includes(t);
}

/**
 * The type of a file name's extension when the browser gives none (an `.eml` or `.log` often has an empty
 * `File.type`); undefined for an unknown extension.
 */
export function attachmentTypeOfName(fileName: string): AttachmentContentType | undefined {
  const ext = /\.([a-z0-9]+)$/i.exec(fileName)?.[1]?.toLowerCase();
  const byExt: Record<string, AttachmentContentType> = {
    txt: 'text/plain', log: 'text/plain', csv: 'text/csv', json: 'application/json', pdf: 'application/pdf',
    png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', eml: 'message/rfc822', zip: 'application/zip',
  };
  return ext ? byExt[ext] : undefined;
}

/** An attachment id: `att-` and a UUID (random; never reused, so an object key is written once). */
export const AttachmentId = z.string().regex(/^att-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'must look like att-<uuid>');

export const ATTACHMENT_STATUSES = ['pending', 'available'] as const;

/** An attachment's metadata (the bytes are in the bucket under `tenants/<t>/incidents/<id>/<attachmentId>`). */
export const Attachment = z.object({
  attachmentId: AttachmentId,
  tenantId: TenantId,
  incidentId: IncidentId,
  /** The public comment it belongs to, or null (the incident itself). Never an internal note. */
  commentId: z.string().nullable(),
  fileName: z.string(),
  contentType: z.enum(ATTACHMENT_CONTENT_TYPES),
  /** Bytes. */
  size: z.number().int().min(1).max(ATTACHMENT_MAX_BYTES),
  /** `pending` until `complete` confirms the object in the bucket; only `available` ones can be downloaded. */
  status: z.enum(ATTACHMENT_STATUSES),
  /** Who uploaded it (e-mail or name, for display) and their Cognito `sub`. */
  uploadedBy: z.string(),
  uploadedBySub: z.string(),
  createdAt: z.iso.datetime(),
  /** When `complete` confirmed it; null while pending. */
  completedAt: z.iso.datetime().nullable(),
});
export type Attachment = z.infer<typeof Attachment>;

/**
 * Body of `POST /incidents/{id}/attachments`. `contentType` and `size` are checked by the domain (not the schema)
 * so that they answer their own codes: ATTACHMENT_TYPE_NOT_ALLOWED, ATTACHMENT_TOO_LARGE.
 */
export const CreateAttachmentBody = z.strictObject({
  /** Shown and used as the download's name; no path separators or control characters. */
  fileName: z
    .string()
    .trim()
    .min(1)
    .max(255)
    // eslint-disable-next-line no-control-regex
    .regex(/^[^/\\\u0000-\u001f\u007f]+$/, 'no path separators or control characters'),
  contentType: z.string().min(1).max(255),
  /** Bytes, exactly the file's size (the presigned POST admits 1..size bytes). */
  size: z.number().int().min(1),
  /** A public comment of the incident the file belongs to. */
  commentId: z.string().uuid().optional(),
});
export type CreateAttachmentBody = z.infer<typeof CreateAttachmentBody>;

/** Answer of `POST /incidents/{id}/attachments`: the pending attachment and the presigned POST to send the file with. */
export const AttachmentUpload = z.object({
  attachment: Attachment,
  upload: z.object({
    /** The form's action (the bucket's endpoint). */
    url: z.string(),
    /** Fields to send before `file`, as they are (key, Content-Type, policy, signature…). */
    fields: z.record(z.string(), z.string()),
    /** When the policy expires (ISO 8601; 300 s after issue). */
    expiresAt: z.iso.datetime(),
  }),
});
export type AttachmentUpload = z.infer<typeof AttachmentUpload>;

/** Answer of `GET /incidents/{id}/attachments/{attachmentId}`: a presigned GET (a download named `fileName`). */
export const AttachmentDownload = z.object({
  attachment: Attachment,
  url: z.string(),
  /** When the URL stops working (ISO 8601; 60 s after issue). */
  expiresAt: z.iso.datetime(),
});
export type AttachmentDownload = z.infer<typeof AttachmentDownload>;

/** A page of an incident's attachments, oldest first. */
export const AttachmentPage = z.object({ items: z.array(Attachment), nextCursor: Cursor.nullable() });

/** `GET /incidents/{id}/attachments` query. */
export const AttachmentListQuery = z.strictObject({ tenant: TenantId.optional(), limit: Limit, cursor: Cursor.optional() });
export type AttachmentListQuery = z.infer<typeof AttachmentListQuery>;

export const AttachmentParams = z.strictObject({ id: IncidentId, attachmentId: AttachmentId });
