/**
 * Monitoring stack (`Vigia-<stage>-Monitoring`): CloudWatch alarms to an SNS topic (the stage's alarm
 * e-mail subscribed when configured) and one dashboard per stage.
 *
 * Metrics are addressed by the stage's deterministic physical names (`vigia-<stage>-api`, API stage
 * `<stage>`, functions `vigia-<stage>-<handler>`, table `vigia-<stage>-main`), so this stack needs no
 * cross-stack references; `vigia-app.ts` makes it depend on the Api and Data stacks.
 *
 * Alarms (period 5 minutes, missing data = not breaching; thresholds in {@link ALARM_THRESHOLDS}):
 *  - API 5xx: `AWS/ApiGateway 5XXError` Sum ≥ 5 in one period;
 *  - API latency: `AWS/ApiGateway Latency` p95 ≥ 3 000 ms for 3 consecutive periods;
 *  - per Lambda function (the API handlers and {@link BACKGROUND_FUNCTIONS}): `AWS/Lambda Errors` Sum ≥ 1 (an
 *    unhandled error is a bug) and `Throttles` Sum ≥ 1;
 *  - DynamoDB: `ReadThrottleEvents` and `WriteThrottleEvents` Sum ≥ 1 on the table;
 *  - AWS WAF (stages with `waf`): `AWS/WAFV2 BlockedRequests` of the web ACL (rule `ALL`) Sum ≥
 *    `wafBlockedPerPeriod`: a block may be a collector or customer being refused, so a person looks;
 *  - Cognito: `AWS/Cognito SignInThrottles` of the user pool and portal client Sum ≥ 1;
 *  - sign-in trigger: `AWS/Lambda Errors` and `Throttles` of the pre token generation function
 *    (`vigia-<stage>-pre-token-generation`, infra/pre-token-trigger.ts) Sum ≥ 1 — Cognito fails the sign-in
 *    when that trigger fails (https://docs.aws.amazon.com/cognito/latest/developerguide/cognito-user-pools-working-with-lambda-triggers.html),
 *    so every sign-in depends on it;
 *  - notification stream: `AWS/Lambda IteratorAge` of the consumer (Maximum, ms: age of the last record of
 *    each batch read from the table's stream) ≥ `notificationsIteratorAgeMs` for `notificationsIteratorAgePeriods`
 *    periods — the consumer is falling behind, and records older than 6 h go to the DLQ unread
 *    (https://docs.aws.amazon.com/lambda/latest/dg/monitoring-metrics-types.html#event-source-mapping-metrics);
 *  - job failures: `Vigia/<stage> JobFailures` (EMF, `lambdas/triggers/job-metrics.ts`; dimension `service`)
 *    of the SLA job and of the daily digest Sum ≥ 1 — failures inside a run that goes on (a tenant, a send).
 *  - ingest silence (stages with `ingestSilence`, {@link ingestSilenceExpression}): no heartbeat accepted on
 *    either heartbeat route (`Vigia/<stage> HeartbeatsAccepted`, EMF of the ingest function) in `minutes`
 *    while the SLA job counts tenants with collectors (`WatchedTenants`); `SilentTenants` ≥ 1 (one alarm for
 *    every tenant, the SLA job's histogram check) and `TenantSilent` of each configured tenant, for the
 *    periods of {@link silencePeriods}. Missing data is not breaching on these too: a stage without
 *    collectors yet, or without a job run, is not silent (the job's own alarms see a job that fails).
 * Without a subscriber (no `alarmEmail`) the stack carries a warning annotation that `cdk synth` and
 * `cdk deploy` print: alarms nobody receives are not monitoring.
 * Topic: SSL-only publishing; AWS-managed SSE is not used because CloudWatch alarms cannot publish to a topic
 * encrypted with the AWS-managed `alias/aws/sns` key (AWS SNS developer guide, "Encryption at rest").
 */
import { Annotations, CfnOutput, Duration, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import {
  Alarm,
  AlarmStatusWidget,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  type IMetric,
  MathExpression,
  Metric,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Construct } from 'constructs';
import { HANDLER_NAMES } from '../lambdas/contract/routes.js';
import { metricNamespace } from './api-stack.js';
import { webAclName } from './api-waf.js';
import { HEARTBEAT_ROUTES, HEARTBEATS_ACCEPTED_METRIC, INGEST_SERVICE, JOB_FAILURES_METRIC, JOB_SERVICES, SILENCE_METRICS } from '../lambdas/triggers/job-metrics.js';
import { SILENT_TENANT_MINUTES } from '../lambdas/domain/silence.js';
import { notificationsConsumerName, notificationsDlqName } from './notifications.js';
import { preTokenGenerationName } from './pre-token-trigger.js';
import { physicalName, type StageConfig } from './stage-config.js';

/** Alarm thresholds (counts per 5-minute period; latency in ms). */
/**
 * The stage's functions outside the API (physical names `vigia-<stage>-<name>`): the notification consumer
 * (infra/notifications.ts), the daily digest (infra/notification-digest.ts) and the SLA job (infra/sla-watch.ts).
 * They get the same Errors/Throttles alarms.
 */
export const BACKGROUND_FUNCTIONS = ['notifications-consumer', 'notification-digest', 'sla-watch', 'monthly-report-mail'] as const;
const MONITORED_FUNCTIONS: readonly string[] = [...HANDLER_NAMES, ...BACKGROUND_FUNCTIONS];

export const ALARM_THRESHOLDS = {
  api5xxPerPeriod: 5,
  apiLatencyP95Ms: 3000,
  apiLatencyPeriods: 3,
  lambdaErrorsPerPeriod: 1,
  lambdaThrottlesPerPeriod: 1,
  dynamoThrottlesPerPeriod: 1,
  wafBlockedPerPeriod: 20,
  cognitoSignInThrottlesPerPeriod: 1,
  /** Errors/throttles of the pre token generation trigger: each one is a refused sign-in. */
  preTokenErrorsPerPeriod: 1,
  /** Oldest notification stream record's age when the consumer read it (ms), and for how many periods. */
  notificationsIteratorAgeMs: 10 * 60_000,
  notificationsIteratorAgePeriods: 3,
  /** Failures inside one run of the SLA job or the daily digest (`JobFailures`). */
  jobFailuresPerPeriod: 1,
} as const;

const PERIOD = Duration.minutes(5);

/** Id of the warning annotation on a topic without subscriber. */
export const NO_SUBSCRIBER_WARNING = 'vigia:alarm-topic-without-subscriber';

export interface MonitoringStackProps extends StackProps {
  readonly config: StageConfig;
  /** Cognito user pool id and portal app client id (dimensions of the sign-in throttle metric). */
  readonly userPoolId: string;
  readonly userPoolClientId: string;
}

/**
 * The stage's ingest-silence expression (CloudWatch metric math, period `minutes`): 1 when the SLA job saw
 * tenants with collectors (`watched`, `WatchedTenants` Maximum > 0) and the ingest function accepted no
 * heartbeat on either route (`single` + `batch`, `HeartbeatsAccepted` Sum, each `FILL`ed with 0: a route
 * nobody uses has no data), else 0. A new account (no tenant ever beat: `watched` = 0) gives 0, never ALARM.
 * https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/using-metric-math.html (IF, FILL).
 */
export function ingestSilenceExpression(single: IMetric, batch: IMetric, watched: IMetric, minutes: number): MathExpression {
  return new MathExpression({
    expression: 'IF(watched > 0 AND (FILL(single, 0) + FILL(batch, 0)) < 1, 1, 0)',
    usingMetrics: { single, batch, watched },
    period: Duration.minutes(minutes),
    label: 'ingest silent (1) while tenants have collectors',
  });
}

/**
 * Consecutive 5-minute periods of `SilentTenants` / `TenantSilent` ≥ 1 before the alarm: a tenant counts as
 * silent `SILENT_TENANT_MINUTES` (15) after its last heartbeat, so the alarm fires about `minutes` after it
 * (at least one period).
 */
export function silencePeriods(minutes: number): number {
  return Math.max(1, Math.ceil((minutes - SILENT_TENANT_MINUTES) / 5));
}

export class MonitoringStack extends Stack {
  readonly topic: Topic;
  readonly alarms: Alarm[] = [];
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: MonitoringStackProps) {
    super(scope, id, props);
    const { config } = props;
    const s = config.stage;

    this.topic = new Topic(this, 'AlarmTopic', {
      topicName: physicalName(s, 'alarms'),
      displayName: `Vigía ${s} alarms`,
      enforceSSL: true,
    });
    Validations.of(this.topic).acknowledge({
      id: 'AwsSolutions-SNS2',
      reason: 'Alarm notifications only (no customer data); CloudWatch alarms cannot publish to a topic encrypted with the AWS-managed SNS key, and a customer managed key per stage is not warranted.',
    });
    if (config.alarmEmail) {
      this.topic.addSubscription(new EmailSubscription(config.alarmEmail));
    } else {
      Annotations.of(this).addWarningV2(
        NO_SUBSCRIBER_WARNING,
        `The alarm topic ${physicalName(s, 'alarms')} has no subscriber: nobody receives the alarms of stage ${s}. Pass -c alarmEmail=<address> (platform:deploy --alarm-email) or subscribe the topic yourself.`,
      );
    }

    const api = { ApiName: physicalName(s, 'api'), Stage: s };
    const apiMetric = (metricName: string, statistic: string, label: string): Metric =>
      new Metric({ namespace: 'AWS/ApiGateway', metricName, dimensionsMap: api, statistic, period: PERIOD, label });
    const fnMetric = (fn: string, metricName: string, statistic = 'Sum'): Metric =>
      new Metric({ namespace: 'AWS/Lambda', metricName, dimensionsMap: { FunctionName: physicalName(s, fn) }, statistic, period: PERIOD, label: `${fn} ${metricName}` });
    const table = config.tableName;
    const ddbMetric = (metricName: string, statistic = 'Sum'): Metric =>
      new Metric({ namespace: 'AWS/DynamoDB', metricName, dimensionsMap: { TableName: table }, statistic, period: PERIOD, label: metricName });

    const alarm = (
      id: string,
      metric: IMetric,
      threshold: number,
      description: string,
      evaluationPeriods = 1,
    ): Alarm => {
      const a = new Alarm(this, id, {
        alarmName: physicalName(s, id.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase()),
        alarmDescription: description,
        metric,
        threshold,
        evaluationPeriods,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      a.addAlarmAction(new SnsAction(this.topic));
      a.addOkAction(new SnsAction(this.topic));
      this.alarms.push(a);
      return a;
    };

    const t = ALARM_THRESHOLDS;
    // Notification delivery (infra/notifications.ts): stream records the consumer failed on after its retries.
    alarm(
      'NotificationsDlq',
      new Metric({ namespace: 'AWS/SQS', metricName: 'ApproximateNumberOfMessagesVisible', dimensionsMap: { QueueName: notificationsDlqName(s) }, statistic: 'Maximum', period: PERIOD, label: 'notification DLQ depth' }),
      1,
      `Notifications ${s}: activity events in the dead-letter queue ${notificationsDlqName(s)} (the consumer failed on them after its retries; the outbox sweep retries them, docs/notifications.md#delivery)`,
    );
    alarm('Api5xx', apiMetric('5XXError', 'Sum', '5xx'), t.api5xxPerPeriod, `API ${s}: ≥ ${t.api5xxPerPeriod} server errors in 5 minutes`);
    alarm('ApiLatency', apiMetric('Latency', 'p95', 'latency p95'), t.apiLatencyP95Ms,
      `API ${s}: p95 latency ≥ ${t.apiLatencyP95Ms} ms for ${t.apiLatencyPeriods * 5} minutes`, t.apiLatencyPeriods);
    for (const fn of MONITORED_FUNCTIONS) {
      const Fn = fn.replace(/(^|-)([a-z])/g, (_m, _d: string, c: string) => c.toUpperCase());
      alarm(`${Fn}Errors`, fnMetric(fn, 'Errors'), t.lambdaErrorsPerPeriod, `Lambda ${physicalName(s, fn)}: unhandled errors`);
      alarm(`${Fn}Throttles`, fnMetric(fn, 'Throttles'), t.lambdaThrottlesPerPeriod, `Lambda ${physicalName(s, fn)}: throttled invocations`);
    }
    alarm('TableReadThrottles', ddbMetric('ReadThrottleEvents'), t.dynamoThrottlesPerPeriod, `DynamoDB ${table}: throttled reads`);
    alarm('TableWriteThrottles', ddbMetric('WriteThrottleEvents'), t.dynamoThrottlesPerPeriod, `DynamoDB ${table}: throttled writes`);
    if (config.waf) {
      const blocked = new Metric({
        namespace: 'AWS/WAFV2',
        metricName: 'BlockedRequests',
        dimensionsMap: { WebACL: webAclName(s), Region: this.region, Rule: 'ALL' },
        statistic: 'Sum',
        period: PERIOD,
        label: 'WAF blocked requests',
      });
      alarm('WafBlocked', blocked, t.wafBlockedPerPeriod, `WAF ${webAclName(s)}: ≥ ${t.wafBlockedPerPeriod} blocked requests in 5 minutes`);
    }
    const signInThrottles = new Metric({
      namespace: 'AWS/Cognito',
      metricName: 'SignInThrottles',
      dimensionsMap: { UserPool: props.userPoolId, UserPoolClient: props.userPoolClientId },
      statistic: 'Sum',
      period: PERIOD,
      label: 'Cognito sign-in throttles',
    });
    alarm('CognitoSignInThrottles', signInThrottles, t.cognitoSignInThrottlesPerPeriod, `Cognito ${physicalName(s, 'users')}: throttled sign-ins`);
    // Sign-in: Cognito refuses the authentication when the pre token generation trigger fails or is throttled.
    const preToken = preTokenGenerationName(s);
    const preTokenMetric = (metricName: string): Metric =>
      new Metric({ namespace: 'AWS/Lambda', metricName, dimensionsMap: { FunctionName: preToken }, statistic: 'Sum', period: PERIOD, label: `pre-token-generation ${metricName}` });
    alarm('PreTokenGenerationErrors', preTokenMetric('Errors'), t.preTokenErrorsPerPeriod,
      `Sign-in ${s}: the pre token generation trigger ${preToken} failed — Cognito refuses those sign-ins (docs/platform.md#alarms)`);
    alarm('PreTokenGenerationThrottles', preTokenMetric('Throttles'), t.preTokenErrorsPerPeriod,
      `Sign-in ${s}: the pre token generation trigger ${preToken} was throttled — Cognito refuses those sign-ins (docs/platform.md#alarms)`);
    // Notification stream: the consumer falls behind the table's stream (records past 6 h go to the DLQ unread).
    const iteratorAge = new Metric({
      namespace: 'AWS/Lambda',
      metricName: 'IteratorAge',
      dimensionsMap: { FunctionName: notificationsConsumerName(s) },
      statistic: 'Maximum',
      period: PERIOD,
      label: 'notification stream iterator age (ms)',
    });
    alarm('NotificationsIteratorAge', iteratorAge, t.notificationsIteratorAgeMs,
      `Notifications ${s}: the stream consumer ${notificationsConsumerName(s)} is ≥ ${t.notificationsIteratorAgeMs / 60_000} min behind the table's stream for ${t.notificationsIteratorAgePeriods * 5} minutes (docs/platform.md#alarms)`,
      t.notificationsIteratorAgePeriods);
    // Failures inside the scheduled jobs (a run goes on after a tenant's or a send's error; EMF metric).
    const jobFailures = (service: string): Metric =>
      new Metric({ namespace: metricNamespace(s), metricName: JOB_FAILURES_METRIC, dimensionsMap: { service }, statistic: 'Sum', period: PERIOD, label: `${service} failures` });
    alarm('SlaWatchJobFailures', jobFailures(JOB_SERVICES.slaWatch), t.jobFailuresPerPeriod,
      `SLA job ${s}: a run had failures (a tenant's re-key, the SLA events or the tenant list; ERROR lines in its log, docs/platform.md#alarms)`);
    alarm('NotificationDigestJobFailures', jobFailures(JOB_SERVICES.notificationDigest), t.jobFailuresPerPeriod,
      `Daily digest ${s}: a run had failures (a tenant's reads, a failed or dead-lettered e-mail; docs/platform.md#alarms)`);
    if (config.ingestSilence) {
      // Ingest silence (docs/platform.md#alarms): heartbeats accepted on BOTH heartbeat routes (EMF of the
      // ingest function), and the silent tenants the SLA job finds in the heartbeat histograms.
      const { minutes, tenants } = config.ingestSilence;
      const accepted = (route: string): Metric =>
        new Metric({ namespace: metricNamespace(s), metricName: HEARTBEATS_ACCEPTED_METRIC, dimensionsMap: { service: INGEST_SERVICE, route }, statistic: 'Sum', period: Duration.minutes(minutes) });
      const job = (metricName: string, period: Duration, tenant?: string): Metric =>
        new Metric({
          namespace: metricNamespace(s),
          metricName,
          dimensionsMap: { service: JOB_SERVICES.slaWatch, ...(tenant ? { [SILENCE_METRICS.tenantDimension]: tenant } : {}) },
          statistic: 'Maximum',
          period,
        });
      alarm('IngestSilence', ingestSilenceExpression(accepted(HEARTBEAT_ROUTES.single), accepted(HEARTBEAT_ROUTES.batch), job(SILENCE_METRICS.watched, Duration.minutes(minutes)), minutes), 1,
        `Ingest ${s}: no heartbeat accepted from any collector (single and batch routes) for ${minutes} minutes while tenants have collectors (docs/platform.md#alarms)`);
      // The SLA job's periods after a tenant went silent (SILENT_TENANT_MINUTES), so the alarm fires `minutes` after its last heartbeat.
      const periods = silencePeriods(minutes);
      alarm('SilentTenants', job(SILENCE_METRICS.silent, PERIOD), 1,
        `Ingest ${s}: at least one tenant's devices all silent for ${minutes} minutes — the tenants are in the sla-watch log's "tenant silent" lines and the TenantSilent metric (docs/platform.md#alarms)`, periods);
      for (const tenant of tenants) {
        const Id = tenant.replace(/(^|-)([a-z0-9])/g, (_m, _d, c: string) => c.toUpperCase());
        alarm(`IngestSilence${Id}`, job(SILENCE_METRICS.tenant, PERIOD, tenant), 1, `Ingest ${s}: no heartbeat from any device of tenant ${tenant} for ${minutes} minutes (docs/platform.md#alarms)`, periods);
      }
    }

    this.dashboard = new Dashboard(this, 'Dashboard', {
      dashboardName: physicalName(s, 'dashboard'),
      defaultInterval: Duration.hours(3),
    });
    this.dashboard.addWidgets(
      new AlarmStatusWidget({ title: `Alarms (${s})`, alarms: this.alarms, width: 24 }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'API requests and errors',
        left: [apiMetric('Count', 'Sum', 'requests'), apiMetric('4XXError', 'Sum', '4xx'), apiMetric('5XXError', 'Sum', '5xx')],
        width: 12,
      }),
      new GraphWidget({
        title: 'API latency (ms)',
        left: [apiMetric('Latency', 'p50', 'p50'), apiMetric('Latency', 'p95', 'p95'), apiMetric('IntegrationLatency', 'p95', 'integration p95')],
        width: 12,
      }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({ title: 'Lambda invocations', left: MONITORED_FUNCTIONS.map((fn) => fnMetric(fn, 'Invocations')), width: 8 }),
      new GraphWidget({
        title: 'Lambda errors and throttles',
        left: MONITORED_FUNCTIONS.flatMap((fn) => [fnMetric(fn, 'Errors'), fnMetric(fn, 'Throttles')]),
        width: 8,
      }),
      new GraphWidget({ title: 'Lambda duration p95 (ms)', left: MONITORED_FUNCTIONS.map((fn) => fnMetric(fn, 'Duration', 'p95')), width: 8 }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'DynamoDB consumed capacity',
        left: [ddbMetric('ConsumedReadCapacityUnits'), ddbMetric('ConsumedWriteCapacityUnits')],
        width: 12,
      }),
      new GraphWidget({ title: 'DynamoDB throttles', left: [ddbMetric('ReadThrottleEvents'), ddbMetric('WriteThrottleEvents')], width: 12 }),
    );

    new CfnOutput(this, 'AlarmTopicArn', { value: this.topic.topicArn, description: 'SNS topic of the stage alarms' });
    new CfnOutput(this, 'DashboardName', { value: physicalName(s, 'dashboard'), description: 'CloudWatch dashboard' });
  }
}
