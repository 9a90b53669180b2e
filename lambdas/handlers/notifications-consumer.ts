/**
 * Notification delivery consumer (docs/notifications.md#delivery): e-mail through Amazon SES and the
 * tenant's webhooks for every activity event, exactly once per delivery id
 * (`lambdas/domain/notification-delivery.ts`).
 *
 * Two kinds of invocation, one function (`vigia-<stage>-notifications-consumer`, infra/notifications.ts):
 *  - **DynamoDB stream** records of the table (NEW_IMAGE, event-source filter: INSERTs whose new image has
 *    `entity = ActivityEvent` and `outbox = PENDING`): processed with Powertools' `BatchProcessor` (`EventType.DynamoDBStreams`), partial
 *    batch responses on. A record fails only when storage fails (a send failure is recorded on the delivery
 *    and retried by the sweep); Lambda retries the failed record and, after the event source mapping's
 *    retries, sends it to the DLQ (SQS, on-failure destination) whose depth raises a CloudWatch alarm. The
 *    event stays in the outbox, so the sweep delivers it anyway once storage answers.
 *  - **Scheduled sweep** (EventBridge rule, every minute): reads the events pending for at least
 *    `SWEEP_MIN_AGE_SECONDS` (the newer ones belong to the stream) from GSI2 `OUTBOX` and from each tenant's
 *    feed after its outbox mark (`listOutbox`, docs/notifications.md#outbox) and runs the same `deliverEvent`,
 *    which retries failed deliveries when due (backoff) and dead-letters them after `MAX_DELIVERY_ATTEMPTS`.
 *
 * Locally there is no stream: `scripts/local/notifications.ts` calls {@link createConsumer}'s `sweep` every
 * 2 s with `minAgeSeconds: 0` — the same code path as the AWS sweep.
 */
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Context, DynamoDBRecord, DynamoDBStreamEvent, DynamoDBBatchResponse } from 'aws-lambda';
import { lambdaConfigFromEnv, type LambdaConfig } from '../config.js';
import { createDocumentClient, type TableRef } from '../data/table/client.js';
import { cognitoUsers } from '../data/cognito-users.js';
import { notificationSenders } from '../data/notification-senders.js';
import { notificationEventOf, notificationsRepository } from '../data/notifications.js';
import { ensureSearchTokens } from '../data/incident-search.js';
import { ensureCommentTokens } from '../data/comment-search.js';
import { deliverEvent, sweepOutbox, type DeliveryDeps, type EventOutcome, type MembersOf, type NotificationsPort, type SendersPort, type SweepOutcome } from '../domain/notification-delivery.js';
import type { GroupMembersPort } from '../domain/ports.js';
import { createLogger } from '../http/logger.js';

/** Events younger than this are left to the stream consumer by the scheduled sweep. */
export const SWEEP_MIN_AGE_SECONDS = 60;
/** Most events one sweep handles (the next sweep takes the rest). */
export const SWEEP_MAX_EVENTS = 200;

/** The tenant group's members as e-mail recipients (only enabled users with an address). */
export function membersFrom(users: GroupMembersPort): MembersOf {
  return async (tenantId) =>
    (await users.listGroupMembers(tenantId)).filter((u) => u.email).map((u) => ({ sub: u.sub ?? u.username, email: u.email!, enabled: u.enabled }));
}

/** What a test or the local stack may replace. */
export interface ConsumerDeps {
  table?: TableRef;
  store?: NotificationsPort;
  senders?: SendersPort;
  users?: GroupMembersPort;
  now?: () => Date;
  leaseSeconds?: number;
}

export interface Consumer {
  /** One event (the stream path). */
  deliver(eventItem: Record<string, unknown>): Promise<EventOutcome | null>;
  /** The outbox sweep. */
  sweep(opts?: { minAgeSeconds?: number; maxEvents?: number }): Promise<SweepOutcome>;
  /** The Lambda entry: a DynamoDB stream batch or a scheduled event. */
  handle(event: DynamoDBStreamEvent | { source?: string }, context: Context): Promise<DynamoDBBatchResponse | SweepOutcome>;
}

/** Senders from the configuration: SES from `notifications.emailFrom` (no e-mail configured = e-mail fails). */
export function sendersFor(config: LambdaConfig): SendersPort {
  const n = config.notifications;
  const senders = notificationSenders({
    emailFrom: n.emailFrom ?? '',
    sesRegion: n.sesRegion ?? config.region,
    sesEndpoint: n.sesEndpoint,
    configurationSet: n.sesConfigurationSet,
    allowLocalHttp: n.allowLocalWebhooks,
  });
  if (n.emailFrom) return senders;
  return { ...senders, sendEmail: () => Promise.reject(new Error('no SES identity configured (notifications.emailFrom)')) };
}

/** The consumer for an explicit configuration (local stack, tests). */
export function createConsumer(config: LambdaConfig, deps: ConsumerDeps = {}): Consumer {
  const logger = createLogger({ ...config, serviceName: 'vigia-notifications' });
  const table = deps.table ?? { doc: createDocumentClient({ region: config.region, endpoint: config.dynamodbEndpoint }), tableName: config.tableName };
  const users =
    deps.users ??
    (config.userPoolId ? cognitoUsers({ userPoolId: config.userPoolId, region: config.region, endpoint: config.cognitoEndpoint }) : { listGroupMembers: async () => [] });
  const delivery: DeliveryDeps = {
    store: deps.store ?? notificationsRepository(table),
    senders: deps.senders ?? sendersFor(config),
    members: membersFrom(users),
    siteUrl: config.notifications.siteUrl ?? config.allowedOrigins[0] ?? 'http://localhost',
    ...(deps.now ? { now: deps.now } : {}),
    ...(deps.leaseSeconds !== undefined ? { leaseSeconds: deps.leaseSeconds } : {}),
    // A new incident's search-word items, written by the create after its transaction, completed here when that
    // write failed (docs/data-model.md#search; idempotent: reads, then puts only the missing ones).
    prepare: async (ev) => {
      if (ev.subject.type !== 'incident' || !ev.subject.id) return;
      // A comment's search words (docs/data-model.md#search): ONE Query of the incident's comments at the event's time.
      if (ev.kind !== 'incident.created') {
        const words = await ensureCommentTokens(table, ev.tenantId, ev.subject.id, ev.at);
        if (words > 0) logger.warn('search index: comment word items completed from the event', { tenantId: ev.tenantId, incidentId: ev.subject.id, written: words });
        return;
      }
      const written = await ensureSearchTokens(table, ev.tenantId, ev.subject.id);
      if (written > 0) logger.warn('search index: word items completed from the incident.created event', { tenantId: ev.tenantId, incidentId: ev.subject.id, written });
    },
    onOutcome: (o) => {
      if (o.state === 'dead') logger.error('delivery dead-lettered', { deliveryId: o.deliveryId, error: o.error });
      else if (o.state === 'failed') logger.warn('delivery failed, will retry', { deliveryId: o.deliveryId, error: o.error });
      else logger.debug('delivery', { deliveryId: o.deliveryId, state: o.state });
    },
  };
  const processor = new BatchProcessor(EventType.DynamoDBStreams);
  const deliver = async (item: Record<string, unknown>) => {
    const ev = item.outbox === 'PENDING' ? notificationEventOf(item) : null;
    return ev ? deliverEvent(ev, delivery) : null;
  };
  const recordHandler = async (record: DynamoDBRecord): Promise<void> => {
    const image = record.dynamodb?.NewImage;
    if (!image) return;
    await deliver(unmarshall(image as Parameters<typeof unmarshall>[0]));
  };
  const sweep: Consumer['sweep'] = (opts = {}) =>
    sweepOutbox(delivery, {
      minAgeSeconds: opts.minAgeSeconds ?? SWEEP_MIN_AGE_SECONDS,
      maxEvents: opts.maxEvents ?? SWEEP_MAX_EVENTS,
      onError: (eventId, e) => logger.error('event delivery failed (storage)', { eventId, error: e as Error }),
    });
  return {
    deliver,
    sweep,
    async handle(event, context) {
      if ('Records' in event && Array.isArray(event.Records)) return processPartialResponse(event, recordHandler, processor, { context });
      const out = await sweep();
      logger.info('outbox sweep', { ...out });
      return out;
    },
  };
}

let cached: Consumer | undefined;
/** Lambda entry point; configuration from the environment on the first invocation. */
export const handler = (event: DynamoDBStreamEvent | { source?: string }, context: Context): Promise<DynamoDBBatchResponse | SweepOutcome> =>
  (cached ??= createConsumer(lambdaConfigFromEnv(process.env))).handle(event, context);
