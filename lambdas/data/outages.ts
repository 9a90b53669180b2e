/**
 * The tenant's open outages at an instant (docs/data-model.md#outages), for the tenant-wide figures
 * (`GET /summary`, reports, analytics): the fleet's outage time per day from the heartbeat histogram alone
 * (`histogramOutage`), and the devices in an outage for the below-target list (`belowTargetWithOutages` in
 * lambdas/domain/outages.ts).
 */
import { availability30d, availabilityFromRollup, availabilityWindowStart, maintenanceOfOutage, openOutage, withOpenOutage } from '../domain/devices.js';
import { coveringSpans } from '../domain/maintenance-availability.js';
import { maintenanceWindowsRepository } from './maintenance-windows.js';
import { devicesByStatus, histogramOutage, type Counters } from '../domain/aggregates.js';
import type { DeviceOutage, TenantOutages } from '../domain/ports.js';
import type { TableRef } from './client.js';
import { countersOf } from './aggregates.js';
import { mapLimit, queryAll } from './dynamo-util.js';
import { AVAIL_SK_MAX, keys } from './keys.js';
import { indexOf } from './access-patterns.js';
import { dayOf, rollupOf } from './devices.js';

/** Day Queries of devices in an outage in flight at once (only devices whose roll-up cannot give the figure). */
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

/**
 * The open outages of `tenantId` at `now` with its heartbeat histogram `hist` already read: the fleet's outage
 * time per day (`histogramOutage`: no request) and, when the histogram shows a degraded or offline device
 * (`devicesByStatus`; nothing read otherwise), the devices in an outage (`openOutage`) for the below-target
 * list: the tenant's device list (GSI1 `TENANT#t#DEVICES`, pages of 1 MB, projected to the id, name, last
 * heartbeat and roll-up), each device's figure with its outage from its roll-up (`availabilityFromRollup` with
 * its `lastHeartbeatAt`: no day read); only a device whose roll-up is stale, of the old shape or does not
 * cover today gets ONE Query of its days (at most `OUTAGE_READ_CONCURRENCY` at once). With devices in an
 * outage, ONE Query of the maintenance windows over the outages: a device's outage time inside the windows
 * covering it (by id or site) is not downtime — left out of its figure and given as `maintenanceMs` for the
 * fleet figures (`dayMs` stays the histogram's whole outage time; docs/sla.md#maintenance-windows).
 */
export async function devicesInOutageOf(tenantId: string, hist: Counters, now: Date, table: TableRef): Promise<TenantOutages> {
  const dayMs = Object.fromEntries(histogramOutage(hist, now));
  const byStatus = devicesByStatus(hist, now);
  if (byStatus.degraded + byStatus.offline === 0) return { dayMs, devices: [] };
  const devices = await queryAll(table, {
    IndexName: indexOf('tenantLists'),
    KeyConditionExpression: 'GSI1PK = :p',
    ExpressionAttributeValues: { ':p': keys.devicesGsi1Pk(tenantId) },
    ProjectionExpression: 'id, #n, site, lastHeartbeatAt, availRev, availRollupRev, availAsOf, availSum30d, availMon30d, availPct30d',
    ExpressionAttributeNames: { '#n': 'name' },
  });
  const from = availabilityWindowStart(now);
  const down = devices.filter((d) => typeof d.lastHeartbeatAt === 'string' && openOutage(d.lastHeartbeatAt, now).size > 0);
  // The maintenance windows over the outages (docs/sla.md#maintenance-windows): ONE Query from the earliest.
  const earliest = down.reduce((m, d) => Math.min(m, Date.parse(String(d.lastHeartbeatAt))), Infinity);
  const windows = down.length > 0 ? await maintenanceWindowsRepository(table).overlapping(tenantId, new Date(earliest).toISOString(), now.toISOString()) : [];
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
