/**
 * The monthly report e-mail in AWS (docs/notifications.md#monthly-report-e-mail): the function
 * `vigia-<stage>-monthly-report-mail` (`lambdas/triggers/monthly-report-mail.ts`) and an EventBridge rule
 * that invokes it at 06:00 UTC on the 1st of each month (`cron(0 6 1 * ? *)`), with the function's
 * asynchronous retries (2) for a run that left reports to send. Its role may exactly:
 *  - Query and GetItem the table on the tenant registry and the tenants' own partitions (`dynamodb:LeadingKeys`
 *    `TENANTS`, `TENANT#*`: preferences, delivery records, the report's aggregates), BatchGetItem there too (the
 *    incidents due in the report months' boundary hours, `loadPeriodsAggregates` in lambdas/data/reports.ts),
 *    and Query the report's indexes (those of the `reports` handler: `tenantLists`, `socQueue`, `socQueueOfTenant`,
 *    `belowSla`) on tenant partitions only — the reads of `GET /reports/monthly/{month}`. On a Query of an index
 *    AWS's `dynamodb:LeadingKeys` is the index's partition key value (scripts/aws-rules/aws-calls.ts
 *    `leadingKeysOf`), so the job reads a boundary hour from its tenant's queue (GSI4 `TENANT#<t>#SOCQUEUE`),
 *    never from GSI2 `SOCQUEUE`, which this role is denied;
 *  - UpdateItem only its delivery records `TENANT#*#DELIVERY#MONTHLY-*` (claim / finish);
 *  - ListUsersInGroup on the stage's user pool; `ses:SendEmail` on the configured SES identity only
 *    (`sesSendStatement`). A stage without an SES identity gets no SES permission and sends nothing.
 */
import { Duration } from 'aws-cdk-lib';
import { Schedule } from 'aws-cdk-lib/aws-events';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import { TENANTS_PK } from '../lambdas/data/table/keys.js';
import { FUNCTION_INDEX_ACCESS, indexOf, type IndexAccessId } from '../lambdas/data/access-patterns.js';
import { MONTHLY_REPORT_DAY, MONTHLY_REPORT_HOUR_UTC } from '../lambdas/domain/monthly-report-mail.js';
import { leadingKeys, ScheduledMailJob, type ScheduledMailJobProps } from './scheduled-mail-job.js';
import { physicalName } from './stage-config.js';

/** Name of the monthly report function. */
export const monthlyReportMailName = (stage: string): string => physicalName(stage, 'monthly-report-mail');
/** Partitions the job reads (Query, GetItem, BatchGetItem). */
export const MONTHLY_REPORT_READ_PARTITIONS = [TENANTS_PK, 'TENANT#*'] as const;
/** Indexes the report's reads Query (tenant partitions only): those of the `reports` handler, whose reads the job makes. */
export const MONTHLY_REPORT_INDEXES: readonly IndexAccessId[] = FUNCTION_INDEX_ACCESS.reports ?? [];
/** Partitions the job writes (its delivery records). */
export const MONTHLY_REPORT_WRITE_PARTITIONS = ['TENANT#*#DELIVERY#MONTHLY-*'] as const;

export type MonthlyReportMailProps = ScheduledMailJobProps;

/** The scheduled monthly report job: function, role, log group and the monthly EventBridge rule. */
export class MonthlyReportMail extends ScheduledMailJob {
  constructor(scope: Construct, id: string, props: MonthlyReportMailProps) {
    const { config } = props;
    super(scope, id, props, {
      roleDescription: `Vigía monthly report e-mail (${config.stage})`,
      tableStatements: (table) => [
        new PolicyStatement({ actions: ['dynamodb:Query', 'dynamodb:GetItem', 'dynamodb:BatchGetItem'], resources: [table.tableArn], conditions: leadingKeys(MONTHLY_REPORT_READ_PARTITIONS) }),
        new PolicyStatement({ actions: ['dynamodb:Query'], resources: MONTHLY_REPORT_INDEXES.map((i) => `${table.tableArn}/index/${indexOf(i)}`), conditions: leadingKeys(['TENANT#*']) }),
        new PolicyStatement({ actions: ['dynamodb:UpdateItem'], resources: [table.tableArn], conditions: leadingKeys(MONTHLY_REPORT_WRITE_PARTITIONS) }),
      ],
      entry: 'triggers/monthly-report-mail.ts',
      serviceName: 'vigia-monthly-report-mail',
      functionName: monthlyReportMailName(config.stage),
      description: `Vigía: monthly PDF report e-mailed on the 1st (${config.stage})`,
      // pdf-lib renders in memory: a few PDFs per tenant, tens of KB each.
      memorySize: 512,
      timeout: Duration.minutes(15),
      schedule: Schedule.cron({ minute: '0', hour: String(MONTHLY_REPORT_HOUR_UTC), day: String(MONTHLY_REPORT_DAY) }),
      ruleDescription: `Vigía ${config.stage}: monthly report e-mail (day ${MONTHLY_REPORT_DAY}, ${String(MONTHLY_REPORT_HOUR_UTC).padStart(2, '0')}:00 UTC)`,
    });
  }
}
