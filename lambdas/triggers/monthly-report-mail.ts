/**
 * The monthly report e-mail job (docs/notifications.md#monthly-report-e-mail): in AWS an EventBridge rule
 * invokes it at 06:00 UTC on the 1st of each month (`cron(0 6 1 * ? *)`, infra/monthly-report-mail.ts); each
 * run e-mails the PDF of the UTC month before the scheduled event's `time` (before now when invoked without
 * one) with `runMonthlyReportMail` (lambdas/domain/monthly-report-mail.ts): exactly once per user per
 * tenant-month, whatever the number of runs. Locally: `createMonthlyReportJob(config, { senders })` against
 * the `npm start` stack's SES emulator (the integration test does exactly that).
 *
 * Errors: when something is left to send (a failed send, another run's live claim, a tenant whose reads
 * failed) the invocation fails after finishing the others, so Lambda's asynchronous retries run it again
 * for the same month (the retried event carries the same `time`); what was sent is never sent again.
 */
import { lambdaConfigFromEnv, type LambdaConfig } from '../config.js';
import { createDocumentClient, type TableRef } from '../data/table/client.js';
import { cognitoUsers } from '../data/cognito-users.js';
import { monthlyReportSource } from '../data/monthly-report-mail.js';
import { notificationsRepository } from '../data/notifications.js';
import { maintenanceWindowsRepository } from '../data/maintenance-windows.js';
import { reportsRepository } from '../data/reports.js';
import { tenantsRepository } from '../data/tenants.js';
import { reportMonthOf, runMonthlyReportMail, type MonthlyReportMailOutcome, type MonthlyReportSourcePort } from '../domain/monthly-report-mail.js';
import type { SendersPort } from '../domain/notification-delivery.js';
import type { GroupMembersPort } from '../domain/ports.js';
import { membersFrom, sendersFor } from '../handlers/notifications-consumer.js';
import { createLogger } from '../http/logger.js';

/** What a test or the local stack may replace. */
export interface MonthlyReportJobDeps {
  table?: TableRef;
  source?: MonthlyReportSourcePort;
  senders?: SendersPort;
  users?: GroupMembersPort;
  now?: () => Date;
  leaseSeconds?: number;
}

/** The job: `run(at)` e-mails the report of the UTC month before `at`. */
export interface MonthlyReportJob {
  run(at?: Date): Promise<MonthlyReportMailOutcome>;
}

/** The monthly report job for an explicit configuration (local stack, tests). */
export function createMonthlyReportJob(config: LambdaConfig, deps: MonthlyReportJobDeps = {}): MonthlyReportJob {
  const logger = createLogger({ ...config, serviceName: 'vigia-monthly-report-mail' });
  const table = deps.table ?? { doc: createDocumentClient({ region: config.region, endpoint: config.dynamodbEndpoint }), tableName: config.tableName };
  const users = deps.users ?? (config.userPoolId ? cognitoUsers({ userPoolId: config.userPoolId, region: config.region, endpoint: config.cognitoEndpoint }) : { listGroupMembers: async () => [] });
  const now = deps.now ?? (() => new Date());
  if (!deps.senders && !config.notifications.emailFrom) {
    return {
      run: async (at) => {
        logger.warn('no SES identity configured (notifications.emailFrom): no monthly report sent');
        return { month: reportMonthOf(at ?? now()), tenants: 0, reported: 0, subscribers: 0, sent: 0, failed: 0, dead: 0, skipped: 0, rendered: 0, open: 0 };
      },
    };
  }
  return {
    run: (at) =>
      runMonthlyReportMail(
        {
          source: deps.source ?? monthlyReportSource(table),
          store: notificationsRepository(table),
          senders: deps.senders ?? sendersFor(config),
          members: membersFrom(users),
          reports: reportsRepository(table),
          maintenanceWindows: maintenanceWindowsRepository(table),
          tenants: tenantsRepository(table),
          siteUrl: config.notifications.siteUrl ?? config.allowedOrigins[0] ?? 'http://localhost',
          now,
          ...(deps.leaseSeconds !== undefined ? { leaseSeconds: deps.leaseSeconds } : {}),
          onTenantError: (tenantId, e) => logger.error('monthly report of a tenant failed', { tenantId, error: e as Error }),
        },
        { month: reportMonthOf(at ?? now()) },
      ),
  };
}

/** Thrown when a run leaves reports to send (Lambda's asynchronous retries run it again). */
export class MonthlyReportIncomplete extends Error {
  override readonly name = 'MonthlyReportIncomplete';
}

let cached: MonthlyReportJob | undefined;
/** EventBridge scheduled-event entry point (`time`: the scheduled instant, ISO-8601). */
export async function handler(event: { time?: string } = {}): Promise<MonthlyReportMailOutcome> {
  cached ??= createMonthlyReportJob(lambdaConfigFromEnv(process.env));
  const at = event.time && !Number.isNaN(Date.parse(event.time)) ? new Date(event.time) : new Date();
  const out = await cached.run(at);
  console.log(JSON.stringify({ level: out.open > 0 ? 'ERROR' : 'INFO', message: 'monthly-report-mail', ...out }));
  if (out.open > 0) throw new MonthlyReportIncomplete(`monthly report of ${out.month}: ${out.open} left to send`);
  return out;
}
