/**
 * Shape of `bench/results/latest.json`, the output of `npm run bench` and the input of the budget check
 * (`budgets.ts`). Units are in the field names: `Ms` milliseconds, `Bytes` bytes, `Rps` requests per
 * second; capacity in DynamoDB read/write capacity units (RCU/WCU). Every measured figure has a reference
 * measured in the same run next to it, because the machines are shared and noisy
 * (docs/benchmarks.md#same-run-references).
 */

/** Sizes of a set of static assets. */
export interface AssetSizes {
  jsBytes: number;
  jsGzipBytes: number;
  cssBytes: number;
  cssGzipBytes: number;
  /** Asset paths relative to the build folder. */
  files: string[];
}

/** Median timings of cold page loads (fresh browser context per load). */
export interface LoadTimings {
  /** `first-paint` (falls back to `first-contentful-paint`), ms since navigation start. */
  firstPaintMs: number;
  /** Time until the e-mail field of the sign-in form is visible, ms since navigation start. */
  emailVisibleMs: number;
}

export interface PortalResults {
  /** Initial assets of index.html: entry script + modulepreloads + stylesheets. */
  initial: { portal: AssetSizes; reference: AssetSizes };
  load: { runs: number; throttled: boolean; portal: LoadTimings; reference: LoadTimings };
  /** The signed-in dashboard: every JS file fetched from opening the sign-in page to the data shown. */
  dashboard: {
    runs: number;
    jsBytes: number;
    jsGzipBytes: number;
    /** Median time from submitting credentials to the dashboard's data visible, ms; null if never seen. */
    signInToDataMs: number | null;
    /** Same-run reference: submit → signed in on the Authenticator-only page (same user pool), ms. */
    referenceSignInMs: number | null;
    /** Why the dashboard flow did not complete, or null. */
    error?: string | null;
  };
}

/** One load run (HTTP through the gateway, or raw SDK Queries against the engine). */
export interface LoadFigures {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  errors: number;
}

export interface ApiRouteLoad {
  operationId: string;
  method: string;
  /** Route path as in the route table, e.g. `/incidents/{id}`. */
  path: string;
  kind: 'list' | 'detail';
  concurrency: number;
  gateway: LoadFigures;
  /**
   * The first Query the route's handler issued, replayed against the engine from one Node process with the
   * AWS SDK v3 document client — the budgeted reference (`api.ts` `EngineClient`); null if it issued none.
   */
  engine: LoadFigures | null;
  /** The same Query with the handlers' own client (aws-lite); diagnostic, not budgeted. Absent in older files. */
  engineHandlersClient?: LoadFigures | null;
}

export interface ColdStartBundle {
  name: string;
  /** What a diagnostic bundle is (diagnostic rows only). */
  description?: string;
  bytes: number;
  /**
   * Median wall time from spawning a fresh `node` process until the bundle has been imported, ms (Node's
   * boot + module evaluation, like Lambda's Init duration). The budgeted figure.
   */
  coldStartMs: number;
  /** Median time of `await import()` of the bundle measured inside that process (excludes Node's boot), ms. Diagnostic. */
  importMs: number;
  runs: number;
}

export interface ColdStartResults {
  /** The reference: an empty handler bundled the same way. */
  empty: ColdStartBundle;
  handlers: ColdStartBundle[];
  /** Not budgeted, e.g. the empty handler importing the AWS SDK v3 DynamoDB clients. */
  diagnostics: ColdStartBundle[];
}

export interface RouteCost {
  operationId: string;
  method: string;
  path: string;
  /** HTTP status of the typical call. */
  status: number;
  readUnits: number;
  writeUnits: number;
  /** DynamoDB operations the call issued, e.g. `QueryCommand`. */
  commands: string[];
  /** Response body size, bytes. */
  responseBytes: number;
  /** True for list routes (GET without path parameters whose response has `items`). */
  list: boolean;
  /** Items in the returned page (list routes). */
  pageItems: number | null;
}

export interface CostResults {
  routes: RouteCost[];
  /** `file: line` of every Scan found in `lambdas/` source. */
  staticScans: string[];
}

/** One API call of the scale section (a route variant, a write, or one call of a page view). */
export interface ScaleCall {
  /**
   * Stable id, the same at every scale: the operation id plus the variant, e.g. `listIncidents`,
   * `listIncidents status=on_hold`, `getReport 365d`, `ingestDeviceAlarm clear`.
   */
  id: string;
  operationId: string;
  method: string;
  /** Route path as in the route table. */
  path: string;
  /** HTTP status (0 when the request failed before an answer). */
  status: number;
  /** DynamoDB requests the call issued. */
  requests: number;
  /** Consumed read / write capacity units (ReturnConsumedCapacity TOTAL). */
  readUnits: number;
  writeUnits: number;
  /** DynamoDB operations, e.g. `12 Query, 1 GetItem`. */
  operations: string;
  /** Wall time of the HTTP call through the local gateway, ms. */
  wallMs: number;
  /** Response body, bytes. */
  responseBytes: number;
}

/** One portal page opened (`scale-pages.ts`): the sums over the API calls it makes. */
export interface ScalePageView {
  page: string;
  /** API calls made (a list read whole counts each page). */
  calls: number;
  requests: number;
  readUnits: number;
  /** From the first call's start to the last call's end (the page's calls run concurrently), ms. */
  wallMs: number;
  responseBytes: number;
  /** Every call answered 2xx. */
  ok: boolean;
  /** A list read whole stopped at 1,000 items with more left (what the portal shows is then incomplete). */
  truncated: boolean;
}

/** What the generator wrote for one scale. */
export interface ScaleData {
  tenantId: string;
  devices: number;
  incidents: number;
  items: number;
  byEntity: Record<string, number>;
  /** Writing the items and registering the tenant, ms. */
  generateMs: number;
  itemsPerSecond: number;
  /** `afterGenerate` (rebuild of the tenant's aggregates), ms. */
  afterGenerateMs: number;
}

/** The figures of one scale factor. */
export interface ScaleRun {
  /** 1, 10 or 100 (×1 ≈ 50 devices). */
  factor: number;
  data: ScaleData;
  /** Every GET route of the route table (and its declared variants), as customer or staff. */
  routes: ScaleCall[];
  pages: ScalePageView[];
  writes: ScaleCall[];
}

/** One staff view at the ×1,000-tenants point (`scale-tenants.ts`): one call, its first page. */
export interface ScaleTenantView {
  id: string;
  path: string;
  status: number;
  /** DynamoDB requests of the call and their RCU. */
  requests: number;
  readUnits: number;
  /** e.g. `Query×1, BatchGetItem×1`. */
  operations: string;
  /** Cognito (user pool) requests the handler sent for the call. */
  cognitoCalls: number;
  /** Items of the page (`items`; analytics: its per-tenant rows). */
  items: number;
  /** A next page exists (`nextCursor`). */
  hasMore: boolean;
  wallMs: number;
  responseBytes: number;
}

/** The ×1,000-tenants point of the scale section (docs/benchmarks.md#scale). */
export interface ScaleTenantsPoint {
  tenants: number;
  /** Items written (BatchWriteItem) and how long that took, ms. */
  items: number;
  generateMs: number;
  views: ScaleTenantView[];
}

export interface ScaleResults {
  /** Ordered by factor. */
  runs: ScaleRun[];
  /** The ×1,000-tenants point (absent in results written before it). */
  tenants?: ScaleTenantsPoint | null;
  /**
   * WCU per write measured at ×1 before the write-time aggregates (`bench/reference/write-wcu.json`, copied
   * in when measured); null when that file was missing.
   */
  writeBaseline: { measuredAt: string; commit: string; wcu: Record<string, number> } | null;
}

/** One key of the fleet section's hot-key tables (`fleet.ts`). */
export interface FleetHotKey {
  /** `PK | SK` of an item, or `PK` of a partition. */
  key: string;
  /** `device`: one device's items; `tenant`: a tenant's shared items (their rates grow with the tenant's fleet). */
  scope: 'device' | 'tenant';
  /** Highest WCU / writes in one simulated second, at the run's scale. */
  peakWcuPerSecond: number;
  peakWritesPerSecond: number;
  /** Mean WCU / writes per second projected to the full fleet (fleet.ts module doc). */
  projectedWcuPerSecond: number;
  projectedWritesPerSecond: number;
}

/** Writes of one item class per measured heartbeat (e.g. `tenant:STATS#HB`). */
export interface FleetItemClass {
  itemClass: string;
  writesPerHeartbeat: number;
  /** Table WCU per heartbeat (index WCU apart: `FleetResults.perHeartbeat.indexWriteUnits`). */
  wcuPerHeartbeat: number;
}

/** The fleet section (issue 28; `fleet.ts`): a simulated collector fleet on the ingest path under DynamoDB's rules. */
export interface FleetResults {
  /** 1 = full size (100,000 devices, 1,000 tenants, one of 50,000). */
  scale: number;
  tenants: number;
  devices: number;
  largestTenantDevices: number;
  /** Measured simulated minutes (a warm-up minute precedes them). */
  minutes: number;
  batchSize: number;
  /** Batches sent (first attempts), warm-up included. */
  batches: number;
  /** Heartbeats sent (warm-up included) = applied + replayed + lost. */
  sent: number;
  applied: number;
  /** Answered `replay` (a resent entry that had been applied). */
  replayed: number;
  /** Entries answered with an error after the collector's resends (reported lost). */
  errored: number;
  /** sent − applied − replayed. */
  lost: number;
  /** Entries sent again after SERVICE_UNAVAILABLE or a 5xx batch. */
  resent: number;
  /** Devices whose stored heartbeat item does not hold the last `at` sent. */
  storedMismatch: number;
  /** Heartbeats of the measured minutes (the denominator of `perHeartbeat`). */
  measuredHeartbeats: number;
  /** Per measured heartbeat (each opens a new UTC minute): DynamoDB requests and units. */
  perHeartbeat: { requests: number; readUnits: number; writeUnits: number; indexWriteUnits: number; byOperation: Record<string, number> };
  itemClasses: FleetItemClass[];
  /** Top 10 by projected WCU/s. */
  hottestPartitions: FleetHotKey[];
  /** Top 10 by projected writes/s. */
  hottestItems: FleetHotKey[];
  /** What the rules proxy refused during the run (each a conflict or throttle the handler met). */
  rules: {
    transactionConflicts: number;
    singleItemTransactionConflicts: number;
    throttledReads: number;
    throttledWrites: number;
    unprocessedByThrottling: number;
    /** The proxy's own hottest partitions (peak units per WALL-clock second). */
    hottestWallClockPartitions: { partition: string; peakReadUnitsPerSecond: number; peakWriteUnitsPerSecond: number }[];
  };
  /** The aggregates' drift check (`rebuildTenantAggregates`, write: false) of every tenant afterwards. */
  drift: { tenantsChecked: number; tenantsWithDrift: number; entries: number };
  /** Handler time of one batch (first attempts of the measured minutes), in process on the local engine, ms. */
  lambdaMsPerBatch: { p50: number; mean: number };
  wallMs: number;
  /** Measured heartbeats per wall-clock second (the compression the machine achieved). */
  heartbeatsPerWallSecond: number;
}

export interface MachineInfo {
  cpuModel: string;
  cores: number;
  memoryGb: number;
  node: string;
  os: string;
  chromium: string | null;
}

/** Current version of the results file. v2: Lambda cold start per process (`coldStartMs`) + per-section `measuredAt`. */
export const RESULTS_SCHEMA = 2;

/**
 * The parts `--only` selects; `api` also measures the DynamoDB cost (`cost`), `lambda` fills `coldStart`,
 * `scale` fills `scale` (the longest: it generates up to 5,000 devices' data; `--scales` picks the factors),
 * `fleet` fills `fleet` (issue 28; opt-in: not in `DEFAULT_SECTIONS`, its budgets fail until the heartbeat redesign).
 */
export const SECTIONS = ['portal', 'api', 'lambda', 'scale', 'fleet'] as const;
export type Section = (typeof SECTIONS)[number];

/** What `npm run bench` measures without `--only`: every section but `fleet` (run it with `--only fleet`). */
export const DEFAULT_SECTIONS: readonly Section[] = SECTIONS.filter((s) => s !== 'fleet');

export interface BenchResults {
  schema: typeof RESULTS_SCHEMA;
  /** Start of the run that wrote the file, ISO-8601 UTC. */
  startedAt: string;
  /** Duration of that run, ms. */
  durationMs: number;
  machine: MachineInfo;
  /**
   * When each section's figures were measured, ISO-8601 UTC (start of the run that measured it). Differs
   * between sections when a `--only` run was merged into an earlier full run; absent = never measured.
   */
  measuredAt: Partial<Record<Section, string>>;
  portal: PortalResults | null;
  api: ApiRouteLoad[] | null;
  coldStart: ColdStartResults | null;
  cost: CostResults | null;
  /** The scale section (docs/benchmarks.md#scale); absent in files written before it existed. */
  scale?: ScaleResults | null;
  /** The fleet section (docs/benchmarks.md#fleet); absent when never measured. */
  fleet?: FleetResults | null;
  /** Sections (by `Section` name) that failed in whole or in part, with the reason. */
  errors: Partial<Record<Section, string>>;
}

/**
 * A results file read back (`--from`, or the previous `latest.json` a `--only` run merges into).
 * @param json the parsed JSON.
 * @param source where it came from, for the error message.
 * @throws Error for schema 1 (its Lambda figure was the in-process import only, not comparable) or any
 *   other schema than `RESULTS_SCHEMA`, naming the file and what to do.
 */
export function parseResults(json: unknown, source: string): BenchResults {
  const schema = (json as { schema?: unknown } | null)?.schema;
  if (schema === RESULTS_SCHEMA) return json as BenchResults;
  if (schema === 1)
    throw new Error(
      `${source} is a schema 1 bench result: its Lambda figure is the in-process import time only, while schema ${RESULTS_SCHEMA} budgets the cold start of a fresh Node process. Re-run npm run bench to get a schema ${RESULTS_SCHEMA} file.`,
    );
  throw new Error(`${source} is not a bench result of schema ${RESULTS_SCHEMA} (schema: ${JSON.stringify(schema)}).`);
}

const SAME_MACHINE_FIELDS = ['cpuModel', 'cores', 'memoryGb', 'node', 'os'] as const;

/**
 * Merges a partial run (`--only`) into the previous results: the sections in `measured` come from
 * `current` (figures, `measuredAt`, errors — even when they failed), every other section is kept from
 * `previous` with its own `measuredAt` and error, and the portal's `machine.chromium` goes with the portal
 * section. `startedAt`/`durationMs` are the current run's. Pure; inputs are not modified.
 *
 * Nothing is kept (the result is `current` alone) when there is no previous file or it was measured on
 * another machine or Node version (`note` says which): same-machine figures only.
 */
export function mergeResults(previous: BenchResults | null, current: BenchResults, measured: ReadonlySet<Section>): { results: BenchResults; kept: Section[]; note: string | null } {
  if (!previous) return { results: current, kept: [], note: null };
  const differs = SAME_MACHINE_FIELDS.filter((k) => previous.machine[k] !== current.machine[k]);
  if (differs.length) return { results: current, kept: [], note: `previous results not kept: measured with a different ${differs.join(', ')}` };
  const out: BenchResults = structuredClone(current);
  const kept: Section[] = [];
  for (const s of SECTIONS) {
    if (measured.has(s) || previous.measuredAt[s] === undefined) continue;
    kept.push(s);
    out.measuredAt[s] = previous.measuredAt[s];
    if (previous.errors[s] !== undefined) out.errors[s] = previous.errors[s];
    else delete out.errors[s];
    if (s === 'portal') {
      out.portal = structuredClone(previous.portal);
      out.machine.chromium = previous.machine.chromium;
    } else if (s === 'api') {
      out.api = structuredClone(previous.api);
      out.cost = structuredClone(previous.cost);
    } else if (s === 'scale') out.scale = structuredClone(previous.scale ?? null);
    else if (s === 'fleet') out.fleet = structuredClone(previous.fleet ?? null);
    else out.coldStart = structuredClone(previous.coldStart);
  }
  return { results: out, kept, note: null };
}
