/**
 * API figures over a running local stack (`scripts/local/stack.ts`): DynamoDB cost per route and load
 * (autocannon through the local gateway vs the same Query replayed on the engine from one Node process;
 * see `EngineClient` for the two clients).
 *
 * Routes come from the route table (`lambdas/contract/routes.ts`), so new routes are picked up:
 *  - list route   = GET without path parameters whose response has `items` (e.g. `/incidents`);
 *  - detail route = GET with path parameters, filled from the first item of the list route on the
 *    parent path (`/incidents/{id}` ← `items[0].id` of `/incidents`; a parameter named like a field of
 *    that item takes the field, e.g. `{deviceId}` ← `items[0].deviceId`, else `items[0].id`);
 *  - other GETs are costed but not loaded; writes are costed when a typical body is known (`WRITE_CALLS`).
 *    The staff administration lists that read the Cognito user pool (`USER_POOL_LISTS`) are "other": their
 *    cost is Cognito calls plus one count per tenant (docs/api.md#administration), not a page of one Query,
 *    so the list budgets (vs a raw engine Query) do not describe them.
 *
 * Consumed capacity is captured without touching the handlers' normal path: while benchmarking, the
 * document client of the stack's repository (`stack.repositoryTable`, the one the in-process handlers use)
 * is wrapped so each operation sets `ReturnConsumedCapacity: TOTAL`, and its name, input and `ConsumedCapacity` are recorded
 * (DynamoDB API reference, "ReturnConsumedCapacity").
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { ADMIN_GROUP, ROUTES, buildPath, type RouteDef } from '../../lambdas/contract/routes.js';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createDocumentClient, wrapTableClient, type ConsumedCapacity, type DocumentClient, type QueryInput, type TableRef } from '../../lambdas/data/table/client.js';
import { sdkDocumentClient } from '../../lambdas/data/table/sdk-client.js';
import type { RunningLocalStack } from '../local/stack.js';
import { signInWithSrp } from '../local/cognito/sign-in.js';
import { totpCode } from '../local/demo-totp.js';
import { percentile } from './stats.js';
import type { ApiRouteLoad, LoadFigures, RouteCost } from './types.js';

/** Staff lists served from the Cognito user pool (see module doc): costed, not list-budgeted. */
const USER_POOL_LISTS: ReadonlySet<string> = new Set(['listStaff', 'listTenantSummaries']);

/** One DynamoDB operation seen by the capture wrapper. */
export interface CapturedOp {
  commandName: string;
  /** Document-client input (native JS values), as the repository sent it. */
  input: Record<string, unknown>;
  readUnits: number;
  writeUnits: number;
}

let captured: CapturedOp[] = [];

/** The operations recorded by the capture wrapper since the last call (and forgets them). */
export function takeCaptured(): CapturedOp[] {
  const out = captured;
  captured = [];
  return out;
}

/**
 * Wraps the handlers' document client (`wrapTableClient` on `table`) so every operation asks for
 * `ReturnConsumedCapacity: TOTAL` and is recorded with its input (without that option) and units.
 * Returns the function that removes the wrapper (the load pass must run on the handlers' normal path).
 */
export function installCapacityCapture(table: TableRef): () => void {
  return wrapTableClient(table, (inner): DocumentClient => ({
    async send(operation, input) {
      const out = await inner.send(operation, { ...input, ReturnConsumedCapacity: 'TOTAL' });
      const consumed = (out as { ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[] }).ConsumedCapacity;
      const caps = Array.isArray(consumed) ? consumed : consumed ? [consumed] : [];
      const isWrite = operation !== 'Query' && operation !== 'GetItem' && operation !== 'BatchGetItem';
      let readUnits = 0;
      let writeUnits = 0;
      for (const c of caps) {
        readUnits += c.ReadCapacityUnits ?? (isWrite ? 0 : (c.CapacityUnits ?? 0));
        writeUnits += c.WriteCapacityUnits ?? (isWrite ? (c.CapacityUnits ?? 0) : 0);
      }
      captured.push({ commandName: operation, input: structuredClone(input) as unknown as Record<string, unknown>, readUnits, writeUnits });
      return out;
    },
    destroy: () => inner.destroy(),
  }));
}

/** Signs in with SRP on the local user pool (the portal's app client allows only SRP and refresh) and returns the ID token. */
export async function idTokenFor(stack: RunningLocalStack, email: string, password: string): Promise<string> {
  const cip = new CognitoIdentityProviderClient({ region: stack.config.region, endpoint: stack.urls.cognito, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  try {
    // The demo admin has TOTP set up (docs/api.md#staff-accounts-and-totp): answer its challenge.
    const secret = stack.demoUsers.find((u) => u.email === email)?.totpSecret;
    const res = await signInWithSrp(cip, { userPoolId: stack.config.userPoolId, clientId: stack.config.userPoolClientId, username: email, password, totpCode: secret ? () => totpCode(secret) : undefined });
    if (!res.IdToken) throw new Error(`no ID token for ${email}`);
    return res.IdToken;
  } finally {
    cip.destroy();
  }
}

/** Typical bodies of write routes, by operation id (`{id}` filled like detail routes). */
export const WRITE_CALLS: Record<string, (item: Record<string, unknown> | undefined) => unknown> = {
  createIncident: () => ({ title: 'Bench: acceso sospechoso', description: 'Incidente creado por el benchmark.', severity: 'low', category: 'general' }),
  updateIncident: (item) => ({ version: item?.version, severity: item?.severity === 'low' ? 'medium' : 'low' }),
  addIncidentComment: () => ({ body: 'Comentario del benchmark.' }),
};

export interface PlannedCall {
  route: RouteDef;
  kind: 'list' | 'detail' | 'other';
  url: string;
  token: string;
  body?: string;
}

export interface ApiContext {
  stack: RunningLocalStack;
  customerToken: string;
  adminToken: string;
}

async function call(url: string, token: string, method = 'GET', body?: string): Promise<{ status: number; text: string }> {
  const res = await fetch(url, { method, headers: { Authorization: token, ...(body ? { 'Content-Type': 'application/json' } : {}) }, body: body ?? null });
  return { status: res.status, text: await res.text() };
}

const hasParams = (p: string) => p.includes('{');
/**
 * Path parameters of `path` from the first items of the list routes (`firstItems`: list path → item).
 * A parameter takes the item's same-named field; `id`, or the last parameter, falls back to the item's
 * `id`. The list on the parent path (`/incidents` for `/incidents/{id}`) is tried first. Null when no
 * list item fills every parameter.
 */
export function fillParams(path: string, firstItems: Map<string, Record<string, unknown>>): { params: Record<string, string>; item: Record<string, unknown> } | null {
  const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const parent = path.slice(0, path.indexOf('/{'));
  const candidates = [...firstItems].sort(([a], [b]) => Number(b === parent) - Number(a === parent)).map(([, item]) => item);
  for (const item of candidates) {
    const params: Record<string, string> = {};
    for (const [i, n] of names.entries()) {
      const v = item[n] ?? (n === 'id' || i === names.length - 1 ? item.id : undefined);
      if (typeof v !== 'string' && typeof v !== 'number') break;
      params[n] = String(v);
    }
    if (Object.keys(params).length === names.length) return { params, item };
  }
  return null;
}

/**
 * Runs one typical call per route (GETs first, then writes) with the capture wrapper on, and returns
 * each route's cost plus the planned GET calls (for the load pass). The list routes' `items[0]` feed the
 * detail routes' path parameters.
 */
export async function measureCosts(ctx: ApiContext, log: (l: string) => void = () => undefined): Promise<{ costs: RouteCost[]; calls: PlannedCall[]; queries: Map<string, QueryInput> }> {
  const uninstall = installCapacityCapture(ctx.stack.repositoryTable);
  try {
    return await costEveryRoute(ctx, log);
  } finally {
    uninstall();
  }
}

async function costEveryRoute(ctx: ApiContext, log: (l: string) => void): Promise<{ costs: RouteCost[]; calls: PlannedCall[]; queries: Map<string, QueryInput> }> {
  const api = ctx.stack.urls.api;
  const tokenFor = (r: RouteDef) => (r.groups.includes(ADMIN_GROUP) ? ctx.adminToken : ctx.customerToken);
  const firstItem = new Map<string, Record<string, unknown>>();
  const costs: RouteCost[] = [];
  const calls: PlannedCall[] = [];
  const queries = new Map<string, QueryInput>();
  const ordered = [...ROUTES.filter((r) => r.method === 'GET' && !hasParams(r.path)), ...ROUTES.filter((r) => r.method === 'GET' && hasParams(r.path)), ...ROUTES.filter((r) => r.method !== 'GET')] as RouteDef[];

  for (const route of ordered) {
    let body: string | undefined;
    if (route.method !== 'GET' && !WRITE_CALLS[route.operationId]) {
      log(`cost: skipped ${route.operationId} (no typical body known)`);
      continue;
    }
    let url = api + route.path;
    let item: Record<string, unknown> | undefined;
    if (hasParams(route.path)) {
      const filled = fillParams(route.path, firstItem);
      if (!filled) {
        log(`cost: skipped ${route.operationId} (no list item to fill ${route.path})`);
        continue;
      }
      item = filled.item;
      url = api + buildPath(route.path, filled.params);
    }
    if (route.method !== 'GET') body = JSON.stringify(WRITE_CALLS[route.operationId]!(item));
    captured = [];
    const res = await call(url, tokenFor(route), route.method, body);
    const ops = captured;
    captured = [];
    let parsed: unknown;
    try {
      parsed = JSON.parse(res.text);
    } catch {
      parsed = undefined;
    }
    const items = (parsed as { items?: unknown } | undefined)?.items;
    const isList = route.method === 'GET' && !hasParams(route.path) && Array.isArray(items) && !USER_POOL_LISTS.has(route.operationId);
    if (isList && (items as unknown[]).length > 0) firstItem.set(route.path, (items as Record<string, unknown>[])[0]!);
    const sum = (k: 'readUnits' | 'writeUnits') => Math.round(ops.reduce((a, o) => a + o[k], 0) * 100) / 100;
    costs.push({
      operationId: route.operationId,
      method: route.method,
      path: route.path,
      status: res.status,
      readUnits: sum('readUnits'),
      writeUnits: sum('writeUnits'),
      commands: ops.map((o) => o.commandName),
      responseBytes: Buffer.byteLength(res.text),
      list: isList,
      pageItems: isList ? (items as unknown[]).length : null,
    });
    const q = ops.find((o) => o.commandName === 'Query');
    if (q) {
      queries.set(route.operationId, q.input as unknown as QueryInput);
      if (process.env.VIGIA_BENCH_DEBUG) log(`${route.operationId} query ${JSON.stringify(q.input)}`);
    }
    if (route.method === 'GET' && res.status === 200 && (isList || hasParams(route.path)))
      calls.push({ route, kind: isList ? 'list' : 'detail', url, token: tokenFor(route) });
  }
  return { costs, calls, queries };
}

interface AutocannonJson {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}

/** Runs autocannon in a child process (so the load generator does not share the gateway's event loop). */
function autocannon(url: string, token: string, connections: number, seconds: number): Promise<LoadFigures> {
  const bin = createRequire(import.meta.url).resolve('autocannon/autocannon.js');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, '-j', '-c', String(connections), '-d', String(seconds), '-H', `Authorization=${token}`, url], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      try {
        const j = JSON.parse(out) as AutocannonJson;
        resolve({ rps: Math.round(j.requests.total / seconds), p50Ms: j.latency.p50, p99Ms: j.latency.p99, requests: j.requests.total, errors: j.errors + j.timeouts + j.non2xx });
      } catch {
        reject(new Error(`autocannon exited ${code}: ${err.slice(0, 300)}`));
      }
    });
  });
}

/**
 * Which Node client sends the engine's Query: `sdk` — the AWS SDK v3 document client, the standard way a
 * Node program drives DynamoDB and the way the engine ceiling was measured (the budgeted reference: it
 * does not move when the handlers' own client changes); `handlers` — the handlers' own aws-lite client
 * (diagnostic: isolates what the gateway, Powertools router and handler code add). Why:
 * docs/benchmarks.md#api-the-routes-query-on-the-engine-aws-sdk-v3.
 */
export type EngineClient = 'sdk' | 'handlers';

/** Sends the document-client Query `input` as fast as possible with `concurrency` workers for `seconds`; per-request latencies. */
async function engineLoad(endpoint: string, region: string, input: QueryInput, concurrency: number, seconds: number, which: EngineClient): Promise<LoadFigures> {
  const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
  const client =
    which === 'sdk'
      ? sdkDocumentClient(new DynamoDBClient({ endpoint, region, credentials, maxAttempts: 1 }))
      : createDocumentClient({ endpoint, region, credentials, retries: 0 });
  const lat: number[] = [];
  let errors = 0;
  try {
    await client.send('Query', input); // warm the connection
    const end = performance.now() + seconds * 1000;
    const worker = async () => {
      while (performance.now() < end) {
        const t = performance.now();
        try {
          await client.send('Query', input);
          lat.push(performance.now() - t);
        } catch {
          errors++;
        }
      }
    };
    const t0 = performance.now();
    await Promise.all(Array.from({ length: concurrency }, worker));
    const elapsed = (performance.now() - t0) / 1000;
    const round = (v: number) => Math.round(v * 100) / 100;
    return { rps: Math.round(lat.length / elapsed), p50Ms: round(percentile(lat, 50)), p99Ms: round(percentile(lat, 99)), requests: lat.length, errors };
  } finally {
    client.destroy();
  }
}

/**
 * Load pass: for each planned list/detail call and each concurrency, autocannon through the gateway, then
 * the route's first Query on the engine (same key condition, index, limit and order) from this process, with
 * the AWS SDK v3 (budgeted reference) and with the handlers' own client (diagnostic); see `EngineClient`.
 */
export async function measureLoad(
  ctx: ApiContext,
  calls: PlannedCall[],
  queries: Map<string, QueryInput>,
  opts: { concurrencies?: number[]; seconds?: number; log?: (l: string) => void } = {},
): Promise<ApiRouteLoad[]> {
  const out: ApiRouteLoad[] = [];
  const seconds = opts.seconds ?? 4;
  for (const c of calls) {
    if (c.kind === 'other') continue;
    const q = queries.get(c.route.operationId);
    await autocannon(c.url, c.token, 2, 1); // warm-up (JIT, JWKS cache, connections)
    for (const concurrency of opts.concurrencies ?? [1, 16]) {
      const gateway = await autocannon(c.url, c.token, concurrency, seconds);
      const engine = q ? await engineLoad(ctx.stack.urls.dynamodb, ctx.stack.config.region, q, concurrency, seconds, 'sdk') : null;
      const engineHandlersClient = q ? await engineLoad(ctx.stack.urls.dynamodb, ctx.stack.config.region, q, concurrency, seconds, 'handlers') : null;
      const fig = (f: LoadFigures | null) => (f ? `${f.rps} req/s p99 ${f.p99Ms} ms` : '–');
      opts.log?.(`api ${c.route.operationId} c=${concurrency}: gateway ${fig(gateway)}; engine (SDK v3) ${fig(engine)}; engine (handlers' client) ${fig(engineHandlersClient)}`);
      out.push({ operationId: c.route.operationId, method: c.route.method, path: c.route.path, kind: c.kind, concurrency, gateway, engine, engineHandlersClient });
    }
  }
  return out;
}
