/**
 * Maintenance excluded from availability at WRITE time (docs/sla.md#maintenance-windows), on the local engine
 * behind the rules proxy: two devices stop beating for 2 h; 1 h of it is inside a window covering the first
 * one (by id), the second is not covered. When they beat again, the first one's day records exactly 1 h of
 * downtime (the second 2 h), and the device page, the devices list and the dashboard's below-target list show
 * the same figure for it. The heartbeat that closes the gap costs exactly one Query of the windows (on the
 * lists index) and a heartbeat without downtime none.
 */
import { describe, expect, it } from 'vitest';
import { buildPath, ROUTES, type OperationId, type RouteDef } from '../../lambdas/contract/routes.js';
import type { MaintenanceWindow } from '../../lambdas/contract/maintenance-windows.js';
import type { DeviceDetail, Page, Summary } from '../../lambdas/contract/schemas.js';
import { createDocumentClient, type TableRef } from '../../lambdas/data/table/client.js';
import { ingestHeartbeat } from '../../lambdas/data/devices.js';
import { itemOf, MaintenanceWindowEntity } from '../../lambdas/data/entities.js';
import { keys } from '../../lambdas/data/table/keys.js';
import { captureCapacity, type CapturedRequest } from '../support/capacity-capture.js';
import { bodyOf, type CallerSpec } from '../support/events.js';
import { useExampleApi } from '../support/example-api.js';
import { call } from '../support/in-process-api.js';

const TABLE = 'vigia-maintenance-availability';
const ctx = useExampleApi({ table: TABLE });
const ana: CallerSpec = { sub: 'u-ana', email: 'ana@acme.example', groups: ['acme', 'customer-admin'] };
const row = (op: OperationId): RouteDef => ROUTES.find((r) => r.operationId === op)!;
const send = (op: OperationId, opts: { params?: Record<string, string>; query?: Record<string, string> } = {}) =>
  call(ctx.handlers[row(op).handler], { method: row(op).method, path: buildPath(row(op).path, opts.params ?? {}), query: opts.query ?? {}, caller: ana });

const MIN = 60_000;
const HOUR = 60 * MIN;
const iso = (ms: number) => new Date(ms).toISOString();

/** Stores acme's window `windowId` over `scope`, from 30 to 90 minutes after `t0` (ms), created at `t0` by the SOC. */
async function putWindow(table: TableRef, windowId: string, title: string, scope: MaintenanceWindow['scope'], t0: number): Promise<void> {
  const window: MaintenanceWindow = {
    windowId, tenantId: 'acme', title, scope,
    startAt: iso(t0 + 30 * MIN), endAt: iso(t0 + 90 * MIN),
    createdAt: iso(t0), createdBy: 'soc@vigia.example', updatedAt: iso(t0), version: 1,
  };
  await table.doc.send('PutItem', { TableName: TABLE, Item: itemOf(MaintenanceWindowEntity, window) });
}

describe('maintenance windows excluded from availability', () => {
  it('a 2 h gap with 1 h in a covering window records 1 h of downtime, the same figure everywhere; one Query more only for the closing heartbeat', async () => {
    const table: TableRef = { doc: createDocumentClient(ctx.api.documentClientOptions()), tableName: TABLE };
    const captured: CapturedRequest[] = [];
    captureCapacity(table, captured);
    const { data } = ctx.api;
    // The gap [t0, back): 2 h, ending 30 s ago (the devices are online when read).
    const back = Math.floor((Date.now() - 30_000) / 1000) * 1000;
    const t0 = back - 2 * HOUR;
    for (const id of ['mw-av-a', 'mw-av-b']) {
      await data.putDevice({ tenantId: 'acme', id, name: id, type: 'firewall', site: id === 'mw-av-a' ? 'Norte' : 'Sur', ipAddress: '10.9.0.1', vendor: 'v', model: 'm' });
    }
    await putWindow(table, 'mw-availability01', 'Firmware', { deviceIds: ['mw-av-a'], sites: [] }, t0);

    const beat = async (deviceId: string, at: number) => {
      captured.length = 0;
      expect(await ingestHeartbeat({ tenantId: 'acme', deviceId, at: iso(at) }, table)).toBe(true);
      return captured.map((c) => `${c.op}${c.index ? `@${c.index}` : ''}`);
    };
    const windowQueries = (ops: string[]) => ops.filter((o) => o.startsWith('Query@')).length;
    for (const id of ['mw-av-a', 'mw-av-b']) await beat(id, t0 - MIN);
    // A heartbeat without downtime (one minute after the previous): no window read.
    const normal = await beat('mw-av-a', t0);
    expect(windowQueries(normal)).toBe(0);
    await beat('mw-av-b', t0);
    // The heartbeats that close the 2 h gap: exactly one Query of the windows each; the covered device pays no more.
    const closeA = await beat('mw-av-a', back);
    const closeB = await beat('mw-av-b', back);
    expect(windowQueries(closeA)).toBe(1);
    expect(closeA).toEqual(closeB);
    // Otherwise the same requests as a heartbeat without downtime (on one UTC day: a new day reads its day item first).
    if (iso(t0).slice(0, 10) === iso(back).slice(0, 10)) expect(closeA.filter((o) => !o.startsWith('Query@'))).toEqual(normal);
    console.log(`normal heartbeat: ${normal.length} requests; closing heartbeat: ${closeA.length} requests (${closeA.join(', ')})`);

    // The day items: 1 h of downtime for the covered device, 2 h for the other (Σ over the gap's UTC days).
    const downtime = async (deviceId: string) => {
      const res = await table.doc.send('Query', {
        TableName: TABLE,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :d)',
        ExpressionAttributeValues: { ':pk': keys.devicePk('acme', deviceId), ':d': 'AVAIL#' },
      });
      return (res.Items ?? []).reduce((s, i) => s + Number(i.hbMonitoredSeconds ?? 0) - Number(i.hbUpSeconds ?? 0), 0);
    };
    expect(await downtime('mw-av-a')).toBe(3_600);
    expect(await downtime('mw-av-b')).toBe(7_200);

    // Same figure on the device page, the devices list and the dashboard's below-target list.
    const page = bodyOf<DeviceDetail>(await send('getDevice', { params: { id: 'mw-av-a' } }));
    const listed = bodyOf<Page<{ id: string; availability30d: number | null }>>(await send('listDevices', { query: { limit: '100', prefix: 'mw-av' } }));
    const summary = bodyOf<Summary>(await send('getSummary'));
    // 60 s up, then 1 h down (the window's hour is not monitored time).
    const expected = Math.round((60 / (60 + 3_600)) * 100 * 100) / 100;
    expect(page.availability30d).toBe(expected);
    expect(listed.items.find((d) => d.id === 'mw-av-a')?.availability30d).toBe(expected);
    expect(summary.availability.belowSla.find((d) => d.deviceId === 'mw-av-a')?.availability30d).toBe(expected);
    const other = Math.round((60 / (60 + 7_200)) * 100 * 100) / 100;
    expect(listed.items.find((d) => d.id === 'mw-av-b')?.availability30d).toBe(other);
    expect(summary.availability.belowSla.find((d) => d.deviceId === 'mw-av-b')?.availability30d).toBe(other);
  });

  it('while the outage is still open: the window hour is left out at read time, the same figure on the device page, the list and the dashboard', async () => {
    const table: TableRef = { doc: createDocumentClient(ctx.api.documentClientOptions()), tableName: TABLE };
    const { data } = ctx.api;
    const t0 = Math.floor((Date.now() - 2 * HOUR) / 1000) * 1000;
    // Covered by its site (the window names no device).
    await data.putDevice({ tenantId: 'acme', id: 'mw-av-c', name: 'mw-av-c', type: 'firewall', site: 'Este', ipAddress: '10.9.0.3', vendor: 'v', model: 'm' });
    await data.putDevice({ tenantId: 'acme', id: 'mw-av-d', name: 'mw-av-d', type: 'firewall', site: 'Oeste', ipAddress: '10.9.0.4', vendor: 'v', model: 'm' });
    await putWindow(table, 'mw-availability02', 'Sitio Este', { deviceIds: [], sites: ['Este'] }, t0);
    for (const id of ['mw-av-c', 'mw-av-d']) {
      expect(await ingestHeartbeat({ tenantId: 'acme', deviceId: id, at: iso(t0 - MIN) }, table)).toBe(true);
      expect(await ingestHeartbeat({ tenantId: 'acme', deviceId: id, at: iso(t0) }, table)).toBe(true);
    }
    const page = bodyOf<DeviceDetail>(await send('getDevice', { params: { id: 'mw-av-c' } }));
    const listed = bodyOf<Page<{ id: string; availability30d: number | null }>>(await send('listDevices', { query: { limit: '100', prefix: 'mw-av' } }));
    const summary = bodyOf<Summary>(await send('getSummary'));
    // 60 s up, then about 1 h down (the outage so far, less the window's hour); two decimals.
    const downS = (Date.now() - t0) / 1000 - 3_600;
    const expected = Math.round((60 / (60 + downS)) * 100 * 100) / 100;
    expect(page.availability30d).toBe(expected);
    expect(listed.items.find((d) => d.id === 'mw-av-c')?.availability30d).toBe(expected);
    expect(summary.availability.belowSla.find((d) => d.deviceId === 'mw-av-c')?.availability30d).toBe(expected);
    // The device the window does not cover: its whole outage (about 2 h) is downtime.
    const other = Math.round((60 / (60 + downS + 3_600)) * 100 * 100) / 100;
    expect(listed.items.find((d) => d.id === 'mw-av-d')?.availability30d).toBe(other);
    expect(summary.availability.belowSla.find((d) => d.deviceId === 'mw-av-d')?.availability30d).toBe(other);
  });
});
