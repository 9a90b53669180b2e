/** Account operations: who am I (`GET /me`) and the tenant registry (`GET /tenants`, admin only). */
import type { Me, Tenant, TenantList } from '../contract/schemas.js';
import type { Identity } from './identity.js';
import type { TenantsPort } from './ports.js';

/**
 * The caller: sub, e-mail, groups, admin flag and the tenants it may act on, with names from the
 * registry (a tenant group missing from the registry is listed with its id as name). Admin: every
 * registered tenant plus its own tenant groups.
 */
export async function describeMe(port: TenantsPort, identity: Identity): Promise<Me> {
  const registry = await port.listTenants();
  const byId = new Map(registry.map((t) => [t.id, t]));
  const tenants: Tenant[] = identity.tenants.map((id) => byId.get(id) ?? { id, name: id });
  if (identity.isAdmin) {
    for (const t of registry) if (!identity.tenants.includes(t.id)) tenants.push(t);
    tenants.sort((a, b) => a.id.localeCompare(b.id));
  }
  return { sub: identity.sub, email: identity.email, groups: identity.groups, isAdmin: identity.isAdmin, tenants };
}

/** `GET /tenants` (admin only by the route table): every registered tenant, ordered by id. */
export async function listTenants(port: TenantsPort): Promise<TenantList> {
  return { items: await port.listTenants() };
}
