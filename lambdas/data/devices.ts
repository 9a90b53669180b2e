/**
 * Device storage over the single table (keys in `keys.ts`): implements `DevicesPort` and exports the write
 * functions used by the seed and the collector simulator (`putDevice`, `recordHeartbeat`,
 * `putDailyAvailability`, `putAlarm`).
 */
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AlarmState, DeviceAlarm, Page } from '../contract/schemas.js';
import { HEARTBEAT_THRESHOLDS_MS, OPEN_ALARM_STATES, type DailyAvailability, type DevicesPort, type StoredDevice } from '../domain/devices.js';
import { filteredGsi1Page } from './paging.js';
import { defaultTable, type TableRef } from './client.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { isConditionFailure, queryAll, stripKeys } from './dynamo-util.js';
import { AVAIL_SK_MAX, ENTITY, keys } from './keys.js';

/** Daily availability items expire (TTL) this many days after their date. */
export const AVAILABILITY_RETENTION_DAYS = 400;
/** Cleared alarms expire (TTL) this many days after clearing. */
export const CLEARED_ALARM_RETENTION_DAYS = 90;

const DAY_S = 86_400;

/** Input of `putDevice`: the stored device; `lastHeartbeatAt` defaults to null (never seen). */
export type DeviceInput = Omit<StoredDevice, 'lastHeartbeatAt'> & { lastHeartbeatAt?: string | null };

/** Creates or replaces a device (idempotent for a fixed id). */
export async function putDevice(device: DeviceInput, table: TableRef = defaultTable()): Promise<void> {
  const d: StoredDevice = { ...device, lastHeartbeatAt: device.lastHeartbeatAt ?? null };
  await table.doc.send(
    new PutCommand({
      TableName: table.tableName,
      Item: { ...keys.device(d.tenantId, d.id), ...keys.deviceGsi1(d.tenantId, d.id, d.name), entity: ENTITY.device, ...d },
    }),
  );
}

/**
 * Records a heartbeat at `at` (ISO-8601 UTC). Only moves `lastHeartbeatAt` forward; returns false when the
 * device does not exist or already has a newer heartbeat.
 */
export async function recordHeartbeat(input: { tenantId: string; deviceId: string; at: string }, table: TableRef = defaultTable()): Promise<boolean> {
  try {
    await table.doc.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: keys.device(input.tenantId, input.deviceId),
        UpdateExpression: 'SET lastHeartbeatAt = :at',
        ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(lastHeartbeatAt) OR lastHeartbeatAt = :null OR lastHeartbeatAt < :at)',
        ExpressionAttributeValues: { ':at': input.at, ':null': null },
      }),
    );
    return true;
  } catch (e) {
    if (isConditionFailure(e)) return false;
    throw e;
  }
}

/**
 * Creates or replaces one day of availability (`date` yyyy-mm-dd UTC, `availablePct` 0–100,
 * `monitoredSeconds` default 86 400). Expires after `AVAILABILITY_RETENTION_DAYS`.
 */
export async function putDailyAvailability(
  input: { tenantId: string; deviceId: string; date: string; availablePct: number; monitoredSeconds?: number },
  table: TableRef = defaultTable(),
): Promise<void> {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(input.date)) throw new RangeError(`invalid date ${input.date}`);
  const day: DailyAvailability = { date: input.date, availablePct: input.availablePct, monitoredSeconds: input.monitoredSeconds ?? DAY_S };
  const expiresAt = Math.floor(Date.parse(`${input.date}T00:00:00Z`) / 1000) + AVAILABILITY_RETENTION_DAYS * DAY_S;
  await table.doc.send(
    new PutCommand({
      TableName: table.tableName,
      Item: { ...keys.availability(input.tenantId, input.deviceId, input.date), entity: ENTITY.availability, deviceId: input.deviceId, ...day, expiresAt },
    }),
  );
}

/** Input of `putAlarm` (seed): acknowledgement/clearing fields default to null. */
export type DeviceAlarmInput = Omit<DeviceAlarm, 'acknowledgedAt' | 'acknowledgedBy' | 'clearedAt'> &
  Partial<Pick<DeviceAlarm, 'acknowledgedAt' | 'acknowledgedBy' | 'clearedAt'>>;

function alarmItem(a: DeviceAlarm): Record<string, unknown> {
  const expiresAt =
    a.state === 'cleared' ? Math.floor(Date.parse(a.clearedAt ?? a.raisedAt) / 1000) + CLEARED_ALARM_RETENTION_DAYS * DAY_S : undefined;
  return {
    ...keys.alarm(a.tenantId, a.deviceId, a.id),
    ...keys.alarmGsi1(a.tenantId, a.deviceId, a.id, a.raisedAt),
    entity: ENTITY.alarm,
    ...a,
    expiresAt,
  };
}

/** Creates or replaces an alarm (idempotent for a fixed device + id); cleared alarms get a TTL. */
export async function putAlarm(alarm: DeviceAlarmInput, table: TableRef = defaultTable()): Promise<void> {
  const a: DeviceAlarm = { acknowledgedAt: null, acknowledgedBy: null, clearedAt: null, ...alarm };
  await table.doc.send(new PutCommand({ TableName: table.tableName, Item: alarmItem(a) }));
}

/** Raises an alarm unless one with this device + id exists (replays change nothing). Returns whether it was written. */
export async function raiseAlarm(alarm: DeviceAlarm, table: TableRef = defaultTable()): Promise<boolean> {
  try {
    await table.doc.send(
      new PutCommand({ TableName: table.tableName, Item: alarmItem(alarm), ConditionExpression: 'attribute_not_exists(PK)' }),
    );
    return true;
  } catch (e) {
    if (isConditionFailure(e)) return false;
    throw e;
  }
}

/**
 * Moves an alarm from one of `from` states to `to` with extra fields, atomically (condition on `state`).
 * Returns the updated alarm, or the current one with `changed: false` when its state is not in `from`;
 * null when the alarm does not exist.
 */
export async function transitionAlarm(
  tenantId: string,
  deviceId: string,
  alarmId: string,
  from: readonly AlarmState[],
  to: AlarmState,
  fields: Partial<Pick<DeviceAlarm, 'acknowledgedAt' | 'acknowledgedBy' | 'clearedAt'>>,
  table: TableRef = defaultTable(),
): Promise<{ alarm: DeviceAlarm; changed: boolean } | null> {
  const names: Record<string, string> = { '#s': 'state' };
  const values: Record<string, unknown> = { ':to': to };
  const sets = ['#s = :to'];
  from.forEach((f, i) => {
    values[`:f${i}`] = f;
  });
  for (const [k, v] of Object.entries(fields)) {
    names[`#${k}`] = k;
    values[`:${k}`] = v;
    sets.push(`#${k} = :${k}`);
  }
  if (to === 'cleared') {
    const at = fields.clearedAt ?? new Date().toISOString();
    names['#x'] = 'expiresAt';
    values[':x'] = Math.floor(Date.parse(at) / 1000) + CLEARED_ALARM_RETENTION_DAYS * DAY_S;
    sets.push('#x = :x');
  }
  try {
    const res = await table.doc.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: keys.alarm(tenantId, deviceId, alarmId),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: `attribute_exists(PK) AND #s IN (${from.map((_, i) => `:f${i}`).join(', ')})`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { alarm: stripKeys<DeviceAlarm>(res.Attributes ?? {}), changed: true };
  } catch (e) {
    if (!isConditionFailure(e)) throw e;
    const cur = await table.doc.send(new GetCommand({ TableName: table.tableName, Key: keys.alarm(tenantId, deviceId, alarmId), ConsistentRead: true }));
    return cur.Item ? { alarm: stripKeys<DeviceAlarm>(cur.Item), changed: false } : null;
  }
}

/** Filters of `listAlarms`. */
export interface AlarmListOptions {
  limit: number;
  cursor?: string | undefined;
  state?: readonly AlarmState[] | undefined;
  severity?: readonly string[] | undefined;
  deviceId?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

/**
 * One page of the tenant's alarms, newest raised first (Query GSI1 `TENANT#t#ALARMS`, BETWEEN on raisedAt,
 * FilterExpression for state/severity/device); same gap-free cursor rule as `listIncidents`.
 * @throws ApiError VALIDATION_FAILED for a foreign cursor or one outside from/to.
 */
export async function listAlarms(tenantId: string, opts: AlarmListOptions, table: TableRef = defaultTable()): Promise<Page<DeviceAlarm>> {
  const filters: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const inList = (attr: string, tag: string, vs: readonly string[]) => {
    names[`#${tag}`] = attr;
    const ph = vs.map((v, i) => {
      values[`:${tag}${i}`] = v;
      return `:${tag}${i}`;
    });
    filters.push(`#${tag} IN (${ph.join(', ')})`);
  };
  if (opts.state?.length) inList('state', 'st', opts.state);
  if (opts.severity?.length) inList('severity', 'sv', opts.severity);
  if (opts.deviceId) inList('deviceId', 'dv', [opts.deviceId]);
  const page = await filteredGsi1Page(table, {
    scope: keys.alarmsGsi1Pk(tenantId),
    tenantPrefix: keys.tenantPrefix(tenantId),
    lower: opts.from ?? '',
    upper: opts.to ? `${opts.to}#~` : '~',
    newestFirst: true,
    limit: opts.limit,
    cursor: opts.cursor,
    filter: filters.length ? { expression: filters.join(' AND '), names, values } : undefined,
  });
  return { items: page.items.map((i) => stripKeys<DeviceAlarm>(i)), nextCursor: page.nextCursor };
}

/** The stored device, or null (GetItem). */
export async function getDevice(tenantId: string, deviceId: string, table: TableRef = defaultTable()): Promise<StoredDevice | null> {
  const res = await table.doc.send(new GetCommand({ TableName: table.tableName, Key: keys.device(tenantId, deviceId) }));
  return res.Item ? stripKeys<StoredDevice>(res.Item) : null;
}

/** Daily availability since `fromDate` and the open alarms (newest first) of one device: one Query on its partition. */
export async function deviceHistory(
  tenantId: string,
  deviceId: string,
  fromDate: string,
  table: TableRef = defaultTable(),
): Promise<{ days: DailyAvailability[]; openAlarms: DeviceAlarm[] }> {
  const items = await queryAll(table, {
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': keys.devicePk(tenantId, deviceId), ':from': `ALARM#`, ':to': AVAIL_SK_MAX },
  });
  const days: DailyAvailability[] = [];
  const openAlarms: DeviceAlarm[] = [];
  for (const it of items) {
    const sk = String(it.SK);
    if (sk.startsWith('AVAIL#') && sk >= `AVAIL#${fromDate}`) days.push(dayOf(it));
    else if (sk.startsWith('ALARM#') && OPEN_ALARM_STATES.includes(it.state as AlarmState)) openAlarms.push(stripKeys<DeviceAlarm>(it));
  }
  openAlarms.sort((a, b) => b.raisedAt.localeCompare(a.raisedAt));
  return { days, openAlarms };
}

/**
 * Heartbeat from a collector at `at`: moves `lastHeartbeatAt` forward (condition: newer than the stored
 * one, so a replay or an out-of-order heartbeat changes nothing) and adds the interval since the previous
 * heartbeat to the day of `at` (UTC) as monitored time, and as available time when the interval is within
 * the online threshold (`HEARTBEAT_THRESHOLDS_MS.online`). Intervals are capped at one day; the first
 * heartbeat of a device only sets `lastHeartbeatAt`. Returns false when nothing changed (unknown device,
 * replay, stale). Day items expire after `AVAILABILITY_RETENTION_DAYS`.
 */
export async function ingestHeartbeat(input: { tenantId: string; deviceId: string; at: string }, table: TableRef = defaultTable()): Promise<boolean> {
  let previous: string | null;
  try {
    const res = await table.doc.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: keys.device(input.tenantId, input.deviceId),
        UpdateExpression: 'SET lastHeartbeatAt = :at',
        ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(lastHeartbeatAt) OR lastHeartbeatAt = :null OR lastHeartbeatAt < :at)',
        ExpressionAttributeValues: { ':at': input.at, ':null': null },
        ReturnValues: 'UPDATED_OLD',
      }),
    );
    const old = res.Attributes?.lastHeartbeatAt;
    previous = typeof old === 'string' ? old : null;
  } catch (e) {
    if (isConditionFailure(e)) return false;
    throw e;
  }
  if (previous === null) return true;
  const gapS = Math.min(DAY_S, Math.max(0, (Date.parse(input.at) - Date.parse(previous)) / 1000));
  const up = gapS * 1000 <= HEARTBEAT_THRESHOLDS_MS.online ? gapS : 0;
  const date = input.at.slice(0, 10);
  await table.doc.send(
    new UpdateCommand({
      TableName: table.tableName,
      Key: keys.availability(input.tenantId, input.deviceId, date),
      UpdateExpression: 'ADD hbMonitoredSeconds :m, hbUpSeconds :u SET #e = :e, deviceId = :d, #date = :date, expiresAt = :x',
      ExpressionAttributeNames: { '#e': 'entity', '#date': 'date' },
      ExpressionAttributeValues: {
        ':m': gapS,
        ':u': up,
        ':e': ENTITY.availability,
        ':d': input.deviceId,
        ':date': date,
        ':x': Math.floor(Date.parse(`${date}T00:00:00Z`) / 1000) + AVAILABILITY_RETENTION_DAYS * DAY_S,
      },
    }),
  );
  return true;
}

/**
 * A stored day → `DailyAvailability`: heartbeat-measured time (`hbUpSeconds`/`hbMonitoredSeconds`) when
 * present, else the figure written by `putDailyAvailability`.
 */
function dayOf(item: Record<string, unknown>): DailyAvailability {
  const hbM = Number(item.hbMonitoredSeconds ?? 0);
  if (hbM > 0) {
    const up = Number(item.hbUpSeconds ?? 0);
    return { date: String(item.date), availablePct: Math.min(100, (up / hbM) * 100), monitoredSeconds: hbM };
  }
  return { date: String(item.date), availablePct: Number(item.availablePct ?? 0), monitoredSeconds: Number(item.monitoredSeconds ?? 0) };
}

/** One page of the tenant's devices ordered by name (Query GSI1). */
export async function listDevices(
  tenantId: string,
  opts: { limit: number; cursor?: string },
  table: TableRef = defaultTable(),
): Promise<Page<StoredDevice>> {
  const scope = keys.devicesGsi1Pk(tenantId);
  const start = opts.cursor ? decodeCursor(opts.cursor, scope, keys.tenantPrefix(tenantId)) : undefined;
  const res = await table.doc.send(
    new QueryCommand({
      TableName: table.tableName,
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :p',
      ExpressionAttributeValues: { ':p': scope },
      Limit: opts.limit,
      ExclusiveStartKey: start,
    }),
  );
  return { items: (res.Items ?? []).map((i) => stripKeys<StoredDevice>(i)), nextCursor: encodeCursor(scope, res.LastEvaluatedKey) };
}

/** Availability days since `fromDate` and the open-alarm count of one device (two Queries on its partition). */
export async function deviceStats(
  tenantId: string,
  deviceId: string,
  fromDate: string,
  table: TableRef = defaultTable(),
): Promise<{ days: DailyAvailability[]; openAlarms: number }> {
  const pk = keys.devicePk(tenantId, deviceId);
  const [days, alarms] = await Promise.all([
    queryAll(table, {
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': pk, ':from': `AVAIL#${fromDate}`, ':to': AVAIL_SK_MAX },
      ProjectionExpression: '#d, availablePct, monitoredSeconds, hbUpSeconds, hbMonitoredSeconds',
      ExpressionAttributeNames: { '#d': 'date' },
    }),
    (async () => {
      let count = 0;
      let start: Record<string, unknown> | undefined;
      do {
        const res = await table.doc.send(
          new QueryCommand({
            TableName: table.tableName,
            KeyConditionExpression: 'PK = :pk AND begins_with(SK, :a)',
            FilterExpression: '#s IN (:s0, :s1)',
            ExpressionAttributeNames: { '#s': 'state' },
            ExpressionAttributeValues: { ':pk': pk, ':a': 'ALARM#', ':s0': OPEN_ALARM_STATES[0], ':s1': OPEN_ALARM_STATES[1] },
            Select: 'COUNT',
            ExclusiveStartKey: start,
          }),
        );
        count += res.Count ?? 0;
        start = res.LastEvaluatedKey;
      } while (start);
      return count;
    })(),
  ]);
  return { days: days.map(dayOf), openAlarms: alarms };
}

/** The device storage as a `DevicesPort`. */
export function devicesRepository(table: TableRef): DevicesPort {
  return {
    listDevices: (t, opts) => listDevices(t, opts, table),
    deviceStats: (t, id, from) => deviceStats(t, id, from, table),
    getDevice: (t, id) => getDevice(t, id, table),
    deviceHistory: (t, id, from) => deviceHistory(t, id, from, table),
    listAlarms: (t, opts) => listAlarms(t, opts, table),
    transitionAlarm: (t, d, a, from, to, fields) => transitionAlarm(t, d, a, from, to, fields, table),
    raiseAlarm: (a) => raiseAlarm(a, table),
    ingestHeartbeat: (i) => ingestHeartbeat(i, table),
  };
}
