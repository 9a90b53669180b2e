/**
 * The session revocation markers (`SessionRevocationEntity`, key `USER#<sub>` / `REVOKED`) as a
 * `SessionRevocationPort` (rule: lambdas/domain/session-revocation.ts; docs/api.md#session-revocation).
 *
 * - `revokedAt(sub)`: one eventually consistent GetItem (0.5 RCU: the item is < 4 KB,
 *   https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/provisioned-capacity-mode.html), by every
 *   API function on a user token (each already holds `dynamodb:GetItem` on the table, infra/api-stack.ts
 *   `TABLE_READ_ACTIONS`). A marker past its TTL but not yet deleted is read as is: it refuses only tokens
 *   issued before it, all expired by then.
 * - `revoke(sub, at, audit)`: the marker Put (replacing any older one) with the act's audit entries in ONE
 *   TransactWriteItems (`auditPut`; a single PutItem when there is no entry), so the marker and its entries are
 *   stored together or not at all. Admin function only (its `readwrite` table access: a transaction element is
 *   authorised as the PutItem it holds).
 */
import type { SessionRevocationPort } from '../domain/session-revocation.js';
import { auditPut } from './audit.js';
import type { TableRef } from './table/client.js';
import { itemOf, SessionRevocationEntity } from './entities.js';
import { keys } from './table/keys.js';
import { DEFAULT_RETENTION, type Retention } from './retention.js';

/** The markers of `table`; `retention` dates the audit entries' TTL (see module doc). */
export function sessionRevocationRepository(table: TableRef, retention: Retention = DEFAULT_RETENTION): SessionRevocationPort {
  return {
    async revokedAt(sub) {
      const res = await table.doc.send('GetItem', { TableName: table.tableName, Key: keys.sessionRevocation(sub) });
      const item = res.Item as Record<string, unknown> | undefined;
      if (!item || typeof item.revokedAt !== 'string') return null;
      const at = Date.parse(item.revokedAt);
      return Number.isNaN(at) ? null : at;
    },
    async revoke(sub, at, audit = []) {
      const put = { TableName: table.tableName, Item: itemOf(SessionRevocationEntity, { sub, revokedAt: at.toISOString() }) };
      if (audit.length === 0) await table.doc.send('PutItem', put);
      else await table.doc.send('TransactWriteItems', { TransactItems: [{ Put: put }, ...audit.map((e) => auditPut(e, table, retention))] });
    },
  };
}
