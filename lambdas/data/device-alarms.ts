/**
 * The alarms of ONE device (`GET /alarms?deviceId=`, the device page) from the device's own partition
 * (docs/data-model.md#search): its alarm items are `PK = TENANT#<t>#DEVICE#<id>`, `SK = ALARM#<alarmId>`, so
 * one Query reads them all — as many as that device has (cleared ones expire after 90 days), whatever the
 * tenant's size — instead of reading the tenant's alarm time list (GSI1) and discarding the other devices'.
 * They are ordered newest first by the alarm list's own sort key `<raisedAt>#<deviceId>#<id>` and paged with a
 * position cursor (`cursor.ts`'s `{ "p": <that key> }`: the next page holds the alarms after it).
 */
import type { DeviceAlarm, Page } from '../contract/schemas.js';
import type { AlarmListOptions } from '../domain/ports.js';
import type { TableRef } from './table/client.js';
import { decodePositionCursor, encodePositionCursor } from './table/cursor.js';
import { queryAll } from './table/dynamo-util.js';
import { AlarmEntity, recordOf } from './entities.js';
import { keys } from './table/keys.js';
import { filterExpression } from './table/paging.js';

/** The alarm list's sort key of `a` (its GSI1SK). */
const positionOf = (a: DeviceAlarm): string => keys.alarmGsi1(a.tenantId, a.deviceId, a.id, a.raisedAt).GSI1SK;

/**
 * One page of the alarms of device `opts.deviceId`, newest first, with the `state`/`severity` filters (a
 * FilterExpression on the device's partition) and `from`/`to` on `raisedAt`. ONE Query (more only past 1 MB).
 * @throws ApiError VALIDATION_FAILED for a cursor of another shape or another device.
 */
export async function listDeviceAlarms(tenantId: string, opts: AlarmListOptions & { deviceId: string }, table: TableRef): Promise<Page<DeviceAlarm>> {
  let after: string | undefined;
  // The position (a GSI1SK) must be of this device's alarms: a cursor of another device is refused.
  if (opts.cursor) after = decodePositionCursor(opts.cursor, (p) => p.length <= 400 && p.includes(`#${opts.deviceId}#`));
  const filter = filterExpression({ in: { state: opts.state, severity: opts.severity } });
  const items = await queryAll(table, {
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :a)',
    ...(filter ? { FilterExpression: filter.expression, ExpressionAttributeNames: filter.names } : {}),
    ExpressionAttributeValues: { ...filter?.values, ':pk': keys.devicePk(tenantId, opts.deviceId), ':a': 'ALARM#' },
  });
  const fromMs = opts.from ? Date.parse(opts.from) : -Infinity;
  const toMs = opts.to ? Date.parse(opts.to) : Infinity;
  const alarms = items
    .map((i) => recordOf(AlarmEntity, i))
    .filter((a) => Date.parse(a.raisedAt) >= fromMs && Date.parse(a.raisedAt) <= toMs)
    .map((a) => ({ a, p: positionOf(a) }))
    .filter((x) => after === undefined || x.p < after)
    .sort((x, y) => (x.p < y.p ? 1 : x.p > y.p ? -1 : 0));
  const page = alarms.slice(0, opts.limit);
  return { items: page.map((x) => x.a), nextCursor: alarms.length > opts.limit ? encodePositionCursor(page[page.length - 1]!.p) : null };
}
