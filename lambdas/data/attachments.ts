/**
 * Incident attachments' metadata (`AttachmentEntity`, key `TENANT#<t>#INCATTACH#<id>` / `ATTACH#<attachmentId>`)
 * as an `AttachmentsPort` (rules: lambdas/domain/attachments.ts; docs/api.md#attachments). The bytes are in S3
 * (lambdas/data/attachment-store.ts); nothing here touches the bucket.
 *
 * - `create`: ONE TransactWriteItems [ConditionCheck the incident exists, Put the pending attachment
 *   (`attribute_not_exists(SK)`)]; false, nothing written, when the incident does not exist.
 * - `get`: ONE GetItem, strongly consistent.
 * - `markAvailable`: ONE TransactWriteItems [Update status `pending` → `available` and the stored size (conditioned on `pending`),
 *   Put the audit entry]; false when it was not pending.
 * - `list`: ONE Query of the incident's attachment partition, oldest first, `limit` items, cursor bound to the
 *   partition (lambdas/data/table/cursor.ts).
 */
import type { Attachment } from '../contract/attachments.js';
import type { AttachmentsPort } from '../domain/ports.js';
import { auditPut } from './audit.js';
import type { TableRef } from './table/client.js';
import { decodeCursor, encodeCursor } from './table/cursor.js';
import { isConditionFailureInTransaction } from './table/dynamo-util.js';
import { AttachmentEntity, itemOf, recordOf } from './entities.js';
import { keys } from './table/keys.js';
import { DEFAULT_RETENTION, type Retention } from './retention.js';

/** The attachments of `table`; `retention` dates the audit entries' TTL. */
export function attachmentsRepository(table: TableRef, retention: Retention = DEFAULT_RETENTION): AttachmentsPort {
  return {
    async create(a) {
      try {
        await table.doc.send('TransactWriteItems', {
          TransactItems: [
            { ConditionCheck: { TableName: table.tableName, Key: keys.incident(a.tenantId, a.incidentId), ConditionExpression: 'attribute_exists(PK)' } },
            { Put: { TableName: table.tableName, Item: itemOf(AttachmentEntity, a), ConditionExpression: 'attribute_not_exists(SK)' } },
          ],
        });
        return true;
      } catch (err) {
        if (isConditionFailureInTransaction(err, 0)) return false;
        throw err;
      }
    },
    async get(tenantId, incidentId, attachmentId) {
      const res = await table.doc.send('GetItem', { TableName: table.tableName, Key: keys.attachment(tenantId, incidentId, attachmentId), ConsistentRead: true });
      return res.Item ? recordOf(AttachmentEntity, res.Item as Record<string, unknown>) : null;
    },
    async markAvailable(a, completedAt, audit) {
      try {
        await table.doc.send('TransactWriteItems', {
          TransactItems: [
            {
              Update: {
                TableName: table.tableName,
                Key: keys.attachment(a.tenantId, a.incidentId, a.attachmentId),
                UpdateExpression: 'SET #s = :available, completedAt = :at, #size = :size',
                ConditionExpression: '#s = :pending',
                ExpressionAttributeNames: { '#s': 'status', '#size': 'size' },
                ExpressionAttributeValues: { ':available': 'available', ':pending': 'pending', ':at': completedAt, ':size': a.size },
              },
            },
            auditPut(audit, table, retention),
          ],
        });
        return true;
      } catch (err) {
        if (isConditionFailureInTransaction(err, 0)) return false;
        throw err;
      }
    },
    async list(tenantId, incidentId, opts) {
      const pk = keys.incidentAttachmentsPk(tenantId, incidentId);
      const res = await table.doc.send('Query', {
        TableName: table.tableName,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
        ExpressionAttributeValues: { ':pk': pk, ':sk': 'ATTACH#' },
        Limit: opts.limit,
        ...(opts.cursor ? { ExclusiveStartKey: decodeCursor(opts.cursor, pk, `TENANT#${tenantId}#`) } : {}),
      });
      const items = ((res.Items ?? []) as Record<string, unknown>[]).map((i) => recordOf(AttachmentEntity, i) as Attachment);
      return { items, nextCursor: encodeCursor(pk, res.LastEvaluatedKey as Record<string, unknown> | undefined) };
    },
  };
}
