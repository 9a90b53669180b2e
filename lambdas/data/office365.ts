/**
 * Office 365 alerts and audit events over the single table (entities `O365AlarmEntity`, `O365EventEntity`
 * in `entities.ts`). Both are written only by the collectors (ingest routes) and listed newest first by
 * time range with filters (`listPage`). Events expire `retention.o365EventDays` after their time.
 */
import type { Office365Alarm, Office365Event, Page } from '../contract/schemas.js';
import type { O365AlarmListOptions, O365EventListOptions, Office365Port } from '../domain/ports.js';
import type { TableRef } from './table/client.js';
import { office365AlertEvent } from '../domain/activity.js';
import { activityPuts } from './activity.js';
import { alarmConsolePuts, consoleItemOfO365Alarm } from './alarm-console.js';
import { aggregateWrites, o365AlarmChange } from './aggregates.js';
import { isConditionFailureInTransaction, RETRY, withRetries, writeIf } from './table/dynamo-util.js';
import { itemOf, O365AlarmEntity, O365EventEntity, recordOf } from './entities.js';
import { listPage } from './table/paging.js';
import { o365UserWrites, searchO365Users } from './o365-user-search.js';
import { auditPut } from './audit.js';
import type { AuditEntry } from '../contract/schemas.js';
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
    // The collectors know neither its incident (docs/api.md#linked-alarms) nor Vigía's acknowledgement
    // (docs/api.md#acknowledging-office-365-alerts): the stored ones stay.
    const a: Office365Alarm = { ...fromCollectorOf(input), ...(before ? vigiaFieldsOf(before) : {}) };
    try {
      await table.doc.send('TransactWriteItems', {
        TransactItems: [
          {
            Put: {
              TableName: table.tableName,
              Item: itemOf(O365AlarmEntity, a),
              // Also on the link and acknowledgement read: an incident linked or an acknowledgement made
              // meanwhile is not overwritten (the retry keeps it).
              ConditionExpression: before
                ? `updatedAt = :u AND ${before.incidentId ? 'incidentId = :i' : 'attribute_not_exists(incidentId)'} AND ${before.acknowledgedAt ? 'acknowledgedAt = :k' : 'attribute_not_exists(acknowledgedAt)'}`
                : 'attribute_not_exists(PK)',
              ...(before
                ? { ExpressionAttributeValues: { ':u': before.updatedAt, ...(before.incidentId ? { ':i': before.incidentId } : {}), ...(before.acknowledgedAt ? { ':k': before.acknowledgedAt } : {}) } }
                : {}),
            },
          },
          ...aggregateWrites(table, a.tenantId, o365AlarmChange(before, a)),
          // A new alert's activity event (docs/notifications.md), in the same transaction.
          ...activityPuts([office365AlertEvent(before, a)], table),
          // Its alarm console entries (docs/data-model.md#alarm-console).
          ...alarmConsolePuts(consoleItemOfO365Alarm(a), table),
          // The user it names, in the user search (docs/api.md#office-365-user-search).
          ...o365UserWrites(table.tableName, before, a),
        ],
      });
      return true;
    } catch (e) {
      if (isConditionFailureInTransaction(e, 0)) return RETRY;
      throw e;
    }
  });
}

/** The fields of an alert that only Vigía sets: its incident link and its acknowledgement. */
const VIGIA_FIELDS = ['incidentId', 'acknowledgedAt', 'acknowledgedBy', 'acknowledgedBySub'] as const;

/** `input` without the fields only Vigía sets (a collector's copy never carries them). */
function fromCollectorOf(input: Office365Alarm): Office365Alarm {
  const out: Record<string, unknown> = { ...input };
  for (const f of VIGIA_FIELDS) delete out[f];
  return out as Office365Alarm;
}

/** The Vigía-only fields `stored` has (absent ones left out). */
function vigiaFieldsOf(stored: Office365Alarm): Partial<Office365Alarm> {
  return Object.fromEntries(VIGIA_FIELDS.filter((f) => stored[f] !== undefined).map((f) => [f, stored[f]]));
}

/**
 * Vigía acknowledges an Office 365 alert (docs/api.md#acknowledging-office-365-alerts): sets `acknowledgedAt`,
 * `acknowledgedBy`, `acknowledgedBySub` beside Microsoft's `status` (unchanged, and so are the aggregates,
 * which count alerts by that status). Read first (GetItem), then ONE TransactWriteItems: the alert's UpdateItem
 * (condition: still active, not acknowledged, and the copy read — so a collector's update in between makes
 * it retry on the new copy), its four alarm console entries (now `acknowledged`) and the audit entry.
 * @returns null when the tenant has no such alert; `changed: false` (with the stored alert) when it is not
 *          active or already acknowledged.
 */
export async function acknowledgeO365Alarm(
  table: TableRef,
  tenantId: string,
  alarmId: string,
  fields: { acknowledgedAt: string; acknowledgedBy: string; acknowledgedBySub: string },
  audit: AuditEntry | undefined,
  retention: Retention = DEFAULT_RETENTION,
): Promise<{ alarm: Office365Alarm; changed: boolean } | null> {
  return withRetries(`acknowledgeO365Alarm ${alarmId}`, async () => {
    const key = O365AlarmEntity.key({ tenantId, id: alarmId } as Office365Alarm);
    const cur = await table.doc.send('GetItem', { TableName: table.tableName, Key: key, ConsistentRead: true });
    if (!cur.Item) return null;
    const before = recordOf(O365AlarmEntity, cur.Item);
    if (before.status !== 'active' || before.acknowledgedAt) return { alarm: before, changed: false };
    const after: Office365Alarm = { ...before, ...fields };
    try {
      await table.doc.send('TransactWriteItems', {
        TransactItems: [
          {
            Update: {
              TableName: table.tableName,
              Key: key,
              UpdateExpression: 'SET acknowledgedAt = :at, acknowledgedBy = :by, acknowledgedBySub = :sub',
              ConditionExpression: '#s = :active AND attribute_not_exists(acknowledgedAt) AND updatedAt = :u',
              ExpressionAttributeNames: { '#s': 'status' },
              ExpressionAttributeValues: { ':at': fields.acknowledgedAt, ':by': fields.acknowledgedBy, ':sub': fields.acknowledgedBySub, ':active': 'active', ':u': before.updatedAt },
            },
          },
          ...alarmConsolePuts(consoleItemOfO365Alarm(after), table),
          ...(audit ? [auditPut(audit, table, retention)] : []),
        ],
      });
      return { alarm: after, changed: true };
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
    acknowledgeAlarm: (t, id, fields, audit) => acknowledgeO365Alarm(table, t, id, fields, audit, retention),
    putEvent: (e) => putO365Event(e, table, retention),
    listAlarms: (t, o) => listO365Alarms(t, o, table),
    listEvents: (t, o) => listO365Events(t, o, table),
    searchUsers: (t, o) => searchO365Users(table, t, o),
  };
}
