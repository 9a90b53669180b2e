/**
 * The tenant's write-time aggregates over the single table (docs/data-model.md#aggregates; what each record
 * contributes is defined in `lambdas/domain/aggregates.ts`):
 *  - `TENANT#<t>` / `STATS`      — current state (incidents by status × severity, open alarms by severity,
 *                                  Office 365 alarms by status, devices); `aggVersion` once rebuilt;
 *  - `TENANT#<t>` / `STATS#HB`   — the heartbeat histogram (devices by the minute of their last heartbeat);
 *  - `TENANT#<t>#DAYS` / `DAY#<yyyy-mm-dd>` — what happened on one UTC day;
 *  - `TENANT#<t>#HOURS` / `HOUR#<yyyy-mm-ddTHH>` — the incident part of the day item for one UTC hour (the
 *                                  partial days of a report period).
 *
 * Writers add `aggregateWrites(...)` (UpdateItem `ADD` actions) to the TransactWriteItems of the change, so
 * an aggregate moves exactly when the record does; a replayed or refused write changes neither. The
 * heartbeat histogram is the one exception: it is moved by its own UpdateItem after the device's heartbeat
 * (the heartbeat path is not transactional today either; a writer that stops between the two leaves a drift
 * of one that `rebuildTenantAggregates` repairs).
 *
 * `rebuildTenantAggregates` recomputes every aggregate from the items (Queries only) and can write them
 * (migration of data written before the aggregates, `npm run platform:rebuild-aggregates`) or only report
 * the drift (`--check`).
 */
import type { DeviceAlarm, Incident, Office365Alarm } from '../contract/schemas.js';
import {
  AGGREGATES_VERSION,
  agg,
  alarmDay,
  alarmStats,
  availabilityDay,
  delta,
  deviceHeartbeat,
  hourOf,
  incidentDay,
  incidentStats,
  nonZero,
  o365AlarmStats,
  staleMinuteKeys,
  sumInto,
  type Counters,
} from '../domain/aggregates.js';
import type { BatchWriteRequest, TableRef, TransactWriteItem, UpdateItemInput } from './client.js';
import { queryAll, writeIf } from './dynamo-util.js';
import { AlarmEntity, DeviceEntity, IncidentEntity, O365AlarmEntity, recordOf } from './entities.js';
import { keys } from './keys.js';

/** What one write changes in a tenant's aggregates: stats deltas, per-day deltas (`yyyy-mm-dd` → deltas), per-hour deltas (`yyyy-mm-ddTHH` → deltas). */
export interface AggregateChange {
  stats?: Counters;
  days?: Record<string, Counters>;
  hours?: Record<string, Counters>;
}

/** Marker values of the aggregate items (`entity` attribute). */
export const AGGREGATE_ENTITIES = { stats: 'TenantStats', heartbeat: 'HeartbeatHistogram', day: 'TenantDay', hour: 'TenantHour' } as const;

/**
 * The tenant's incident number counter (docs/data-model.md#aggregates): attribute `incidentSeq` of the stats
 * item, the number of the last incident id allocated (`INC-000123` → 123; absent: none allocated since
 * `AGGREGATES_VERSION` 3, see `LEGACY_COUNTER`). A create sets it in the stats update of its own transaction,
 * conditioned on the value it read (`aggregateWrites` option `incidentSeq`), so two creates never get the same
 * number and the counter costs no item of its own. The rebuild keeps it (never lowers it, never below the
 * highest stored incident number).
 */
export const INCIDENT_SEQ = 'incidentSeq';

/**
 * Where the counter lived before `AGGREGATES_VERSION` 3: item `TENANT#<t>` / `COUNTER#INCIDENT`, attribute
 * `seq`. Read by a create only while the stats item has no `INCIDENT_SEQ` yet (a tenant not migrated); the
 * rebuild moves its value into the stats item and deletes it.
 */
export const legacyCounterKey = (tenantId: string) => keys.incidentCounter(tenantId);

/** Attributes of aggregate items that are not counters. */
const NOT_COUNTERS = new Set(['PK', 'SK', 'entity', 'date', 'hour', 'aggVersion', 'rebuiltAt', 'rev', INCIDENT_SEQ]);

/**
 * The tenant's change marker (docs/data-model.md#aggregates): attribute `rev` of the stats item, a number that
 * grows by one with every write that changes something `GET /summary` shows. `aggregateWrites` adds it to the
 * stats update of the write's own transaction (no extra item for incident and alarm writes); a heartbeat that
 * opens a new minute bumps it last, after the histogram, days and roll-up it moved (`bumpChangeMarker`).
 * Read alone by `readChangeMarker` (one GetItem of the ~1 KB stats item).
 */
export const CHANGE_MARKER = 'rev';

/** The counters of a stored aggregate item (markers and keys dropped). */
export function countersOf(item: Record<string, unknown> | undefined): Counters {
  const out: Counters = {};
  for (const [k, v] of Object.entries(item ?? {})) if (!NOT_COUNTERS.has(k) && typeof v === 'number') out[k] = v;
  return out;
}

/**
 * One UpdateItem action: `ADD` every counter of `c` and `SET` the markers (and, with `seq`, the incident
 * counter, conditioned on `seq.prev`). Null when there is nothing to add or allocate.
 */
function addAction(
  table: TableRef,
  key: { PK: string; SK: string },
  c: Counters,
  marker: Record<string, string>,
  seq?: { prev: number | null; next: number },
): { Update: UpdateItemInput } | null {
  const entries = Object.entries(c).filter(([, v]) => v !== 0);
  if (entries.length === 0 && !seq) return null;
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const adds = entries.map(([k, v], i) => {
    names[`#c${i}`] = k;
    values[`:c${i}`] = v;
    return `#c${i} :c${i}`;
  });
  const sets = Object.entries(marker).map(([k, v], i) => {
    names[`#m${i}`] = k;
    values[`:m${i}`] = v;
    return `#m${i} = :m${i}`;
  });
  if (seq) {
    names['#seq'] = INCIDENT_SEQ;
    values[':seqNext'] = seq.next;
    sets.push('#seq = :seqNext');
    if (seq.prev !== null) values[':seqPrev'] = seq.prev;
  }
  return {
    Update: {
      TableName: table.tableName,
      Key: key,
      UpdateExpression: `${adds.length ? `ADD ${adds.join(', ')} ` : ''}SET ${sets.join(', ')}`,
      ...(seq ? { ConditionExpression: seq.prev === null ? 'attribute_not_exists(#seq)' : '#seq = :seqPrev' } : {}),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/**
 * The TransactWriteItems actions that apply `change` to tenant `tenantId`'s aggregate items (0–n actions; the
 * stats item's first). With `incidentSeq`, the stats update also allocates an incident number: `SET
 * incidentSeq = next` conditioned on the value read (`prev`; null: the attribute absent), so the transaction
 * fails with a condition failure on the stats action when another create took the number first.
 */
export function aggregateWrites(
  table: TableRef,
  tenantId: string,
  change: AggregateChange,
  opts: { marker?: boolean; incidentSeq?: { prev: number | null; next: number } } = {},
): TransactWriteItem[] {
  const out: TransactWriteItem[] = [];
  // Any change bumps the tenant's change marker in the same stats update (unless the caller bumps it itself).
  const changes = [change.stats ?? {}, ...Object.values(change.days ?? {}), ...Object.values(change.hours ?? {})].some((c) => Object.values(c).some((v) => v !== 0));
  const statsChange = changes && opts.marker !== false ? { ...change.stats, [CHANGE_MARKER]: 1 } : change.stats;
  const stats = addAction(table, keys.stats(tenantId), statsChange ?? {}, { entity: AGGREGATE_ENTITIES.stats }, opts.incidentSeq);
  if (stats) out.push(stats);
  for (const [date, c] of Object.entries(change.days ?? {})) {
    const a = addAction(table, keys.day(tenantId, date), c, { entity: AGGREGATE_ENTITIES.day, date });
    if (a) out.push(a);
  }
  for (const [hour, c] of Object.entries(change.hours ?? {})) {
    const a = addAction(table, keys.hour(tenantId, hour), c, { entity: AGGREGATE_ENTITIES.hour, hour });
    if (a) out.push(a);
  }
  return out;
}

/**
 * The action that marks a tenant's stats item as complete (`aggVersion`) without touching its counters: for a
 * tenant created now, whose aggregates need no rebuild. Adds nothing when the item is already there.
 */
export function aggregatesInitialized(table: TableRef, tenantId: string): TransactWriteItem {
  return {
    Update: {
      TableName: table.tableName,
      Key: keys.stats(tenantId),
      UpdateExpression: 'SET #e = :e, #v = if_not_exists(#v, :v)',
      ExpressionAttributeNames: { '#e': 'entity', '#v': 'aggVersion' },
      ExpressionAttributeValues: { ':e': AGGREGATE_ENTITIES.stats, ':v': AGGREGATES_VERSION },
    },
  };
}

/** Adds change `b` into `into` (in place; `into` has both parts) and returns `into`. */
function addChange(into: Required<AggregateChange>, b: AggregateChange): Required<AggregateChange> {
  sumInto(into.stats, b.stats ?? {});
  for (const [d, c] of Object.entries(b.days ?? {})) sumInto((into.days[d] ??= {}), c);
  for (const [h, c] of Object.entries(b.hours ?? {})) sumInto((into.hours[h] ??= {}), c);
  return into;
}

const dayOfIso = (iso: string) => iso.slice(0, 10);

/**
 * Aggregate change of an incident going from `before` (null: new) to `after` (null: removed): stats, the day
 * item and the hour item of its creation (the same `incidentDay` counters in both).
 */
export function incidentChange(before: Incident | null, after: Incident | null): AggregateChange {
  const days: Record<string, Counters> = {};
  const hours: Record<string, Counters> = {};
  if (before) {
    days[dayOfIso(before.createdAt)] = delta(incidentDay(before), null);
    hours[hourOf(before.createdAt)] = delta(incidentDay(before), null);
  }
  if (after) {
    sumInto((days[dayOfIso(after.createdAt)] ??= {}), incidentDay(after));
    sumInto((hours[hourOf(after.createdAt)] ??= {}), incidentDay(after));
  }
  const nz = (m: Record<string, Counters>) => Object.fromEntries(Object.entries(m).map(([k, c]) => [k, nonZero(c)]));
  return { stats: delta(before && incidentStats(before), after && incidentStats(after)), days: nz(days), hours: nz(hours) };
}

/** Aggregate change of a device alarm going from `before` (null: new) to `after`. */
export function alarmChange(before: DeviceAlarm | null, after: DeviceAlarm | null): AggregateChange {
  const days: Record<string, Counters> = {};
  if (before) days[dayOfIso(before.raisedAt)] = delta(alarmDay(before), null);
  if (after) sumInto((days[dayOfIso(after.raisedAt)] ??= {}), alarmDay(after));
  return { stats: delta(before && alarmStats(before), after && alarmStats(after)), days: Object.fromEntries(Object.entries(days).map(([d, c]) => [d, nonZero(c)])) };
}

/** Aggregate change of an Office 365 alarm going from `before` (null: new) to `after`. */
export function o365AlarmChange(before: Office365Alarm | null, after: Office365Alarm): AggregateChange {
  return { stats: delta(before && o365AlarmStats(before), o365AlarmStats(after)) };
}

/**
 * Moves a device in the heartbeat histogram from the minute of `before` (null: never seen; undefined: the
 * device is new) to the minute of `after`, and folds minutes older than `HB_KEEP_MINUTES` into `old` when it
 * sees any (a conditional UpdateItem; a lost race leaves them for the next heartbeat). `devices` counts the
 * device when it is new. At most two UpdateItems on a ~0.3 KB item.
 */
export async function moveHeartbeat(table: TableRef, tenantId: string, before: string | null | undefined, after: string | null, now: Date): Promise<void> {
  const change = delta(before === undefined ? null : deviceHeartbeat(before), deviceHeartbeat(after));
  const action = addAction(table, keys.heartbeatStats(tenantId), change, { entity: AGGREGATE_ENTITIES.heartbeat });
  if (before === undefined) {
    const stats = addAction(table, keys.stats(tenantId), { [agg.devices]: 1, [CHANGE_MARKER]: 1 }, { entity: AGGREGATE_ENTITIES.stats });
    await table.doc.send('TransactWriteItems', { TransactItems: [stats!, ...(action ? [action] : [])] });
    return;
  }
  if (!action) return;
  const res = await table.doc.send('UpdateItem', { ...action.Update, ReturnValues: 'ALL_NEW' });
  await foldHeartbeatMinutes(table, tenantId, countersOf(res.Attributes), now);
}

/** Adds one to the tenant's change marker (`CHANGE_MARKER`): one UpdateItem of the stats item. */
export async function bumpChangeMarker(table: TableRef, tenantId: string): Promise<void> {
  const action = addAction(table, keys.stats(tenantId), { [CHANGE_MARKER]: 1 }, { entity: AGGREGATE_ENTITIES.stats })!;
  await table.doc.send('UpdateItem', action.Update);
}

/**
 * The tenant's change marker (`CHANGE_MARKER`; 0 before the first change): ONE GetItem of the stats item
 * (eventually consistent, ≤ 0.5 RCU for an item under 4 KB). It moves with every write that changes what
 * `GET /summary` shows, so a reader that saw value `n` and reads `n` again saw no change meanwhile — except
 * the device statuses that time alone moves (a heartbeat's minute ageing past a threshold), which a reader
 * derives from the heartbeat histogram (`summaryValidUntil` in lambdas/domain/summary.ts).
 */
export async function readChangeMarker(table: TableRef, tenantId: string): Promise<number> {
  const res = await table.doc.send('GetItem', { TableName: table.tableName, Key: keys.stats(tenantId), ProjectionExpression: '#r', ExpressionAttributeNames: { '#r': CHANGE_MARKER } });
  const v = res.Item?.[CHANGE_MARKER];
  return typeof v === 'number' ? v : 0;
}

/** Folds the stale minute keys of `hist` (as read) into `old`, if they still hold the values read. */
export async function foldHeartbeatMinutes(table: TableRef, tenantId: string, hist: Counters, now: Date): Promise<void> {
  const stale = staleMinuteKeys(hist, now).slice(0, 50);
  if (stale.length === 0) return;
  const names: Record<string, string> = { '#old': agg.hbOld };
  const values: Record<string, unknown> = { ':sum': stale.reduce((s, k) => s + (hist[k] ?? 0), 0) };
  const conds: string[] = [];
  stale.forEach((k, i) => {
    names[`#k${i}`] = k;
    values[`:v${i}`] = hist[k];
    conds.push(`#k${i} = :v${i}`);
  });
  await writeIf(table, 'UpdateItem', {
    Key: keys.heartbeatStats(tenantId),
    UpdateExpression: `REMOVE ${stale.map((_, i) => `#k${i}`).join(', ')} ADD #old :sum`,
    ConditionExpression: conds.join(' AND '),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  });
}

/** Sends `requests` with BatchWriteItem, 25 at a time, sending unprocessed requests again (up to 8 tries each batch). */
async function batchWrite(table: TableRef, requests: BatchWriteRequest[]): Promise<void> {
  for (let i = 0; i < requests.length; i += 25) {
    let pending = requests.slice(i, i + 25);
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt === 8) throw new Error(`BatchWriteItem: ${pending.length} requests unprocessed after 8 tries`);
      if (attempt > 0) await new Promise((r) => setTimeout(r, 20 * attempt));
      const res = await table.doc.send('BatchWriteItem', { RequestItems: { [table.tableName]: pending } });
      pending = res.UnprocessedItems?.[table.tableName] ?? [];
    }
  }
}

/** The stored aggregates of a tenant: stats, heartbeat histogram and the day items of `[fromDate, toDate]`. */
export interface StoredAggregates {
  /** The change marker read with the stats item (`CHANGE_MARKER`; 0 when absent). */
  marker: number;
  stats: Counters;
  /** `aggVersion` of the stats item (null: never rebuilt, e.g. data older than the aggregates). */
  version: number | null;
  /** The incident number counter (`INCIDENT_SEQ`) of the stats item; null when absent. */
  incidentSeq: number | null;
  heartbeat: Counters;
  days: Map<string, Counters>;
}

/**
 * Reads the tenant's aggregates: GetItem stats + GetItem histogram + ONE Query of the day items
 * `DAY#fromDate..DAY#toDate` (yyyy-mm-dd, inclusive; ~0.2–0.5 KB per day item, so a year is ≤ 1 MB and
 * one page). Without `fromDate` no day items are read.
 */
export async function readTenantAggregates(table: TableRef, tenantId: string, fromDate?: string, toDate?: string): Promise<StoredAggregates> {
  // The stats item (and its change marker) first, then the rest: a heartbeat bumps the marker after moving the
  // histogram and its days, so a marker read first never comes with older figures (docs/data-model.md#aggregates).
  const stats = await table.doc.send('GetItem', { TableName: table.tableName, Key: keys.stats(tenantId) });
  const [hb, days] = await Promise.all([
    table.doc.send('GetItem', { TableName: table.tableName, Key: keys.heartbeatStats(tenantId) }),
    fromDate ? readTenantDays(table, tenantId, fromDate, toDate ?? '9999') : Promise.resolve(new Map<string, Counters>()),
  ]);
  const version = stats.Item?.aggVersion;
  const marker = stats.Item?.[CHANGE_MARKER];
  const seq = stats.Item?.[INCIDENT_SEQ];
  return {
    marker: typeof marker === 'number' ? marker : 0,
    stats: countersOf(stats.Item),
    version: typeof version === 'number' ? version : null,
    incidentSeq: typeof seq === 'number' ? seq : null,
    heartbeat: countersOf(hb.Item),
    days,
  };
}

/** The day items of `fromDate..toDate` (yyyy-mm-dd, inclusive) of a tenant: ONE Query (a year is < 1 MB). */
export async function readTenantDays(table: TableRef, tenantId: string, fromDate: string, toDate: string): Promise<Map<string, Counters>> {
  const days = await queryAll(table, {
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :a AND :b',
    ExpressionAttributeValues: { ':pk': keys.daysPk(tenantId), ':a': `DAY#${fromDate}`, ':b': `DAY#${toDate}` },
  });
  return new Map(days.map((d) => [String(d.date ?? String(d.SK).slice(4)), countersOf(d)]));
}

/**
 * The hour items of `fromHour..toHour` (`yyyy-mm-ddTHH`, inclusive) of a tenant: ONE Query (a day's 24
 * items of ~0.1–0.3 KB each; the whole history with `'0000'..'9999'`, which pages).
 */
export async function readTenantHours(table: TableRef, tenantId: string, fromHour: string, toHour: string): Promise<Map<string, Counters>> {
  const hours = await queryAll(table, {
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :a AND :b',
    ExpressionAttributeValues: { ':pk': keys.hoursPk(tenantId), ':a': `HOUR#${fromHour}`, ':b': `HOUR#${toHour}` },
  });
  return new Map(hours.map((h) => [String(h.hour ?? String(h.SK).slice(5)), countersOf(h)]));
}

/** Aggregates computed from the items (`rebuildTenantAggregates`). */
export interface ComputedAggregates {
  stats: Counters;
  /** The highest number of the tenant's stored incident ids (`INC-000123` → 123; 0 without incidents). */
  highestIncidentSeq: number;
  heartbeat: Counters;
  days: Map<string, Counters>;
  hours: Map<string, Counters>;
}

/** A histogram with the minutes stale at `now` folded into `old` and zero entries dropped (comparable form). */
export function normalizeHeartbeat(hist: Counters, now: Date): Counters {
  const stale = new Set(staleMinuteKeys(hist, now));
  const out: Counters = {};
  for (const [k, v] of Object.entries(hist)) {
    const key = stale.has(k) ? agg.hbOld : k;
    out[key] = (out[key] ?? 0) + v;
  }
  return nonZero(out);
}

/**
 * Sums the contributions of every stored record of the tenant: Queries of its GSI1 lists (incidents, alarms,
 * Office 365 alerts, devices) and one Query of each device's day items.
 */
export async function computeTenantAggregates(table: TableRef, tenantId: string, now: Date): Promise<ComputedAggregates> {
  const list = (pk: string) => queryAll(table, { IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :p', ExpressionAttributeValues: { ':p': pk } });
  const [incidents, alarms, o365, devices] = await Promise.all([
    list(keys.incidentsGsi1Pk(tenantId)),
    list(keys.alarmsGsi1Pk(tenantId)),
    list(keys.o365AlarmsGsi1Pk(tenantId)),
    list(keys.devicesGsi1Pk(tenantId)),
  ]);
  // Summed in place: one pass over the items (a new object per item made the rebuild quadratic in days).
  const change: Required<AggregateChange> = { stats: {}, days: {}, hours: {} };
  let highestIncidentSeq = 0;
  for (const i of incidents) {
    const incident = recordOf(IncidentEntity, i);
    addChange(change, incidentChange(null, incident));
    highestIncidentSeq = Math.max(highestIncidentSeq, Number(/^INC-(\d+)$/.exec(incident.id)?.[1] ?? 0));
  }
  for (const a of alarms) addChange(change, alarmChange(null, recordOf(AlarmEntity, a)));
  for (const a of o365) addChange(change, o365AlarmChange(null, recordOf(O365AlarmEntity, a)));
  const heartbeat: Counters = {};
  for (const d of devices) {
    sumInto(change.stats, { [agg.devices]: 1 });
    sumInto(heartbeat, deviceHeartbeat(recordOf(DeviceEntity, d).lastHeartbeatAt));
  }
  // Availability: every stored day of every device (one Query per device).
  for (const d of devices) {
    const days = await queryAll(table, {
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :a)',
      ExpressionAttributeValues: { ':pk': keys.devicePk(tenantId, String(d.id)), ':a': 'AVAIL#' },
    });
    for (const day of days) sumInto((change.days[String(day.date)] ??= {}), availabilityDay(day));
  }
  const nonEmpty = (m: Record<string, Counters>) => {
    const out = new Map<string, Counters>();
    for (const [k, c] of Object.entries(m)) if (Object.keys(nonZero(c)).length) out.set(k, nonZero(c));
    return out;
  };
  return { stats: nonZero(change.stats), highestIncidentSeq, heartbeat: normalizeHeartbeat(heartbeat, now), days: nonEmpty(change.days), hours: nonEmpty(change.hours) };
}

/** A difference between stored and rebuilt aggregates, e.g. `stats.inc#new#high: stored 3, items 4`. */
export type Drift = string;

/** The differences between two sets of counters (`where` prefixes each line). */
function diffCounters(where: string, stored: Counters, computed: Counters): Drift[] {
  const out: Drift[] = [];
  for (const k of new Set([...Object.keys(stored), ...Object.keys(computed)])) {
    const s = stored[k] ?? 0;
    const c = computed[k] ?? 0;
    if (s !== c) out.push(`${where}.${k}: stored ${s}, items ${c}`);
  }
  return out;
}

/**
 * Recomputes tenant `tenantId`'s aggregates from its items and compares them with the stored ones; with
 * `write`, replaces the stored aggregates by the recomputed ones (stats + histogram + every day and hour
 * item; day and hour items without any counter left are deleted) and marks the stats item `aggVersion`.
 * The stats item keeps the incident number counter (`INCIDENT_SEQ`): the largest of the stored one, the
 * pre-version-3 counter item's (`legacyCounterKey`, deleted after the stats item is written) and the highest
 * stored incident number, so no id is ever handed out twice.
 * Cost: one Query per GSI1 list of the tenant, one of its day items, one of its hour items, one write per
 * aggregate item. Writes of
 * the tenant running meanwhile can be lost from the aggregates: run it while the tenant is quiet (the local
 * stack runs it before serving; in AWS, `npm run platform:rebuild-aggregates` during a deploy).
 * @returns the drift lines (empty when the stored aggregates equal the items').
 */
export async function rebuildTenantAggregates(table: TableRef, tenantId: string, opts: { write: boolean; now?: Date }): Promise<{ drift: Drift[]; computed: ComputedAggregates }> {
  const now = opts.now ?? new Date();
  const [computed, stored, storedHours, legacy] = await Promise.all([
    computeTenantAggregates(table, tenantId, now),
    readTenantAggregates(table, tenantId, '0000-00-00', '9999-99-99'),
    readTenantHours(table, tenantId, '0000', '9999'),
    table.doc.send('GetItem', { TableName: table.tableName, Key: legacyCounterKey(tenantId), ConsistentRead: true }),
  ]);
  const legacySeq = typeof legacy.Item?.seq === 'number' ? legacy.Item.seq : null;
  const drift = [...diffCounters('stats', nonZero(stored.stats), computed.stats), ...diffCounters('heartbeat', normalizeHeartbeat(stored.heartbeat, now), computed.heartbeat)];
  for (const d of [...new Set([...stored.days.keys(), ...computed.days.keys()])].sort()) drift.push(...diffCounters(`day ${d}`, nonZero(stored.days.get(d) ?? {}), computed.days.get(d) ?? {}));
  for (const h of [...new Set([...storedHours.keys(), ...computed.hours.keys()])].sort()) drift.push(...diffCounters(`hour ${h}`, nonZero(storedHours.get(h) ?? {}), computed.hours.get(h) ?? {}));
  if (stored.version !== AGGREGATES_VERSION) drift.push(`stats.aggVersion: stored ${stored.version ?? 'none'}, current ${AGGREGATES_VERSION}`);
  if (opts.write) {
    const put = (Item: Record<string, unknown>) => table.doc.send('PutItem', { TableName: table.tableName, Item });
    await put({ ...keys.heartbeatStats(tenantId), entity: AGGREGATE_ENTITIES.heartbeat, ...computed.heartbeat });
    const requests: BatchWriteRequest[] = [
      ...[...stored.days.keys()].filter((d) => !computed.days.has(d)).map((d) => ({ DeleteRequest: { Key: keys.day(tenantId, d) } })),
      ...[...computed.days].map(([d, c]) => ({ PutRequest: { Item: { ...keys.day(tenantId, d), entity: AGGREGATE_ENTITIES.day, date: d, ...c } } })),
      ...[...storedHours.keys()].filter((h) => !computed.hours.has(h)).map((h) => ({ DeleteRequest: { Key: keys.hour(tenantId, h) } })),
      ...[...computed.hours].map(([h, c]) => ({ PutRequest: { Item: { ...keys.hour(tenantId, h), entity: AGGREGATE_ENTITIES.hour, hour: h, ...c } } })),
    ];
    await batchWrite(table, requests);
    // The stats item last: its aggVersion says the rebuild finished.
    const incidentSeq = Math.max(stored.incidentSeq ?? 0, legacySeq ?? 0, computed.highestIncidentSeq);
    await put({
      ...keys.stats(tenantId),
      entity: AGGREGATE_ENTITIES.stats,
      ...computed.stats,
      ...(incidentSeq > 0 ? { [INCIDENT_SEQ]: incidentSeq } : {}),
      aggVersion: AGGREGATES_VERSION,
      rebuiltAt: now.toISOString(),
      [CHANGE_MARKER]: stored.marker + 1,
    });
    // The counter now lives in the stats item (AGGREGATES_VERSION 3).
    if (legacy.Item) await table.doc.send('DeleteItem', { TableName: table.tableName, Key: legacyCounterKey(tenantId) });
  }
  return { drift, computed };
}
