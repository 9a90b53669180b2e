/**
 * Outage markers (docs/data-model.md#outage-markers): one small item per device in an outage, in the tenant's
 * partition `TENANT#<t>#OUTAGES` / `DEVICE#<id>`, holding a copy of the device item's attributes the
 * below-target list needs (`OUTAGE_MARKER_ATTRIBUTES`). So the tenant-wide views (`GET /summary`, reports,
 * analytics) read the devices down with ONE Query of a few items instead of the tenant's whole device list.
 *
 * The invariant: **a marker exists only while its device item still holds the values copied** — every write
 * that changes them deletes the marker:
 *  - the SLA job writes a marker (`markOutage`) in ONE TransactWriteItems [ConditionCheck device
 *    `lastHeartbeatAt = :copied`, Update heartbeat item `SET outageMarked`, Put marker], so a heartbeat that
 *    moved the device first cancels it;
 *  - the return heartbeat (`ingestHeartbeat`) reads the heartbeat item anyway: when it carries `outageMarked`,
 *    its transaction also deletes the marker and removes the flag (`outageMarkerDelete`); its condition on the
 *    flag as read cancels it when the job marked in between, and it is read again. A heartbeat of a device
 *    not marked writes nothing more (the hot path's cost is unchanged);
 *  - the seed and administration writes (`putDevice` of an existing device, `recordHeartbeat`,
 *    `putDailyAvailability`) delete the marker (`dropOutageMarker`, one DeleteItem).
 * The readers still check the markers against the heartbeat histogram's count of devices down and read the
 * device list when they differ (`devicesInOutageOf` in outages.ts), so a marker not yet written (the job runs
 * every 5 minutes) never hides a device.
 */
import type { TableRef, TransactWriteItem } from './table/client.js';
import { isConditionFailureInTransaction, isTransactionConflict, queryAll } from './table/dynamo-util.js';
import { keys } from './table/keys.js';

/** `entity` of a device's heartbeat item (`keys.heartbeat`; docs/data-model.md#heartbeats). */
export const HEARTBEAT_ITEM_ENTITY = 'DeviceHeartbeat';

/** `entity` of an outage marker item. */
export const OUTAGE_MARKER_ENTITY = 'DeviceOutageMarker';

/**
 * The device item's attributes a marker copies (and the device list's projection for the below-target list):
 * id, name, site, recorded last heartbeat (ISO-8601 UTC) and the availability roll-up (docs/data-model.md#device-roll-ups-so-get-devices-is-one-query).
 */
export const OUTAGE_MARKER_ATTRIBUTES = ['id', 'name', 'site', 'lastHeartbeatAt', 'availRev', 'availRollupRev', 'availAsOf', 'availSum30d', 'availMon30d', 'availPct30d'] as const;

/** `ProjectionExpression` and its names for `OUTAGE_MARKER_ATTRIBUTES` (`name` is a reserved word). */
export const OUTAGE_MARKER_PROJECTION = {
  ProjectionExpression: OUTAGE_MARKER_ATTRIBUTES.map((a) => (a === 'name' ? '#n' : a)).join(', '),
  ExpressionAttributeNames: { '#n': 'name' },
} as const;

/** The tenant's outage markers (ONE Query of its markers partition; a few hundred bytes each). */
export async function readOutageMarkers(table: TableRef, tenantId: string): Promise<Record<string, unknown>[]> {
  return queryAll(table, { KeyConditionExpression: 'PK = :p', ExpressionAttributeValues: { ':p': keys.outageMarkersPk(tenantId) }, ...OUTAGE_MARKER_PROJECTION });
}

/** The Delete of a device's marker inside a transaction (the return heartbeat's, when the heartbeat item carried the flag). */
export function outageMarkerDelete(table: TableRef, tenantId: string, deviceId: string): TransactWriteItem {
  return { Delete: { TableName: table.tableName, Key: keys.outageMarker(tenantId, deviceId) } };
}

/** Deletes a device's marker, if any (one DeleteItem, 1 WCU): the writes outside the heartbeat path that change the device item. */
export async function dropOutageMarker(table: TableRef, tenantId: string, deviceId: string): Promise<void> {
  await table.doc.send('DeleteItem', { TableName: table.tableName, Key: keys.outageMarker(tenantId, deviceId) });
}

/**
 * Marks `device` (its item as read: `OUTAGE_MARKER_ATTRIBUTES`, with a string `lastHeartbeatAt`) as in an
 * outage: ONE TransactWriteItems [ConditionCheck device `lastHeartbeatAt = :read`; Update heartbeat item
 * `SET outageMarked = true` (created with `at = flushedAt = lastHeartbeatAt` when the device has none, as the
 * heartbeat path would read them); Put marker]. Returns false, writing nothing, when the device moved since it
 * was read (a heartbeat, a seed) or a concurrent write conflicted — the next run of the job tries again.
 */
export async function markOutage(table: TableRef, tenantId: string, device: Record<string, unknown>): Promise<boolean> {
  const deviceId = String(device.id);
  const copy = Object.fromEntries(OUTAGE_MARKER_ATTRIBUTES.filter((a) => device[a] !== undefined).map((a) => [a, device[a]]));
  try {
    await table.doc.send('TransactWriteItems', {
      TransactItems: [
        {
          ConditionCheck: {
            TableName: table.tableName,
            Key: keys.device(tenantId, deviceId),
            ConditionExpression: 'lastHeartbeatAt = :l',
            ExpressionAttributeValues: { ':l': device.lastHeartbeatAt },
          },
        },
        {
          Update: {
            TableName: table.tableName,
            Key: keys.heartbeat(tenantId, deviceId),
            UpdateExpression: 'SET outageMarked = :t, #at = if_not_exists(#at, :l), flushedAt = if_not_exists(flushedAt, :l), #e = if_not_exists(#e, :e)',
            ExpressionAttributeNames: { '#at': 'at', '#e': 'entity' },
            ExpressionAttributeValues: { ':t': true, ':l': device.lastHeartbeatAt, ':e': HEARTBEAT_ITEM_ENTITY },
          },
        },
        { Put: { TableName: table.tableName, Item: { ...keys.outageMarker(tenantId, deviceId), entity: OUTAGE_MARKER_ENTITY, ...copy } } },
      ],
    });
    return true;
  } catch (e) {
    if (isConditionFailureInTransaction(e) || isTransactionConflict(e)) return false;
    throw e;
  }
}
