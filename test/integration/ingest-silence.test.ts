/**
 * Ingest silence for batching collectors (docs/platform.md#alarms, "ingest silence"; issue 28 point 6), over
 * the REAL ingest handler, data layer and SLA job on dynoxide, IAM evaluated on every call:
 *  - the ingest function publishes the heartbeats it accepted on BOTH routes (`POST /ingest/heartbeats` and
 *    `POST /ingest/heartbeats/batch`) as the EMF metric `Vigia/<stage> HeartbeatsAccepted` (`route`
 *    dimension) — the stage's silence alarm sums the two; a refused request publishes nothing;
 *  - the SLA job finds, from each tenant's heartbeat histogram (no device read), the tenant whose devices all
 *    went silent (and not the beating one, nor one whose devices never beat), publishes `SilentTenants`,
 *    `WatchedTenants` and `TenantSilent` per silent tenant, and logs a WARN line naming it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { collectorEvent, startInProcessApi, type InProcessApi } from '../support/in-process-api.js';
import { lambdaContext } from '../support/events.js';
import { createDocumentClient, type TableRef } from '../../lambdas/data/table/client.js';
import { ingestHeartbeat, putDevice } from '../../lambdas/data/devices.js';
import { createLogger } from '../../lambdas/http/logger.js';
import { HEARTBEATS_ACCEPTED_METRIC, SILENCE_METRICS } from '../../lambdas/triggers/job-metrics.js';
import { findSilentTenants, runSlaWatchJob } from '../../lambdas/triggers/sla-watch.js';
import { runAsFunction } from '../../scripts/aws-rules/recorder.js';

const TABLE = 'vigia-silence-main';
const COLLECTOR = { userArn: 'arn:aws:sts::000000000000:assumed-role/vigia-collector/i-0abc', accessKey: 'AKIDLOCAL' };
let api: InProcessApi;
let table: TableRef;

/** JSON lines written on stdout and stderr while `fn` runs (EMF on stdout, Logger lines). */
async function linesOf<T>(fn: () => Promise<T>): Promise<{ lines: Record<string, unknown>[]; result: T }> {
  const chunks: string[] = [];
  const streams = [process.stdout, process.stderr] as const;
  const writes = streams.map((s) => s.write);
  for (const s of streams) s.write = ((c: string | Uint8Array) => (chunks.push(typeof c === 'string' ? c : new TextDecoder().decode(c)), true)) as typeof s.write;
  try {
    const result = await fn();
    return { result, lines: chunks.join('').split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>) };
  } finally {
    streams.forEach((s, i) => (s.write = writes[i]!));
  }
}

/** The EMF lines holding metric `name`: namespace, dimension names and values, the value. */
function emf(lines: Record<string, unknown>[], name: string) {
  return lines
    .filter((l) => (l._aws as { CloudWatchMetrics?: { Metrics: { Name: string }[] }[] } | undefined)?.CloudWatchMetrics?.[0]?.Metrics.some((m) => m.Name === name))
    .map((l) => {
      const d = (l._aws as { CloudWatchMetrics: { Namespace: string; Dimensions: string[][] }[] }).CloudWatchMetrics[0]!;
      return { namespace: d.Namespace, dimensions: Object.fromEntries(d.Dimensions[0]!.map((k) => [k, l[k]])), value: l[name] };
    });
}

beforeAll(async () => {
  api = await startInProcessApi({ table: TABLE });
  table = { doc: createDocumentClient(api.documentClientOptions()), tableName: TABLE };
  for (const id of ['acme', 'globex', 'initech']) {
    await api.data.putTenant({ id, name: id });
    await api.data.grantCollector(id, 'arn:aws:iam::000000000000:role/vigia-collector');
  }
  const base = { type: 'firewall', site: 'Madrid', ipAddress: '10.0.0.1', vendor: 'Fortinet', model: 'FG-60F' };
  for (const [tenantId, id] of [['acme', 'a-1'], ['acme', 'a-2'], ['globex', 'g-1'], ['globex', 'g-2'], ['initech', 'i-1']] as const) await putDevice({ ...base, tenantId, id, name: id }, table);
}, 60_000);

afterAll(async () => {
  table?.doc.destroy();
  await api?.stop();
});

afterEach(() => {
  delete process.env.AWS_LAMBDA_FUNCTION_NAME;
});

describe('accepted heartbeats metric', () => {
  it('both routes publish what they accepted (the batch its applied + replayed), a refused request nothing', async () => {
    process.env.AWS_LAMBDA_FUNCTION_NAME = 'vigia-test-ingest';
    const ingest = api.handler('ingest');
    const at = (ago: number) => new Date(Math.floor(Date.now() / 60_000) * 60_000 - ago * 60_000).toISOString();
    const single = await linesOf(() => ingest(collectorEvent('/ingest/heartbeats', { eventId: 's1', tenantId: 'acme', deviceId: 'a-1', at: at(3) }, COLLECTOR), lambdaContext));
    expect(single.result.statusCode, single.result.body).toBe(202);
    expect(emf(single.lines, HEARTBEATS_ACCEPTED_METRIC)).toEqual([{ namespace: 'Vigia/test', dimensions: { service: 'vigia-ingest', route: 'heartbeat' }, value: 1 }]);

    const heartbeats = [
      { eventId: 'b1', tenantId: 'acme', deviceId: 'a-1', at: at(2) },
      { eventId: 'b2', tenantId: 'acme', deviceId: 'a-2', at: at(2) },
      { eventId: 'b3', tenantId: 'acme', deviceId: 'a-1', at: at(2) }, // a replay: the collector is alive
      { eventId: 'b4', tenantId: 'acme', deviceId: 'nope', at: at(2) }, // refused: not counted
    ];
    const batch = await linesOf(() => ingest(collectorEvent('/ingest/heartbeats/batch', { heartbeats }, COLLECTOR), lambdaContext));
    expect(batch.result.statusCode, batch.result.body).toBe(200);
    expect(emf(batch.lines, HEARTBEATS_ACCEPTED_METRIC)).toEqual([{ namespace: 'Vigia/test', dimensions: { service: 'vigia-ingest', route: 'heartbeat-batch' }, value: 3 }]);

    const refused = await linesOf(() => ingest(collectorEvent('/ingest/heartbeats', { eventId: 's2', tenantId: 'acme', deviceId: 'nope', at: at(1) }, COLLECTOR), lambdaContext));
    expect(refused.result.statusCode).toBe(404);
    expect(emf(refused.lines, HEARTBEATS_ACCEPTED_METRIC)).toEqual([]);
  });
});

describe('silent tenants (SLA job)', () => {
  it('the tenant whose devices all went quiet is silent; a beating one and one that never beat are not', async () => {
    const now = new Date();
    const ago = (min: number) => new Date(now.getTime() - min * 60_000).toISOString();
    // acme: one device beat 2 minutes ago (the other 40): beating. globex: both last beat 20 and 40 minutes
    // ago: silent. initech: its device never beat: no collector yet, not watched.
    await ingestHeartbeat({ tenantId: 'acme', deviceId: 'a-2', at: ago(40) }, table);
    await ingestHeartbeat({ tenantId: 'acme', deviceId: 'a-1', at: ago(1) }, table);
    await ingestHeartbeat({ tenantId: 'globex', deviceId: 'g-1', at: ago(40) }, table);
    await ingestHeartbeat({ tenantId: 'globex', deviceId: 'g-2', at: ago(20) }, table);

    const direct = await runAsFunction('sla-watch', () => findSilentTenants(table, ['acme', 'globex', 'initech', 'umbrella'], now));
    expect(direct).toEqual({ watchedTenants: 2, silentTenants: ['globex'] });

    const logger = createLogger({ serviceName: 'vigia-sla-watch', logLevel: 'INFO' });
    const run = await linesOf(() => runAsFunction('sla-watch', () => runSlaWatchJob(table, 'test', logger, now)));
    expect(run.result).toMatchObject({ failures: 0, watchedTenants: 2, silentTenants: ['globex'] });
    expect(emf(run.lines, SILENCE_METRICS.silent)).toEqual([{ namespace: 'Vigia/test', dimensions: { service: 'vigia-sla-watch' }, value: 1 }]);
    expect(emf(run.lines, SILENCE_METRICS.watched)).toEqual([{ namespace: 'Vigia/test', dimensions: { service: 'vigia-sla-watch' }, value: 2 }]);
    expect(emf(run.lines, SILENCE_METRICS.tenant)).toEqual([{ namespace: 'Vigia/test', dimensions: { service: 'vigia-sla-watch', Tenant: 'globex' }, value: 1 }]);
    expect(run.lines.filter((l) => l.level === 'WARN').map((l) => [l.message, l.tenantId])).toEqual([['tenant silent', 'globex']]);

    // globex beats again: no tenant is silent, SilentTenants = 0 and no TenantSilent line.
    await ingestHeartbeat({ tenantId: 'globex', deviceId: 'g-1', at: ago(0.5) }, table);
    const again = await linesOf(() => runAsFunction('sla-watch', () => runSlaWatchJob(table, 'test', logger, now)));
    expect(emf(again.lines, SILENCE_METRICS.silent)[0]?.value).toBe(0);
    expect(emf(again.lines, SILENCE_METRICS.tenant)).toEqual([]);
  });
});
