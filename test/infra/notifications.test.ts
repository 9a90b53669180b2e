/**
 * Notification delivery in the templates (infra/notifications.ts): the table's stream, the consumer with
 * its filtered stream event source, partial batch responses and on-failure DLQ, the outbox sweep rule, the
 * DLQ alarm in the Monitoring stack, and a role whose SES permission names only the configured identity.
 */
import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { NOTIFICATIONS_STREAM } from '../../infra/notifications.js';
import { ofType, synthPr42, synthProd, TEST_SES } from '../support/synth.js';

describe('notification delivery', () => {
  it('the table streams new images', () => {
    synthPr42().t.data.hasResourceProperties('AWS::DynamoDB::Table', { StreamSpecification: { StreamViewType: 'NEW_IMAGE' } });
  });

  it('the consumer reads the stream (INSERTs of pending activity events), reports batch item failures and dead-letters to SQS', () => {
    const { t } = synthPr42();
    t.api.hasResourceProperties('AWS::Lambda::Function', { FunctionName: 'vigia-pr-42-notifications-consumer', Timeout: 120, Architectures: ['arm64'] });
    t.api.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      BatchSize: NOTIFICATIONS_STREAM.batchSize,
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: NOTIFICATIONS_STREAM.retryAttempts,
      MaximumRecordAgeInSeconds: NOTIFICATIONS_STREAM.maxRecordAgeHours * 3600,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      StartingPosition: 'LATEST',
      FilterCriteria: { Filters: [{ Pattern: JSON.stringify({ eventName: ['INSERT'], dynamodb: { NewImage: { entity: { S: ['ActivityEvent'] }, outbox: { S: ['PENDING'] } } } }) }] },
      DestinationConfig: { OnFailure: { Destination: Match.anyValue() } },
    });
    t.api.hasResourceProperties('AWS::SQS::Queue', { QueueName: 'vigia-pr-42-notifications-dlq', SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 86400 });
    t.api.hasResourceProperties('AWS::Events::Rule', { ScheduleExpression: 'rate(1 minute)', State: 'ENABLED' });
  });

  it('alarms on the DLQ depth through the stage topic', () => {
    const { t } = synthPr42();
    const [, alarm] = ofType(t.monitoring, 'AWS::CloudWatch::Alarm').find(([, a]) => a.Properties!.AlarmName === 'vigia-pr-42-notifications-dlq')!;
    expect(alarm.Properties).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold', AlarmActions: [expect.anything()] });
    expect(alarm.Properties!.Metrics).toEqual([
      expect.objectContaining({
        MetricStat: expect.objectContaining({
          Metric: { Namespace: 'AWS/SQS', MetricName: 'ApproximateNumberOfMessagesVisible', Dimensions: [{ Name: 'QueueName', Value: 'vigia-pr-42-notifications-dlq' }] },
          Stat: 'Maximum',
        }),
      }),
    ]);
  });

  it('SES: SendEmail on the configured identity only (prod); no SES permission without one (pr-42)', () => {
    const policies = (stage: ReturnType<typeof synthProd>) =>
      // The consumer's role (the daily digest's, NotificationDeliveryDigest…, and the monthly report job's, MonthlyReportMail…,
      // have their own tests: notification-digest.test.ts, monthly-report-mail.test.ts).
      ofType(stage.t.api, 'AWS::IAM::Policy').filter(([id]) => !id.startsWith('NotificationDeliveryDigest') && !id.startsWith('MonthlyReportMail')).flatMap(([, p]) => (p.Properties!.PolicyDocument as { Statement: Array<{ Action: unknown; Resource: unknown }> }).Statement);
    const sesOf = (stage: ReturnType<typeof synthProd>) => policies(stage).filter((s) => JSON.stringify(s.Action).includes('ses:'));
    const prod = sesOf(synthProd());
    expect(prod).toHaveLength(1);
    expect(prod[0]!.Action).toBe('ses:SendEmail');
    const resources = JSON.stringify(prod[0]!.Resource);
    expect(resources).toContain(`:identity/${TEST_SES.fromEmail}`);
    expect(resources).toContain(':identity/vigia.example');
    expect(resources).not.toContain('*');
    expect(sesOf(synthPr42())).toEqual([]);
    synthProd().t.api.hasResourceProperties('AWS::Lambda::Function', {
      FunctionName: 'vigia-prod-notifications-consumer',
      Environment: { Variables: Match.objectLike({ NOTIFY_EMAIL_FROM: `Vigía <${TEST_SES.fromEmail}>`, SES_REGION: TEST_SES.sesRegion, SITE_URL: Match.anyValue() }) },
    });
  });
});
