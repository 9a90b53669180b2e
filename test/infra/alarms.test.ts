/**
 * The alarms of issue 29 point 10 (docs/platform.md#alarms), in the synthesized Monitoring stack of every
 * stage: the pre token generation trigger's Errors/Throttles (every sign-in depends on it), the notification
 * stream consumer's IteratorAge, and the failures inside the SLA job and the daily digest (the EMF metric
 * `JobFailures` those jobs publish, `lambdas/triggers/job-metrics.ts`). Each: metric, dimensions, statistic,
 * threshold, periods, missing-data treatment and actions (the stage's alarm topic, alarm and OK). Also the
 * stream mapping's retry/bisect settings the re-drive relies on.
 */
import { describe, expect, it } from 'vitest';
import { metricNamespace } from '../../infra/api-stack.js';
import { ALARM_THRESHOLDS } from '../../infra/monitoring-stack.js';
import { NOTIFICATIONS_STREAM } from '../../infra/notifications.js';
import { JOB_FAILURES_METRIC, JOB_SERVICES, jobMetricNamespace } from '../../lambdas/triggers/job-metrics.js';
import { ofType, synthPr42, synthProd, type Synthed } from '../support/synth.js';

type Props = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The stage's alarms by name, labelled metrics flattened to the classic shape. */
function alarmsOf(s: Synthed): Map<string, Props> {
  return new Map(
    ofType(s.t.monitoring, 'AWS::CloudWatch::Alarm').map(([, a]) => {
      const p = a.Properties as Props;
      const stat = p.Metrics?.[0]?.MetricStat;
      const flat = stat ? { ...p, Namespace: stat.Metric.Namespace, MetricName: stat.Metric.MetricName, Dimensions: stat.Metric.Dimensions, Statistic: stat.Stat, Period: stat.Period } : p;
      return [p.AlarmName as string, flat];
    }),
  );
}

const summary = (a: Props | undefined) =>
  a && {
    metric: `${a.Namespace} ${a.MetricName}`,
    dimensions: a.Dimensions,
    statistic: a.Statistic,
    period: a.Period,
    comparison: a.ComparisonOperator,
    threshold: a.Threshold,
    periods: a.EvaluationPeriods,
    missing: a.TreatMissingData,
  };

describe.each([
  ['pr-42', synthPr42],
  ['prod', synthProd],
])('new alarms of stage %s', (stage, synthStage) => {
  const s = synthStage();
  const alarms = alarmsOf(s);
  const [topicId] = ofType(s.t.monitoring, 'AWS::SNS::Topic')[0]!;
  const named = (suffix: string) => alarms.get(`vigia-${stage}-${suffix}`);

  it('pre token generation trigger: Errors and Throttles of vigia-<stage>-pre-token-generation, Sum ≥ 1 in 5 minutes', () => {
    for (const [suffix, metric] of [['pre-token-generation-errors', 'Errors'], ['pre-token-generation-throttles', 'Throttles']] as const) {
      expect(summary(named(suffix)), suffix).toEqual({
        metric: `AWS/Lambda ${metric}`,
        dimensions: [{ Name: 'FunctionName', Value: `vigia-${stage}-pre-token-generation` }],
        statistic: 'Sum',
        period: 300,
        comparison: 'GreaterThanOrEqualToThreshold',
        threshold: ALARM_THRESHOLDS.preTokenErrorsPerPeriod,
        periods: 1,
        missing: 'notBreaching',
      });
      expect(named(suffix)!.AlarmDescription).toMatch(/sign-in/i);
    }
    // The alarm names the function the Auth stack really creates.
    expect(ofType(s.t.auth, 'AWS::Lambda::Function').map(([, f]) => f.Properties!.FunctionName)).toContain(`vigia-${stage}-pre-token-generation`);
  });

  it('notification stream consumer: IteratorAge Maximum ≥ 10 min for 3 periods of 5 minutes', () => {
    expect(summary(named('notifications-iterator-age'))).toEqual({
      metric: 'AWS/Lambda IteratorAge',
      dimensions: [{ Name: 'FunctionName', Value: `vigia-${stage}-notifications-consumer` }],
      statistic: 'Maximum',
      period: 300,
      comparison: 'GreaterThanOrEqualToThreshold',
      threshold: 600_000,
      periods: 3,
      missing: 'notBreaching',
    });
    expect(ofType(s.t.api, 'AWS::Lambda::Function').map(([, f]) => f.Properties!.FunctionName)).toContain(`vigia-${stage}-notifications-consumer`);
  });

  it('failures inside the SLA job and the daily digest: Vigia/<stage> JobFailures per service, Sum ≥ 1', () => {
    expect(jobMetricNamespace(stage)).toBe(metricNamespace(stage)); // what the jobs publish is what the alarm reads
    for (const [suffix, service] of [['sla-watch-job-failures', JOB_SERVICES.slaWatch], ['notification-digest-job-failures', JOB_SERVICES.notificationDigest]] as const) {
      expect(summary(named(suffix)), suffix).toEqual({
        metric: `Vigia/${stage} ${JOB_FAILURES_METRIC}`,
        dimensions: [{ Name: 'service', Value: service }],
        statistic: 'Sum',
        period: 300,
        comparison: 'GreaterThanOrEqualToThreshold',
        threshold: 1,
        periods: 1,
        missing: 'notBreaching',
      });
    }
  });

  it('each new alarm notifies the stage topic on ALARM and on OK', () => {
    for (const suffix of ['pre-token-generation-errors', 'pre-token-generation-throttles', 'notifications-iterator-age', 'sla-watch-job-failures', 'notification-digest-job-failures']) {
      const a = named(suffix)!;
      expect(a.AlarmActions, suffix).toEqual([{ Ref: topicId }]);
      expect(a.OKActions, suffix).toEqual([{ Ref: topicId }]);
      expect(a.AlarmDescription, suffix).toContain('docs/platform.md#alarms');
    }
  });
});

describe('stream mapping settings the re-drive relies on', () => {
  it('bisect on error, 3 retries, 6 h maximum record age, partial batch responses, failures to the DLQ', () => {
    const s = synthPr42();
    const mappings = ofType(s.t.api, 'AWS::Lambda::EventSourceMapping');
    expect(mappings).toHaveLength(1);
    const p = mappings[0]![1].Properties as Props;
    expect([p.BatchSize, p.BisectBatchOnFunctionError, p.MaximumRetryAttempts, p.MaximumRecordAgeInSeconds, p.FunctionResponseTypes]).toEqual([
      NOTIFICATIONS_STREAM.batchSize,
      true,
      3,
      6 * 3600,
      ['ReportBatchItemFailures'],
    ]);
    expect(JSON.stringify(p.DestinationConfig.OnFailure.Destination)).toContain('Dlq');
    // The re-drive window (the stream's retention) is longer than the record age after which Lambda gives up.
    expect(NOTIFICATIONS_STREAM.streamRetentionHours).toBeGreaterThan(NOTIFICATIONS_STREAM.maxRecordAgeHours);
  });
});
