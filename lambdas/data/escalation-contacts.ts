/**
 * A tenant's escalation contacts (`EscalationContactsEntity`, key `TENANT#<t>` / `ESCALATION`) as an
 * `EscalationContactsPort` (rules: lambdas/domain/escalation-contacts.ts; docs/api.md#escalation-contacts).
 *
 * - `get`: ONE GetItem, strongly consistent (the version a client edits from must be the current one).
 * - `replace`: ONE TransactWriteItems [Put the list conditioned on the version read (`attribute_not_exists(PK)` for
 *   version 0), Put the audit entry]; a failed condition answers false and writes nothing.
 */
import type { EscalationContactsPort } from '../domain/ports.js';
import { auditPut } from './audit.js';
import type { TableRef } from './table/client.js';
import { isConditionFailureInTransaction } from './table/dynamo-util.js';
import { EscalationContactsEntity, itemOf, recordOf } from './entities.js';
import { keys } from './table/keys.js';
import { DEFAULT_RETENTION, type Retention } from './retention.js';

/** The escalation contacts of `table`; `retention` dates the audit entries' TTL. */
export function escalationContactsRepository(table: TableRef, retention: Retention = DEFAULT_RETENTION): EscalationContactsPort {
  return {
    async get(tenantId) {
      const res = await table.doc.send('GetItem', { TableName: table.tableName, Key: keys.escalationContacts(tenantId), ConsistentRead: true });
      return res.Item ? recordOf(EscalationContactsEntity, res.Item as Record<string, unknown>) : null;
    },
    async replace(next, readVersion, audit) {
      const condition =
        readVersion === 0
          ? { ConditionExpression: 'attribute_not_exists(PK)' }
          : { ConditionExpression: '#v = :read', ExpressionAttributeNames: { '#v': 'version' }, ExpressionAttributeValues: { ':read': readVersion } };
      try {
        await table.doc.send('TransactWriteItems', {
          TransactItems: [{ Put: { TableName: table.tableName, Item: itemOf(EscalationContactsEntity, next), ...condition } }, auditPut(audit, table, retention)],
        });
        return true;
      } catch (err) {
        if (isConditionFailureInTransaction(err, 0)) return false;
        throw err;
      }
    },
  };
}
