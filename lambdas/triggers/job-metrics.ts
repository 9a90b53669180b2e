/**
 * Failures INSIDE the scheduled jobs (the SLA job `sla-watch`, the daily digest `notification-digest`), as a
 * CloudWatch metric the Monitoring stack alarms on (`SlaWatchJobFailures`, `NotificationDigestJobFailures`,
 * docs/platform.md#alarms).
 *
 * A job goes on after a tenant's or a delivery's error (the other tenants still get their run), so Lambda's
 * own `Errors` metric does not see every failure; each run therefore publishes, through Powertools Metrics'
 * embedded metric format (EMF: one JSON line on stdout that CloudWatch Logs turns into a metric, no API call
 * and no IAM permission; https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/CloudWatch_Embedded_Metric_Format_Specification.html):
 *
 *  - namespace `Vigia/<stage>` (the stage's custom metrics, {@link jobMetricNamespace}; infra/api-stack.ts uses it),
 *  - metric {@link JOB_FAILURES_METRIC} (unit Count: the run's failures, 0 included, so the metric exists
 *    whenever the job ran),
 *  - one dimension `service` = the job's service name ({@link JOB_SERVICES}).
 */
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';

/** Name of the per-run failure count metric. */
export const JOB_FAILURES_METRIC = 'JobFailures';

/** The `service` dimension (also the jobs' logger service name) of each job. */
export const JOB_SERVICES = { slaWatch: 'vigia-sla-watch', notificationDigest: 'vigia-notification-digest' } as const;
export type JobService = (typeof JOB_SERVICES)[keyof typeof JOB_SERVICES];

/** Namespace of the stage's custom metrics (`Vigia/<stage>`): the one definition, infra/api-stack.ts `metricNamespace` is this. */
export const jobMetricNamespace = (stage: string): string => `Vigia/${stage}`;

/**
 * Publishes `failures` (≥ 0) of one run of `service` on `stage` as one EMF line on stdout.
 * Never throws for a metric problem: reporting must not hide the run's own outcome.
 */
export function publishJobFailures(stage: string, service: JobService, failures: number): void {
  try {
    const metrics = new Metrics({ namespace: jobMetricNamespace(stage), serviceName: service });
    metrics.addMetric(JOB_FAILURES_METRIC, MetricUnit.Count, failures);
    metrics.publishStoredMetrics();
  } catch (e) {
    console.error(JSON.stringify({ level: 'ERROR', message: 'job failure metric not published', service, failures, error: String(e) }));
  }
}
