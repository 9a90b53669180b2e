/**
 * Notification delivery in AWS (docs/notifications.md#delivery): the consumer function
 * `vigia-<stage>-notifications-consumer` (`lambdas/handlers/notifications-consumer.ts`) with
 *
 *  - the table's DynamoDB stream (NEW_IMAGE) as event source, filtered to INSERTs of activity events
 *    (`entity = ActivityEvent` and `outbox = PENDING` in the new image: the event items have no index entry,
 *    docs/notifications.md#outbox), batches of 25, partial batch responses (Powertools batch),
 *    bisection on error, 3 retries, records older than 6 h dropped to the DLQ;
 *  - the DLQ `vigia-<stage>-notifications-dlq` (SQS, SSE, TLS only, 14 days) as on-failure destination —
 *    the Monitoring stack alarms on its depth (`NotificationsDlq`) and on the mapping's `IteratorAge`
 *    (`NotificationsIteratorAge`). Lambda sends only the failed batch's metadata there (shard, first and
 *    last sequence number, stream ARN), never the records: `npm run platform:redrive-notifications`
 *    (`scripts/platform/redrive-notifications.ts`) reads them back from the stream while it still holds them
 *    (24 h) and invokes the consumer with them (docs/platform.md#alarms);
 *  - an EventBridge rule every minute (the outbox sweep: retries with backoff, events the stream missed);
 *  - a role with exactly: the table's item reads/writes and Query on its indexes, ListUsersInGroup on the
 *    stage's user pool (recipients = the tenant group's members), and `ses:SendEmail` on the configured SES
 *    identity only (the address and its domain: either may be the verified identity) and its configuration
 *    set. A stage without an SES identity gets no SES permission and sends webhooks only.
 */
import { Duration, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { FilterCriteria, FilterRule, type Runtime, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { lambdaEnvironment } from '../lambdas/config.js';
import { COGNITO_ASSIGNEE_ACTIONS } from '../lambdas/data/cognito-users.js';
import { indexesOf } from '../lambdas/data/access-patterns.js';
import { functionLogsAndRole, lambdaDefaults, XRAY_WILDCARD_REASON } from './lambda-defaults.js';
import { sesEnvironment, sesSendStatement } from './scheduled-mail-job.js';
import { physicalName, type StageConfig } from './stage-config.js';

/** Name of the consumer's dead-letter queue (the Monitoring stack's alarm names it). */
export const notificationsDlqName = (stage: string): string => physicalName(stage, 'notifications-dlq');
/** Name of the consumer function. */
export const notificationsConsumerName = (stage: string): string => physicalName(stage, 'notifications-consumer');

/**
 * Stream settings of the event source mapping (template tests read them; docs/platform.md#alarms):
 *  - `batchSize` 25 records per invocation;
 *  - `bisectBatchOnError`: a failed batch is split in two and each half retried, so one bad record ends up
 *    alone instead of holding its neighbours;
 *  - `retryAttempts` 3 retries of a failed (half-)batch, then its metadata goes to the DLQ;
 *  - `maxRecordAgeHours` 6: older records are not retried but sent to the DLQ (the outbox sweep still delivers
 *    their events: they stay `PENDING`);
 *  - `reportBatchItemFailures`: the handler names the failed records, only those (and the later ones of the
 *    shard) are retried;
 *  - `streamRetentionHours` 24: DynamoDB Streams keep records 24 h — the re-drive window of the DLQ's entries
 *    (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Streams.html).
 * AWS: https://docs.aws.amazon.com/lambda/latest/dg/services-ddb-batchfailurereporting.html and
 * https://docs.aws.amazon.com/lambda/latest/dg/services-dynamodb-errors.html
 */
export const NOTIFICATIONS_STREAM = {
  batchSize: 25,
  bisectBatchOnError: true,
  retryAttempts: 3,
  maxRecordAgeHours: 6,
  reportBatchItemFailures: true,
  streamRetentionHours: 24,
} as const;

export interface NotificationsConsumerProps {
  readonly config: StageConfig;
  /** The stage's table; its stream (NEW_IMAGE) feeds the consumer when the stack owns the table. */
  readonly table: ITable;
  readonly siteOrigin: string;
  readonly userPoolId: string;
  readonly userPoolArn: string;
  readonly tableActions: readonly string[];
  /** The API functions' runtime (`LAMBDA_RUNTIME`). */
  readonly runtime: Runtime;
}

export class NotificationsConsumer extends Construct {
  readonly fn: NodejsFunction;
  readonly dlq: Queue;

  constructor(scope: Construct, id: string, props: NotificationsConsumerProps) {
    super(scope, id);
    const { config, table } = props;

    this.dlq = new Queue(this, 'Dlq', {
      queueName: notificationsDlqName(config.stage),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
      removalPolicy: config.removalPolicy,
    });
    Validations.of(this.dlq).acknowledge({ id: 'AwsSolutions-SQS3', reason: 'This queue is itself the dead-letter queue of the notification consumer.' });

    const { logGroup, role } = functionLogsAndRole(this, config, `Vigía notification consumer (${config.stage})`);
    role.addToPrincipalPolicy(new PolicyStatement({ actions: [...props.tableActions], resources: [table.tableArn] }));
    role.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['dynamodb:Query'], resources: indexesOf('notifications-consumer').map((i) => `${table.tableArn}/index/${i}`) }),
    );
    role.addToPrincipalPolicy(new PolicyStatement({ actions: [...COGNITO_ASSIGNEE_ACTIONS], resources: [props.userPoolArn] }));
    // SES SendEmail on the configured identity only (none without one): the same statement as the digest's.
    const ses = sesSendStatement(this, config);
    if (ses) role.addToPrincipalPolicy(ses);

    this.fn = new NodejsFunction(this, 'Function', {
      ...lambdaDefaults(
        config,
        'handlers/notifications-consumer.ts',
        lambdaEnvironment({
          stage: config.stage,
          tableName: table.tableName,
          userPoolId: props.userPoolId,
          serviceName: 'vigia-notifications',
          logLevel: config.logLevel,
          retention: { ...config.dataRetention },
          notifications: { siteUrl: props.siteOrigin, ...sesEnvironment(this, config), allowLocalWebhooks: false },
        }),
        props.runtime,
      ),
      functionName: notificationsConsumerName(config.stage),
      description: `Vigía: e-mail and webhook delivery of activity events (${config.stage})`,
      memorySize: 512,
      // A batch of 25 events × a few deliveries × ≤ 5 s per webhook.
      timeout: Duration.minutes(2),
      role,
      logGroup,
    });

    // Resource "*" only where the action has no resource-level permission: the stream's ListStreams (a table
    // this stack owns) and active tracing's X-Ray writes (also on an adopted table, which has no stream here).
    const wildcardReasons = [
      ...(table.tableStreamArn ? ['The DynamoDB stream event source needs dynamodb:ListStreams, which supports no resource-level permission (CDK adds it on *); the stream reads themselves name the table stream only.'] : []),
      ...(config.tracing ? [XRAY_WILDCARD_REASON] : []),
    ];
    if (wildcardReasons.length > 0) Validations.of(role).acknowledge({ id: 'AwsSolutions-IAM5[Resource::*]', reason: wildcardReasons.join(' ') });
    if (table.tableStreamArn) {
      this.fn.addEventSource(
        new DynamoEventSource(table, {
          startingPosition: StartingPosition.LATEST,
          batchSize: NOTIFICATIONS_STREAM.batchSize,
          bisectBatchOnError: NOTIFICATIONS_STREAM.bisectBatchOnError,
          retryAttempts: NOTIFICATIONS_STREAM.retryAttempts,
          maxRecordAge: Duration.hours(NOTIFICATIONS_STREAM.maxRecordAgeHours),
          reportBatchItemFailures: NOTIFICATIONS_STREAM.reportBatchItemFailures,
          onFailure: new SqsDlq(this.dlq),
          filters: [
            FilterCriteria.filter({ eventName: FilterRule.isEqual('INSERT'), dynamodb: { NewImage: { entity: { S: FilterRule.isEqual('ActivityEvent') }, outbox: { S: FilterRule.isEqual('PENDING') } } } }),
          ],
        }),
      );
    }
    new Rule(this, 'Sweep', {
      description: `Vigía ${config.stage}: notification outbox sweep (retries, events the stream missed)`,
      schedule: Schedule.rate(Duration.minutes(1)),
      targets: [new LambdaFunction(this.fn, { retryAttempts: 0 })],
    });
  }
}
