/**
 * Storage of notification delivery (`NotificationsPort`, lambdas/domain/notification-delivery.ts): users'
 * e-mail preferences, the tenant's webhooks, the delivery records of the exactly-once protocol and the
 * outbox of activity events (`listOutbox`: the sparse GSI2 `OUTBOX` entries of `putActivityEventOnce` and each
 * tenant's feed from its outbox mark; docs/notifications.md#outbox).
 * Keys: `keys.ts` (notificationPrefs, webhook, delivery, webhookDeliveryGsi1); access patterns:
 * docs/data-model.md and docs/notifications.md#delivery.
 *
 * Every read is a GetItem or a Query; the writes that race (claim, finish, complete) are single-item
 * conditional writes. Records are mapped attribute by attribute (never the raw item), so keys and internal
 * attributes never reach the API. Delivery records expire 30 days after their last change (TTL `expiresAt`).
 * The webhook `secret` (generic JSON webhooks) is stored on the webhook item, encrypted at rest like the
 * whole table (AWS owned or customer managed KMS key of the Data stack), and only this module and the
 * sender read it; the API returns it once, at creation.
 */
import type { NotificationsPort, DeliveryRecord, DeliveryState } from '../domain/notification-delivery.js';
import { NOTIFICATION_SEVERITIES, type NotificationEvent, type NotificationPreferences, type NotificationSeverity, type Webhook, type WebhookKind } from '../domain/notifications.js';
import type { AttributeMap, TableRef } from './table/client.js';
import { writeIf } from './table/dynamo-util.js';
import { keys, TENANTS_PK } from './table/keys.js';
import { indexOf } from './access-patterns.js';

/**
 * How long after its `at` an event written in a change's transaction is surely committed (handler clocks,
 * transaction retries): the sweep's outbox mark of a tenant never passes `now −` this (docs/notifications.md#outbox).
 */
export const OUTBOX_SETTLE_MS = 5 * 60_000;
/** Feed items one sweep reads per tenant from its outbox mark (one Query page; the next sweep goes on). */
export const OUTBOX_MARK_READ = 500;
/** `entity` of the outbox mark item (`keys.outboxMark`). */
export const OUTBOX_MARK_ENTITY = 'OutboxMark';

/** Ids of every registered tenant (Query on the registry partition, keys only). */
async function listTenantIds(table: TableRef): Promise<string[]> {
  const ids: string[] = [];
  let start: AttributeMap | undefined;
  do {
    const res = (await table.doc.send('Query', {
      TableName: table.tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :p)',
      ExpressionAttributeValues: { ':pk': TENANTS_PK, ':p': 'TENANT#' },
      ProjectionExpression: 'SK',
      ...(start ? { ExclusiveStartKey: start } : {}),
    })) as { Items?: AttributeMap[]; LastEvaluatedKey?: AttributeMap };
    for (const i of res.Items ?? []) ids.push(String(i.SK).slice('TENANT#'.length));
    start = res.LastEvaluatedKey;
  } while (start);
  return ids;
}

/** Days a delivery record is kept after its last change. */
export const DELIVERY_RETENTION_DAYS = 30;
/** Most webhooks a tenant may have (listed in one Query). */
export const MAX_WEBHOOKS_PER_TENANT = 20;

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const severity = (v: unknown, fallback: NotificationSeverity): NotificationSeverity =>
  (NOTIFICATION_SEVERITIES as readonly unknown[]).includes(v) ? (v as NotificationSeverity) : fallback;
const kindsOf = (v: unknown): string[] | null => (Array.isArray(v) ? v.filter((k): k is string => typeof k === 'string') : null);

function prefsOf(item: AttributeMap): NotificationPreferences {
  return { email: item.email !== false, minSeverity: severity(item.minSeverity, 'high'), kinds: kindsOf(item.kinds), digest: item.digest === true, ...(item.monthlyReport === true ? { monthlyReport: true } : {}), ...(item.language === 'en' || item.language === 'es' ? { language: item.language } : {}) };
}

function webhookOf(item: AttributeMap): Webhook {
  return {
    id: String(item.id),
    tenantId: String(item.tenantId),
    name: String(item.name ?? ''),
    kind: String(item.kind) as WebhookKind,
    url: String(item.url),
    minSeverity: severity(item.minSeverity, 'info'),
    kinds: kindsOf(item.kinds),
    createdAt: String(item.createdAt),
    createdBy: String(item.createdBy ?? ''),
    ...(str(item.secret) ? { secret: str(item.secret) } : {}),
  };
}

function deliveryOf(item: AttributeMap): DeliveryRecord {
  const num = (v: unknown) => (typeof v === 'number' ? v : undefined);
  return {
    deliveryId: String(item.deliveryId),
    tenantId: String(item.tenantId),
    eventId: String(item.eventId),
    channel: item.channel === 'webhook' ? 'webhook' : 'email',
    recipient: String(item.recipient),
    state: String(item.state) as DeliveryState,
    attempts: num(item.attempts) ?? 0,
    leaseUntil: str(item.leaseUntil),
    nextAttemptAt: str(item.nextAttemptAt),
    lastError: str(item.lastError),
    lastStatus: num(item.lastStatus),
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt),
    sentAt: str(item.sentAt),
    kind: String(item.kind ?? ''),
    title: String(item.title ?? ''),
  };
}

/** A stored event's `message` (key and string parameters), or null when absent or malformed. */
function messageOf(v: unknown): { key: string; params: Record<string, string> } | null {
  const m = v as { key?: unknown; params?: unknown } | null | undefined;
  if (!m || typeof m.key !== 'string' || !m.params || typeof m.params !== 'object') return null;
  const params: Record<string, string> = {};
  for (const [k, val] of Object.entries(m.params as Record<string, unknown>)) if (typeof val === 'string') params[k] = val;
  return { key: m.key, params };
}

/** An activity event item (outbox entry) as the delivery loop reads it; null when it is not one. */
export function notificationEventOf(item: AttributeMap): NotificationEvent | null {
  const actor = item.actor as { name?: unknown; sub?: unknown } | null | undefined;
  const subject = item.subject as { type?: unknown; id?: unknown } | undefined;
  if (typeof item.eventId !== 'string' || typeof item.tenantId !== 'string' || typeof item.at !== 'string' || typeof item.kind !== 'string') return null;
  return {
    eventId: item.eventId,
    tenantId: item.tenantId,
    kind: item.kind,
    severity: severity(item.severity, 'info'),
    at: item.at,
    actor: actor && typeof actor.name === 'string' ? { name: actor.name, ...(typeof actor.sub === 'string' ? { sub: actor.sub } : {}) } : null,
    subject: { type: String(subject?.type ?? ''), id: String(subject?.id ?? '') },
    title: String(item.title ?? ''),
    ...(messageOf(item.message) ? { message: messageOf(item.message)! } : {}),
    link: String(item.link ?? '/'),
  };
}

const ttl = (now: Date): number => Math.floor(now.getTime() / 1000) + DELIVERY_RETENTION_DAYS * 86_400;

/** The port over `table`. */
export function notificationsRepository(table: TableRef): NotificationsPort {
  // `table.doc` is read on every call, not once here, as the other repositories do: a wrapper installed
  // later on the table (the bench's consumed-capacity capture, scripts/bench/api.ts) must see these calls too.
  const doc = { send: ((...args) => table.doc.send(...args)) as TableRef['doc']['send'] };
  const TableName = table.tableName;
  const queryAll = async (input: Record<string, unknown>): Promise<AttributeMap[]> => {
    const out: AttributeMap[] = [];
    let start: AttributeMap | undefined;
    do {
      const res = (await doc.send('Query', { TableName, ...input, ...(start ? { ExclusiveStartKey: start } : {}) } as never)) as { Items?: AttributeMap[]; LastEvaluatedKey?: AttributeMap };
      out.push(...(res.Items ?? []));
      start = res.LastEvaluatedKey;
    } while (start);
    return out;
  };
  return {
    async getPreferences(tenantId, sub) {
      const res = (await doc.send('GetItem', { TableName, Key: keys.notificationPrefs(tenantId, sub) })) as { Item?: AttributeMap };
      return res.Item ? prefsOf(res.Item) : null;
    },
    async putPreferences(tenantId, sub, prefs, now) {
      await doc.send('PutItem', {
        TableName,
        Item: { ...keys.notificationPrefs(tenantId, sub), entity: 'NotificationPreferences', sub, email: prefs.email, minSeverity: prefs.minSeverity, kinds: prefs.kinds, digest: prefs.digest, ...(prefs.monthlyReport ? { monthlyReport: true } : {}), ...(prefs.language ? { language: prefs.language } : {}), updatedAt: now.toISOString() },
      });
    },
    async listPreferences(tenantId) {
      const items = await queryAll({ KeyConditionExpression: 'PK = :p', ExpressionAttributeValues: { ':p': keys.notificationPrefsPk(tenantId) } });
      return new Map(items.map((i) => [String(i.sub), prefsOf(i)]));
    },
    async listWebhooks(tenantId) {
      const items = await queryAll({ KeyConditionExpression: 'PK = :p', ExpressionAttributeValues: { ':p': keys.webhooksPk(tenantId) } });
      return items.map(webhookOf);
    },
    async getWebhook(tenantId, id) {
      const res = (await doc.send('GetItem', { TableName, Key: keys.webhook(tenantId, id) })) as { Item?: AttributeMap };
      return res.Item ? webhookOf(res.Item) : null;
    },
    async createWebhook(w) {
      const item = {
        ...keys.webhook(w.tenantId, w.id),
        entity: 'Webhook',
        id: w.id,
        tenantId: w.tenantId,
        name: w.name,
        kind: w.kind,
        url: w.url,
        minSeverity: w.minSeverity,
        kinds: w.kinds,
        createdAt: w.createdAt,
        createdBy: w.createdBy,
        ...(w.secret ? { secret: w.secret } : {}),
      };
      return (await writeIf(table, 'PutItem', { Item: item, ConditionExpression: 'attribute_not_exists(PK)' })) !== null;
    },
    async deleteWebhook(tenantId, id) {
      try {
        await doc.send('DeleteItem', { TableName, Key: keys.webhook(tenantId, id), ConditionExpression: 'attribute_exists(PK)' });
        return true;
      } catch (e) {
        if ((e as { name?: string }).name === 'ConditionalCheckFailedException') return false;
        throw e;
      }
    },
    async listWebhookDeliveries(tenantId, webhookId, limit) {
      const res = (await doc.send('Query', {
        TableName,
        IndexName: indexOf('tenantLists'),
        KeyConditionExpression: 'GSI1PK = :p',
        ExpressionAttributeValues: { ':p': keys.webhookDeliveriesGsi1Pk(tenantId, webhookId) },
        ScanIndexForward: false,
        Limit: limit,
      })) as { Items?: AttributeMap[] };
      return (res.Items ?? []).map(deliveryOf);
    },
    async listEventDeliveries(tenantId, eventId) {
      const items = await queryAll({ KeyConditionExpression: 'PK = :p', ExpressionAttributeValues: { ':p': keys.deliveriesPk(tenantId, eventId) }, ConsistentRead: true });
      return items.map(deliveryOf);
    },
    async claimDelivery(d, now, leaseSeconds) {
      const iso = now.toISOString();
      const lease = new Date(now.getTime() + leaseSeconds * 1000).toISOString();
      const gsi = d.channel === 'webhook' && d.webhookCreatedAt ? keys.webhookDeliveryGsi1(d.tenantId, d.recipient, d.webhookCreatedAt, d.eventId) : undefined;
      const res = await writeIf(table, 'UpdateItem', {
        Key: keys.delivery(d.tenantId, d.eventId, d.channel, d.recipient),
        UpdateExpression:
          'SET #state = :sending, attempts = if_not_exists(attempts, :zero) + :one, leaseUntil = :lease, updatedAt = :now, createdAt = if_not_exists(createdAt, :now), ' +
          'deliveryId = :id, tenantId = :t, eventId = :e, channel = :c, recipient = :r, kind = :k, title = :title, entity = :entity, expiresAt = :exp' +
          (gsi ? ', GSI1PK = if_not_exists(GSI1PK, :g1pk), GSI1SK = if_not_exists(GSI1SK, :g1sk)' : '') +
          ' REMOVE nextAttemptAt',
        ConditionExpression: 'attribute_not_exists(PK) OR (#state = :failed AND nextAttemptAt <= :now) OR (#state = :sending AND leaseUntil < :now)',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ':sending': 'sending',
          ':failed': 'failed',
          ':zero': 0,
          ':one': 1,
          ':lease': lease,
          ':now': iso,
          ':id': d.deliveryId,
          ':t': d.tenantId,
          ':e': d.eventId,
          ':c': d.channel,
          ':r': d.recipient,
          ':k': d.kind,
          ':title': d.title,
          ':entity': 'NotificationDelivery',
          ':exp': ttl(now),
          ...(gsi ? { ':g1pk': gsi.GSI1PK, ':g1sk': gsi.GSI1SK } : {}),
        },
        ReturnValues: 'ALL_NEW',
      });
      return res ? deliveryOf((res as { Attributes?: AttributeMap }).Attributes ?? {}) : null;
    },
    async finishDelivery(rec, outcome, now) {
      const iso = now.toISOString();
      const sets = ['#state = :s', 'updatedAt = :now', 'expiresAt = :exp'];
      const removes = ['leaseUntil'];
      const values: AttributeMap = { ':s': outcome.state, ':now': iso, ':exp': ttl(now), ':sending': 'sending', ':n': rec.attempts };
      if (outcome.state === 'sent') { sets.push('sentAt = :now'); removes.push('lastError'); }
      if (outcome.error !== undefined) { sets.push('lastError = :err'); values[':err'] = outcome.error; }
      if (outcome.httpStatus !== undefined) { sets.push('lastStatus = :hs'); values[':hs'] = outcome.httpStatus; }
      if (outcome.nextAttemptAt !== undefined) { sets.push('nextAttemptAt = :next'); values[':next'] = outcome.nextAttemptAt; }
      const res = await writeIf(table, 'UpdateItem', {
        Key: keys.delivery(rec.tenantId, rec.eventId, rec.channel, rec.recipient),
        UpdateExpression: `SET ${sets.join(', ')} REMOVE ${removes.join(', ')}`,
        ConditionExpression: '#state = :sending AND attempts = :n',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: values,
      });
      return res !== null;
    },
    async completeEvent(event, now) {
      const res = await writeIf(table, 'UpdateItem', {
        Key: keys.activityEvent(event.tenantId, event.at, event.eventId),
        UpdateExpression: 'SET outbox = :done, deliveredAt = :now REMOVE GSI2PK, GSI2SK',
        ConditionExpression: 'outbox = :pending',
        ExpressionAttributeValues: { ':done': 'DONE', ':pending': 'PENDING', ':now': now.toISOString() },
      });
      return res !== null;
    },
    async listOutbox(limit, before, now = new Date()) {
      // 1. Events written by putActivityEventOnce (dated in the past) and older data: GSI2 `OUTBOX`, oldest first.
      const res = (await doc.send('Query', {
        TableName,
        IndexName: indexOf('outbox'),
        KeyConditionExpression: before ? 'GSI2PK = :p AND GSI2SK <= :b' : 'GSI2PK = :p',
        ExpressionAttributeValues: { ':p': keys.OUTBOX_GSI2PK, ...(before ? { ':b': `${before}#~` } : {}) },
        ScanIndexForward: true,
        Limit: limit,
      })) as { Items?: AttributeMap[] };
      const out = (res.Items ?? []).map(notificationEventOf).filter((e): e is NotificationEvent => e !== null);
      const seen = new Set(out.map((e) => e.eventId));
      // 2. Events written in a change's transaction (no index entry): each tenant's feed from its outbox mark.
      const upper = before ? keys.activityAfter(before) : keys.ACTIVITY_SK_MAX;
      const settled = keys.activityAfter(new Date(now.getTime() - OUTBOX_SETTLE_MS).toISOString());
      for (const tenantId of await listTenantIds(table)) {
        if (out.length >= limit) break;
        const markKey = keys.outboxMark(tenantId);
        const mark = (await doc.send('GetItem', { TableName, Key: markKey, ConsistentRead: true })) as { Item?: AttributeMap };
        const from = typeof mark.Item?.from === 'string' ? mark.Item.from : keys.ACTIVITY_SK_MIN;
        if (from > upper) continue;
        const page = (await doc.send('Query', {
          TableName,
          KeyConditionExpression: 'PK = :p AND SK BETWEEN :lo AND :hi',
          FilterExpression: 'outbox = :pending',
          ExpressionAttributeValues: { ':p': keys.activityPk(tenantId), ':lo': from, ':hi': upper, ':pending': 'PENDING' },
          ScanIndexForward: true,
          ConsistentRead: true,
          Limit: OUTBOX_MARK_READ,
        })) as { Items?: AttributeMap[]; LastEvaluatedKey?: AttributeMap };
        const pending = page.Items ?? [];
        for (const item of pending) {
          const ev = notificationEventOf(item);
          if (ev && !seen.has(ev.eventId) && out.length < limit) {
            seen.add(ev.eventId);
            out.push(ev);
          }
        }
        // The mark moves up to the first event still pending (it is read again next time), the end of what this
        // Query read, and never past `now − OUTBOX_SETTLE_MS` (an event dated before that is committed by then).
        let next = pending.length ? String(pending[0]!.SK) : page.LastEvaluatedKey ? String(page.LastEvaluatedKey.SK) : upper;
        if (settled < next) next = settled;
        if (next > from) {
          await writeIf(table, 'UpdateItem', {
            Key: markKey,
            UpdateExpression: 'SET #f = :n, #e = :e',
            ConditionExpression: 'attribute_not_exists(#f) OR #f < :n',
            ExpressionAttributeNames: { '#f': 'from', '#e': 'entity' },
            ExpressionAttributeValues: { ':n': next, ':e': OUTBOX_MARK_ENTITY },
          });
        }
      }
      return out;
    },
  };
}
