/**
 * What the daily digest job reads (`DigestSourcePort`, lambdas/domain/notification-digest.ts;
 * docs/notifications.md#daily-digest, docs/data-model.md access pattern 38). Only Queries, each paged with
 * DynamoDB's LastEvaluatedKey (no Scan):
 *
 *  - tenants: Query `PK = TENANTS AND begins_with(SK, TENANT#)`, `Limit` 100 per page; the job's cursor is
 *    the page's LastEvaluatedKey as a registry cursor of `cursor.ts` (`encodeCursor(TENANTS_PK, …)`, the
 *    admin tenant list's; internal to the job, never shown to a client);
 *  - a tenant's digest subscribers: Query `PK = TENANT#<t>#NOTIFPREFS` (all pages), FilterExpression
 *    `digest = true AND email <> false` (the partition holds one small item per user who saved preferences);
 *  - a tenant's feed for one UTC day: Query `PK = TENANT#<t>#ACTIVITY AND SK BETWEEN EV#<from> AND EV#<to>`
 *    (`to` exclusive: the upper bound is the last millisecond before it followed by `#~`), newest first,
 *    pages of 200 until `max` events. This reads the feed partition by time, not the outbox index: an
 *    event is in the digest whether or not its per-event delivery is still pending.
 * The digest's delivery records are the per-event ones (`notificationsRepository`): see the domain module.
 */
import type { DigestSourcePort } from '../domain/notification-digest.js';
import type { NotificationEvent, NotificationPreferences, NotificationSeverity } from '../domain/notifications.js';
import { NOTIFICATION_SEVERITIES } from '../domain/notifications.js';
import type { AttributeMap, TableRef } from './table/client.js';
import { decodeCursor, encodeCursor } from './table/cursor.js';
import { keys, TENANTS_PK } from './table/keys.js';
import { notificationEventOf } from './notifications.js';

/** Tenants per registry page. */
export const DIGEST_TENANT_PAGE = 100;
/** Events per feed page. */
const FEED_PAGE = 200;

const severity = (v: unknown): NotificationSeverity => ((NOTIFICATION_SEVERITIES as readonly unknown[]).includes(v) ? (v as NotificationSeverity) : 'high');

/** The digest job's reads over `table`. */
export function digestSource(table: TableRef): DigestSourcePort {
  // `table.doc` is read on every call, not once here, as the other repositories do: a wrapper installed
  // later on the table (the bench's consumed-capacity capture, scripts/bench/api.ts) must see these calls too.
  const doc = { send: ((...args) => table.doc.send(...args)) as TableRef['doc']['send'] };
  const TableName = table.tableName;
  type QueryOut = { Items?: AttributeMap[]; LastEvaluatedKey?: AttributeMap };
  return {
    async tenantPage(cursor) {
      const res = (await doc.send('Query', {
        TableName,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :p)',
        ExpressionAttributeValues: { ':pk': TENANTS_PK, ':p': 'TENANT#' },
        ProjectionExpression: 'SK',
        Limit: DIGEST_TENANT_PAGE,
        ...(cursor ? { ExclusiveStartKey: decodeCursor(cursor, TENANTS_PK, TENANTS_PK) } : {}),
      } as never)) as QueryOut;
      return { tenantIds: (res.Items ?? []).map((i) => String(i.SK).slice('TENANT#'.length)), cursor: encodeCursor(TENANTS_PK, res.LastEvaluatedKey) ?? undefined };
    },
    async digestSubscribers(tenantId) {
      const out = new Map<string, NotificationPreferences>();
      let start: AttributeMap | undefined;
      do {
        const res = (await doc.send('Query', {
          TableName,
          KeyConditionExpression: 'PK = :p',
          FilterExpression: 'digest = :t AND (attribute_not_exists(email) OR email <> :f)',
          ExpressionAttributeValues: { ':p': keys.notificationPrefsPk(tenantId), ':t': true, ':f': false },
          ...(start ? { ExclusiveStartKey: start } : {}),
        } as never)) as QueryOut;
        for (const i of res.Items ?? []) {
          out.set(String(i.sub), {
            email: true,
            digest: true,
            minSeverity: severity(i.minSeverity),
            kinds: Array.isArray(i.kinds) ? i.kinds.filter((k): k is string => typeof k === 'string') : null,
          });
        }
        start = res.LastEvaluatedKey;
      } while (start);
      return out;
    },
    async activityBetween(tenantId, from, to, max) {
      const last = new Date(new Date(to).getTime() - 1).toISOString();
      const events: NotificationEvent[] = [];
      let start: AttributeMap | undefined;
      do {
        const res = (await doc.send('Query', {
          TableName,
          KeyConditionExpression: 'PK = :p AND SK BETWEEN :lo AND :hi',
          ExpressionAttributeValues: { ':p': keys.activityPk(tenantId), ':lo': `EV#${from}`, ':hi': keys.activityAfter(last) },
          ScanIndexForward: false,
          Limit: Math.min(FEED_PAGE, max - events.length + 1),
          ...(start ? { ExclusiveStartKey: start } : {}),
        } as never)) as QueryOut;
        for (const i of res.Items ?? []) {
          const e = notificationEventOf(i);
          if (e && e.tenantId === tenantId) events.push(e);
        }
        start = res.LastEvaluatedKey;
      } while (start && events.length <= max);
      return { events: events.slice(0, max), truncated: events.length > max };
    },
  };
}
