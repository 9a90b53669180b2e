/**
 * Device storage over the single table (entities `DeviceEntity`, `AvailabilityEntity`, `AlarmEntity` in
 * `entities.ts`): implements `DevicesPort` and exports the write
 * functions used by the seed and the collector simulator (`putDevice`, `recordHeartbeat`,
 * `putDailyAvailability`, `putAlarm`).
 *
 * Roll-ups on the device item (docs/data-model.md, "Device roll-ups") so `GET /devices` is one Query:
 * - `openAlarms` (count of alarms in `OPEN_ALARM_STATES`): changed by `ADD` in the SAME TransactWriteItems
 *   as every alarm write that moves an alarm into or out of an open state.
 * - `availRev` (ADD 1 in the same write as every daily-availability change) and the roll-up
 *   `availAsOf` / `availSum30d` / `availMon30d` / `availRollupRev` (see `AvailabilityRollup`; top-level
 *   attributes, no nested map; the old shape held the figures `availPct30d` instead of the sums): rebuilt from scratch by `refreshAvailabilityRollup` after each such write, written only if
 *   `availRev` still equals the `rev` it read, so the last writer's roll-up — which read after every write —
 *   wins. A roll-up whose `availRollupRev` differs from `availRev` (a writer died between its two steps) is
 *   ignored by readers (from-scratch fallback).
 */
import { isIP } from 'node:net';
import type { AlarmState, DeviceAlarm, Page } from '../contract/schemas.js';
import { AVAILABILITY_SLA_TARGET_PCT, AVAILABILITY_WINDOW_DAYS, OPEN_ALARM_STATES, addDays, availabilityFromRollup, availabilityRollup, downtimeSpan, heartbeatTime, rollupOfSums } from '../domain/devices.js';
import { coveringSpans, type Span } from '../domain/maintenance-availability.js';
import { maintenanceWindowsRepository } from './maintenance-windows.js';
import type { AlarmListOptions, AvailabilityRollup, DailyAvailability, DevicesPort, ListedDevice, PageOptions, StoredDevice } from '../domain/ports.js';
import { ApiError } from '../domain/errors.js';
import { belowTargetOrder } from '../domain/outages.js';
import type { TableRef, TransactWriteItem } from './table/client.js';
import { aggregateWrites, alarmChange, bumpChangeMarker, bumpListMarker, foldHeartbeatHistogram, heartbeatMoveAction, moveHeartbeat } from './aggregates.js';
import { availabilityDay, delta, epochMinute, type Counters } from '../domain/aggregates.js';
import { auditPut } from './audit.js';
import { activityPuts } from './activity.js';
import { alarmEvent } from '../domain/activity.js';
import { decodePositionCursor, encodePositionCursor } from './table/cursor.js';
import { isConditionFailureInTransaction, isTransactionConflict, queryAll, RETRY, withRetries, writeIf } from './table/dynamo-util.js';
import { AlarmEntity, AvailabilityEntity, DeviceEntity, attributesOf, indexKeysOf, itemOf, recordOf } from './entities.js';
import { AVAIL_SK_MAX, keys } from './table/keys.js';
import { dropOutageMarker, HEARTBEAT_ITEM_ENTITY, outageMarkerDelete } from './outage-markers.js';
import { deviceIpKey, deviceNameKey } from '../domain/search.js';
import { listDeviceAlarms } from './device-alarms.js';
import { alarmTokenWrites, searchAlarms } from './alarm-search.js';
import { alarmConsolePuts, consoleItemOfDeviceAlarm, listAlarmConsole } from './alarm-console.js';
import { filterExpression, listPage, queryPage } from './table/paging.js';
import { DEFAULT_RETENTION, type Retention } from './retention.js';
import { indexOf } from './access-patterns.js';

const DAY_S = 86_400;

/** Input of `putDevice`: the stored device; `lastHeartbeatAt` defaults to null (never seen). */
export type DeviceInput = Omit<StoredDevice, 'lastHeartbeatAt'> & { lastHeartbeatAt?: string | null };

/** A device item → `StoredDevice` (keys and roll-up attributes dropped). */
export function storedDeviceOf(item: Record<string, unknown>): StoredDevice {
  return recordOf(DeviceEntity, item);
}

const isOpen = (s: AlarmState | undefined): boolean => s !== undefined && OPEN_ALARM_STATES.includes(s);

/** Open alarms of one device counted from its alarm items (Query `ALARM#…`, Select COUNT). */
async function countOpenAlarms(table: TableRef, tenantId: string, deviceId: string): Promise<number> {
  const open = filterExpression({ in: { state: OPEN_ALARM_STATES } })!;
  const res = await queryAll(table, {
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :a)',
    FilterExpression: open.expression,
    ExpressionAttributeNames: open.names,
    ExpressionAttributeValues: { ...open.values, ':pk': keys.devicePk(tenantId, deviceId), ':a': 'ALARM#' },
    Select: 'COUNT',
    ConsistentRead: true,
  });
  return res.count;
}

/**
 * Creates or replaces a device's stored fields (idempotent for a fixed id). An UpdateItem, so the
 * roll-ups survive; a device without `openAlarms` gets it counted from its alarm items, and the
 * availability roll-up is rebuilt. A new device is counted in the tenant's aggregates and the heartbeat
 * histogram follows `lastHeartbeatAt` (`moveHeartbeat`).
 */
export async function putDevice(device: DeviceInput, table: TableRef, now: Date = new Date()): Promise<void> {
  const d: StoredDevice = { ...device, lastHeartbeatAt: device.lastHeartbeatAt ?? null };
  const fields: Record<string, unknown> = { ...indexKeysOf(DeviceEntity, d), entity: DeviceEntity.name, ...attributesOf(DeviceEntity, d), lastHeartbeatAt: d.lastHeartbeatAt };
  const names: Record<string, string> = { '#open': 'openAlarms' };
  const values: Record<string, unknown> = { ':open': await countOpenAlarms(table, d.tenantId, d.id) };
  const sets = ['#open = if_not_exists(#open, :open)'];
  Object.entries(fields).forEach(([k, v], i) => {
    names[`#f${i}`] = k;
    values[`:f${i}`] = v;
    sets.push(`#f${i} = :f${i}`);
  });
  const res = await table.doc.send('UpdateItem', {
    TableName: table.tableName,
    Key: DeviceEntity.key(d),
    UpdateExpression: `SET ${sets.join(', ')}`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ReturnValues: 'ALL_OLD',
  });
  // The tenant's device count and heartbeat histogram (docs/data-model.md#aggregates).
  // A new device has no old item (dynoxide answers ALL_OLD with the key alone: docs/local-emulation.md).
  const old = res.Attributes?.entity !== undefined ? res.Attributes : undefined;
  await moveHeartbeat(table, d.tenantId, old ? ((old.lastHeartbeatAt as string | null | undefined) ?? null) : undefined, d.lastHeartbeatAt, now);
  await refreshAvailabilityRollup(d.tenantId, d.id, table, now);
  // A replaced device's marker copied what may just have changed (docs/data-model.md#outage-markers).
  if (old) await dropOutageMarker(table, d.tenantId, d.id);
  // A rename reaches the copies of the name on the device's alarms (docs/data-model.md#alarm-device-names).
  if (old && old.name !== d.name) await syncAlarmDeviceNames(table, d.tenantId, d.id, d.name);
}

/**
 * Alarms per TransactWriteItems of `syncAlarmDeviceNames`: each is its update and the Puts of its 4 alarm console
 * entries (5 items), + the device's ConditionCheck: 1 + 19 × 5 = 96 ≤ 100.
 */
const NAME_SYNC_BATCH = 19;

/**
 * Sets `deviceName` = `name` on every alarm item of the device that holds another name or none
 * (docs/data-model.md#alarm-device-names): ONE Query of the device's partition (`ALARM#…`, filtered to those
 * items; a device has at most its open alarms and 90 days of cleared ones), then TransactWriteItems of up to
 * 19 `SET deviceName` updates (each conditioned on the alarm's state read) with the Puts of their alarm console
 * entries (docs/data-model.md#alarm-console) plus a ConditionCheck that the device
 * still has `name` — so of two concurrent renames the later name is the one left (the earlier sync stops when
 * its check fails). Run by `putDevice` on a rename and by the upgrade step `upgradeAlarmDeviceNames`.
 * Returns how many alarms it changed.
 */
export async function syncAlarmDeviceNames(table: TableRef, tenantId: string, deviceId: string, name: string): Promise<number> {
  const changed = await syncAlarmNames(table, tenantId, deviceId, name);
  // The alarm list shows the names: its list marker moves after them (docs/api.md#conditional-requests).
  if (changed > 0) await bumpListMarker(table, tenantId, 'alarms');
  return changed;
}

async function syncAlarmNames(table: TableRef, tenantId: string, deviceId: string, name: string): Promise<number> {
  const stale = await queryAll(table, {
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :a)',
    FilterExpression: 'attribute_not_exists(deviceName) OR deviceName <> :n',
    ExpressionAttributeValues: { ':pk': keys.devicePk(tenantId, deviceId), ':a': 'ALARM#', ':n': name },
    ConsistentRead: true,
  });
  let changed = 0;
  for (let i = 0; i < stale.length; i += NAME_SYNC_BATCH) {
    const batch = stale.slice(i, i + NAME_SYNC_BATCH);
    try {
      await table.doc.send('TransactWriteItems', {
        TransactItems: [
          { ConditionCheck: { TableName: table.tableName, Key: keys.device(tenantId, deviceId), ConditionExpression: '#n = :n', ExpressionAttributeNames: { '#n': 'name' }, ExpressionAttributeValues: { ':n': name } } },
          // Each alarm (condition: still in the state read) and its console entries, rewritten with the name.
          ...batch.flatMap((item) => [
            {
              Update: {
                TableName: table.tableName,
                Key: { PK: item.PK, SK: item.SK },
                UpdateExpression: 'SET deviceName = :n',
                ConditionExpression: '#s = :s',
                ExpressionAttributeNames: { '#s': 'state' },
                ExpressionAttributeValues: { ':n': name, ':s': item.state },
              },
            },
            ...alarmConsolePuts(consoleItemOfDeviceAlarm({ ...recordOf(AlarmEntity, item), deviceName: name }), table),
          ]),
        ],
      });
      changed += batch.length;
    } catch (e) {
      // Renamed again meanwhile: that rename's sync writes its name. An alarm expired meanwhile: the rest again.
      if (isConditionFailureInTransaction(e, 0)) return changed;
      if (!isTransactionConflict(e) && !isConditionFailureInTransaction(e)) throw e;
      return changed + (await syncAlarmNames(table, tenantId, deviceId, name));
    }
  }
  return changed;
}

/** The Update of a transaction that adds `delta` to a device attribute, conditional on the device existing. */
function deviceAdd(table: TableRef, tenantId: string, deviceId: string, attr: 'openAlarms' | 'availRev', delta: number): TransactWriteItem {
  return {
    Update: {
      TableName: table.tableName,
      Key: keys.device(tenantId, deviceId),
      UpdateExpression: 'ADD #a :d',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeNames: { '#a': attr },
      ExpressionAttributeValues: { ':d': delta },
    },
  };
}

/**
 * Rebuilds the device's availability roll-up from its stored days (one consistent Query
 * `SK BETWEEN AVAIL#<today-29> AND DEVICE`, which also returns the device item and its `availRev`) and
 * writes it if `availRev` did not move meanwhile (a later writer then rebuilds it). No-op for a missing
 * device. `now` fixes the roll-up's `asOf` day (default: the clock).
 */
export async function refreshAvailabilityRollup(tenantId: string, deviceId: string, table: TableRef, now: Date = new Date()): Promise<void> {
  const asOf = now.toISOString().slice(0, 10);
  const items = await queryAll(table, {
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': keys.devicePk(tenantId, deviceId), ':from': `AVAIL#${addDays(asOf, 1 - AVAILABILITY_WINDOW_DAYS)}`, ':to': 'DEVICE' },
    ConsistentRead: true,
  });
  const device = items.find((i) => i.SK === 'DEVICE');
  if (!device) return;
  const rev = typeof device.availRev === 'number' ? device.availRev : 0;
  const rollup = availabilityRollup(items.filter((i) => String(i.SK).startsWith('AVAIL#')).map(dayOf), asOf);
  const index = belowSlaKeys(tenantId, deviceId, rollup, asOf);
  // The roll-up's shape since issue 28 (docs/data-model.md, "Device roll-ups"): the per-day sums, from which
  // the figures derive (`rollupOf`); the old shape's `availPct30d` goes.
  await writeIf(table, 'UpdateItem', {
    Key: keys.device(tenantId, deviceId),
    UpdateExpression: `SET availAsOf = :a, availRollupRev = :rev, availSum30d = :s, availMon30d = :w${index ? ', GSI2PK = :g2p, GSI2SK = :g2s' : ''} REMOVE availPct30d${index ? '' : ', GSI2PK, GSI2SK'}`,
    ConditionExpression: rev === 0 ? 'attribute_exists(PK) AND (attribute_not_exists(availRev) OR availRev = :rev)' : 'availRev = :rev',
    ExpressionAttributeValues: { ':a': rollup.asOf, ':s': rollup.sums!.sum, ':w': rollup.sums!.weight, ':rev': rev, ...(index ? { ':g2p': index.GSI2PK, ':g2s': index.GSI2SK } : {}) },
  });
}

/**
 * The device's place in the tenant's below-SLA index (GSI2 `TENANT#t#BELOWSLA`) on the UTC day `day`, or
 * null when it belongs out of it: in it while any day its roll-up covers from `day` on is below the target
 * (without new data the figure of a later day can still fall below it), keyed by the figure ON `day`.
 */
function belowSlaKeys(tenantId: string, deviceId: string, rollup: AvailabilityRollup, day: string): { GSI2PK: string; GSI2SK: string } | null {
  const k = Math.round((Date.parse(`${day}T00:00:00Z`) - Date.parse(`${rollup.asOf}T00:00:00Z`)) / 86_400_000);
  if (!(k >= 0)) return null;
  const rest = rollup.pct30d.slice(k);
  if (!rest.some((p) => p !== null && p < AVAILABILITY_SLA_TARGET_PCT)) return null;
  return keys.belowSlaGsi2(tenantId, deviceId, day, rest[0] ?? null);
}

/**
 * The tenant's devices whose 30-day availability at `now` is below the SLA target, lowest first by the figure
 * to 0.01 % (the index key's precision, the precision the portal shows), ties by device id — the index's own
 * order — at most `limit`: exactly the from-scratch list in that order (docs/data-model.md, "Devices below
 * the SLA target").
 *
 * Reads the below-SLA index (GSI2 `TENANT#t#BELOWSLA`) up to today's day prefix: first the entries keyed on
 * an earlier day (stale: not yet re-keyed by `rekeyBelowSla`; none once the job has run today — their figure
 * is read from the roll-up at `now`, they are all read), then today's entries, which are in the list's order
 * (`<day>#<figure × 100>#<id>`): read up to the `limit`-th valid one below the target, never further, however
 * many devices tie with it (a site-wide outage). Steady state: ONE Query of `limit` entries, whatever the
 * tenant's size or its ties (earlier-day entries: pages of `STALE_PAGE`). Each figure comes from the device's
 * roll-up at `now`; a device whose roll-up is stale (`availRollupRev` ≠ `availRev`) or does not cover today
 * is left out (as `GET /devices` does without its fallback).
 */
export async function devicesBelowSla(tenantId: string, now: Date, limit: number, table: TableRef): Promise<{ deviceId: string; name: string; availability30d: number }[]> {
  const today = now.toISOString().slice(0, 10);
  const out: { deviceId: string; name: string; availability30d: number }[] = [];
  let taken = 0; // today's valid entries below the target taken
  let start: Record<string, unknown> | undefined;
  let inStale = false; // the last page ended among entries of an earlier day: read on in bigger pages
  let done = limit <= 0;
  while (!done) {
    const pageLimit: number = inStale ? STALE_PAGE : limit;
    const res = await table.doc.send('Query', {
      TableName: table.tableName,
      IndexName: indexOf('belowSla'),
      KeyConditionExpression: 'GSI2PK = :p AND GSI2SK < :end',
      ExpressionAttributeValues: { ':p': keys.belowSlaGsi2Pk(tenantId), ':end': `${today}$` },
      Limit: pageLimit,
      ExclusiveStartKey: start,
    });
    for (const item of res.Items ?? []) {
      const pct = availabilityFromRollup(rollupOf(item), now);
      const below = typeof pct === 'number' && pct < AVAILABILITY_SLA_TARGET_PCT;
      const fresh = String(item.GSI2SK).startsWith(`${today}#`);
      inStale = !fresh;
      // Today's keys are in the list's order: past the target nothing later is below it.
      if (fresh && typeof pct !== 'undefined' && !below) {
        done = true;
        break;
      }
      if (below) out.push({ deviceId: String(item.id), name: String(item.name), availability30d: pct });
      // The `limit`-th of today's: every later entry sorts after it (figure to 0.01 %, then id).
      if (fresh && below && ++taken === limit) {
        done = true;
        break;
      }
    }
    start = res.LastEvaluatedKey;
    if (!start) done = true;
  }
  return out.sort(belowTargetOrder).slice(0, limit);
}

/** Page size of `devicesBelowSla` while it reads entries of an earlier day (before the day's first re-key). */
const STALE_PAGE = 100;

/**
 * Re-keys the tenant's below-SLA index entries keyed on a day before `now`'s UTC day (the devices with no
 * availability written today — offline or silent — whose figure moves with the day alone): each gets the
 * figure of its stored roll-up on today (one conditional UpdateItem of `GSI2SK`, conditioned on the roll-up
 * and key read, so a concurrent refresh wins), or leaves the index when no day left in its roll-up is below
 * the target; a device whose roll-up is stale is refreshed from its days (`refreshAvailabilityRollup`).
 * Idempotent; one Query (≈ 0.5 RCU) when nothing is stale. Run by the SLA job for each registered tenant (lambdas/triggers/sla-watch.ts, one tenant's failure not stopping the others).
 * Returns how many entries it moved.
 */
export async function rekeyBelowSla(tenantId: string, table: TableRef, now: Date = new Date()): Promise<number> {
  const today = now.toISOString().slice(0, 10);
  const stale = await queryAll(table, {
    IndexName: indexOf('belowSla'),
    KeyConditionExpression: 'GSI2PK = :p AND GSI2SK < :d',
    ExpressionAttributeValues: { ':p': keys.belowSlaGsi2Pk(tenantId), ':d': `${today}#` },
  });
  let moved = 0;
  for (const item of stale) {
    const deviceId = String(item.id);
    const rollup = rollupOf(item);
    if (!rollup) {
      await refreshAvailabilityRollup(tenantId, deviceId, table, now);
      moved++;
      continue;
    }
    const index = belowSlaKeys(tenantId, deviceId, rollup, today);
    const rev = typeof item.availRev === 'number' ? item.availRev : 0;
    const written = await writeIf(table, 'UpdateItem', {
      Key: keys.device(tenantId, deviceId),
      UpdateExpression: index ? 'SET GSI2SK = :s' : 'REMOVE GSI2PK, GSI2SK',
      ConditionExpression: `GSI2SK = :old AND availAsOf = :a AND availRollupRev = :rev AND ${rev === 0 ? '(attribute_not_exists(availRev) OR availRev = :rev)' : 'availRev = :rev'}`,
      ExpressionAttributeValues: { ':old': item.GSI2SK, ':a': rollup.asOf, ':rev': rev, ...(index ? { ':s': index.GSI2SK } : {}) },
    });
    if (written) moved++;
  }
  return moved;
}

/**
 * The roll-up of a device item if it matches the item's `availRev` (else null: stale or absent): the per-day
 * sums `availSum30d` / `availMon30d` with the figures derived from them (`rollupOfSums`), or, on an item of the
 * old shape, its figures `availPct30d` alone (no sums: a device in an outage then falls back to its days).
 */
export function rollupOf(item: Record<string, unknown>): AvailabilityRollup | null {
  const rev = typeof item.availRev === 'number' ? item.availRev : 0;
  if (item.availRollupRev !== rev || typeof item.availAsOf !== 'string') return null;
  if (Array.isArray(item.availSum30d) && Array.isArray(item.availMon30d)) return rollupOfSums(item.availAsOf, item.availSum30d as number[], item.availMon30d as number[]);
  if (!Array.isArray(item.availPct30d)) return null;
  return { asOf: item.availAsOf, pct30d: item.availPct30d as (number | null)[] };
}

/** Moves `lastHeartbeatAt` to `at` if it is newer; the UpdateItem output, or null when nothing changed. */
function advanceHeartbeat(input: { tenantId: string; deviceId: string; at: string }, table: TableRef, returnOld: boolean) {
  return writeIf(table, 'UpdateItem', {
    Key: keys.device(input.tenantId, input.deviceId),
    UpdateExpression: 'SET lastHeartbeatAt = :at',
    ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(lastHeartbeatAt) OR lastHeartbeatAt = :null OR lastHeartbeatAt < :at)',
    ExpressionAttributeValues: { ':at': input.at, ':null': null },
    ...(returnOld ? { ReturnValues: 'UPDATED_OLD' as const } : {}),
  });
}

/**
 * Records a heartbeat at `at` (ISO-8601 UTC) without availability accounting (seed). Only moves
 * `lastHeartbeatAt` forward, and the device in the tenant's heartbeat histogram; returns false when the
 * device does not exist or already has a newer heartbeat.
 */
export async function recordHeartbeat(input: { tenantId: string; deviceId: string; at: string }, table: TableRef, now: Date = new Date()): Promise<boolean> {
  const res = await advanceHeartbeat(input, table, true);
  if (!res) return false;
  // The heartbeat item follows (docs/data-model.md#heartbeats), unless it already holds a later heartbeat.
  await writeIf(table, 'UpdateItem', {
    Key: keys.heartbeat(input.tenantId, input.deviceId),
    UpdateExpression: 'SET #at = :at, flushedAt = :at, #e = :e',
    ConditionExpression: 'attribute_not_exists(#at) OR #at < :at',
    ExpressionAttributeNames: { '#at': 'at', '#e': 'entity' },
    ExpressionAttributeValues: { ':at': input.at, ':e': HEARTBEAT_ITEM_ENTITY },
  });
  await moveHeartbeat(table, input.tenantId, (res.Attributes?.lastHeartbeatAt as string | null | undefined) ?? null, input.at, now);
  await dropOutageMarker(table, input.tenantId, input.deviceId);
  await bumpChangeMarker(table, input.tenantId);
  return true;
}

/**
 * Creates or replaces one day of availability (`date` yyyy-mm-dd UTC, `availablePct` 0–100,
 * `monitoredSeconds` default 86 400). Expires `retention.availabilityDays` after its date. GetItem of the day,
 * then TransactWriteItems [Put day (condition: still as read), ADD device `availRev`, ADD the difference to
 * the tenant's day aggregate] (a lost race is retried), then `refreshAvailabilityRollup`.
 * @throws ApiError NOT_FOUND when the device does not exist (nothing is written).
 */
export async function putDailyAvailability(
  input: { tenantId: string; deviceId: string; date: string; availablePct: number; monitoredSeconds?: number },
  table: TableRef,
  now: Date = new Date(),
  retention: Retention = DEFAULT_RETENTION,
): Promise<void> {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(input.date)) throw new RangeError(`invalid date ${input.date}`);
  const record = { ...input, monitoredSeconds: input.monitoredSeconds ?? DAY_S };
  const Item = itemOf(AvailabilityEntity, record, retention);
  await withRetries(`putDailyAvailability ${input.deviceId} ${input.date}`, async () => {
    // The day replaced is read first: the tenant's day aggregate moves by the difference (docs/data-model.md#aggregates).
    const cur = await table.doc.send('GetItem', { TableName: table.tableName, Key: AvailabilityEntity.key(record), ConsistentRead: true });
    try {
      await table.doc.send('TransactWriteItems', {
        TransactItems: [
          { Put: { TableName: table.tableName, Item, ...unchangedDay(cur.Item) } },
          deviceAdd(table, input.tenantId, input.deviceId, 'availRev', 1),
          ...aggregateWrites(table, input.tenantId, { days: { [input.date]: delta(availabilityDay(cur.Item ?? null), availabilityDay(record)) } }),
        ],
      });
    } catch (e) {
      if (isConditionFailureInTransaction(e, 1)) throw new ApiError('NOT_FOUND', `device ${input.deviceId} of tenant ${input.tenantId} not found`);
      if (isConditionFailureInTransaction(e, 0)) return RETRY;
      throw e;
    }
  });
  await refreshAvailabilityRollup(input.tenantId, input.deviceId, table, now);
  // After the last write to the device item: a marker copied the revision before (docs/data-model.md#outage-markers).
  await dropOutageMarker(table, input.tenantId, input.deviceId);
}

/** Numeric attributes of a day item that make up its figure (`availabilityDay`). */
const DAY_FIGURES = ['availablePct', 'monitoredSeconds', 'hbUpSeconds', 'hbMonitoredSeconds'] as const;

/** A condition that the day item still holds the figures read (`item`; undefined: it did not exist). */
function unchangedDay(item: Record<string, unknown> | undefined): { ConditionExpression: string; ExpressionAttributeNames?: Record<string, string>; ExpressionAttributeValues?: Record<string, unknown> } {
  if (!item) return { ConditionExpression: 'attribute_not_exists(PK)' };
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const conds = DAY_FIGURES.map((a, i) => {
    names[`#d${i}`] = a;
    if (item[a] === undefined) return `attribute_not_exists(#d${i})`;
    values[`:d${i}`] = item[a];
    return `#d${i} = :d${i}`;
  });
  return { ConditionExpression: `attribute_exists(PK) AND ${conds.join(' AND ')}`, ExpressionAttributeNames: names, ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}) };
}

/** Input of `putAlarm` (seed): acknowledgement/clearing fields default to null. */
export type DeviceAlarmInput = Omit<DeviceAlarm, 'acknowledgedAt' | 'acknowledgedBy' | 'clearedAt'> &
  Partial<Pick<DeviceAlarm, 'acknowledgedAt' | 'acknowledgedBy' | 'clearedAt'>>;

/**
 * Writes the alarm item (Put or Update) and, when its openness changes by `delta`, `ADD openAlarms :delta`
 * on the device in the same TransactWriteItems (else a ConditionCheck that the device exists), with the
 * change of the tenant's aggregates (`aggregates`, from `alarmChange`). Returns
 * `written`, or `condition` when the alarm's own condition failed; a transaction conflict is thrown (the
 * callers retry it with `withRetries`).
 * @throws ApiError NOT_FOUND when the device does not exist.
 */
async function writeAlarmWithCount(
  table: TableRef,
  a: { tenantId: string; deviceId: string; id: string; deviceName?: string | undefined },
  alarmWrite: TransactWriteItem,
  delta: number,
  aggregates: TransactWriteItem[],
): Promise<'written' | 'condition' | 'renamed'> {
  // An alarm carrying the device's name is written only while the device still has that name (a rename
  // between the caller's read and this write would otherwise leave the old name on it).
  const named = a.deviceName !== undefined;
  const nameCheck: { cond: string; names: Record<string, string>; values: Record<string, unknown> } = named ? { cond: ' AND #dn = :dn', names: { '#dn': 'name' }, values: { ':dn': a.deviceName } } : { cond: '', names: {}, values: {} };
  const add = deviceAdd(table, a.tenantId, a.deviceId, 'openAlarms', delta) as { Update: { ConditionExpression: string; ExpressionAttributeNames: Record<string, string>; ExpressionAttributeValues: Record<string, unknown> } };
  const device: TransactWriteItem =
    delta === 0
      ? {
          ConditionCheck: {
            TableName: table.tableName,
            Key: keys.device(a.tenantId, a.deviceId),
            ConditionExpression: `attribute_exists(PK)${nameCheck.cond}`,
            ...(named ? { ExpressionAttributeNames: nameCheck.names, ExpressionAttributeValues: nameCheck.values } : {}),
          },
        }
      : {
          Update: {
            ...add.Update,
            ConditionExpression: `${add.Update.ConditionExpression}${nameCheck.cond}`,
            ExpressionAttributeNames: { ...add.Update.ExpressionAttributeNames, ...nameCheck.names },
            ExpressionAttributeValues: { ...add.Update.ExpressionAttributeValues, ...nameCheck.values },
          },
        } as TransactWriteItem;
  try {
    await table.doc.send('TransactWriteItems', { TransactItems: [alarmWrite, device, ...aggregates] });
    return 'written';
  } catch (e) {
    if (isConditionFailureInTransaction(e, 1)) {
      if (named && (await getDevice(a.tenantId, a.deviceId, table))) return 'renamed';
      throw new ApiError('NOT_FOUND', `device ${a.deviceId} of tenant ${a.tenantId} not found`);
    }
    if (isConditionFailureInTransaction(e, 0)) return 'condition';
    throw e;
  }
}

async function getAlarm(table: TableRef, tenantId: string, deviceId: string, alarmId: string): Promise<DeviceAlarm | null> {
  const cur = await table.doc.send('GetItem', { TableName: table.tableName, Key: keys.alarm(tenantId, deviceId, alarmId), ConsistentRead: true });
  return cur.Item ? recordOf(AlarmEntity, cur.Item) : null;
}

/**
 * Creates or replaces an alarm (idempotent for a fixed device + id); cleared alarms get a TTL. The device's
 * `openAlarms` moves with the alarm's state in the same transaction (condition: the alarm is still in the
 * state read). @throws ApiError NOT_FOUND when the device does not exist.
 */
export function putAlarm(alarm: DeviceAlarmInput, table: TableRef): Promise<void> {
  const a: DeviceAlarm = { acknowledgedAt: null, acknowledgedBy: null, clearedAt: null, ...alarm };
  return withRetries(`putAlarm ${a.id}`, async () => {
    // The device's name rides on the alarm (docs/data-model.md#alarm-device-names); the write is conditioned on it.
    const device = await getDevice(a.tenantId, a.deviceId, table);
    if (!device) throw new ApiError('NOT_FOUND', `device ${a.deviceId} of tenant ${a.tenantId} not found`);
    a.deviceName = device.name;
    const old = await getAlarm(table, a.tenantId, a.deviceId, a.id);
    const put = {
      Put: {
        TableName: table.tableName,
        Item: itemOf(AlarmEntity, a),
        ConditionExpression: old ? '#s = :old' : 'attribute_not_exists(PK)',
        ...(old ? { ExpressionAttributeNames: { '#s': 'state' }, ExpressionAttributeValues: { ':old': old.state } } : {}),
      },
    };
    // Its alarm console entries (docs/data-model.md#alarm-console) ride in the same transaction.
    // …and its title's search words (docs/api.md#alarm-search).
    const agg = [...aggregateWrites(table, a.tenantId, alarmChange(old, a), { list: 'alarms' }), ...alarmConsolePuts(consoleItemOfDeviceAlarm(a), table), ...alarmTokenWrites(table.tableName, old, a)];
    return (await writeAlarmWithCount(table, a, put, Number(isOpen(a.state)) - Number(isOpen(old?.state)), agg)) === 'written' ? undefined : RETRY;
  });
}

/**
 * Raises an alarm unless one with this device + id exists (replays change nothing); `ADD openAlarms` on the
 * device in the same transaction. Returns whether it was written.
 * @throws ApiError NOT_FOUND when the device does not exist.
 */
export function raiseAlarm(alarm: DeviceAlarm, table: TableRef): Promise<boolean> {
  // The aggregates' change and the activity event (critical/high alarms; docs/notifications.md) ride along.
  const agg = [...aggregateWrites(table, alarm.tenantId, alarmChange(null, alarm), { list: 'alarms' }), ...activityPuts([alarmEvent(null, alarm)], table)];
  let a = alarm;
  return withRetries(`raiseAlarm ${alarm.id}`, async () => {
    const put = { Put: { TableName: table.tableName, Item: itemOf(AlarmEntity, a), ConditionExpression: 'attribute_not_exists(PK)' } };
    // Its alarm console entries (docs/data-model.md#alarm-console), with the name it is written with.
    // Its title's search words too (docs/api.md#alarm-search).
    const r = await writeAlarmWithCount(table, a, put, Number(isOpen(a.state)), [...agg, ...alarmConsolePuts(consoleItemOfDeviceAlarm(a), table), ...alarmTokenWrites(table.tableName, null, a)]);
    if (r !== 'renamed') return r === 'written';
    // Renamed since the caller read it: the current name, and again.
    const device = await getDevice(a.tenantId, a.deviceId, table);
    if (!device) throw new ApiError('NOT_FOUND', `device ${a.deviceId} of tenant ${a.tenantId} not found`);
    a = { ...a, deviceName: device.name };
    return RETRY;
  });
}

/**
 * Moves an alarm from one of `from` states to `to` with extra fields, atomically (condition on `state`).
 * Returns the updated alarm, or the current one with `changed: false` when its state is not in `from`;
 * null when the alarm does not exist. The alarm is read first and updated with `state = :read` in one
 * TransactWriteItems with the change of the tenant's aggregates (open alarms by severity and state) and, when
 * the move changes whether the alarm is open (e.g. → cleared), `ADD openAlarms` on the device (retried on a
 * lost race), else (e.g. active → acknowledged) a lost race answers the current alarm unchanged; the audit entry,
 * when given, in that transaction either way. Moving to `cleared` sets the alarm's TTL (`AlarmEntity`).
 */
export async function transitionAlarm(
  table: TableRef,
  ...[tenantId, deviceId, alarmId, from, to, fields, audit, retention = DEFAULT_RETENTION]: [...Parameters<DevicesPort['transitionAlarm']>, Retention?]
): ReturnType<DevicesPort['transitionAlarm']> {
  const names: Record<string, string> = { '#s': 'state' };
  const values: Record<string, unknown> = { ':to': to };
  const sets = ['#s = :to'];
  const ttl = to === 'cleared' ? AlarmEntity.ttl!({ state: to, clearedAt: fields.clearedAt ?? new Date().toISOString() } as DeviceAlarm, DEFAULT_RETENTION) : undefined;
  for (const [k, v] of Object.entries({ ...fields, ...(ttl === undefined ? {} : { expiresAt: ttl }) })) {
    names[`#${k}`] = k;
    values[`:${k}`] = v;
    sets.push(`#${k} = :${k}`);
  }
  const update = { TableName: table.tableName, Key: keys.alarm(tenantId, deviceId, alarmId), UpdateExpression: `SET ${sets.join(', ')}`, ExpressionAttributeNames: names };
  if (from.every((f) => isOpen(f) === isOpen(to))) {
    // Read first, then one TransactWriteItems: the alarm (condition: still in the state read), its audit
    // entry (docs/api.md#audit-log) and the change of the tenant's aggregates (open alarms by state). The
    // answer is the alarm read first with the change applied (no read after the write: a failed read must
    // not turn a stored change into an error).
    const before = await getAlarm(table, tenantId, deviceId, alarmId);
    if (!before) return null;
    if (!from.includes(before.state)) return { alarm: before, changed: false };
    const after: DeviceAlarm = { ...before, ...fields, state: to };
    try {
      await table.doc.send('TransactWriteItems', {
        TransactItems: [
          { Update: { ...update, ConditionExpression: '#s = :cur', ExpressionAttributeValues: { ...values, ':cur': before.state } } },
          ...(audit ? [auditPut(audit, table, retention)] : []),
          ...aggregateWrites(table, tenantId, alarmChange(before, after), { list: 'alarms' }),
          ...activityPuts([alarmEvent(before, after)], table),
          ...alarmConsolePuts(consoleItemOfDeviceAlarm(after), table),
          // Its search words (docs/api.md#alarm-search): none unless the move is to or from cleared.
          ...alarmTokenWrites(table.tableName, before, after),
        ],
      });
    } catch (e) {
      if (!isConditionFailureInTransaction(e, 0) && !isTransactionConflict(e)) throw e;
      const cur = await getAlarm(table, tenantId, deviceId, alarmId);
      return cur ? { alarm: cur, changed: false } : null;
    }
    return { alarm: after, changed: true };
  }
  return withRetries(`transitionAlarm ${alarmId}`, async () => {
    const cur = await getAlarm(table, tenantId, deviceId, alarmId);
    if (!cur) return null;
    if (!from.includes(cur.state)) return { alarm: cur, changed: false };
    const write = { Update: { ...update, ConditionExpression: '#s = :cur', ExpressionAttributeValues: { ...values, ':cur': cur.state } } };
    const next: DeviceAlarm = { ...cur, ...fields, state: to };
    const agg = [...aggregateWrites(table, tenantId, alarmChange(cur, next), { list: 'alarms' }), ...activityPuts([alarmEvent(cur, next)], table), ...alarmConsolePuts(consoleItemOfDeviceAlarm(next), table), ...alarmTokenWrites(table.tableName, cur, next)];
    const r = await writeAlarmWithCount(table, { tenantId, deviceId, id: alarmId }, write, Number(isOpen(to)) - Number(isOpen(cur.state)), [...agg, ...(audit ? [auditPut(audit, table, retention)] : [])]);
    return r === 'written' ? { alarm: { ...cur, ...fields, state: to }, changed: true } : RETRY;
  });
}

/**
 * One page of the tenant's alarms, newest raised first (GSI1 `TENANT#t#ALARMS`, BETWEEN on raisedAt,
 * filters on state/severity/device); gap-free cursors (`listPage`).
 * @throws ApiError VALIDATION_FAILED for a foreign cursor or one outside from/to.
 */
export function listAlarms(tenantId: string, opts: AlarmListOptions, table: TableRef): Promise<Page<DeviceAlarm>> {
  // One device's alarms: its own partition, not the tenant's alarm list (docs/data-model.md#search).
  if (opts.deviceId) return listDeviceAlarms(tenantId, { ...opts, deviceId: opts.deviceId }, table);
  return listPage(table, AlarmEntity, tenantId, opts, { in: { state: opts.state, severity: opts.severity, deviceId: opts.deviceId } });
}

/** The stored device, or null (GetItem). */
export async function getDevice(tenantId: string, deviceId: string, table: TableRef): Promise<StoredDevice | null> {
  const res = await table.doc.send('GetItem', { TableName: table.tableName, Key: keys.device(tenantId, deviceId) });
  return res.Item ? storedDeviceOf(res.Item) : null;
}

/**
 * The device, its daily availability since `fromDate` and its open alarms (newest first): ONE Query on its
 * partition, `SK BETWEEN ALARM# AND DEVICE` (sort order ALARM#… < AVAIL#… < DEVICE).
 */
export async function deviceHistory(
  tenantId: string,
  deviceId: string,
  fromDate: string,
  table: TableRef,
): Promise<{ device: StoredDevice | null; days: DailyAvailability[]; openAlarms: DeviceAlarm[] }> {
  const items = await queryAll(table, {
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': keys.devicePk(tenantId, deviceId), ':from': `ALARM#`, ':to': 'DEVICE' },
  });
  let device: StoredDevice | null = null;
  const days: DailyAvailability[] = [];
  const openAlarms: DeviceAlarm[] = [];
  for (const it of items) {
    const sk = String(it.SK);
    if (sk === 'DEVICE') device = storedDeviceOf(it);
    else if (sk.startsWith('AVAIL#') && sk >= `AVAIL#${fromDate}`) days.push(dayOf(it));
    else if (sk.startsWith('ALARM#') && OPEN_ALARM_STATES.includes(it.state as AlarmState)) openAlarms.push(recordOf(AlarmEntity, it));
  }
  openAlarms.sort((a, b) => b.raisedAt.localeCompare(a.raisedAt));
  return { device, days, openAlarms };
}

/** The device's heartbeat item (`keys.heartbeat`) as read: the exact last heartbeat and the last one recorded on the device item. */
interface HeartbeatState {
  /** The last heartbeat accepted (ISO-8601 UTC, exact). */
  at: string;
  /** The last heartbeat that opened a UTC minute: the device item's `lastHeartbeatAt` (null: none yet). */
  flushedAt: string | null;
  /** The SLA job marked the device as in an outage (`outageMarked`; docs/data-model.md#outage-markers). */
  marked: boolean;
}

/** The heartbeat item of a device, or null (GetItem of a ~0.1 KB item; `consistent`: ConsistentRead). */
async function readHeartbeatState(table: TableRef, tenantId: string, deviceId: string, consistent: boolean): Promise<HeartbeatState | null> {
  const res = await table.doc.send('GetItem', { TableName: table.tableName, Key: keys.heartbeat(tenantId, deviceId), ConsistentRead: consistent });
  if (typeof res.Item?.at !== 'string') return null;
  return { at: res.Item.at, flushedAt: typeof res.Item.flushedAt === 'string' ? res.Item.flushedAt : null, marked: res.Item.outageMarked === true };
}

/**
 * Heartbeat from a collector at `at` (ISO-8601 UTC) — docs/data-model.md#heartbeats. The exact last heartbeat
 * lives on the device's small heartbeat item (`keys.heartbeat`, in no index); the device item, the tenant's
 * heartbeat histogram and the availability move once per UTC minute of heartbeats:
 *
 * - **Same minute** as the last heartbeat (which was then recorded on the device item): nothing visible
 *   changes — the device was and stays online, its histogram minute and `lastHeartbeatAt` (minute
 *   resolution: the first heartbeat of the minute) stay — so ONE conditional UpdateItem of the heartbeat item
 *   (`at = :read`) moves the exact time: 1 WCU after one eventually consistent GetItem (0.5 RCU).
 * - **A new minute** (or the first heartbeat, or no heartbeat item yet): one TransactWriteItems [heartbeat item
 *   (`at` as read), device `lastHeartbeatAt` (as read) + `ADD availRev 1`, the day(s), the tenant's day
 *   aggregate(s), the tenant's heartbeat histogram move (+ the Delete of the device's outage marker when the
 *   heartbeat item carries `outageMarked`: docs/data-model.md#outage-markers)], then the histogram's fold of
 *   stale minutes, the availability roll-up refresh and the tenant's change marker.
 *   The first recorded heartbeat of a UTC day (or one without a heartbeat item) reads that day first (one
 *   GetItem) and conditions on its figures, as a day holding a stored % needs, instead of trying the
 *   heartbeat-only condition and reading after the refusal.
 *   The time added is exactly what recording every heartbeat would have added: the interval since the exact
 *   previous heartbeat (`heartbeatInterval`) on the day of `at`, plus the same-minute heartbeats since the last
 *   recorded one (all within the online threshold, so all available time) on their own day — unless the
 *   device was in an outage (`heartbeatTime`): then the time since the recorded heartbeat, per UTC day over
 *   at most `OUTAGE_MAX_DAYS` days, all unavailable, as the readers counted it while it lasted
 *   (docs/data-model.md#outages). Downtime (the outage, or a gap beyond the online threshold) leaves out its
 *   time inside the maintenance windows covering the device (by id or site): ONE Query of the windows over the
 *   downtime (`downtimeSpan`), only for such a heartbeat (+ ONE GetItem of the device's site when a window names
 *   sites only) — docs/sla.md#maintenance-windows.
 *
 * A replay or an out-of-order heartbeat (not after the exact last one) changes nothing. Returns false when
 * nothing changed (unknown device, replay, stale). Conditions on the values read make concurrent heartbeats of
 * one device serialise (a lost race is read again and retried). Day items expire `retention.availabilityDays`
 * after their date; `now` is the roll-up's clock.
 */
export async function ingestHeartbeat(
  input: { tenantId: string; deviceId: string; at: string },
  table: TableRef,
  now: Date = new Date(),
  retention: Retention = DEFAULT_RETENTION,
): Promise<boolean> {
  const { tenantId, deviceId, at } = input;
  const hbKey = keys.heartbeat(tenantId, deviceId);
  // A day that also holds a stored % (seeded, daily roll-up) is read and written conditionally (`unchangedDay`).
  let readDays = false;
  // What an attempt read, kept for the next one when only a day's condition failed (the transaction's own
  // conditions on the heartbeat item and the device still check it).
  let carried: { hb: HeartbeatState | null; flushedAt: string | null } | null = null;
  // The merged spans of the windows covering the device over a downtime `[start, end)` (kept for a retry of the
  // same downtime): ONE Query (`overlapping`), plus ONE GetItem of the device's site only when a window names
  // sites and not the device itself.
  const spansRead = new Map<string, Span[]>();
  const maintenanceSpans = async ([start, end]: Span): Promise<Span[]> => {
    const k = `${start}/${end}`;
    const known = spansRead.get(k);
    if (known) return known;
    const windows = await maintenanceWindowsRepository(table).overlapping(tenantId, new Date(start).toISOString(), new Date(end).toISOString());
    let site: string | undefined;
    if (windows.some((w) => !w.scope.deviceIds.includes(deviceId) && w.scope.sites.length > 0)) {
      const dev = await table.doc.send('GetItem', { TableName: table.tableName, Key: keys.device(tenantId, deviceId), ProjectionExpression: 'site' });
      site = typeof dev.Item?.site === 'string' ? dev.Item.site : undefined;
    }
    const spans = coveringSpans(windows, { id: deviceId, site }, start, end);
    spansRead.set(k, spans);
    return spans;
  };
  const outcome = await withRetries(`ingestHeartbeat ${deviceId}`, async (n): Promise<{ from: string | null; timed: boolean } | false | typeof RETRY> => {
    let hb: HeartbeatState | null;
    let flushedAt: string | null;
    if (carried) {
      ({ hb, flushedAt } = carried);
      carried = null;
    } else {
      hb = await readHeartbeatState(table, tenantId, deviceId, n > 0);
      if (hb && at <= hb.at) return false;
      if (hb?.flushedAt && epochMinute(at) === epochMinute(hb.at) && epochMinute(hb.at) === epochMinute(hb.flushedAt)) {
        const moved = await writeIf(table, 'UpdateItem', {
          Key: hbKey,
          UpdateExpression: 'SET #at = :at',
          ConditionExpression: '#at = :prev',
          ExpressionAttributeNames: { '#at': 'at' },
          ExpressionAttributeValues: { ':at': at, ':prev': hb.at },
        });
        return moved ? { from: hb.flushedAt, timed: false } : RETRY;
      }
      // Recorded on the device item: its `lastHeartbeatAt` (read from the heartbeat item, or from the device
      // when there is none yet or on a retry, e.g. after a seed moved it).
      flushedAt = hb?.flushedAt ?? null;
      if (!hb || n > 0) {
        const dev = await table.doc.send('GetItem', { TableName: table.tableName, Key: keys.device(tenantId, deviceId), ProjectionExpression: 'PK, lastHeartbeatAt', ConsistentRead: true });
        if (!dev.Item) return false;
        flushedAt = typeof dev.Item.lastHeartbeatAt === 'string' ? dev.Item.lastHeartbeatAt : null;
      }
      // The first recorded heartbeat of a UTC day (or without a heartbeat item): the day may hold a stored %
      // (seeded, daily roll-up), so it is read before the transaction instead of after a refused one (one
      // GetItem per device and day; a refused transaction and the GetItem were two requests).
      if (!hb?.flushedAt || hb.flushedAt.slice(0, 10) !== at.slice(0, 10)) readDays = true;
    }
    if (flushedAt !== null && at <= flushedAt) return false;
    // The exact previous heartbeat: the heartbeat item's, when it is a later heartbeat of the recorded minute.
    const previous = flushedAt !== null && hb && hb.at > flushedAt && epochMinute(hb.at) === epochMinute(flushedAt) ? hb.at : flushedAt;
    // Time to add, ms per UTC day: the same-minute heartbeats after the recorded one, then this interval.
    // After an outage, its whole time per UTC day, unavailable (`heartbeatTime`, docs/data-model.md#outages).
    // Downtime (a gap beyond the online threshold, an outage) leaves out its time inside the maintenance windows
    // covering the device (docs/sla.md#maintenance-windows): ONE Query of the windows, only then.
    const span = flushedAt !== null && previous !== null ? downtimeSpan(flushedAt, previous, at) : null;
    const maintenance = span ? await maintenanceSpans(span) : [];
    const time = flushedAt !== null && previous !== null ? heartbeatTime(flushedAt, previous, at, maintenance) : new Map<string, { m: number; u: number }>();
    const dayWrites: TransactWriteItem[] = [];
    const dayChanges: Record<string, Counters> = {};
    for (const [date, t] of time) {
      if (t.m <= 0) continue;
      const add = { hbMonitoredSeconds: t.m / 1000, hbUpSeconds: t.u / 1000 };
      const day = { tenantId, deviceId, date };
      const update = {
        TableName: table.tableName,
        Key: AvailabilityEntity.key(day),
        UpdateExpression: 'ADD hbMonitoredSeconds :m, hbUpSeconds :u SET #e = :e, deviceId = :d, #date = :date, expiresAt = :x',
        ExpressionAttributeNames: { '#e': 'entity', '#date': 'date' } as Record<string, string>,
        ExpressionAttributeValues: { ':m': add.hbMonitoredSeconds, ':u': add.hbUpSeconds, ':e': AvailabilityEntity.name, ':d': deviceId, ':date': date, ':x': AvailabilityEntity.ttl!(day, retention) as number } as Record<string, unknown>,
      };
      if (!readDays) {
        // A day measured by heartbeats only (or new) moves the tenant's day aggregate by the time itself.
        dayWrites.push({ Update: { ...update, ConditionExpression: 'attribute_not_exists(availablePct) OR hbMonitoredSeconds > :z', ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ':z': 0 } } });
        dayChanges[date] = availabilityDay(add);
      } else {
        const cur = await table.doc.send('GetItem', { TableName: table.tableName, Key: AvailabilityEntity.key(day), ConsistentRead: true });
        const before = cur.Item ?? null;
        const after = { ...before, hbUpSeconds: Number(before?.hbUpSeconds ?? 0) + add.hbUpSeconds, hbMonitoredSeconds: Number(before?.hbMonitoredSeconds ?? 0) + add.hbMonitoredSeconds };
        const cond = unchangedDay(cur.Item);
        dayWrites.push({
          Update: {
            ...update,
            ConditionExpression: cond.ConditionExpression,
            ExpressionAttributeNames: { ...update.ExpressionAttributeNames, ...cond.ExpressionAttributeNames },
            ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ...cond.ExpressionAttributeValues },
          },
        });
        dayChanges[date] = delta(availabilityDay(before), availabilityDay(after));
      }
    }
    const timed = dayWrites.length > 0;
    // The histogram minute moves in the same transaction: a request refused after every retry leaves nothing behind.
    // Also within one minute: the histogram keeps the sum of the recorded heartbeats (docs/data-model.md#outages).
    const move = heartbeatMoveAction(table, tenantId, flushedAt, at);
    try {
      await table.doc.send('TransactWriteItems', {
        TransactItems: [
          {
            Update: {
              TableName: table.tableName,
              Key: hbKey,
              // The outage marker's flag as read (docs/data-model.md#outage-markers): a marker written since
              // cancels the transaction, read again; a marked device's return removes the flag and the marker.
              UpdateExpression: `SET #at = :at, flushedAt = :at, #e = :e${hb?.marked ? ' REMOVE outageMarked' : ''}`,
              ConditionExpression: !hb ? 'attribute_not_exists(PK)' : hb.marked ? '#at = :prev AND outageMarked = :t' : '#at = :prev AND attribute_not_exists(outageMarked)',
              ExpressionAttributeNames: { '#at': 'at', '#e': 'entity' },
              ExpressionAttributeValues: { ':at': at, ':e': HEARTBEAT_ITEM_ENTITY, ...(hb ? { ':prev': hb.at } : {}), ...(hb?.marked ? { ':t': true } : {}) },
            },
          },
          {
            Update: {
              TableName: table.tableName,
              Key: keys.device(tenantId, deviceId),
              UpdateExpression: `SET lastHeartbeatAt = :at${timed ? ' ADD availRev :one' : ''}`,
              ConditionExpression: flushedAt === null ? 'attribute_exists(PK) AND (attribute_not_exists(lastHeartbeatAt) OR lastHeartbeatAt = :null)' : 'lastHeartbeatAt = :f',
              ExpressionAttributeValues: { ':at': at, ...(timed ? { ':one': 1 } : {}), ...(flushedAt === null ? { ':null': null } : { ':f': flushedAt }) },
            },
          },
          ...dayWrites,
          ...(move ? [move] : []),
          // The change marker is bumped last, after the roll-up (below).
          ...aggregateWrites(table, tenantId, { days: dayChanges }, { marker: false }),
          ...(hb?.marked ? [outageMarkerDelete(table, tenantId, deviceId)] : []),
        ],
      });
    } catch (e) {
      if (isConditionFailureInTransaction(e, 0) || isConditionFailureInTransaction(e, 1)) return RETRY;
      if (dayWrites.some((_, i) => isConditionFailureInTransaction(e, 2 + i))) {
        readDays = true;
        carried = { hb, flushedAt };
        return RETRY;
      }
      throw e;
    }
    return { from: flushedAt, timed };
  });
  if (!outcome) return false;
  if (outcome.from === null || outcome.timed || epochMinute(outcome.from) !== epochMinute(at)) {
    // Recorded on the device item and the histogram (in the transaction): fold, roll-up. No change-marker bump:
    // the summary validates what heartbeats move apart (docs/data-model.md#aggregates).
    await foldHeartbeatHistogram(table, tenantId, now);
    if (outcome.timed) await refreshAvailabilityRollup(tenantId, deviceId, table, now);
  }
  return true;
}

/** A stored day → `DailyAvailability` (heartbeat-measured time when present; `AvailabilityEntity.read`). */
export function dayOf(item: Record<string, unknown>): DailyAvailability {
  return recordOf(AvailabilityEntity, item);
}

/** One page of the tenant's devices ordered by name (or by IP with `ip`), with their roll-ups (ONE Query). */
export async function listDevices(tenantId: string, opts: PageOptions & { prefix?: string | undefined; ip?: string | undefined }, table: TableRef): Promise<Page<ListedDevice>> {
  if (opts.ip !== undefined) return listDevicesByIp(tenantId, { limit: opts.limit, cursor: opts.cursor, ip: opts.ip }, table);
  // A name prefix is a range of the folded-name sort key (docs/data-model.md#search).
  const prefix = opts.prefix === undefined ? '' : deviceNameKey(opts.prefix);
  const range = prefix ? { lower: prefix, upper: `${prefix}\u{10FFFF}` } : undefined;
  const page = await queryPage(table, { tenantId, scope: DeviceEntity.list!.gsi1pk(tenantId), limit: opts.limit, cursor: opts.cursor, range });
  return {
    items: page.items.map((i) => ({
      device: storedDeviceOf(i),
      openAlarms: typeof i.openAlarms === 'number' ? i.openAlarms : null,
      availability: rollupOf(i),
    })),
    nextCursor: page.nextCursor,
  };
}

function listedDeviceOf(i: Record<string, unknown>): ListedDevice {
  return { device: storedDeviceOf(i), openAlarms: typeof i.openAlarms === 'number' ? i.openAlarms : null, availability: rollupOf(i) };
}

/**
 * One page of the tenant's devices whose IP address is `ip` (a complete IPv4/IPv6 address: exact) or starts
 * with it (anything else, e.g. `10.0.3.`), ordered by IP: ONE Query of GSI3 `TENANT#<t>#DEVICEIP` with
 * `begins_with(GSI3SK, <ip>[#])` and `Limit` = the page size, so a page reads `limit` device items (~0.2 KB
 * each, eventually consistent: ~2 RCU a page of 50) whatever the fleet (docs/data-model.md#search). The cursor
 * is the last device's `GSI3SK` under the search's own scope (another IP's or tenant's cursor → 400).
 * @throws ApiError VALIDATION_FAILED for a cursor of another search.
 */
export async function listDevicesByIp(tenantId: string, opts: PageOptions & { ip: string }, table: TableRef): Promise<Page<ListedDevice>> {
  const ip = deviceIpKey(opts.ip);
  const begins = isIP(ip) ? `${ip}#` : ip;
  const pk = keys.devicesByIpGsi3Pk(tenantId);
  const scope = `${pk}#${begins}`;
  let start: Record<string, string> | undefined;
  if (opts.cursor) {
    const sk = decodePositionCursor(opts.cursor, (p) => p.length <= 200 && p.startsWith(begins), scope);
    const id = sk.slice(sk.lastIndexOf('#') + 1);
    start = { ...keys.device(tenantId, id), GSI3PK: pk, GSI3SK: sk };
  }
  const res = await table.doc.send('Query', {
    TableName: table.tableName,
    IndexName: indexOf('devicesByIp'),
    KeyConditionExpression: 'GSI3PK = :p AND begins_with(GSI3SK, :ip)',
    ExpressionAttributeValues: { ':p': pk, ':ip': begins },
    Limit: opts.limit,
    ...(start ? { ExclusiveStartKey: start } : {}),
  });
  const items = (res.Items ?? []) as Record<string, unknown>[];
  const last = res.LastEvaluatedKey as Record<string, unknown> | undefined;
  const nextCursor = last ? encodePositionCursor(String(last.GSI3SK), scope) : null;
  return { items: items.map(listedDeviceOf), nextCursor };
}

/**
 * Number of the tenant's devices: the `devices` counter of its aggregates (one GetItem of the stats item,
 * docs/data-model.md#aggregates). A tenant whose aggregates were never built (data older than them, before
 * the upgrade step) is counted with a `Select: 'COUNT'` Query on its GSI1 device list instead (one request
 * per 1 MB of index items read).
 */
export async function countDevices(tenantId: string, table: TableRef): Promise<number> {
  const stats = await table.doc.send('GetItem', { TableName: table.tableName, Key: keys.stats(tenantId), ProjectionExpression: '#d, aggVersion', ExpressionAttributeNames: { '#d': 'devices' } });
  if (stats.Item?.aggVersion !== undefined) return typeof stats.Item.devices === 'number' ? stats.Item.devices : 0;
  const res = await queryAll(table, {
    IndexName: indexOf('tenantLists'),
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': DeviceEntity.list!.gsi1pk(tenantId) },
    Select: 'COUNT',
  });
  return res.count;
}

/**
 * From scratch (no roll-up): availability days since `fromDate` and the open-alarm count of one device
 * (two Queries on its partition). The reference the roll-ups are tested against, and the fallback when a
 * roll-up is missing or stale.
 */
export async function deviceStats(tenantId: string, deviceId: string, fromDate: string, table: TableRef): Promise<{ days: DailyAvailability[]; openAlarms: number }> {
  const [days, openAlarms] = await Promise.all([
    queryAll(table, {
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': keys.devicePk(tenantId, deviceId), ':from': `AVAIL#${fromDate}`, ':to': AVAIL_SK_MAX },
      ProjectionExpression: '#d, availablePct, monitoredSeconds, hbUpSeconds, hbMonitoredSeconds',
      ExpressionAttributeNames: { '#d': 'date' },
    }),
    countOpenAlarms(table, tenantId, deviceId),
  ]);
  return { days: days.map(dayOf), openAlarms };
}

/** The device storage as a `DevicesPort`; heartbeat day items expire after `retention.availabilityDays`. */
export function devicesRepository(table: TableRef, retention: Retention = DEFAULT_RETENTION): DevicesPort {
  return {
    listDevices: (t, opts) => listDevices(t, opts, table),
    countDevices: (t) => countDevices(t, table),
    deviceStats: (t, id, from) => deviceStats(t, id, from, table),
    getDevice: (t, id) => getDevice(t, id, table),
    deviceHistory: (t, id, from) => deviceHistory(t, id, from, table),
    listAlarms: (t, opts) => listAlarms(t, opts, table),
    searchAlarms: (t, opts) => searchAlarms(table, t, opts),
    listAlarmConsole: (opts) => listAlarmConsole(opts, table),
    transitionAlarm: (t, d, a, from, to, fields, audit) => transitionAlarm(table, t, d, a, from, to, fields, audit, retention),
    raiseAlarm: (a) => raiseAlarm(a, table),
    ingestHeartbeat: (i) => ingestHeartbeat(i, table, new Date(), retention),
  };
}
