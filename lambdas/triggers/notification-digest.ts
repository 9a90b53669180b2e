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
 * Failures inside a run (docs/platform.md#alarms) — a tenant whose reads failed, a send that failed (retried
 * later) or was dead-lettered — are logged as errors/warnings and counted in `failures`; each scheduled run
 * publishes that count as the EMF metric `Vigia/<stage> JobFailures` (`service` = `vigia-notification-digest`,
 * `job-metrics.ts`), on which the `NotificationDigestJobFailures` alarm fires (a dead-lettered digest does not
 * fail the invocation, so the Errors alarm alone would not see it).
 *
 * Configuration: the Lambda environment (`lambdaConfigFromEnv`): table, user pool (the tenant groups'
 * members), SES identity and site URL, as the notification consumer.
 */
import { lambdaConfigFromEnv, type LambdaConfig } from '../config.js';
import { createDocumentClient, type TableRef } from '../data/table/client.js';
import { cognitoUsers } from '../data/cognito-users.js';
import { digestSource } from '../data/notification-digest.js';
import { notificationsRepository } from '../data/notifications.js';
import type { NotificationsPort, SendersPort } from '../domain/notification-delivery.js';
import { digestDayOf, runDigest, type DigestOutcome, type DigestSourcePort } from '../domain/notification-digest.js';
import type { GroupMembersPort } from '../domain/ports.js';
import { createLogger } from '../http/logger.js';
import { membersFrom, sendersFor } from '../handlers/notifications-consumer.js';
import { JOB_SERVICES, publishJobFailures } from './job-metrics.js';

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

/** One run's outcome plus its `failures`: tenants that failed + sends failed (retried later) + dead-lettered. */
export type DigestRunOutcome = DigestOutcome & { failures: number };

/** The job: `run(at)` sends the digest of the UTC day before `at`. */
export interface DigestJob {
  run(at?: Date): Promise<DigestRunOutcome>;
}

/** The digest job for an explicit configuration (local stack, tests). */
export function createDigestJob(config: LambdaConfig, deps: DigestJobDeps = {}): DigestJob {
  const logger = createLogger({ ...config, serviceName: JOB_SERVICES.notificationDigest });
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
        return { day: digestDayOf(at ?? now()), tenants: 0, subscribers: 0, sent: 0, failed: 0, dead: 0, empty: 0, skipped: 0, open: 0, failures: 0 };
      },
    };
  }
  return {
    run: async (at) => {
      let tenantErrors = 0;
      const out = await runDigest(
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
          onTenantError: (tenantId, e) => {
            tenantErrors++;
            logger.error('digest of a tenant failed', { tenantId, error: e as Error });
          },
        },
        { day: digestDayOf(at ?? now()) },
      );
      return { ...out, failures: tenantErrors + out.failed + out.dead };
    },
  };
}

/** Thrown when a run leaves digests to send (Lambda's asynchronous retries run it again). */
export class DigestIncomplete extends Error {
  override readonly name = 'DigestIncomplete';
}

/**
 * One scheduled run as the Lambda does it: `job.run(at)`, its `failures` published as `JobFailures` of
 * `stage` (also 0), the outcome logged.
 * @throws DigestIncomplete when digests are left to send (Lambda's asynchronous retries run it again)
 */
export async function runDigestJob(job: DigestJob, stage: string, at: Date): Promise<DigestRunOutcome> {
  const out = await job.run(at);
  publishJobFailures(stage, JOB_SERVICES.notificationDigest, out.failures);
  console.log(JSON.stringify({ level: out.failures > 0 ? 'ERROR' : 'INFO', message: 'notification-digest', ...out }));
  if (out.open > 0) throw new DigestIncomplete(`digest of ${out.day}: ${out.open} left to send`);
  return out;
}

let cached: { job: DigestJob; stage: string } | undefined;
/** EventBridge scheduled-event entry point (`time`: the scheduled instant, ISO-8601). */
export async function handler(event: { time?: string } = {}): Promise<DigestRunOutcome> {
  if (!cached) {
    const config = lambdaConfigFromEnv(process.env);
    cached = { job: createDigestJob(config), stage: config.stage };
  }
  const at = event.time && !Number.isNaN(Date.parse(event.time)) ? new Date(event.time) : new Date();
  return runDigestJob(cached.job, cached.stage, at);
}
