/**
 * The access requests (`AccessRequestEntity`, key `ACCESSREQUEST#<user name>` / `ACCESSREQUEST`) as an
 * `AccessRequestsPort` (rules: lambdas/domain/access-requests.ts; docs/api.md#access-requests).
 *
 * - `raise`: the pre token generation trigger's write at a sign-in of a user in no group: ONE PutItem of the request
 *   (`attribute_not_exists(PK) OR status <> dismissed`), then its audit entry (PutItem): the trigger's role holds
 *   `dynamodb:PutItem` on the table and nothing more (infra/pre-token-trigger.ts). A dismissed user's sign-in writes
 *   neither.
 * - `list`: ONE Query of GSI2 `ACCESSREQUESTS#<status>`, newest first, `limit` items; the cursor names the partition.
 * - `decide`: ONE TransactWriteItems [Put the decided request `status = pending`, audit entries] and, for a grant, the
 *   member's ledger Put `attribute_not_exists` and `userCount` ADD 1 (as `addTenantMember`); when the user is counted
 *   already, the same without those two.
 */
import type { AccessRequest, AccessRequestStatus, Page } from '../contract/schemas.js';
import type { AccessRequestsPort } from '../domain/access-requests.js';
import { indexOf, INDEX_ACCESS } from './access-patterns.js';
import { auditPut, putAuditEntry } from './audit.js';
import type { TableRef, TransactWriteItem } from './table/client.js';
import { decodeKeyCursor, encodeKeyCursor } from './table/cursor.js';
import { isConditionFailure, isConditionFailureInTransaction } from './table/dynamo-util.js';
import { AccessRequestEntity, itemOf, recordOf, TenantMemberEntity } from './entities.js';
import { keys } from './table/keys.js';
import { DEFAULT_RETENTION, type Retention } from './retention.js';
import { userCountUpdate } from './tenant-admin.js';

/** One page of the requests in `status`, newest first (ONE Query of GSI2). @throws ApiError VALIDATION_FAILED (cursor) */
export async function listAccessRequests(status: AccessRequestStatus, opts: { limit: number; cursor?: string | undefined }, table: TableRef): Promise<Page<AccessRequest>> {
  const { partitionKey: pk, sortKey: sk } = INDEX_ACCESS.accessRequests.index;
  const partition = keys.accessRequestsGsi2Pk(status);
  const keyNames = ['PK', 'SK', pk, sk].sort();
  const start = opts.cursor ? decodeKeyCursor(opts.cursor, { scope: partition, keyNames, partitionKey: pk, partition, pkPrefix: 'ACCESSREQUEST#' }) : undefined;
  const res = await table.doc.send('Query', {
    TableName: table.tableName,
    IndexName: indexOf('accessRequests'),
    KeyConditionExpression: '#p = :p',
    ExpressionAttributeNames: { '#p': pk },
    ExpressionAttributeValues: { ':p': partition },
    ScanIndexForward: false,
    Limit: opts.limit,
    ...(start ? { ExclusiveStartKey: start } : {}),
  });
  const last = res.LastEvaluatedKey as Record<string, unknown> | undefined;
  const nextCursor = encodeKeyCursor(partition, keyNames, last);
  return { items: (res.Items ?? []).map((i) => recordOf(AccessRequestEntity, i as Record<string, unknown>)), nextCursor };
}

/** The access requests of `table`; `retention` dates the audit entries' TTL (see module doc). */
export function accessRequestsRepository(table: TableRef, retention: Retention = DEFAULT_RETENTION): AccessRequestsPort {
  const decidedPut = (r: AccessRequest): TransactWriteItem => ({
    Put: {
      TableName: table.tableName,
      Item: itemOf(AccessRequestEntity, r),
      ConditionExpression: '#s = :pending',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':pending': 'pending' },
    },
  });
  return {
    async raise(request, audit) {
      try {
        await table.doc.send('PutItem', {
          TableName: table.tableName,
          Item: itemOf(AccessRequestEntity, request),
          ConditionExpression: 'attribute_not_exists(PK) OR #s <> :dismissed',
          ExpressionAttributeNames: { '#s': 'status' },
          ExpressionAttributeValues: { ':dismissed': 'dismissed' },
        });
      } catch (e) {
        if (isConditionFailure(e)) return false;
        throw e;
      }
      await putAuditEntry(audit, table, retention);
      return true;
    },
    async get(id) {
      const res = await table.doc.send('GetItem', { TableName: table.tableName, Key: keys.accessRequest(id), ConsistentRead: true });
      return res.Item ? recordOf(AccessRequestEntity, res.Item as Record<string, unknown>) : null;
    },
    list: (status, opts) => listAccessRequests(status, opts, table),
    async decide(decided, audit) {
      const entries = audit.map((e) => auditPut(e, table, retention));
      const member: TransactWriteItem[] =
        decided.status === 'granted' && decided.tenantId
          ? [
              { Put: { TableName: table.tableName, Item: itemOf(TenantMemberEntity, { tenantId: decided.tenantId, username: decided.id, addedAt: decided.decidedAt ?? new Date().toISOString() }), ConditionExpression: 'attribute_not_exists(PK)' } },
              userCountUpdate(table, decided.tenantId, 1),
            ]
          : [];
      try {
        await table.doc.send('TransactWriteItems', { TransactItems: [decidedPut(decided), ...entries, ...member] });
        return true;
      } catch (e) {
        if (isConditionFailureInTransaction(e, 0)) return false;
        if (member.length === 0 || !isConditionFailureInTransaction(e, 1 + entries.length)) throw e;
      }
      // Counted already (the user joined the tenant by another way meanwhile): the decision and its entries only.
      try {
        await table.doc.send('TransactWriteItems', { TransactItems: [decidedPut(decided), ...entries] });
        return true;
      } catch (e) {
        if (isConditionFailureInTransaction(e, 0)) return false;
        throw e;
      }
    },
  };
}
