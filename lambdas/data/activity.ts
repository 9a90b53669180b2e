/**
 * Activity events over the single table (`ActivityEventEntity`, `ActivitySeenEntity` in `entities.ts`;
 * docs/notifications.md).
 *
 * Writing: the write paths of incidents, alarms, Office 365 alerts and recommendations append
 * `activityPut(event)` to the TransactWriteItems of their change (the event exists iff the change does; no
 * index entry); the SLA job writes its events with `putActivityEventOnce` (conditional on the deterministic
 * key, with the GSI2 `OUTBOX` entry).
 *
 * Reading (one tenant, partition `TENANT#<t>#ACTIVITY`):
 *  - feed: ONE Query `SK BETWEEN EV# AND EV#~`, newest first, per page;
 *  - unread: GetItem of the caller's marker, then ONE Query `Select=COUNT`, `Limit` 99, after the marker;
 *  - mark as read: the count Query after `now`, then one conditional PutItem of the marker (the write last).
 */
import { ACTIVITY_UNREAD_MAX, type ActivityEvent, type ActivityUnread, type Page } from '../contract/schemas.js';
import { SLA_AT_RISK_MAX_MS, slaEvents } from '../domain/activity.js';
import type { ActivityPort } from '../domain/ports.js';
import type { TableRef, TransactWriteItem } from './table/client.js';
import { decodeCursor, encodeCursor } from './table/cursor.js';
import { writeIf } from './table/dynamo-util.js';
import { ACTIVITY_OUTBOX_INDEX, ActivityEventEntity, ActivitySeenEntity, IncidentEntity, indexKeys, itemOf, recordOf } from './entities.js';
import { keys } from './table/keys.js';
import { indexOf } from './access-patterns.js';

/**
 * The TransactWriteItems action that stores `event` (a Put that never overwrites: the id is fresh). The item is in
 * no index: the delivery side finds it in the tenant's feed (stream INSERT in AWS, the sweep's outbox mark;
 * docs/notifications.md#outbox), which saves the 1 WCU of a GSI2 entry on every write that has an event.
 */
export function activityPut(event: ActivityEvent, table: TableRef): TransactWriteItem {
  return { Put: { TableName: table.tableName, Item: itemOf(ActivityEventEntity, event), ConditionExpression: 'attribute_not_exists(PK)' } };
}

/** `activityPut` of each non-null event (the usual "maybe one event" of a write). */
export function activityPuts(events: readonly (ActivityEvent | null | undefined)[], table: TableRef): TransactWriteItem[] {
  return events.filter((e): e is ActivityEvent => !!e).map((e) => activityPut(e, table));
}

/**
 * Stores `event` unless an event with the same key exists (PutItem `attribute_not_exists(PK)`): true when
 * written. Used by the SLA job (deterministic ids) and the demo seed. Their events are dated in the past (an SLA
 * event at its deadline), possibly before the sweep's outbox mark of the tenant, so while `PENDING` they also get
 * the sparse GSI2 `OUTBOX` entry the sweep reads (docs/notifications.md#outbox); the events written in a
 * change's transaction (`activityPut`, dated now) have none.
 */
export async function putActivityEventOnce(event: ActivityEvent, table: TableRef): Promise<boolean> {
  const outbox = indexKeys(ACTIVITY_OUTBOX_INDEX, event);
  const res = await writeIf(table, 'PutItem', { Item: { ...itemOf(ActivityEventEntity, event), ...outbox }, ConditionExpression: 'attribute_not_exists(PK)' });
  return res !== null;
}

/**
 * One page of the tenant's feed, newest first: ONE Query on `TENANT#<t>#ACTIVITY`, `SK BETWEEN EV# AND
 * EV#~`, `Limit`; the cursor is bound to that partition.
 * @throws ApiError VALIDATION_FAILED for a cursor of another list or tenant.
 */
export async function listActivity(tenantId: string, opts: { limit: number; cursor?: string | undefined }, table: TableRef): Promise<Page<ActivityEvent>> {
  const pk = keys.activityPk(tenantId);
  const start = opts.cursor ? decodeCursor(opts.cursor, pk, keys.tenantPrefix(tenantId)) : undefined;
  const res = await table.doc.send('Query', {
    TableName: table.tableName,
    KeyConditionExpression: 'PK = :p AND SK BETWEEN :lo AND :hi',
    ExpressionAttributeValues: { ':p': pk, ':lo': keys.ACTIVITY_SK_MIN, ':hi': keys.ACTIVITY_SK_MAX },
    ScanIndexForward: false,
    Limit: opts.limit,
    ExclusiveStartKey: start,
  });
  const items = res.Items ?? [];
  return { items: items.map((i) => recordOf(ActivityEventEntity, i)), nextCursor: encodeCursor(pk, res.LastEvaluatedKey ? { PK: res.LastEvaluatedKey.PK, SK: res.LastEvaluatedKey.SK } : undefined) };
}

/** The caller's last-seen marker in the tenant's feed, or null. */
export async function getActivitySeen(tenantId: string, sub: string, table: TableRef): Promise<string | null> {
  const res = await table.doc.send('GetItem', { TableName: table.tableName, Key: keys.activitySeen(tenantId, sub) });
  return res.Item ? recordOf(ActivitySeenEntity, res.Item).seenAt : null;
}

/**
 * Unread events of `sub` in the tenant: events after its marker whose actor is someone else. GetItem of the
 * marker, then ONE Query `SK BETWEEN EV#<seenAt>#~ AND EV#~` with `Select=COUNT`, `Limit` 99 and a
 * FilterExpression on the actor (the limit applies to the events read, so `count` ≤ 99; `capped` when the
 * Query stopped at the limit with more events after).
 */
export async function countUnreadActivity(tenantId: string, sub: string, table: TableRef): Promise<ActivityUnread> {
  return countUnreadAfter(tenantId, sub, await getActivitySeen(tenantId, sub, table), table);
}

/** The count Query of `countUnreadActivity` for a given marker (null: from the first event). */
async function countUnreadAfter(tenantId: string, sub: string, seenAt: string | null, table: TableRef): Promise<ActivityUnread> {
  const res = await table.doc.send('Query', {
    TableName: table.tableName,
    KeyConditionExpression: 'PK = :p AND SK BETWEEN :lo AND :hi',
    FilterExpression: 'attribute_not_exists(#a.#s) OR #a.#s <> :me',
    ExpressionAttributeNames: { '#a': 'actor', '#s': 'sub' },
    ExpressionAttributeValues: { ':p': keys.activityPk(tenantId), ':lo': seenAt ? keys.activityAfter(seenAt) : keys.ACTIVITY_SK_MIN, ':hi': keys.ACTIVITY_SK_MAX, ':me': sub },
    Select: 'COUNT',
    Limit: ACTIVITY_UNREAD_MAX,
  });
  const count = Math.min(ACTIVITY_UNREAD_MAX, Number((res as { Count?: number }).Count ?? 0));
  return { count, capped: !!res.LastEvaluatedKey, seenAt };
}

/**
 * "Marcar todo como leído": sets the caller's marker to `now` (never moves it back) and returns the unread count
 * after it. The count Query runs BEFORE the conditional PutItem, so the write is the request's last call: a
 * failure (throttling → 503) either comes before the write or is the write itself, never after a stored marker
 * (API rule: a 503 leaves the table as it was). When the stored marker is already later (condition failed,
 * nothing written), the count is read again after that marker (GetItem + Query).
 */
export async function markActivityRead(tenantId: string, sub: string, now: string, table: TableRef): Promise<ActivityUnread> {
  const unread = await countUnreadAfter(tenantId, sub, now, table);
  const written = await writeIf(table, 'PutItem', {
    Item: itemOf(ActivitySeenEntity, { tenantId, sub, seenAt: now }),
    ConditionExpression: 'attribute_not_exists(PK) OR seenAt < :now',
    ExpressionAttributeValues: { ':now': now },
  });
  return written ? unread : countUnreadActivity(tenantId, sub, table);
}

/** How often the SLA job runs (EventBridge schedule in AWS, a timer locally), ms. */
export const SLA_WATCH_INTERVAL_MS = 5 * 60_000;

/** How far back the SLA job looks for deadlines passed (it runs every few minutes; a day covers any outage of less). */
export const SLA_WATCH_LOOKBACK_MS = 24 * 3_600_000;

/**
 * The SLA job (docs/notifications.md#sla-job): reads the SOC queue index (GSI2 `SOCQUEUE`, every tenant's
 * open incidents by `slaDueAt`) between `now − SLA_WATCH_LOOKBACK_MS` and `now + SLA_AT_RISK_MAX_MS`
 * (paged Queries), and writes each incident's due SLA event (`slaEvents`) with `putActivityEventOnce` on its
 * deterministic key, so any number of runs, also concurrent ones, write each event once.
 * @returns incidents read and events written by this run.
 */
export async function runSlaWatch(now: Date, table: TableRef): Promise<{ incidents: number; written: number }> {
  const lo = new Date(now.getTime() - SLA_WATCH_LOOKBACK_MS).toISOString();
  const hi = `${new Date(now.getTime() + SLA_AT_RISK_MAX_MS).toISOString()}#~`;
  let start: Record<string, unknown> | undefined;
  let incidents = 0;
  let written = 0;
  do {
    const res = await table.doc.send('Query', {
      TableName: table.tableName,
      IndexName: indexOf('socQueue'),
      KeyConditionExpression: 'GSI2PK = :p AND GSI2SK BETWEEN :lo AND :hi',
      ExpressionAttributeValues: { ':p': keys.SOCQUEUE_GSI2PK, ':lo': lo, ':hi': hi },
      ExclusiveStartKey: start,
    });
    for (const item of res.Items ?? []) {
      incidents++;
      for (const e of slaEvents(recordOf(IncidentEntity, item), now)) if (await putActivityEventOnce(e, table)) written++;
    }
    start = res.LastEvaluatedKey;
  } while (start);
  return { incidents, written };
}

/** The activity storage as an `ActivityPort`. */
export function activityRepository(table: TableRef): ActivityPort {
  return {
    list: (t, o) => listActivity(t, o, table),
    countUnread: (t, sub) => countUnreadActivity(t, sub, table),
    markRead: (t, sub, now) => markActivityRead(t, sub, now, table),
    putOnce: (e) => putActivityEventOnce(e, table),
  };
}
