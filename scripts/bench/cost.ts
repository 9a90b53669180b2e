/**
 * The monthly bill from measured units (issue 28 point 7): `renderCostReport(results)` writes `docs/cost.md`
 * (`npm run bench -- --only fleet` regenerates it), and `heartbeatDesigns` prices the heartbeat write-path
 * alternatives of docs/decisions/heartbeat-write-path.md as pure cost models of the fleet section's measured
 * units. Pure functions of the results JSON (`types.ts`); no AWS call.
 *
 * Prices: us-east-1 list prices, without free tiers or savings plans (`PRICES`, each with its page). Units:
 * dollars; "device-month" = one device beating once a minute for 30 days (43,200 heartbeats).
 *
 * What is measured and what is assumed:
 *  - measured: DynamoDB requests, RRU and WRU per heartbeat (fleet section: batched collectors through the
 *    batch route; scale section's `ingestHeartbeat` write: a single heartbeat through the local gateway) and per
 *    page view (scale section's pages at ×100, 5,000 devices);
 *  - modelled: Lambda duration = `LAMBDA_MODEL.overheadMs` + the DynamoDB requests it waits for one after the
 *    other × `LAMBDA_MODEL.requestMs` (a batch's entries run `BATCH_DEVICE_CONCURRENCY` at a time); log bytes
 *    per invocation; the page-view mix (each measured page equally often); the idle jobs' duration.
 *    The local handler times are not Lambda's (2 shared cores, IAM evaluated in process), so they are reported,
 *    not priced.
 */
import { BATCH_DEVICE_CONCURRENCY } from '../../lambdas/domain/ingest.js';
import { FUNCTION_LIMITS } from '../../lambdas/contract/platform-limits.js';
import type { BenchResults, FleetResults, ScaleRun } from './types.js';

/** us-east-1 list prices, dollars (checked 2026-11; each field names its source page). */
export const PRICES = {
  /** DynamoDB on-demand, standard table class: per million write / read request units (https://aws.amazon.com/dynamodb/pricing/on-demand/). */
  dynamoWriteRequestUnitPerMillion: 0.625,
  dynamoReadRequestUnitPerMillion: 0.125,
  /** API Gateway REST API: per million requests, first 333 million a month (https://aws.amazon.com/api-gateway/pricing/). */
  apiGatewayRestPerMillion: 3.5,
  /** API Gateway HTTP API: per million requests, first 300 million a month (same page), for comparison only. */
  apiGatewayHttpPerMillion: 1.0,
  /** Lambda: per million requests; per GB-second on arm64, first 7.5 billion GB-s a month (https://aws.amazon.com/lambda/pricing/). */
  lambdaRequestPerMillion: 0.2,
  lambdaArmGbSecond: 0.0000133334,
  /** CloudWatch: logs ingested (standard class) per GB; one standard-resolution alarm per month (https://aws.amazon.com/cloudwatch/pricing/). */
  cloudWatchLogsIngestedPerGb: 0.5,
  cloudWatchAlarmPerMonth: 0.1,
  /** AWS X-Ray: per million traces recorded (https://aws.amazon.com/xray/pricing/). */
  xrayTracesRecordedPerMillion: 5.0,
} as const;

/** Assumptions of the Lambda duration and log model (module doc). */
export const LAMBDA_MODEL = {
  /** Handler time besides DynamoDB (routing, validation, JSON), ms per invocation. */
  overheadMs: 10,
  /** One DynamoDB request's round trip from Lambda, ms ("single-digit millisecond", DynamoDB's product page). */
  requestMs: 6,
  /** Bytes of CloudWatch Logs per invocation (the platform's START/END/REPORT lines and one log line). */
  logBytesPerInvocation: 500,
  /** X-Ray sampling of a traced function: 1 request a second, then 5 % (AWS X-Ray developer guide, "Sampling rules"). */
  xrayReservoirPerSecond: 1,
  xraySampledFraction: 0.05,
} as const;

/** Heartbeats of one device in a 30-day month at one a minute. */
export const HEARTBEATS_PER_DEVICE_MONTH = 30 * 24 * 60;
const SECONDS_PER_MONTH = 30 * 24 * 3600;
const ingestGb = FUNCTION_LIMITS.ingest.memoryMB / 1024;

/** Where a figure's dollars go. */
export interface Bill {
  dynamoWrites: number;
  dynamoReads: number;
  apiGateway: number;
  lambdaRequests: number;
  lambdaDuration: number;
  logs: number;
  xray: number;
  alarms: number;
}

const emptyBill = (): Bill => ({ dynamoWrites: 0, dynamoReads: 0, apiGateway: 0, lambdaRequests: 0, lambdaDuration: 0, logs: 0, xray: 0, alarms: 0 });
const total = (b: Bill) => Object.values(b).reduce((s, v) => s + v, 0);
const add = (a: Bill, b: Bill): Bill => Object.fromEntries(Object.keys(a).map((k) => [k, a[k as keyof Bill] + b[k as keyof Bill]])) as unknown as Bill;

/** X-Ray traces recorded in a month for `invocations` spread evenly over it (reservoir + sampled fraction). */
export function xrayTraces(invocations: number): number {
  const reservoir = Math.min(invocations, LAMBDA_MODEL.xrayReservoirPerSecond * SECONDS_PER_MONTH);
  return reservoir + (invocations - reservoir) * LAMBDA_MODEL.xraySampledFraction;
}

/**
 * The bill of `invocations` API calls (each one API Gateway REST request and one Lambda invocation of `ms`
 * milliseconds at `gb` GB) consuming `wru` write and `rru` read request units in total. X-Ray is priced
 * separately (`xrayTraces`), as its reservoir is per function, not per call.
 */
export function apiBill(o: { invocations: number; ms: number; gb: number; wru: number; rru: number; apiGateway?: boolean }): Bill {
  return {
    ...emptyBill(),
    dynamoWrites: (o.wru / 1e6) * PRICES.dynamoWriteRequestUnitPerMillion,
    dynamoReads: (o.rru / 1e6) * PRICES.dynamoReadRequestUnitPerMillion,
    apiGateway: o.apiGateway === false ? 0 : (o.invocations / 1e6) * PRICES.apiGatewayRestPerMillion,
    lambdaRequests: (o.invocations / 1e6) * PRICES.lambdaRequestPerMillion,
    lambdaDuration: o.invocations * (o.ms / 1000) * o.gb * PRICES.lambdaArmGbSecond,
    logs: ((o.invocations * LAMBDA_MODEL.logBytesPerInvocation) / 2 ** 30) * PRICES.cloudWatchLogsIngestedPerGb,
  };
}

/** Per-heartbeat DynamoDB units and requests of one collector style. */
export interface HeartbeatUnits {
  requests: number;
  rru: number;
  wru: number;
}

/** Modelled Lambda ms of one batch of `batchSize` heartbeats of `requests` sequential DynamoDB requests each. */
export function batchLambdaMs(batchSize: number, requests: number): number {
  return LAMBDA_MODEL.overheadMs + Math.ceil(batchSize / BATCH_DEVICE_CONCURRENCY) * requests * LAMBDA_MODEL.requestMs;
}

/** Bill of one device-month of heartbeats sent in batches of `batchSize` (1 = a single collector). */
export function heartbeatDeviceMonth(u: HeartbeatUnits, batchSize: number, extra: Partial<Bill> = {}): Bill {
  const beats = HEARTBEATS_PER_DEVICE_MONTH;
  const b = apiBill({ invocations: beats / batchSize, ms: batchLambdaMs(batchSize, u.requests), gb: ingestGb, wru: beats * u.wru, rru: beats * u.rru });
  return add(b, { ...emptyBill(), ...extra });
}

/** One heartbeat write-path design priced from the fleet section's measured units (decision record). */
export interface HeartbeatDesign {
  id: string;
  name: string;
  /** Per heartbeat. */
  wru: number;
  rru: number;
  requests: number;
  batched: { dollarsPerDeviceMonth: number; bill: Bill };
  single: { dollarsPerDeviceMonth: number; bill: Bill };
  /** At full size (largest tenant 50,000 devices, 1 beat/min, batches of 100). */
  hottestItemWritesPerSecond: number;
  hottestPartitionWcuPerSecond: number;
  notes: string;
}

/**
 * The designs of docs/decisions/heartbeat-write-path.md from the fleet run's item classes (WCU per heartbeat of
 * each device-scoped and tenant-scoped item): the current write path as measured, and three alternatives
 * modelled from the same units. `fleet.batchSize` heartbeats per batch; the largest tenant at full size.
 */
export function heartbeatDesigns(fleet: FleetResults): HeartbeatDesign[] {
  const b = fleet.batchSize;
  const bigHbPerSecond = 50_000 / 60;
  const bigBatchesPerSecond = bigHbPerSecond / b;
  const sum = (scope: 'device' | 'tenant', f: 'wcuPerHeartbeat' | 'writesPerHeartbeat') => fleet.itemClasses.filter((c) => c.itemClass.startsWith(`${scope}:`)).reduce((s, c) => s + c[f], 0);
  const deviceWcu = sum('device', 'wcuPerHeartbeat') + fleet.perHeartbeat.indexWriteUnits;
  const tenantWcu = sum('tenant', 'wcuPerHeartbeat');
  const tenantClasses = fleet.itemClasses.filter((c) => c.itemClass.startsWith('tenant:'));
  const maxTenantItemWritesPerHb = Math.max(0, ...tenantClasses.map((c) => c.writesPerHeartbeat));
  const p = fleet.perHeartbeat;
  // Today's hottest keys at full size, as measured (projected): a tenant item written by every heartbeat.
  const measuredItem = fleet.hottestItems[0]?.projectedWritesPerSecond ?? bigHbPerSecond * maxTenantItemWritesPerHb;
  const measuredPartition = fleet.hottestPartitions[0]?.projectedWcuPerSecond ?? bigHbPerSecond * tenantWcu;
  const price = (u: HeartbeatUnits, batchExtra: Partial<Bill> = {}, singleExtra: Partial<Bill> = {}) => {
    const batched = heartbeatDeviceMonth(u, b, batchExtra);
    const single = heartbeatDeviceMonth(u, 1, singleExtra);
    return { batched: { dollarsPerDeviceMonth: total(batched), bill: batched }, single: { dollarsPerDeviceMonth: total(single), bill: single } };
  };
  const designs: HeartbeatDesign[] = [];
  // 0. Today's path, as measured.
  designs.push({
    id: 'current',
    name: 'Current: one transaction per heartbeat (device, heartbeat item, device-day, tenant day aggregate, histogram) + roll-up + change marker',
    wru: p.writeUnits,
    rru: p.readUnits,
    requests: p.requests,
    ...price({ requests: p.requests, rru: p.readUnits, wru: p.writeUnits }),
    hottestItemWritesPerSecond: measuredItem,
    hottestPartitionWcuPerSecond: measuredPartition,
    notes: 'measured',
  });
  // A. The batch writes each tenant item once (sum of its entries' deltas) instead of once per heartbeat.
  const tenantRequests = tenantClasses.reduce((s, c) => s + c.writesPerHeartbeat, 0);
  const coalescedWru = deviceWcu + tenantWcu / b;
  designs.push({
    id: 'coalesce',
    name: 'A. Per-batch coalescing of the tenant items (day aggregate, histogram, change marker written once per batch)',
    wru: coalescedWru,
    rru: p.readUnits,
    requests: p.requests - tenantRequests + tenantRequests / b,
    ...price({ requests: p.requests, rru: p.readUnits, wru: coalescedWru }),
    // The tenant items are written once per batch instead of once per heartbeat: today's rates ÷ the batch.
    hottestItemWritesPerSecond: measuredItem / b,
    hottestPartitionWcuPerSecond: measuredPartition / b,
    notes: 'single collectors (batch of 1) gain nothing: every heartbeat still writes the tenant items',
  });
  // B. Presence: one item per batch and minute (≤ 100 device ids + second offsets, ~2 KB → 2 WCU), a job each
  //    minute folds the minute into device state; devices, device-days and tenant items are written only when a
  //    device changes state (online ↔ offline: `changesPerDeviceDay`) or a day closes.
  const presenceWcuPerItem = 2;
  const changesPerDeviceDay = 2;
  const writesPerChange = deviceWcu + tenantWcu; // the same items as today's new-minute path, once per change
  const foldWru = (changesPerDeviceDay * writesPerChange + /* day close */ 1) / (24 * 60);
  const presenceWru = presenceWcuPerItem / b + foldWru;
  const singlePresenceWru = 1 + foldWru; // one ~100-byte item per heartbeat
  // The job: one Query per tenant and minute (0.5 RRU for ≤ 4 KB, eventually consistent) — per device at a tenant of 50 devices.
  const jobRru = 0.5 / 50;
  const jobMonthly = (gbSeconds: number) => ({ lambdaDuration: gbSeconds * PRICES.lambdaArmGbSecond });
  // Job Lambda: 43,200 runs a month, ~2 ms of 1 GB per tenant-minute fold → per device at 50 devices a tenant.
  const jobPerDevice = jobMonthly((HEARTBEATS_PER_DEVICE_MONTH * 0.002 * 1) / 50);
  const batchedB = heartbeatDeviceMonth({ requests: 1, rru: jobRru, wru: presenceWru }, b, jobPerDevice);
  const singleB = heartbeatDeviceMonth({ requests: 1, rru: jobRru, wru: singlePresenceWru }, 1, jobPerDevice);
  designs.push({
    id: 'presence',
    name: 'B. Per-minute presence items folded into device state by a job (devices written only on state change / day close)',
    wru: presenceWru,
    rru: jobRru,
    requests: 1 / b,
    batched: { dollarsPerDeviceMonth: total(batchedB), bill: batchedB },
    single: { dollarsPerDeviceMonth: total(singleB), bill: singleB },
    // Each presence item is written once; the tenant items at most once per job run (a minute).
    hottestItemWritesPerSecond: 1 / 60,
    hottestPartitionWcuPerSecond: bigBatchesPerSecond * presenceWcuPerItem,
    notes: `assumes ${changesPerDeviceDay} state changes per device-day; the job runs every minute (status within one minute)`,
  });
  // C. DynamoDB Streams: the heartbeat writes its device items only; a stream-triggered Lambda folds the tenant
  //    items per stream batch (stream reads by a Lambda trigger are free; one invocation per ≤ 100 records).
  const streamWru = deviceWcu + tenantWcu / 100;
  const streamInvocations = 1 / 100; // per heartbeat
  const streamExtra = { lambdaRequests: HEARTBEATS_PER_DEVICE_MONTH * streamInvocations * (PRICES.lambdaRequestPerMillion / 1e6) };
  designs.push({
    id: 'streams',
    name: 'C. DynamoDB Streams aggregation (heartbeat writes device items; a stream Lambda folds tenant items per stream batch)',
    wru: streamWru,
    rru: 0,
    requests: p.requests - tenantRequests,
    ...price({ requests: p.requests - tenantRequests, rru: p.readUnits, wru: streamWru }, streamExtra, streamExtra),
    // One fold per stream batch of ≤ 100 records (per shard): like per-batch coalescing, for single collectors too.
    hottestItemWritesPerSecond: measuredItem / 100,
    hottestPartitionWcuPerSecond: measuredPartition / 100,
    notes: 'the device items stay per heartbeat, so the device-scoped WCU stays',
  });
  return designs;
}

const usd = (v: number) => (v >= 100 ? `$${v.toFixed(0)}` : v >= 1 ? `$${v.toFixed(2)}` : v >= 0.01 ? `$${v.toFixed(3)}` : `$${v.toFixed(5)}`);
const n = (v: number, d = 2) => (Math.round(v * 10 ** d) / 10 ** d).toLocaleString('en-US');

/** One scenario of docs/cost.md. */
export interface Scenario {
  name: string;
  tenants: number;
  devices: number;
  pageViewsPerDay: number;
  bill: Bill;
  lines: { what: string; bill: Bill }[];
}

/** The scheduled jobs of a stage (infra/notifications.ts, infra/sla-watch.ts, infra/notification-digest.ts). */
const JOBS = [
  { name: 'notification dispatcher (every minute, 512 MB)', perMonth: 43_200, gb: 0.5 },
  { name: 'SLA job (every 5 minutes, 256 MB)', perMonth: 8_640, gb: 0.25 },
  { name: 'daily digest (once a day, 256 MB)', perMonth: 30, gb: 0.25 },
];
/** Assumed duration and reads of one idle job run (not measured), ms and RRU. */
const JOB_RUN = { ms: 200, rru: 1 };
/** CloudWatch alarms of a stage (AWS::CloudWatch::Alarm in the synthesized Monitoring stack). */
export const STAGE_ALARMS = 35;

/** The three scenarios of issue 28 point 7 priced from `r` (needs `r.fleet` and the ×100 scale run). */
export function scenarios(r: BenchResults): Scenario[] {
  const fleet = r.fleet!;
  const x100: ScaleRun | undefined = r.scale?.runs.find((s) => s.factor === 100) ?? r.scale?.runs.at(-1);
  const pages = x100?.pages.filter((p) => p.ok) ?? [];
  const per = (f: (p: (typeof pages)[number]) => number) => (pages.length ? pages.reduce((s, p) => s + f(p), 0) / pages.length : 0);
  const view = { calls: per((p) => p.calls), requests: per((p) => p.requests), rru: per((p) => p.readUnits) };
  const callMs = LAMBDA_MODEL.overheadMs + (view.calls ? view.requests / view.calls : 0) * LAMBDA_MODEL.requestMs;
  const pageViews = (perDay: number) => {
    const views = perDay * 30;
    return apiBill({ invocations: views * view.calls, ms: callMs, gb: 0.5, wru: 0, rru: views * view.rru });
  };
  const heartbeats = (devices: number) => {
    const u = { requests: fleet.perHeartbeat.requests, rru: fleet.perHeartbeat.readUnits, wru: fleet.perHeartbeat.writeUnits };
    const beats = devices * HEARTBEATS_PER_DEVICE_MONTH;
    return apiBill({ invocations: beats / fleet.batchSize, ms: batchLambdaMs(fleet.batchSize, u.requests), gb: ingestGb, wru: beats * u.wru, rru: beats * u.rru });
  };
  const jobs = (): Bill =>
    JOBS.map((j) => apiBill({ invocations: j.perMonth, ms: JOB_RUN.ms, gb: j.gb, wru: 0, rru: j.perMonth * JOB_RUN.rru, apiGateway: false })).reduce(add, emptyBill());
  const fixed = (): Bill => ({ ...emptyBill(), alarms: STAGE_ALARMS * PRICES.cloudWatchAlarmPerMonth });
  const xray = (invocationsByFunction: number[]): Bill => ({ ...emptyBill(), xray: (invocationsByFunction.reduce((s, i) => s + xrayTraces(i), 0) / 1e6) * PRICES.xrayTracesRecordedPerMillion });
  const make = (name: string, tenants: number, devices: number, pageViewsPerDay: number): Scenario => {
    const lines: { what: string; bill: Bill }[] = [];
    if (devices > 0) lines.push({ what: `heartbeats: ${n(devices, 0)} devices × 1/min, batches of ${fleet.batchSize}`, bill: heartbeats(devices) });
    if (pageViewsPerDay > 0) lines.push({ what: `portal: ${n(pageViewsPerDay, 0)} page views a day (${n(view.calls)} API calls, ${n(view.requests)} DynamoDB requests, ${n(view.rru)} RRU each)`, bill: pageViews(pageViewsPerDay) });
    lines.push({ what: 'scheduled jobs (assumed 200 ms and 1 RRU a run)', bill: jobs() });
    const invocations = [devices * (HEARTBEATS_PER_DEVICE_MONTH / fleet.batchSize), pageViewsPerDay * 30 * view.calls, ...JOBS.map((j) => j.perMonth)];
    lines.push({ what: 'X-Ray traces (active tracing: 1/s + 5 % per function)', bill: xray(invocations) });
    lines.push({ what: `CloudWatch alarms (${STAGE_ALARMS})`, bill: fixed() });
    return { name, tenants, devices, pageViewsPerDay, bill: lines.map((l) => l.bill).reduce(add, emptyBill()), lines };
  };
  return [make('Idle prod stage', 0, 0, 0), make('50 tenants × 20 users × 30 page views a day, 5,000 devices', 50, 5000, 50 * 20 * 30), make('1,000 tenants (20 users × 30 page views a day each), 100,000 devices', 1000, 100_000, 1000 * 20 * 30)];
}

const BILL_COLUMNS: [keyof Bill, string][] = [
  ['dynamoWrites', 'DynamoDB writes'],
  ['dynamoReads', 'DynamoDB reads'],
  ['apiGateway', 'API Gateway'],
  ['lambdaRequests', 'Lambda requests'],
  ['lambdaDuration', 'Lambda GB-s'],
  ['logs', 'CloudWatch Logs'],
  ['xray', 'X-Ray'],
  ['alarms', 'CloudWatch alarms'],
];

/** `docs/cost.md` (generated; see the module doc). */
export function renderCostReport(r: BenchResults): string {
  const fleet = r.fleet;
  if (!fleet) throw new Error('docs/cost.md needs the fleet section (npm run bench -- --only fleet)');
  const single = r.scale?.runs.find((s) => s.factor === 100)?.writes.find((w) => w.id === 'ingestHeartbeat');
  const out: string[] = [];
  out.push('# Cost model');
  out.push('');
  out.push(`<!-- GENERATED by \`npm run bench -- --only fleet\` (scripts/bench/cost.ts) from bench/results/latest.json: do not edit by hand. -->`);
  out.push('');
  out.push(
    `Generated by \`npm run bench -- --only fleet\` (\`scripts/bench/cost.ts\`) from the measured units in \`bench/results/latest.json\`: fleet section measured ${r.measuredAt.fleet ?? '–'} (scale ${fleet.scale}: ${n(fleet.devices, 0)} devices in ${fleet.tenants} tenants, ${fleet.minutes} simulated minutes), scale section measured ${r.measuredAt.scale ?? '–'}. Do not edit by hand. Prices: us-east-1 list prices without free tiers (DynamoDB on demand $${PRICES.dynamoWriteRequestUnitPerMillion}/M WRU and $${PRICES.dynamoReadRequestUnitPerMillion}/M RRU, https://aws.amazon.com/dynamodb/pricing/on-demand/; API Gateway REST $${PRICES.apiGatewayRestPerMillion}/M requests, https://aws.amazon.com/api-gateway/pricing/; Lambda arm64 $${PRICES.lambdaRequestPerMillion}/M requests and $${PRICES.lambdaArmGbSecond}/GB-s, https://aws.amazon.com/lambda/pricing/; CloudWatch Logs $${PRICES.cloudWatchLogsIngestedPerGb}/GB ingested and $${PRICES.cloudWatchAlarmPerMonth} per alarm-month, https://aws.amazon.com/cloudwatch/pricing/; X-Ray $${PRICES.xrayTracesRecordedPerMillion}/M traces, https://aws.amazon.com/xray/pricing/). A month is 30 days.`,
  );
  out.push('');
  out.push('## Measured units');
  out.push('');
  out.push('| Unit | DynamoDB requests | RRU | WRU | Source |');
  out.push('|---|---:|---:|---:|---|');
  out.push(`| heartbeat, batched collector (new UTC minute) | ${fleet.perHeartbeat.requests} | ${fleet.perHeartbeat.readUnits} | ${fleet.perHeartbeat.writeUnits} | fleet section, ${n(fleet.measuredHeartbeats, 0)} heartbeats |`);
  if (single) out.push(`| heartbeat, single collector (new UTC minute) | ${single.requests} | ${single.readUnits} | ${single.writeUnits} | scale section ×100, \`ingestHeartbeat\` |`);
  const x100 = r.scale?.runs.find((s) => s.factor === 100);
  for (const p of x100?.pages ?? []) out.push(`| page view: ${p.page} (${p.calls} API calls) | ${p.requests} | ${p.readUnits} | 0 | scale section ×100 |`);
  out.push('');
  out.push(
    `Modelled, not measured: Lambda duration = ${LAMBDA_MODEL.overheadMs} ms + ${LAMBDA_MODEL.requestMs} ms per DynamoDB request waited for in sequence (a batch runs ${BATCH_DEVICE_CONCURRENCY} entries at a time: ${batchLambdaMs(fleet.batchSize, fleet.perHeartbeat.requests).toFixed(0)} ms a batch of ${fleet.batchSize}, at ${FUNCTION_LIMITS.ingest.memoryMB} MB); ${LAMBDA_MODEL.logBytesPerInvocation} bytes of logs per invocation; each measured page viewed equally often. The local handler took ${fleet.lambdaMsPerBatch.p50} ms a batch (p50) on this machine's 2 shared cores with IAM evaluated in process: reported, not priced.`,
  );
  out.push('');
  out.push('## Heartbeats per device-month (43,200 heartbeats)');
  out.push('');
  const singleUnits = single ? { requests: single.requests, rru: single.readUnits, wru: single.writeUnits } : { requests: fleet.perHeartbeat.requests, rru: fleet.perHeartbeat.readUnits, wru: fleet.perHeartbeat.writeUnits };
  const hb = [
    { what: `batched collector (${fleet.batchSize} a request)`, bill: heartbeatDeviceMonth({ requests: fleet.perHeartbeat.requests, rru: fleet.perHeartbeat.readUnits, wru: fleet.perHeartbeat.writeUnits }, fleet.batchSize) },
    { what: 'single collector (1 a request)', bill: heartbeatDeviceMonth(singleUnits, 1) },
  ];
  out.push(`| Collector | Total | ${BILL_COLUMNS.slice(0, 6).map(([, h]) => h).join(' | ')} |`);
  out.push(`|---|---:|${BILL_COLUMNS.slice(0, 6).map(() => '---:').join('|')}|`);
  for (const l of hb) out.push(`| ${l.what} | **${usd(total(l.bill))}** | ${BILL_COLUMNS.slice(0, 6).map(([k]) => usd(l.bill[k])).join(' | ')} |`);
  out.push('');
  out.push(`Issue 28's goal is ≤ $0.01 per device-month for both. The heartbeat write-path designs priced from the same measured units (\`heartbeatDesigns\`; the choice: docs/decisions/heartbeat-write-path.md):`);
  out.push('');
  out.push('| Design | WRU / heartbeat | RRU / heartbeat | $ / device-month, batched | $ / device-month, single | hottest item, writes/s | hottest partition, WCU/s | Note |');
  out.push('|---|---:|---:|---:|---:|---:|---:|---|');
  for (const d of heartbeatDesigns(fleet))
    out.push(`| ${d.name} | ${n(d.wru, 3)} | ${n(d.rru, 3)} | ${usd(d.batched.dollarsPerDeviceMonth)} | ${usd(d.single.dollarsPerDeviceMonth)} | ${n(d.hottestItemWritesPerSecond)} | ${n(d.hottestPartitionWcuPerSecond)} | ${d.notes} |`);
  out.push('');
  out.push('Hot keys at full size (largest tenant 50,000 devices). Single-collector dollars use the fleet\'s per-heartbeat units; the table above uses the scale section\'s single `ingestHeartbeat`.');
  out.push('');
  out.push('## Monthly bill per scenario');
  out.push('');
  for (const s of scenarios(r)) {
    out.push(`### ${s.name}: ${usd(total(s.bill))} a month`);
    out.push('');
    out.push(`| Where | Total | ${BILL_COLUMNS.map(([, h]) => h).join(' | ')} |`);
    out.push(`|---|---:|${BILL_COLUMNS.map(() => '---:').join('|')}|`);
    for (const l of s.lines) out.push(`| ${l.what} | ${usd(total(l.bill))} | ${BILL_COLUMNS.map(([k]) => (l.bill[k] ? usd(l.bill[k]) : '–')).join(' | ')} |`);
    out.push(`| **total** | **${usd(total(s.bill))}** | ${BILL_COLUMNS.map(([k]) => usd(s.bill[k])).join(' | ')} |`);
    const t = total(s.bill);
    if (t > 0) {
      const shares = BILL_COLUMNS.map(([k, h]) => [h, s.bill[k] / t] as const).filter(([, f]) => f >= 0.01).sort((a, b) => b[1] - a[1]);
      out.push('');
      out.push(`Each dollar: ${shares.map(([h, f]) => `${(f * 100).toFixed(0)} ¢ ${h}`).join(', ')}.`);
    }
    out.push('');
  }
  out.push('## Not in the model');
  out.push('');
  out.push(
    '- DynamoDB storage ($0.25/GB-month), backups and point-in-time recovery; S3 and CloudFront for the portal; Cognito monthly active users; Secrets Manager; data transfer out. They do not depend on heartbeats and are small next to the lines above except Cognito past its free tier.',
  );
  out.push('- The scheduled jobs\' duration and reads are assumed (200 ms and 1 RRU a run), not measured.');
  out.push('- Page views at 1,000 tenants use the 5,000-device tenant\'s measured units (the ×100 scale run): an upper bound for tenants of ~100 devices.');
  out.push('');
  return out.join('\n');
}
