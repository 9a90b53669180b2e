/**
 * Names reserved for the staff (docs/api.md#reserved-names). A tenant id is a Cognito group name (group name =
 * tenant id, docs/api.md#tenants), so a tenant called like the staff group would make the tenant-user routes add
 * and remove staff without the staff rules (self-revocation, `staff.grant` audit); an enterprise identity provider
 * bound to that tenant, or routed from the staff's e-mail domain, would sign people in as staff or take the staff's
 * sign-ins to a customer's provider. So:
 *
 *  - tenant ids: never {@link RESERVED_TENANT_IDS} (the staff group `ADMIN_GROUP`, the customer role groups) — creating a tenant, binding an
 *    identity provider to a tenant, granting a collector a tenant;
 *  - identity-provider e-mail domains: never one of the stage's staff e-mail domains, nor a subdomain of one
 *    (`identityProviders.staffEmailDomains` of the Lambda configuration, from the stage's providers file
 *    `staffEmailDomains`, infra/federation-config.ts).
 *
 * Every refusal is 400 RESERVED_NAME, raised before anything is written, with `details: { fields, names }`.
 * Used by the admin use cases (lambdas/domain/admin.ts, identity-providers.ts), the collector grant
 * (lambdas/domain/collectors.ts) and the operator scripts (scripts/platform/create-tenant.ts, grant-collector.ts).
 */
import { ADMIN_GROUP, CUSTOMER_ROLE_GROUPS } from '../contract/routes.js';
import { ApiError } from './errors.js';

/**
 * Tenant ids no tenant may have: the staff group's name and the customer role groups' names (a tenant called
 * `customer-admin` would make every customer admin its member; docs/api.md#customer-roles).
 */
export const RESERVED_TENANT_IDS: readonly string[] = [ADMIN_GROUP, ...Object.values(CUSTOMER_ROLE_GROUPS)];

/** Whether `id` is a reserved tenant id (compared as given: tenant ids are lower-case slugs). */
export function isReservedTenantId(id: string): boolean {
  return RESERVED_TENANT_IDS.includes(id);
}

/**
 * Refuses a reserved tenant id.
 * @param field the request field that names it, for `details.fields` (e.g. `tenantId`)
 * @throws ApiError RESERVED_NAME with `details: { fields: [field], names: [id] }`
 */
export function assertTenantIdNotReserved(id: string, field = 'tenantId'): void {
  if (isReservedTenantId(id)) {
    const what = id === ADMIN_GROUP ? 'the staff group' : 'a customer role group';
    throw new ApiError('RESERVED_NAME', `"${id}" is the name of ${what} and cannot be a tenant`, { fields: [field], names: [id] });
  }
}

/** `domain` lower-cased without a trailing dot (DNS names compare case-insensitively, RFC 4343). */
const normalDomain = (domain: string): string => domain.trim().toLowerCase().replace(/\.$/, '');

/**
 * The domains of `domains` that are one of `staffDomains` or a subdomain of one (`soc.vigia.example` under
 * `vigia.example`), in the order given.
 */
export function reservedEmailDomains(domains: readonly string[], staffDomains: readonly string[]): string[] {
  const staff = staffDomains.map(normalDomain).filter(Boolean);
  return domains.filter((d) => {
    const n = normalDomain(d);
    return staff.some((s) => n === s || n.endsWith(`.${s}`));
  });
}

/**
 * Refuses e-mail domains of the staff (an identity provider's `emailDomains`).
 * @throws ApiError RESERVED_NAME with `details: { fields: [field], names: <the reserved domains> }`
 */
export function assertEmailDomainsNotReserved(domains: readonly string[], staffDomains: readonly string[], field = 'emailDomains'): void {
  const reserved = reservedEmailDomains(domains, staffDomains);
  if (reserved.length > 0) {
    throw new ApiError('RESERVED_NAME', `e-mail domain reserved for the staff: ${reserved.join(', ')}`, { fields: [field], names: reserved });
  }
}
