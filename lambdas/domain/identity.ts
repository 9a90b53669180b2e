/**
 * Caller identity and tenancy, from verified ID-token claims only.
 *
 * API Gateway's Cognito user-pool authorizer passes the claims to the Lambda as strings under
 * `event.requestContext.authorizer.claims`; arrays such as `cognito:groups` arrive flattened
 * (`"acme,admin"`, `"acme admin"`, `"[acme admin]"`). Tenants are the caller's Cognito groups other than
 * `admin` (group name = tenant id); `admin` may act on any existing tenant. Rules: docs/api.md#roles and
 * docs/api.md#tenants.
 */
import { ADMIN_GROUP } from '../contract/routes.js';
import { TenantId } from '../contract/schemas.js';
import { ApiError } from './errors.js';

export interface Identity {
  /** Cognito `sub` (the only personal identifier we log). */
  sub: string;
  email: string;
  /** All Cognito groups, deduplicated, in token order. */
  groups: string[];
  /** Groups that are valid tenant ids, excluding `admin`. */
  tenants: string[];
  isAdmin: boolean;
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

/**
 * Claims → identity. Returns `null` when `sub` is missing (cannot happen behind the authorizer; the HTTP
 * layer answers 401 UNAUTHORIZED).
 */
export function identityFromClaims(claims: Record<string, unknown> | null | undefined): Identity | null {
  if (!claims || typeof claims !== 'object') return null;
  const sub = claims.sub;
  if (typeof sub !== 'string' || sub.length === 0) return null;
  const groups = parseGroups(claims['cognito:groups']);
  const email = typeof claims.email === 'string' ? claims.email : '';
  return {
    sub,
    email,
    groups,
    tenants: groups.filter((g) => g !== ADMIN_GROUP && TenantId.safeParse(g).success),
    isAdmin: groups.includes(ADMIN_GROUP),
  };
}

/**
 * Route group check (route table `groups`): `[]` = membership of any group; otherwise at least one of them.
 * @throws ApiError FORBIDDEN
 */
export function assertGroups(identity: Identity, required: readonly string[]): void {
  if (identity.groups.length === 0) throw new ApiError('FORBIDDEN', 'the user belongs to no group');
  if (required.length > 0 && !required.some((g) => identity.groups.includes(g))) {
    throw new ApiError('FORBIDDEN', `requires membership of: ${required.join(', ')}`);
  }
}

/**
 * Resolves the active tenant of a tenant-scoped request.
 *  - `requested` given: must be one of the caller's tenants; an admin may pick any tenant for which
 *    `tenantExists` is true (unknown tenant → 404 NOT_FOUND).
 *  - not given: the caller's only tenant; several (or admin with none of its own) → 400 TENANT_REQUIRED.
 * @throws ApiError FORBIDDEN (no group, or a tenant not the caller's), TENANT_REQUIRED, NOT_FOUND
 */
export async function resolveTenant(
  identity: Identity,
  requested: string | undefined,
  tenantExists: (id: string) => Promise<boolean>,
): Promise<string> {
  if (identity.groups.length === 0) throw new ApiError('FORBIDDEN', 'the user belongs to no group');
  if (requested !== undefined) {
    if (identity.tenants.includes(requested)) return requested;
    if (!identity.isAdmin) throw new ApiError('FORBIDDEN', 'the tenant is not one of the caller\u2019s tenants');
    if (!(await tenantExists(requested))) throw new ApiError('NOT_FOUND', `tenant ${requested} does not exist`);
    return requested;
  }
  if (identity.tenants.length === 1) return identity.tenants[0]!;
  if (identity.tenants.length === 0 && !identity.isAdmin) {
    throw new ApiError('FORBIDDEN', 'the user belongs to no tenant');
  }
  throw new ApiError('TENANT_REQUIRED', 'choose a tenant with the `tenant` query parameter', {
    tenants: identity.tenants,
  });
}
