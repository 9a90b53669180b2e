/**
 * Tenant registry (`TenantEntity` in `entities.ts`): one item per customer tenant, written by the
 * seed/admin scripts; Cognito groups are the source of membership, this registry the source of names.
 */
import type { Tenant } from '../contract/schemas.js';
import type { TenantsPort } from '../domain/ports.js';
import type { TableRef } from './client.js';
import { queryAll } from './dynamo-util.js';
import { itemOf, recordOf, TenantEntity } from './entities.js';
import { keys, TENANTS_PK } from './keys.js';

/** Creates or replaces a tenant's registry item (idempotent). */
export async function putTenant(tenant: Tenant, table: TableRef): Promise<void> {
  await table.doc.send('PutItem', { TableName: table.tableName, Item: itemOf(TenantEntity, tenant) });
}

/** One tenant, or null. */
export async function getTenant(id: string, table: TableRef): Promise<Tenant | null> {
  const res = await table.doc.send('GetItem', { TableName: table.tableName, Key: keys.tenant(id) });
  return res.Item ? recordOf(TenantEntity, res.Item) : null;
}

/** Every registered tenant, ordered by id (Query on the registry partition). */
export async function listTenants(table: TableRef): Promise<Tenant[]> {
  const items = await queryAll(table, {
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :p)',
    ExpressionAttributeValues: { ':pk': TENANTS_PK, ':p': 'TENANT#' },
  });
  return items.map((i) => recordOf(TenantEntity, i));
}

/** The registry as a `TenantsPort`. */
export function tenantsRepository(table: TableRef): TenantsPort {
  return {
    getTenant: (id) => getTenant(id, table),
    listTenants: () => listTenants(table),
  };
}
