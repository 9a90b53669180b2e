/**
 * The tenant's devices in an outage at an instant (docs/data-model.md#outages), for the tenant-wide figures
 * (`GET /summary`, reports, analytics): `outageDayCounters` and `belowTargetWithOutages` (lambdas/domain/outages.ts) add them.
 */
import { availabilityWindowStart, openOutage } from '../domain/devices.js';
import { devicesByStatus } from '../domain/aggregates.js';
import type { DeviceOutage } from '../domain/ports.js';
import type { TableRef } from './client.js';
import { countersOf } from './aggregates.js';
import { mapLimit, queryAll } from './dynamo-util.js';
import { AVAIL_SK_MAX, keys } from './keys.js';
import { indexOf } from './access-patterns.js';
import { dayOf } from './devices.js';

/** Day Queries of devices in an outage in flight at once (a site-wide outage is hundreds of devices). */
const OUTAGE_READ_CONCURRENCY = 8;

/**
 * The devices of `tenantId` in an outage at `now` (`openOutage`), each with its stored days of the 30-day
 * window. First the tenant's heartbeat histogram (one GetItem, ~0.3 KB): when no minute of it is past the
 * online threshold (`devicesByStatus`: no degraded or offline device) nothing else is read. Otherwise the
 * tenant's device list (GSI1 `TENANT#t#DEVICES`, projected to id, name, lastHeartbeatAt; pages of 1 MB) and,
 * per device in an outage, ONE Query of its days — requests grow with the devices down, not with the fleet
 * when it is up.
 */
export async function devicesInOutage(tenantId: string, now: Date, table: TableRef): Promise<DeviceOutage[]> {
  const hist = await table.doc.send('GetItem', { TableName: table.tableName, Key: keys.heartbeatStats(tenantId) });
  const byStatus = devicesByStatus(countersOf(hist.Item), now);
  if (byStatus.degraded + byStatus.offline === 0) return [];
  const devices = await queryAll(table, {
    IndexName: indexOf('tenantLists'),
    KeyConditionExpression: 'GSI1PK = :p',
    ExpressionAttributeValues: { ':p': keys.devicesGsi1Pk(tenantId) },
    ProjectionExpression: 'id, #n, lastHeartbeatAt',
    ExpressionAttributeNames: { '#n': 'name' },
  });
  const from = availabilityWindowStart(now);
  const down = devices.filter((d) => typeof d.lastHeartbeatAt === 'string' && openOutage(d.lastHeartbeatAt, now).size > 0);
  return mapLimit(down, OUTAGE_READ_CONCURRENCY, async (d): Promise<DeviceOutage> => {
      const days = await queryAll(table, {
        KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': keys.devicePk(tenantId, String(d.id)), ':from': `AVAIL#${from}`, ':to': AVAIL_SK_MAX },
        ProjectionExpression: '#d, availablePct, monitoredSeconds, hbUpSeconds, hbMonitoredSeconds',
        ExpressionAttributeNames: { '#d': 'date' },
      });
      return { deviceId: String(d.id), name: String(d.name), lastHeartbeatAt: String(d.lastHeartbeatAt), days: days.map(dayOf) };
  });
}
