/**
 * The tenant's open outages at an instant (docs/data-model.md#outages), for the tenant-wide figures
 * (`GET /summary`, reports, analytics): the fleet's outage time per day from the heartbeat histogram alone
 * (`histogramOutage`), and the devices in an outage for the below-target list (`belowTargetWithOutages` in
 * lambdas/domain/outages.ts) — from the outage markers the SLA job keeps (`markOutages`,
 * docs/data-model.md#outage-markers), or the device list when they are behind.
 */
import { availability30d, availabilityFromRollup, availabilityWindowStart, maintenanceOfOutage, openOutage, OUTAGE_MAX_DAYS, withOpenOutage } from '../domain/devices.js';
import { coveringSpans } from '../domain/maintenance-availability.js';
import { maintenanceWindowsRepository } from './maintenance-windows.js';
import { devicesByStatus, devicesDown, histogramOutage, type Counters } from '../domain/aggregates.js';
import type { DeviceOutage, TenantOutages } from '../domain/ports.js';
import type { TableRef } from './table/client.js';
import { countersOf } from './aggregates.js';
import { mapLimit, queryAll } from './table/dynamo-util.js';
import { AVAIL_SK_MAX, keys } from './table/keys.js';
import { indexOf } from './access-patterns.js';
import { dayOf, rollupOf } from './devices.js';
import { dropOutageMarker, markOutage, OUTAGE_MARKER_PROJECTION, readOutageMarkers } from './outage-markers.js';

/** Day Queries of devices in an outage (only devices whose roll-up cannot give the figure), or marker writes, in flight at once. */
const OUTAGE_READ_CONCURRENCY = 8;

/**
 * The open outages of `tenantId` at `now` (`TenantOutages`): ONE GetItem of its heartbeat histogram (~0.3 KB;
 * none with `hist`), then `devicesInOutageOf`.
 */
export async function devicesInOutage(tenantId: string, now: Date, table: TableRef, hist?: Counters): Promise<TenantOutages> {
  if (hist) return devicesInOutageOf(tenantId, hist, now, table);
  const res = await table.doc.send('GetItem', { TableName: table.tableName, Key: keys.heartbeatStats(tenantId) });
  return devicesInOutageOf(tenantId, countersOf(res.Item), now, table);
}

/** Whether the device (its item or marker, `lastHeartbeatAt` recorded) is in an outage at `now` (`openOutage`). */
const inOutageAt = (now: Date) => (d: Record<string, unknown>): boolean => typeof d.lastHeartbeatAt === 'string' && openOutage(d.lastHeartbeatAt, now).size > 0;

/**
 * The tenant's devices in an outage at `now`, as device items projected to `OUTAGE_MARKER_ATTRIBUTES`, given
 * `down` (the heartbeat histogram's degraded + offline count, > 0): the outage markers (ONE Query,
 * docs/data-model.md#outage-markers) when exactly `down` of them are in an outage — else (a device went down
 * since the SLA job's last run, or the job has not run yet) the device list (GSI1 `TENANT#t#DEVICES`, 1 MB
 * pages). `source` says which.
 */
export async function readDevicesDown(tenantId: string, down: number, now: Date, table: TableRef): Promise<{ devices: Record<string, unknown>[]; source: 'markers' | 'device-list' }> {
  const marked = (await readOutageMarkers(table, tenantId)).filter(inOutageAt(now));
  if (marked.length === down) return { devices: marked, source: 'markers' };
  return { devices: (await readDeviceList(tenantId, table)).filter(inOutageAt(now)), source: 'device-list' };
}

/** The tenant's device list projected to `OUTAGE_MARKER_ATTRIBUTES` (GSI1 `TENANT#t#DEVICES`, 1 MB pages). */
async function readDeviceList(tenantId: string, table: TableRef): Promise<Record<string, unknown>[]> {
  return queryAll(table, {
    IndexName: indexOf('tenantLists'),
    KeyConditionExpression: 'GSI1PK = :p',
    ExpressionAttributeValues: { ':p': keys.devicesGsi1Pk(tenantId) },
    ...OUTAGE_MARKER_PROJECTION,
  });
}

/**
 * The SLA job's step for one tenant (docs/data-model.md#outage-markers): brings its outage markers in line
 * with its devices in an outage at `now`, given its heartbeat histogram `hist`. Nothing read when the histogram
 * shows no device down; ONE Query of the markers when they already match; otherwise the device list, then
 * `markOutage` for each device down without a current marker and ONE DeleteItem for each marker of a device
 * no longer down (a marker whose device moved is normally deleted by that write). Returns the markers written
 * and deleted; a device that moved meanwhile is left to the next run.
 */
export async function markOutages(tenantId: string, hist: Counters, now: Date, table: TableRef): Promise<{ marked: number; unmarked: number }> {
  const byStatus = devicesByStatus(hist, now);
  const down = devicesDown(byStatus);
  if (down === 0) return { marked: 0, unmarked: 0 };
  const markers = await readOutageMarkers(table, tenantId);
  const current = markers.filter(inOutageAt(now));
  if (current.length === down && current.length === markers.length) return { marked: 0, unmarked: 0 };
  const devices = (await readDeviceList(tenantId, table)).filter(inOutageAt(now));
  const markedAt = new Map(markers.map((m) => [String(m.id), m.lastHeartbeatAt]));
  const downIds = new Set(devices.map((d) => String(d.id)));
  const toMark = devices.filter((d) => markedAt.get(String(d.id)) !== d.lastHeartbeatAt);
  const written = await mapLimit(toMark, OUTAGE_READ_CONCURRENCY, (d) => markOutage(table, tenantId, d));
  const stale = markers.filter((m) => !downIds.has(String(m.id)));
  await mapLimit(stale, OUTAGE_READ_CONCURRENCY, (m) => dropOutageMarker(table, tenantId, String(m.id)));
  return { marked: written.filter(Boolean).length, unmarked: stale.length };
}

/**
 * Where the open outages of a histogram's fleet begin at the earliest (epoch ms): 00:00 UTC of the first day
 * of `dayMs` (`histogramOutage`: `yyyy-mm-dd` → ms), or `now` when it has none. A window Query from there
 * covers every device's outage the histogram counts.
 */
export function outageSpanStart(dayMs: Record<string, number>, now: Date): number {
  const first = Object.keys(dayMs).sort()[0];
  return first === undefined ? now.getTime() : Math.min(now.getTime(), Date.parse(`${first}T00:00:00.000Z`));
}

/**
 * The open outages of `tenantId` at `now` with its heartbeat histogram `hist` already read: the fleet's outage
 * time per day (`histogramOutage`: no request) and, when the histogram shows a degraded or offline device
 * (`devicesByStatus`; nothing read otherwise), the devices in an outage (`readDevicesDown`: the outage
 * markers, or the device list when they do not account for every device down) for the below-target list,
 * each device's figure with its outage from its roll-up (`availabilityFromRollup` with its `lastHeartbeatAt`:
 * no day read); only a device whose roll-up is stale, of the old shape or does not cover today gets ONE Query
 * of its days (at most `OUTAGE_READ_CONCURRENCY` at once). With a device down, ONE Query of the
 * maintenance windows over the outages: a device's outage time inside the windows covering it (by id or site)
 * is not downtime — left out of its figure and given as `maintenanceMs` for the fleet figures (`dayMs` stays
 * the histogram's whole outage time; docs/sla.md#maintenance-windows).
 */
export async function devicesInOutageOf(tenantId: string, hist: Counters, now: Date, table: TableRef): Promise<TenantOutages> {
  const dayMs = Object.fromEntries(histogramOutage(hist, now));
  const byStatus = devicesByStatus(hist, now);
  if (devicesDown(byStatus) === 0) return { dayMs, devices: [] };
  // The maintenance windows over the outages (docs/sla.md#maintenance-windows): ONE Query, at the same time as
  // the devices down, from the start of the histogram's earliest outage day (no device outage starts before it).
  const windowsOver = (start: number) => maintenanceWindowsRepository(table).overlapping(tenantId, new Date(start).toISOString(), now.toISOString());
  const histStart = outageSpanStart(dayMs, now);
  const [{ devices: down }, histWindows] = await Promise.all([readDevicesDown(tenantId, devicesDown(byStatus), now, table), windowsOver(histStart)]);
  const from = availabilityWindowStart(now);
  const earliest = down.reduce((m, d) => Math.min(m, Date.parse(String(d.lastHeartbeatAt))), Infinity);
  // An outage counts its last OUTAGE_MAX_DAYS days only (`outageDays`), so windows before those never matter; a
  // device's outage older than the histogram says (a histogram behind its devices) reads its windows again.
  const needed = Math.max(earliest, (Math.floor(now.getTime() / 86_400_000) - (OUTAGE_MAX_DAYS - 1)) * 86_400_000);
  const windows = needed < histStart ? await windowsOver(needed) : histWindows;
  const outages = await mapLimit(down, OUTAGE_READ_CONCURRENCY, async (d): Promise<DeviceOutage> => {
    const device = { deviceId: String(d.id), name: String(d.name), lastHeartbeatAt: String(d.lastHeartbeatAt) };
    const spans = coveringSpans(windows, { id: device.deviceId, site: typeof d.site === 'string' ? d.site : undefined }, Date.parse(device.lastHeartbeatAt), now.getTime());
    const maintenance = spans.length > 0 ? { maintenanceMs: maintenanceOfOutage(device.lastHeartbeatAt, now, spans) } : {};
    const pct = availabilityFromRollup(rollupOf(d), now, device.lastHeartbeatAt, spans);
    if (pct !== undefined) return { ...device, days: [], availability30d: pct, ...maintenance };
    const days = await queryAll(table, {
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': keys.devicePk(tenantId, device.deviceId), ':from': `AVAIL#${from}`, ':to': AVAIL_SK_MAX },
      ProjectionExpression: '#d, availablePct, monitoredSeconds, hbUpSeconds, hbMonitoredSeconds',
      ExpressionAttributeNames: { '#d': 'date' },
    });
    const stored = days.map(dayOf);
    return { ...device, days: stored, ...(spans.length > 0 ? { availability30d: availability30d(withOpenOutage(stored, device.lastHeartbeatAt, now, spans), now) } : {}), ...maintenance };
  });
  return { dayMs, devices: outages };
}
