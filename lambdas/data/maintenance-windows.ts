/**
 * A tenant's maintenance windows (`MaintenanceWindowEntity`: `TENANT#<t>#MAINTENANCE` / `WINDOW#<id>`, GSI1
 * `TENANT#<t>#MAINTENANCE` / `<endAt>#<id>`) as a `MaintenanceWindowsPort` (rules:
 * lambdas/domain/maintenance-windows.ts; docs/data-model.md#maintenance-windows).
 *
 * - `get`: ONE GetItem, strongly consistent.
 * - `list`: ONE Query per page of the GSI1 list by end time (`GSI1SK > <now>#~` not ended, `< <now>#~` past),
 *   `startAt` filtered for active/upcoming; cursor bound to the partition and to the side of `now` it came from.
 * - `overlapping`: ONE Query (`GSI1SK ≥ <from>`, `startAt ≤ <to>` filtered), following pages only past 1 MB.
 * - `put` / `delete`: ONE TransactWriteItems [the window conditioned on the version read, the audit entry].
 */
import type { MaintenanceWindowsPort } from '../domain/ports.js';
import { indexOf } from './access-patterns.js';
import { auditPut } from './audit.js';
import type { TableRef } from './table/client.js';
import { decodeCursor, encodeCursor } from './table/cursor.js';
import { isConditionFailureInTransaction, queryAll } from './table/dynamo-util.js';
import { itemOf, MaintenanceWindowEntity, recordOf } from './entities.js';
import { keys } from './table/keys.js';
import { queryItems } from './table/paging.js';
import { DEFAULT_RETENTION, type Retention } from './retention.js';

/** The maintenance windows of `table`; `retention` dates the audit entries' TTL. */
export function maintenanceWindowsRepository(table: TableRef, retention: Retention = DEFAULT_RETENTION): MaintenanceWindowsPort {
  const versionCondition = (readVersion: number) =>
    readVersion === 0
      ? { ConditionExpression: 'attribute_not_exists(PK)' }
      : { ConditionExpression: '#v = :read', ExpressionAttributeNames: { '#v': 'version' }, ExpressionAttributeValues: { ':read': readVersion } };
  const transact = async (action: Record<string, unknown>, audit: Parameters<typeof auditPut>[0]): Promise<boolean> => {
    try {
      await table.doc.send('TransactWriteItems', { TransactItems: [action, auditPut(audit, table, retention)] } as never);
      return true;
    } catch (err) {
      if (isConditionFailureInTransaction(err, 0)) return false;
      throw err;
    }
  };
  return {
    async get(tenantId, windowId) {
      const res = await table.doc.send('GetItem', { TableName: table.tableName, Key: keys.maintenanceWindow(tenantId, windowId), ConsistentRead: true });
      return res.Item ? recordOf(MaintenanceWindowEntity, res.Item as Record<string, unknown>) : null;
    },

    async list(tenantId, { status, now, limit, cursor }) {
      const scope = keys.maintenanceWindowsGsi1Pk(tenantId);
      const pivot = `${now}#~`;
      const past = status === 'past';
      // A cursor of the other side of `now` would be outside the key condition (the engine would refuse it).
      const onThisSide = (k: Readonly<Record<string, string>>) => k.GSI1SK !== undefined && (past ? k.GSI1SK < pivot : k.GSI1SK > pivot);
      const start = cursor ? decodeCursor(cursor, scope, keys.tenantPrefix(tenantId), onThisSide) : undefined;
      const filter = status === 'active' ? 'startAt <= :now' : status === 'upcoming' ? 'startAt > :now' : undefined;
      const { out, lastKey } = await queryItems(
        table,
        {
          IndexName: indexOf('tenantLists'),
          KeyConditionExpression: past ? 'GSI1PK = :p AND GSI1SK < :pivot' : 'GSI1PK = :p AND GSI1SK > :pivot',
          ...(filter ? { FilterExpression: filter } : {}),
          ExpressionAttributeValues: { ':p': scope, ':pivot': pivot, ...(filter ? { ':now': now } : {}) },
          ScanIndexForward: !past,
        },
        limit,
        !!filter,
        start,
      );
      let next = encodeCursor(scope, lastKey);
      if (out.length > limit || (out.length === limit && lastKey && filter)) {
        // Resume right after the last item returned (LastEvaluatedKey may be past unreturned matches).
        out.length = limit;
        const last = out[out.length - 1]!;
        next = encodeCursor(scope, { PK: last.PK, SK: last.SK, GSI1PK: last.GSI1PK, GSI1SK: last.GSI1SK });
      }
      return { items: out.map((i) => recordOf(MaintenanceWindowEntity, i)), nextCursor: next };
    },

    async overlapping(tenantId, from, to) {
      // Every page (the shared `queryAll` loop, as the upgrade's list reads in migrations.ts).
      const items = (
        await queryAll(table, {
          IndexName: indexOf('tenantLists'),
          KeyConditionExpression: 'GSI1PK = :p AND GSI1SK >= :from',
          FilterExpression: 'startAt <= :to',
          ExpressionAttributeValues: { ':p': keys.maintenanceWindowsGsi1Pk(tenantId), ':from': from, ':to': to },
        })
      ).map((i) => recordOf(MaintenanceWindowEntity, i));
      // `GSI1SK ≥ <from>` keeps a window ending exactly at `from`: it covers nothing after it.
      return items.filter((w) => w.endAt > from);
    },

    put(w, readVersion, audit) {
      return transact({ Put: { TableName: table.tableName, Item: itemOf(MaintenanceWindowEntity, w), ...versionCondition(readVersion) } }, audit);
    },

    delete(tenantId, windowId, readVersion, audit) {
      return transact({ Delete: { TableName: table.tableName, Key: keys.maintenanceWindow(tenantId, windowId), ...versionCondition(readVersion) } }, audit);
    },
  };
}
