/**
 * Tenant registry (`TenantEntity` in `entities.ts`): one item per customer tenant, written by the
 * seed/admin scripts; Cognito groups are the source of membership, this registry the source of names and
 * of the collector principals allowed to write the tenant (`collectors`, a string set of IAM ARNs; see
 * docs/api.md#collectors-and-tenants).
 */
import type { Tenant } from '../contract/schemas.js';
import type { TenantsPort } from '../domain/ports.js';
import type { TableRef } from './client.js';
import { isConditionFailure, queryAll, setClause } from './dynamo-util.js';
import { itemOf, recordOf, TenantEntity } from './entities.js';
import { keys, TENANTS_PK } from './keys.js';

/**
 * Creates a tenant's registry item or updates its declared attributes (idempotent; a rename). An
 * UpdateItem rather than a PutItem, so the tenant's collector grants (`collectors`) survive a rename.
 */
export async function putTenant(tenant: Tenant, table: TableRef): Promise<void> {
  const { PK, SK, ...rest } = itemOf(TenantEntity, tenant);
  const { set, names, values } = setClause(rest);
  await table.doc.send('UpdateItem', {
    TableName: table.tableName,
    Key: { PK, SK },
    UpdateExpression: set,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  });
}

/** The tenant is not in the registry (a grant needs a registered tenant). */
export class TenantNotRegistered extends Error {
  override name = 'TenantNotRegistered';
}

/**
 * The collector principals allowed to write a tenant (normalised IAM ARNs, sorted), or null when the
 * tenant is not registered. One GetItem (eventually consistent; a new grant is seen within about a second).
 */
export async function getTenantCollectors(id: string, table: TableRef): Promise<string[] | null> {
  const res = await table.doc.send('GetItem', {
    TableName: table.tableName,
    Key: keys.tenant(id),
    ProjectionExpression: 'PK, #c',
    ExpressionAttributeNames: { '#c': 'collectors' },
  });
  if (!res.Item) return null;
  const c = (res.Item as { collectors?: Iterable<string> }).collectors;
  return c ? [...c].sort() : [];
}

/**
 * Adds (`grant`) or removes (`revoke`) a collector principal on a registered tenant (string set `ADD` /
 * `DELETE`: idempotent). @throws TenantNotRegistered when the tenant has no registry item.
 */
export async function setTenantCollector(id: string, principal: string, action: 'grant' | 'revoke', table: TableRef): Promise<void> {
  try {
    await table.doc.send('UpdateItem', {
      TableName: table.tableName,
      Key: keys.tenant(id),
      UpdateExpression: `${action === 'grant' ? 'ADD' : 'DELETE'} #c :p`,
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeNames: { '#c': 'collectors' },
      ExpressionAttributeValues: { ':p': new Set([principal]) },
    });
  } catch (e) {
    if (isConditionFailure(e)) throw new TenantNotRegistered(`tenant ${id} is not registered`);
    throw e;
  }
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
    getTenantCollectors: (id) => getTenantCollectors(id, table),
  };
}
