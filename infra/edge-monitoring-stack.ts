/**
 * Edge monitoring stack (`Vigia-<stage>-EdgeMonitoring`, region us-east-1): the CloudFront 5xx alarm of the
 * stage's portal distribution, with its own alarm topic.
 *
 * CloudFront publishes its metrics (`AWS/CloudFront`, dimensions `DistributionId` and `Region=Global`) in
 * us-east-1 only, and a CloudWatch alarm must live in the region of its metric, and notify a topic of that
 * region (AWS CloudFront developer guide, "Monitoring CloudFront metrics with Amazon CloudWatch"). So this
 * stack lives in us-east-1 and receives the distribution id through a CDK cross-region reference (an SSM
 * parameter written by a CDK-provided custom resource of the Hosting stack).
 *
 * Opt-in per deployment (`-c edgeAlarms=true`, production stages with a known account and region), because
 * it needs the CDK bootstrap in us-east-1 as well and a deploy identity allowed to use it
 * (docs/platform.md#alarms).
 */
import { CfnOutput, Duration, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, Metric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Construct } from 'constructs';
import { physicalName, type StageConfig } from './stage-config.js';

/** Region where CloudFront publishes its metrics. */
export const CLOUDFRONT_METRICS_REGION = 'us-east-1';
/** CDK context key enabling the edge stack. */
export const EDGE_ALARMS_CONTEXT = 'edgeAlarms';
/** Alarm threshold: percentage of viewer requests answered 5xx in 5 minutes. */
export const CLOUDFRONT_5XX_RATE_PERCENT = 5;

export interface EdgeMonitoringStackProps extends StackProps {
  readonly config: StageConfig;
  /** Distribution id of the Hosting stack (a cross-region reference). */
  readonly distributionId: string;
}

export class EdgeMonitoringStack extends Stack {
  readonly alarm: Alarm;
  readonly topic: Topic;

  constructor(scope: Construct, id: string, props: EdgeMonitoringStackProps) {
    super(scope, id, props);
    const { config } = props;
    const s = config.stage;
    this.topic = new Topic(this, 'EdgeAlarmTopic', {
      topicName: physicalName(s, 'edge-alarms'),
      displayName: `Vigía ${s} edge alarms`,
      enforceSSL: true,
    });
    Validations.of(this.topic).acknowledge({
      id: 'AwsSolutions-SNS2',
      reason: 'Alarm notifications only (no customer data); CloudWatch alarms cannot publish to a topic encrypted with the AWS-managed SNS key.',
    });
    if (config.alarmEmail) this.topic.addSubscription(new EmailSubscription(config.alarmEmail));

    this.alarm = new Alarm(this, 'CloudFront5xx', {
      alarmName: physicalName(s, 'cloudfront-5xx'),
      alarmDescription: `Portal ${s}: ≥ ${CLOUDFRONT_5XX_RATE_PERCENT} % of CloudFront responses were 5xx in 5 minutes`,
      metric: new Metric({
        namespace: 'AWS/CloudFront',
        metricName: '5xxErrorRate',
        dimensionsMap: { DistributionId: props.distributionId, Region: 'Global' },
        statistic: 'Average',
        period: Duration.minutes(5),
      }),
      threshold: CLOUDFRONT_5XX_RATE_PERCENT,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    this.alarm.addAlarmAction(new SnsAction(this.topic));
    this.alarm.addOkAction(new SnsAction(this.topic));

    // Findings on CDK's cross-region reference reader (a CDK-provided custom resource provider).
    for (const [id, reason] of [
      ['AwsSolutions-IAM4', 'CDK cross-region reference reader (CDK-managed provider role).'],
      ['AwsSolutions-IAM5', 'CDK cross-region reference reader: reads the SSM parameters CDK writes for this stack.'],
      ['AwsSolutions-L1', 'CDK cross-region reference reader runtime is chosen by aws-cdk-lib.'],
    ] as const) {
      Validations.of(this).acknowledge({ id, reason });
    }
    new CfnOutput(this, 'EdgeAlarmTopicArn', { value: this.topic.topicArn, description: 'SNS topic of the CloudFront alarm (us-east-1)' });
  }
}
