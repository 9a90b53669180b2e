/**
 * The local demo data tells one consistent story (docs/local-emulation.md#demo-data): seeded acknowledged
 * alarms say who acknowledged them and when; an alarm type has one name in the seed and in the collector
 * simulator (`DEVICE_ALARM_TYPES`); no simulated Office 365 event is a failed `UserLoggedIn` (a failed
 * sign-in is its own operation, `UserLoginFailed`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DeviceAlarm } from '../../lambdas/contract/schemas.js';
import { DEVICE_ALARM_TYPES } from '../../lambdas/domain/alarm-types.js';
import { startCollector } from '../../scripts/local/collector.js';
import { DEMO_TENANTS, demoDevices, demoO365Events, o365Result } from '../../scripts/local/demo-data.js';

const NOW = Date.parse('2026-11-20T12:00:00.000Z');
const CATALOGUE_TITLES = new Set<string>(Object.values(DEVICE_ALARM_TYPES).map((t) => t.title));
const seededAlarms = DEMO_TENANTS.flatMap((t) => demoDevices(t, NOW).flatMap((d) => d.alarms.map((a) => ({ ...a, tenantId: t.id, deviceId: d.id }))));

describe('seeded device alarms', () => {
  it('acknowledged ones carry who acknowledged them and when (after raised, not after now)', () => {
    const acked = seededAlarms.filter((a) => a.state === 'acknowledged');
    expect(acked.length).toBeGreaterThan(0);
    for (const a of acked) {
      expect(a.acknowledgedBy).toMatch(/@/);
      const at = Date.parse(a.acknowledgedAt!);
      expect(at).toBeGreaterThan(Date.parse(a.raisedAt));
      expect(at).toBeLessThanOrEqual(NOW);
      expect(a.clearedAt).toBeNull();
    }
  });

  it('cleared ones carry when they cleared; active ones neither; all are valid DeviceAlarm records', () => {
    for (const a of seededAlarms) {
      expect(DeviceAlarm.parse(a)).toMatchObject({ id: a.id, state: a.state });
      if (a.state === 'cleared') expect(Date.parse(a.clearedAt!)).toBeGreaterThanOrEqual(Date.parse(a.raisedAt));
      if (a.state === 'active') expect([a.acknowledgedAt, a.acknowledgedBy, a.clearedAt]).toEqual([null, null, null]);
      if (a.state !== 'acknowledged') expect(a.acknowledgedBy).toBeNull();
    }
  });

  it('take every title from the alarm-type catalogue; a lost heartbeat has the catalogue name', () => {
    expect(seededAlarms.every((a) => CATALOGUE_TITLES.has(a.title))).toBe(true);
    const heartbeat = seededAlarms.filter((a) => a.title === DEVICE_ALARM_TYPES.heartbeat_lost.title);
    expect(heartbeat.length).toBeGreaterThan(0);
    expect(heartbeat.every((a) => a.severity === 'critical')).toBe(true);
  });
});

describe('collector simulator', () => {
  let server: Server;
  let url = '';
  const received: { path: string; body: Record<string, unknown> }[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      let text = '';
      req.on('data', (c: Buffer) => (text += c.toString('utf8')));
      req.on('end', () => {
        received.push({ path: req.url ?? '', body: JSON.parse(text) as Record<string, unknown> });
        res.writeHead(202, { 'Content-Type': 'application/json' });
        res.end('{"applied":true}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('raises an outage with the same alarm name and severity as the seed, and never sends a failed UserLoggedIn', async () => {
    // random() = 0.01: an outage every tick, the first operation (UserLoggedIn) every time, and a draw
    // below any failure rate: the draw that used to turn a sign-in into "UserLoggedIn · Fallido".
    const c = startCollector({ apiUrl: url, intervalMs: 3_600_000, outageProbability: 1, random: () => 0.01, devices: [{ tenantId: 'acme', id: 'd1' }, { tenantId: 'acme', id: 'd2' }] });
    await c.tick();
    await c.stop();
    const raised = received.filter((r) => r.path === '/ingest/device-alarms' && r.body.action === 'raise');
    expect(raised.length).toBeGreaterThan(0);
    for (const r of raised) expect([r.body.title, r.body.severity]).toEqual([DEVICE_ALARM_TYPES.heartbeat_lost.title, 'critical']);
    const events = received.filter((r) => r.path === '/ingest/office365/events');
    expect(events.some((e) => e.body.operation === 'UserLoggedIn')).toBe(true);
    expect(events.filter((e) => e.body.operation === 'UserLoggedIn').every((e) => e.body.result === 'Succeeded')).toBe(true);
  });
});

describe('Office 365 event outcomes', () => {
  it('a UserLoggedIn always succeeds and a UserLoginFailed always fails, whatever the draw', () => {
    for (const r of [0, 0.01, 0.5, 0.99]) {
      expect(o365Result('UserLoggedIn', () => r, 1)).toBe('Succeeded');
      expect(o365Result('UserLoginFailed', () => r, 0)).toBe('Failed');
    }
    expect(o365Result('FileDownloaded', () => 0.01, 0.15)).toBe('Failed');
    expect(o365Result('FileDownloaded', () => 0.99, 0.15)).toBe('Succeeded');
  });

  it('no seeded event is a failed UserLoggedIn', () => {
    const evs = DEMO_TENANTS.flatMap((t) => demoO365Events(t, NOW, 400));
    expect(evs.some((e) => e.operation === 'UserLoggedIn')).toBe(true);
    expect(evs.filter((e) => e.operation === 'UserLoggedIn' && e.result === 'Failed')).toEqual([]);
  });
});
