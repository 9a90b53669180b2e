/**
 * Tenant and user administration (staff only by the route table; docs/api.md#administration). Tenants are
 * registry items plus a Cognito group of the same name; users are Cognito users, members of tenant groups
 * and/or the staff group `admin`.
 *
 * Audit (docs/api.md#audit-log): a tenant change is stored with its audit entry in one transaction
 * (`TenantAdminPort`). A user change is a Cognito call, not a DynamoDB write, so there is no shared
 * transaction: its entry is written right after the Cognito call succeeded (a failure in between leaves
 * the change without its entry; the request then fails with 5xx and may be repeated: every user action
 * here is idempotent). Entries of staff grants are stored under `STAFF_AUDIT_TENANT`; entries about a
 * tenant's user under each registered tenant the user belongs to, so that tenant's customers see them.
 *
 * Used by the `admin` Lambda and by the command-line scripts (scripts/platform/create-tenant.ts,
 * invite-user.ts), which pass an operator identity (`cli:<OS user>`) and the same ports.
 */
import { ADMIN_GROUP } from '../contract/routes.js';
import type { AuditEntry, CreateTenantBody, Page, PoolUser, PoolUserList, Tenant, TenantSummary, UpdateTenantBody } from '../contract/schemas.js';
import { auditEntryFor, changedFields, STAFF_AUDIT_TENANT, type AuditRequest } from './audit.js';
import { ApiError } from './errors.js';
import { assertTenantIdNotReserved } from './reserved-names.js';
import type { AuditPort, TenantAdminPort, TenantsPort, UsersPort } from './ports.js';
import type { SessionRevocationPort } from './session-revocation.js';

/** What the administration use cases need. */
export interface AdminPorts {
  tenants: TenantsPort;
  tenantAdmin: TenantAdminPort;
  audit: AuditPort;
  users: UsersPort;
}

/**
 * The ports of the acts that take access away (disable, remove from a tenant, revoke staff): `AdminPorts`
 * plus the session revocation markers, which end the user's open sessions (docs/api.md#session-revocation).
 */
export interface UserAccessPorts extends AdminPorts {
  sessions: Pick<SessionRevocationPort, 'revoke'>;
}

/**
 * Ends `user`'s open sessions after the Cognito call that took access away: the revocation marker, stored in
 * ONE transaction with the act's `audit` entries (both or neither: a 503 leaves the table as it was, and the
 * act may be repeated). Its time is the later of the request clock and the wall clock, so a token refreshed
 * while the Cognito call ran (it still carried the old groups) is refused too. Rule:
 * lambdas/domain/session-revocation.ts.
 */
async function endSessions(p: UserAccessPorts, user: PoolUser, req: AuditRequest, audit: AuditEntry[]): Promise<void> {
  await p.sessions.revoke(user.sub ?? user.username, new Date(Math.max(req.now.getTime(), Date.now())), audit);
}

/**
 * The revocation marker alone, stored BEFORE a Cognito call that takes a group away: if that call succeeds
 * and the marker-and-audit write after it fails (503), a retry answers 404 (no longer a member) and would
 * never write the marker, leaving the old token valid up to its 60 minutes. Marking first closes that gap;
 * if the Cognito call fails instead, the user merely signs in again (new tokens pass).
 */
async function markBeforeRemoval(p: UserAccessPorts, user: PoolUser, req: AuditRequest): Promise<void> {
  await endSessions(p, user, req, []);
}

/**
 * The tenant, or 404 NOT_FOUND; the staff group's name is never a tenant, even if registered before it was
 * reserved (so the tenant-user routes cannot change staff; docs/api.md#reserved-names).
 * @throws ApiError RESERVED_NAME, NOT_FOUND
 */
export async function getTenant(tenants: TenantsPort, id: string): Promise<Tenant> {
  assertTenantIdNotReserved(id);
  const t = await tenants.getTenant(id);
  if (!t) throw new ApiError('NOT_FOUND', 'no such tenant');
  return t;
}

/**
 * A page of the registered tenants (ordered by id) with their user and device counts, both kept at write time
 * (`userCount` by `inviteTenantUser` / `removeTenantUser` through `TenantAdminPort`, `deviceCount` by the
 * aggregates; docs/data-model.md#tenant-counts): ONE Query and ONE BatchGetItem per page whatever the number of
 * tenants, and no Cognito call. @throws ApiError VALIDATION_FAILED (cursor)
 */
export async function listTenantSummaries(tenants: Pick<TenantsPort, 'listTenantSummaries'>, query: { limit: number; cursor?: string | undefined }): Promise<Page<TenantSummary>> {
  return tenants.listTenantSummaries({ limit: query.limit, cursor: query.cursor });
}

/**
 * Creates the tenant's Cognito group (idempotent) and registers the tenant with its audit entry.
 * @throws ApiError RESERVED_NAME for the staff group's name (nothing created; docs/api.md#reserved-names),
 *   VERSION_CONFLICT when the tenant id is registered already
 */
export async function createTenant(p: AdminPorts, body: CreateTenantBody, req: AuditRequest): Promise<Tenant> {
  assertTenantIdNotReserved(body.tenantId);
  const tenant: Tenant = { id: body.tenantId, name: body.name.trim() };
  await p.users.ensureGroup(tenant.id, `Vigía tenant ${tenant.name}`);
  const audit = auditEntryFor(req, tenant.id, 'tenant.create', { type: 'tenant', id: tenant.id }, { after: { ...tenant } });
  if (!(await p.tenantAdmin.create(tenant, audit))) throw new ApiError('VERSION_CONFLICT', 'the tenant exists already');
  return tenant;
}

/** Renames a tenant or changes its contract targets, with its audit entry (changed fields only). @throws ApiError NOT_FOUND */
export async function updateTenant(p: AdminPorts, id: string, body: UpdateTenantBody, req: AuditRequest): Promise<Tenant> {
  const before = await getTenant(p.tenants, id);
  const after: Tenant = {
    ...before,
    ...(body.name !== undefined ? { name: body.name.trim() } : {}),
    ...(body.slaTargets !== undefined ? { slaTargets: { ...before.slaTargets, ...body.slaTargets } } : {}),
    ...(body.availabilityTargetPct !== undefined ? { availabilityTargetPct: body.availabilityTargetPct } : {}),
    ...(body.autoCloseDays !== undefined ? { autoCloseDays: body.autoCloseDays } : {}),
  };
  const change = changedFields(before as Record<string, unknown>, after as Record<string, unknown>);
  if (!change.after) return before;
  const audit = auditEntryFor(req, id, 'tenant.update', { type: 'tenant', id }, change);
  if (!(await p.tenantAdmin.update(after, audit))) throw new ApiError('NOT_FOUND', 'no such tenant');
  return after;
}

/** Members of a registered tenant's group. @throws ApiError NOT_FOUND (tenant) */
export async function listTenantUsers(p: Pick<AdminPorts, 'tenants' | 'users'>, tenantId: string): Promise<PoolUserList> {
  await getTenant(p.tenants, tenantId);
  return { items: await p.users.listGroupUsers(tenantId) };
}

/**
 * How an invitation delivers the first password. Default: Cognito e-mails a temporary one. With
 * `permanentPassword` (the operator's command line only, for CI seeding and the local stack; the API has no
 * such field) no e-mail is sent and that password is set as permanent, for an existing user too.
 */
export interface InviteOptions {
  permanentPassword?: string | undefined;
}

/** What an invitation did: the user as it is now, and whether it was created (false: it existed). */
export interface Invitation {
  user: PoolUser;
  created: boolean;
}

/**
 * Invites `email` to a registered tenant (see `inviteUser`) and tells whether the user was created. The
 * `user.invite` entry is stored with the member's count in the tenant's `userCount` (`TenantAdminPort.addMember`).
 * @throws ApiError NOT_FOUND (tenant); Cognito errors (e.g. InvalidPasswordException for a refused password)
 */
export async function inviteTenantUser(p: AdminPorts, tenantId: string, email: string, req: AuditRequest, opts: InviteOptions = {}): Promise<Invitation> {
  await getTenant(p.tenants, tenantId);
  const { user, created } = await p.users.createUser(email.trim().toLowerCase(), opts);
  await p.users.addToGroup(user.username, tenantId);
  // The entry and the tenant's userCount in one transaction; a repeated invitation counts once.
  await p.tenantAdmin.addMember(tenantId, user.username, req.now.toISOString(), auditEntryFor(req, tenantId, 'user.invite', { type: 'user', id: user.username }, { after: { email: user.email ?? email, group: tenantId, created } }));
  return { user: (await p.users.getUser(user.username)) ?? user, created };
}

/**
 * Invites `email` to a registered tenant: creates the user unless one with that e-mail exists (Cognito
 * e-mails the temporary password; the user is FORCE_CHANGE_PASSWORD until it sets its own), then adds it to
 * the tenant group. Audited after the Cognito calls. @throws ApiError NOT_FOUND (tenant)
 */
export async function inviteUser(p: AdminPorts, tenantId: string, email: string, req: AuditRequest, opts: InviteOptions = {}): Promise<PoolUser> {
  return (await inviteTenantUser(p, tenantId, email, req, opts)).user;
}

/**
 * Invites `email` as staff: creates the user unless one with that e-mail exists (as `inviteUser`), then
 * grants staff (`grantStaff`). Both are audited under the staff log: `user.invite` and `staff.grant`.
 * Staff must then set up TOTP (docs/api.md#staff-accounts-and-totp).
 */
export async function inviteStaff(p: AdminPorts, email: string, req: AuditRequest, opts: InviteOptions = {}): Promise<Invitation> {
  const { user, created } = await p.users.createUser(email.trim().toLowerCase(), opts);
  await p.audit.put(auditEntryFor(req, STAFF_AUDIT_TENANT, 'user.invite', { type: 'user', id: user.username }, { after: { email: user.email ?? email, group: ADMIN_GROUP, created } }));
  await grantStaff(p, user.username, req);
  return { user: (await p.users.getUser(user.username)) ?? user, created };
}

/**
 * Removes the user from a tenant's group (it keeps its account and other groups), takes it out of the
 * tenant's `userCount` (`TenantAdminPort.removeMember`, once) and ends its open sessions (`endSessions`,
 * with its audit entry). @throws ApiError NOT_FOUND
 */
export async function removeTenantUser(p: UserAccessPorts, tenantId: string, username: string, req: AuditRequest): Promise<PoolUser> {
  await getTenant(p.tenants, tenantId);
  const user = await mustGetUser(p.users, username);
  const groups = await p.users.groupsOf(username);
  if (!groups.includes(tenantId)) {
    // A retry after the Cognito removal succeeded and the count's write failed: uncount now (idempotent).
    await p.tenantAdmin.removeMember(tenantId, username);
    throw new ApiError('NOT_FOUND', 'the user is not a member of the tenant');
  }
  await markBeforeRemoval(p, user, req);
  await p.users.removeFromGroup(username, tenantId);
  await p.tenantAdmin.removeMember(tenantId, username);
  await endSessions(p, user, req, [auditEntryFor(req, tenantId, 'user.remove_from_tenant', { type: 'user', id: username }, { before: { group: tenantId } })]);
  return user;
}

async function mustGetUser(users: UsersPort, username: string): Promise<PoolUser> {
  const u = await users.getUser(username);
  if (!u) throw new ApiError('NOT_FOUND', 'no such user');
  return u;
}

/** Tenants an entry about `username` is filed under: its registered tenant groups, else the staff log. */
async function auditTenantsOf(p: AdminPorts, username: string): Promise<string[]> {
  const groups = (await p.users.groupsOf(username)).filter((g) => g !== ADMIN_GROUP);
  const registered: string[] = [];
  for (const g of groups) if (await p.tenants.getTenant(g)) registered.push(g);
  return registered.length ? registered : [STAFF_AUDIT_TENANT];
}

/** The entries of a user action, one per tenant it is filed under (`auditTenantsOf`). */
async function userActionEntries(p: AdminPorts, username: string, action: Parameters<typeof auditEntryFor>[2], change: Parameters<typeof auditEntryFor>[4], req: AuditRequest): Promise<AuditEntry[]> {
  return (await auditTenantsOf(p, username)).map((t) => auditEntryFor(req, t, action, { type: 'user', id: username }, change));
}

async function auditUserAction(p: AdminPorts, username: string, action: Parameters<typeof auditEntryFor>[2], change: Parameters<typeof auditEntryFor>[4], req: AuditRequest) {
  for (const e of await userActionEntries(p, username, action, change, req)) await p.audit.put(e);
}

/** Sends the invitation again (new temporary password). @throws ApiError NOT_FOUND, INVALID_TRANSITION (password already set) */
export async function resendInvitation(p: AdminPorts, username: string, req: AuditRequest): Promise<PoolUser> {
  const user = await p.users.resendInvitation(username);
  await auditUserAction(p, username, 'user.resend_invitation', {}, req);
  return user;
}

/**
 * Disables or enables a user; one's own account cannot be disabled. Disabling ends the user's open sessions
 * (`endSessions`, with the `user.disable` entries; also when already disabled, so a retry after a failure
 * ends them); enabling lets only new sign-ins in (tokens issued before the last disable stay refused).
 * @throws ApiError NOT_FOUND, INVALID_TRANSITION
 */
export async function setUserEnabled(p: UserAccessPorts, username: string, enabled: boolean, req: AuditRequest): Promise<PoolUser> {
  const before = await mustGetUser(p.users, username);
  if (!enabled && (before.sub === req.identity.sub || username === req.identity.sub)) throw new ApiError('INVALID_TRANSITION', 'staff cannot disable their own account');
  const change = { before: { enabled: before.enabled }, after: { enabled } };
  if (!enabled) {
    if (before.enabled) await p.users.setEnabled(username, false);
    await endSessions(p, before, req, before.enabled ? await userActionEntries(p, username, 'user.disable', change, req) : []);
  } else if (!before.enabled) {
    await p.users.setEnabled(username, true);
    await auditUserAction(p, username, 'user.enable', change, req);
  }
  return { ...before, enabled };
}

/** Turns the user's TOTP off: it sets TOTP up again at its next sign-in. @throws ApiError NOT_FOUND */
export async function resetUserMfa(p: AdminPorts, username: string, req: AuditRequest): Promise<PoolUser> {
  const before = await mustGetUser(p.users, username);
  await p.users.resetMfa(username);
  await auditUserAction(p, username, 'user.reset_mfa', { before: { mfa: before.mfa }, after: { mfa: false } }, req);
  return { ...before, mfa: false };
}

/** Members of the staff group. */
export async function listStaff(users: UsersPort): Promise<PoolUserList> {
  return { items: await users.listGroupUsers(ADMIN_GROUP) };
}

/** Adds the user to the staff group (idempotent). @throws ApiError NOT_FOUND */
export async function grantStaff(p: AdminPorts, username: string, req: AuditRequest): Promise<PoolUser> {
  const user = await mustGetUser(p.users, username);
  await p.users.addToGroup(username, ADMIN_GROUP);
  await p.audit.put(auditEntryFor(req, STAFF_AUDIT_TENANT, 'staff.grant', { type: 'user', id: username }, { after: { group: ADMIN_GROUP } }));
  return user;
}

/**
 * Removes the user from the staff group and ends its open sessions (`endSessions`); not oneself (the
 * last way back in: 409 OWN_STAFF_ACCESS, nothing changed). @throws ApiError NOT_FOUND, OWN_STAFF_ACCESS
 */
export async function revokeStaff(p: UserAccessPorts, username: string, req: AuditRequest): Promise<PoolUser> {
  const user = await mustGetUser(p.users, username);
  if (user.sub === req.identity.sub || username === req.identity.sub) throw new ApiError('OWN_STAFF_ACCESS', 'staff cannot remove their own staff access: another staff member must do it');
  await markBeforeRemoval(p, user, req);
  await p.users.removeFromGroup(username, ADMIN_GROUP);
  await endSessions(p, user, req, [auditEntryFor(req, STAFF_AUDIT_TENANT, 'staff.revoke', { type: 'user', id: username }, { before: { group: ADMIN_GROUP } })]);
  return user;
}
