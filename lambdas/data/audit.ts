/**
 * The audit log over the single table (`AuditEntity` in `entities.ts`; docs/api.md#audit-log).
 *
 * Writing: a state-changing request appends `auditPut(entry, table, retention)` to the TransactWriteItems
 * of its change, so the entry exists if and only if the change does. Changes that are not a DynamoDB
 * write (Cognito user administration) call `putAuditEntry` right after the Cognito call succeeded.
 *
 * Reading:
 *  - one tenant (customers, or staff with `tenant`): Query GSI1 `TENANT#<t>#AUDIT`, newest first;
 *  - every tenant (staff): Query GSI2 `GSI2PK = AUDIT` (`GSI2SK = <at>#<tenantId>#<id>`), newest first.
 * Both are one paged Query per page (`from`/`to` bound the sort key; `action`/`actor` are filters).
 */
import type { AuditEntry, Page } from '../contract/schemas.js';
import type { AuditListOptions, AuditPort } from '../domain/ports.js';
import type { AttributeMap, TableRef, TransactWriteItem } from './table/client.js';
import { decodeKeyCursor, encodeKeyCursor } from './table/cursor.js';
import { AuditEntity, itemOf, recordOf } from './entities.js';
import { keys } from './table/keys.js';
import { filterExpression, queryItems, queryPage, timeRange, type ListFilter } from './table/paging.js';
import { DEFAULT_RETENTION, type Retention } from './retention.js';
import { INDEX_ACCESS } from './access-patterns.js';

export { STAFF_AUDIT_TENANT } from '../domain/audit.js';

export { newAuditEntry, changedFields, type AuditInput } from '../domain/audit.js';

/**
 * The TransactWriteItems action that stores `entry` (a Put that never overwrites: the id is fresh). Its TTL
 * is `at` + `retention.auditDays`.
 */
export function auditPut(entry: AuditEntry, table: TableRef, retention: Retention = DEFAULT_RETENTION): TransactWriteItem {
  return { Put: { TableName: table.tableName, Item: itemOf(AuditEntity, entry, retention), ConditionExpression: 'attribute_not_exists(PK)' } };
}

/** Stores one entry on its own (after a change that is not a DynamoDB write, or an export). */
export async function putAuditEntry(entry: AuditEntry, table: TableRef, retention: Retention = DEFAULT_RETENTION): Promise<void> {
  await table.doc.send('PutItem', { TableName: table.tableName, Item: itemOf(AuditEntity, entry, retention) });
}


/** The FilterExpression pieces for `action` / `actor` (sub or e-mail). */
function auditFilter(opts: AuditListOptions): { expression: string; names: Record<string, string>; values: AttributeMap } | undefined {
  const base = filterExpression({ in: { action: opts.action } } satisfies ListFilter);
  if (!opts.actor) return base;
  const names = { ...base?.names, '#ac': 'actor', '#as': 'sub', '#ae': 'email' };
  const values = { ...base?.values, ':actor': opts.actor };
  const actorExpr = '(#ac.#as = :actor OR #ac.#ae = :actor)';
  return { expression: base ? `${base.expression} AND ${actorExpr}` : actorExpr, names, values };
}

/** One tenant's entries, newest first (GSI1). @throws ApiError VALIDATION_FAILED (cursor) */
export async function listTenantAudit(tenantId: string, opts: AuditListOptions, table: TableRef): Promise<Page<AuditEntry>> {
  // queryPage takes ListFilter; the actor filter needs a nested path, so page with action only when
  // actor is absent, else post-filter through the same query with our own expression.
  if (!opts.actor) {
    const page = await queryPage(table, {
      tenantId,
      scope: keys.auditGsi1Pk(tenantId),
      limit: opts.limit,
      cursor: opts.cursor,
      range: timeRange(opts.from, opts.to),
      newestFirst: true,
      filter: { in: { action: opts.action } },
    });
    return { items: page.items.map((i) => recordOf(AuditEntity, i)), nextCursor: page.nextCursor };
  }
  return queryIndex(table, 'tenantLists', keys.auditGsi1Pk(tenantId), opts, keys.tenantPrefix(tenantId));
}

/** Every tenant's entries, newest first (GSI2 `AUDIT`). @throws ApiError VALIDATION_FAILED (cursor) */
export function listAllAudit(opts: AuditListOptions, table: TableRef): Promise<Page<AuditEntry>> {
  return queryIndex(table, 'auditAllTenants', keys.AUDIT_GSI2PK, opts, 'TENANT#');
}

/** Items read per round trip of a filtered page, and round trips per page. */

/**
 * Gap-free pages of one index partition (same rules as `paging.ts#queryPage`, for GSI1 or GSI2): the cursor
 * names the partition and every key must stay in it (`PK` under `pkPrefix`).
 */
async function queryIndex(table: TableRef, pattern: 'tenantLists' | 'auditAllTenants', partition: string, opts: AuditListOptions, pkPrefix: string): Promise<Page<AuditEntry>> {
  const { index } = INDEX_ACCESS[pattern];
  const pkAttr = index.partitionKey;
  const skAttr = index.sortKey;
  const keyNames = ['PK', 'SK', pkAttr, skAttr];
  const range = timeRange(opts.from, opts.to);
  const start: AttributeMap | undefined = opts.cursor
    ? decodeKeyCursor(opts.cursor, { scope: partition, keyNames, partitionKey: pkAttr, partition, pkPrefix, accept: (k) => k[skAttr]! >= range.lower && k[skAttr]! <= range.upper })
    : undefined;
  const filter = auditFilter(opts);
  const { out, lastKey } = await queryItems(
    table,
    {
      IndexName: index.indexName,
      KeyConditionExpression: `${pkAttr} = :p AND ${skAttr} BETWEEN :lo AND :hi`,
      ...(filter ? { FilterExpression: filter.expression, ExpressionAttributeNames: filter.names } : {}),
      ExpressionAttributeValues: { ...filter?.values, ':p': partition, ':lo': range.lower, ':hi': range.upper },
      ScanIndexForward: false,
    },
    opts.limit,
    !!filter,
    start,
  );
  const cursorOf = (k: AttributeMap | undefined) => encodeKeyCursor(partition, keyNames, k);
  if (out.length > opts.limit || (out.length === opts.limit && lastKey && filter)) {
    out.length = opts.limit;
    return { items: out.map((i) => recordOf(AuditEntity, i)), nextCursor: cursorOf(out[out.length - 1]) };
  }
  return { items: out.map((i) => recordOf(AuditEntity, i)), nextCursor: cursorOf(lastKey) };
}

/** The audit storage as an `AuditPort`. */
export function auditRepository(table: TableRef, retention: Retention = DEFAULT_RETENTION): AuditPort {
  return {
    put: (e) => putAuditEntry(e, table, retention),
    listTenant: (t, o) => listTenantAudit(t, o, table),
    listAll: (o) => listAllAudit(o, table),
  };
}
