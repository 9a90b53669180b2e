/**
 * A tenant's maintenance windows (docs/api.md#maintenance-windows, docs/sla.md#maintenance-windows): planned
 * work on some devices and/or sites from `startAt` to `endAt`. Read by every member of the tenant (and staff);
 * created, changed and removed by the tenant's admins and by staff (route rows: `minRole: 'admin'`), each write
 * audited `maintenance.create|update|delete` in the same transaction.
 *
 * Rules (stable codes, nothing stored on a refusal):
 *  - `endAt` not after `startAt` → 400 WINDOW_ENDS_BEFORE_START; longer than 31 days → 400 WINDOW_TOO_LONG;
 *  - a device id the tenant does not have → 400 UNKNOWN_DEVICE (`details.deviceIds`);
 *  - a customer cannot declare work in the past (`startAt` more than {@link START_GRACE_MS} before now:
 *    400 VALIDATION_FAILED on `body.startAt`) nor change or remove a window that has ended (409
 *    INVALID_TRANSITION): either would erase downtime already counted, which contracts do not allow for
 *    unannounced work. Staff may (a window the SOC was told about in time);
 *  - a stale `version` → 409 VERSION_CONFLICT (`details.currentVersion`).
 */
import { randomBytes } from 'node:crypto';
import {
  MAX_WINDOW_DAYS,
  type CreateMaintenanceWindowBody,
  type ListMaintenanceWindowsQuery,
  type MaintenanceWindow,
  type UpdateMaintenanceWindowBody,
} from '../contract/maintenance-windows.js';
import type { Page } from '../contract/schemas.js';
import { auditEntryFor, type AuditRequest } from './audit.js';
import { ApiError } from './errors.js';
import type { DevicesPort, MaintenanceWindowsPort } from './ports.js';

/** How far in the past a customer's window may start (clock skew, "starting now"): 15 minutes. */
export const START_GRACE_MS = 15 * 60_000;
const DAY_MS = 86_400_000;


/** ISO-8601 in the one form stored (`toISOString`, milliseconds, `Z`), so string order = time order in the keys. */
const canonical = (iso: string): string => new Date(iso).toISOString();

/** Whether the window covers device `d` (by id, or by its site). */
export function windowCovers(w: Pick<MaintenanceWindow, 'scope'>, d: { id: string; site?: string | undefined }): boolean {
  return w.scope.deviceIds.includes(d.id) || (d.site !== undefined && w.scope.sites.includes(d.site));
}

/**
 * The checks of a window's times and devices (module doc).
 * @throws ApiError WINDOW_ENDS_BEFORE_START, WINDOW_TOO_LONG, VALIDATION_FAILED (customer, start in the past), UNKNOWN_DEVICE
 */
async function checkWindow(devices: Pick<DevicesPort, 'getDevice'>, tenantId: string, body: CreateMaintenanceWindowBody, req: AuditRequest, startChanged: boolean) {
  const start = Date.parse(body.startAt);
  const end = Date.parse(body.endAt);
  if (end <= start) throw new ApiError('WINDOW_ENDS_BEFORE_START', 'the window must end after it starts', { fields: ['endAt'] });
  if (end - start > MAX_WINDOW_DAYS * DAY_MS) throw new ApiError('WINDOW_TOO_LONG', `a maintenance window lasts at most ${MAX_WINDOW_DAYS} days`, { fields: ['endAt'], maxDays: MAX_WINDOW_DAYS });
  if (startChanged && !req.identity.isAdmin && start < req.now.getTime() - START_GRACE_MS) {
    throw new ApiError('VALIDATION_FAILED', 'a maintenance window cannot start in the past', [{ path: 'body.startAt', message: 'a maintenance window cannot start in the past' }]);
  }
  const found = await Promise.all(body.scope.deviceIds.map((id) => devices.getDevice(tenantId, id)));
  const unknown = body.scope.deviceIds.filter((_, i) => !found[i]);
  if (unknown.length) throw new ApiError('UNKNOWN_DEVICE', `unknown device: ${unknown.join(', ')}`, { fields: ['scope.deviceIds'], deviceIds: unknown });
}

/** A page of the tenant's windows (`status` relative to `now`). */
export function listMaintenanceWindows(store: MaintenanceWindowsPort, tenantId: string, q: ListMaintenanceWindowsQuery & { limit: number }, now: Date): Promise<Page<MaintenanceWindow>> {
  return store.list(tenantId, { status: q.status, now: now.toISOString(), limit: q.limit, cursor: q.cursor });
}

/** Creates a window (version 1), audited `maintenance.create`. @throws see {@link checkWindow} */
export async function createMaintenanceWindow(
  store: MaintenanceWindowsPort,
  devices: Pick<DevicesPort, 'getDevice'>,
  tenantId: string,
  body: CreateMaintenanceWindowBody,
  req: AuditRequest,
): Promise<MaintenanceWindow> {
  await checkWindow(devices, tenantId, body, req, true);
  const at = req.now.toISOString();
  const w: MaintenanceWindow = {
    windowId: `mw-${randomBytes(10).toString('hex')}`,
    tenantId,
    title: body.title,
    scope: { deviceIds: body.scope.deviceIds, sites: body.scope.sites },
    startAt: canonical(body.startAt),
    endAt: canonical(body.endAt),
    createdAt: at,
    createdBy: req.identity.email || req.identity.sub,
    updatedAt: at,
    version: 1,
  };
  const audit = auditEntryFor(req, tenantId, 'maintenance.create', { type: 'maintenance_window', id: w.windowId, name: w.title }, { after: summary(w) });
  if (!(await store.put(w, 0, audit))) throw new ApiError('VERSION_CONFLICT', 'the window exists already', { currentVersion: 1 });
  return w;
}

/** The audited fields of a window. */
const summary = (w: MaintenanceWindow) => ({ title: w.title, scope: w.scope, startAt: w.startAt, endAt: w.endAt, version: w.version });

/** The stored window, or 404; a customer on an ended window → 409 INVALID_TRANSITION. */
async function current(store: MaintenanceWindowsPort, tenantId: string, windowId: string, req: AuditRequest): Promise<MaintenanceWindow> {
  const w = await store.get(tenantId, windowId);
  if (!w) throw new ApiError('NOT_FOUND', `maintenance window ${windowId} not found`);
  if (!req.identity.isAdmin && Date.parse(w.endAt) <= req.now.getTime()) {
    throw new ApiError('INVALID_TRANSITION', 'an ended maintenance window cannot be changed or removed', { endAt: w.endAt });
  }
  return w;
}

const conflict = (v: number) => new ApiError('VERSION_CONFLICT', 'the window was changed by someone else; reload it', { currentVersion: v });

/** Replaces a window's title, scope and times when `body.version` is current, audited `maintenance.update` (changed fields). */
export async function updateMaintenanceWindow(
  store: MaintenanceWindowsPort,
  devices: Pick<DevicesPort, 'getDevice'>,
  tenantId: string,
  windowId: string,
  body: UpdateMaintenanceWindowBody,
  req: AuditRequest,
): Promise<MaintenanceWindow> {
  const w = await current(store, tenantId, windowId, req);
  if (w.version !== body.version) throw conflict(w.version);
  await checkWindow(devices, tenantId, body, req, canonical(body.startAt) !== w.startAt);
  const next: MaintenanceWindow = {
    ...w,
    title: body.title,
    scope: { deviceIds: body.scope.deviceIds, sites: body.scope.sites },
    startAt: canonical(body.startAt),
    endAt: canonical(body.endAt),
    updatedAt: req.now.toISOString(),
    version: w.version + 1,
  };
  const change = { before: summary(w), after: summary(next) };
  const audit = auditEntryFor(req, tenantId, 'maintenance.update', { type: 'maintenance_window', id: windowId, name: next.title }, change);
  if (!(await store.put(next, w.version, audit))) throw conflict((await store.get(tenantId, windowId))?.version ?? 0);
  return next;
}

/** Removes a window, audited `maintenance.delete`; answers the window removed. */
export async function deleteMaintenanceWindow(store: MaintenanceWindowsPort, tenantId: string, windowId: string, req: AuditRequest): Promise<MaintenanceWindow> {
  const w = await current(store, tenantId, windowId, req);
  const audit = auditEntryFor(req, tenantId, 'maintenance.delete', { type: 'maintenance_window', id: windowId, name: w.title }, { before: summary(w) });
  if (!(await store.delete(tenantId, windowId, w.version, audit))) throw conflict((await store.get(tenantId, windowId))?.version ?? 0);
  return w;
}
