/**
 * Failures INSIDE the scheduled jobs are logged as errors and counted (docs/platform.md#alarms; issue 29
 * point 10), on the real local DynamoDB engine (dynoxide): the tenant registry, the SOC queue and the
 * below-SLA index are real; one tenant's storage is made to fail.
 *
 *  - SLA job: tenant `acme`'s below-SLA Query fails → the job still re-keys `globex` (its Query runs after),
 *    logs an ERROR line naming the step and tenant, publishes the EMF metric `Vigia/<stage> JobFailures` = 1
 *    (`service` `vigia-sla-watch`, the `SlaWatchJobFailures` alarm's metric) and then fails the invocation;
 *    a clean run publishes 0 and succeeds.
 *  - Daily digest: tenant `globex`'s subscriber read fails → the run counts it in `failures`, publishes
 *    `JobFailures` = 1 (`service` `vigia-notification-digest`) and fails the invocation (digest left to send).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient, type TableRef } from '../../lambdas/data/table/client.js';
import { digestSource } from '../../lambdas/data/notification-digest.js';
import { keys } from '../../lambdas/data/table/keys.js';
import { createLogger } from '../../lambdas/http/logger.js';
import { JOB_FAILURES_METRIC } from '../../lambdas/triggers/job-metrics.js';
import { createDigestJob, DigestIncomplete, runDigestJob } from '../../lambdas/triggers/notification-digest.js';
import { runSlaWatchJob, SlaWatchIncomplete } from '../../lambdas/triggers/sla-watch.js';
import { ensureTable, startDynamo, type RunningDynamo } from '../../scripts/local/dynamodb.js';
import { notificationsTestConfig } from '../support/notifications.js';

const TABLE = 'vigia-jobfail-main';
let dynamo: RunningDynamo;
let table: TableRef;

/** stdout and stderr JSON lines written while `fn` runs (Powertools Metrics: stdout; Logger: ERROR lines on stderr). */
async function stdoutOf<T>(fn: () => Promise<T>): Promise<{ lines: Record<string, unknown>[]; result: T | undefined; error: unknown }> {
  const chunks: string[] = [];
  const streams = [process.stdout, process.stderr] as const;
  const writes = streams.map((s) => s.write);
  for (const s of streams)
    s.write = ((c: string | Uint8Array) => {
      chunks.push(typeof c === 'string' ? c : new TextDecoder().decode(c));
      return true;
    }) as typeof s.write;
  let result: T | undefined;
  let error: unknown;
  try {
    result = await fn();
  } catch (e) {
    error = e;
  } finally {
    streams.forEach((s, i) => (s.write = writes[i]!));
  }
  const lines = chunks.join('').split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
  return { lines, result, error };
}

/** The EMF `JobFailures` line of `service` (namespace, dimension and value as CloudWatch extracts them). */
function emf(lines: Record<string, unknown>[], service: string) {
  const line = lines.find((l) => (l as { _aws?: unknown })._aws && l.service === service);
  if (!line) return undefined;
  const [directive] = (line._aws as { CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[] }).CloudWatchMetrics;
  return { namespace: directive!.Namespace, dimensions: directive!.Dimensions, metrics: directive!.Metrics, value: line[JOB_FAILURES_METRIC] };
}

/** `table` whose Queries of the partition `failPk` fail like a storage error; every other call reaches dynoxide. */
function failingFor(failPk: string, seen: string[]): TableRef {
  const doc = table.doc;
  const send = ((op: string, input: Record<string, unknown>) => {
    const pk = (input.ExpressionAttributeValues as Record<string, unknown> | undefined)?.[':p'];
    if (op === 'Query' && typeof pk === 'string') seen.push(pk);
    if (op === 'Query' && pk === failPk) return Promise.reject(Object.assign(new Error('InternalServerError: injected'), { name: 'InternalServerError' }));
    return (doc.send as (o: string, i: unknown) => Promise<unknown>)(op, input);
  }) as TableRef['doc']['send'];
  return { doc: { ...doc, send } as TableRef['doc'], tableName: TABLE };
}

beforeAll(async () => {
  dynamo = await startDynamo({ port: 0 });
  await ensureTable(dynamo.endpoint, TABLE);
  table = { doc: createDocumentClient({ endpoint: dynamo.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'l', secretAccessKey: 'l' } }), tableName: TABLE };
  for (const id of ['acme', 'globex']) await table.doc.send('PutItem', { TableName: TABLE, Item: { ...keys.tenant(id), entity: 'Tenant', id, name: id } });
}, 60_000);

afterAll(async () => {
  await dynamo?.stop();
});

afterEach(() => {
  delete process.env.POWERTOOLS_DEV;
});

describe('SLA job', () => {
  const logger = () => createLogger({ serviceName: 'vigia-sla-watch', logLevel: 'INFO' });

  it("one tenant's failure: the others still run, an ERROR line, JobFailures = 1, the invocation fails", async () => {
    const seen: string[] = [];
    const run = await stdoutOf(() => runSlaWatchJob(failingFor(keys.belowSlaGsi2Pk('acme'), seen), 'test', logger(), new Date('2026-11-28T12:00:00Z')));

    expect(run.error).toBeInstanceOf(SlaWatchIncomplete);
    // globex's below-SLA Query ran after acme's failed (before: the first error ended the job).
    expect(seen.indexOf(keys.belowSlaGsi2Pk('globex'))).toBeGreaterThan(seen.indexOf(keys.belowSlaGsi2Pk('acme')));
    const errors = run.lines.filter((l) => l.level === 'ERROR');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ message: 'sla-watch step failed', step: 'rekey-below-sla', tenantId: 'acme', service: 'vigia-sla-watch' });
    expect(JSON.stringify(errors[0]!.error)).toContain('injected');
    expect(emf(run.lines, 'vigia-sla-watch')).toEqual({ namespace: 'Vigia/test', dimensions: [['service']], metrics: [{ Name: 'JobFailures', Unit: 'Count' }], value: 1 });
  });

  it('a clean run publishes JobFailures = 0 and succeeds', async () => {
    const run = await stdoutOf(() => runSlaWatchJob(table, 'test', logger(), new Date('2026-11-28T12:00:00Z')));
    expect(run.error).toBeUndefined();
    expect(run.result).toMatchObject({ failures: 0 });
    expect(emf(run.lines, 'vigia-sla-watch')?.value).toBe(0);
    expect(run.lines.filter((l) => l.level === 'ERROR')).toEqual([]);
  });
});

describe('daily digest', () => {
  it("a tenant whose reads fail is counted: JobFailures = 1, an ERROR line, the invocation fails", async () => {
    const config = notificationsTestConfig({ tableName: TABLE, dynamodbEndpoint: dynamo.endpoint, mailUrl: 'http://127.0.0.1:9', siteUrl: 'https://portal.vigia.example' });
    const real = digestSource(table);
    const source = { ...real, digestSubscribers: (t: string) => (t === 'globex' ? Promise.reject(new Error('InternalServerError: injected')) : real.digestSubscribers(t)) };
    const job = createDigestJob({ ...config, logLevel: 'INFO' }, { table, source, users: { listGroupMembers: async () => [] } });

    const run = await stdoutOf(() => runDigestJob(job, 'test', new Date('2026-11-28T06:00:00Z')));

    expect(run.error).toBeInstanceOf(DigestIncomplete);
    const errors = run.lines.filter((l) => l.level === 'ERROR');
    expect(errors.map((l) => l.message)).toEqual(['digest of a tenant failed']);
    expect(errors[0]).toMatchObject({ tenantId: 'globex', service: 'vigia-notification-digest' });
    expect(emf(run.lines, 'vigia-notification-digest')).toEqual({ namespace: 'Vigia/test', dimensions: [['service']], metrics: [{ Name: 'JobFailures', Unit: 'Count' }], value: 1 });
  });
});
