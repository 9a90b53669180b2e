/**
 * The `fleet` bench section (issue 28, points 1 and 2; docs/benchmarks.md#fleet): a simulated fleet of collectors
 * beating once a minute in batches of 100 through the REAL ingest handler (`lambdas/handlers/ingest.ts`,
 * `POST /ingest/heartbeats/batch`, IAM evaluated on every AWS call it makes) on dynoxide behind the DynamoDB
 * rules proxy (`scripts/local/dynamodb-rules/`: transaction conflicts and per-partition throughput).
 *
 * Fleet (`planFleet`): at scale 1, 100,000 devices in 1,000 tenants, one of them with 50,000 (the other 999
 * share 50,000). A smaller `scale` keeps the shape: `round(1000 × scale)` tenants (at least 2), the big one with
 * `round(50,000 × scale)` devices, the others ~50 each.
 *
 * Clock (compressed): simulated minutes run back to back as fast as the engine answers. In each simulated
 * minute every device beats once; its tenant's collector sends the tenant's devices in batches of 100, and
 * the minute's batches of every tenant are spread evenly over the 60 simulated seconds (deterministic
 * shuffle). A batch's heartbeats carry its simulated time as `at`, and the handler's clock (`now`) is that
 * time. A first (warm-up) minute gives every device its heartbeat item; the measured minutes that follow are
 * each device's "new UTC minute" heartbeat, the path issue 28 prices.
 *
 * What is measured (per measured heartbeat): DynamoDB requests, RCU and WCU (`ReturnConsumedCapacity:
 * INDEXES`, the engine's own units, as `installCapacityCapture` in `api.ts` does); each item and partition
 * key written, per simulated second (a request's table WCU spread evenly over the items it writes — exact
 * when they are all under 1 KB, as a heartbeat's are; index WCU is counted in the totals, not per partition);
 * the rules proxy's conflicts and throttles; lost heartbeats (sent − applied, after the collector's resends
 * of entries answered `SERVICE_UNAVAILABLE` or of a 5xx batch, and checked against every device's stored
 * heartbeat item); the aggregates' drift check (`rebuildTenantAggregates`, write: false) of every tenant.
 *
 * Hot keys at full size: a tenant-scoped key's rate is projected to the full fleet as its measured mean
 * rate × (the tenant's devices at scale 1 ÷ at this scale) (rates grow with the tenant's heartbeats per
 * second); a device-scoped key's rate does not depend on the fleet size. At scale 1 the projection is the
 * measured mean. The budgets judge the larger of the measured peak and the projection.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { lambdaContext, restProxyEvent } from '../local/gateway.js';
import { ensureTable, startDynamo, type RunningDynamo } from '../local/dynamodb.js';
import { parseLambdaConfig } from '../../lambdas/config.js';
import { createDocumentClient, dynamoRepository, tableWriters } from '../../lambdas/data/index.js';
import { wrapTableClient, type ConsumedCapacity, type DocumentClient, type TableRef } from '../../lambdas/data/table/client.js';
import { rebuildTenantAggregates } from '../../lambdas/data/aggregates.js';
import { keys } from '../../lambdas/data/table/keys.js';
import { createHandler } from '../../lambdas/handlers/ingest.js';
import type { HeartbeatBatchResult } from '../../lambdas/contract/schemas.js';
import { acquireRuntimeIamCheck, runAsFunction } from '../aws-rules/recorder.js';
import { percentile } from './stats.js';
import type { FleetHotKey, FleetItemClass, FleetResults } from './types.js';

/** Full-size fleet (issue 28 point 2). */
export const FULL_FLEET = { tenants: 1000, devices: 100_000, bigTenantDevices: 50_000 } as const;

/** One simulated tenant. */
export interface FleetTenant {
  id: string;
  devices: string[];
  /** Its devices in the full-size fleet (for the projection of its keys' rates). */
  fullDevices: number;
}

/** The tenants and devices of a fleet at `scale` (1 = full size); see the module doc. */
export function planFleet(scale: number): FleetTenant[] {
  if (!(scale > 0 && scale <= 1)) throw new Error(`fleet scale must be in (0, 1] (got ${scale})`);
  const tenants = Math.max(2, Math.round(FULL_FLEET.tenants * scale));
  const big = Math.max(1, Math.round(FULL_FLEET.bigTenantDevices * scale));
  const rest = Math.max(tenants - 1, Math.round((FULL_FLEET.devices - FULL_FLEET.bigTenantDevices) * scale));
  const fullRest = (FULL_FLEET.devices - FULL_FLEET.bigTenantDevices) / (FULL_FLEET.tenants - 1);
  const out: FleetTenant[] = [];
  for (let t = 0; t < tenants; t++) {
    const n = t === 0 ? big : Math.floor(rest / (tenants - 1)) + (t - 1 < rest % (tenants - 1) ? 1 : 0);
    const id = `fleet-${String(t).padStart(4, '0')}`;
    out.push({ id, devices: Array.from({ length: n }, (_, i) => `d${String(i).padStart(5, '0')}`), fullDevices: t === 0 ? FULL_FLEET.bigTenantDevices : fullRest });
  }
  return out;
}

/** One batch of one simulated minute. */
export interface FleetBatch {
  tenant: FleetTenant;
  devices: string[];
  /** Offset in the simulated minute, ms. */
  offsetMs: number;
}

/** The batches of one simulated minute, spread evenly over its 60 s in a deterministic shuffled order. */
export function scheduleMinute(tenants: readonly FleetTenant[], batchSize: number, seed = 1): FleetBatch[] {
  const batches: Omit<FleetBatch, 'offsetMs'>[] = [];
  for (const tenant of tenants) for (let i = 0; i < tenant.devices.length; i += batchSize) batches.push({ tenant, devices: tenant.devices.slice(i, i + batchSize) });
  let s = seed >>> 0 || 1;
  const rnd = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0), s / 2 ** 32);
  for (let i = batches.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [batches[i], batches[j]] = [batches[j]!, batches[i]!];
  }
  return batches.map((b, i) => ({ ...b, offsetMs: Math.floor(((i + 0.5) * 60_000) / batches.length) }));
}

/** One write of one item, as captured. */
export interface CapturedWrite {
  /** `PK` and `SK` of the item. */
  pk: string;
  sk: string;
  /** Table WCU attributed to this item (its request's table WCU ÷ the items the request writes). */
  wcu: number;
}

/** The items a document-client write request writes (Put/Update/Delete/ConditionCheck actions, in order). */
export function writtenKeys(operation: string, input: Record<string, unknown>): { pk: string; sk: string }[] {
  const keyOf = (a: Record<string, unknown> | undefined) => {
    const k = (a?.Key ?? a?.Item) as Record<string, unknown> | undefined;
    return k ? { pk: String(k.PK), sk: String(k.SK) } : null;
  };
  const out: { pk: string; sk: string }[] = [];
  if (operation === 'PutItem' || operation === 'UpdateItem' || operation === 'DeleteItem') {
    const k = keyOf(input);
    if (k) out.push(k);
  } else if (operation === 'TransactWriteItems') {
    for (const t of (input.TransactItems ?? []) as Record<string, Record<string, unknown>>[]) {
      const k = keyOf(t.Put ?? t.Update ?? t.Delete ?? t.ConditionCheck);
      if (k) out.push(k);
    }
  } else if (operation === 'BatchWriteItem') {
    for (const reqs of Object.values((input.RequestItems ?? {}) as Record<string, Record<string, Record<string, unknown>>[]>))
      for (const r of reqs) {
        const k = r.PutRequest ? keyOf({ Item: r.PutRequest.Item }) : keyOf(r.DeleteRequest);
        if (k) out.push(k);
      }
  }
  return out;
}

/** A device-scoped key (`TENANT#t#DEVICE#d`-style partitions, one device's items) or a tenant-scoped one. */
export function keyScope(pk: string): 'device' | 'tenant' {
  return pk.includes('#DEVICE#') ? 'device' : 'tenant';
}

/** The item class of a key for the per-class table: scope plus the sort key with dates and ids folded. */
export function itemClass(pk: string, sk: string): string {
  return `${keyScope(pk)}:${sk.replace(/\d{4}-\d{2}-\d{2}(T\d{2})?/g, '<date>').replace(/#[^#]*\d[^#]*$/, '#<id>')}`;
}

/** Per-key write counters over simulated seconds (`HotKeyMeter.add` per write, `endMinute` per minute). */
export class HotKeyMeter {
  private current = new Map<string, { wcu: number; writes: number }>();
  /** key → totals and peaks over every simulated second seen. */
  readonly keys = new Map<string, { tenantId: string | null; scope: 'device' | 'tenant'; wcu: number; writes: number; peakWcu: number; peakWrites: number }>();

  /** Records one write of `units` WCU on `key` in simulated second `second`. */
  add(key: string, tenantId: string | null, scope: 'device' | 'tenant', second: number, units: number): void {
    const id = `${second}\u0000${key}`;
    const c = this.current.get(id) ?? { wcu: 0, writes: 0 };
    c.wcu += units;
    c.writes += 1;
    this.current.set(id, c);
    const k = this.keys.get(key) ?? { tenantId, scope, wcu: 0, writes: 0, peakWcu: 0, peakWrites: 0 };
    k.wcu += units;
    k.writes += 1;
    this.keys.set(key, k);
  }

  /** Folds the seconds recorded so far into each key's peaks (call at the end of each simulated minute). */
  endMinute(): void {
    for (const [id, c] of this.current) {
      const k = this.keys.get(id.slice(id.indexOf('\u0000') + 1))!;
      k.peakWcu = Math.max(k.peakWcu, c.wcu);
      k.peakWrites = Math.max(k.peakWrites, c.writes);
    }
    this.current.clear();
  }
}

/** Options of {@link measureFleet}. */
export interface FleetOptions {
  /** 1 = full size (100,000 devices); e.g. 0.01 for 1,000 devices. */
  scale: number;
  /** Measured simulated minutes (after the warm-up minute). */
  minutes: number;
  /** Heartbeats per batch (issue 28: 100). */
  batchSize?: number;
  /** Batches in flight at once (wall clock). */
  concurrency?: number;
  /** Resends of a failed batch or of its entries answered SERVICE_UNAVAILABLE. */
  resends?: number;
  /** Units per partition per second of the rules proxy (default DynamoDB's 3,000 RCU / 1,000 WCU). */
  limits?: { read: number; write: number };
  log?: (l: string) => void;
  /** Test hook: drops the n-th entry of every batch before sending (to check the lost-heartbeat accounting). */
  dropEntry?: number;
}

interface Ctx {
  second: number;
  measured: boolean;
  nowMs: number;
}

const COLLECTOR_ROLE = 'arn:aws:iam::000000000000:role/vigia-collector';
const COLLECTOR_ARN = 'arn:aws:sts::000000000000:assumed-role/vigia-collector/fleet';

/** An API Gateway REST (v1 proxy) event of `POST /ingest/heartbeats/batch` as the collector (IAM-authorised). */
function batchEvent(body: unknown, requestId: string): APIGatewayProxyEvent {
  const path = '/ingest/heartbeats/batch';
  const headers = { Host: 'api.example.com', 'Content-Type': 'application/json' };
  return restProxyEvent({
    resourcePath: path,
    path,
    method: 'POST',
    headers: { single: headers, multi: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])) },
    query: null,
    pathParameters: null,
    body: JSON.stringify(body),
    claims: null,
    collector: { accessKeyId: 'AKIDLOCAL', userArn: COLLECTOR_ARN },
    sourceIp: '127.0.0.1',
    userAgent: 'vigia-fleet-bench',
    stage: 'local',
    requestId,
    requestTimeEpoch: Date.now(),
  });
}

const round = (v: number, d = 3) => Math.round(v * 10 ** d) / 10 ** d;

/**
 * Runs the fleet simulation (module doc) on a fresh engine behind the rules proxy and returns its figures.
 * @throws Error when the engine cannot start or the set-up fails; heartbeat failures are counted, not thrown.
 */
export async function measureFleet(opts: FleetOptions): Promise<FleetResults> {
  const log = opts.log ?? (() => undefined);
  const batchSize = opts.batchSize ?? 100;
  const concurrency = opts.concurrency ?? 4;
  const resends = opts.resends ?? 3;
  const tenants = planFleet(opts.scale);
  const deviceCount = tenants.reduce((s, t) => s + t.devices.length, 0);
  const t0 = Date.now();
  const tableName = 'vigia-bench-fleet';
  const iam = await acquireRuntimeIamCheck((d) => log(`IAM DENY: ${d.message}`));
  let dynamo: RunningDynamo | undefined;
  try {
    dynamo = await startDynamo({ port: 0, rules: opts.limits ? { limits: opts.limits } : true });
    await ensureTable(dynamo.endpoint, tableName);
    const config = parseLambdaConfig({ stage: 'local', region: 'eu-west-1', logLevel: 'SILENT', tableName, dynamodbEndpoint: dynamo.endpoint });
    const clientOptions = { endpoint: dynamo.endpoint, region: config.region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } };
    const table: TableRef = { doc: createDocumentClient(clientOptions), tableName };
    const setup = tableWriters({ doc: createDocumentClient(clientOptions), tableName }, { retention: config.retention });
    const repository = dynamoRepository(table, { retention: config.retention });

    // Simulated time: whole minutes ending well before the wall clock (the handlers never see a future `at`).
    const minutes = opts.minutes + 1;
    const simStart = Math.floor(Date.now() / 60_000) * 60_000 - (minutes + 2) * 60_000;
    const base = { type: 'firewall', site: 'Madrid', ipAddress: '10.0.0.1', vendor: 'Fortinet', model: 'FG-60F' };
    log(`fleet: ${tenants.length} tenants, ${deviceCount} devices (largest ${tenants[0]!.devices.length}), ${opts.minutes} measured minutes + 1 warm-up, batches of ${batchSize}`);
    for (const t of tenants) {
      await setup.putTenant({ id: t.id, name: t.id });
      await setup.grantCollector(t.id, COLLECTOR_ROLE);
      const queue = [...t.devices];
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          for (let id = queue.shift(); id; id = queue.shift()) await setup.putDevice({ ...base, tenantId: t.id, id, name: id }, new Date(simStart));
        }),
      );
      await rebuildTenantAggregates(setup.table, t.id, { write: true, now: new Date(simStart) });
    }
    log(`fleet: set-up ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    const rulesBefore = dynamo.rules?.report().counters;

    // Capture: every request of the handler, with its simulated second (AsyncLocalStorage of the batch).
    const als = new AsyncLocalStorage<Ctx>();
    const meter = new HotKeyMeter();
    const classes = new Map<string, { writes: number; wcu: number }>();
    const totals = { requests: 0, readUnits: 0, writeUnits: 0, indexWriteUnits: 0, byOperation: {} as Record<string, number> };
    const tenantOfPk = (pk: string) => /^TENANT#([^#]+)/.exec(pk)?.[1] ?? null;
    const uninstall = wrapTableClient(table, (inner): DocumentClient => ({
      async send(operation, input) {
        const out = await inner.send(operation, { ...input, ReturnConsumedCapacity: 'INDEXES' });
        const ctx = als.getStore();
        if (!ctx?.measured) return out;
        const consumed = (out as { ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[] }).ConsumedCapacity;
        const caps = (Array.isArray(consumed) ? consumed : consumed ? [consumed] : []) as (ConsumedCapacity & { Table?: { CapacityUnits?: number }; GlobalSecondaryIndexes?: Record<string, { CapacityUnits?: number }> })[];
        const isRead = operation === 'Query' || operation === 'GetItem' || operation === 'BatchGetItem';
        let units = 0;
        let tableUnits = 0;
        for (const c of caps) {
          const total = c.CapacityUnits ?? (isRead ? (c.ReadCapacityUnits ?? 0) : (c.WriteCapacityUnits ?? 0));
          units += total;
          tableUnits += c.Table?.CapacityUnits ?? total;
        }
        totals.requests += 1;
        totals.byOperation[operation] = (totals.byOperation[operation] ?? 0) + 1;
        if (isRead) totals.readUnits += units;
        else {
          totals.writeUnits += units;
          totals.indexWriteUnits += units - tableUnits;
          const written = writtenKeys(operation, input as unknown as Record<string, unknown>);
          for (const w of written) {
            const share = tableUnits / written.length;
            const key = `${w.pk} | ${w.sk}`;
            meter.add(key, tenantOfPk(w.pk), keyScope(w.pk), ctx.second, share);
            meter.add(`${w.pk} |`, tenantOfPk(w.pk), keyScope(w.pk), ctx.second, share);
            const cls = classes.get(itemClass(w.pk, w.sk)) ?? { writes: 0, wcu: 0 };
            cls.writes += 1;
            cls.wcu += share;
            classes.set(itemClass(w.pk, w.sk), cls);
          }
        }
        return out;
      },
      destroy: () => inner.destroy(),
    }));

    const handler = createHandler(config, { repository, now: () => new Date(als.getStore()?.nowMs ?? Date.now()) });
    const lastSent = new Map<string, string>();
    let sent = 0;
    let applied = 0;
    let replayed = 0;
    let errored = 0;
    let resent = 0;
    let batchesSent = 0;
    let measuredHeartbeats = 0;
    const lambdaMs: number[] = [];
    let requestSeq = 0;
    const tMeasure = { start: 0 };
    try {
      for (let m = 0; m < minutes; m++) {
        const measured = m > 0;
        if (m === 1) tMeasure.start = Date.now();
        const minuteStart = simStart + m * 60_000;
        const batches = scheduleMinute(tenants, batchSize, m + 1);
        let next = 0;
        const worker = async () => {
          for (let b = batches[next++]; b; b = batches[next++]) {
            const simMs = minuteStart + b.offsetMs;
            const at = new Date(simMs).toISOString();
            let entries = b.devices.map((deviceId) => ({ eventId: `hb-${m}-${b.tenant.id}-${deviceId}`, tenantId: b.tenant.id, deviceId, at }));
            for (const e of entries) lastSent.set(`${e.tenantId}/${e.deviceId}`, at);
            sent += entries.length;
            if (measured) measuredHeartbeats += entries.length;
            if (opts.dropEntry !== undefined) entries = entries.filter((_, i) => i !== opts.dropEntry);
            const ctx: Ctx = { second: Math.floor((m * 60_000 + b.offsetMs) / 1000), measured, nowMs: simMs + 500 };
            batchesSent += 1;
            for (let attempt = 0; entries.length > 0; attempt++) {
              const requestId = `fleet-${++requestSeq}`;
              const started = performance.now();
              const res = await als.run(ctx, () => runAsFunction('ingest', () => handler(batchEvent({ heartbeats: entries }, requestId), lambdaContext('vigia-local-ingest', requestId))));
              if (measured && attempt === 0) lambdaMs.push(performance.now() - started);
              let retry: typeof entries = [];
              if (res.statusCode >= 500) retry = entries;
              else if (res.statusCode === 200) {
                const body = JSON.parse(res.body) as HeartbeatBatchResult;
                for (const r of body.results) {
                  if (r.status === 'applied') applied += 1;
                  else if (r.status === 'replay') replayed += 1;
                  else if (r.error?.code === 'SERVICE_UNAVAILABLE') retry.push(entries[r.index]!);
                  else errored += 1;
                }
              } else errored += entries.length;
              if (retry.length === 0) break;
              if (attempt >= resends) {
                errored += retry.length;
                break;
              }
              resent += retry.length;
              await new Promise((r) => setTimeout(r, 200 * (attempt + 1)));
              entries = retry;
            }
          }
        };
        await Promise.all(Array.from({ length: concurrency }, worker));
        meter.endMinute();
        log(`fleet: minute ${m}${measured ? '' : ' (warm-up)'} done, ${((Date.now() - t0) / 1000).toFixed(1)} s`);
      }
    } finally {
      uninstall();
    }
    const measureWallMs = Date.now() - tMeasure.start;

    // Compare with what was sent: every device's stored heartbeat item holds its last `at`.
    let storedMismatch = 0;
    const pending = [...lastSent];
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let e = pending.shift(); e; e = pending.shift()) {
          const [tenantId, deviceId] = e[0].split('/') as [string, string];
          const got = await table.doc.send('GetItem', { TableName: tableName, Key: keys.heartbeat(tenantId, deviceId), ConsistentRead: true });
          if (got.Item?.at !== e[1]) storedMismatch += 1;
        }
      }),
    );
    const simEnd = new Date(simStart + minutes * 60_000);
    let driftEntries = 0;
    const driftTenants: string[] = [];
    for (const t of tenants) {
      const { drift } = await rebuildTenantAggregates(table, t.id, { write: false, now: simEnd });
      if (drift.length) {
        driftEntries += drift.length;
        driftTenants.push(t.id);
      }
    }
    const report = dynamo.rules?.report();
    const c = report?.counters;
    const since = (k: 'transactionConflicts' | 'singleItemTransactionConflicts' | 'throttledReads' | 'throttledWrites' | 'unprocessedByThrottling') => (c?.[k] ?? 0) - (rulesBefore?.[k] ?? 0);

    // Hot keys: measured peak per simulated second and the projection to the full fleet (module doc).
    const measuredSeconds = opts.minutes * 60;
    const factorOf = new Map(tenants.map((t) => [t.id, t.fullDevices / t.devices.length]));
    const hot = (partition: boolean): FleetHotKey[] =>
      [...meter.keys]
        .filter(([k]) => k.endsWith(' |') === partition)
        .map(([key, k]) => {
          const factor = k.scope === 'tenant' && k.tenantId ? (factorOf.get(k.tenantId) ?? 1) : 1;
          return {
            key: partition ? key.slice(0, -2) : key,
            scope: k.scope,
            peakWcuPerSecond: round(k.peakWcu, 2),
            peakWritesPerSecond: k.peakWrites,
            projectedWcuPerSecond: round((k.wcu / measuredSeconds) * factor, 2),
            projectedWritesPerSecond: round((k.writes / measuredSeconds) * factor, 2),
          };
        })
        .sort((a, b) => (partition ? b.projectedWcuPerSecond - a.projectedWcuPerSecond : b.projectedWritesPerSecond - a.projectedWritesPerSecond))
        .slice(0, 10);
    const per = (v: number) => round(v / Math.max(measuredHeartbeats, 1));
    const itemClasses: FleetItemClass[] = [...classes]
      .map(([cls, v]) => ({ itemClass: cls, writesPerHeartbeat: per(v.writes), wcuPerHeartbeat: per(v.wcu) }))
      .sort((a, b) => b.wcuPerHeartbeat - a.wcuPerHeartbeat);
    const results: FleetResults = {
      scale: opts.scale,
      tenants: tenants.length,
      devices: deviceCount,
      largestTenantDevices: tenants[0]!.devices.length,
      minutes: opts.minutes,
      batchSize,
      batches: batchesSent,
      sent,
      applied,
      replayed,
      errored,
      lost: sent - applied - replayed,
      resent,
      storedMismatch,
      measuredHeartbeats,
      perHeartbeat: {
        requests: per(totals.requests),
        readUnits: per(totals.readUnits),
        writeUnits: per(totals.writeUnits),
        indexWriteUnits: per(totals.indexWriteUnits),
        byOperation: Object.fromEntries(Object.entries(totals.byOperation).map(([k, v]) => [k, per(v)])),
      },
      itemClasses,
      hottestPartitions: hot(true),
      hottestItems: hot(false),
      rules: {
        transactionConflicts: since('transactionConflicts'),
        singleItemTransactionConflicts: since('singleItemTransactionConflicts'),
        throttledReads: since('throttledReads'),
        throttledWrites: since('throttledWrites'),
        unprocessedByThrottling: since('unprocessedByThrottling'),
        hottestWallClockPartitions: (report?.hottestPartitions ?? []).slice(0, 5),
      },
      drift: { tenantsChecked: tenants.length, tenantsWithDrift: driftTenants.length, entries: driftEntries },
      lambdaMsPerBatch: { p50: round(percentile(lambdaMs, 50), 1), mean: round(lambdaMs.reduce((s, v) => s + v, 0) / Math.max(lambdaMs.length, 1), 1) },
      wallMs: Date.now() - t0,
      heartbeatsPerWallSecond: round((measuredHeartbeats / Math.max(measureWallMs, 1)) * 1000, 1),
    };
    return results;
  } finally {
    iam.release();
    await dynamo?.stop();
  }
}

/** Human lines of the hottest keys (printed by the bench). */
export function formatHotKeys(r: FleetResults): string[] {
  const lines = ['hottest partition keys (WCU/s: peak per simulated second; projected to the full fleet):'];
  for (const h of r.hottestPartitions.slice(0, 5)) lines.push(`  ${h.key}  peak ${h.peakWcuPerSecond}  projected ${h.projectedWcuPerSecond}`);
  lines.push('hottest items (writes/s: peak per simulated second; projected to the full fleet):');
  for (const h of r.hottestItems.slice(0, 5)) lines.push(`  ${h.key}  peak ${h.peakWritesPerSecond}  projected ${h.projectedWritesPerSecond}`);
  return lines;
}
