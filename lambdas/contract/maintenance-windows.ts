/**
 * Contract of a tenant's maintenance windows (`GET`/`POST /maintenance-windows`, `PUT`/`DELETE
 * /maintenance-windows/{windowId}`; docs/api.md#maintenance-windows): planned work declared by the customer's
 * admin or by staff on some devices and/or whole sites, from `startAt` to `endAt` (ISO-8601 UTC). A device
 * alarm raised inside an active window is stored marked (`inMaintenance`) and notifies nobody; downtime inside a
 * window is not counted against availability (docs/sla.md#maintenance-windows). One item per window
 * (docs/data-model.md#maintenance-windows), with a `version` for optimistic concurrency.
 */
import * as z from 'zod';
import { Cursor, DeviceId, Limit, TenantQuery } from './schemas.js';

/** Longest accepted window (31 days): a longer one answers 400 WINDOW_TOO_LONG (planned work, not a blanket exemption). */
export const MAX_WINDOW_DAYS = 31;
/** Most devices and most sites one window names. */
export const MAX_WINDOW_DEVICES = 100;
export const MAX_WINDOW_SITES = 20;

/** A window id: `mw-` and 8–40 lowercase letters or digits. */
export const WindowId = z.string().regex(/^mw-[a-z0-9]{8,40}$/, 'invalid maintenance window id');
export const WindowIdParams = z.strictObject({ windowId: WindowId });

const Instant = z.iso.datetime();

/**
 * What a window covers: devices by id and/or every device of a site (by the device's `site`, exact text). At
 * least one device or site; no repeats.
 */
const unique = (l: readonly string[]) => new Set(l).size === l.length;
export const WindowScope = z
  .strictObject({
    deviceIds: z.array(DeviceId).max(MAX_WINDOW_DEVICES).refine(unique, 'deviceIds must not repeat').default([]),
    sites: z.array(z.string().trim().min(1).max(120)).max(MAX_WINDOW_SITES).refine(unique, 'sites must not repeat').default([]),
  })
  .refine((s) => s.deviceIds.length + s.sites.length > 0, { message: 'name at least one device or site', path: ['deviceIds'] });
export type WindowScope = z.infer<typeof WindowScope>;

/**
 * Body of `POST /maintenance-windows`. `endAt` not after `startAt` answers 400 WINDOW_ENDS_BEFORE_START and a
 * window longer than {@link MAX_WINDOW_DAYS} 400 WINDOW_TOO_LONG (domain rules, stable codes; nothing stored).
 */
export const CreateMaintenanceWindowBody = z.strictObject({
  title: z.string().trim().min(1).max(120),
  scope: WindowScope,
  startAt: Instant,
  endAt: Instant,
});
export type CreateMaintenanceWindowBody = z.infer<typeof CreateMaintenanceWindowBody>;

/** Body of `PUT /maintenance-windows/{windowId}`: the whole window and the `version` it was read at (409 VERSION_CONFLICT when it moved). */
export const UpdateMaintenanceWindowBody = CreateMaintenanceWindowBody.extend({ version: z.number().int().min(1) });
export type UpdateMaintenanceWindowBody = z.infer<typeof UpdateMaintenanceWindowBody>;

/** One maintenance window as stored and answered. */
export const MaintenanceWindow = z.object({
  windowId: WindowId,
  tenantId: z.string(),
  title: z.string(),
  scope: z.object({ deviceIds: z.array(z.string()), sites: z.array(z.string()) }),
  startAt: Instant,
  endAt: Instant,
  createdAt: Instant,
  /** E-mail (or `sub`) of who created it. */
  createdBy: z.string(),
  updatedAt: Instant,
  version: z.number().int().min(1),
});
export type MaintenanceWindow = z.infer<typeof MaintenanceWindow>;

/** Which windows `GET /maintenance-windows` lists, relative to now: not started, in progress, or ended. */
export const WINDOW_STATUSES = ['upcoming', 'active', 'past'] as const;
export type WindowStatus = (typeof WINDOW_STATUSES)[number];

/**
 * Query of `GET /maintenance-windows`: `status` upcoming/active (by end time, soonest first) or past (newest
 * first); none = every window not ended yet (active and upcoming). One Query per page.
 */
export const ListMaintenanceWindowsQuery = TenantQuery.extend({
  status: z.enum(WINDOW_STATUSES).optional(),
  limit: Limit,
  cursor: Cursor.optional(),
});
export type ListMaintenanceWindowsQuery = z.input<typeof ListMaintenanceWindowsQuery>;

/** Status of `w` at `now`. */
export function windowStatus(w: Pick<MaintenanceWindow, 'startAt' | 'endAt'>, now: Date): WindowStatus {
  const t = now.getTime();
  if (Date.parse(w.endAt) <= t) return 'past';
  return Date.parse(w.startAt) <= t ? 'active' : 'upcoming';
}
