/**
 * Tenant registry (`TenantEntity` in `entities.ts`): one item per customer tenant, written by the
 * seed/admin scripts; Cognito groups are the source of membership, this registry the source of names and
 * of the collector principals allowed to write the tenant (`collectors`, a string set of IAM ARNs; see
 * docs/api.md#collectors-and-tenants).
 */
import type { Page, Tenant, TenantSummary } from '../contract/schemas.js';
import type { PageOptions, TenantsPort } from '../domain/ports.js';
import type { AttributeMap, TableRef } from './table/client.js';
import { decodeCursor, encodeCursor } from './table/cursor.js';
import { batchGetAll, isConditionFailure, queryAll, setClause } from './table/dynamo-util.js';
import { itemOf, recordOf, TenantEntity } from './entities.js';
import { keys, TENANTS_PK } from './table/keys.js';

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

/**
 * One page of the registry (ordered by id) with each tenant's counts kept at write time
 * (docs/data-model.md#tenant-counts): ONE Query `PK = TENANTS` (`limit` items, 1–100) and ONE BatchGetItem of
 * the page's stats items (`TENANT#<t>` / `STATS`, projected to `devices`, `aggVersion`; unprocessed keys are
 * asked again). No Cognito call, nothing counted per view. `userCount` is the registry item's counter (absent
 * on a tenant the user-count backfill has not reached yet, `npm run platform:user-counts`); `deviceCount` the
 * stats item's `devices` (absent on a tenant whose aggregates were never built, until
 * `npm run platform:rebuild-aggregates`). @throws ApiError VALIDATION_FAILED (cursor)
 */
export async function listTenantSummaries(opts: PageOptions, table: TableRef): Promise<Page<TenantSummary>> {
  const res = await table.doc.send('Query', {
    TableName: table.tableName,
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :p)',
    ExpressionAttributeValues: { ':pk': TENANTS_PK, ':p': 'TENANT#' },
    Limit: opts.limit,
    ...(opts.cursor ? { ExclusiveStartKey: decodeCursor(opts.cursor, TENANTS_PK, TENANTS_PK) } : {}),
  });
  const rows = res.Items ?? [];
  const stats = new Map<string, AttributeMap>();
  // Keys left unprocessed are asked again (`batchGetAll`); before, they were dropped after 5 calls and the
  // tenant's device count silently went missing.
  for (const i of await batchGetAll(table, rows.map((i) => keys.stats(String(i.id))), { projection: 'PK, #d, aggVersion', names: { '#d': 'devices' } })) stats.set(String(i.PK), i);
  const items = rows.map((i): TenantSummary => {
    const tenant = recordOf(TenantEntity, i);
    const s = stats.get(keys.stats(tenant.id).PK);
    return {
      ...tenant,
      ...(typeof i.userCount === 'number' ? { userCount: Math.max(0, i.userCount) } : {}),
      // Only built aggregates hold the whole count (a tenant older than them has none until the upgrade).
      ...(s?.aggVersion !== undefined ? { deviceCount: typeof s.devices === 'number' ? Math.max(0, s.devices) : 0 } : {}),
    };
  });
  return { items, nextCursor: encodeCursor(TENANTS_PK, res.LastEvaluatedKey) };
}

/** The registry as a `TenantsPort`. */
export function tenantsRepository(table: TableRef): TenantsPort {
  return {
    getTenant: (id) => getTenant(id, table),
    listTenants: () => listTenants(table),
    listTenantSummaries: (opts) => listTenantSummaries(opts, table),
    getTenantCollectors: (id) => getTenantCollectors(id, table),
  };
}
