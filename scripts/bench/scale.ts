/**
 * The scale section of `npm run bench` (docs/benchmarks.md#scale): what one API call and one portal page
 * cost when a customer is 1, 10 or 100 times the demo size, and the staff views when the platform has 1,000
 * small tenants (`scale-tenants.ts`).
 *
 * For each factor: a fresh local stack (in-memory engine, demo data, no collector), the scale tenant
 * written beside the demo tenants by `scale-data.ts`, a customer user of that tenant and the demo staff
 * user signed in; then, with the capacity capture of `api.ts` on the handlers' document client —
 *  - every GET route of the route table (`lambdas/contract/routes.ts`, so a new route is measured without
 *    a change here) with the variants the screens use (`ROUTE_VARIANTS`: filters, search, report periods),
 *    as the customer, or as staff for staff-only routes;
 *  - every page view of `scale-pages.ts` (its calls at once, as the page's hooks make them);
 *  - the typical writes (`WRITES`): open, update and comment an incident, raise / acknowledge / clear a
 *    device alarm, a heartbeat.
 * Each call records its DynamoDB requests, consumed RCU/WCU, wall time (ms) and response size (bytes).
 *
 * Figures are those of a warm Lambda container: a container remembers for 60 s that a tenant is registered
 * (one GetItem otherwise, `lambdas/http/api.ts`), so before a call whose handler has not been called for
 * `WARM_MS`, the same GET (for a write: the handler's first list route) is sent once unmeasured. Otherwise
 * that GetItem would land on whichever call comes first after a long one and make its figures differ
 * between scales by chance.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CognitoIdentityProviderClient, CreateGroupCommand } from '@aws-sdk/client-cognito-identity-provider';
import { ADMIN_GROUP, ROUTES, buildPath, routeById, type HandlerName, type OperationId, type RouteDef } from '../../lambdas/contract/routes.js';
import { setTenantCollector } from '../../lambdas/data/tenants.js';
import { collectorPrincipal } from '../../lambdas/domain/collectors.js';
import { formatIncidentId } from '../../lambdas/domain/incidents.js';
import { signCollectorRequest } from '../local/collector-auth.js';
import { DEMO_PASSWORD, DEMO_USERS } from '../local/demo-data.js';
import { DEMO_REGION, LOCAL_COLLECTOR_CREDENTIAL, LOCAL_OPERATOR_CREDENTIAL, REPO_ROOT, localTable } from '../local/config.js';
import { seedCognito } from '../local/seed.js';
import { freePort, startLocalStack, type RunningLocalStack } from '../local/stack.js';
import { fillParams, idTokenFor, installCapacityCapture, takeCaptured, type CapturedOp } from './api.js';
import { summarize } from './report.js';
import { beatLiveDevices, generateScaleTenant, scaleDeviceName, scaleSpec, SCALE_FACTORS, type GenerateStats } from './scale-data.js';
import { lastDays, PAGE_VIEWS, type PageContext, type PageView } from './scale-pages.js';
import { measureTenantsPoint, TENANTS_POINT } from './scale-tenants.js';
import type { ScaleCall, ScalePageView, ScaleResults, ScaleRun } from './types.js';

/** `bench/reference/write-wcu.json`: WCU per write at ×1 before the write-time aggregates (the write budget's reference). */
export const WRITE_BASELINE_FILE = path.join(REPO_ROOT, 'bench/reference/write-wcu.json');

/** What the variants of a route get: the page context plus an old incident of the tenant. */
export interface VariantContext extends PageContext {
  /** An incident created about a year before `now` (an exact-id search must find it). */
  oldIncidentId: string;
}

/** One way a screen calls a GET route. */
export interface RouteVariant {
  /** Appended to the operation id in the call's id (`listIncidents status=on_hold`); '' = the plain call. */
  label: string;
  /** Query besides `tenant`. */
  query?: (c: VariantContext) => Record<string, string>;
  /** Who calls (default: staff for staff-only routes, else the customer). */
  as?: 'customer' | 'admin';
  /**
   * A poll with nothing changed: the call is sent once unmeasured, then measured with its `ETag` as
   * `If-None-Match` (the portal's fetcher does the same; expected 304).
   */
  ifNoneMatch?: true;
  /**
   * With `ifNoneMatch`: this many devices of the tenant (`dev-00001`…) beat through `POST /ingest/heartbeats/batch`
   * before the ETag is taken (now) and again between it and the measured poll (a minute later: each opens a new
   * UTC minute, recorded on the device, the histogram and the days, with the statuses unchanged) — an idle
   * dashboard while the collectors work (expected 304).
   */
  beatingDevices?: number;
}

/**
 * The variants the screens use, by operation; a GET route not listed is called once without a query
 * (plus `tenant` when tenant-scoped).
 */
export const ROUTE_VARIANTS: Partial<Record<OperationId, RouteVariant[]>> = {
  listIncidents: [
    { label: '' },
    { label: 'status=new,in_progress,on_hold', query: () => ({ status: 'new,in_progress,on_hold' }) },
    { label: 'status=on_hold', query: () => ({ status: 'on_hold' }) },
    { label: 'severity=critical', query: () => ({ severity: 'critical' }) },
    { label: 'q=text', query: (c) => ({ q: c.searchText, limit: '20' }) },
    { label: 'q=device name', query: (c) => ({ q: c.deviceName, limit: '10' }) },
    { label: 'q=incident id (1 year old)', query: (c) => ({ q: c.oldIncidentId, limit: '20' }) },
  ],
  // The name's site part (`MAD-`): the screens' prefix search; a page of 20 at every scale (scale-data.ts).
  listDevices: [{ label: '' }, { label: 'prefix=name', query: (c) => ({ prefix: c.deviceName.slice(0, 4).toLowerCase(), limit: '20' }) }],
  listAlarms: [{ label: '' }, { label: 'state=active,acknowledged', query: () => ({ state: 'active,acknowledged' }) }],
  listOffice365Alarms: [{ label: '' }, { label: 'status=active', query: () => ({ status: 'active' }) }],
  getReport: [7, 30, 365].map((d) => ({ label: `${d}d`, query: lastDays(d) })),
  getAnalytics: [{ label: '365d', query: lastDays(365) }],
  getSummary: [
    { label: '' },
    { label: 'poll unchanged (If-None-Match)', ifNoneMatch: true },
    { label: 'poll unchanged while devices beat (If-None-Match)', ifNoneMatch: true, beatingDevices: 100 },
  ],
  listAuditLog: [{ label: '' }, { label: 'all tenants (staff)', as: 'admin' }],
  // The search routes need `q` (400 without): a word of the generated comments (every first response says it),
  // an alarm title's two words, a user name part (docs/api.md#comment-search, #alarm-search, #office-365-user-search).
  searchComments: [{ label: 'q=text', query: () => ({ q: 'contención', limit: '20' }) }],
  searchAlarms: [{ label: 'q=two words', query: () => ({ q: 'interfaz wan', limit: '20' }) }],
  searchOffice365Users: [{ label: 'q=name', query: () => ({ q: 'marta', limit: '20' }) }],
};

/** The writes measured, in the order they run (each may use what the previous ones created). */
export const WRITES = ['createIncident', 'updateIncident', 'addIncidentComment', 'ingestDeviceAlarm raise', 'acknowledgeAlarm', 'ingestDeviceAlarm clear', 'ingestHeartbeat', 'ingestHeartbeat same minute'] as const;

interface Ctx {
  stack: RunningLocalStack;
  tokens: { customer: string; admin: string };
  vc: VariantContext;
  /** When each handler was last called (ms since epoch): see `warm`. */
  lastCall: Map<HandlerName, number>;
}

/** A handler not called for this long gets an unmeasured call first (its tenant-registry cache lasts 60 s), ms. */
export const WARM_MS = 45_000;

/**
 * Makes `handler`'s container warm for the next measured call: when it was not called for `WARM_MS`, sends
 * `replay` once (its operations are discarded by the caller's `takeCaptured()`). Records the call time.
 */
async function warm(ctx: Ctx, handler: HandlerName, replay: () => Promise<unknown>): Promise<void> {
  const last = ctx.lastCall.get(handler);
  if (last === undefined || Date.now() - last > WARM_MS) await replay();
  ctx.lastCall.set(handler, Date.now());
}

interface HttpResult {
  status: number;
  text: string;
  wallMs: number;
  /** The `ETag` response header, if any. */
  etag?: string | undefined;
}

async function http(url: string, init: { method?: string; headers?: Record<string, string>; body?: string }): Promise<HttpResult> {
  const t = performance.now();
  try {
    const res = await fetch(url, { method: init.method ?? 'GET', headers: init.headers ?? {}, body: init.body ?? null });
    const text = await res.text();
    return { status: res.status, text, wallMs: performance.now() - t, etag: res.headers.get('etag') ?? undefined };
  } catch (e) {
    return { status: 0, text: e instanceof Error ? e.message : String(e), wallMs: performance.now() - t };
  }
}

const round2 = (v: number) => Math.round(v * 100) / 100;
const sumOps = (ops: CapturedOp[], k: 'readUnits' | 'writeUnits') => round2(ops.reduce((a, o) => a + o[k], 0));

/** A `ScaleCall` from one HTTP call and the DynamoDB operations it issued. */
function callOf(id: string, route: RouteDef, res: HttpResult, ops: CapturedOp[]): ScaleCall {
  return {
    id,
    operationId: route.operationId,
    method: route.method,
    path: route.path,
    status: res.status,
    requests: ops.length,
    readUnits: sumOps(ops, 'readUnits'),
    writeUnits: sumOps(ops, 'writeUnits'),
    operations: summarize(ops.map((o) => o.commandName)),
    wallMs: Math.round(res.wallMs),
    responseBytes: Buffer.byteLength(res.text),
  };
}

const tokenFor = (ctx: Ctx, route: RouteDef, as?: 'customer' | 'admin') => ctx.tokens[as ?? (route.groups.includes(ADMIN_GROUP) ? 'admin' : 'customer')];

/** URL of `route` with `query` (plus `tenant` when tenant-scoped) and path `params`. */
function urlOf(ctx: Ctx, route: RouteDef, query: Record<string, string>, params: Record<string, string> = {}): string {
  const q = new URLSearchParams({ ...(route.tenantScoped ? { tenant: ctx.vc.tenantId } : {}), ...query });
  const s = q.toString();
  return `${ctx.stack.urls.api}${buildPath(route.path, params)}${s ? `?${s}` : ''}`;
}

/** GET routes a portal page may call (not the collectors' IAM routes), lists first so details can be filled. */
export function scaleGetRoutes(): RouteDef[] {
  const gets = (ROUTES as readonly RouteDef[]).filter((r) => r.method === 'GET' && (r.auth ?? 'cognito') === 'cognito');
  return [...gets.filter((r) => !r.path.includes('{')), ...gets.filter((r) => r.path.includes('{'))];
}

/**
 * The UTC month before the one of `nowMs`, `yyyy-mm`: the month `GET /reports/monthly/{month}` is measured
 * for — the one the report e-mail of the 1st sends (docs/api.md#monthly-report), complete in the scale data.
 */
export function previousMonth(nowMs: number): string {
  const d = new Date(nowMs);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
}

/** Every GET route and its variants, one call each. */
async function measureRoutes(ctx: Ctx, log: (l: string) => void): Promise<ScaleCall[]> {
  const out: ScaleCall[] = [];
  const firstItems = new Map<string, Record<string, unknown>>();
  const emptyLists = new Set<string>();
  for (const route of scaleGetRoutes()) {
    let params: Record<string, string> = {};
    const names = [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
    if (names.length) {
      if (names.length === 1 && names[0] === 'tenantId') params = { tenantId: ctx.vc.tenantId };
      else if (names.length === 1 && names[0] === 'month') params = { month: previousMonth(ctx.vc.now) };
      else {
        // A detail route under a list that answered no item (e.g. /webhooks of a tenant without webhooks) has
        // nothing to name: another list's id would only measure a 400.
        const parent = route.path.slice(0, route.path.indexOf('/{'));
        if (emptyLists.has(parent)) {
          log(`scale: skipped ${route.operationId} (${parent} has no item to fill ${route.path})`);
          continue;
        }
        const filled = fillParams(route.path, firstItems);
        if (!filled) {
          log(`scale: skipped ${route.operationId} (no list item to fill ${route.path})`);
          continue;
        }
        params = filled.params;
      }
    }
    for (const v of ROUTE_VARIANTS[route.operationId as OperationId] ?? [{ label: '' }]) {
      let headers: Record<string, string> = { Authorization: tokenFor(ctx, route, v.as) };
      const send = () => http(urlOf(ctx, route, v.query?.(ctx.vc) ?? {}, params), { headers });
      await warm(ctx, route.handler, send);
      const beat = async (at: number) => {
        const n = Math.min(v.beatingDevices ?? 0, 100);
        if (!n) return;
        // Devices from dev-00002 on: dev-00001 is the writes' device (`measureWrites`), whose heartbeat at "now"
        // must open a new minute — a poll beat a minute ahead made it a stale heartbeat that wrote nothing.
        const heartbeats = Array.from({ length: n }, (_, i) => ({ eventId: `bench-poll-${at}-${i}`, tenantId: ctx.vc.tenantId, deviceId: `dev-${String(i + 2).padStart(5, '0')}`, at: new Date(at).toISOString() }));
        const url = `${ctx.stack.urls.api}${routeById('ingestHeartbeatBatch').path}`;
        const text = JSON.stringify({ heartbeats });
        const signed = await signCollectorRequest(LOCAL_COLLECTOR_CREDENTIAL, { method: 'POST', url, body: text, headers: { 'content-type': 'application/json' } });
        const res = await http(url, { method: 'POST', headers: signed, body: text });
        if (res.status !== 200) throw new Error(`scale: heartbeat batch for ${route.operationId} ${v.label}: HTTP ${res.status} ${res.text.slice(0, 200)}`);
      };
      const beatAt = Date.now();
      await beat(beatAt);
      if (v.ifNoneMatch) {
        const etag = (await send()).etag;
        if (etag) headers = { ...headers, 'If-None-Match': etag };
      }
      await beat(beatAt + 60_000);
      takeCaptured();
      const res = await send();
      const call = callOf(v.label ? `${route.operationId} ${v.label}` : route.operationId, route, res, takeCaptured());
      out.push(call);
      if (!v.label && res.status === 200 && !names.length) {
        const items = (JSON.parse(res.text) as { items?: Record<string, unknown>[] }).items;
        if (Array.isArray(items) && items.length) firstItems.set(route.path, items[0]!);
        else if (Array.isArray(items)) emptyLists.add(route.path);
      }
      log(`scale: ${call.id}: HTTP ${call.status}, ${call.requests} requests (${call.operations}), ${call.readUnits} RCU, ${call.wallMs} ms, ${call.responseBytes} bytes`);
    }
  }
  return out;
}

/** Reads a list whole as `useAllPages` does: pages of 100, until the cursor ends or 1,000 items. */
async function readAll(url: string, token: string): Promise<{ results: HttpResult[]; truncated: boolean }> {
  const results: HttpResult[] = [];
  let items = 0;
  let cursor: string | null = null;
  for (;;) {
    const u = new URL(url);
    u.searchParams.set('limit', '100');
    if (cursor) u.searchParams.set('cursor', cursor);
    const res = await http(u.toString(), { headers: { Authorization: token } });
    results.push(res);
    if (res.status !== 200) return { results, truncated: false };
    const page = JSON.parse(res.text) as { items: unknown[]; nextCursor: string | null };
    items += page.items.length;
    cursor = page.nextCursor;
    if (!cursor) return { results, truncated: false };
    if (items >= 1000) return { results, truncated: true };
  }
}

/** One page view: its calls at once; figures summed (`ScalePageView`). */
async function measurePage(ctx: Ctx, page: PageView): Promise<ScalePageView> {
  const token = ctx.tokens[page.as];
  // Warm each handler the page calls with its first call (first page only).
  for (const c of page.calls) {
    const route = routeById(c.operationId);
    const url = new URL(urlOf(ctx, route, c.query?.(ctx.vc) ?? {}, c.params?.(ctx.vc) ?? {}));
    if (c.all) url.searchParams.set('limit', '100');
    await warm(ctx, route.handler, () => http(url.toString(), { headers: { Authorization: token } }));
  }
  takeCaptured();
  const t0 = performance.now();
  const per = await Promise.all(
    page.calls.map(async (c) => {
      const route = routeById(c.operationId);
      const url = urlOf(ctx, route, c.query?.(ctx.vc) ?? {}, c.params?.(ctx.vc) ?? {});
      return c.all ? readAll(url, token) : { results: [await http(url, { headers: { Authorization: token } })], truncated: false };
    }),
  );
  const wallMs = performance.now() - t0;
  const ops = takeCaptured();
  const results = per.flatMap((p) => p.results);
  return {
    page: page.page,
    calls: results.length,
    requests: ops.length,
    readUnits: sumOps(ops, 'readUnits'),
    wallMs: Math.round(wallMs),
    responseBytes: results.reduce((a, r) => a + Buffer.byteLength(r.text), 0),
    ok: results.every((r) => r.status >= 200 && r.status < 300),
    truncated: per.some((p) => p.truncated),
  };
}

/** The typical writes (`WRITES`), each with its DynamoDB requests and WCU. */
async function measureWrites(ctx: Ctx): Promise<ScaleCall[]> {
  const out: ScaleCall[] = [];
  const t = ctx.vc.tenantId;
  const stamp = Date.now().toString(36);
  const json = (token: string) => ({ Authorization: token, 'Content-Type': 'application/json' });
  const run = async (id: (typeof WRITES)[number], op: OperationId, send: () => Promise<HttpResult>): Promise<HttpResult> => {
    const handler = routeById(op).handler;
    // A write is not replayed: the handler is warmed with its first list route, if it has one.
    const list = scaleGetRoutes().find((r) => r.handler === handler && r.tenantScoped && !r.path.includes('{'));
    await warm(ctx, handler, async () => (list ? http(urlOf(ctx, list, {}), { headers: { Authorization: ctx.tokens.customer } }) : undefined));
    takeCaptured();
    const res = await send();
    out.push(callOf(id, routeById(op), res, takeCaptured()));
    return res;
  };
  const ingest = async (op: OperationId, body: unknown) => {
    const url = `${ctx.stack.urls.api}${routeById(op).path}`;
    const text = JSON.stringify(body);
    const headers = await signCollectorRequest(LOCAL_COLLECTOR_CREDENTIAL, { method: 'POST', url, body: text, headers: { 'content-type': 'application/json' } });
    return http(url, { method: 'POST', headers, body: text });
  };
  const created = await run('createIncident', 'createIncident', () =>
    http(urlOf(ctx, routeById('createIncident'), {}), { method: 'POST', headers: json(ctx.tokens.customer), body: JSON.stringify({ title: 'Bench: acceso sospechoso', description: 'Incidente creado por el benchmark.', severity: 'low', category: 'general' }) }),
  );
  const incidentId = created.status === 201 ? (JSON.parse(created.text) as { id: string }).id : formatIncidentId(1);
  await run('updateIncident', 'updateIncident', () =>
    http(urlOf(ctx, routeById('updateIncident'), {}, { id: incidentId }), { method: 'PATCH', headers: json(ctx.tokens.admin), body: JSON.stringify({ version: 1, status: 'in_progress', triage: { severity: 'low', reason: 'Bench: triaje' } }) }),
  );
  await run('addIncidentComment', 'addIncidentComment', () =>
    http(urlOf(ctx, routeById('addIncidentComment'), {}, { id: incidentId }), { method: 'POST', headers: json(ctx.tokens.customer), body: JSON.stringify({ body: 'Comentario del benchmark.' }) }),
  );
  const deviceId = ctx.vc.deviceId;
  const alarmId = `ALM-bench-${stamp}`;
  const now = () => new Date().toISOString();
  await run('ingestDeviceAlarm raise', 'ingestDeviceAlarm', () =>
    ingest('ingestDeviceAlarm', { action: 'raise', eventId: `bench-raise-${stamp}`, tenantId: t, deviceId, alarmId, severity: 'high', title: 'CPU por encima del 90 %', at: now() }),
  );
  await run('acknowledgeAlarm', 'acknowledgeAlarm', () => http(urlOf(ctx, routeById('acknowledgeAlarm'), {}, { deviceId, alarmId }), { method: 'POST', headers: { Authorization: ctx.tokens.customer } }));
  await run('ingestDeviceAlarm clear', 'ingestDeviceAlarm', () => ingest('ingestDeviceAlarm', { action: 'clear', eventId: `bench-clear-${stamp}`, tenantId: t, deviceId, alarmId, at: now() }));
  // A heartbeat that opens a new UTC minute (recorded on the device item, its day and the aggregates), then one
  // in the same minute (changes nothing visible: the heartbeat item only; docs/data-model.md#heartbeats).
  const beat = now();
  await run('ingestHeartbeat', 'ingestHeartbeat', () => ingest('ingestHeartbeat', { eventId: `bench-hb-${stamp}`, tenantId: t, deviceId, at: beat }));
  const sameMinute = new Date(Math.min(Date.parse(beat) + 1_000, Math.floor(Date.parse(beat) / 60_000) * 60_000 + 59_999)).toISOString();
  await run('ingestHeartbeat same minute', 'ingestHeartbeat', () => ingest('ingestHeartbeat', { eventId: `bench-hb2-${stamp}`, tenantId: t, deviceId, at: sameMinute }));
  return out;
}

/** Creates the tenant's Cognito group and a customer user in it; returns the user's e-mail. */
async function addCustomer(stack: RunningLocalStack, tenantId: string): Promise<string> {
  const { accessKeyId, secretAccessKey } = LOCAL_OPERATOR_CREDENTIAL;
  const idp = new CognitoIdentityProviderClient({ endpoint: stack.urls.cognito, region: DEMO_REGION, credentials: { accessKeyId, secretAccessKey } });
  try {
    await idp.send(new CreateGroupCommand({ UserPoolId: stack.config.userPoolId, GroupName: tenantId, Description: tenantId }));
  } finally {
    idp.destroy();
  }
  const email = `cliente@${tenantId}.example`;
  await seedCognito(stack.urls.cognito, stack.config.userPoolId, [{ email, password: DEMO_PASSWORD, groups: [tenantId], description: 'scale bench customer' }]);
  return email;
}

/**
 * One scale: a fresh stack, the tenant generated, then routes, page views and writes measured (module doc).
 * @param log progress lines (stderr).
 */
export async function measureScaleRun(factor: number, log: (l: string) => void, opts: { concurrency?: number } = {}): Promise<ScaleRun> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `vigia-bench-scale-${factor}-`));
  const stack = await startLocalStack({ dataDir, persist: false, serveWeb: false, buildPortal: 'never', collector: false, logLevel: 'ERROR', ports: { dynamodb: 0, cognito: 0, cognitoInternal: 0, api: 0, web: await freePort() } });
  const table = localTable(stack.urls.dynamodb, stack.tableName);
  try {
    const spec = scaleSpec(factor);
    const now = new Date();
    const stats: GenerateStats = await generateScaleTenant(table, spec, { now, log, ...(opts.concurrency ? { concurrency: opts.concurrency } : {}) });
    await setTenantCollector(spec.tenantId, collectorPrincipal(LOCAL_COLLECTOR_CREDENTIAL.userArn)!, 'grant', table);
    const email = await addCustomer(stack, spec.tenantId);
    const admin = DEMO_USERS.find((u) => u.groups.includes(ADMIN_GROUP))!;
    const ctx: Ctx = {
      stack,
      tokens: { customer: await idTokenFor(stack, email, DEMO_PASSWORD), admin: await idTokenFor(stack, admin.email, admin.password) },
      lastCall: new Map(),
      vc: {
        tenantId: spec.tenantId,
        now: now.getTime(),
        deviceId: 'dev-00001',
        deviceName: scaleDeviceName(spec, 0),
        searchText: 'phishing',
        oldIncidentId: formatIncidentId(Math.max(1, Math.round(spec.incidents * 0.02))),
      },
    };
    // The fleet as it stands now, after the generation's minutes (`beatLiveDevices`).
    const t0 = performance.now();
    const beaten = await beatLiveDevices(table, spec, new Date());
    log(`scale ×${factor}: ${beaten.toLocaleString('en')} live devices beat again and the outage markers set in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const uninstall = installCapacityCapture(stack.repositoryTable);
    try {
      // Warm-up: the handlers' modules, the token verifier's keys, the connections.
      for (const token of Object.values(ctx.tokens)) await http(`${stack.urls.api}/me`, { headers: { Authorization: token } });
      const routes = await measureRoutes(ctx, log);
      const pages: ScalePageView[] = [];
      for (const p of PAGE_VIEWS) {
        const v = await measurePage(ctx, p);
        log(`scale ×${factor}: page ${v.page}: ${v.calls} calls, ${v.requests} requests, ${v.readUnits} RCU, ${v.wallMs} ms, ${v.responseBytes} bytes${v.ok ? '' : ' (a call failed)'}${v.truncated ? ' (truncated at 1,000 items)' : ''}`);
        pages.push(v);
      }
      const writes = await measureWrites(ctx);
      for (const w of writes) log(`scale ×${factor}: write ${w.id}: HTTP ${w.status}, ${w.requests} requests, ${w.readUnits} RCU, ${w.writeUnits} WCU`);
      return {
        factor,
        data: { tenantId: stats.tenantId, devices: stats.devices, incidents: stats.incidents, items: stats.items, byEntity: stats.byEntity, generateMs: stats.durationMs, itemsPerSecond: stats.itemsPerSecond, afterGenerateMs: stats.afterGenerateMs },
        routes,
        pages,
        writes,
      };
    } finally {
      uninstall();
    }
  } finally {
    table.doc.destroy();
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The committed write baseline (`WRITE_BASELINE_FILE`), or null when absent. */
export function readWriteBaseline(file = WRITE_BASELINE_FILE): ScaleResults['writeBaseline'] {
  if (!existsSync(file)) return null;
  return JSON.parse(readFileSync(file, 'utf8')) as ScaleResults['writeBaseline'];
}

/** Writes the WCU of each write of `run` (the ×1 run) as the baseline file. */
export function saveWriteBaseline(run: ScaleRun, file = WRITE_BASELINE_FILE): void {
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
  } catch {
    // not a git checkout
  }
  const body = {
    measuredAt: new Date().toISOString(),
    commit,
    note: `WCU per write at ×${run.factor} on commit ${commit}, measured with the scale section's writes (scripts/bench/scale.ts). The scale.write-wcu budget allows 2 × these. Written by npm run bench -- --only scale --scales 1 --save-write-baseline.`,
    wcu: Object.fromEntries(run.writes.map((w) => [w.id, w.writeUnits])),
  };
  writeFileSync(file, JSON.stringify(body, null, 2) + '\n');
}

/** Every factor of `factors` (default `SCALE_FACTORS`), one after the other, and the committed write baseline. */
export async function measureScale(opts: { factors?: readonly number[]; log: (l: string) => void; concurrency?: number; tenants?: number }): Promise<ScaleResults> {
  const runs: ScaleRun[] = [];
  for (const f of [...(opts.factors ?? SCALE_FACTORS)].sort((a, b) => a - b)) runs.push(await measureScaleRun(f, opts.log, { concurrency: opts.concurrency }));
  // The ×1,000-tenants point: the staff views over many small tenants (scale-tenants.ts).
  const tenants = await measureTenantsPoint(opts.log, opts.tenants ?? TENANTS_POINT);
  return { runs, tenants, writeBaseline: readWriteBaseline() };
}
