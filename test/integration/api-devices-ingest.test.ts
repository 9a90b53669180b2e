/**
 * Devices, alarms and collector ingest over the REAL handlers and dynoxide (in memory, random port):
 * heartbeats → status and availability per day / 7 / 30 / 90 days against the SLA target; alarms raised and
 * cleared by collectors (replays idempotent), listed with filters, acknowledged by customers
 * (active → acknowledged only; customers cannot use ingest routes, collectors carry an IAM identity).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, collectorEvent, startInProcessApi, type InProcessApi } from '../support/in-process-api.js';
import type { ApiHandler } from '../../lambdas/http/api.js';
import type { ApiErrorBody, DeviceAlarm, DeviceDetail, IngestResult, Page } from '../../lambdas/contract/schemas.js';
import { bodyOf, lambdaContext, type CallerSpec } from '../support/events.js';

const TABLE = 'vigia-devices-main';
const alice: CallerSpec = { sub: 'sub-alice', groups: ['acme'] };
const bob: CallerSpec = { sub: 'sub-bob', groups: ['globex'] };
/** A collector session of a role granted both tenants (docs/api.md#collectors-and-tenants). */
const COLLECTOR_ARN = 'arn:aws:sts::000000000000:assumed-role/vigia-collector/i-0abc';
/** A collector session of a role granted acme only. */
const ACME_COLLECTOR = { userArn: 'arn:aws:sts::000000000000:assumed-role/vigia-collector-acme/i-0def', accessKey: 'AKIDACME' };

let api: InProcessApi;
let devices: ApiHandler;
let ingest: ApiHandler;

/** The collector's IAM identity as API Gateway passes it for an IAM-authorised method. */
const COLLECTOR = { userArn: COLLECTOR_ARN, accessKey: 'AKIDLOCAL' };
const collect = (path: string, body: unknown) => ingest(collectorEvent(path, body, COLLECTOR), lambdaContext);

const NOW = Date.now();
const iso = (msAgo: number) => new Date(NOW - msAgo).toISOString();

beforeAll(async () => {
  api = await startInProcessApi({ table: TABLE });
  const { data } = api;
  devices = api.handler('devices');
  ingest = api.handler('ingest');
  await data.putTenant({ id: 'acme', name: 'Acme' });
  await data.putTenant({ id: 'globex', name: 'Globex' });
  await data.grantCollector('acme', 'arn:aws:iam::000000000000:role/vigia-collector');
  await data.grantCollector('globex', 'arn:aws:iam::000000000000:role/vigia-collector');
  await data.grantCollector('acme', 'arn:aws:iam::000000000000:role/vigia-collector-acme');
  const base = { type: 'firewall', site: 'Madrid', ipAddress: '10.0.0.1', vendor: 'Fortinet', model: 'FG-60F' };
  await data.putDevice({ ...base, tenantId: 'acme', id: 'fw-1', name: 'fw-a' });
  await data.putDevice({ ...base, tenantId: 'globex', id: 'gx-1', name: 'gx' });
  const day = (d: number) => new Date(NOW - d * 86_400_000).toISOString().slice(0, 10);
  // older history written by the collectors' daily roll-up
  await data.putDailyAvailability({ tenantId: 'acme', deviceId: 'fw-1', date: day(10), availablePct: 90 });
  await data.putDailyAvailability({ tenantId: 'acme', deviceId: 'fw-1', date: day(60), availablePct: 50 });
});

afterAll(async () => {
  await api?.stop();
});

describe('collector ingest', () => {
  it('heartbeats move status and measure availability; replays and stale beats change nothing', async () => {
    // Today (UTC) must hold all beats: use times within the last 3 hours, or shift into today.
    const startOfDay = Date.parse(new Date(NOW).toISOString().slice(0, 10) + 'T00:00:00Z');
    const t0 = Math.max(startOfDay + 1000, NOW - 3 * 3_600_000);
    const at = (ms: number) => new Date(t0 + ms).toISOString();
    const beats = [0, 60_000, 120_000, 120_000 + 20 * 60_000, 120_000 + 21 * 60_000].map(at); // one 20-min outage
    for (const [k, b] of beats.entries()) {
      const r = await collect('/ingest/heartbeats', { eventId: `hb-${k}`, tenantId: 'acme', deviceId: 'fw-1', at: b });
      expect(r.statusCode, r.body).toBe(202);
      expect(bodyOf<IngestResult>(r)).toEqual({ eventId: `hb-${k}`, applied: true });
    }
    const replay = await collect('/ingest/heartbeats', { eventId: 'hb-1', tenantId: 'acme', deviceId: 'fw-1', at: beats[1] });
    expect(replay.statusCode).toBe(200);
    expect(bodyOf<IngestResult>(replay).applied).toBe(false);
    const unknown = await collect('/ingest/heartbeats', { eventId: 'x', tenantId: 'acme', deviceId: 'nope', at: beats[0] });
    expect(unknown.statusCode).toBe(404);
    const foreign = await collect('/ingest/heartbeats', { eventId: 'x', tenantId: 'acme', deviceId: 'gx-1', at: beats[0] });
    expect(foreign.statusCode).toBe(404);

    // Read one minute after the last beat: the device is online, so no open outage (docs/data-model.md#outages)
    // adds to its day; the outage rule itself is proven in open-outages.test.ts.
    const readAt = api.handler('devices', { now: () => new Date(Date.parse(beats[4]!) + 60_000) });
    const r = await call(readAt, { method: 'GET', path: '/devices/fw-1', caller: alice });
    expect(r.statusCode, r.body).toBe(200);
    const d = bodyOf<DeviceDetail>(r);
    expect(d.lastHeartbeatAt).toBe(beats[4]);
    expect(d.status).toBe('online');
    const today = d.daily.find((x) => x.date === beats[4]!.slice(0, 10))!;
    // monitored 23 min, up 3 min (the 20-min gap exceeds the online threshold)
    expect(today.monitoredSeconds).toBe(23 * 60);
    expect(today.availablePct).toBeCloseTo((3 / 23) * 100, 2);
    expect(d.slaTargetPct).toBe(99.5);
    expect(d.availability.last7d.days).toBe(7);
    expect(d.availability.last7d.meetsSla).toBe(false);
    // 90 days include the 50 % day 60 days ago; 7 days do not include the 90 % day 10 days ago
    const w30 = (23 * 60 * ((3 / 23) * 100) + 86_400 * 90) / (23 * 60 + 86_400);
    expect(d.availability.last30d.availablePct).toBeCloseTo(w30, 1);
    expect(d.availability.last90d.availablePct!).toBeLessThan(d.availability.last30d.availablePct!);
    expect(d.daily.map((x) => x.date)).toEqual([...d.daily.map((x) => x.date)].sort());
    // another tenant cannot see the device
    expect((await call(devices, { method: 'GET', path: '/devices/fw-1', caller: bob })).statusCode).toBe(404);
  });

  it('raises, lists, acknowledges and clears alarms with idempotent replays', async () => {
    const raise = (id: string, severity: string, ago: number) =>
      collect('/ingest/device-alarms', { action: 'raise', eventId: `r-${id}`, tenantId: 'acme', deviceId: 'fw-1', alarmId: id, severity, title: `Alarm ${id}`, at: iso(ago) });
    for (const [k, id] of ['a1', 'a2', 'a3', 'a4', 'a5'].entries()) expect((await raise(id, k % 2 ? 'high' : 'low', (10 - k) * 60_000)).statusCode).toBe(202);
    const replay = await raise('a1', 'low', 10 * 60_000);
    expect(replay.statusCode).toBe(200);
    expect(bodyOf<IngestResult>(replay).applied).toBe(false);

    const list = async (query: Record<string, string>, caller = alice) => {
      const out: DeviceAlarm[] = [];
      let cursor: string | null = null;
      do {
        const r = await call(devices, { method: 'GET', path: '/alarms', caller, query: { ...query, ...(cursor ? { cursor } : {}) } });
        expect(r.statusCode, r.body).toBe(200);
        const p = bodyOf<Page<DeviceAlarm>>(r);
        out.push(...p.items);
        cursor = p.nextCursor;
      } while (cursor);
      return out;
    };
    expect((await list({ limit: '2' })).map((a) => a.id)).toEqual(['a5', 'a4', 'a3', 'a2', 'a1']);
    expect((await list({ limit: '1', severity: 'high' })).map((a) => a.id)).toEqual(['a4', 'a2']);
    expect(await list({}, bob)).toEqual([]);

    const ack = (id: string, caller = alice) => call(devices, { method: 'POST', path: `/devices/fw-1/alarms/${id}/acknowledge`, caller });
    const a = await ack('a2');
    expect(a.statusCode, a.body).toBe(200);
    expect(bodyOf<DeviceAlarm>(a)).toMatchObject({ state: 'acknowledged', acknowledgedBy: 'sub-alice@example.com' });
    const again = await ack('a2');
    expect(again.statusCode).toBe(409);
    expect(bodyOf<ApiErrorBody>(again)).toMatchObject({ code: 'INVALID_TRANSITION', details: { state: 'acknowledged' } });
    expect((await ack('a2', bob)).statusCode).toBe(404);
    expect((await ack('nope')).statusCode).toBe(404);

    const clear = (id: string) => collect('/ingest/device-alarms', { action: 'clear', eventId: `c-${id}`, tenantId: 'acme', deviceId: 'fw-1', alarmId: id, at: iso(0) });
    expect((await clear('a2')).statusCode).toBe(202);
    expect(bodyOf<IngestResult>(await clear('a2')).applied).toBe(false);
    expect((await clear('a3')).statusCode).toBe(202);
    expect((await clear('zz')).statusCode).toBe(404);
    expect((await ack('a3')).statusCode).toBe(409);
    expect((await list({ state: 'cleared' })).map((x) => x.id)).toEqual(['a3', 'a2']);
    expect((await list({ state: 'active,acknowledged', deviceId: 'fw-1' })).map((x) => x.id)).toEqual(['a5', 'a4', 'a1']);
    const detail = bodyOf<DeviceDetail>(await call(devices, { method: 'GET', path: '/devices/fw-1', caller: alice }));
    expect(detail.openAlarms).toBe(3);
    expect(detail.activeAlarms.map((x) => x.id)).toEqual(['a5', 'a4', 'a1']);
  });

  it('lets a collector write only the tenants granted to its role (403 elsewhere, 404 for an unknown tenant)', async () => {
    const asAcme = (path: string, body: unknown) => ingest(collectorEvent(path, body, ACME_COLLECTOR), lambdaContext);
    const alarm = (tenantId: string, deviceId: string) => ({ action: 'raise', eventId: `ev-${tenantId}`, tenantId, deviceId, alarmId: `scoped-${tenantId}`, severity: 'high', title: 'CPU', at: iso(0) });
    const inGlobex = await asAcme('/ingest/device-alarms', alarm('globex', 'gx-1'));
    expect(inGlobex.statusCode, inGlobex.body).toBe(403);
    expect(bodyOf<ApiErrorBody>(inGlobex).code).toBe('FORBIDDEN');
    expect((await asAcme('/ingest/heartbeats', { eventId: 'h', tenantId: 'globex', deviceId: 'gx-1', at: iso(0) })).statusCode).toBe(403);
    expect((await asAcme('/ingest/recommendations', { eventId: 'r', recommendationId: 'r1', tenantId: 'globex', title: 'Parchear', rationale: 'r', priority: 'low', category: 'c', at: iso(0) })).statusCode).toBe(403);
    const inAcme = await asAcme('/ingest/device-alarms', alarm('acme', 'fw-1'));
    expect(inAcme.statusCode, inAcme.body).toBe(202);
    await asAcme('/ingest/device-alarms', { ...alarm('acme', 'fw-1'), action: 'clear', eventId: 'ev-acme-clear' });
    expect((await collect('/ingest/device-alarms', alarm('globex', 'gx-1'))).statusCode).toBe(202);
    await collect('/ingest/device-alarms', { ...alarm('globex', 'gx-1'), action: 'clear', eventId: 'ev-globex-clear' });
    expect((await asAcme('/ingest/heartbeats', { eventId: 'h', tenantId: 'initech', deviceId: 'x', at: iso(0) })).statusCode).toBe(404);
    const stranger = await ingest(collectorEvent('/ingest/heartbeats', { eventId: 'h', tenantId: 'acme', deviceId: 'fw-1', at: iso(0) }, { userArn: 'arn:aws:iam::000000000000:user/someone' }), lambdaContext);
    expect(stranger.statusCode).toBe(403);
  });

  it('keeps customers off ingest routes and collectors off customer routes', async () => {
    const asUser = await call(ingest, { method: 'POST', path: '/ingest/heartbeats', caller: alice, body: { eventId: 'e', tenantId: 'acme', deviceId: 'fw-1', at: iso(0) } });
    expect(asUser.statusCode).toBe(403);
    const anonymous = await call(ingest, { method: 'POST', path: '/ingest/heartbeats', caller: null, body: { eventId: 'e', tenantId: 'acme', deviceId: 'fw-1', at: iso(0) } });
    expect(anonymous.statusCode).toBe(401);
    const collectorOnDevices = await devices(collectorEvent('/devices/fw-1/alarms/a1/acknowledge', undefined, COLLECTOR), lambdaContext);
    expect(collectorOnDevices.statusCode).toBe(401);
    const bad = await collect('/ingest/device-alarms', { action: 'raise', eventId: 'e', tenantId: 'acme', deviceId: 'fw-1', alarmId: 'x', severity: 'bad', title: 't', at: iso(0), extra: 1 });
    expect(bad.statusCode).toBe(400);
    expect(bodyOf<ApiErrorBody>(bad).code).toBe('VALIDATION_FAILED');
  });
});
