/**
 * Office 365 alarms/events and recommendations over the REAL handlers and dynoxide: collector ingest
 * (replays idempotent, newer alarm updates win), listing by time range with filters and gap-free pages,
 * TTL on audit events, recommendation status changes (allowed transitions, note and who, conflicts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { call, collectorEvent, startInProcessApi, type InProcessApi } from '../support/in-process-api.js';
import type { ApiHandler } from '../../lambdas/http/api.js';
import type { ApiErrorBody, IngestResult, Office365Alarm, Office365Event, Page, Recommendation } from '../../lambdas/contract/schemas.js';
import { bodyOf, lambdaContext, type CallerSpec } from '../support/events.js';

const TABLE = 'vigia-o365-main';
const alice: CallerSpec = { sub: 'sub-alice', groups: ['acme'] };
const bob: CallerSpec = { sub: 'sub-bob', groups: ['globex'] };
let api: InProcessApi;
let ingest: ApiHandler;
let o365: ApiHandler;
let recs: ApiHandler;

const collect = (path: string, body: unknown) => ingest(collectorEvent(path, body, { userArn: 'arn:aws:iam::000000000000:user/collector' }), lambdaContext);

async function listAll<T>(h: ApiHandler, path: string, query: Record<string, string>, caller = alice): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | null = null;
  do {
    const r = await call(h, { method: 'GET', path, caller, query: { ...query, ...(cursor ? { cursor } : {}) } });
    expect(r.statusCode, r.body).toBe(200);
    const p = bodyOf<Page<T>>(r);
    out.push(...p.items);
    cursor = p.nextCursor;
  } while (cursor);
  return out;
}

const T0 = Date.parse('2026-03-01T00:00:00.000Z');
const at = (min: number) => new Date(T0 + min * 60_000).toISOString();

beforeAll(async () => {
  api = await startInProcessApi({ table: TABLE, config: { retention: { o365EventDays: 30 } } });
  const { data } = api;
  ingest = api.handler('ingest');
  o365 = api.handler('office365');
  recs = api.handler('recommendations');
  await data.putTenant({ id: 'acme', name: 'Acme' });
  await data.putTenant({ id: 'globex', name: 'Globex' });
  for (const t of ['acme', 'globex']) await data.grantCollector(t, 'arn:aws:iam::000000000000:user/collector');
});

afterAll(async () => {
  await api?.stop();
});

describe('Office 365', () => {
  it('stores audit events once with a TTL and lists them by range and filters without gaps', async () => {
    const workloads = ['Exchange', 'SharePoint', 'AzureActiveDirectory'];
    for (let i = 0; i < 120; i++) {
      const r = await collect('/ingest/office365/events', {
        eventId: `ev-${i}`,
        tenantId: 'acme',
        workload: workloads[i % 3],
        operation: i % 2 ? 'UserLoggedIn' : 'FileDownloaded',
        user: `u${i % 4}@acme.example`,
        result: i % 5 ? 'Succeeded' : 'Failed',
        clientIp: '198.51.100.7',
        at: at(i),
      });
      expect(r.statusCode, r.body).toBe(202);
    }
    const replay = await collect('/ingest/office365/events', { eventId: 'ev-3', tenantId: 'acme', workload: 'Teams', operation: 'x', user: 'y', result: 'z', clientIp: null, at: at(3) });
    expect(replay.statusCode).toBe(200);
    expect(bodyOf<IngestResult>(replay).applied).toBe(false);
    expect((await collect('/ingest/office365/events', { eventId: 'e', tenantId: 'nope', workload: 'a', operation: 'b', user: 'c', result: 'd', clientIp: null, at: at(0) })).statusCode).toBe(404);

    const all = await listAll<Office365Event>(o365, '/office365/events', { limit: '13' });
    expect(all.map((e) => e.id)).toEqual(Array.from({ length: 120 }, (_, i) => `ev-${119 - i}`));
    expect(all.find((e) => e.id === 'ev-3')!.workload).toBe('Exchange');
    const ranged = await listAll<Office365Event>(o365, '/office365/events', { limit: '4', from: at(10), to: at(29), workload: 'Exchange', result: 'Succeeded' });
    const want = Array.from({ length: 20 }, (_, k) => 29 - k).filter((i) => i % 3 === 0 && i % 5 !== 0).map((i) => `ev-${i}`);
    expect(ranged.map((e) => e.id)).toEqual(want);
    expect(await listAll(o365, '/office365/events', {}, bob)).toEqual([]);

    const raw = api.rawClient();
    const item = await raw.send(new GetItemCommand({ TableName: TABLE, Key: { PK: { S: 'TENANT#acme#O365EVENT#ev-0' }, SK: { S: 'O365EVENT' } } }));
    raw.destroy();
    expect(Number(item.Item!.expiresAt!.N)).toBe(Math.floor(T0 / 1000) + 30 * 86_400);
  });

  it('creates and updates alerts (newer update wins, replays are no-ops) and filters them', async () => {
    const alarm = (id: string, status: string, updatedMin: number, severity = 'high') => ({
      eventId: `e-${id}-${updatedMin}`, tenantId: 'acme', alarmId: id, title: `Alerta ${id}`, severity, category: 'identity', status, affectedUser: 'ana@acme.example', detectedAt: at(0), updatedAt: at(updatedMin),
    });
    expect((await collect('/ingest/office365/alarms', alarm('a1', 'active', 0))).statusCode).toBe(202);
    expect((await collect('/ingest/office365/alarms', alarm('a2', 'active', 0, 'low'))).statusCode).toBe(202);
    expect((await collect('/ingest/office365/alarms', alarm('a1', 'investigating', 5))).statusCode).toBe(202);
    expect(bodyOf<IngestResult>(await collect('/ingest/office365/alarms', alarm('a1', 'active', 1))).applied).toBe(false);
    expect(bodyOf<IngestResult>(await collect('/ingest/office365/alarms', alarm('a1', 'investigating', 5))).applied).toBe(false);
    const list = await listAll<Office365Alarm>(o365, '/office365/alarms', { status: 'investigating' });
    expect(list.map((a) => [a.id, a.status])).toEqual([['a1', 'investigating']]);
    expect((await listAll<Office365Alarm>(o365, '/office365/alarms', { severity: 'low', user: 'ana@acme.example' })).map((a) => a.id)).toEqual(['a2']);
  });
});

describe('recommendations', () => {
  it('are created by collectors and changed by customers with a note, following the allowed transitions', async () => {
    const rec = { eventId: 'e-r1', tenantId: 'acme', recommendationId: 'r1', title: 'Activar MFA para administradores', rationale: 'Reduce el riesgo de robo de credenciales', priority: 'high', category: 'identidad', at: at(0) };
    expect((await collect('/ingest/recommendations', rec)).statusCode).toBe(202);
    expect(bodyOf<IngestResult>(await collect('/ingest/recommendations', { ...rec, title: 'changed' })).applied).toBe(false);
    expect((await collect('/ingest/recommendations', { ...rec, recommendationId: 'r2', eventId: 'e-r2', priority: 'low', at: at(1) })).statusCode).toBe(202);

    const open = await listAll<Recommendation>(recs, '/recommendations', { status: 'open' });
    expect(open.map((r) => r.id)).toEqual(['r2', 'r1']);
    expect(open[1]!.title).toBe('Activar MFA para administradores');

    const patch = (id: string, body: unknown, caller = alice) => call(recs, { method: 'PATCH', path: `/recommendations/${id}`, caller, body });
    const accepted = await patch('r1', { status: 'accepted', note: 'Lo hacemos este trimestre' });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(bodyOf<Recommendation>(accepted)).toMatchObject({ status: 'accepted', statusNote: 'Lo hacemos este trimestre', statusChangedBy: 'sub-alice@example.com' });
    const bad = await patch('r1', { status: 'open', note: 'x' });
    expect(bad.statusCode).toBe(409);
    expect(bodyOf<ApiErrorBody>(bad)).toMatchObject({ code: 'INVALID_TRANSITION', details: { allowed: ['done', 'dismissed'] } });
    expect((await patch('r1', { status: 'done' })).statusCode).toBe(400);
    expect((await patch('r1', { status: 'done', note: 'Hecho' }, bob)).statusCode).toBe(404);
    // two concurrent changes from the same status read: the write is conditional, exactly one applies
    const { dynamoRepository } = await import('../../lambdas/data/index.js');
    const repo = dynamoRepository(api.data.table).recommendations;
    const race = await Promise.all(
      (['accepted', 'dismissed'] as const).map((status) => repo.changeStatus('acme', 'r2', 'open', { status, note: status, by: 'x', at: at(9) })),
    );
    expect(race.filter((r) => r !== null)).toHaveLength(1);
    // the stored note belongs to the winning change
    const now = (await listAll<Recommendation>(recs, '/recommendations', { priority: 'low' }))[0]!;
    expect(now.statusNote).toBe(now.status);
    expect((await listAll<Recommendation>(recs, '/recommendations', { priority: 'high' })).map((r) => r.status)).toEqual(['accepted']);
  });
});
