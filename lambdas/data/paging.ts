/**
 * Gap-free cursor pages over a GSI1 partition with an optional FilterExpression (used by the alarm list;
 * the incident list in `incidents.ts` follows the same rule).
 *
 * DynamoDB applies `Limit` before the filter, so a filtered Query may return fewer items than asked while
 * more exist. This reads up to `MAX_ROUND_TRIPS` batches of `READ_BATCH` items until `limit` matches are
 * found. When it has more matches than fit, the cursor is built from the keys of the LAST ITEM RETURNED
 * (not LastEvaluatedKey, which may be past unreturned matches), so the next page resumes right after what
 * the client saw: no item is skipped or repeated. A short page with a non-null cursor is possible.
 */
import { ApiError } from '../domain/errors.js';
import type { TableRef } from './client.js';
import { decodeCursor, encodeCursor } from './cursor.js';

const READ_BATCH = 200;
const MAX_ROUND_TRIPS = 8;

export interface Gsi1PageInput {
  /** GSI1PK of the list, e.g. `TENANT#acme#ALARMS`. */
  scope: string;
  /** Prefix every base-table PK of the list starts with (cursor check). */
  tenantPrefix: string;
  /** Inclusive GSI1SK bounds (`''` / `'~'` for unbounded). */
  lower: string;
  upper: string;
  newestFirst: boolean;
  limit: number;
  cursor?: string | undefined;
  filter?: { expression: string; names: Record<string, string>; values: Record<string, unknown> } | undefined;
}

/** One page of raw items (with keys). @throws ApiError VALIDATION_FAILED for a foreign cursor or one outside the bounds. */
export async function filteredGsi1Page(
  table: TableRef,
  input: Gsi1PageInput,
): Promise<{ items: Record<string, unknown>[]; nextCursor: string | null }> {
  let start: Record<string, unknown> | undefined = input.cursor ? decodeCursor(input.cursor, input.scope, input.tenantPrefix) : undefined;
  if (start) {
    const sk = String(start.GSI1SK);
    if (start.GSI1SK === undefined || sk < input.lower || sk > input.upper) {
      throw new ApiError('VALIDATION_FAILED', 'invalid cursor', [{ path: 'query.cursor', message: 'cursor outside the from/to range' }]);
    }
  }
  const names = { ...(input.filter?.names ?? {}) };
  const values = { ...(input.filter?.values ?? {}), ':p': input.scope, ':lo': input.lower, ':hi': input.upper };
  const out: Record<string, unknown>[] = [];
  let lastKey: Record<string, unknown> | undefined;
  for (let trip = 0; trip < MAX_ROUND_TRIPS; trip++) {
    const res = await table.doc.send('Query', {
      TableName: table.tableName,
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :p AND GSI1SK BETWEEN :lo AND :hi',
      ...(input.filter ? { FilterExpression: input.filter.expression } : {}),
      ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
      ExpressionAttributeValues: values,
      ScanIndexForward: !input.newestFirst,
      Limit: input.filter ? READ_BATCH : input.limit - out.length,
      ExclusiveStartKey: start,
    });
    out.push(...(res.Items ?? []));
    lastKey = res.LastEvaluatedKey;
    if (out.length >= input.limit || !lastKey) break;
    start = lastKey;
  }
  if (out.length >= input.limit && (out.length > input.limit || lastKey)) {
    out.length = input.limit;
    const last = out[out.length - 1]!;
    return { items: out, nextCursor: encodeCursor(input.scope, { PK: last.PK, SK: last.SK, GSI1PK: last.GSI1PK, GSI1SK: last.GSI1SK }) };
  }
  return { items: out, nextCursor: encodeCursor(input.scope, lastKey) };
}

/** Time bounds and paging of a newest-first list (`from`/`to` ISO-8601 UTC instants, inclusive; both optional). */
export interface TimeRangePageOptions {
  limit: number;
  cursor?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

/**
 * One page of a time-ordered GSI1 list, newest first, between `opts.from` and `opts.to`: the GSI1SK of
 * these lists is `<ISO instant>#<id>`, so `to` is widened to `<to>#~` to keep the items of that instant;
 * no bound = `''`/`'~'`. Raw items (with keys), as `filteredGsi1Page`.
 * @throws ApiError VALIDATION_FAILED for a foreign cursor or one outside the bounds.
 */
export function newestFirstInRange(
  table: TableRef,
  list: { scope: string; tenantPrefix: string },
  opts: TimeRangePageOptions,
  filter?: Gsi1PageInput['filter'],
): Promise<{ items: Record<string, unknown>[]; nextCursor: string | null }> {
  return filteredGsi1Page(table, {
    ...list,
    lower: opts.from ?? '',
    upper: opts.to ? `${opts.to}#~` : '~',
    newestFirst: true,
    limit: opts.limit,
    cursor: opts.cursor,
    filter,
  });
}
