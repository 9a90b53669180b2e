/**
 * Incident attachments (issue 32 point 2; docs/api.md#attachments): the rules of the four routes. The file
 * itself never passes through Lambda: the browser sends it to S3 with the presigned POST answered here, and
 * downloads it with a presigned GET.
 *
 * Rules:
 *  - type on the allow-list (`ATTACHMENT_CONTENT_TYPES`) else 400 ATTACHMENT_TYPE_NOT_ALLOWED; size 1..25 MiB
 *    else 400 ATTACHMENT_TOO_LARGE; both before anything is read or written. The POST policy pins the exact key,
 *    the exact Content-Type and 1..`size` bytes, so S3 refuses anything else (EntityTooLarge, 403 policy).
 *  - the incident must exist in the caller's tenant (keys are tenant-prefixed): else 404 NOT_FOUND, on all four
 *    routes, so another tenant's incident and attachment are indistinguishable from absent ones.
 *  - `commentId`, when given, must be a PUBLIC comment of the incident (the detail read without internal notes):
 *    an attachment is never tied to an internal note, so nothing of a note reaches a customer through attachments
 *    (lambdas/domain/internal-notes.ts). Else 400 VALIDATION_FAILED on `body.commentId`.
 *  - `complete`: HeadObject must find the object with the declared type, else 409 ATTACHMENT_NOT_UPLOADED; the
 *    size stored is the object's (≤ the declared one: the policy's range). Audited `incident.attachment`.
 *  - a download is answered only for an `available` attachment (409 ATTACHMENT_NOT_UPLOADED while pending).
 */
import {
  ATTACHMENT_MAX_BYTES,
  isAllowedAttachmentType,
  type Attachment,
  type AttachmentDownload,
  type AttachmentListQuery,
  type AttachmentUpload,
  type CreateAttachmentBody,
} from '../contract/attachments.js';
import type { Page } from '../contract/schemas.js';
import { attachmentKey, DOWNLOAD_EXPIRY_SECONDS, type AttachmentStore } from '../data/attachment-store.js';
import { auditEntryFor, type AuditRequest } from './audit.js';
import { ApiError } from './errors.js';
import type { Identity } from './identity.js';
import { actorName } from './incidents.js';
import type { AttachmentsPort, IncidentsPort } from './ports.js';

/** What the attachment rules read and write. */
export interface AttachmentDeps {
  attachments: AttachmentsPort;
  incidents: IncidentsPort;
  store: AttachmentStore;
}

/** A new attachment id: `att-` + a UUIDv7 (48-bit ms time first, so ids sort in creation order; RFC 9562 §5.7). */
export function newAttachmentId(now: Date): string {
  const hex = now.getTime().toString(16).padStart(12, '0').slice(-12);
  const rand = globalThis.crypto.getRandomValues(new Uint8Array(10));
  const r = Array.from(rand, (b) => b.toString(16).padStart(2, '0')).join('');
  const variant = ((rand[2]! & 0x3f) | 0x80).toString(16).padStart(2, '0');
  return `att-${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${r.slice(0, 3)}-${variant}${r.slice(6, 8)}-${r.slice(8, 20)}`;
}

const notFound = (id: string): never => {
  throw new ApiError('NOT_FOUND', `incident ${id} not found`);
};

/**
 * `POST /incidents/{id}/attachments`: checks the declared file, stores a pending attachment and answers the
 * presigned POST. @throws ApiError ATTACHMENT_TYPE_NOT_ALLOWED, ATTACHMENT_TOO_LARGE (nothing read or stored),
 * VALIDATION_FAILED (`commentId` not a public comment), NOT_FOUND (no such incident in the tenant)
 */
export async function requestAttachmentUpload(deps: AttachmentDeps, tenantId: string, incidentId: string, body: CreateAttachmentBody, identity: Identity, now: Date): Promise<AttachmentUpload> {
  if (!isAllowedAttachmentType(body.contentType)) {
    throw new ApiError('ATTACHMENT_TYPE_NOT_ALLOWED', `content type ${body.contentType} is not allowed`, { fields: ['contentType'] });
  }
  if (body.size > ATTACHMENT_MAX_BYTES) {
    throw new ApiError('ATTACHMENT_TOO_LARGE', `an attachment is at most ${ATTACHMENT_MAX_BYTES} bytes`, { fields: ['size'], maxBytes: ATTACHMENT_MAX_BYTES });
  }
  if (body.commentId !== undefined) {
    const detail = await deps.incidents.getIncidentDetail(tenantId, incidentId);
    if (!detail) notFound(incidentId);
    if (!detail!.comments.some((c) => c.id === body.commentId && c.visibility !== 'internal')) {
      throw new ApiError('VALIDATION_FAILED', 'commentId is not a comment of this incident', [{ path: 'body.commentId', message: 'not a comment of this incident' }]);
    }
  }
  const attachment: Attachment = {
    attachmentId: newAttachmentId(now),
    tenantId,
    incidentId,
    commentId: body.commentId ?? null,
    fileName: body.fileName,
    contentType: body.contentType,
    size: body.size,
    status: 'pending',
    uploadedBy: actorName(identity),
    uploadedBySub: identity.sub,
    createdAt: now.toISOString(),
    completedAt: null,
  };
  if (!(await deps.attachments.create(attachment))) notFound(incidentId);
  const upload = await deps.store.presignUpload(attachmentKey(tenantId, incidentId, attachment.attachmentId), attachment.contentType, attachment.size);
  return { attachment, upload };
}

/** The attachment, or 404 (no such incident or attachment in the tenant). */
async function found(deps: AttachmentDeps, tenantId: string, incidentId: string, attachmentId: string): Promise<Attachment> {
  const a = await deps.attachments.get(tenantId, incidentId, attachmentId);
  if (!a) throw new ApiError('NOT_FOUND', `attachment ${attachmentId} not found`);
  return a;
}

/**
 * `POST /incidents/{id}/attachments/{attachmentId}/complete`: HeadObject confirms the upload; the attachment
 * becomes `available` with the stored size, audited `incident.attachment`. Idempotent: an available one is
 * answered as it is. @throws ApiError NOT_FOUND, ATTACHMENT_NOT_UPLOADED (no object, or another type)
 */
export async function completeAttachmentUpload(deps: AttachmentDeps, tenantId: string, incidentId: string, attachmentId: string, audit: AuditRequest): Promise<Attachment> {
  const a = await found(deps, tenantId, incidentId, attachmentId);
  if (a.status === 'available') return a;
  const stored = await deps.store.head(attachmentKey(tenantId, incidentId, attachmentId));
  if (!stored || stored.size < 1 || stored.size > a.size || stored.contentType !== a.contentType) {
    throw new ApiError('ATTACHMENT_NOT_UPLOADED', `attachment ${attachmentId} has not been uploaded`, { attachmentId });
  }
  const completedAt = audit.now.toISOString();
  const next: Attachment = { ...a, size: stored.size, status: 'available', completedAt };
  const entry = auditEntryFor(audit, tenantId, 'incident.attachment', { type: 'incident', id: incidentId, name: a.fileName }, {
    after: { attachmentId, fileName: a.fileName, contentType: a.contentType, size: stored.size, ...(a.commentId ? { commentId: a.commentId } : {}) },
  });
  if (!(await deps.attachments.markAvailable(next, completedAt, entry))) {
    // A concurrent `complete` won: answer what it stored.
    return found(deps, tenantId, incidentId, attachmentId);
  }
  return next;
}

/** `GET /incidents/{id}/attachments`: one page, oldest first. @throws ApiError NOT_FOUND, VALIDATION_FAILED (cursor) */
export async function listAttachments(deps: AttachmentDeps, tenantId: string, incidentId: string, query: AttachmentListQuery): Promise<Page<Attachment>> {
  if (!(await deps.incidents.getIncident(tenantId, incidentId))) notFound(incidentId);
  return deps.attachments.list(tenantId, incidentId, { limit: query.limit, cursor: query.cursor });
}

/**
 * `GET /incidents/{id}/attachments/{attachmentId}`: a presigned GET valid {@link DOWNLOAD_EXPIRY_SECONDS} s,
 * answered as a download named `fileName`. @throws ApiError NOT_FOUND, ATTACHMENT_NOT_UPLOADED (pending)
 */
export async function attachmentDownload(deps: AttachmentDeps, tenantId: string, incidentId: string, attachmentId: string, now: Date): Promise<AttachmentDownload> {
  const a = await found(deps, tenantId, incidentId, attachmentId);
  if (a.status !== 'available') throw new ApiError('ATTACHMENT_NOT_UPLOADED', `attachment ${attachmentId} has not been uploaded`, { attachmentId });
  const url = await deps.store.presignDownload(attachmentKey(tenantId, incidentId, attachmentId), a.fileName);
  return { attachment: a, url, expiresAt: new Date(now.getTime() + DOWNLOAD_EXPIRY_SECONDS * 1000).toISOString() };
}
