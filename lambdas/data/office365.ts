/**
 * Office 365 alerts and audit events over the single table (entities `O365AlarmEntity`, `O365EventEntity`
 * in `entities.ts`). Both are written only by the collectors (ingest routes) and listed newest first by
 * time range with filters (`listPage`). Events expire `retention.o365EventDays` after their time.
 */
import type { Office365Alarm, Office365Event, Page } from '../contract/schemas.js';
import type { O365AlarmListOptions, O365EventListOptions, Office365Port } from '../domain/ports.js';
import type { TableRef } from './client.js';
import { office365AlertEvent } from '../domain/activity.js';
import { activityPuts } from './activity.js';
import { alarmConsolePuts, consoleItemOfO365Alarm } from './alarm-console.js';
import { aggregateWrites, o365AlarmChange } from './aggregates.js';
import { isConditionFailureInTransaction, RETRY, withRetries, writeIf } from './dynamo-util.js';
import { itemOf, O365AlarmEntity, O365EventEntity, recordOf } from './entities.js';
import { listPage } from './paging.js';
import { DEFAULT_RETENTION, type Retention } from './retention.js';

/**
 * Creates or updates an alarm: written when absent or when `updatedAt` is newer than the stored one;
 * returns false for a replay or an older update. The stored copy is read first (GetItem) and replaced in one
 * TransactWriteItems with the change of the tenant's aggregates (alarms by status), conditional on the
 * copy read — its `updatedAt` and its incident link, which the collectors' copy does not carry and which is kept
 * (a lost race is retried).
 */
export async function upsertO365Alarm(input: Office365Alarm, table: TableRef): Promise<boolean> {
  return withRetries(`upsertO365Alarm ${input.id}`, async () => {
    const cur = await table.doc.send('GetItem', { TableName: table.tableName, Key: O365AlarmEntity.key(input), ConsistentRead: true });
    const before = cur.Item ? recordOf(O365AlarmEntity, cur.Item) : null;
    if (before && before.updatedAt >= input.updatedAt) return false;
    // The collectors do not know its incident (docs/api.md#linked-alarms): the stored link stays.
    const { incidentId: _ignored, ...fromCollector } = input;
    const a: Office365Alarm = { ...fromCollector, ...(before?.incidentId ? { incidentId: before.incidentId } : {}) };
    try {
      await table.doc.send('TransactWriteItems', {
        TransactItems: [
          {
            Put: {
              TableName: table.tableName,
              Item: itemOf(O365AlarmEntity, a),
              // Also on the link read: an incident linked meanwhile is not overwritten (the retry keeps it).
              ConditionExpression: before ? `updatedAt = :u AND ${before.incidentId ? 'incidentId = :i' : 'attribute_not_exists(incidentId)'}` : 'attribute_not_exists(PK)',
              ...(before ? { ExpressionAttributeValues: { ':u': before.updatedAt, ...(before.incidentId ? { ':i': before.incidentId } : {}) } } : {}),
            },
          },
          ...aggregateWrites(table, a.tenantId, o365AlarmChange(before, a)),
          // A new alert's activity event (docs/notifications.md), in the same transaction.
          ...activityPuts([office365AlertEvent(before, a)], table),
          // Its alarm console entries (docs/data-model.md#alarm-console).
          ...alarmConsolePuts(consoleItemOfO365Alarm(a), table),
        ],
      });
      return true;
    } catch (e) {
      if (isConditionFailureInTransaction(e, 0)) return RETRY;
      throw e;
    }
  });
}

/** Stores an audit event once (false on a replay of its id); TTL = `at` + `retention.o365EventDays`. */
export async function putO365Event(ev: Office365Event, table: TableRef, retention: Retention = DEFAULT_RETENTION): Promise<boolean> {
  return (await writeIf(table, 'PutItem', { Item: itemOf(O365EventEntity, ev, retention), ConditionExpression: 'attribute_not_exists(PK)' })) !== null;
}

/** Alarms newest detected first (GSI1 `TENANT#t#O365ALARMS`). @throws ApiError VALIDATION_FAILED (cursor) */
export function listO365Alarms(tenantId: string, opts: O365AlarmListOptions, table: TableRef): Promise<Page<Office365Alarm>> {
  return listPage(table, O365AlarmEntity, tenantId, opts, { in: { severity: opts.severity, status: opts.status, affectedUser: opts.user } });
}

/** Events newest first (GSI1 `TENANT#t#O365EVENTS`). @throws ApiError VALIDATION_FAILED (cursor) */
export function listO365Events(tenantId: string, opts: O365EventListOptions, table: TableRef): Promise<Page<Office365Event>> {
  return listPage(table, O365EventEntity, tenantId, opts, { in: { workload: opts.workload, operation: opts.operation, user: opts.user, result: opts.result } });
}

/** The Office 365 storage as an `Office365Port`; events expire after `retention.o365EventDays`. */
export function office365Repository(table: TableRef, retention: Retention = DEFAULT_RETENTION): Office365Port {
  return {
    upsertAlarm: (a) => upsertO365Alarm(a, table),
    putEvent: (e) => putO365Event(e, table, retention),
    listAlarms: (t, o) => listO365Alarms(t, o, table),
    listEvents: (t, o) => listO365Events(t, o, table),
  };
}
