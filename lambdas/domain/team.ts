/**
 * A customer admin manages the users of their own tenant (docs/api.md#team-management; issue 32 point 1):
 * list them with role and status, invite (Cognito creates the user and e-mails the temporary password), change
 * the role, disable/enable, remove. The route table gives these rows `minRole: 'admin'` (403 ROLE_REQUIRED
 * below it) and staff reach them with `?tenant=` and TOTP.
 *
 * Rules:
 *  - Only members of the tenant's group who are not staff (`admin` group) are ever listed or touched: anyone
 *    else (another tenant's user, staff, unknown) answers 404 NOT_FOUND, so a customer learns nothing of them.
 *  - The role is the customer role group (`CUSTOMER_ROLE_GROUPS`; none = operator, docs/decisions/customer-roles.md):
 *    changing it adds the new group and removes the others.
 *  - The tenant keeps at least one enabled customer admin: disabling, demoting or removing the last one is
 *    409 LAST_ADMIN, nothing changed. The caller never disables, demotes or removes themself: 409 OWN_ACCOUNT.
 *  - A new e-mail only: an e-mail that has a user already (in any tenant) is 409 USER_EXISTS, nothing created.
 *  - Each write is audited in the tenant's log (`team.invite`, `team.update`, `team.remove`). The invitation's
 *    entry is stored with the tenant's `userCount` in one transaction (`TenantAdminPort.addMember`); acts that take
 *    access away (disable, demote, remove) end the user's open sessions with their entry in one transaction, as
 *    the staff's user administration does (lambdas/domain/admin.ts, docs/api.md#session-revocation).
 *
 * Cognito calls reuse `UsersPort` (lambdas/data/cognito-users.ts): ListUsersInGroup, AdminListGroupsForUser,
 * AdminGetUser, ListUsers, AdminCreateUser, AdminAdd/RemoveUserFromGroup, AdminEnable/DisableUser, AdminDeleteUser.
 */
import { ADMIN_GROUP, CUSTOMER_ROLE_GROUPS, roleAtLeast, type CustomerRole } from '../contract/routes.js';
import type { InviteTeamMemberBody, ListTeamQuery, TeamMember, TeamPage, UpdateTeamMemberBody } from '../contract/team.js';
import type { AuditEntry, PoolUser } from '../contract/schemas.js';
import { auditEntryFor, type AuditRequest } from './audit.js';
import { ApiError } from './errors.js';
import { roleOfGroups } from './identity.js';
import type { AuditPort, NamedPoolUser, TenantAdminPort, UsersPort } from './ports.js';
import type { SessionRevocationPort } from './session-revocation.js';

/** What the team use cases need. */
export interface TeamPorts {
  users: UsersPort;
  tenantAdmin: Pick<TenantAdminPort, 'addMember' | 'removeMember'>;
  audit: Pick<AuditPort, 'put'>;
  sessions: Pick<SessionRevocationPort, 'revoke'>;
}

const ROLE_GROUPS: readonly string[] = Object.values(CUSTOMER_ROLE_GROUPS);

/** The member as the team page shows it, from the pool user and its groups. */
function memberOf(u: NamedPoolUser, groups: readonly string[]): TeamMember {
  return {
    username: u.username,
    ...(u.email ? { email: u.email } : {}),
    ...(u.name ? { name: u.name } : {}),
    role: roleOfGroups(groups),
    enabled: u.enabled,
    status: u.status,
    federated: u.status === 'EXTERNAL_PROVIDER',
    ...(u.createdAt ? { createdAt: u.createdAt } : {}),
  };
}

/** Cursor of `GET /team`: base64url of `{ g: tenant, t: Cognito's NextToken }`, valid for that tenant only. */
function encodeTeamCursor(tenantId: string, token: string | undefined): string | null {
  return token ? Buffer.from(JSON.stringify({ g: tenantId, t: token }), 'utf8').toString('base64url') : null;
}

/** @throws ApiError VALIDATION_FAILED (not a cursor of this tenant's list) */
function decodeTeamCursor(tenantId: string, cursor: string): string {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (v && typeof v === 'object' && (v as { g?: unknown }).g === tenantId && typeof (v as { t?: unknown }).t === 'string' && (v as { t: string }).t) return (v as { t: string }).t;
  } catch {
    // falls through
  }
  throw new ApiError('VALIDATION_FAILED', 'invalid cursor', [{ path: 'query.cursor', message: 'invalid cursor' }]);
}

/**
 * One page of the tenant's users (ONE ListUsersInGroup of at most `limit`, then one AdminListGroupsForUser per
 * member, five at a time, for the role and to leave staff out: a page may hold fewer than `limit`).
 * @throws ApiError VALIDATION_FAILED (cursor)
 */
export async function listTeam(users: UsersPort, tenantId: string, query: Pick<ListTeamQuery, 'cursor'> & { limit: number }): Promise<TeamPage> {
  const token = query.cursor ? decodeTeamCursor(tenantId, query.cursor) : undefined;
  const page = await users.listGroupPage(tenantId, { limit: query.limit, token });
  const items: TeamMember[] = [];
  for (let i = 0; i < page.users.length; i += 5) {
    const batch = await Promise.all(page.users.slice(i, i + 5).map(async (u) => ({ u, groups: await users.groupsOf(u.username).catch(() => null) })));
    for (const { u, groups } of batch) if (groups && groups.includes(tenantId) && !groups.includes(ADMIN_GROUP)) items.push(memberOf(u, groups));
  }
  return { items, nextCursor: encodeTeamCursor(tenantId, page.nextToken) };
}

/** The user and its groups when it is a non-staff member of the tenant; else 404 NOT_FOUND (see module doc). */
async function teamMember(users: UsersPort, tenantId: string, username: string): Promise<{ user: PoolUser; groups: string[] }> {
  const user = await users.getUser(username);
  const groups = user ? await users.groupsOf(username).catch(() => [] as string[]) : [];
  if (!user || !groups.includes(tenantId) || groups.includes(ADMIN_GROUP)) throw new ApiError('NOT_FOUND', 'no such user in the tenant');
  return { user, groups };
}

/** Whether `username` is the caller (by `sub` or user name). */
const isSelf = (req: AuditRequest, user: PoolUser, username: string) => user.sub === req.identity.sub || username === req.identity.sub;

/**
 * 409 LAST_ADMIN unless the tenant has an enabled customer admin other than `username` (two paged listings:
 * the tenant's group and `customer-admin`, no per-user call).
 */
async function assertAnotherAdmin(users: UsersPort, tenantId: string, username: string): Promise<void> {
  const [members, admins] = await Promise.all([users.listGroupMembers(tenantId), users.listGroupMembers(CUSTOMER_ROLE_GROUPS.admin)]);
  const adminNames = new Set(admins.map((a) => a.username));
  if (!members.some((m) => m.username !== username && m.enabled && adminNames.has(m.username))) {
    throw new ApiError('LAST_ADMIN', 'the tenant must keep at least one enabled admin: make another user admin first');
  }
}

/** Ends the user's open sessions, storing `audit` with the marker (docs/api.md#session-revocation). */
async function endSessions(p: TeamPorts, user: PoolUser, req: AuditRequest, audit: AuditEntry[]): Promise<void> {
  await p.sessions.revoke(user.sub ?? user.username, new Date(Math.max(req.now.getTime(), Date.now())), audit);
}

/** Puts the user in exactly the role group of `role` (adds it first, then removes the others). */
async function setRoleGroups(users: UsersPort, username: string, groups: readonly string[], role: CustomerRole): Promise<void> {
  const wanted = CUSTOMER_ROLE_GROUPS[role];
  if (!groups.includes(wanted)) await users.addToGroup(username, wanted);
  for (const g of ROLE_GROUPS) if (g !== wanted && groups.includes(g)) await users.removeFromGroup(username, g);
}

/**
 * Invites a new user to the tenant with a role: AdminCreateUser (Cognito e-mails the temporary password; status
 * FORCE_CHANGE_PASSWORD), then the tenant group and the role group, then the `team.invite` entry with the
 * tenant's `userCount`. @throws ApiError USER_EXISTS (the e-mail has a user: nothing created)
 */
export async function inviteTeamMember(p: TeamPorts, tenantId: string, body: InviteTeamMemberBody, req: AuditRequest): Promise<TeamMember> {
  const email = body.email.trim().toLowerCase();
  const name = body.name.trim();
  const { user } = await p.users.createUser(email, { name, mustBeNew: true });
  await p.users.addToGroup(user.username, tenantId);
  await p.users.addToGroup(user.username, CUSTOMER_ROLE_GROUPS[body.role]);
  await p.tenantAdmin.addMember(tenantId, user.username, req.now.toISOString(), auditEntryFor(req, tenantId, 'team.invite', { type: 'user', id: user.username, name: email }, { after: { email, name, role: body.role } }));
  return memberOf({ ...((await p.users.getUser(user.username)) ?? user), name }, [tenantId, CUSTOMER_ROLE_GROUPS[body.role]]);
}

/**
 * Changes a colleague's role and/or enabled state. Demoting or disabling: not oneself (409 OWN_ACCOUNT), not the
 * last enabled admin (409 LAST_ADMIN), and the user's open sessions end. A request that changes nothing
 * writes nothing. @throws ApiError NOT_FOUND, OWN_ACCOUNT, LAST_ADMIN
 */
export async function updateTeamMember(p: TeamPorts, tenantId: string, username: string, body: UpdateTeamMemberBody, req: AuditRequest): Promise<TeamMember> {
  const { user, groups } = await teamMember(p.users, tenantId, username);
  const role = roleOfGroups(groups);
  const newRole = body.role ?? role;
  const enabled = body.enabled ?? user.enabled;
  const demoted = !roleAtLeast(newRole, role);
  const disabled = user.enabled && !enabled;
  if (newRole === role && enabled === user.enabled) return memberOf(user, groups);
  if ((demoted || disabled) && isSelf(req, user, username)) throw new ApiError('OWN_ACCOUNT', 'you cannot demote or disable your own account');
  if (role === 'admin' && user.enabled && (newRole !== 'admin' || !enabled)) await assertAnotherAdmin(p.users, tenantId, username);
  if (newRole !== role) await setRoleGroups(p.users, username, groups, newRole);
  if (enabled !== user.enabled) await p.users.setEnabled(username, enabled);
  const change = {
    before: { ...(newRole !== role ? { role } : {}), ...(enabled !== user.enabled ? { enabled: user.enabled } : {}) },
    after: { ...(newRole !== role ? { role: newRole } : {}), ...(enabled !== user.enabled ? { enabled } : {}) },
  };
  const entry = auditEntryFor(req, tenantId, 'team.update', { type: 'user', id: username, name: user.email }, change);
  if (demoted || disabled) await endSessions(p, user, req, [entry]);
  else await p.audit.put(entry);
  const nextGroups = [...groups.filter((g) => !ROLE_GROUPS.includes(g)), CUSTOMER_ROLE_GROUPS[newRole]];
  return memberOf({ ...user, enabled }, nextGroups);
}

/**
 * Removes a colleague: out of the tenant group and the role groups, the account deleted when it is then in no
 * group (AdminDeleteUser; a user of another tenant too keeps its account there), out of the `userCount`, open
 * sessions ended with the `team.remove` entry. Not oneself (409 OWN_ACCOUNT), not the last enabled admin
 * (409 LAST_ADMIN). @throws ApiError NOT_FOUND, OWN_ACCOUNT, LAST_ADMIN
 */
export async function removeTeamMember(p: TeamPorts, tenantId: string, username: string, req: AuditRequest): Promise<TeamMember> {
  const { user, groups } = await teamMember(p.users, tenantId, username);
  if (isSelf(req, user, username)) throw new ApiError('OWN_ACCOUNT', 'you cannot remove your own account');
  const role = roleOfGroups(groups);
  if (role === 'admin' && user.enabled) await assertAnotherAdmin(p.users, tenantId, username);
  // The marker first: a retry after a failure below answers 404 and would never write it (lambdas/domain/admin.ts).
  await endSessions(p, user, req, []);
  await p.users.removeFromGroup(username, tenantId);
  const otherTenants = groups.filter((g) => g !== tenantId && !ROLE_GROUPS.includes(g));
  if (otherTenants.length === 0) {
    for (const g of ROLE_GROUPS) if (groups.includes(g)) await p.users.removeFromGroup(username, g);
    await p.users.deleteUser(username);
  }
  // The uncount and its audit entry in one transaction, so a failure leaves neither (the marker above is the only
  // write before it); a retry that finds the member uncounted already stores the entry on its own.
  const entry = auditEntryFor(req, tenantId, 'team.remove', { type: 'user', id: username, name: user.email }, { before: { email: user.email, role, enabled: user.enabled }, after: { deleted: otherTenants.length === 0 } });
  if (!(await p.tenantAdmin.removeMember(tenantId, username, entry))) await endSessions(p, user, req, [entry]);
  return memberOf(user, groups);
}
