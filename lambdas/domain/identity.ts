/**
 * Caller identity and tenancy, from verified ID-token claims only.
 *
 * API Gateway's Cognito user-pool authorizer passes the claims to the Lambda as strings under
 * `event.requestContext.authorizer.claims`; arrays such as `cognito:groups` arrive flattened
 * (`"acme,admin"`, `"acme admin"`, `"[acme admin]"`). Tenants are the caller's Cognito groups other than
 * `admin` and the customer role groups (`customer-viewer`, `customer-operator`, `customer-admin`; group name =
 * tenant id); `admin` may act on any existing tenant. Rules: docs/api.md#roles, docs/api.md#customer-roles and
 * docs/api.md#tenants.
 *
 * Only tenants of the tenant registry are tenants: a group that looks like a tenant id but is not registered
 * (a staff group such as `soc-analysts`) gives no tenant (`resolveTenant`, `describeMe`). The `email` claim is
 * used only when `email_verified` is `"true"`; the token's `aud` must be one of the portal's app clients when
 * the configuration lists them (docs/api.md#identity).
 */
import { MFA_CLAIM, MFA_TOTP } from '../contract/claims.js';
import { ADMIN_GROUP, CUSTOMER_ROLE_GROUPS, CUSTOMER_ROLES, DEFAULT_CUSTOMER_ROLE, resolvedMinRole, roleAtLeast, type CustomerRole, type RouteDef } from '../contract/routes.js';
import { TenantId } from '../contract/schemas.js';
import { ApiError } from './errors.js';

export interface Identity {
  /** Cognito `sub` (the only personal identifier we log). */
  sub: string;
  /** The `email` claim when `email_verified` is `"true"`, else `''` (an unverified address is never shown). */
  email: string;
  /** All Cognito groups, deduplicated, in token order. */
  groups: string[];
  /** Groups that are valid tenant ids, excluding `admin` (candidates: only registered ones act as tenants). */
  tenants: string[];
  isAdmin: boolean;
  /**
   * The ID token carries `vigia:mfa` = `totp` (the user has TOTP set up; added by the pre token generation
   * trigger, lambdas/triggers/pre-token-generation.ts). Required of `admin` members on admin routes and on
   * other tenants (docs/api.md#staff-accounts-and-totp).
   */
  mfa: boolean;
  /**
   * The company identity provider the user signed in through (Cognito `identities` claim of the ID token,
   * its first `providerName`), absent for a native user of the pool, whose password and TOTP Vigía manages
   * (docs/api.md#me).
   */
  federatedProvider?: string | undefined;
}

/**
 * The provider name of Cognito's `identities` claim (a JSON array of `{ providerName, providerType, userId,
 * … }`, as text once API Gateway flattened the claims, or the array itself; Amazon Cognito developer guide,
 * "Using identity providers"), or `undefined` when absent or malformed (a native user).
 */
export function federatedProviderOfClaim(raw: unknown): string | undefined {
  let list: unknown = raw;
  if (typeof raw === 'string') {
    try {
      list = JSON.parse(raw) as unknown;
    } catch {
      return undefined;
    }
  }
  if (!Array.isArray(list)) return undefined;
  for (const i of list) {
    const name = i && typeof i === 'object' ? (i as { providerName?: unknown }).providerName : undefined;
    if (typeof name === 'string' && name !== '') return name;
  }
  return undefined;
}

/**
 * Parses `cognito:groups` in any form seen behind API Gateway: a real array, JSON array text
 * (`["a","b"]`), bracketed (`[a b]`, `[a, b]`), comma- or space-separated. Empty → `[]`.
 */
export function parseGroups(raw: unknown): string[] {
  let parts: string[];
  if (Array.isArray(raw)) {
    parts = raw.filter((x): x is string => typeof x === 'string');
  } else if (typeof raw === 'string') {
    let s = raw.trim();
    if (s.startsWith('[') && s.endsWith(']')) {
      try {
        const parsed: unknown = JSON.parse(s);
        if (Array.isArray(parsed)) return parseGroups(parsed);
      } catch {
        // not JSON: `[a b]` form
      }
      s = s.slice(1, -1);
    }
    parts = s.split(/[\s,]+/);
  } else {
    parts = [];
  }
  const out: string[] = [];
  for (const p of parts) {
    const g = p.trim().replace(/^"|"$/g, '');
    if (g && !out.includes(g)) out.push(g);
  }
  return out;
}

/** Whether a claim is the boolean true as Cognito writes it (`true`, or `"true"` once API Gateway flattened it). */
const claimTrue = (v: unknown): boolean => v === true || v === 'true';

/**
 * Claims → identity. Returns `null` (the HTTP layer answers 401 UNAUTHORIZED) when `sub` is missing (cannot
 * happen behind the authorizer) or when `audiences` is non-empty and the token's `aud` is not one of them:
 * API Gateway's Cognito authorizer accepts an ID token of ANY app client of the pool, so the Lambdas check
 * that it was issued to the portal's (defence in depth; docs/api.md#identity).
 * `email` is kept only when `email_verified` is true.
 */
export function identityFromClaims(claims: Record<string, unknown> | null | undefined, audiences: readonly string[] = []): Identity | null {
  if (!claims || typeof claims !== 'object') return null;
  const sub = claims.sub;
  if (typeof sub !== 'string' || sub.length === 0) return null;
  if (audiences.length > 0 && !(typeof claims.aud === 'string' && audiences.includes(claims.aud))) return null;
  const groups = parseGroups(claims['cognito:groups']);
  const email = typeof claims.email === 'string' && claimTrue(claims.email_verified) ? claims.email : '';
  return {
    sub,
    email,
    groups,
    tenants: groups.filter((g) => g !== ADMIN_GROUP && !ROLE_GROUP_NAMES.includes(g) && TenantId.safeParse(g).success),
    isAdmin: groups.includes(ADMIN_GROUP),
    mfa: claims[MFA_CLAIM] === MFA_TOTP,
    ...(federatedProviderOfClaim(claims.identities) ? { federatedProvider: federatedProviderOfClaim(claims.identities) } : {}),
  };
}

const ROLE_GROUP_NAMES: readonly string[] = Object.values(CUSTOMER_ROLE_GROUPS);

/**
 * The customer role given by Cognito groups: the highest role whose group is among them, else
 * `operator` (DEFAULT_CUSTOMER_ROLE: users from before roles keep their abilities; docs/decisions/customer-roles.md).
 */
export function roleOfGroups(groups: readonly string[]): CustomerRole {
  for (const role of [...CUSTOMER_ROLES].reverse()) {
    if (groups.includes(CUSTOMER_ROLE_GROUPS[role])) return role;
  }
  return DEFAULT_CUSTOMER_ROLE;
}

/**
 * The customer-role check of a tenant-scoped row (docs/api.md#customer-roles): a caller who is not staff needs at
 * least the row's resolved `minRole` (`resolvedMinRole`). Staff (`admin` group) are judged by `groups` and
 * `staffReach` only. Rows that are not tenant-scoped have no customer role.
 * @throws ApiError ROLE_REQUIRED with `details: { required, role }`
 */
export function assertCustomerRole(identity: Identity, route: Pick<RouteDef, 'minRole' | 'method' | 'tenantScoped'>): void {
  const required = resolvedMinRole(route);
  if (required === null || identity.isAdmin) return;
  const role = roleOfGroups(identity.groups);
  if (!roleAtLeast(role, required)) {
    throw new ApiError('ROLE_REQUIRED', `requires the ${required} role in the tenant (the caller is ${role})`, { required, role });
  }
}

/**
 * Route group check (route table `groups`): `[]` = membership of any group; otherwise at least one of them;
 * a row for `admin` also needs TOTP ({@link assertStaffMfa}).
 * @throws ApiError FORBIDDEN, MFA_REQUIRED
 */
export function assertGroups(identity: Identity, required: readonly string[]): void {
  if (identity.groups.length === 0) throw new ApiError('FORBIDDEN', 'the user belongs to no group');
  if (required.length > 0 && !required.some((g) => identity.groups.includes(g))) {
    throw new ApiError('FORBIDDEN', `requires membership of: ${required.join(', ')}`);
  }
  if (required.includes(ADMIN_GROUP)) assertStaffMfa(identity);
}

/**
 * The row-level checks of a user (Cognito) request, before its tenant is resolved: the row's `groups`
 * ({@link assertGroups}), then the staff TOTP rule of the row's `staffReach` (lambdas/contract/routes.ts), then the
 * customer role of the row ({@link assertCustomerRole}):
 * on an `all` row (staff-only rows, views across tenants such as the audit log) EVERY request by a member of
 * `admin` needs TOTP, whatever else the caller is; on a `tenant` row {@link resolveTenant} asks it when the
 * tenant is not one of the caller's own; `self` rows never ask (docs/api.md#staff-accounts-and-totp).
 * @throws ApiError FORBIDDEN, MFA_REQUIRED
 */
export function assertRowAccess(identity: Identity, route: Pick<RouteDef, 'groups' | 'staffReach' | 'minRole' | 'method' | 'tenantScoped'>): void {
  assertGroups(identity, route.groups);
  if (route.staffReach === 'all') assertStaffMfa(identity);
  assertCustomerRole(identity, route);
}

/**
 * Staff accounts need TOTP: a member of `admin` acting as staff (a row whose `staffReach` is `all`, or a tenant
 * not its own) must present an ID token with `vigia:mfa` = `totp` (docs/api.md#staff-accounts-and-totp).
 * @throws ApiError MFA_REQUIRED
 */
export function assertStaffMfa(identity: Identity): void {
  if (identity.isAdmin && !identity.mfa) {
    throw new ApiError('MFA_REQUIRED', 'staff accounts must set up an authenticator app (TOTP) first');
  }
}

/**
 * Resolves the active tenant of a tenant-scoped request. Only registered tenants (`tenantExists`) count: a
 * caller's group that is not in the registry is no tenant.
 *  - `requested` given: one of the caller's registered tenants; an admin with TOTP (`mfa`) may pick any
 *    registered tenant (unknown → 404 NOT_FOUND; without TOTP → 403 MFA_REQUIRED); a non-admin asking for
 *    anything else → 403 FORBIDDEN.
 *  - not given: the caller's only registered tenant; several (or admin with none of its own) → 400
 *    TENANT_REQUIRED with `details.tenants` (the registered ones); none and not admin → 403 FORBIDDEN.
 * @throws ApiError FORBIDDEN (no group, or a tenant not the caller's), MFA_REQUIRED, TENANT_REQUIRED, NOT_FOUND
 */
export async function resolveTenant(
  identity: Identity,
  requested: string | undefined,
  tenantExists: (id: string) => Promise<boolean>,
): Promise<string> {
  if (identity.groups.length === 0) throw new ApiError('FORBIDDEN', 'the user belongs to no group');
  if (requested !== undefined) {
    const own = identity.tenants.includes(requested);
    if (!own && !identity.isAdmin) throw new ApiError('FORBIDDEN', 'the tenant is not one of the caller\u2019s tenants');
    if (!own) assertStaffMfa(identity);
    if (!(await tenantExists(requested))) {
      if (identity.isAdmin) throw new ApiError('NOT_FOUND', `tenant ${requested} does not exist`);
      throw new ApiError('FORBIDDEN', 'the tenant is not one of the caller\u2019s tenants');
    }
    return requested;
  }
  const registered = await registeredTenants(identity, tenantExists);
  if (registered.length === 1) return registered[0]!;
  if (registered.length === 0 && !identity.isAdmin) {
    throw new ApiError('FORBIDDEN', 'the user belongs to no tenant');
  }
  throw new ApiError('TENANT_REQUIRED', 'choose a tenant with the `tenant` query parameter', {
    tenants: registered,
  });
}

/** The caller's tenant groups that are in the tenant registry, in token order. */
export async function registeredTenants(identity: Identity, tenantExists: (id: string) => Promise<boolean>): Promise<string[]> {
  const known = await Promise.all(identity.tenants.map((id) => tenantExists(id)));
  return identity.tenants.filter((_, i) => known[i]);
}
