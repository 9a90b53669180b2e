/**
 * The daily digest in AWS (docs/notifications.md#daily-digest): the function `vigia-<stage>-notification-digest`
 * (`lambdas/triggers/notification-digest.ts`) and an EventBridge rule that invokes it once a day at
 * `DIGEST_HOUR_UTC` (06:00 UTC, `cron(0 6 * * ? *)`), with the function's asynchronous retries (2) for a run
 * that left digests to send. Its role may exactly:
 *  - Query the table on the partitions it reads (`dynamodb:LeadingKeys`: the tenant registry `TENANTS`, the
 *    users' preferences `TENANT#*#NOTIFPREFS`, the feed `TENANT#*#ACTIVITY`, the digest delivery records
 *    `TENANT#*#DELIVERY#DIGEST-*`) and UpdateItem only the digest delivery records (claim / finish);
 *  - ListUsersInGroup on the stage's user pool (recipients = the tenant group's enabled members);
 *  - `ses:SendEmail` on the configured SES identity only (`sesSendStatement` of scheduled-mail-job.ts, as the notification
 *    consumer). A stage without an SES identity gets no SES permission and its job sends nothing.
 */
import { Duration } from 'aws-cdk-lib';
import { Schedule } from 'aws-cdk-lib/aws-events';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import { TENANTS_PK } from '../lambdas/data/table/keys.js';
import { DIGEST_HOUR_UTC } from '../lambdas/domain/notification-digest.js';
import { leadingKeys, ScheduledMailJob, type ScheduledMailJobProps } from './scheduled-mail-job.js';
import { physicalName } from './stage-config.js';

/** Name of the digest function. */
export const notificationDigestName = (stage: string): string => physicalName(stage, 'notification-digest');

/** Partitions the digest job reads (`dynamodb:LeadingKeys` of its Query statement). */
export const DIGEST_QUERY_PARTITIONS = [TENANTS_PK, 'TENANT#*#NOTIFPREFS', 'TENANT#*#ACTIVITY', 'TENANT#*#DELIVERY#DIGEST-*'] as const;
/** Partitions the digest job writes (its delivery records). */
export const DIGEST_WRITE_PARTITIONS = ['TENANT#*#DELIVERY#DIGEST-*'] as const;

export type NotificationDigestProps = ScheduledMailJobProps;

/** The scheduled digest job: function, role, log group and the daily EventBridge rule. */
export class NotificationDigest extends ScheduledMailJob {
  constructor(scope: Construct, id: string, props: NotificationDigestProps) {
    const { config } = props;
    super(scope, id, props, {
      roleDescription: `Vigía daily notification digest (${config.stage})`,
      tableStatements: (table) => [
        new PolicyStatement({ actions: ['dynamodb:Query'], resources: [table.tableArn], conditions: leadingKeys(DIGEST_QUERY_PARTITIONS) }),
        new PolicyStatement({ actions: ['dynamodb:UpdateItem'], resources: [table.tableArn], conditions: leadingKeys(DIGEST_WRITE_PARTITIONS) }),
      ],
      entry: 'triggers/notification-digest.ts',
      serviceName: 'vigia-notification-digest',
      functionName: notificationDigestName(config.stage),
      description: `Vigía: daily digest e-mail of the activity feed (${config.stage})`,
      memorySize: 256,
      // Every tenant's subscribers, one SES call each; a run cut short is finished by the retry (idempotent).
      timeout: Duration.minutes(10),
      schedule: Schedule.cron({ minute: '0', hour: String(DIGEST_HOUR_UTC) }),
      ruleDescription: `Vigía ${config.stage}: daily notification digest (${String(DIGEST_HOUR_UTC).padStart(2, '0')}:00 UTC)`,
    });
  }
}
