/**
 * Maintenance windows (docs/api.md#maintenance-windows; issue 32 point 4) over the REAL devices handler on the
 * local engine behind the rules proxy (IAM evaluated on every call):
 *  - CRUD per role: acme's customer admin creates, lists, changes and removes; operator and viewer read only
 *    (403 ROLE_REQUIRED, nothing written); staff with TOTP act on any tenant, without TOTP 403 MFA_REQUIRED;
 *  - bad input: end before start 400 WINDOW_ENDS_BEFORE_START, > 31 days 400 WINDOW_TOO_LONG, a device of
 *    another tenant 400 UNKNOWN_DEVICE, a customer's window in the past 400 — nothing stored; stale version 409;
 *  - tenant isolation: globex gets 404 for acme's window and never lists it;
 *  - the list by status (upcoming / active / past) with a cursor, one Query per page;
 *  - a device alarm raised in an active window covering the device (by id or site) is stored `inMaintenance` with the
 *    window id and makes no activity event (no bell, e-mail or webhook); outside a window it does; the ingest's
 *    window check is ONE Query (captureCapacity).
 */
import { describe, expect, it } from 'vitest';
import type { MaintenanceWindow } from '../../lambdas/contract/maintenance-windows.js';
import { buildPath, ROUTES, type OperationId, type RouteDef } from '../../lambdas/contract/routes.js';
import type { Page } from '../../lambdas/contract/schemas.js';
import { bodyOf, lambdaContext, type CallerSpec } from '../support/events.js';
import { useExampleApi } from '../support/example-api.js';
import { call, collectorEvent } from '../support/in-process-api.js';
import { COLLECTOR_ARN } from '../support/route-examples.js';
import { captureCapacity, type CapturedRequest } from '../support/capacity-capture.js';
import { createDocumentClient, type TableRef } from '../../lambdas/data/table/client.js';
import { maintenanceWindowsRepository } from '../../lambdas/data/maintenance-windows.js';

const ana: CallerSpec = { sub: 'u-ana', email: 'ana@acme.example', groups: ['acme', 'customer-admin'] };
const acmeOperator: CallerSpec = { sub: 'u-op', email: 'olga@acme.example', groups: ['acme'] };
const acmeViewer: CallerSpec = { sub: 'u-vw', email: 'victor@acme.example', groups: ['acme', 'customer-viewer'] };
const globexAdmin: CallerSpec = { sub: 'u-gx', email: 'eva@globex.example', groups: ['globex', 'customer-admin'] };
const staff: CallerSpec = { sub: 'u-soc', email: 'soc@vigia.example', groups: ['admin'] };
const staffWithoutTotp: CallerSpec = { ...staff, sub: 'u-soc2', mfa: false };

const ctx = useExampleApi({ table: 'vigia-maintenance-windows' });
const row = (op: OperationId): RouteDef => ROUTES.find((r) => r.operationId === op)!;
const send = (op: OperationId, caller: CallerSpec, opts: { params?: Record<string, string>; query?: Record<string, string>; body?: unknown } = {}) =>
  call(ctx.handlers[row(op).handler], {
    method: row(op).method,
    path: buildPath(row(op).path, opts.params ?? {}),
    query: opts.query ?? {},
    caller,
    ...(opts.body !== undefined ? { body: opts.body } : {}),
  });

const HOUR = 3_600_000;
const iso = (msFromNow: number) => new Date(Date.now() + msFromNow).toISOString();
const body = (over: Record<string, unknown> = {}) => ({ title: 'Cambio de firmware', scope: { deviceIds: ['dev-1'], sites: [] }, startAt: iso(2 * HOUR), endAt: iso(4 * HOUR), ...over });

describe('maintenance windows', () => {
  it('acme admin creates, lists, changes and removes a window; each write audited', async () => {
    const created = await send('createMaintenanceWindow', ana, { body: body() });
    expect(created.statusCode, created.body).toBe(201);
    const w = bodyOf<MaintenanceWindow>(created);
    expect(w).toMatchObject({ tenantId: 'acme', title: 'Cambio de firmware', version: 1, createdBy: 'ana@acme.example', scope: { deviceIds: ['dev-1'], sites: [] } });
    const listed = bodyOf<Page<MaintenanceWindow>>(await send('listMaintenanceWindows', acmeViewer, { query: { status: 'upcoming' } }));
    expect(listed.items.map((i) => i.windowId)).toContain(w.windowId);

    const changed = await send('updateMaintenanceWindow', ana, { params: { windowId: w.windowId }, body: { ...body({ title: 'Firmware 2.1' }), version: 1 } });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(bodyOf<MaintenanceWindow>(changed)).toMatchObject({ title: 'Firmware 2.1', version: 2 });
    const stale = await send('updateMaintenanceWindow', ana, { params: { windowId: w.windowId }, body: { ...body(), version: 1 } });
    expect(stale.statusCode, stale.body).toBe(409);
    expect(bodyOf<{ code: string; details: { currentVersion: number } }>(stale)).toMatchObject({ code: 'VERSION_CONFLICT', details: { currentVersion: 2 } });

    const removed = await send('deleteMaintenanceWindow', ana, { params: { windowId: w.windowId } });
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await send('deleteMaintenanceWindow', ana, { params: { windowId: w.windowId } })).statusCode).toBe(404);

    const audit = bodyOf<{ items: Array<{ action: string; target: { id: string } }> }>(
      await call(ctx.handlers.admin, { method: 'GET', path: '/audit', query: {}, caller: ana }),
    );
    const actions = audit.items.filter((a) => a.target.id === w.windowId).map((a) => a.action);
    expect(actions.sort()).toEqual(['maintenance.create', 'maintenance.delete', 'maintenance.update']);
  });

  it('operator and viewer read only: 403 ROLE_REQUIRED and nothing stored', async () => {
    const before = await ctx.snapshot();
    for (const caller of [acmeOperator, acmeViewer]) {
      const r = await send('createMaintenanceWindow', caller, { body: body() });
      expect(r.statusCode, r.body).toBe(403);
      expect(bodyOf<{ code: string }>(r).code).toBe('ROLE_REQUIRED');
      const d = await send('deleteMaintenanceWindow', caller, { params: { windowId: 'mw-example00000001' } });
      expect(d.statusCode, d.body).toBe(403);
      expect((await send('listMaintenanceWindows', caller)).statusCode).toBe(200);
    }
    expect(await ctx.snapshot()).toBe(before);
  });

  it('bad input answers 400 with a stable code and stores nothing', async () => {
    const before = await ctx.snapshot();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ startAt: iso(4 * HOUR), endAt: iso(2 * HOUR) }, 'WINDOW_ENDS_BEFORE_START'],
      [{ startAt: iso(2 * HOUR), endAt: iso(2 * HOUR) }, 'WINDOW_ENDS_BEFORE_START'],
      [{ endAt: iso(2 * HOUR + 32 * 24 * HOUR) }, 'WINDOW_TOO_LONG'],
      [{ scope: { deviceIds: ['dev-1', 'no-such-device'], sites: [] } }, 'UNKNOWN_DEVICE'],
      [{ startAt: iso(-3 * HOUR), endAt: iso(HOUR) }, 'VALIDATION_FAILED'],
      [{ scope: { deviceIds: [], sites: [] } }, 'VALIDATION_FAILED'],
      [{ startAt: 'mañana' }, 'VALIDATION_FAILED'],
    ];
    for (const [over, code] of cases) {
      const r = await send('createMaintenanceWindow', ana, { body: body(over) });
      expect(r.statusCode, `${JSON.stringify(over)}: ${r.body}`).toBe(400);
      expect(bodyOf<{ code: string }>(r).code).toBe(code);
    }
    // acme's device is unknown to globex.
    const foreign = await send('createMaintenanceWindow', globexAdmin, { body: body() });
    expect(bodyOf<{ code: string; details: { deviceIds: string[] } }>(foreign)).toMatchObject({ code: 'UNKNOWN_DEVICE', details: { deviceIds: ['dev-1'] } });
    expect(await ctx.snapshot()).toBe(before);
  });

  it('another tenant gets 404 and never lists the window; staff need TOTP', async () => {
    const w = bodyOf<MaintenanceWindow>(await send('createMaintenanceWindow', ana, { body: body({ title: 'Solo acme' }) }));
    const before = await ctx.snapshot();
    const r = await send('updateMaintenanceWindow', globexAdmin, { params: { windowId: w.windowId }, body: { ...body(), version: 1 } });
    expect(r.statusCode, r.body).toBe(404);
    expect((await send('deleteMaintenanceWindow', globexAdmin, { params: { windowId: w.windowId } })).statusCode).toBe(404);
    expect((await send('deleteMaintenanceWindow', globexAdmin, { params: { windowId: w.windowId }, query: { tenant: 'acme' } })).statusCode).toBe(403);
    const globexList = bodyOf<Page<MaintenanceWindow>>(await send('listMaintenanceWindows', globexAdmin));
    expect(globexList.items).toEqual([]);
    const noTotp = await send('deleteMaintenanceWindow', staffWithoutTotp, { params: { windowId: w.windowId }, query: { tenant: 'acme' } });
    expect(bodyOf<{ code: string }>(noTotp).code).toBe('MFA_REQUIRED');
    expect(await ctx.snapshot()).toBe(before);
    const bySoc = await send('updateMaintenanceWindow', staff, { params: { windowId: w.windowId }, query: { tenant: 'acme' }, body: { ...body({ title: 'Por el SOC' }), version: 1 } });
    expect(bySoc.statusCode, bySoc.body).toBe(200);
  });

  it('lists by status with a cursor: upcoming, active (staff may declare a started window), past newest first', async () => {
    const t = { query: { tenant: 'acme' } };
    const mk = async (start: number, end: number, title: string) => {
      const r = await send('createMaintenanceWindow', staff, { ...t, body: body({ title, startAt: iso(start), endAt: iso(end) }) });
      expect(r.statusCode, r.body).toBe(201);
      return bodyOf<MaintenanceWindow>(r).windowId;
    };
    const active = await mk(-HOUR, HOUR, 'Activa');
    const past1 = await mk(-5 * HOUR, -4 * HOUR, 'Pasada 1');
    const past2 = await mk(-3 * HOUR, -2 * HOUR, 'Pasada 2');
    const ids = async (status: string) => bodyOf<Page<MaintenanceWindow>>(await send('listMaintenanceWindows', ana, { query: { status, limit: '20' } })).items.map((w) => w.windowId);
    expect(await ids('active')).toEqual([active]);
    expect(await ids('upcoming')).not.toContain(active);
    expect(await ids('past')).toEqual([past2, past1]);
    // A customer cannot change an ended window (it would change availability already reported).
    const ended = await send('deleteMaintenanceWindow', ana, { params: { windowId: past1 } });
    expect(bodyOf<{ code: string }>(ended).code).toBe('INVALID_TRANSITION');
    // Cursor: one per page, no repeats.
    const first = bodyOf<Page<MaintenanceWindow>>(await send('listMaintenanceWindows', ana, { query: { status: 'past', limit: '1' } }));
    expect(first.items.map((w) => w.windowId)).toEqual([past2]);
    const second = bodyOf<Page<MaintenanceWindow>>(await send('listMaintenanceWindows', ana, { query: { status: 'past', limit: '1', cursor: first.nextCursor! } }));
    expect(second.items.map((w) => w.windowId)).toEqual([past1]);
    // A cursor of the past list is refused on the not-ended list.
    const wrong = await send('listMaintenanceWindows', ana, { query: { cursor: first.nextCursor! } });
    expect(wrong.statusCode, wrong.body).toBe(400);
  });

  it('an alarm raised in an active window is marked and notifies nobody; outside a window it notifies', async () => {
    // dev-1 (site M) is covered by a window on its site from an hour ago (staff may declare a started one).
    const w = await send('createMaintenanceWindow', staff, { query: { tenant: 'acme' }, body: body({ title: 'Sitio M', scope: { deviceIds: [], sites: ['M'] }, startAt: iso(-HOUR), endAt: iso(HOUR) }) });
    expect(w.statusCode, w.body).toBe(201);
    const windowId = bodyOf<MaintenanceWindow>(w).windowId;
    const raise = (alarmId: string, at: string) =>
      ctx.handlers.ingest(collectorEvent('/ingest/device-alarms', { action: 'raise', eventId: `ev-${alarmId}`, tenantId: 'acme', deviceId: 'dev-1', alarmId, severity: 'critical', title: 'Enlace caído', at }, { userArn: COLLECTOR_ARN }), lambdaContext);
    expect((await raise('mw-in', iso(0))).statusCode).toBe(202);
    // Before the window started: a normal alarm.
    expect((await raise('mw-out', iso(-2 * HOUR))).statusCode).toBe(202);
    const alarms = bodyOf<Page<{ id: string; inMaintenance?: boolean; maintenanceWindowId?: string }>>(await send('listAlarms', ana, { query: { deviceId: 'dev-1', limit: '50' } }));
    // Marked with the covering window (the earlier test's active window on dev-1 may be the one found first).
    const marked = alarms.items.find((a) => a.id === 'mw-in');
    expect(marked).toMatchObject({ inMaintenance: true });
    expect(marked?.maintenanceWindowId).toMatch(/^mw-/);
    expect(windowId).toMatch(/^mw-/);
    expect(alarms.items.find((a) => a.id === 'mw-out')?.inMaintenance).toBeUndefined();
    const activity = bodyOf<Page<{ subject: { id: string } }>>(await call(ctx.handlers.account, { method: 'GET', path: '/activity', query: { limit: '100' }, caller: ana }));
    const subjects = activity.items.map((e) => e.subject.id);
    expect(subjects).toContain('dev-1/mw-out');
    expect(subjects).not.toContain('dev-1/mw-in');
    // The staff console shows it marked.
    const consoleRows = bodyOf<Page<{ id: string; inMaintenance?: boolean }>>(await call(ctx.handlers.devices, { method: 'GET', path: '/soc/alarms', query: { tenant: 'acme', limit: '50' }, caller: staff }));
    expect(consoleRows.items.find((a) => a.id === 'mw-in')?.inMaintenance).toBe(true);
  });

  it('the ingest reads the active windows with ONE Query', async () => {
    const table: TableRef = { doc: createDocumentClient(ctx.api.documentClientOptions()), tableName: 'vigia-maintenance-windows' };
    const captured: CapturedRequest[] = [];
    captureCapacity(table, captured);
    const now = new Date().toISOString();
    const active = await maintenanceWindowsRepository(table).overlapping('acme', now, now);
    expect(active.length).toBeGreaterThan(0);
    expect(captured.map((c) => c.op)).toEqual(['Query']);
    expect(captured[0]!.rcu).toBeLessThanOrEqual(1);
    console.log(`active windows: ${active.length}, ${captured[0]!.rcu} RCU`);
  });
});
