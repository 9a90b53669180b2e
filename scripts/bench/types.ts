/**
 * Shape of `bench/results/latest.json`, the output of `npm run bench` and the input of the budget check
 * (`budgets.ts`). Units are in the field names: `Ms` milliseconds, `Bytes` bytes, `Rps` requests per
 * second; capacity in DynamoDB read/write capacity units (RCU/WCU). Every measured figure has a reference
 * measured in the same run next to it, because the machines are shared and noisy (issue 6).
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
  /** The first Query the route's handler issued, replayed against the engine; null if it issued none. */
  engine: LoadFigures | null;
}

export interface ColdStartBundle {
  name: string;
  bytes: number;
  /** Median time to `import()` the bundle in a fresh Node process, ms. */
  importMs: number;
  runs: number;
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

export interface MachineInfo {
  cpuModel: string;
  cores: number;
  memoryGb: number;
  node: string;
  os: string;
  chromium: string | null;
}

export interface BenchResults {
  schema: 1;
  /** ISO-8601 UTC. */
  startedAt: string;
  durationMs: number;
  machine: MachineInfo;
  portal: PortalResults | null;
  api: ApiRouteLoad[] | null;
  coldStart: {
    empty: ColdStartBundle;
    handlers: ColdStartBundle[];
    /** Diagnostic, not budgeted: empty handler importing only `@aws-sdk/client-dynamodb` + `lib-dynamodb`. */
    sdkOnly?: ColdStartBundle;
  } | null;
  cost: CostResults | null;
  /** Sections that failed to run, with the reason. */
  errors: Record<string, string>;
}
