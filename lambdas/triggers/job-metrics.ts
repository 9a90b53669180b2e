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

/**
 * Accepted collector heartbeats (docs/platform.md#alarms, "ingest silence"): the ingest function publishes,
 * per request, the heartbeats it accepted — applied or replayed, `POST /ingest/heartbeats` (1) and
 * `POST /ingest/heartbeats/batch` (its `applied + replayed`) — as `Vigia/<stage> HeartbeatsAccepted`
 * (unit Count), dimensions `service` = {@link INGEST_SERVICE} and `route` ({@link HEARTBEAT_ROUTES}).
 */
export const HEARTBEATS_ACCEPTED_METRIC = 'HeartbeatsAccepted';

/** The `service` dimension of the ingest function's metrics. */
export const INGEST_SERVICE = 'vigia-ingest';

/** The `route` dimension of {@link HEARTBEATS_ACCEPTED_METRIC}: one value per heartbeat route. */
export const HEARTBEAT_ROUTES = { single: 'heartbeat', batch: 'heartbeat-batch' } as const;

/**
 * Silent tenants, published by each run of the SLA job (`lambdas/triggers/sla-watch.ts`): `SilentTenants`
 * (tenants whose devices all went silent, `lambdas/domain/silence.ts`; 0 included) and `WatchedTenants`
 * (tenants with at least one device that ever sent a heartbeat), dimension `service` = `vigia-sla-watch`;
 * and `TenantSilent` = 1 with dimensions `service` and `Tenant` for each silent tenant only (no metric for a
 * tenant that was never silent, so 1,000 tenants do not make 1,000 metrics).
 */
export const SILENCE_METRICS = { silent: 'SilentTenants', watched: 'WatchedTenants', tenant: 'TenantSilent', tenantDimension: 'Tenant' } as const;

/** Publishes `count` accepted heartbeats of `route` on `stage` (one EMF line). Never throws. */
export function publishAcceptedHeartbeats(stage: string, route: (typeof HEARTBEAT_ROUTES)[keyof typeof HEARTBEAT_ROUTES], count: number): void {
  try {
    const metrics = new Metrics({ namespace: jobMetricNamespace(stage), serviceName: INGEST_SERVICE, defaultDimensions: { route } });
    metrics.addMetric(HEARTBEATS_ACCEPTED_METRIC, MetricUnit.Count, count);
    metrics.publishStoredMetrics();
  } catch (e) {
    console.error(JSON.stringify({ level: 'ERROR', message: 'heartbeat metric not published', route, count, error: String(e) }));
  }
}

/**
 * Publishes one SLA-job run's silence figures on `stage`: `SilentTenants` and `WatchedTenants` (one EMF line),
 * then `TenantSilent` = 1 per silent tenant (one EMF line each). Never throws.
 */
export function publishSilentTenants(stage: string, watched: number, silentTenants: readonly string[]): void {
  try {
    const metrics = new Metrics({ namespace: jobMetricNamespace(stage), serviceName: JOB_SERVICES.slaWatch });
    metrics.addMetric(SILENCE_METRICS.silent, MetricUnit.Count, silentTenants.length);
    metrics.addMetric(SILENCE_METRICS.watched, MetricUnit.Count, watched);
    metrics.publishStoredMetrics();
    for (const tenant of silentTenants) {
      const single = metrics.singleMetric();
      single.addDimension(SILENCE_METRICS.tenantDimension, tenant);
      single.addMetric(SILENCE_METRICS.tenant, MetricUnit.Count, 1);
    }
  } catch (e) {
    console.error(JSON.stringify({ level: 'ERROR', message: 'silence metrics not published', watched, silent: silentTenants.length, error: String(e) }));
  }
}
