/**
 * Recommendations over the single table (`RecommendationEntity` in `entities.ts`): created by the
 * collectors/SOC through the ingest API, listed newest first with status/priority filters, status changed
 * by customers with a note (conditional on the status read, so concurrent changes cannot both apply; the
 * transition rule itself is domain logic).
 */
import type { AuditEntry, Page, Recommendation, RecommendationStatus } from '../contract/schemas.js';
import type { RecommendationListOptions, RecommendationsPort, RecommendationStatusChange } from '../domain/ports.js';
import type { TableRef } from './table/client.js';
import { recommendationAddedEvent } from '../domain/activity.js';
import { activityPut } from './activity.js';
import { auditPut } from './audit.js';
import { isConditionFailureInTransaction, writeIf } from './table/dynamo-util.js';
import { DEFAULT_RETENTION, type Retention } from './retention.js';
import { itemOf, RecommendationEntity, recordOf } from './entities.js';
import { keys } from './table/keys.js';
import { listPage } from './table/paging.js';

/**
 * Creates a recommendation unless its id exists (false on a replay): one TransactWriteItems with its
 * `recommendation.added` activity event (docs/notifications.md), so a replay writes no event either.
 */
export async function putRecommendation(r: Recommendation, table: TableRef): Promise<boolean> {
  try {
    await table.doc.send('TransactWriteItems', {
      TransactItems: [
        { Put: { TableName: table.tableName, Item: itemOf(RecommendationEntity, r), ConditionExpression: 'attribute_not_exists(PK)' } },
        activityPut(recommendationAddedEvent(r), table),
      ],
    });
    return true;
  } catch (e) {
    if (isConditionFailureInTransaction(e, 0)) return false;
    throw e;
  }
}

/** One recommendation (consistent GetItem), or null. */
export async function getRecommendation(tenantId: string, id: string, table: TableRef): Promise<Recommendation | null> {
  const r = await table.doc.send('GetItem', { TableName: table.tableName, Key: keys.recommendation(tenantId, id), ConsistentRead: true });
  return r.Item ? recordOf(RecommendationEntity, r.Item) : null;
}

/** Sets status + note + who/when if the stored status is still `expected`; null (nothing written) otherwise. */
export async function changeRecommendationStatus(
  tenantId: string,
  id: string,
  expected: RecommendationStatus,
  change: RecommendationStatusChange,
  table: TableRef,
  audit?: AuditEntry,
  retention: Retention = DEFAULT_RETENTION,
): Promise<Recommendation | null> {
  const update = {
    Key: keys.recommendation(tenantId, id),
    UpdateExpression: `SET #s = :s, statusNote = :n, statusChangedBy = :b, statusChangedAt = :a${change.bySub ? ', statusChangedBySub = :bs' : ''}`,
    ConditionExpression: '#s = :e',
    ExpressionAttributeNames: { '#s': 'status' },
    ExpressionAttributeValues: { ':s': change.status, ':n': change.note, ':b': change.by, ':a': change.at, ':e': expected, ...(change.bySub ? { ':bs': change.bySub } : {}) },
  };
  if (audit) {
    // With its audit entry in one transaction (docs/api.md#audit-log). A transaction returns no item, so the
    // answer is the item read first with the change applied (nothing is read after the write: a failed read
    // must not turn a stored change into an error).
    const cur = await getRecommendation(tenantId, id, table);
    if (!cur || cur.status !== expected) return null;
    try {
      await table.doc.send('TransactWriteItems', { TransactItems: [{ Update: { TableName: table.tableName, ...update } }, auditPut(audit, table, retention)] });
    } catch (e) {
      if (isConditionFailureInTransaction(e, 0)) return null;
      throw e;
    }
    return { ...cur, status: change.status, statusNote: change.note, statusChangedBy: change.by, ...(change.bySub ? { statusChangedBySub: change.bySub } : {}), statusChangedAt: change.at };
  }
  const r = await writeIf(table, 'UpdateItem', { ...update, ReturnValues: 'ALL_NEW' });
  return r ? recordOf(RecommendationEntity, r.Attributes ?? {}) : null;
}

/** Newest first (GSI1 `TENANT#t#RECOMMENDATIONS`). @throws ApiError VALIDATION_FAILED (cursor) */
export function listRecommendations(tenantId: string, opts: RecommendationListOptions, table: TableRef): Promise<Page<Recommendation>> {
  return listPage(table, RecommendationEntity, tenantId, opts, { in: { status: opts.status, priority: opts.priority } });
}

/** The recommendation storage as a `RecommendationsPort`. */
export function recommendationsRepository(table: TableRef, retention: Retention = DEFAULT_RETENTION): RecommendationsPort {
  return {
    put: (r) => putRecommendation(r, table),
    get: (t, id) => getRecommendation(t, id, table),
    changeStatus: (t, id, e, c, a) => changeRecommendationStatus(t, id, e, c, table, a, retention),
    list: (t, o) => listRecommendations(t, o, table),
  };
}
