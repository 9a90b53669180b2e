/**
 * The staff alarm console (docs/api.md#alarm-console, docs/data-model.md#alarm-console): device alarms and
 * Office 365 alerts of every tenant in one list, newest raised first, filtered by tenant, severity, state and
 * kind. Each alarm has four entry copies (`AlarmConsoleEntryEntity`) written in the alarm's own transactions
 * (`alarmConsolePuts`); every combination of the filters is one index partition (`alarmConsolePlace`), so a
 * page is ONE Query of `limit` items at any number of tenants — no Scan, no fan-out, no FilterExpression.
 */
import type { AlarmConsoleItem, AlarmConsoleState, DeviceAlarm, Office365Alarm, Page } from '../contract/schemas.js';
import type { AlarmConsoleOptions } from '../domain/ports.js';
import type { TableRef, TransactWriteItem } from './table/client.js';
import { INDEX_ACCESS, indexOf } from './access-patterns.js';
import { decodeKeyCursor, encodeKeyCursor } from './table/cursor.js';
import { ALARM_CONSOLE_COPIES, ALARM_CONSOLE_SLOT_ACCESS, AlarmConsoleEntryEntity, alarmConsolePlace, itemOf, recordOf } from './entities.js';

/** Device alarm state → console state (`active` is still open). */
const DEVICE_STATE: Record<DeviceAlarm['state'], AlarmConsoleState> = { active: 'open', acknowledged: 'acknowledged', cleared: 'cleared' };
/** Office 365 alert status → console state: `investigating` is someone working on it (acknowledged), `resolved` is cleared. */
const O365_STATE: Record<Office365Alarm['status'], AlarmConsoleState> = { active: 'open', investigating: 'acknowledged', resolved: 'cleared' };

/** The console row of a device alarm. */
export function consoleItemOfDeviceAlarm(a: DeviceAlarm): AlarmConsoleItem {
  return {
    kind: 'device',
    tenantId: a.tenantId,
    id: a.id,
    deviceId: a.deviceId,
    deviceName: a.deviceName ?? null,
    affectedUser: null,
    title: a.title,
    severity: a.severity,
    state: DEVICE_STATE[a.state],
    sourceState: a.state,
    raisedAt: a.raisedAt,
    acknowledgedAt: a.acknowledgedAt,
    acknowledgedBy: a.acknowledgedBy,
    clearedAt: a.clearedAt,
    ...(a.inMaintenance ? { inMaintenance: true } : {}),
  };
}

/**
 * The console row of an Office 365 alert (`detectedAt` is when it was raised). Its state is Microsoft's status
 * on the console's scale, except that an `active` alert Vigía acknowledged (`acknowledgedAt`,
 * docs/api.md#acknowledging-office-365-alerts) is `acknowledged`; `sourceState` stays Microsoft's status.
 */
export function consoleItemOfO365Alarm(a: Office365Alarm): AlarmConsoleItem {
  return {
    kind: 'office365',
    tenantId: a.tenantId,
    id: a.id,
    deviceId: null,
    deviceName: null,
    affectedUser: a.affectedUser,
    title: a.title,
    severity: a.severity,
    state: a.status === 'active' && a.acknowledgedAt ? 'acknowledged' : O365_STATE[a.status],
    sourceState: a.status,
    raisedAt: a.detectedAt,
    acknowledgedAt: a.acknowledgedAt ?? null,
    acknowledgedBy: a.acknowledgedBy ?? null,
    clearedAt: null,
  };
}

/** The Puts of the four console copies of `item` (unconditional: the alarm's own write in the same transaction carries the condition). */
export function alarmConsolePuts(item: AlarmConsoleItem, table: TableRef): TransactWriteItem[] {
  return Array.from({ length: ALARM_CONSOLE_COPIES }, (_, copy) => ({ Put: { TableName: table.tableName, Item: itemOf(AlarmConsoleEntryEntity, { ...item, copy }) } }));
}

/**
 * One page of the alarm console, newest raised first: ONE Query (`Limit` = `opts.limit`) of the partition of
 * the filter combination (`alarmConsolePlace`), whatever the filters and the number of tenants. The cursor
 * is the LastEvaluatedKey bound to that partition.
 * @throws ApiError VALIDATION_FAILED for a cursor of another filter combination or of another shape.
 */
export async function listAlarmConsole(opts: AlarmConsoleOptions, table: TableRef): Promise<Page<AlarmConsoleItem>> {
  const place = alarmConsolePlace(opts);
  // The slot's index as the entity declares it (`AlarmConsoleEntryEntity.indexes`).
  const access = ALARM_CONSOLE_SLOT_ACCESS[place.slot];
  const idx = INDEX_ACCESS[access].index;
  const keyNames = [...new Set(['PK', 'SK', idx.partitionKey, idx.sortKey])].sort();
  const start = opts.cursor ? decodeKeyCursor(opts.cursor, { scope: place.pk, keyNames, partitionKey: idx.partitionKey, partition: place.pk, pkPrefix: 'TENANT#' }) : undefined;
  const res = await table.doc.send('Query', {
    TableName: table.tableName,
    IndexName: indexOf(access),
    KeyConditionExpression: '#p = :p',
    ExpressionAttributeNames: { '#p': idx.partitionKey },
    ExpressionAttributeValues: { ':p': place.pk },
    ScanIndexForward: false,
    Limit: opts.limit,
    ExclusiveStartKey: start,
  });
  const last = res.LastEvaluatedKey;
  const nextCursor = encodeKeyCursor(place.pk, keyNames, last);
  return { items: (res.Items ?? []).map((i) => recordOf(AlarmConsoleEntryEntity, i)), nextCursor };
}
