/**
 * Device storage over the single table (keys in `keys.ts`): implements `DevicesPort` and exports the write
 * functions used by the seed and the collector simulator (`putDevice`, `recordHeartbeat`,
 * `putDailyAvailability`, `putAlarm`).
 */
import { PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Page } from '../contract/schemas.js';
import { OPEN_ALARM_STATES, type AlarmState, type DailyAvailability, type DevicesPort, type StoredDevice } from '../domain/devices.js';
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

/** A device alarm. Times ISO-8601 UTC. */
export interface DeviceAlarm {
  id: string;
  tenantId: string;
  deviceId: string;
  raisedAt: string;
  severity: 'critical' | 'high' | 'medium' | 'low';
  state: AlarmState;
  title: string;
  acknowledgedAt?: string | null;
  clearedAt?: string | null;
}

/** Creates or replaces an alarm (idempotent for fixed id + raisedAt); cleared alarms get a TTL. */
export async function putAlarm(alarm: DeviceAlarm, table: TableRef = defaultTable()): Promise<void> {
  const expiresAt =
    alarm.state === 'cleared'
      ? Math.floor(Date.parse(alarm.clearedAt ?? alarm.raisedAt) / 1000) + CLEARED_ALARM_RETENTION_DAYS * DAY_S
      : undefined;
  await table.doc.send(
    new PutCommand({
      TableName: table.tableName,
      Item: { ...keys.alarm(alarm.tenantId, alarm.deviceId, alarm.raisedAt, alarm.id), entity: ENTITY.alarm, ...alarm, expiresAt },
    }),
  );
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
      ProjectionExpression: '#d, availablePct, monitoredSeconds',
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
  return { days: days.map((d) => stripKeys<DailyAvailability>(d)), openAlarms: alarms };
}

/** The device storage as a `DevicesPort`. */
export function devicesRepository(table: TableRef): DevicesPort {
  return {
    listDevices: (t, opts) => listDevices(t, opts, table),
    deviceStats: (t, id, from) => deviceStats(t, id, from, table),
  };
}
