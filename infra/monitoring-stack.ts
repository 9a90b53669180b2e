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
 *  - per Lambda function: `AWS/Lambda Errors` Sum ≥ 1 (an unhandled error is a bug) and `Throttles` Sum ≥ 1;
 *  - DynamoDB: `ReadThrottleEvents` and `WriteThrottleEvents` Sum ≥ 1 on the table.
 * Topic: SSL-only publishing; AWS-managed SSE is not used because CloudWatch alarms cannot publish to a topic
 * encrypted with the AWS-managed `alias/aws/sns` key (AWS SNS developer guide, "Encryption at rest").
 */
import { CfnOutput, Duration, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import {
  Alarm,
  AlarmStatusWidget,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  Metric,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Construct } from 'constructs';
import { HANDLER_NAMES } from '../lambdas/contract/routes.js';
import { tableName } from '../lambdas/data/table-design.js';
import { physicalName, type StageConfig } from './stage-config.js';

/** Alarm thresholds (counts per 5-minute period; latency in ms). */
export const ALARM_THRESHOLDS = {
  api5xxPerPeriod: 5,
  apiLatencyP95Ms: 3000,
  apiLatencyPeriods: 3,
  lambdaErrorsPerPeriod: 1,
  lambdaThrottlesPerPeriod: 1,
  dynamoThrottlesPerPeriod: 1,
} as const;

const PERIOD = Duration.minutes(5);

export interface MonitoringStackProps extends StackProps {
  readonly config: StageConfig;
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
    if (config.alarmEmail) this.topic.addSubscription(new EmailSubscription(config.alarmEmail));

    const api = { ApiName: physicalName(s, 'api'), Stage: s };
    const apiMetric = (metricName: string, statistic: string, label: string): Metric =>
      new Metric({ namespace: 'AWS/ApiGateway', metricName, dimensionsMap: api, statistic, period: PERIOD, label });
    const fnMetric = (fn: string, metricName: string, statistic = 'Sum'): Metric =>
      new Metric({ namespace: 'AWS/Lambda', metricName, dimensionsMap: { FunctionName: physicalName(s, fn) }, statistic, period: PERIOD, label: `${fn} ${metricName}` });
    const table = tableName(s);
    const ddbMetric = (metricName: string, statistic = 'Sum'): Metric =>
      new Metric({ namespace: 'AWS/DynamoDB', metricName, dimensionsMap: { TableName: table }, statistic, period: PERIOD, label: metricName });

    const alarm = (id: string, metric: Metric, threshold: number, description: string, evaluationPeriods = 1): Alarm => {
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
    alarm('Api5xx', apiMetric('5XXError', 'Sum', '5xx'), t.api5xxPerPeriod, `API ${s}: ≥ ${t.api5xxPerPeriod} server errors in 5 minutes`);
    alarm('ApiLatency', apiMetric('Latency', 'p95', 'latency p95'), t.apiLatencyP95Ms,
      `API ${s}: p95 latency ≥ ${t.apiLatencyP95Ms} ms for ${t.apiLatencyPeriods * 5} minutes`, t.apiLatencyPeriods);
    for (const fn of HANDLER_NAMES) {
      const Fn = fn[0]!.toUpperCase() + fn.slice(1);
      alarm(`${Fn}Errors`, fnMetric(fn, 'Errors'), t.lambdaErrorsPerPeriod, `Lambda ${physicalName(s, fn)}: unhandled errors`);
      alarm(`${Fn}Throttles`, fnMetric(fn, 'Throttles'), t.lambdaThrottlesPerPeriod, `Lambda ${physicalName(s, fn)}: throttled invocations`);
    }
    alarm('TableReadThrottles', ddbMetric('ReadThrottleEvents'), t.dynamoThrottlesPerPeriod, `DynamoDB ${table}: throttled reads`);
    alarm('TableWriteThrottles', ddbMetric('WriteThrottleEvents'), t.dynamoThrottlesPerPeriod, `DynamoDB ${table}: throttled writes`);

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
      new GraphWidget({ title: 'Lambda invocations', left: HANDLER_NAMES.map((fn) => fnMetric(fn, 'Invocations')), width: 8 }),
      new GraphWidget({
        title: 'Lambda errors and throttles',
        left: HANDLER_NAMES.flatMap((fn) => [fnMetric(fn, 'Errors'), fnMetric(fn, 'Throttles')]),
        width: 8,
      }),
      new GraphWidget({ title: 'Lambda duration p95 (ms)', left: HANDLER_NAMES.map((fn) => fnMetric(fn, 'Duration', 'p95')), width: 8 }),
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
