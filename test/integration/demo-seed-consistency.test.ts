/**
 * The seeded demo devices over the REAL handlers and dynoxide (docs/local-emulation.md#demo-data,
 * docs/data-model.md#availability): the status page's 30-day availability (`GET /devices`) and the
 * 30-day report (`GET /reports` with the period the portal sends for "30 días") agree for every device,
 * and the seeded acknowledged alarms come back with who acknowledged them and when (also in a state folder
 * seeded before they carried those fields, after the seed's backfill).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startInProcessApi, type InProcessApi } from '../support/in-process-api.js';
import { bodyOf, type CallerSpec } from '../support/events.js';
import { createDocumentClient } from '../../lambdas/data/index.js';
import type { Device, DeviceAlarm, Page, Report } from '../../lambdas/contract/schemas.js';
import { DEVICE_ALARM_TYPES } from '../../lambdas/domain/alarm-types.js';
import { BACKFILL_ACKNOWLEDGED_BY, backfillDemoAlarmLifecycle, seedDemoDevices } from '../../scripts/local/seed.js';
import { DEMO_TENANTS } from '../../scripts/local/demo-data.js';

const TABLE = 'vigia-demo-seed';
const ana: CallerSpec = { sub: 'sub-ana', groups: ['acme'] };
let api: InProcessApi;
const now = Date.now();

beforeAll(async () => {
  api = await startInProcessApi({ table: TABLE });
  await api.data.putTenant({ id: 'acme', name: 'Acme' });
  const table = { doc: createDocumentClient(api.documentClientOptions()), tableName: TABLE };
  try {
    await seedDemoDevices(DEMO_TENANTS[0]!, now, table);
  } finally {
    table.doc.destroy();
  }
}, 120_000);
afterAll(async () => api?.stop());

describe('seeded demo devices', () => {
  it('the 30-day report lists below the target exactly the devices the status page shows below it, with the same figures', async () => {
    const devices = api.handler('devices');
    const reports = api.handler('reports');
    const list = bodyOf<Page<Device>>(await call(devices, { method: 'GET', path: '/devices', caller: ana, query: { limit: '100' } }));
    // The portal's "30 días" (`periodQuery`): `from` = 00:00 UTC of today − 29, `to` = now rounded down to the minute.
    const to = Math.floor(Date.now() / 60_000) * 60_000;
    const from = (Math.floor(to / 86_400_000) - 29) * 86_400_000;
    const report = bodyOf<Report>(await call(reports, { method: 'GET', path: '/reports', caller: ana, query: { from: new Date(from).toISOString(), to: new Date(to).toISOString() } }));
    expect(list.items.length).toBe(20);
    expect(list.items.filter((d) => d.availability30d !== null).length).toBeGreaterThan(10);
    const below = list.items
      .filter((d): d is Device & { availability30d: number } => d.availability30d !== null && d.availability30d < report.availability.slaTargetPct)
      .sort((a, b) => a.availability30d - b.availability30d || a.name.localeCompare(b.name))
      .slice(0, 10)
      .map((d) => ({ tenantId: 'acme', deviceId: d.id, name: d.name, availability30d: d.availability30d }));
    expect(below.length).toBeGreaterThan(0);
    expect(report.availability.belowSla).toEqual(below);
    expect(report.availability.fleetPct).not.toBeNull();
  });

  it('acknowledged alarms say who acknowledged them and when; a lost heartbeat has one name', async () => {
    const devices = api.handler('devices');
    const acked = bodyOf<Page<DeviceAlarm>>(await call(devices, { method: 'GET', path: '/alarms', caller: ana, query: { state: 'acknowledged', limit: '100' } }));
    expect(acked.items.length).toBeGreaterThan(0);
    for (const a of acked.items) {
      expect(a.acknowledgedBy).toMatch(/@vigia\.example$/);
      expect(Date.parse(a.acknowledgedAt!)).toBeGreaterThan(Date.parse(a.raisedAt));
    }
    const all = bodyOf<Page<DeviceAlarm>>(await call(devices, { method: 'GET', path: '/alarms', caller: ana, query: { limit: '100' } }));
    const heartbeat = all.items.filter((a) => /latido/i.test(a.title));
    expect(heartbeat.length).toBeGreaterThan(0);
    expect(new Set(heartbeat.map((a) => a.title))).toEqual(new Set([DEVICE_ALARM_TYPES.heartbeat_lost.title]));
  });

  it('a state seeded before the lifecycle fields gets them on the next start; other alarms are left alone', async () => {
    const table = { doc: createDocumentClient(api.documentClientOptions()), tableName: TABLE };
    const raisedAt = new Date(now - 3_600_000).toISOString();
    const old = { tenantId: 'acme', deviceId: 'dev-001', raisedAt, severity: 'high' as const, title: DEVICE_ALARM_TYPES.cpu_high.title };
    try {
      await api.data.putAlarm({ ...old, id: 'ALM-acme-01-8', state: 'acknowledged' });
      await api.data.putAlarm({ ...old, id: 'ALM-acme-01-9', state: 'cleared' });
      await api.data.putAlarm({ ...old, id: 'sim-x', state: 'acknowledged' });
      await api.data.putAlarm({ ...old, id: 'ALM-acme-01-7', state: 'active', title: 'Dispositivo sin latido', severity: 'critical' });
      expect(await backfillDemoAlarmLifecycle(table, now)).toBe(3);
      expect(await backfillDemoAlarmLifecycle(table, now)).toBe(0);
    } finally {
      table.doc.destroy();
    }
    const devices = api.handler('devices');
    const items = bodyOf<Page<DeviceAlarm>>(await call(devices, { method: 'GET', path: '/alarms', caller: ana, query: { deviceId: 'dev-001', limit: '100' } })).items;
    const byId = new Map(items.map((a) => [a.id, a]));
    expect(byId.get('ALM-acme-01-8')).toMatchObject({ state: 'acknowledged', acknowledgedBy: BACKFILL_ACKNOWLEDGED_BY, acknowledgedAt: new Date(now - 40 * 60_000).toISOString() });
    expect(byId.get('ALM-acme-01-9')).toMatchObject({ state: 'cleared', clearedAt: new Date(now).toISOString() });
    expect(byId.get('sim-x')).toMatchObject({ acknowledgedBy: null, acknowledgedAt: null });
    expect(byId.get('ALM-acme-01-7')).toMatchObject({ state: 'active', title: DEVICE_ALARM_TYPES.heartbeat_lost.title, acknowledgedBy: null });
  });
});
