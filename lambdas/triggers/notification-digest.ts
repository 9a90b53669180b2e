/**
 * The daily digest job (docs/notifications.md#daily-digest): in AWS an EventBridge rule invokes it once a
 * day at `DIGEST_HOUR_UTC` (06:00 UTC, `infra/notifications.ts`); locally `npm start` runs it at start and
 * every hour (`scripts/local/stack.ts`). Each run sends the digest of the UTC day before the scheduled
 * event's `time` (before now when invoked without one) with `runDigest`
 * (lambdas/domain/notification-digest.ts): exactly once per user per day, whatever the number of runs.
 *
 * Errors: when a digest is left to send (a failed send to retry, another run's live claim, a tenant whose
 * reads failed), the invocation fails after finishing the others, so Lambda's asynchronous retries (2, about
 * 1 and 3 minutes later) run it again for the same day (the retried event carries the same `time`); what was
 * sent is never sent again. A run that still fails raises the function's Errors alarm.
 *
 * Configuration: the Lambda environment (`lambdaConfigFromEnv`): table, user pool (the tenant groups'
 * members), SES identity and site URL, as the notification consumer.
 */
import { lambdaConfigFromEnv, type LambdaConfig } from '../config.js';
import { createDocumentClient, type TableRef } from '../data/client.js';
import { cognitoUsers } from '../data/cognito-users.js';
import { digestSource } from '../data/notification-digest.js';
import { notificationsRepository } from '../data/notifications.js';
import type { NotificationsPort, SendersPort } from '../domain/notification-delivery.js';
import { digestDayOf, runDigest, type DigestOutcome, type DigestSourcePort } from '../domain/notification-digest.js';
import type { GroupMembersPort } from '../domain/ports.js';
import { createLogger } from '../http/logger.js';
import { membersFrom, sendersFor } from '../handlers/notifications-consumer.js';

/** What a test or the local stack may replace. */
export interface DigestJobDeps {
  table?: TableRef;
  store?: NotificationsPort;
  source?: DigestSourcePort;
  senders?: SendersPort;
  users?: GroupMembersPort;
  now?: () => Date;
  leaseSeconds?: number;
}

/** The job: `run(at)` sends the digest of the UTC day before `at`. */
export interface DigestJob {
  run(at?: Date): Promise<DigestOutcome>;
}

/** The digest job for an explicit configuration (local stack, tests). */
export function createDigestJob(config: LambdaConfig, deps: DigestJobDeps = {}): DigestJob {
  const logger = createLogger({ ...config, serviceName: 'vigia-notification-digest' });
  const table = deps.table ?? { doc: createDocumentClient({ region: config.region, endpoint: config.dynamodbEndpoint }), tableName: config.tableName };
  const users =
    deps.users ??
    (config.userPoolId ? cognitoUsers({ userPoolId: config.userPoolId, region: config.region, endpoint: config.cognitoEndpoint }) : { listGroupMembers: async () => [] });
  const now = deps.now ?? (() => new Date());
  if (!deps.senders && !config.notifications.emailFrom) {
    // A stage without an SES identity (docs/platform.md#cognito-e-mail) sends no e-mail: nothing to do, no error.
    return {
      run: async (at) => {
        logger.warn('no SES identity configured (notifications.emailFrom): no digest sent');
        return { day: digestDayOf(at ?? now()), tenants: 0, subscribers: 0, sent: 0, failed: 0, dead: 0, empty: 0, skipped: 0, open: 0 };
      },
    };
  }
  return {
    run: (at) =>
      runDigest(
        {
          source: deps.source ?? digestSource(table),
          store: deps.store ?? notificationsRepository(table),
          senders: deps.senders ?? sendersFor(config),
          members: membersFrom(users),
          siteUrl: config.notifications.siteUrl ?? config.allowedOrigins[0] ?? 'http://localhost',
          now,
          ...(deps.leaseSeconds !== undefined ? { leaseSeconds: deps.leaseSeconds } : {}),
          onOutcome: (o) => {
            if (o.state === 'dead') logger.error('digest dead-lettered', { deliveryId: o.deliveryId, error: o.error });
            else if (o.state === 'failed') logger.warn('digest failed, will retry', { deliveryId: o.deliveryId, error: o.error });
          },
          onTenantError: (tenantId, e) => logger.error('digest of a tenant failed', { tenantId, error: e as Error }),
        },
        { day: digestDayOf(at ?? now()) },
      ),
  };
}

/** Thrown when a run leaves digests to send (Lambda's asynchronous retries run it again). */
export class DigestIncomplete extends Error {
  override readonly name = 'DigestIncomplete';
}

let cached: DigestJob | undefined;
/** EventBridge scheduled-event entry point (`time`: the scheduled instant, ISO-8601). */
export async function handler(event: { time?: string } = {}): Promise<DigestOutcome> {
  cached ??= createDigestJob(lambdaConfigFromEnv(process.env));
  const at = event.time && !Number.isNaN(Date.parse(event.time)) ? new Date(event.time) : new Date();
  const out = await cached.run(at);
  console.log(JSON.stringify({ level: 'INFO', message: 'notification-digest', ...out }));
  if (out.open > 0) throw new DigestIncomplete(`digest of ${out.day}: ${out.open} left to send`);
  return out;
}
