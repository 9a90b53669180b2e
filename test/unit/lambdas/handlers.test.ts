/** Handler plumbing with fake repositories: error mapping, validation (fuzzed), identity, CORS. */
import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { Logger } from '@aws-lambda-powertools/logger';
import type { ApiHandler, HandlerDeps } from '../../../lambdas/http/api.js';
import { createHandler as incidentsHandler } from '../../../lambdas/handlers/incidents.js';
import { createHandler as accountHandler } from '../../../lambdas/handlers/account.js';
import { createHandler as ingestHandler } from '../../../lambdas/handlers/ingest.js';
import { createHandler as reportsHandler } from '../../../lambdas/handlers/reports.js';
import { parseLambdaConfig, type LambdaConfig } from '../../../lambdas/config.js';
import type { Repository } from '../../../lambdas/data/index.js';
import type { IncidentsPort } from '../../../lambdas/domain/ports.js';
import { ApiErrorBody, ERROR_STATUS, MAX_BODY_BYTES, type Incident } from '../../../lambdas/contract/schemas.js';
import { apiEvent, bodyOf, headerOf, lambdaContext, type CallerSpec, type EventSpec } from '../../support/events.js';

/** The configuration the handlers get (no process environment involved). */
function config(allowedOrigins: string[] = []): LambdaConfig {
  return parseLambdaConfig({ stage: 'test', tableName: 'unused', region: 'eu-west-1', allowedOrigins, logLevel: 'SILENT' });
}
const incidentsApi = (deps: HandlerDeps, allowedOrigins: string[] = []) => incidentsHandler(config(allowedOrigins), deps);

const alice: CallerSpec = { sub: 'sub-alice', groups: ['acme'] };
const NOW = new Date('2025-05-05T10:00:00.000Z');

/** An in-memory IncidentsPort good enough for the plumbing. */
function memoryIncidents(): IncidentsPort {
  const items = new Map<string, Incident>();
  let seq = 0;
  return {
    createIncident: async (_t, build) => {
      const i = build(++seq);
      items.set(i.id, i);
      return i;
    },
    getIncident: async (_t, id) => items.get(id) ?? null,
    getAlarms: async (_t, refs) => refs.map(() => null),
    getIncidentDetail: async (_t, id) => (items.has(id) ? { ...items.get(id)!, comments: [], history: [] } : null),
    listIncidents: async () => ({ items: [...items.values()], nextCursor: null }),
    saveUpdate: async (_t, next, current) => {
      if (items.get(next.id)?.version !== current.version) return false;
      items.set(next.id, next);
      return true;
    },
    addComment: async (_t, id) => items.has(id),
    addInternalNote: async (_t, id) => items.has(id),
    searchComments: async () => ({ items: [], nextCursor: null }),
    listSocQueue: async () => ({ items: [...items.values()].filter((i) => i.status !== 'closed'), nextCursor: null, counts: { open: 0, resolved: 0 } }),
  };
}

function repoWith(incidents: IncidentsPort): Repository {
  return {
    audit: { put: async () => undefined, listTenant: async () => ({ items: [], nextCursor: null }), listAll: async () => ({ items: [], nextCursor: null }) },
    activity: { list: async () => ({ items: [], nextCursor: null }), countUnread: async () => ({ count: 0, capped: false, seenAt: null }), markRead: async (_t, _s, now) => ({ count: 0, capped: false, seenAt: now }), putOnce: async () => true },
    tenantAdmin: { create: async () => false, update: async () => false, addMember: async () => false, removeMember: async () => false },
    sessions: { revokedAt: async () => null, revoke: async () => undefined },
    notifications: {} as Repository['notifications'],
    accessRequests: {} as Repository['accessRequests'],
    escalationContacts: {} as Repository['escalationContacts'],
    maintenanceWindows: {} as Repository['maintenanceWindows'],
    attachments: {} as Repository['attachments'],
    incidents,
    devices: {
      listDevices: async () => ({ items: [], nextCursor: null }),
      countDevices: async () => 0,
      deviceStats: async () => ({ days: [], openAlarms: 0 }),
      getDevice: async () => null,
      deviceHistory: async () => ({ device: null, days: [], openAlarms: [] }),
      listAlarms: async () => ({ items: [], nextCursor: null }),
      searchAlarms: async () => ({ items: [], nextCursor: null }),
      listAlarmConsole: async () => ({ items: [], nextCursor: null }),
      transitionAlarm: async () => null,
      raiseAlarm: async () => false,
      ingestHeartbeat: async () => false,
    },
    tenants: {
      getTenant: async (id) => ({ id, name: id }),
      listTenants: async () => [{ id: 'acme', name: 'Acme' }],
      listTenantSummaries: async () => ({ items: [{ id: 'acme', name: 'Acme' }], nextCursor: null }),
      getTenantCollectors: async () => ['arn:aws:iam::000000000000:user/collector'],
    },
    office365: {
      upsertAlarm: async () => false,
      acknowledgeAlarm: async () => null,
      putEvent: async () => false,
      listAlarms: async () => ({ items: [], nextCursor: null }),
      listEvents: async () => ({ items: [], nextCursor: null }),
      searchUsers: async () => ({ items: [], nextCursor: null }),
    },
    recommendations: {
      put: async () => false,
      get: async () => null,
      changeStatus: async () => null,
      list: async () => ({ items: [], nextCursor: null }),
    },
    reports: { load: async (tenantId) => ({ tenantId, incidents: [], devices: [], alarms: [] }), loadAggregates: async (tenantId) => ({ tenantId, wholeDays: [], wholeHours: [], partialIncidents: [], partialAlarms: [], boundaryBreached: 0, availabilityDays: [], belowSla: [] }), loadPeriodsAggregates: async (tenantId, periods) => periods.map(() => ({ tenantId, wholeDays: [], wholeHours: [], partialIncidents: [], partialAlarms: [], boundaryBreached: 0, availabilityDays: [], belowSla: [] })), loadAnalyticsPage: async () => ({ tenants: [], data: [], nextCursor: null }), aggregateHead: async () => ({ marker: 0, stats: {}, heartbeat: {} }), aggregateDays: async () => new Map(), listMarker: async () => 0, devicesBelowSla: async () => [], devicesInOutage: async () => [] },
    idempotency: { run: (_req, fn) => fn() },
  };
}

function api(repo: Repository = repoWith(memoryIncidents()), allowedOrigins: string[] = []): (s: EventSpec) => ReturnType<ApiHandler> {
  const h = incidentsApi({ repository: repo, now: () => NOW }, allowedOrigins);
  return (s) => h(apiEvent(s), lambdaContext);
}

describe('error mapping', () => {
  it('turns an unexpected failure into 500 INTERNAL_ERROR without internals, logged with the stack', async () => {
    const boom = new Error('ddb://internal-host secret detail');
    const failing = { ...memoryIncidents(), listIncidents: async () => { throw boom; } };
    const spy = vi.spyOn(Logger.prototype, 'error');
    const r = await api(repoWith(failing))({ method: 'GET', path: '/incidents', caller: alice, requestId: 'rid-500' });
    expect(r.statusCode).toBe(500);
    expect(bodyOf(r)).toEqual({ code: 'INTERNAL_ERROR', message: 'internal error', requestId: 'rid-500' });
    expect(r.body).not.toContain('secret');
    expect(spy).toHaveBeenCalledWith('unexpected error', boom);
    spy.mockRestore();
  });

  it('maps a lost update race to VERSION_CONFLICT with the current version', async () => {
    const mem = memoryIncidents();
    const call = api(repoWith({ ...mem, saveUpdate: async () => false }));
    await call({ method: 'POST', path: '/incidents', caller: alice, body: { title: 'abc', description: 'd', severity: 'low' } });
    const r = await call({ method: 'PATCH', path: '/incidents/INC-000001', caller: alice, body: { version: 1, description: 'more detail' } });
    expect(r.statusCode).toBe(409);
    expect(bodyOf(r)).toMatchObject({ code: 'VERSION_CONFLICT', details: { currentVersion: 1 } });
  });

  it('answers 401 without claims, 403 without groups, 404 for unknown routes — all in the error shape', async () => {
    const call = api();
    const noAuth = apiEvent({ method: 'GET', path: '/incidents', caller: null });
    const h = incidentsApi({ repository: repoWith(memoryIncidents()) });
    for (const r of [
      await h(noAuth, lambdaContext),
      await h({ ...noAuth, requestContext: { ...noAuth.requestContext, authorizer: { claims: { email: 'x' } } } }, lambdaContext),
      await call({ method: 'GET', path: '/incidents', caller: { sub: 's', groups: [] } }),
      await call({ method: 'GET', path: '/nope', caller: alice }),
      await call({ method: 'GET', path: '/incidents/%E0%A4%A', caller: alice }),
    ]) {
      expect(ApiErrorBody.safeParse(bodyOf(r)).success, r.body).toBe(true);
      const b = bodyOf<ApiErrorBody>(r);
      expect(r.statusCode).toBe(ERROR_STATUS[b.code]);
      expect(r.statusCode).toBeLessThan(500);
    }
    expect((await h(noAuth, lambdaContext)).statusCode).toBe(401);
  });

  it('never takes the tenant from the body', async () => {
    const call = api();
    const r = await call({ method: 'POST', path: '/incidents', caller: alice, body: { title: 'abc', description: 'd', severity: 'low', tenantId: 'globex' } });
    expect(r.statusCode).toBe(400);
    const ok = await call({ method: 'POST', path: '/incidents', caller: alice, body: { title: 'abc', description: 'd', severity: 'low' } });
    expect(bodyOf<Incident>(ok).tenantId).toBe('acme');
  });

  it('rejects a repeated tenant parameter and a malformed tenant id', async () => {
    const call = api();
    expect((await call({ method: 'GET', path: '/incidents', caller: alice, query: { tenant: ['acme', 'globex'] } })).statusCode).toBe(400);
    const bad = await call({ method: 'GET', path: '/incidents', caller: alice, query: { tenant: 'ACME#x' } });
    expect(bodyOf(bad)).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: 'query' }] });
    const unknown = await call({ method: 'GET', path: '/incidents', caller: alice, query: { foo: '1' } });
    expect(bodyOf(unknown)).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: 'query.foo' }] });
  });

  it('checks body size on decoded bytes, content type and presence', async () => {
    const call = api();
    const json = JSON.stringify({ title: 'abc', description: 'é'.repeat(MAX_BODY_BYTES / 2 + 10), severity: 'low' });
    expect(json.length).toBeLessThan(MAX_BODY_BYTES + 100);
    expect((await call({ method: 'POST', path: '/incidents', caller: alice, body: json, headers: { 'Content-Type': 'application/json' } })).statusCode).toBe(413);
    const h = incidentsApi({ repository: repoWith(memoryIncidents()), now: () => NOW });
    const ev = apiEvent({ method: 'POST', path: '/incidents', caller: alice, headers: { 'content-type': 'application/json' } });
    const b64 = await h({ ...ev, isBase64Encoded: true, body: Buffer.from(JSON.stringify({ title: 'abc', description: 'd', severity: 'low' })).toString('base64') }, lambdaContext);
    expect(b64.statusCode).toBe(201);
    expect((await call({ method: 'POST', path: '/incidents', caller: alice, body: '{"a":1}', headers: {} })).statusCode).toBe(415);
    expect((await call({ method: 'POST', path: '/incidents', caller: alice, headers: { 'Content-Type': 'application/json' } })).statusCode).toBe(400);
    expect((await call({ method: 'GET', path: '/incidents', caller: alice, body: 'ignored' })).statusCode).toBe(200);
  });

  it('sets CORS headers only for listed origins, on errors too', async () => {
    const call = api(undefined, ['http://localhost:5173']);
    const ok = await call({ method: 'GET', path: '/incidents/INC-000009', caller: alice, headers: { Origin: 'http://localhost:5173' } });
    expect(ok.statusCode).toBe(404);
    expect(headerOf(ok, 'access-control-allow-origin')).toBe('http://localhost:5173');
    const other = await call({ method: 'GET', path: '/incidents', caller: alice, headers: { Origin: 'http://localhost:9999' } });
    expect(headerOf(other, 'access-control-allow-origin')).toBeUndefined();
  });

  it('enforces the admin group on /tenants', async () => {
    const h = accountHandler(config(), { repository: repoWith(memoryIncidents()) });
    expect((await h(apiEvent({ method: 'GET', path: '/tenants', caller: alice }), lambdaContext)).statusCode).toBe(403);
    const r = await h(apiEvent({ method: 'GET', path: '/tenants', caller: { sub: 'a', groups: ['admin'], groupsForm: 'bracket' } }), lambdaContext);
    expect(bodyOf(r)).toEqual({ items: [{ id: 'acme', name: 'Acme' }] });
  });
});

describe('validation never answers 500 (fuzz)', () => {
  const call = api();
  const isClientOrOk = (status: number, body: string) => {
    expect(status, body).toBeLessThan(500);
    if (status >= 400) expect(ApiErrorBody.safeParse(JSON.parse(body)).success).toBe(true);
  };

  it('arbitrary JSON bodies on create, update and comment', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), fc.constantFrom('POST /incidents', 'PATCH /incidents/INC-000001', 'POST /incidents/INC-000001/comments'), async (body, route) => {
        const [method, path] = route.split(' ') as [string, string];
        const r = await call({ method, path, caller: alice, body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });
        isClientOrOk(r.statusCode, r.body);
      }),
      { numRuns: 150 },
    );
  });

  it('arbitrary raw bodies, query strings and ids', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string(), fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.string()), fc.string({ minLength: 1 }), async (raw, query, id) => {
        const r1 = await call({ method: 'POST', path: '/incidents', caller: alice, body: raw, headers: { 'Content-Type': 'application/json' } });
        isClientOrOk(r1.statusCode, r1.body);
        const r2 = await call({ method: 'GET', path: '/incidents', caller: alice, query });
        isClientOrOk(r2.statusCode, r2.body);
        const r3 = await call({ method: 'GET', path: `/incidents/${encodeURIComponent(id)}`, caller: alice });
        isClientOrOk(r3.statusCode, r3.body);
      }),
      { numRuns: 150 },
    );
  });
});

describe('statuses and media types from the route rows', () => {
  const collector = (body: unknown) => {
    const e = apiEvent({ method: 'POST', path: '/ingest/heartbeats', caller: null, body });
    e.requestContext.identity = { ...e.requestContext.identity, userArn: 'arn:aws:iam::000000000000:user/collector' };
    return e;
  };
  const beat = { eventId: 'e-1', tenantId: 'acme', deviceId: 'dev-1', at: '2025-05-05T09:59:00.000Z' };

  it('answers an applied ingest event 202 and a replay 200 (statusOf of the row)', async () => {
    const repo = repoWith(memoryIncidents());
    let first = true;
    repo.devices = { ...repo.devices, ingestHeartbeat: async () => { const applied = first; first = false; return applied; }, getDevice: async () => ({}) as never };
    const h = ingestHandler(config(), { repository: repo });
    const a = await h(collector(beat), lambdaContext);
    expect([a.statusCode, bodyOf(a)]).toEqual([202, { eventId: 'e-1', applied: true }]);
    const b = await h(collector(beat), lambdaContext);
    expect([b.statusCode, bodyOf(b)]).toEqual([200, { eventId: 'e-1', applied: false }]);
  });

  it('sends a report as a CSV attachment with format=csv, JSON otherwise', async () => {
    const h = reportsHandler(config(), { repository: repoWith(memoryIncidents()), now: () => NOW });
    const csv = await h(apiEvent({ method: 'GET', path: '/reports', caller: alice, query: { format: 'csv' } }), lambdaContext);
    expect(csv.statusCode).toBe(200);
    expect(headerOf(csv, 'content-type')).toBe('text/csv; charset=utf-8');
    expect(headerOf(csv, 'content-disposition')).toBe('attachment; filename="vigia-acme-2025-04-05-2025-05-05.csv"');
    expect(csv.body.split('\r\n')[0]).toBe('section,key,value,extra');
    const json = await h(apiEvent({ method: 'GET', path: '/reports', caller: alice }), lambdaContext);
    expect(headerOf(json, 'content-type')).toMatch(/^application\/json/);
    expect(bodyOf(json)).toMatchObject({ tenantId: 'acme', generatedAt: NOW.toISOString() });
  });

  it('answers CORS pre-flights with the configured allowed headers', async () => {
    const h = incidentsApi({ repository: repoWith(memoryIncidents()) }, ['http://localhost:5173']);
    const e = apiEvent({
      method: 'OPTIONS',
      path: '/incidents',
      caller: null,
      headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,content-type,idempotency-key' },
    });
    const r = await h(e, lambdaContext);
    expect(r.statusCode).toBe(204);
    expect(headerOf(r, 'access-control-allow-origin')).toBe('http://localhost:5173');
    // Powertools appends one value per allowed header: API Gateway v1 carries them in multiValueHeaders.
    const allowed = [headerOf(r, 'access-control-allow-headers'), ...(r.multiValueHeaders?.['access-control-allow-headers'] ?? [])].join(',').toLowerCase();
    expect(allowed.split(',')).toEqual(expect.arrayContaining(['authorization', 'content-type', 'idempotency-key']));
  });
});
