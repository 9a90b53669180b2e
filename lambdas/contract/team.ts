/**
 * Contract of a tenant's own user administration by its customer admins (`GET`/`POST /team`,
 * `PUT`/`DELETE /team/{username}`; docs/api.md#team-management). Users are Cognito users of the tenant's
 * group; the role is the customer role group (`customer-viewer|operator|admin`, docs/api.md#customer-roles).
 * Staff (the `admin` group) and users of other tenants are never listed nor touched (404).
 */
import * as z from 'zod';
import { Cursor, TenantQuery, USER_STATUSES, Username } from './schemas.js';

/** A role a customer admin may grant: exactly the three customer roles (anything else: 400 VALIDATION_FAILED on `body.role`, nothing stored). */
export const TeamRole = z.enum(['viewer', 'operator', 'admin']); // = CUSTOMER_ROLES (routes.ts imports this module)
export type TeamRole = z.infer<typeof TeamRole>;

/** One colleague as the team page shows it. */
export const TeamMember = z.object({
  username: z.string(),
  email: z.string().optional(),
  /** The `name` attribute given at the invitation (absent for users created otherwise). */
  name: z.string().optional(),
  /** The customer role from the role groups (none = `operator`). */
  role: TeamRole,
  enabled: z.boolean(),
  /** Cognito's status: FORCE_CHANGE_PASSWORD until the invitation's temporary password is changed. */
  status: z.enum(USER_STATUSES),
  /** Signed in through the company's identity provider (status EXTERNAL_PROVIDER): no Vigía password. */
  federated: z.boolean(),
  createdAt: z.iso.datetime().optional(),
});
export type TeamMember = z.infer<typeof TeamMember>;

/** A page of the tenant's users (Cognito ListUsersInGroup order); `nextCursor` null on the last page. */
export const TeamPage = z.object({ items: z.array(TeamMember), nextCursor: Cursor.nullable() });
export type TeamPage = z.infer<typeof TeamPage>;

/** Query of `GET /team`: the tenant (staff), page size (1-60: Cognito's ListUsersInGroup limit) and the cursor. */
export const ListTeamQuery = TenantQuery.extend({ limit: z.coerce.number().int().min(1).max(60).default(20), cursor: Cursor.optional() });
export type ListTeamQuery = z.input<typeof ListTeamQuery>;

/** Body of `POST /team`: who to invite and as what. Cognito e-mails the temporary password. */
export const InviteTeamMemberBody = z.strictObject({
  email: z.email().max(254),
  name: z.string().trim().min(1).max(120),
  role: TeamRole,
});
export type InviteTeamMemberBody = z.input<typeof InviteTeamMemberBody>;

/** Body of `PUT /team/{username}`: a new role and/or enabled state (at least one). */
export const UpdateTeamMemberBody = z
  .strictObject({ role: TeamRole.optional(), enabled: z.boolean().optional() })
  .refine((b) => b.role !== undefined || b.enabled !== undefined, { message: 'role or enabled is required', path: ['role'] });
export type UpdateTeamMemberBody = z.input<typeof UpdateTeamMemberBody>;

/** Path of `PUT`/`DELETE /team/{username}`. */
export const TeamUsernameParams = z.strictObject({ username: Username });
