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
import type { ListValidator } from '../contract/routes.js';
import { formatIncidentId } from '../domain/incidents.js';
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
  isUnresolved,
  nonZero,
  o365AlarmStats,
  histogramFold,
  sumInto,
  type Counters,
} from '../domain/aggregates.js';
import type { BatchWriteRequest, TableRef, TransactWriteItem, UpdateItemInput } from './table/client.js';
import { batchWriteAll, queryAll, writeIf } from './table/dynamo-util.js';
import { AlarmEntity, DeviceEntity, IncidentEntity, O365AlarmEntity, recordOf } from './entities.js';
import { keys } from './table/keys.js';
import { indexOf } from './access-patterns.js';

/** What one write changes in a tenant's aggregates: stats deltas, per-day deltas (`yyyy-mm-dd` → deltas), per-hour deltas (`yyyy-mm-ddTHH` → deltas). */
export interface AggregateChange {
  stats?: Counters;
  days?: Record<string, Counters>;
  hours?: Record<string, Counters>;
  /**
   * The unresolved incidents of a day / hour item (`openDays`: `yyyy-mm-dd`, `openHours`: `yyyy-mm-ddTHH` →
   * incident id → `<SLA due UTC hour yyyy-mm-ddTHH>#<status>`, or null: no longer unresolved there). Stored
   * one attribute per unresolved incident (`openAttr`), SET while unresolved and REMOVEd when resolved or
   * closed, so no zero counter is ever left behind; read back as its `d#<due hour>` and `s#<status>`
   * counters (`dayCountersOf`), which the stored counters then do not hold for it.
   */
  openDays?: Record<string, OpenIncidents>;
  openHours?: Record<string, OpenIncidents>;
}

/** Incident id → `<SLA due UTC hour yyyy-mm-ddTHH>#<status>` while unresolved, null once it is not (see `AggregateChange`). */
export type OpenIncidents = Record<string, string | null>;

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
const NOT_COUNTERS = new Set(['PK', 'SK', 'entity', 'date', 'hour', 'aggVersion', 'rebuiltAt', 'rev', 'revI', 'revA', INCIDENT_SEQ]);

/**
 * The tenant's change marker (docs/data-model.md#aggregates): attribute `rev` of the stats item, a number that
 * grows by one with every write that changes something `GET /summary` shows but heartbeats. `aggregateWrites`
 * adds it to the stats update of the write's own transaction (no extra item for incident and alarm writes).
 * A heartbeat does NOT bump it (a tenant with live devices would move it every minute, and no dashboard poll
 * would ever get a 304): what heartbeats move is validated apart — the device statuses from the heartbeat
 * histogram read with the marker (`readAggregateHead`), the availability they record by the summary's
 * one-hour bound (`HEARTBEAT_FIGURES_MAX_AGE_MS`, lambdas/domain/summary.ts). Read alone by `readChangeMarker`
 * (one GetItem of the ~1 KB stats item).
 */
export const CHANGE_MARKER = 'rev';

/**
 * The tenant's list markers (docs/api.md#conditional-requests, docs/data-model.md#aggregates): attributes of the
 * stats item, one per validated list (`LIST_VALIDATORS`, lambdas/contract/routes.ts), each a number that grows
 * by one with EVERY write of a record that list shows — `revI` with each incident write (created, any field
 * changed, seeded), `revA` with each device alarm write (raised, re-raised, acknowledged, cleared) and each
 * rename of a device whose alarms carry its name (`syncAlarmDeviceNames`). Unlike `CHANGE_MARKER` they move
 * also when no counter does (a title edited), and never with heartbeats. Added to the stats update of the
 * write's own transaction (`aggregateWrites` option `list`); read alone by `readListMarker` (one GetItem).
 */
export const LIST_MARKERS: Readonly<Record<ListValidator, string>> = { incidents: 'revI', alarms: 'revA' };

/** The counters of a stored aggregate item (markers and keys dropped). */
export function countersOf(item: Record<string, unknown> | undefined): Counters {
  const out: Counters = {};
  for (const [k, v] of Object.entries(item ?? {})) if (!NOT_COUNTERS.has(k) && typeof v === 'number') out[k] = v;
  return out;
}

/*
 * Stored names of the day and hour items (docs/data-model.md#aggregates, since `AGGREGATES_VERSION` 4).
 * Every report or analytics request reads one day item per day of its period (366 for a year), so the bytes
 * of a day item are the cost of those reads, and every write that touches the item pays for its size too.
 * The figures keep their in-memory names (`agg`, lambdas/domain/aggregates.ts); only the stored names are
 * shorter, translated here on the way in (`storedName`) and out (`dayCountersOf`):
 *  - `c#<sev>` → `c<sev>`, `r#<sev>` → `r<sev>`, `q#<sev>` → `q<sev>`, `k#<sev>` → `k<sev>` (`<sev>`: c/h/m/l);
 *  - `s#<status>` → `s<n|p|h|r|x>` (new, in_progress, on_hold, resolved, closed);
 *  - `t#<type key>#<sev>` → `t<sev><type code>` (`ALARM_TYPE_CODES`; a type without a code keeps its name);
 *  - the SLA-due-hour counters `d#<yymmddHH>` are not counters in storage: each unresolved incident is one
 *    attribute `o<incident number>` (`openAttr`) whose value is its due hour as hours after 00:00 UTC of the
 *    item's day × 8 + its status (`openValue`; the status counters then leave it out); it is SET while the
 *    incident is unresolved and REMOVEd when it is resolved or closed.
 *    Counters moved down with ADD stay in the item at 0 (DynamoDB has no "remove when zero"), and a busy
 *    day's incidents fall due in tens of different hours: as counters, a maintained day item kept one zero
 *    attribute for each of them. One attribute per unresolved incident is gone when the incident is.
 * Names not listed (`taN`, `taMs`, `trN`, `trMs`, `met`, `avMs`, `upMs`, `T#<sev>#<title>`, and every
 * name of the older layouts) are stored as they are and read back as they are, so an item of an older
 * layout still reads right until the migration rebuilds it.
 */

/** Short stored codes of the catalogue's alarm types (`DEVICE_ALARM_TYPES`); never reuse or change one. */
export const ALARM_TYPE_CODES: Readonly<Record<string, string>> = {
  heartbeat_lost: 'hb',
  cpu_high: 'cpu',
  wan_down: 'wan',
  packet_loss: 'pl',
  disk_almost_full: 'dsk',
  temperature_high: 'tmp',
  vpn_sessions_rejected: 'vpn',
};
const TYPE_OF_CODE = new Map(Object.entries(ALARM_TYPE_CODES).map(([k, c]) => [c, k]));
const STATUS_CODES: Readonly<Record<string, string>> = { new: 'n', in_progress: 'p', on_hold: 'h', resolved: 'r', closed: 'x' };
const STATUS_OF_CODE = new Map(Object.entries(STATUS_CODES).map(([k, c]) => [c, k]));
const SEV_LETTERS = 'chml';

/** The stored name of in-memory counter name `name` of a day or hour item (see above). */
export function storedName(name: string): string {
  if (/^[crqk]#[chml]$/.test(name)) return `${name[0]}${name[2]}`;
  if (name.startsWith('s#')) {
    const code = STATUS_CODES[name.slice(2)];
    return code ? `s${code}` : name;
  }
  const t = /^t#([a-z0-9_]+)#([chml])$/.exec(name);
  const code = t ? ALARM_TYPE_CODES[t[1]!] : undefined;
  return t && code ? `t${t[2]}${code}` : name;
}

/** The in-memory name of stored counter name `stored` (inverse of `storedName`; other names as they are). */
function memoryName(stored: string): string {
  if (stored.length === 2 && 'crqk'.includes(stored[0]!) && SEV_LETTERS.includes(stored[1]!)) return `${stored[0]}#${stored[1]}`;
  if (stored.length === 2 && stored[0] === 's' && STATUS_OF_CODE.has(stored[1]!)) return `s#${STATUS_OF_CODE.get(stored[1]!)}`;
  if (stored[0] === 't' && SEV_LETTERS.includes(stored[1] ?? '-') && TYPE_OF_CODE.has(stored.slice(2))) return `t#${TYPE_OF_CODE.get(stored.slice(2))}#${stored[1]}`;
  return stored;
}

/** `INC-000123` → `o123`: the stored attribute of an unresolved incident (an id of another form: `o#<id>`). */
export function openAttr(incidentId: string): string {
  const m = /^INC-(\d+)$/.exec(incidentId);
  return m && formatIncidentId(Number(m[1])) === incidentId ? `o${Number(m[1])}` : `o#${incidentId}`;
}
const isOpenAttr = (name: string): boolean => /^o(\d+$|#)/.test(name);

/** The statuses in the low 3 bits of an `o…` attribute's value (`openValue`); never reorder. */
const OPEN_STATUSES = ['new', 'in_progress', 'on_hold', 'resolved', 'closed'] as const;

/** The stored value of an unresolved incident (`<due hour>#<status>`) in an item of UTC day `date`: hours from the day's start × 8 + its status's index. */
function openValue(date: string, open: string): number {
  const [due, status] = open.split('#') as [string, string];
  const idx = (OPEN_STATUSES as readonly string[]).indexOf(status);
  if (idx < 0) throw new Error(`unknown incident status ${status}`);
  return hoursAfter(date, due) * 8 + idx;
}

const HOUR_MS = 3_600_000;
/** Hours from 00:00 UTC of day `date` (`yyyy-mm-dd`) to the start of UTC hour `hour` (`yyyy-mm-ddTHH`). */
const hoursAfter = (date: string, hour: string): number => Math.round((Date.parse(`${hour}:00:00.000Z`) - Date.parse(`${date}T00:00:00.000Z`)) / HOUR_MS);
/** The UTC hour `yyyy-mm-ddTHH` `n` hours after 00:00 UTC of `date`. */
const hourAfter = (date: string, n: number): string => new Date(Date.parse(`${date}T00:00:00.000Z`) + n * HOUR_MS).toISOString().slice(0, 13);

/**
 * The in-memory counters of a stored day or hour item of UTC day `date`: stored names translated back
 * (`storedName`), and each unresolved incident's `o…` attribute (`openValue`) counted as `d#<its due hour>`
 * and `s#<its status>`.
 */
export function dayCountersOf(item: Record<string, unknown> | undefined, date: string): Counters {
  const out: Counters = {};
  for (const [k, v] of Object.entries(item ?? {})) {
    if (NOT_COUNTERS.has(k) || typeof v !== 'number') continue;
    if (isOpenAttr(k)) {
      const idx = ((v % 8) + 8) % 8;
      sumInto(out, { [agg.openDue(hourAfter(date, (v - idx) / 8))]: 1 });
      sumInto(out, { [agg.createdStatus(OPEN_STATUSES[idx] ?? 'new')]: 1 });
    } else sumInto(out, { [memoryName(k)]: v });
  }
  return out;
}

/**
 * In-memory day counters `c` split by the item that stores them (docs/data-model.md#day-parts; a day written
 * in the older one-item layout reads the same, its counters summed with any parts by `readTenantDays`): `incidents` in the day item `DAY#<date>` (with the unresolved incidents' `o…`
 * attributes, the part that grows with the day's activity), the device alarms raised (`r#…`, `t#…`, `T#…`) in
 * `DAY#<date>#a`, the availability pair (`avMs`, `upMs`) in `DAY#<date>#v` — so a heartbeat (the tenant's most
 * frequent write) and an alarm update an item of a fixed size, whatever the incidents of the day.
 */
export function dayParts(c: Counters): { incidents: Counters; a: Counters; v: Counters } {
  const out = { incidents: {} as Counters, a: {} as Counters, v: {} as Counters };
  for (const [k, v] of Object.entries(c)) {
    const part = k === agg.availMonitoredMs || k === agg.availUpMs ? 'v' : k.startsWith('r#') || k.startsWith('t#') || k.startsWith('T#') ? 'a' : 'incidents';
    out[part][k] = v;
  }
  return out;
}

/** The stored attributes of in-memory counters `c` (no `d#` counter: those are stored as `o…`, see `openItemAttrs`). */
function storedCounters(c: Counters): Counters {
  const out: Counters = {};
  for (const [k, v] of Object.entries(c)) if (v !== 0 && !k.startsWith('d#')) sumInto(out, { [storedName(k)]: v });
  return out;
}

/** The `o…` attributes of the unresolved incidents `open` (id → `<due hour>#<status>`) of an item of UTC day `date`. */
function openItemAttrs(open: Record<string, string>, date: string): Counters {
  return Object.fromEntries(Object.entries(open).map(([id, o]) => [openAttr(id), openValue(date, o)]));
}

/**
 * One UpdateItem action: `ADD` every counter of `c` and `SET` the markers (and, with `seq`, the incident
 * counter, conditioned on `seq.prev`; with `open`, `SET` the listed attributes and `REMOVE` those mapped to
 * null). Null when there is nothing to add, set, remove or allocate.
 */
function addAction(
  table: TableRef,
  key: { PK: string; SK: string },
  c: Counters,
  marker: Record<string, string>,
  seq?: { prev: number | null; next: number },
  open?: Record<string, number | null>,
): { Update: UpdateItemInput } | null {
  const entries = Object.entries(c).filter(([, v]) => v !== 0);
  const openEntries = Object.entries(open ?? {});
  if (entries.length === 0 && openEntries.length === 0 && !seq) return null;
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
  const removes: string[] = [];
  openEntries.forEach(([k, v], i) => {
    names[`#o${i}`] = k;
    if (v === null) removes.push(`#o${i}`);
    else {
      values[`:o${i}`] = v;
      sets.push(`#o${i} = :o${i}`);
    }
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
      UpdateExpression: `${adds.length ? `ADD ${adds.join(', ')} ` : ''}SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
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
  opts: { marker?: boolean; incidentSeq?: { prev: number | null; next: number }; list?: ListValidator } = {},
): TransactWriteItem[] {
  const out: TransactWriteItem[] = [];
  // Any change bumps the tenant's change marker in the same stats update (unless the caller bumps it itself).
  const changes =
    [change.stats ?? {}, ...Object.values(change.days ?? {}), ...Object.values(change.hours ?? {})].some((c) => Object.values(c).some((v) => v !== 0)) ||
    [...Object.values(change.openDays ?? {}), ...Object.values(change.openHours ?? {})].some((o) => Object.keys(o).length > 0);
  // The record's list marker moves with every write of the record, counters moved or not (`LIST_MARKERS`).
  const statsChange = { ...change.stats, ...(changes && opts.marker !== false ? { [CHANGE_MARKER]: 1 } : {}), ...(opts.list ? { [LIST_MARKERS[opts.list]]: 1 } : {}) };
  const stats = addAction(table, keys.stats(tenantId), statsChange ?? {}, { entity: AGGREGATE_ENTITIES.stats }, opts.incidentSeq);
  if (stats) out.push(stats);
  // The day and hour items: stored names (`storedName`), each unresolved incident SET / REMOVEd as its `o…` attribute.
  const openOf = (o: OpenIncidents | undefined, date: string) =>
    Object.fromEntries(Object.entries(o ?? {}).map(([id, v]) => [openAttr(id), v === null ? null : openValue(date, v)]));
  // Each writer updates its own part of the day (`dayParts`): a heartbeat or an alarm never pays for the size of the incidents' part.
  for (const date of new Set([...Object.keys(change.days ?? {}), ...Object.keys(change.openDays ?? {})])) {
    const parts = dayParts(change.days?.[date] ?? {});
    const a = addAction(table, keys.day(tenantId, date), storedCounters(parts.incidents), { entity: AGGREGATE_ENTITIES.day, date }, undefined, openOf(change.openDays?.[date], date));
    if (a) out.push(a);
    for (const part of ['a', 'v'] as const) {
      const p = addAction(table, keys.dayPart(tenantId, date, part), storedCounters(parts[part]), { entity: AGGREGATE_ENTITIES.day, date });
      if (p) out.push(p);
    }
  }
  for (const hour of new Set([...Object.keys(change.hours ?? {}), ...Object.keys(change.openHours ?? {})])) {
    const a = addAction(table, keys.hour(tenantId, hour), storedCounters(change.hours?.[hour] ?? {}), { entity: AGGREGATE_ENTITIES.hour, hour }, undefined, openOf(change.openHours?.[hour], hour.slice(0, 10)));
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

/** Adds change `b` into `into` (in place; `into` has every part) and returns `into`. */
function addChange(into: Required<AggregateChange>, b: AggregateChange): Required<AggregateChange> {
  sumInto(into.stats, b.stats ?? {});
  for (const [d, c] of Object.entries(b.days ?? {})) sumInto((into.days[d] ??= {}), c);
  for (const [h, c] of Object.entries(b.hours ?? {})) sumInto((into.hours[h] ??= {}), c);
  for (const [d, o] of Object.entries(b.openDays ?? {})) Object.assign((into.openDays[d] ??= {}), o);
  for (const [h, o] of Object.entries(b.openHours ?? {})) Object.assign((into.openHours[h] ??= {}), o);
  return into;
}

const dayOfIso = (iso: string) => iso.slice(0, 10);

/**
 * Aggregate change of an incident going from `before` (null: new) to `after` (null: removed): stats, the day
 * item and the hour item of its creation (the same `incidentDay` counters in both). Its `d#<due hour>`
 * counter is not added: an unresolved incident is its own attribute of those items (`openDays` /
 * `openHours`: SET to its due hour, or REMOVEd (null) when it stops being unresolved; nothing when neither
 * changes), see `AggregateChange`.
 */
export function incidentChange(before: Incident | null, after: Incident | null): AggregateChange {
  // What the stored counters hold of an incident: `incidentDay` less what its `o…` attribute says while it is
  // unresolved (its due hour and status).
  const counted = (i: Incident): Counters => {
    const c = incidentDay(i);
    for (const k of Object.keys(c)) if (k.startsWith('d#')) delete c[k];
    if (isUnresolved(i)) delete c[agg.createdStatus(i.status)];
    return c;
  };
  const days: Record<string, Counters> = {};
  const hours: Record<string, Counters> = {};
  if (before) {
    days[dayOfIso(before.createdAt)] = delta(counted(before), null);
    hours[hourOf(before.createdAt)] = delta(counted(before), null);
  }
  if (after) {
    sumInto((days[dayOfIso(after.createdAt)] ??= {}), counted(after));
    sumInto((hours[hourOf(after.createdAt)] ??= {}), counted(after));
  }
  const counters = (m: Record<string, Counters>) => Object.fromEntries(Object.entries(m).map(([k, c]) => [k, nonZero(c)]));
  const openDays: Record<string, OpenIncidents> = {};
  const openHours: Record<string, OpenIncidents> = {};
  const dueOf = (i: Incident) => (isUnresolved(i) ? `${hourOf(i.slaDueAt)}#${i.status}` : null);
  const was = before && dueOf(before);
  const is = after && dueOf(after);
  if (before && was && !(after && is === was && after.id === before.id && after.createdAt === before.createdAt)) {
    (openDays[dayOfIso(before.createdAt)] ??= {})[before.id] = null;
    (openHours[hourOf(before.createdAt)] ??= {})[before.id] = null;
  }
  if (after && is && !(before && was === is && after.id === before.id && after.createdAt === before.createdAt)) {
    (openDays[dayOfIso(after.createdAt)] ??= {})[after.id] = is;
    (openHours[hourOf(after.createdAt)] ??= {})[after.id] = is;
  }
  return { stats: delta(before && incidentStats(before), after && incidentStats(after)), days: counters(days), hours: counters(hours), openDays, openHours };
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

/**
 * The histogram move of {@link moveHeartbeat} (a known device from the minute of `before`, null = never seen, to
 * the minute of `after`) as one TransactWriteItems action, for a write that must apply it in its own transaction
 * (a heartbeat: all or nothing, so a refused request never leaves the histogram behind the device); null when
 * the minute does not change. The fold of stale minutes is {@link foldHeartbeatHistogram}'s, after it.
 */
export function heartbeatMoveAction(table: TableRef, tenantId: string, before: string | null, after: string | null): { Update: UpdateItemInput } | null {
  return addAction(table, keys.heartbeatStats(tenantId), delta(deviceHeartbeat(before), deviceHeartbeat(after)), { entity: AGGREGATE_ENTITIES.heartbeat });
}

/**
 * Folds the tenant's stale histogram minutes into `old` ({@link foldHeartbeatMinutes}) after a
 * {@link heartbeatMoveAction}: one eventually consistent GetItem of the ~0.3 KB item (0.5 RCU), and a
 * conditional UpdateItem only when a minute is stale (a lost race leaves it for the next heartbeat).
 */
export async function foldHeartbeatHistogram(table: TableRef, tenantId: string, now: Date): Promise<void> {
  const res = await table.doc.send('GetItem', { TableName: table.tableName, Key: keys.heartbeatStats(tenantId) });
  await foldHeartbeatMinutes(table, tenantId, countersOf(res.Item), now);
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

/**
 * The tenant's list marker of `list` (`LIST_MARKERS`; 0 before the first write): ONE GetItem of the stats item,
 * projected, eventually consistent (the ~1 KB item: 0.5 RCU). What validates a list's ETag (lambdas/http/api.ts).
 */
export async function readListMarker(table: TableRef, tenantId: string, list: ListValidator): Promise<number> {
  const res = await table.doc.send('GetItem', { TableName: table.tableName, Key: keys.stats(tenantId), ProjectionExpression: '#r', ExpressionAttributeNames: { '#r': LIST_MARKERS[list] } });
  const v = res.Item?.[LIST_MARKERS[list]];
  return typeof v === 'number' ? v : 0;
}

/** Adds one to the tenant's list marker of `list` (`LIST_MARKERS`): one UpdateItem of the stats item (a write outside `aggregateWrites`). */
export async function bumpListMarker(table: TableRef, tenantId: string, list: ListValidator): Promise<void> {
  const action = addAction(table, keys.stats(tenantId), { [LIST_MARKERS[list]]: 1 }, { entity: AGGREGATE_ENTITIES.stats })!;
  await table.doc.send('UpdateItem', action.Update);
}

/**
 * Folds the stale minutes of `hist` (as read; at most 50 a call) into their UTC day's bin and the day bins older
 * than `HB_KEEP_DAYS` into `old` (`histogramFold`), if every key removed still holds the value read (a
 * conditional UpdateItem; a lost race leaves them for the next heartbeat).
 */
export async function foldHeartbeatMinutes(table: TableRef, tenantId: string, hist: Counters, now: Date): Promise<void> {
  const { remove, add } = histogramFold(hist, now, 50);
  if (remove.length === 0) return;
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const conds: string[] = [];
  remove.forEach((k, i) => {
    names[`#k${i}`] = k;
    values[`:v${i}`] = hist[k];
    conds.push(`#k${i} = :v${i}`);
  });
  const adds = Object.entries(add).map(([k, v], i) => {
    names[`#a${i}`] = k;
    values[`:a${i}`] = v;
    return `#a${i} :a${i}`;
  });
  await writeIf(table, 'UpdateItem', {
    Key: keys.heartbeatStats(tenantId),
    UpdateExpression: `REMOVE ${remove.map((_, i) => `#k${i}`).join(', ')}${adds.length ? ` ADD ${adds.join(', ')}` : ''}`,
    ConditionExpression: conds.join(' AND '),
    ExpressionAttributeNames: names,
    ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
  });
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
  /** The list markers of the stats item (`LIST_MARKERS` attribute → value; absent ones left out). */
  lists: Record<string, number>;
  heartbeat: Counters;
  days: Map<string, Counters>;
}

/** A tenant's stats item and heartbeat histogram as read together (`readAggregateHead`): `StoredAggregates` without days. */
export type AggregateHead = Omit<StoredAggregates, 'days'>;

/**
 * The tenant's stats item (its counters, change marker, version, incident counter, list markers) and its heartbeat
 * histogram in ONE Query of the two adjacent items `TENANT#<t>` / `STATS` and `STATS#HB` (`SK BETWEEN STATS AND
 * STATS#HB`; eventually consistent, ~1.5 KB together: 0.5 RCU, where two GetItems were 1 RCU and one more
 * request on the path). The head comes first: what a reader reads after it is at least as new as its change
 * marker (docs/data-model.md#aggregates); the histogram moves apart from the marker and is validated by the
 * device statuses it gives (`statusDigest` in lambdas/domain/summary.ts).
 */
export async function readAggregateHead(table: TableRef, tenantId: string): Promise<AggregateHead> {
  const statsKey = keys.stats(tenantId);
  const hbKey = keys.heartbeatStats(tenantId);
  const res = await table.doc.send('Query', {
    TableName: table.tableName,
    KeyConditionExpression: 'PK = :p AND SK BETWEEN :a AND :b',
    ExpressionAttributeValues: { ':p': statsKey.PK, ':a': statsKey.SK, ':b': hbKey.SK },
  });
  const items = res.Items ?? [];
  const stats = items.find((i) => i.SK === statsKey.SK);
  const version = stats?.aggVersion;
  const marker = stats?.[CHANGE_MARKER];
  const seq = stats?.[INCIDENT_SEQ];
  return {
    marker: typeof marker === 'number' ? marker : 0,
    stats: countersOf(stats),
    version: typeof version === 'number' ? version : null,
    incidentSeq: typeof seq === 'number' ? seq : null,
    lists: Object.fromEntries(Object.values(LIST_MARKERS).flatMap((n) => (typeof stats?.[n] === 'number' ? [[n, stats[n] as number]] : []))),
    heartbeat: countersOf(items.find((i) => i.SK === hbKey.SK)),
  };
}

/**
 * Reads the tenant's aggregates: `readAggregateHead` (ONE Query: stats + histogram), then ONE Query of the day
 * items `DAY#fromDate..DAY#toDate` (yyyy-mm-dd, inclusive; ~0.2–0.5 KB per day item, so a year is ≤ 1 MB and
 * one page). Without `fromDate` no day items are read.
 */
export async function readTenantAggregates(table: TableRef, tenantId: string, fromDate?: string, toDate?: string): Promise<StoredAggregates> {
  // The head (and its change marker) first, then the days: a write moves the marker with its days in one
  // transaction, so a marker read first never comes with older days (docs/data-model.md#aggregates).
  const head = await readAggregateHead(table, tenantId);
  const days = fromDate ? await readTenantDays(table, tenantId, fromDate, toDate ?? '9999') : new Map<string, Counters>();
  return { ...head, days };
}

/** The day items of `fromDate..toDate` (yyyy-mm-dd, inclusive) of a tenant: ONE Query (a year is < 1 MB). */
export async function readTenantDays(table: TableRef, tenantId: string, fromDate: string, toDate: string): Promise<Map<string, Counters>> {
  return (await readTenantDaysWithOpen(table, tenantId, fromDate, toDate)).days;
}

/** An unresolved incident as a day item holds it (`openAttr`): its id, the UTC day it was created (the item's) and its SLA due UTC hour. */
export interface OpenIncidentOfDay {
  id: string;
  /** `yyyy-mm-dd`: the day item's date, the incident's creation day. */
  date: string;
  /** `yyyy-mm-ddTHH`: the UTC hour its SLA is due in. */
  hour: string;
}

/**
 * The unresolved incidents stored item `item` of UTC day `date` names, one per `o…` attribute (`openAttr`,
 * `openValue`): `o123` is `INC-000123`, `o#<id>` the id as it is. An item of the layout before
 * `AGGREGATES_VERSION` 4 (`d#<yymmddHH>` counters) names none.
 */
export function openIncidentsOfDay(item: Record<string, unknown>, date: string): OpenIncidentOfDay[] {
  const out: OpenIncidentOfDay[] = [];
  for (const [k, v] of Object.entries(item)) {
    if (!isOpenAttr(k) || typeof v !== 'number') continue;
    const idx = ((v % 8) + 8) % 8;
    out.push({ id: k[1] === '#' ? k.slice(2) : formatIncidentId(Number(k.slice(1))), date, hour: hourAfter(date, (v - idx) / 8) });
  }
  return out;
}

/**
 * `readTenantDays` (the same ONE Query) with the unresolved incidents the day items name (`openIncidentsOfDay`),
 * in the items' order: what a report needs to tell, of the incidents due in its boundary hour, which are due
 * before its end (`loadPeriodsAggregates` in lambdas/data/reports.ts).
 */
export async function readTenantDaysWithOpen(table: TableRef, tenantId: string, fromDate: string, toDate: string): Promise<{ days: Map<string, Counters>; open: OpenIncidentOfDay[] }> {
  const items = await queryAll(table, {
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :a AND :b',
    // `DAY#<to>#~` takes the day's parts (`DAY#<date>#a`, `#v`, sorted right after it) in the same Query.
    ExpressionAttributeValues: { ':pk': keys.daysPk(tenantId), ':a': `DAY#${fromDate}`, ':b': `DAY#${toDate}#~` },
  });
  const days = new Map<string, Counters>();
  const open: OpenIncidentOfDay[] = [];
  for (const d of items) {
    const date = String(d.date ?? String(d.SK).slice(4, 14));
    const c = dayCountersOf(d, date);
    const cur = days.get(date);
    days.set(date, cur ? sumInto(cur, c) : c);
    open.push(...openIncidentsOfDay(d, date));
  }
  return { days, open };
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
  return new Map(
    hours.map((h) => {
      const hour = String(h.hour ?? String(h.SK).slice(5));
      return [hour, dayCountersOf(h, hour.slice(0, 10))];
    }),
  );
}

/** Aggregates computed from the items (`rebuildTenantAggregates`). */
export interface ComputedAggregates {
  stats: Counters;
  /** The highest number of the tenant's stored incident ids (`INC-000123` → 123; 0 without incidents). */
  highestIncidentSeq: number;
  heartbeat: Counters;
  days: Map<string, Counters>;
  hours: Map<string, Counters>;
  /** The counters the day / hour items store: `days` / `hours` less what the unresolved incidents' attributes say. */
  counterDays: Map<string, Counters>;
  counterHours: Map<string, Counters>;
  /** The unresolved incidents of each day / hour item (id → `<due hour>#<status>`), stored as `o…` attributes; counted as `d#`, `s#` in `days` / `hours`. */
  openDays: Map<string, Record<string, string>>;
  openHours: Map<string, Record<string, string>>;
}

/**
 * A histogram with everything stale at `now` folded (`histogramFold`: minutes into their day, old days into
 * `old`, counts and sums alike) and zero entries dropped (comparable form: what the drift check compares).
 */
export function normalizeHeartbeat(hist: Counters, now: Date): Counters {
  const { remove, add } = histogramFold(hist, now);
  const out: Counters = { ...hist };
  for (const k of remove) delete out[k];
  return nonZero(sumInto(out, add));
}

/**
 * Sums the contributions of every stored record of the tenant: Queries of its GSI1 lists (incidents, alarms,
 * Office 365 alerts, devices) and one Query of each device's day items.
 */
export async function computeTenantAggregates(table: TableRef, tenantId: string, now: Date): Promise<ComputedAggregates> {
  const list = (pk: string) => queryAll(table, { IndexName: indexOf('tenantLists'), KeyConditionExpression: 'GSI1PK = :p', ExpressionAttributeValues: { ':p': pk } });
  const [incidents, alarms, o365, devices] = await Promise.all([
    list(keys.incidentsGsi1Pk(tenantId)),
    list(keys.alarmsGsi1Pk(tenantId)),
    list(keys.o365AlarmsGsi1Pk(tenantId)),
    list(keys.devicesGsi1Pk(tenantId)),
  ]);
  // Summed in place: one pass over the items (a new object per item made the rebuild quadratic in days).
  const change: Required<AggregateChange> = { stats: {}, days: {}, hours: {}, openDays: {}, openHours: {} };
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
  // What the items store as counters; the unresolved incidents (one attribute each) add their in-memory
  // `d#<due hour>` and `s#<status>` counters to the figures.
  const counterDays = nonEmpty(change.days);
  const counterHours = nonEmpty(change.hours);
  const opens = (m: Record<string, OpenIncidents>) => new Map(Object.entries(m).map(([k, o]) => [k, Object.fromEntries(Object.entries(o).filter((e): e is [string, string] => e[1] !== null))]));
  const openDays = opens(change.openDays);
  const openHours = opens(change.openHours);
  const openCounters = (o: string) => {
    const [due, status] = o.split('#') as [string, string];
    return { [agg.openDue(due)]: 1, [agg.createdStatus(status)]: 1 };
  };
  for (const [d, o] of openDays) for (const v of Object.values(o)) sumInto((change.days[d] ??= {}), openCounters(v));
  for (const [h, o] of openHours) for (const v of Object.values(o)) sumInto((change.hours[h] ??= {}), openCounters(v));
  return { stats: nonZero(change.stats), highestIncidentSeq, heartbeat: normalizeHeartbeat(heartbeat, now), days: nonEmpty(change.days), hours: nonEmpty(change.hours), counterDays, counterHours, openDays, openHours };
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
      ...[...stored.days.keys()].filter((d) => !computed.days.has(d)).flatMap((d) => [keys.day(tenantId, d), keys.dayPart(tenantId, d, 'a'), keys.dayPart(tenantId, d, 'v')].map((Key) => ({ DeleteRequest: { Key } }))),
      // Each day in its parts (`dayParts`; an item of the older one-item layout is replaced by them), a part without counters deleted.
      ...[...computed.days].flatMap(([d]): BatchWriteRequest[] => {
        const parts = dayParts(computed.counterDays.get(d) ?? {});
        const part = (p: 'a' | 'v'): BatchWriteRequest =>
          Object.keys(nonZero(parts[p])).length > 0
            ? { PutRequest: { Item: { ...keys.dayPart(tenantId, d, p), entity: AGGREGATE_ENTITIES.day, date: d, ...storedCounters(parts[p]) } } }
            : { DeleteRequest: { Key: keys.dayPart(tenantId, d, p) } };
        return [{ PutRequest: { Item: { ...keys.day(tenantId, d), entity: AGGREGATE_ENTITIES.day, date: d, ...storedCounters(parts.incidents), ...openItemAttrs(computed.openDays.get(d) ?? {}, d) } } }, part('a'), part('v')];
      }),
      ...[...storedHours.keys()].filter((h) => !computed.hours.has(h)).map((h) => ({ DeleteRequest: { Key: keys.hour(tenantId, h) } })),
      ...[...computed.hours].map(([h]) => ({ PutRequest: { Item: { ...keys.hour(tenantId, h), entity: AGGREGATE_ENTITIES.hour, hour: h, ...storedCounters(computed.counterHours.get(h) ?? {}), ...openItemAttrs(computed.openHours.get(h) ?? {}, h.slice(0, 10)) } } })),
    ];
    await batchWriteAll(table, requests);
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
      // The list markers move on too: a list's ETag from before the rebuild never matches again.
      ...Object.fromEntries(Object.values(LIST_MARKERS).map((n) => [n, (stored.lists[n] ?? 0) + 1])),
    });
    // The counter now lives in the stats item (AGGREGATES_VERSION 3).
    if (legacy.Item) await table.doc.send('DeleteItem', { TableName: table.tableName, Key: legacyCounterKey(tenantId) });
  }
  return { drift, computed };
}
