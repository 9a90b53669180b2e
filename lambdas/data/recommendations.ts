/**
 * Recommendations over the single table (keys in `keys.ts`): created by the collectors/SOC through the
 * ingest API, listed newest first with status/priority filters, status changed by customers with a note
 * (conditional on the status read, so concurrent changes cannot both apply).
 */
import type { Page, Recommendation, RecommendationStatus } from '../contract/schemas.js';
import { type TableRef } from './client.js';
import { isConditionFailure, stripKeys } from './dynamo-util.js';
import { ENTITY, keys } from './keys.js';
import { filteredGsi1Page } from './paging.js';

/** Creates a recommendation unless its id exists (false on a replay). */
export async function putRecommendation(r: Recommendation, table: TableRef): Promise<boolean> {
  try {
    await table.doc.send('PutItem', {
      TableName: table.tableName,
      Item: { ...keys.recommendation(r.tenantId, r.id), ...keys.recommendationGsi1(r.tenantId, r.id, r.createdAt), entity: ENTITY.recommendation, ...r },
      ConditionExpression: 'attribute_not_exists(PK)',
    });
    return true;
  } catch (e) {
    if (isConditionFailure(e)) return false;
    throw e;
  }
}

export async function getRecommendation(tenantId: string, id: string, table: TableRef): Promise<Recommendation | null> {
  const r = await table.doc.send('GetItem', { TableName: table.tableName, Key: keys.recommendation(tenantId, id), ConsistentRead: true });
  return r.Item ? stripKeys<Recommendation>(r.Item) : null;
}

/** Sets status + note + who/when if the stored status is still `expected`; false otherwise. */
export async function changeRecommendationStatus(
  tenantId: string,
  id: string,
  expected: RecommendationStatus,
  change: { status: RecommendationStatus; note: string; by: string; at: string },
  table: TableRef,
): Promise<Recommendation | null> {
  try {
    const r = await table.doc.send('UpdateItem', {
      TableName: table.tableName,
      Key: keys.recommendation(tenantId, id),
      UpdateExpression: 'SET #s = :s, statusNote = :n, statusChangedBy = :b, statusChangedAt = :a',
      ConditionExpression: '#s = :e',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':s': change.status, ':n': change.note, ':b': change.by, ':a': change.at, ':e': expected },
      ReturnValues: 'ALL_NEW',
    });
    return stripKeys<Recommendation>(r.Attributes ?? {});
  } catch (e) {
    if (isConditionFailure(e)) return null;
    throw e;
  }
}

/** Newest first (Query GSI1 `TENANT#t#RECOMMENDATIONS`). @throws ApiError VALIDATION_FAILED (cursor) */
export async function listRecommendations(
  tenantId: string,
  opts: { limit: number; cursor?: string | undefined; status?: readonly string[] | undefined; priority?: readonly string[] | undefined },
  table: TableRef,
): Promise<Page<Recommendation>> {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const parts: string[] = [];
  for (const [attr, list] of [['status', opts.status], ['priority', opts.priority]] as const) {
    if (!list?.length) continue;
    names[`#${attr}`] = attr;
    parts.push(`#${attr} IN (${list.map((v, i) => { values[`:${attr}${i}`] = v; return `:${attr}${i}`; }).join(', ')})`);
  }
  const page = await filteredGsi1Page(table, {
    scope: keys.recommendationsGsi1Pk(tenantId),
    tenantPrefix: keys.tenantPrefix(tenantId),
    lower: '',
    upper: '~',
    newestFirst: true,
    limit: opts.limit,
    cursor: opts.cursor,
    filter: parts.length ? { expression: parts.join(' AND '), names, values } : undefined,
  });
  return { items: page.items.map((i) => stripKeys<Recommendation>(i)), nextCursor: page.nextCursor };
}

export interface RecommendationsPort {
  put(r: Recommendation): Promise<boolean>;
  get(tenantId: string, id: string): Promise<Recommendation | null>;
  changeStatus: (tenantId: string, id: string, expected: RecommendationStatus, change: Parameters<typeof changeRecommendationStatus>[3]) => Promise<Recommendation | null>;
  list: (tenantId: string, opts: Parameters<typeof listRecommendations>[1]) => Promise<Page<Recommendation>>;
}

export function recommendationsRepository(table: TableRef): RecommendationsPort {
  return {
    put: (r) => putRecommendation(r, table),
    get: (t, id) => getRecommendation(t, id, table),
    changeStatus: (t, id, e, c) => changeRecommendationStatus(t, id, e, c, table),
    list: (t, o) => listRecommendations(t, o, table),
  };
}
