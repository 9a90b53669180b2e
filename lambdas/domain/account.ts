/** Account operations: who am I (`GET /me`) and the tenant registry (`GET /tenants`, admin only). */
import type { Me, Tenant, TenantList } from '../contract/schemas.js';
import { roleOfGroups, type Identity } from './identity.js';
import type { TenantsPort } from './ports.js';

/**
 * The caller: sub, e-mail (verified only, else `''`), groups, admin flag and the tenants it may act on,
 * with names from the registry. A group missing from the registry is no tenant (docs/api.md#tenants).
 * Admin: every registered tenant. `federated` (and `identityProvider`) from the ID token's `identities` claim.
 */
export async function describeMe(port: TenantsPort, identity: Identity): Promise<Me> {
  const registry = await port.listTenants();
  const byId = new Map(registry.map((t) => [t.id, t]));
  const tenants: Tenant[] = identity.tenants.flatMap((id) => {
    const t = byId.get(id);
    return t ? [t] : [];
  });
  if (identity.isAdmin) {
    for (const t of registry) if (!identity.tenants.includes(t.id)) tenants.push(t);
    tenants.sort((a, b) => a.id.localeCompare(b.id));
  }
  const federated = identity.federatedProvider ? { federated: true, identityProvider: identity.federatedProvider } : { federated: false };
  const role = identity.isAdmin ? {} : { role: roleOfGroups(identity.groups) };
  return { sub: identity.sub, email: identity.email, groups: identity.groups, isAdmin: identity.isAdmin, tenants, ...federated, ...role };
}

/** `GET /tenants` (admin only by the route table): every registered tenant, ordered by id. */
export async function listTenants(port: TenantsPort): Promise<TenantList> {
  return { items: await port.listTenants() };
}
