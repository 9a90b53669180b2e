/**
 * Internal work notes (docs/api.md#internal-notes; issue 31 point 3): comments on an incident that only the
 * SOC writes and reads. The rules:
 *  - written with `POST /incidents/{id}/comments` and `visibility: 'internal'`, by a member of `admin` with TOTP
 *    only: anyone else gets 403 (FORBIDDEN, `details.fields: ['visibility']`; an `admin` member without TOTP
 *    MFA_REQUIRED) before anything is read or written;
 *  - read only by staff with TOTP, in `GET /incidents/{id}` (`comments`, marked `visibility: 'internal'`);
 *    every other read of the incident never loads them (they live in a partition of their own,
 *    `keys.incidentNotesPk`);
 *  - no activity event is written for a note, so no feed entry, bell, e-mail, webhook or digest carries one;
 *    a note is not in the title search index, nor in any export; its audit entry (action `incident.comment`,
 *    `after: { tenantId, commentId, visibility: 'internal' }`) is stored under `STAFF_AUDIT_TENANT`, a log no
 *    customer reads.
 */
import type { IncidentComment, IncidentDetail } from '../contract/schemas.js';
import { auditEntryFor, STAFF_AUDIT_TENANT } from './audit.js';
import { ApiError } from './errors.js';
import { assertStaffMfa, type Identity } from './identity.js';
import { actorName, newComment, type CommentWriter } from './incidents.js';
import type { IncidentsPort } from './ports.js';

/** Whether the caller reads internal notes: a member of `admin` whose token carries TOTP. */
export function readsInternalNotes(identity: Identity): boolean {
  return identity.isAdmin && identity.mfa;
}

/**
 * The write rule of a note: staff with TOTP.
 * @throws ApiError FORBIDDEN (not staff; `details.fields: ['visibility']`), MFA_REQUIRED (staff without TOTP)
 */
export function assertMayWriteInternalNote(identity: Identity): void {
  if (!identity.isAdmin) throw new ApiError('FORBIDDEN', 'only the SOC (staff) may write internal notes', { fields: ['visibility'] });
  assertStaffMfa(identity);
}

/**
 * `POST /incidents/{id}/comments` with `visibility: 'internal'`: the note (author = the caller), stored with its
 * audit entry (under `STAFF_AUDIT_TENANT`) in one transaction, no activity event.
 * @throws ApiError FORBIDDEN, MFA_REQUIRED (see `assertMayWriteInternalNote`), NOT_FOUND (no such incident)
 */
export const addInternalNote: CommentWriter = async (port, tenantId, id, body, identity, now, audit) => {
  assertMayWriteInternalNote(identity);
  const note: IncidentComment = { ...newComment(actorName(identity), body, now), authorSub: identity.sub, visibility: 'internal' };
  const entry = audit
    ? auditEntryFor(audit, STAFF_AUDIT_TENANT, 'incident.comment', { type: 'incident', id }, { after: { tenantId, commentId: note.id, visibility: 'internal' } })
    : undefined;
  if (!(await port.addInternalNote(tenantId, id, note, entry))) throw new ApiError('NOT_FOUND', `incident ${id} not found`);
  return note;
};

/**
 * `GET /incidents/{id}`: the incident with its comments and history; for staff with TOTP its internal notes
 * too (one more Query), for everyone else never.
 * @throws ApiError NOT_FOUND
 */
export async function incidentDetailFor(port: IncidentsPort, tenantId: string, id: string, identity: Identity): Promise<IncidentDetail> {
  const d = await port.getIncidentDetail(tenantId, id, { internalNotes: readsInternalNotes(identity) });
  if (!d) throw new ApiError('NOT_FOUND', `incident ${id} not found`);
  return d;
}
