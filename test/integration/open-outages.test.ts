/**
 * Outages count while they last (issue 28, point 3; docs/data-model.md#outages), over the REAL handlers
 * (`GET /devices/{id}`, `GET /devices`, `GET /summary`, `GET /reports`, each at an injected `now`) on
 * dynoxide, IAM evaluated on every call:
 *  - a device that stops beating on Jan 31 at 20:00 UTC and never returns shows its downtime at +5 min 1 s,
 *    +60 min and +7 h (past UTC midnight and the month end), not at +1 min, and the same figure on the
 *    device page, the device list, the below-target list of the summary and of the report, and the fleet
 *    figure of the summary and the report; the January and February reports split it at midnight;
 *  - a device with the same history that returns at +7 h shows the same figure at that instant (its return
 *    heartbeat wrote what the readers added), counts the gap exactly once in its stored days, and the
 *    tenant's aggregates equal the ones rebuilt from the items.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startInProcessApi, type InProcessApi } from '../support/in-process-api.js';
import { bodyOf } from '../support/events.js';
import { rebuildTenantAggregates } from '../../lambdas/data/aggregates.js';
import type { Device, DeviceDetail, Page, Report, Summary } from '../../lambdas/contract/schemas.js';

const TABLE = 'vigia-outages-main';
const TENANT = 'hooli';
const ana = { sub: 'sub-ana', groups: [TENANT] };
const LAST = Date.parse('2026-01-31T20:00:00.000Z');
const MIN = 60_000;
let api: InProcessApi;

beforeAll(async () => {
  api = await startInProcessApi({ table: TABLE });
  await api.data.putTenant({ id: TENANT, name: 'Hooli' });
  for (const id of ['fw-gone', 'fw-back']) {
    await api.data.putDevice({ tenantId: TENANT, id, name: id, type: 'firewall', site: 'Madrid', ipAddress: '10.0.0.1', vendor: 'Fortinet', model: 'FG-60F' }, new Date(LAST - 3 * 60 * MIN));
    // Jan 31 17:00 → 20:00, every 4 min: 3 h available.
    for (let t = LAST - 3 * 60 * MIN; t <= LAST; t += 4 * MIN) {
      expect(await api.data.ingestHeartbeat({ tenantId: TENANT, deviceId: id, at: new Date(t).toISOString() }, new Date(t))).toBe(true);
    }
  }
}, 120_000);

afterAll(async () => {
  await api?.stop();
});

/** Every screen's availability figures of `deviceId` at `now`. */
async function figures(deviceId: string, now: Date) {
  const get = async <T>(handler: 'devices' | 'reports', path: string, query?: Record<string, string>): Promise<T> => {
    const res = await call(api.handler(handler, { now: () => now }), { method: 'GET', path, caller: ana, ...(query ? { query } : {}) });
    expect(res.statusCode, `${path} ${res.body}`).toBe(200);
    return bodyOf(res) as T;
  };
  const detail = await get<DeviceDetail>('devices', `/devices/${deviceId}`);
  const list = await get<Page<Device>>('devices', '/devices');
  const summary = await get<Summary>('reports', '/summary');
  const report = await get<Report>('reports', '/reports');
  const below = (l: { deviceId: string; availability30d: number }[]) => l.find((d) => d.deviceId === deviceId)?.availability30d ?? null;
  return {
    detail: detail.availability30d,
    detail30: detail.availability.last30d.availablePct,
    list: list.items.find((d) => d.id === deviceId)!.availability30d,
    summaryBelow: below(summary.availability.belowSla),
    reportBelow: below(report.availability.belowSla),
    summaryFleet: summary.availability.pct30d,
    reportFleet: report.availability.fleetPct,
  };
}

const same = (pct: number | null, below: boolean) => ({
  detail: pct,
  detail30: pct,
  list: pct,
  summaryBelow: below ? pct : null,
  reportBelow: below ? pct : null,
  summaryFleet: pct,
  reportFleet: pct,
});
const pct = (up: number, monitored: number) => Math.round((up / monitored) * 10_000) / 100;

describe('a device that never returns', () => {
  it('shows its downtime on every screen alike, past midnight and the month end', async () => {
    // +1 min: online, nothing to count yet (both devices 3 h up).
    expect(await figures('fw-gone', new Date(LAST + MIN))).toEqual(same(100, false));
    // +5 min 1 s: past the online threshold, the 5 min 1 s count as down.
    expect(await figures('fw-gone', new Date(LAST + 5 * MIN + 1000))).toEqual(same(pct(3 * 3600, 3 * 3600 + 301), true));
    expect(await figures('fw-gone', new Date(LAST + 60 * MIN))).toEqual(same(75, true));
    // +7 h = Feb 1 03:00: 4 h down on Jan 31, 3 h on Feb 1.
    const at7h = new Date(LAST + 7 * 60 * MIN);
    expect(await figures('fw-gone', at7h)).toEqual(same(30, true));
    const detail = bodyOf(await call(api.handler('devices', { now: () => at7h }), { method: 'GET', path: '/devices/fw-gone', caller: ana })) as DeviceDetail;
    expect(detail.daily.map((d) => [d.date, d.monitoredSeconds, d.availablePct])).toEqual([
      ['2026-01-31', 7 * 3600, pct(3, 7)],
      ['2026-02-01', 3 * 3600, 0],
    ]);
    // The month reports split the outage at midnight.
    const report = async (from: string, to: string) =>
      (bodyOf(await call(api.handler('reports', { now: () => at7h }), { method: 'GET', path: '/reports', caller: ana, query: { from, to } })) as Report).availability.fleetPct;
    expect(await report('2026-01-01T00:00:00.000Z', '2026-01-31T23:59:59.999Z')).toBe(pct(3, 7));
    expect(await report('2026-02-01T00:00:00.000Z', at7h.toISOString())).toBe(0);
  });
});

describe('a device that returns after an outage', () => {
  it('shows at its return what the readers showed, and counts the gap once', async () => {
    const back = new Date(LAST + 7 * 60 * MIN);
    const before = await figures('fw-back', back);
    expect(await api.data.ingestHeartbeat({ tenantId: TENANT, deviceId: 'fw-back', at: back.toISOString() }, back)).toBe(true);
    const after = await figures('fw-back', back);
    expect(after).toEqual(before);
    expect(after).toEqual(same(30, true));
    // One more heartbeat 2 min later: 2 min available, the outage not again.
    const next = new Date(back.getTime() + 2 * MIN);
    expect(await api.data.ingestHeartbeat({ tenantId: TENANT, deviceId: 'fw-back', at: next.toISOString() }, next)).toBe(true);
    const detail = bodyOf(await call(api.handler('devices', { now: () => next }), { method: 'GET', path: '/devices/fw-back', caller: ana })) as DeviceDetail;
    expect(detail.daily.map((d) => [d.date, d.monitoredSeconds])).toEqual([
      ['2026-01-31', 7 * 3600],
      ['2026-02-01', 3 * 3600 + 120],
    ]);
    expect(detail.availability30d).toBe(pct(3 * 3600 + 120, 10 * 3600 + 120));
    const list = bodyOf(await call(api.handler('devices', { now: () => next }), { method: 'GET', path: '/devices', caller: ana })) as Page<Device>;
    expect(list.items.find((d) => d.id === 'fw-back')!.availability30d).toBe(detail.availability30d);
    // The maintained aggregates equal the rebuilt ones.
    const { drift } = await rebuildTenantAggregates(api.data.table, TENANT, { write: false, now: next });
    expect(drift.filter((d) => !d.startsWith('stats.aggVersion'))).toEqual([]);
  });
});
