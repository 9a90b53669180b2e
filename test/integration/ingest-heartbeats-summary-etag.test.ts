/**
 * Cheaper heartbeats, the batch ingest route and the summary's change marker (docs/data-model.md#heartbeats,
 * docs/api.md#summary, docs/api.md#batch-heartbeats), over the REAL handlers and data layer on dynoxide:
 *  - a heartbeat in the same UTC minute as the device's last recorded one costs one GetItem and one
 *    UpdateItem (≤ 3 WCU) and changes nothing the API shows; a new minute records everything;
 *  - the availability stored equals what recording every heartbeat gives (the previous rule, as a pure
 *    reference), for random sequences with replays, out-of-order beats, outages and midnight;
 *  - the tenant's change marker moves with an incident change and an alarm, not with heartbeats;
 *  - `GET /summary` answers an ETag, and 304 after ONE DynamoDB request while nothing changed; time alone (a
 *    heartbeat minute ageing past the online threshold) and a change both end it; while 100 devices beat every
 *    minute the poll stays 304 at one Query (≤ 0.5 RCU), and an incident created ends it;
 *  - `POST /ingest/heartbeats/batch`: per-entry results, bad entries do not lose the good ones, replays.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { call, collectorEvent, startInProcessApi, validatingHandler, type InProcessApi } from '../support/in-process-api.js';
import { bodyOf, lambdaContext } from '../support/events.js';
import { createDocumentClient, type DocumentClient, type TableRef } from '../../lambdas/data/table/client.js';
import { captureCapacity, type CapturedRequest } from '../support/capacity-capture.js';
import { dynamoRepository } from '../../lambdas/data/index.js';
import { ingestHeartbeat, putDailyAvailability, putDevice, raiseAlarm, transitionAlarm } from '../../lambdas/data/devices.js';
import { createIncident } from '../../lambdas/data/incidents.js';
import { readChangeMarker, rebuildTenantAggregates } from '../../lambdas/data/aggregates.js';
import { keys } from '../../lambdas/data/table/keys.js';
import { newIncident } from '../../lambdas/domain/incidents.js';
import { heartbeatTime } from '../../lambdas/domain/devices.js';
import * as reports from '../../lambdas/handlers/reports.js';
import type { HeartbeatBatchResult, Summary } from '../../lambdas/contract/schemas.js';

const TABLE = 'vigia-hb-etag-main';
const COLLECTOR = { userArn: 'arn:aws:sts::000000000000:assumed-role/vigia-collector/i-0abc', accessKey: 'AKIDLOCAL' };
const ACME_ONLY = { userArn: 'arn:aws:sts::000000000000:assumed-role/vigia-collector-acme/i-0def', accessKey: 'AKIDACME' };
const alice = { sub: 'sub-alice', groups: ['acme'] };

let api: InProcessApi;
/** The engine's table through a client that records every request and its consumed capacity. */
let table: TableRef;
const ops: CapturedRequest[] = [];

beforeAll(async () => {
  api = await startInProcessApi({ table: TABLE });
  table = { doc: createDocumentClient(api.documentClientOptions()), tableName: TABLE };
  captureCapacity(table, ops);
  await api.data.putTenant({ id: 'acme', name: 'Acme' });
  await api.data.putTenant({ id: 'globex', name: 'Globex' });
  await api.data.grantCollector('acme', 'arn:aws:iam::000000000000:role/vigia-collector');
  await api.data.grantCollector('globex', 'arn:aws:iam::000000000000:role/vigia-collector');
  await api.data.grantCollector('acme', 'arn:aws:iam::000000000000:role/vigia-collector-acme');
}, 60_000);

afterAll(async () => {
  table?.doc.destroy();
  await api?.stop();
});

const base = { type: 'firewall', site: 'Madrid', ipAddress: '10.0.0.1', vendor: 'Fortinet', model: 'FG-60F' };
const device = (tenantId: string, id: string) => putDevice({ ...base, tenantId, id, name: id }, table);
/** Everything the API can show of a device and its tenant's aggregates: items of its partition but the heartbeat item, stats (marker aside), histogram, days. */
async function visible(tenantId: string, deviceId: string): Promise<unknown> {
  const part = await table.doc.send('Query', { TableName: TABLE, KeyConditionExpression: 'PK = :p', ExpressionAttributeValues: { ':p': keys.devicePk(tenantId, deviceId) }, ConsistentRead: true });
  const agg = await table.doc.send('Query', { TableName: TABLE, KeyConditionExpression: 'PK = :p', ExpressionAttributeValues: { ':p': `TENANT#${tenantId}` }, ConsistentRead: true });
  const days = await table.doc.send('Query', { TableName: TABLE, KeyConditionExpression: 'PK = :p', ExpressionAttributeValues: { ':p': keys.daysPk(tenantId) }, ConsistentRead: true });
  const strip = (i: Record<string, unknown>) => Object.fromEntries(Object.entries(i).filter(([k]) => k !== 'rev'));
  return { part: (part.Items ?? []).filter((i) => i.SK !== 'HEARTBEAT'), agg: (agg.Items ?? []).map(strip), days: days.Items };
}
const minuteStart = (t: number) => Math.floor(t / 60_000) * 60_000;
/** A response header, whatever its case (API Gateway merges `headers` and `multiValueHeaders`, joined by ', '). */
const hdr = (r: { headers?: Record<string, unknown>; multiValueHeaders?: Record<string, unknown[]> }, name: string): string => {
  const find = <T>(o: Record<string, T> | undefined) => Object.entries(o ?? {}).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
  const multi = find(r.multiValueHeaders);
  return multi ? multi.map(String).join(', ') : String(find(r.headers) ?? '');
};

describe('heartbeats', () => {
  it('a heartbeat in the minute already recorded costs one GetItem + one UpdateItem (≤ 3 WCU) and changes nothing visible', async () => {
    await device('acme', 'q-1');
    const t0 = minuteStart(Date.now()) - 10 * 60_000 + 5_000;
    const at = (ms: number) => new Date(t0 + ms).toISOString();
    expect(await ingestHeartbeat({ tenantId: 'acme', deviceId: 'q-1', at: at(0) }, table)).toBe(true);
    expect(await ingestHeartbeat({ tenantId: 'acme', deviceId: 'q-1', at: at(60_000) }, table)).toBe(true); // a new minute: recorded
    const before = await visible('acme', 'q-1');
    const marker = await readChangeMarker(table, 'acme');
    ops.length = 0;
    expect(await ingestHeartbeat({ tenantId: 'acme', deviceId: 'q-1', at: at(75_000) }, table)).toBe(true); // same minute
    expect(ops.map((o) => o.op)).toEqual(['GetItem', 'UpdateItem']);
    const wcu = ops.reduce((a, o) => a + o.wcu, 0);
    expect(wcu).toBeLessThanOrEqual(3);
    expect(wcu).toBe(1);
    expect(await visible('acme', 'q-1')).toEqual(before);
    expect(await readChangeMarker(table, 'acme')).toBe(marker);
    // A replay of it changes nothing either, and is not applied.
    expect(await ingestHeartbeat({ tenantId: 'acme', deviceId: 'q-1', at: at(75_000) }, table)).toBe(false);
    // The next minute records the same-minute time too: 75 s monitored and available since the first beat.
    expect(await ingestHeartbeat({ tenantId: 'acme', deviceId: 'q-1', at: at(130_000) }, table)).toBe(true);
    const part = await table.doc.send('Query', { TableName: TABLE, KeyConditionExpression: 'PK = :p AND begins_with(SK, :a)', ExpressionAttributeValues: { ':p': keys.devicePk('acme', 'q-1'), ':a': 'AVAIL#' }, ConsistentRead: true });
    const sum = (part.Items ?? []).reduce<{ m: number; u: number }>((a, d) => ({ m: a.m + Number(d.hbMonitoredSeconds ?? 0), u: a.u + Number(d.hbUpSeconds ?? 0) }), { m: 0, u: 0 });
    expect(sum).toEqual({ m: 130, u: 130 });
    expect((await rebuildTenantAggregates(table, 'acme', { write: false })).drift.filter((d) => !d.startsWith('stats.aggVersion'))).toEqual([]);
  });

  it('the first heartbeat of a day that holds a stored % reads that day before its transaction (no refused transaction)', async () => {
    await api.data.putTenant({ id: 'umbrella', name: 'Umbrella' });
    await device('umbrella', 'fw-seeded');
    // Recorded on the device only (generated data, data older than the heartbeat item), and a stored % today.
    await table.doc.send('UpdateItem', { TableName: TABLE, Key: keys.device('umbrella', 'fw-seeded'), UpdateExpression: 'SET lastHeartbeatAt = :a', ExpressionAttributeValues: { ':a': '2026-11-20T09:00:00.000Z' } });
    await putDailyAvailability({ tenantId: 'umbrella', deviceId: 'fw-seeded', date: '2026-11-20', availablePct: 97.5, monitoredSeconds: 30_000 }, table);
    const sent: string[] = [];
    const counted: TableRef = {
      tableName: TABLE,
      doc: {
        async send(operation, input) {
          try {
            const out = await table.doc.send(operation, input);
            sent.push(operation);
            return out;
          } catch (e) {
            sent.push(`${operation} refused`);
            throw e;
          }
        },
        destroy: () => undefined,
      } as DocumentClient,
    };
    expect(await ingestHeartbeat({ tenantId: 'umbrella', deviceId: 'fw-seeded', at: '2026-11-20T09:01:00.000Z' }, counted, new Date('2026-11-20T09:01:05.000Z'))).toBe(true);
    // Heartbeat item, device, day; then the one transaction.
    expect(sent.slice(0, 4)).toEqual(['GetItem', 'GetItem', 'GetItem', 'TransactWriteItems']);
    expect(sent.filter((o) => o.endsWith('refused'))).toEqual([]);
    const day = await table.doc.send('GetItem', { TableName: TABLE, Key: { PK: keys.devicePk('umbrella', 'fw-seeded'), SK: 'AVAIL#2026-11-20' }, ConsistentRead: true });
    expect(day.Item).toMatchObject({ availablePct: 97.5, hbMonitoredSeconds: 60, hbUpSeconds: 60 });
  });

  it('stores the availability that recording every heartbeat gives (random beats, replays, out of order, outages, midnight)', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        // Offsets (s) from 23:50 UTC of yesterday, so sequences often cross midnight; gaps up to 7 min (some outages).
        fc.array(fc.record({ gap: fc.oneof(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 0, max: 420 })), back: fc.boolean() }), { minLength: 1, maxLength: 25 }),
        async (steps) => {
          const id = `p-${run++}`;
          await device('globex', id);
          const midnight = Date.parse(new Date().toISOString().slice(0, 10) + 'T00:00:00Z');
          let t = midnight - 10 * 60_000 + 7_321;
          const beats: string[] = [];
          for (const s of steps) {
            t += s.gap * 1000 + 17;
            // Now and then an out-of-order beat (before the last one) or a replay (gap 0).
            beats.push(new Date(s.back ? t - 90_000 : t).toISOString());
          }
          // The rule per heartbeat (docs/data-model.md#outages), heartbeat by heartbeat: accepted when after the
          // last accepted one; a new minute adds `heartbeatTime` of the minute's first heartbeat (the recorded one),
          // the exact previous one and itself.
          const reference = new Map<string, { m: number; u: number }>();
          let last = null as string | null;
          let recorded = null as string | null;
          const accept = (b: string) => {
            if (recorded !== null && last !== null && minuteStart(Date.parse(b)) !== minuteStart(Date.parse(recorded))) {
              for (const [date, t] of heartbeatTime(recorded, last, b)) {
                const r = reference.get(date) ?? { m: 0, u: 0 };
                reference.set(date, { m: r.m + t.m, u: r.u + t.u });
              }
              recorded = b;
            }
            recorded ??= b;
            last = b;
          };
          for (const b of beats) if (last === null || b > last) accept(b);
          for (const b of beats) await ingestHeartbeat({ tenantId: 'globex', deviceId: id, at: b }, table);
          // The same-minute beats after the last recorded one count with the next minute's: send one.
          if (last !== null) {
            const close = new Date(minuteStart(Date.parse(last)) + 60_000 + 1_000).toISOString();
            await ingestHeartbeat({ tenantId: 'globex', deviceId: id, at: close }, table);
            accept(close);
          }
          const days = await table.doc.send('Query', { TableName: TABLE, KeyConditionExpression: 'PK = :p AND begins_with(SK, :a)', ExpressionAttributeValues: { ':p': keys.devicePk('globex', id), ':a': 'AVAIL#' }, ConsistentRead: true });
          const stored = new Map((days.Items ?? []).map((d) => [String(d.date), { m: Math.round(Number(d.hbMonitoredSeconds) * 1000), u: Math.round(Number(d.hbUpSeconds) * 1000) }]));
          const expected = new Map([...reference].filter(([, v]) => v.m > 0));
          expect(stored).toEqual(expected);
        },
      ),
      { numRuns: process.env.FULL_FUZZ ? 60 : 15 },
    );
    // …and the tenant's aggregates equal the ones rebuilt from the items.
    expect((await rebuildTenantAggregates(table, 'globex', { write: false })).drift.filter((d) => !d.startsWith('stats.aggVersion'))).toEqual([]);
  }, 120_000);
});

describe('change marker', () => {
  it('moves with incident and alarm writes, not with heartbeats (a new minute, a status change, the same minute)', async () => {
    await device('acme', 'm-1');
    const m0 = await readChangeMarker(table, 'acme');
    await createIncident('acme', (seq) => newIncident('acme', seq, { title: 'Marcador', description: 'x', severity: 'low', category: 'general' }, 'a@acme.example', new Date().toISOString()), table);
    const m1 = await readChangeMarker(table, 'acme');
    expect(m1).toBeGreaterThan(m0);
    const alarm = { id: 'al-m', tenantId: 'acme', deviceId: 'm-1', title: 'CPU', severity: 'high' as const, state: 'active' as const, raisedAt: new Date().toISOString(), acknowledgedAt: null, acknowledgedBy: null, clearedAt: null };
    expect(await raiseAlarm(alarm, table)).toBe(true);
    const m2 = await readChangeMarker(table, 'acme');
    expect(m2).toBeGreaterThan(m1);
    await transitionAlarm(table, 'acme', 'm-1', 'al-m', ['active'], 'acknowledged', { acknowledgedAt: new Date().toISOString(), acknowledgedBy: 'a@acme.example' });
    const m3 = await readChangeMarker(table, 'acme');
    expect(m3).toBeGreaterThan(m2);
    // Unknown → online: the first heartbeat changes the device's status, and still not the marker (the summary
    // validates the statuses from the histogram, docs/data-model.md#aggregates).
    const t = minuteStart(Date.now()) + 1_000;
    await ingestHeartbeat({ tenantId: 'acme', deviceId: 'm-1', at: new Date(t).toISOString() }, table);
    const m4 = await readChangeMarker(table, 'acme');
    expect(m4).toBe(m3);
    // Same minute: no change.
    await ingestHeartbeat({ tenantId: 'acme', deviceId: 'm-1', at: new Date(t + 20_000).toISOString() }, table);
    expect(await readChangeMarker(table, 'acme')).toBe(m4);
  });
});

/** The reports handler on the recording table, its clock set by `clock.now`. */
function summaryApi(clock: { now: Date }) {
  return validatingHandler(reports.createHandler(api.config, { repository: dynamoRepository(table, { retention: api.config.retention }), now: () => clock.now }));
}

describe('GET /summary with If-None-Match', () => {
  it('answers 304 after ONE read while nothing changed; a change or time ageing a heartbeat past the online threshold ends it', async () => {
    await api.data.putTenant({ id: 'initech', name: 'Initech' });
    await device('initech', 'e-1');
    const t = minuteStart(Date.now()) + 2_000;
    await ingestHeartbeat({ tenantId: 'initech', deviceId: 'e-1', at: new Date(t).toISOString() }, table);
    const clock = { now: new Date(t + 30_000) };
    const ini = { sub: 'sub-ini', groups: ['initech'] };
    const h = summaryApi(clock);
    const first = await call(h, { method: 'GET', path: '/summary', caller: ini });
    expect(first.statusCode, first.body).toBe(200);
    const etag = hdr(first, 'ETag');
    expect(etag).toMatch(/^W\/"s2\./);
    expect(hdr(first, 'Cache-Control')).toBe('private, no-cache');

    ops.length = 0;
    const again = await call(h, { method: 'GET', path: '/summary', caller: ini, headers: { 'If-None-Match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(hdr(again, 'ETag')).toBe(etag);
    expect(ops.map((o) => o.op)).toEqual(['Query']);
    expect(ops[0]!.rcu).toBeLessThanOrEqual(0.5);

    // A same-minute heartbeat: still 304.
    await ingestHeartbeat({ tenantId: 'initech', deviceId: 'e-1', at: new Date(t + 40_000).toISOString() }, table);
    expect((await call(h, { method: 'GET', path: '/summary', caller: ini, headers: { 'If-None-Match': etag } })).statusCode).toBe(304);
    // Another series of the same tenant is another answer.
    expect((await call(h, { method: 'GET', path: '/summary', caller: ini, query: { from: '2026-01-01', to: '2026-01-31' }, headers: { 'If-None-Match': etag } })).statusCode).toBe(200);

    // Time alone: 5 min after its minute the device is no longer online; the old ETag no longer holds.
    clock.now = new Date(minuteStart(t) + 5 * 60_000 + 1);
    const aged = await call(h, { method: 'GET', path: '/summary', caller: ini, headers: { 'If-None-Match': etag } });
    expect(aged.statusCode).toBe(200);
    expect(bodyOf<Summary>(aged).devices.byStatus.online).toBe(bodyOf<Summary>(first).devices.byStatus.online - 1);
    const etag2 = hdr(aged, 'ETag');
    expect(etag2).not.toBe(etag);
    expect((await call(h, { method: 'GET', path: '/summary', caller: ini, headers: { 'If-None-Match': etag2 } })).statusCode).toBe(304);

    // A heartbeat that brings the device back online changes the statuses.
    await ingestHeartbeat({ tenantId: 'initech', deviceId: 'e-1', at: new Date(clock.now.getTime() - 1_000).toISOString() }, table);
    const back = await call(h, { method: 'GET', path: '/summary', caller: ini, headers: { 'If-None-Match': etag2 } });
    expect(back.statusCode).toBe(200);
    expect(bodyOf<Summary>(back).devices.byStatus.online).toBe(bodyOf<Summary>(first).devices.byStatus.online);

    // An incident created: 200 with a new ETag.
    const etag3 = hdr(back, 'ETag');
    await createIncident('initech', (seq) => newIncident('initech', seq, { title: 'Otra', description: 'x', severity: 'high', category: 'general' }, 'a@acme.example', clock.now.toISOString()), table);
    const changed = await call(h, { method: 'GET', path: '/summary', caller: ini, headers: { 'If-None-Match': etag3 } });
    expect(changed.statusCode).toBe(200);
    expect(hdr(changed, 'ETag')).not.toBe(etag3);
    // Another tenant's ETag never matches.
    const bob = { sub: 'sub-bob', groups: ['globex'] };
    expect((await call(h, { method: 'GET', path: '/summary', caller: bob, headers: { 'If-None-Match': hdr(changed, 'ETag') } })).statusCode).toBe(200);
  });

  it('while 100 devices beat every minute the 60-second poll answers 304 after ONE Query (≤ 0.5 RCU); a real change answers 200', async () => {
    await api.data.putTenant({ id: 'umbrella', name: 'Umbrella' });
    const ids = Array.from({ length: 100 }, (_, i) => `u-${String(i).padStart(3, '0')}`);
    for (const id of ids) await device('umbrella', id);
    const t0 = minuteStart(Date.now()) - 3 * 60_000 + 2_000;
    const beatAll = async (t: number) => {
      for (let i = 0; i < ids.length; i += 20) await Promise.all(ids.slice(i, i + 20).map((id) => ingestHeartbeat({ tenantId: 'umbrella', deviceId: id, at: new Date(t).toISOString() }, table)));
    };
    await beatAll(t0);
    const clock = { now: new Date(t0 + 30_000) };
    const um = { sub: 'sub-um', groups: ['umbrella'] };
    const h = summaryApi(clock);
    const first = await call(h, { method: 'GET', path: '/summary', caller: um });
    expect(first.statusCode, first.body).toBe(200);
    expect(bodyOf<Summary>(first).devices.byStatus.online).toBe(100);
    const etag = hdr(first, 'ETag');
    // Each minute every device beats (a new minute: recorded on the device, the histogram and the days) and the dashboard polls.
    for (const m of [1, 2]) {
      await beatAll(t0 + m * 60_000);
      clock.now = new Date(t0 + m * 60_000 + 30_000);
      ops.length = 0;
      const poll = await call(h, { method: 'GET', path: '/summary', caller: um, headers: { 'If-None-Match': etag } });
      expect(poll.statusCode, `minute ${m}`).toBe(304);
      // The summary's read: ONE Query of ≤ 0.5 RCU. (The caller's session-revocation marker, read at most every
      // REVOCATION_CACHE_MS = 30 s of the clock by the request plumbing, is the GetItem a 60-second poll also pays.)
      const summaryReads = ops.filter((o) => o.op !== 'GetItem');
      expect(summaryReads.map((o) => o.op)).toEqual(['Query']);
      expect(summaryReads[0]!.rcu).toBeLessThanOrEqual(0.5);
      expect(ops.filter((o) => o.op === 'GetItem').length).toBeLessThanOrEqual(1);
    }
    // A real change: an incident created → 200, the new figures.
    await createIncident('umbrella', (seq) => newIncident('umbrella', seq, { title: 'Cambio', description: 'x', severity: 'high', category: 'general' }, 'a@umbrella.example', clock.now.toISOString()), table);
    const changed = await call(h, { method: 'GET', path: '/summary', caller: um, headers: { 'If-None-Match': etag } });
    expect(changed.statusCode).toBe(200);
    expect(bodyOf<Summary>(changed).incidents.open).toBe(bodyOf<Summary>(first).incidents.open + 1);
    expect(bodyOf<Summary>(changed).devices.byStatus.online).toBe(100);
  }, 120_000);
});

describe('POST /ingest/heartbeats/batch', () => {
  it('applies the good entries, answers each bad one in its own result, and treats replays as replays', async () => {
    await device('acme', 'b-1');
    await device('acme', 'b-2');
    await device('globex', 'b-3');
    const ingest = api.handler('ingest');
    const t = minuteStart(Date.now()) - 3 * 60_000;
    const at = (ms: number) => new Date(t + ms).toISOString();
    const heartbeats = [
      { eventId: 'e0', tenantId: 'acme', deviceId: 'b-1', at: at(0) },
      { eventId: 'e1', tenantId: 'acme', deviceId: 'b-2', at: at(0) },
      { eventId: 'e2', tenantId: 'acme', deviceId: 'b-1', at: 'yesterday' },
      { eventId: 'e3', tenantId: 'acme', deviceId: 'nope', at: at(0) },
      { eventId: 'e4', tenantId: 'globex', deviceId: 'b-3', at: at(0) },
      { eventId: 'e5', tenantId: 'acme', deviceId: 'b-1', at: at(60_000) },
      { eventId: 'e6', tenantId: 'acme', deviceId: 'b-1', at: at(60_000) },
      42,
    ];
    const r = await ingest(collectorEvent('/ingest/heartbeats/batch', { heartbeats }, ACME_ONLY), lambdaContext);
    expect(r.statusCode, r.body).toBe(200);
    const res = bodyOf<HeartbeatBatchResult>(r);
    expect(res.results.map((x) => [x.index, x.eventId, x.status, x.error?.code ?? null])).toEqual([
      [0, 'e0', 'applied', null],
      [1, 'e1', 'applied', null],
      [2, 'e2', 'error', 'VALIDATION_FAILED'],
      [3, 'e3', 'error', 'NOT_FOUND'],
      [4, 'e4', 'error', 'FORBIDDEN'],
      [5, 'e5', 'applied', null],
      [6, 'e6', 'replay', null],
      [7, null, 'error', 'VALIDATION_FAILED'],
    ]);
    expect([res.applied, res.replayed, res.failed]).toEqual([3, 1, 4]);
    // The whole batch again (a collector retrying after a lost answer): nothing is applied twice.
    const again = bodyOf<HeartbeatBatchResult>(await ingest(collectorEvent('/ingest/heartbeats/batch', { heartbeats }, ACME_ONLY), lambdaContext));
    expect([again.applied, again.replayed, again.failed]).toEqual([0, 4, 4]);
    // A collector granted both tenants writes both; the device shows the last heartbeat.
    const both = bodyOf<HeartbeatBatchResult>(await ingest(collectorEvent('/ingest/heartbeats/batch', { heartbeats: heartbeats.slice(4, 5) }, COLLECTOR), lambdaContext));
    expect(both.results[0]!.status).toBe('applied');
    const dev = await table.doc.send('GetItem', { TableName: TABLE, Key: keys.device('acme', 'b-1') });
    expect(dev.Item?.lastHeartbeatAt).toBe(at(60_000));
    // Over the limit or empty: the envelope is refused as a whole (400), nothing applied.
    const tooMany = await ingest(collectorEvent('/ingest/heartbeats/batch', { heartbeats: Array.from({ length: 101 }, (_, i) => ({ eventId: `x${i}`, tenantId: 'acme', deviceId: 'b-1', at: at(120_000) })) }, ACME_ONLY), lambdaContext);
    expect([400, 413]).toContain(tooMany.statusCode);
    expect((await ingest(collectorEvent('/ingest/heartbeats/batch', { heartbeats: [] }, ACME_ONLY), lambdaContext)).statusCode).toBe(400);
    // A user-pool token is refused (collectors only).
    expect((await call(ingest, { method: 'POST', path: '/ingest/heartbeats/batch', caller: alice, body: { heartbeats } })).statusCode).toBe(403);
  });
});
