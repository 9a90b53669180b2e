/**
 * The one paging function of the data layer: gap-free cursor pages over a GSI1 list partition, with an
 * optional sort-key range and optional filters (docs/data-model.md, "Pagination cursors").
 *
 * DynamoDB applies `Limit` before the FilterExpression, so a filtered Query may return fewer items than
 * asked while more exist. A filtered page reads up to `MAX_ROUND_TRIPS` batches of `READ_BATCH` items until
 * `limit` matches are found. When it has more matches than fit, the cursor is built from the keys of the
 * LAST ITEM RETURNED (not LastEvaluatedKey, which may be past unreturned matches), so the next page resumes
 * right after what the client saw: no item is skipped or repeated. A short page with a non-null cursor is
 * possible.
 */
import type { Page } from '../../contract/schemas.js';
import type { PageOptions, TimeRangeOptions } from '../../domain/ports.js';
import type { AttributeMap, TableRef } from './client.js';
import { decodeCursor, encodeCursor, invalidCursor } from './cursor.js';
import { recordOf, type Entity } from '../entities.js';
import { keys } from './keys.js';
import { indexOf } from '../access-patterns.js';
import { listFilter, type FilterClause, type FilterExpressionParts, type ListFilterSpec } from './list-filter.js';

/** Items read per Query round trip of a filtered page, and round trips per page (bounds latency and cost). */
const READ_BATCH = 200;
const MAX_ROUND_TRIPS = 8;

/**
 * Filters of a list, AND-combined: `in` keeps items whose attribute equals one of the values (a single
 * string = that value; undefined or `[]` = no filter); `contains` keeps items whose string attribute
 * contains the value. The shorthand of a `listFilter` (list-filter.ts) for lists filtered on the server only.
 */
export interface ListFilter {
  in?: Record<string, readonly string[] | string | undefined>;
  contains?: { attribute: string; value: string | undefined };
}

/** The `listFilter` of a `ListFilter` record: its `in` entries in order, then its `contains`. */
export function listFilterOf(filter: ListFilter | ListFilterSpec | undefined): ListFilterSpec {
  if (filter && 'toExpression' in filter) return filter;
  return listFilter([
    ...Object.entries(filter?.in ?? {}).map(([attribute, v]): FilterClause => ({ attribute, op: 'in', values: typeof v === 'string' ? [v] : v })),
    ...(filter?.contains ? [{ attribute: filter.contains.attribute, op: 'contains', value: filter.contains.value } as const] : []),
  ]);
}

/** A FilterExpression with its names and values, or undefined when `filter` filters nothing (`listFilter`'s `toExpression`). */
export function filterExpression(filter: ListFilter | ListFilterSpec | undefined): FilterExpressionParts | undefined {
  return listFilterOf(filter).toExpression();
}

/** One page request on a GSI1 list of tenant `tenantId`. */
export interface PageRequest extends PageOptions {
  tenantId: string;
  /** GSI1PK of the list, e.g. `TENANT#acme#ALARMS`. */
  scope: string;
  /** Inclusive GSI1SK bounds; absent = the whole partition. */
  range?: { lower: string; upper: string } | undefined;
  /** Default false (ascending GSI1SK). */
  newestFirst?: boolean | undefined;
  filter?: ListFilter | ListFilterSpec | undefined;
}

/**
 * Inclusive GSI1SK bounds of a time-ordered list whose sort key is `<ISO instant>#…`, between `from` and
 * `to` (both optional; none = `''` … `'~'`, every ISO instant): `to` is widened to `<to>#~` to keep every
 * item of that instant.
 */
export function timeRange(from?: string, to?: string): { lower: string; upper: string } {
  return { lower: from ?? '', upper: to ? `${to}#~` : '~' };
}

/**
 * The one paging loop: runs `query` (a Query on `table`, any index; no `Limit`/`ExclusiveStartKey`) from
 * `start` until `limit` items are read or the partition ends, at most `MAX_ROUND_TRIPS` requests. An
 * unfiltered query asks for exactly the items missing; a `filtered` one reads `READ_BATCH` at a time
 * (the filter is applied after the read). `out` may hold more than `limit` items when filtered;
 * `lastKey` is the last request's `LastEvaluatedKey`.
 */
export async function queryItems(
  table: TableRef,
  query: Record<string, unknown>,
  limit: number,
  filtered: boolean,
  start: AttributeMap | undefined,
): Promise<{ out: AttributeMap[]; lastKey: AttributeMap | undefined }> {
  const out: AttributeMap[] = [];
  let lastKey: AttributeMap | undefined;
  for (let trip = 0; trip < MAX_ROUND_TRIPS; trip++) {
    const res = await table.doc.send('Query', {
      TableName: table.tableName,
      ...query,
      Limit: filtered ? READ_BATCH : limit - out.length,
      ExclusiveStartKey: start,
    } as never);
    out.push(...((res as { Items?: AttributeMap[] }).Items ?? []));
    lastKey = (res as { LastEvaluatedKey?: AttributeMap }).LastEvaluatedKey;
    if (out.length >= limit || !lastKey) break;
    start = lastKey;
  }
  return { out, lastKey };
}

/**
 * One page of raw items (with keys) of a GSI1 list; see the module doc.
 * @throws ApiError VALIDATION_FAILED for a cursor of another list or tenant, or outside `range`.
 */
export async function queryPage(table: TableRef, req: PageRequest): Promise<{ items: AttributeMap[]; nextCursor: string | null }> {
  const start: AttributeMap | undefined = req.cursor ? decodeCursor(req.cursor, req.scope, keys.tenantPrefix(req.tenantId)) : undefined;
  if (start && req.range) {
    const sk = String(start.GSI1SK);
    if (start.GSI1SK === undefined || sk < req.range.lower || sk > req.range.upper) {
      invalidCursor('cursor outside the from/to range');
    }
  }
  const filter = filterExpression(req.filter);
  const names = { ...filter?.names };
  const values: AttributeMap = { ...filter?.values, ':p': req.scope, ...(req.range ? { ':lo': req.range.lower, ':hi': req.range.upper } : {}) };
  const { out, lastKey } = await queryItems(
    table,
    {
      IndexName: indexOf('tenantLists'),
      KeyConditionExpression: req.range ? 'GSI1PK = :p AND GSI1SK BETWEEN :lo AND :hi' : 'GSI1PK = :p',
      ...(filter ? { FilterExpression: filter.expression } : {}),
      ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
      ExpressionAttributeValues: values,
      ScanIndexForward: !req.newestFirst,
    },
    req.limit,
    !!filter,
    start,
  );
  if (out.length > req.limit || (out.length === req.limit && lastKey && filter)) {
    // Resume after the last item returned (LastEvaluatedKey may be further on when a filter skipped items).
    out.length = req.limit;
    const last = out[out.length - 1]!;
    return { items: out, nextCursor: encodeCursor(req.scope, { PK: last.PK, SK: last.SK, GSI1PK: last.GSI1PK, GSI1SK: last.GSI1SK }) };
  }
  return { items: out, nextCursor: encodeCursor(req.scope, lastKey) };
}

/** Position, time range and order of a page of an entity's list (`from`/`to` inclusive, ISO-8601 UTC). */
export interface ListOptions extends PageOptions, TimeRangeOptions {
  /** Overrides the list's default order. */
  newestFirst?: boolean | undefined;
}

/**
 * One page of the tenant's list of `entity` (its declared `list`) as API objects: `queryPage` on the
 * list's GSI1 partition, bounded by `from`/`to` when the list is ordered by time, with `filter`.
 * @throws ApiError VALIDATION_FAILED for a cursor of another list or tenant, or outside `from`/`to`.
 */
export async function listPage<R extends object, A extends object>(
  table: TableRef,
  entity: Entity<R, A>,
  tenantId: string,
  opts: ListOptions,
  filter?: ListFilter | ListFilterSpec,
): Promise<Page<A>> {
  const list = entity.list;
  if (!list) throw new Error(`${entity.name} has no list`);
  const page = await queryPage(table, {
    tenantId,
    scope: list.gsi1pk(tenantId),
    limit: opts.limit,
    cursor: opts.cursor,
    range: list.byTime ? timeRange(opts.from, opts.to) : undefined,
    newestFirst: opts.newestFirst ?? list.newestFirst,
    filter,
  });
  return { items: page.items.map((i) => recordOf(entity, i)), nextCursor: page.nextCursor };
}
