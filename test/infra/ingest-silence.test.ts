/**
 * Ingest-silence alarms that work for batching collectors (docs/platform.md#alarms, "ingest silence"; issue 28
 * point 6), in the synthesized prod Monitoring stack:
 *  - the stage's alarm is metric math over the ingest function's `HeartbeatsAccepted` of BOTH heartbeat routes
 *    (`POST /ingest/heartbeats` and `/ingest/heartbeats/batch`, `route` dimension), each FILLed with 0, and
 *    the SLA job's `WatchedTenants`: a new account (no tenant ever beat) evaluates to 0; missing data is not
 *    breaching;
 *  - one alarm for every tenant (`SilentTenants` of the SLA job, not one alarm per tenant) and one per
 *    configured tenant (`TenantSilent` with its `Tenant` dimension), for the periods that make `silenceMinutes`;
 */
import { describe, expect, it } from 'vitest';
import { silencePeriods } from '../../infra/monitoring-stack.js';
import { HEARTBEAT_ROUTES, HEARTBEATS_ACCEPTED_METRIC, INGEST_SERVICE, JOB_SERVICES, SILENCE_METRICS } from '../../lambdas/triggers/job-metrics.js';
import { ofType, PROD_ENV, synth, TEST_SES, type Synthed } from '../support/synth.js';

type Props = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const alarmsOf = (s: Synthed): Map<string, Props> => new Map(ofType(s.t.monitoring, 'AWS::CloudWatch::Alarm').map(([, a]) => [(a.Properties as Props).AlarmName as string, a.Properties as Props]));

describe('ingest-silence alarms (prod, silenceMinutes 60, tenants acme and globex)', () => {
  const s = synth('prod', { env: PROD_ENV, alarmEmail: 'soc@example.com', overrides: { email: TEST_SES, silenceTenants: ['acme', 'globex'], silenceMinutes: 60 } });
  const all = alarmsOf(s);

  it("the stage's alarm sums the accepted heartbeats of both routes and needs watched tenants; missing data is not breaching", () => {
    const a = all.get('vigia-prod-ingest-silence')!;
    expect(a).toMatchObject({ ComparisonOperator: 'GreaterThanOrEqualToThreshold', Threshold: 1, EvaluationPeriods: 1, TreatMissingData: 'notBreaching' });
    const metrics = a.Metrics as Props[];
    const expr = metrics.find((m) => m.Expression)!;
    expect(expr.ReturnData).not.toBe(false);
    expect(expr.Expression).toBe('IF(watched > 0 AND (FILL(single, 0) + FILL(batch, 0)) < 1, 1, 0)');
    const byId = Object.fromEntries(metrics.filter((m) => m.MetricStat).map((m) => [m.Id, m.MetricStat]));
    const dims = (id: string) => Object.fromEntries((byId[id].Metric.Dimensions as { Name: string; Value: string }[]).map((d) => [d.Name, d.Value]));
    expect(Object.keys(byId).sort()).toEqual(['batch', 'single', 'watched']);
    for (const [id, route] of [['single', HEARTBEAT_ROUTES.single], ['batch', HEARTBEAT_ROUTES.batch]] as const) {
      expect(byId[id]).toMatchObject({ Metric: { Namespace: 'Vigia/prod', MetricName: HEARTBEATS_ACCEPTED_METRIC }, Stat: 'Sum', Period: 3600 });
      expect(dims(id)).toEqual({ service: INGEST_SERVICE, route });
    }
    expect(byId.watched).toMatchObject({ Metric: { Namespace: 'Vigia/prod', MetricName: SILENCE_METRICS.watched }, Stat: 'Maximum', Period: 3600 });
    expect(dims('watched')).toEqual({ service: JOB_SERVICES.slaWatch });
  });

  it('one alarm for every tenant (SilentTenants) and one per configured tenant (TenantSilent), periods making 60 minutes', () => {
    const periods = silencePeriods(60);
    expect(periods).toBe(9); // 15 minutes to be silent + 9 × 5 minutes
    const every = all.get('vigia-prod-silent-tenants')!;
    expect(every).toMatchObject({
      Namespace: 'Vigia/prod', MetricName: SILENCE_METRICS.silent, Dimensions: [{ Name: 'service', Value: JOB_SERVICES.slaWatch }],
      Statistic: 'Maximum', Period: 300, Threshold: 1, EvaluationPeriods: periods, ComparisonOperator: 'GreaterThanOrEqualToThreshold', TreatMissingData: 'notBreaching',
    });
    for (const tenant of ['acme', 'globex']) {
      const a = all.get(`vigia-prod-ingest-silence-${tenant}`)!;
      expect(a).toMatchObject({ MetricName: SILENCE_METRICS.tenant, Statistic: 'Maximum', Period: 300, EvaluationPeriods: periods, TreatMissingData: 'notBreaching' });
      expect(a.Dimensions).toEqual([{ Name: 'Tenant', Value: tenant }, { Name: 'service', Value: JOB_SERVICES.slaWatch }]);
    }
    // Not one alarm per tenant: the registry's other tenants are covered by SilentTenants alone.
    expect([...all.keys()].filter((n) => /silen/.test(n))).toHaveLength(4);
    expect(silencePeriods(5)).toBe(1);
    expect(silencePeriods(30)).toBe(3);
  });
});
