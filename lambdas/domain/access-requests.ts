/**
 * Access requests (docs/api.md#access-requests): a user who signs in while in no group — self-registered, or
 * federated through a provider bound to no tenant — is waiting for staff. The pre token generation trigger
 * records the request at that sign-in (`accessRequestOf`, with its `user.access_request` audit entry); staff list
 * the pending ones ("Solicitudes de acceso", one Query per page) and either grant one (the user is added to the
 * chosen tenant exactly as `inviteTenantUser` adds an existing user: Cognito group, then the tenant's member
 * ledger and `userCount` with the audit entry) or dismiss it. A request is decided once: a second decision is
 * 409 ACCESS_REQUEST_DECIDED. Storage: `AccessRequestsPort` (lambdas/data/access-requests.ts).
 */
import type { AccessRequest, AccessRequestStatus, Page } from '../contract/schemas.js';
import { auditEntryFor, STAFF_AUDIT_TENANT, type AuditRequest } from './audit.js';
import { ApiError } from './errors.js';
import { getTenant, type AdminPorts } from './admin.js';
import { actorName } from './incidents.js';
import type { AccessRequestsPort } from './ports.js';

export type { AccessRequestsPort };

/** What the use cases need: the administration ports and the access requests. */
export interface AccessRequestPorts extends AdminPorts {
  accessRequests: AccessRequestsPort;
}

/** The e-mail's domain, lower-cased (`null` without a usable address). */
export function emailDomainOf(email: string | null | undefined): string | null {
  const at = email?.lastIndexOf('@') ?? -1;
  return email && at > 0 && at < email.length - 1 ? email.slice(at + 1).toLowerCase() : null;
}

/**
 * The pending request of a sign-in by `username` (its `sub`, its `email` attribute and whether it is verified, the
 * identity provider it came through or null) at `now`.
 */
export function accessRequestOf(user: { username: string; sub: string; email: string | null; emailVerified: boolean; provider: string | null }, now: Date): AccessRequest {
  return {
    id: user.username,
    sub: user.sub,
    email: user.email,
    emailVerified: user.emailVerified,
    provider: user.provider,
    emailDomain: emailDomainOf(user.email),
    requestedAt: now.toISOString(),
    status: 'pending',
    tenantId: null,
    decidedAt: null,
    decidedBy: null,
  };
}

/** A page of requests in `status` (default pending), newest first. @throws ApiError VALIDATION_FAILED (cursor) */
export function listAccessRequests(port: AccessRequestsPort, q: { status?: AccessRequestStatus | undefined; limit: number; cursor?: string | undefined }): Promise<Page<AccessRequest>> {
  return port.list(q.status ?? 'pending', { limit: q.limit, cursor: q.cursor });
}

/** The pending request `id`. @throws ApiError NOT_FOUND, ACCESS_REQUEST_DECIDED */
async function pendingRequest(port: AccessRequestsPort, id: string): Promise<AccessRequest> {
  const r = await port.get(id);
  if (!r) throw new ApiError('NOT_FOUND', 'no such access request');
  if (r.status !== 'pending') throw new ApiError('ACCESS_REQUEST_DECIDED', `the access request was already ${r.status}`, { status: r.status });
  return r;
}

/** The user's name as the audit log shows it: its e-mail, else its user name. */
const targetOf = (r: AccessRequest) => ({ type: 'user', id: r.id, ...(r.email ? { name: r.email } : {}) });

/**
 * Grants the pending request `id`: the user is added to the registered tenant's Cognito group (as an invitation of an
 * existing user does), then the request becomes `granted` with the member's count and the `access_request.grant`
 * entry (filed under the tenant, so its customers see who joined) in ONE transaction. If another decision won the
 * race, the group membership this call added is taken back and the answer is 409 (nothing half-applied).
 * @throws ApiError NOT_FOUND (request, tenant or user), RESERVED_NAME (tenant `admin`), ACCESS_REQUEST_DECIDED
 */
export async function grantAccessRequest(p: AccessRequestPorts, id: string, tenantId: string, req: AuditRequest): Promise<AccessRequest> {
  const request = await pendingRequest(p.accessRequests, id);
  await getTenant(p.tenants, tenantId);
  const user = await p.users.getUser(id);
  if (!user) throw new ApiError('NOT_FOUND', 'the user of the access request no longer exists');
  const wasMember = (await p.users.groupsOf(id)).includes(tenantId);
  if (!wasMember) await p.users.addToGroup(id, tenantId);
  const decided: AccessRequest = { ...request, status: 'granted', tenantId, decidedAt: req.now.toISOString(), decidedBy: actorName(req.identity) };
  const email = user.email ?? request.email;
  const audit = auditEntryFor(req, tenantId, 'access_request.grant', { ...targetOf(request), ...(email ? { name: email } : {}) }, { after: { status: 'granted', group: tenantId, ...(email ? { email } : {}) } });
  if (!(await p.accessRequests.decide(decided, [audit]))) {
    if (!wasMember) await p.users.removeFromGroup(id, tenantId);
    const now = await p.accessRequests.get(id);
    throw new ApiError('ACCESS_REQUEST_DECIDED', `the access request was already ${now?.status ?? 'decided'}`, { status: now?.status ?? null });
  }
  return decided;
}

/**
 * Dismisses the pending request `id` (the user stays in no group; a later sign-in raises no new request), with its
 * `access_request.dismiss` entry under the staff log, in ONE transaction. @throws ApiError NOT_FOUND, ACCESS_REQUEST_DECIDED
 */
export async function dismissAccessRequest(p: Pick<AccessRequestPorts, 'accessRequests'>, id: string, req: AuditRequest): Promise<AccessRequest> {
  const request = await pendingRequest(p.accessRequests, id);
  const decided: AccessRequest = { ...request, status: 'dismissed', decidedAt: req.now.toISOString(), decidedBy: actorName(req.identity) };
  const audit = auditEntryFor(req, STAFF_AUDIT_TENANT, 'access_request.dismiss', targetOf(request), { after: { status: 'dismissed' } });
  if (!(await p.accessRequests.decide(decided, [audit]))) {
    const now = await p.accessRequests.get(id);
    throw new ApiError('ACCESS_REQUEST_DECIDED', `the access request was already ${now?.status ?? 'decided'}`, { status: now?.status ?? null });
  }
  return decided;
}
