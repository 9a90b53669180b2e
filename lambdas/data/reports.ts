/**
 * Raw data of a tenant's report for a period, read with Queries only (keys in `keys.ts`, entities in `entities.ts`):
 *  - incidents created in [from, to]: Query GSI1 `TENANT#t#INCIDENTS` BETWEEN from AND to;
 *  - MTTA: the incident's `firstAcknowledgedAt` (first staff acknowledgement, docs/sla.md#mtta); for items
 *    written before that attribute existed, their first status changes away from `new`: ONE Query GSI1 `TENANT#t#FIRSTRESPONSES` over the
 *    same createdAt range (history entries leaving `new` are indexed there, `HistoryEntity`); only an
 *    incident that left `new` without an indexed entry (older data) has its `HISTORY#` items queried
 *    (at most `HISTORY_CONCURRENCY` in flight);
 *  - devices: Query GSI1 `TENANT#t#DEVICES`; their days in the period: Query `AVAIL#from..AVAIL#to`;
 *  - device alarms raised in the period: Query GSI1 `TENANT#t#ALARMS` BETWEEN from AND to.
 * Figures are computed by `buildReport` (`lambdas/domain/reports.ts`).
 */
import type { AnalyticsPageData, ReportAggregates, ReportData, ReportReadsAtNow, ReportsPort } from '../domain/ports.js';
import type { Incident } from '../contract/schemas.js';
import { SEVERITIES } from '../contract/schemas.js';
import { agg, alarmDay, alarmTitleOf, delta, hourOf, isUnresolved, nonZero, sumInto, type Counters } from '../domain/aggregates.js';
import { addDays, availabilityDays } from '../domain/devices.js';
import { LOWEST_DEVICES } from '../domain/summary.js';
import type { TableRef } from './table/client.js';
import { countersOf, readAggregateHead, readListMarker, readTenantDays, readTenantDaysWithOpen, readTenantHours } from './aggregates.js';
import { dayOf, devicesBelowSla, storedDeviceOf } from './devices.js';
import { devicesInOutage, devicesInOutageOf } from './outages.js';
import { BATCH_GET_MAX_KEYS, batchGetAll, mapLimit, queryAll } from './table/dynamo-util.js';
import { AlarmEntity, HistoryEntity, IncidentEntity, TenantEntity, isFirstResponse, recordOf } from './entities.js';
import { keys, TENANTS_PK } from './table/keys.js';
import { decodeCursor, encodeCursor } from './table/cursor.js';
import { indexOf } from './access-patterns.js';

const HISTORY_CONCURRENCY = 8;


/**
 * Everything `buildReport` needs for tenant `tenantId` and the period `[from, to]` (ISO-8601 UTC), read from
 * the items: the reference the aggregate-based report (`loadReportAggregates`) is tested against, O(items
 * of the period + devices).
 */
export async function loadReportData(tenantId: string, from: string, to: string, table: TableRef): Promise<ReportData> {
  const between = (pk: string) => ({
    IndexName: indexOf('tenantLists'),
    KeyConditionExpression: 'GSI1PK = :p AND GSI1SK BETWEEN :lo AND :hi',
    ExpressionAttributeValues: { ':p': pk, ':lo': from, ':hi': `${to}#~` },
  });
  const [incItems, devItems, alarmItems, firstResponseItems] = await Promise.all([
    queryAll(table, between(keys.incidentsGsi1Pk(tenantId))),
    queryAll(table, { IndexName: indexOf('tenantLists'), KeyConditionExpression: 'GSI1PK = :p', ExpressionAttributeValues: { ':p': keys.devicesGsi1Pk(tenantId) } }),
    queryAll(table, between(keys.alarmsGsi1Pk(tenantId))),
    // First responses of the incidents created in the period (same GSI1SK range: the incident's createdAt).
    queryAll(table, { ...between(keys.firstResponsesGsi1Pk(tenantId)), ProjectionExpression: 'PK, version, #at', ExpressionAttributeNames: { '#at': 'at' } }),
  ]);
  const incidents = incItems.map((i) => recordOf(IncidentEntity, i));
  const indexed = new Map<string, { version: number; at: string }>();
  for (const f of firstResponseItems) {
    const cur = indexed.get(String(f.PK));
    if (!cur || Number(f.version) < cur.version) indexed.set(String(f.PK), { version: Number(f.version), at: String(f.at) });
  }
  // An incident still `new` has no first response; one that left `new` without an indexed entry (history
  // written before the FIRSTRESPONSES index existed) is read from its partition as before.
  const firstResponse = await mapLimit(incidents, HISTORY_CONCURRENCY, async (inc, n): Promise<string | null> => {
    // The first staff acknowledgement (docs/sla.md#mtta); only an item not yet upgraded (no attribute) falls
    // back to its first status change away from `new`.
    if (incItems[n]!.firstAcknowledgedAt !== undefined) return inc.firstAcknowledgedAt;
    const hit = indexed.get(keys.incidentPk(tenantId, inc.id));
    if (hit) return hit.at;
    if (inc.status === 'new') return null;
    const hist = await queryAll(table, {
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :h)',
      ExpressionAttributeValues: { ':pk': keys.incidentPk(tenantId, inc.id), ':h': 'HISTORY#' },
    });
    const first = hist
      .map((h) => recordOf(HistoryEntity, h))
      .sort((a, b) => a.version - b.version)
      .find(isFirstResponse);
    return first?.at ?? null;
  });
  const fromDate = from.slice(0, 10);
  const toDate = to.slice(0, 10);
  const devices = await mapLimit(devItems.map((d) => storedDeviceOf(d)), HISTORY_CONCURRENCY, async (d) => {
    const days = await queryAll(table, {
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :a AND :b',
      ExpressionAttributeValues: { ':pk': keys.devicePk(tenantId, d.id), ':a': `AVAIL#${fromDate}`, ':b': `AVAIL#${toDate}` },
    });
    return { device: d, days: days.map(dayOf) };
  });
  return {
    tenantId,
    incidents: incidents.map((inc, i) => ({ incident: inc, firstResponseAt: firstResponse[i] ?? null })),
    devices,
    alarms: alarmItems.map((a) => recordOf(AlarmEntity, a)),
  };
}

const DAY_START = 'T00:00:00.000Z';
const DAY_END = 'T23:59:59.999Z';
const HOUR_START = ':00:00.000Z';
const HOUR_END = ':59:59.999Z';

/** The UTC hour `yyyy-mm-ddTHH` `n` hours after `hour`. */
const addHours = (hour: string, n: number): string => new Date(Date.parse(`${hour}${HOUR_START}`) + n * 3_600_000).toISOString().slice(0, 13);

/** An instant range `[lo, hi]` (ISO-8601 UTC, inclusive). */
interface Range {
  lo: string;
  hi: string;
}

/**
 * How a range inside one UTC day is read: the UTC hours wholly inside it (`whole`, null when none) from the
 * hour items, the rest (`partial`: at most the range's first and last hour) from the items; `hours` is the
 * span of hour items to read (the whole hours and the partial hours' own, which say whether a partial hour
 * has any incident to read).
 */
function splitByHours(r: Range): { whole: { first: string; last: string } | null; partial: Range[]; hours: { first: string; last: string } } {
  const fh = hourOf(r.lo);
  const lh = hourOf(r.hi);
  const first = r.lo === `${fh}${HOUR_START}` ? fh : addHours(fh, 1);
  const last = r.hi >= `${lh}${HOUR_END}` ? lh : addHours(lh, -1);
  if (first > last) return { whole: null, partial: [r], hours: { first: fh, last: lh } };
  const partial: Range[] = [];
  if (first !== fh) partial.push({ lo: r.lo, hi: `${fh}${HOUR_END}` });
  if (last !== lh) partial.push({ lo: `${lh}${HOUR_START}`, hi: r.hi });
  return { whole: { first, last }, partial, hours: { first: fh, last: lh } };
}

/** Number of device alarms raised in day counters `c`. */
const raisedIn = (c: Counters | undefined): number => SEVERITIES.reduce((n, s) => n + (c?.[agg.alarmsRaised(s)] ?? 0), 0);

/** Whether `name` is one of a day item's device-alarm counters (`alarmDay`: raised by severity, by title). */
const isAlarmCounter = (name: string): boolean => SEVERITIES.some((s) => agg.alarmsRaised(s) === name) || alarmTitleOf(name) !== null;

/** The ISO-8601 instant `ms` milliseconds after `iso`. */
const plusMs = (iso: string, ms: number): string => new Date(Date.parse(iso) + ms).toISOString();

/**
 * How the alarms of a partial day's range `r` are read: the range itself (`near`), or — when the rest of its
 * UTC day up to `now` is the shorter span — the day item's alarm counters minus the alarms of the rest of the
 * day (`rest`: before `r.lo` when the range starts after midnight, or after `r.hi` when it ends before the
 * end of the day; never both). Alarms are counted by `raisedAt`, and none is raised after `now` in practice,
 * so for the last day of a period that ends now the rest is an empty Query whatever the tenant's size.
 */
function alarmSide(r: Range, now: string): { near: Range } | { rest: Range } {
  const day = r.lo.slice(0, 10);
  const dayStart = `${day}${DAY_START}`;
  const dayEnd = `${day}${DAY_END}`;
  const past = (iso: string) => Math.min(Date.parse(iso), Date.parse(now));
  const nearMs = Math.max(0, past(r.hi) - past(r.lo));
  const before = r.lo > dayStart;
  const after = r.hi < dayEnd;
  // A range over two days (a period shorter than a day across midnight), or inside a day at both ends: itself.
  if (r.hi.slice(0, 10) !== day || (before && after)) return { near: r };
  const restMs = before ? Math.max(0, past(r.lo) - Date.parse(dayStart)) : Math.max(0, past(dayEnd) - past(r.hi));
  if (nearMs <= restMs) return { near: r };
  return { rest: before ? { lo: dayStart, hi: plusMs(r.lo, -1) } : { lo: plusMs(r.hi, 1), hi: dayEnd } };
}

/**
 * The SOC queue's unresolved incidents whose SLA is due in the UTC hour of `horizon`, before it: ONE Query.
 * Of every tenant (`tenantId` undefined, analytics): GSI2 `SOCQUEUE`. Of one tenant: its own queue, GSI4
 * `TENANT#<t>#SOCQUEUE`, whose sort key is the same `GSI2SK` (`<slaDueAt>#<t>#<id>`, docs/sla.md#soc-queue) —
 * the same incidents the SOC queue filtered to the tenant gives, without reading the other tenants' and within
 * the tenant's partitions, the only ones the monthly report e-mail job's role may read
 * (`dynamodb:LeadingKeys` `TENANT#*`, infra/monthly-report-mail.ts; on an index Query IAM's leading key is the
 * index's partition key value, scripts/aws-rules/aws-calls.ts `leadingKeysOf`).
 */
async function boundaryHourIncidents(table: TableRef, horizon: string, tenantId?: string): Promise<Incident[]> {
  const range = { ':lo': hourOf(horizon), ':hi': horizon };
  const items = tenantId
    ? await queryAll(table, {
      IndexName: indexOf('socQueueOfTenant'),
      KeyConditionExpression: 'GSI4PK = :q AND GSI2SK BETWEEN :lo AND :hi',
      ExpressionAttributeValues: { ':q': keys.socQueueTenantGsi4Pk(tenantId), ...range },
    })
    : await queryAll(table, {
      IndexName: indexOf('socQueue'),
      KeyConditionExpression: 'GSI2PK = :q AND GSI2SK BETWEEN :lo AND :hi',
      ExpressionAttributeValues: { ':q': keys.SOCQUEUE_GSI2PK, ...range },
    });
  return items.map((i) => recordOf(IncidentEntity, i));
}

/**
 * The report inputs of tenant `tenantId` for `[from, to]` (ISO-8601 UTC) at `now`, from its write-time
 * aggregates (docs/data-model.md#aggregates). First, in parallel:
 *  - ONE Query of the tenant's day items over the period's UTC days (partial first/last days included: their
 *    `raised` counters say whether their alarms need reading) and its availability window (`availabilityDays`);
 *  - for each partial first/last UTC day, ONE Query of its hour items (the UTC hours the range touches);
 *  - ONE Query of the tenant's SOC queue (GSI4 `TENANT#<t>#SOCQUEUE`, SLA due time BETWEEN the start of the
 *    hour of `horizon` = min(to, now) and `horizon`; or `boundary()`, when a caller reads the SOC queue of
 *    every tenant once for several): the breached incidents of that hour;
 *  - ONE Query of the below-SLA device index;
 *  - the devices in an outage now (`devicesInOutage`: ONE GetItem of the heartbeat histogram when none).
 * Then the incidents of the partial first/last UTC hour (Query GSI1 `TENANT#t#INCIDENTS` BETWEEN, one per
 * end of the period that is not on an hour boundary, whether or not the hour counters show any: the request
 * count does not depend on how busy the tenant is) and, for a partial first/last UTC day whose day item
 * counts any alarm, the alarms of the shorter side of that day (`alarmSide`: the period's part of the day,
 * or the rest of the day up to now, subtracted from the day's alarm counters; Query GSI1 `TENANT#t#ALARMS`
 * BETWEEN, one per end). For a period that ends now the last day's rest is after now: an empty Query.
 * At most 10 requests whatever the period's length or the tenant's size (more only for devices in an outage); the items read grow only with one
 * hour's incidents and half a day's alarms at each end (none at the end of a period that ends now).
 * `atNow`: the below-SLA devices and the outages already read at the same `now` (another period's report of
 * the same tenant, e.g. the monthly report's trend): not read again.
 */
export async function loadReportAggregates(
  tenantId: string,
  from: string,
  to: string,
  now: Date,
  table: TableRef,
  boundary?: () => Promise<Incident[]>,
  atNow?: ReportReadsAtNow,
): Promise<ReportAggregates> {
  const fromDay = from.slice(0, 10);
  const toDay = to.slice(0, 10);
  const wholeFirst = from === `${fromDay}${DAY_START}` ? fromDay : addDays(fromDay, 1);
  const wholeLast = to >= `${toDay}${DAY_END}` ? toDay : addDays(toDay, -1);
  const hasWhole = wholeFirst <= wholeLast;
  // The partial days as instant ranges (none when the period starts/ends on a day boundary).
  const partial: Range[] = [];
  if (!hasWhole) partial.push({ lo: from, hi: to });
  else {
    if (wholeFirst !== fromDay) partial.push({ lo: from, hi: `${fromDay}${DAY_END}` });
    if (wholeLast !== toDay) partial.push({ lo: `${toDay}${DAY_START}`, hi: to });
  }
  const split = partial.map(splitByHours);
  const avail = availabilityDays(from, to);
  const lo = fromDay < avail.first ? fromDay : avail.first;
  const hi = toDay > avail.last ? toDay : avail.last;
  const between = (pk: string, r: Range) =>
    queryAll(table, { IndexName: indexOf('tenantLists'), KeyConditionExpression: 'GSI1PK = :p AND GSI1SK BETWEEN :lo AND :hi', ExpressionAttributeValues: { ':p': pk, ':lo': r.lo, ':hi': `${r.hi}#~` } });
  const horizon = new Date(Math.min(Date.parse(to), now.getTime())).toISOString();
  const aggregated = hasWhole || split.some((x) => x.whole);
  const [days, hours, socHour, belowSla, outages] = await Promise.all([
    readTenantDays(table, tenantId, lo, hi),
    Promise.all(split.map((x) => readTenantHours(table, tenantId, x.hours.first, x.hours.last))),
    aggregated ? (boundary ? boundary() : boundaryHourIncidents(table, horizon, tenantId)) : Promise.resolve([]),
    atNow ? atNow.belowSla : devicesBelowSla(tenantId, now, LOWEST_DEVICES, table),
    atNow ? atNow.outages : devicesInOutage(tenantId, now, table),
  ]);
  // The partial hours' incidents, read as items (always: one small Query per end, so the request count does
  // not depend on how busy the tenant is); the partial days' alarms, for a day that holds any, from the
  // shorter side of the day (`alarmSide`).
  const incidentRanges = split.flatMap((x) => x.partial);
  const alarmSides = partial
    .filter((r) => raisedIn(days.get(r.lo.slice(0, 10))) + (r.hi.slice(0, 10) !== r.lo.slice(0, 10) ? raisedIn(days.get(r.hi.slice(0, 10))) : 0) > 0).map((r) => ({ r, side: alarmSide(r, now.toISOString()) }));
  const [incidents, alarms] = await Promise.all([
    Promise.all(incidentRanges.map((r) => between(keys.incidentsGsi1Pk(tenantId), r))),
    Promise.all(alarmSides.map(({ side }) => between(keys.alarmsGsi1Pk(tenantId), 'near' in side ? side.near : side.rest))),
  ]);
  // A day read from its rest: the day's alarm counters minus the rest's alarms (the same `alarmDay` counters).
  const partialAlarmCounters: Counters[] = [];
  alarmSides.forEach(({ r, side }, n) => {
    if ('near' in side) return;
    const dayAlarms: Counters = {};
    for (const [k, v] of Object.entries(days.get(r.lo.slice(0, 10)) ?? {})) if (isAlarmCounter(k)) dayAlarms[k] = v;
    const rest: Counters = {};
    for (const a of alarms[n]!) sumInto(rest, alarmDay(recordOf(AlarmEntity, a)));
    partialAlarmCounters.push(nonZero(delta(rest, dayAlarms)));
  });
  const wholeHourRanges = split.flatMap((x) => (x.whole ? [{ lo: `${x.whole.first}${HOUR_START}`, hi: `${x.whole.last}${HOUR_END}` }] : []));
  const inAggregated = (iso: string) =>
    (hasWhole && iso >= `${wholeFirst}${DAY_START}` && iso <= `${wholeLast}${DAY_END}`) || wholeHourRanges.some((r) => iso >= r.lo && iso <= r.hi);
  const boundaryBreached = socHour.filter(
    (i) => i.tenantId === tenantId && isUnresolved(i) && inAggregated(i.createdAt) && i.slaDueAt < horizon && hourOf(i.slaDueAt) === hourOf(horizon),
  ).length;
  return {
    tenantId,
    wholeDays: hasWhole ? [...days].filter(([d]) => d >= wholeFirst && d <= wholeLast).map(([, c]) => c) : [],
    wholeHours: split.flatMap((x, n) => (x.whole ? [...hours[n]!].filter(([h]) => h >= x.whole!.first && h <= x.whole!.last).map(([, c]) => c) : [])),
    partialIncidents: incidents.flat().map((i) => recordOf(IncidentEntity, i)),
    partialAlarms: alarmSides.flatMap(({ side }, n) => ('near' in side ? alarms[n]!.map((a) => recordOf(AlarmEntity, a)) : [])),
    partialAlarmCounters,
    boundaryBreached,
    availabilityDays: [...days].filter(([d]) => d >= avail.first && d <= avail.last).map(([, c]) => c),
    belowSla,
    outages,
  };
}

/**
 * DynamoDB requests one `GET /analytics` page sends at most (issue 28 point 5), devices in an outage and
 * unprocessed keys aside — the caller's session revocation check (one GetItem, docs/api.md#session-revocation)
 * included, so the page's own reads get one less.
 */
export const ANALYTICS_PAGE_REQUESTS = 10;

/** Requests of an API call before its operation runs: the session revocation GetItem. */
const SESSION_CHECK_REQUESTS = 1;

/**
 * Tenants per analytics page: the largest n (at least 1) with 1 (the session check) + 1 (the registry Query)
 * + 1 (the SOC queue's boundary hour) + n (each tenant's below-SLA index Query) + n (each tenant's day items:
 * ONE Query of its `DAY#` range) + ⌈n / 100⌉ (BatchGetItem of the heartbeat histograms) ≤
 * `ANALYTICS_PAGE_REQUESTS`: 3 tenants, whatever the period. The day items are read by a Query per tenant,
 * not by BatchGetItem of every (tenant, day) key, because a Query is charged by the bytes it returns
 * (rounded up to 4 KB per Query) while BatchGetItem charges 0.5 RCU for every key asked, found or not: 5
 * tenants × 32 keys of a sparse 30-day period cost 80 RCU, the 3 Queries ~1.5 RCU
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/read-write-operations.html).
 */
export function analyticsPageSize(): number {
  const requests = (n: number) => SESSION_CHECK_REQUESTS + 2 + 2 * n + Math.ceil(n / BATCH_GET_MAX_KEYS);
  let n = 1;
  while (requests(n + 1) <= ANALYTICS_PAGE_REQUESTS) n++;
  return n;
}

/**
 * One page of the admin analytics for the whole UTC days `[from, to]` (`from` at 00:00:00.000, `to` at
 * 23:59:59.999, as `wholeUtcDays` makes them) at `now`: the registry's next tenants after `opts.cursor`
 * (`analyticsPageSize`, or fewer with `opts.limit`) and each one's `ReportAggregates`, read
 * for the whole page at once, not tenant by tenant:
 *  - ONE Query of the registry (`PK = TENANTS`, `Limit` = the page size);
 *  - then `loadWholeDaysAggregates` of the page's tenants: per tenant ONE Query of its day items
 *    (`TENANT#<t>#DAYS`, `DAY#<lo>` … `DAY#<hi>`: the period's days and its availability window), and the
 *    heartbeat histograms (`TENANT#<t>` / `STATS#HB`) of all of them by ONE BatchGetItem;
 *  - ONE Query of the SOC queue's boundary hour (GSI2 `SOCQUEUE`, every tenant's, shared by the page);
 *  - per tenant, ONE Query of its below-SLA index (`devicesBelowSla`);
 *  - per tenant whose histogram shows a device degraded or offline, its devices in an outage
 *    (`devicesInOutageOf`; nothing otherwise).
 * ≤ `ANALYTICS_PAGE_REQUESTS` requests for any number of tenants in the registry (docs/api.md#analytics).
 * @throws ApiError VALIDATION_FAILED (cursor)
 */
export async function loadAnalyticsPage(
  opts: { cursor?: string | undefined; limit?: number | undefined },
  from: string,
  to: string,
  now: Date,
  table: TableRef,
): Promise<AnalyticsPageData> {
  const size = Math.min(opts.limit ?? Number.POSITIVE_INFINITY, analyticsPageSize());
  const res = await table.doc.send('Query', {
    TableName: table.tableName,
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :p)',
    ExpressionAttributeValues: { ':pk': TENANTS_PK, ':p': 'TENANT#' },
    Limit: size,
    ...(opts.cursor ? { ExclusiveStartKey: decodeCursor(opts.cursor, TENANTS_PK, TENANTS_PK) } : {}),
  });
  const tenants = (res.Items ?? []).map((i) => recordOf(TenantEntity, i));
  const data = await loadWholeDaysAggregates(tenants.map((t) => t.id), from, to, now, table);
  return { tenants, data, nextCursor: encodeCursor(TENANTS_PK, res.LastEvaluatedKey) };
}

/**
 * The `ReportAggregates` of the tenants `tenantIds` for the whole UTC days `[from, to]` (`from` at
 * 00:00:00.000, `to` at 23:59:59.999) at `now`, read for all of them at once: ONE Query of each one's day
 * items (the period's days and its availability window: a Query costs the bytes it returns, so days without
 * an item cost nothing), their heartbeat histograms by BatchGetItem (100 keys a call), ONE Query of
 * the SOC queue's boundary hour for all of them, ONE below-SLA Query each, and each one's devices in an
 * outage when its histogram shows any (`devicesInOutageOf`). The same inputs `loadReportAggregates` reads
 * tenant by tenant for such a period (tested against it). Nothing read for no tenant.
 */
export async function loadWholeDaysAggregates(tenantIds: readonly string[], from: string, to: string, now: Date, table: TableRef): Promise<ReportAggregates[]> {
  if (tenantIds.length === 0) return [];
  const fromDay = from.slice(0, 10);
  const toDay = to.slice(0, 10);
  const avail = availabilityDays(from, to);
  const read = daysOfRead(from, to);
  const horizon = new Date(Math.min(Date.parse(to), now.getTime())).toISOString();
  const [dayMaps, items, socHour, belowSla] = await Promise.all([
    Promise.all(tenantIds.map((t) => readTenantDays(table, t, read.lo, read.hi))),
    batchGetAll(table, tenantIds.map((t) => keys.heartbeatStats(t))),
    boundaryHourIncidents(table, horizon),
    Promise.all(tenantIds.map((t) => devicesBelowSla(t, now, LOWEST_DEVICES, table))),
  ]);
  const byKey = new Map(items.map((i) => [`${String(i.PK)}|${String(i.SK)}`, i]));
  const itemAt = (k: { PK: string; SK: string }) => byKey.get(`${k.PK}|${k.SK}`);
  const inPeriod = (iso: string) => iso >= from && iso <= to;
  return Promise.all(
    tenantIds.map(async (t, n): Promise<ReportAggregates> => {
      const days = dayMaps[n]!;
      return {
        tenantId: t,
        wholeDays: [...days].filter(([d]) => d >= fromDay && d <= toDay).map(([, c]) => c),
        wholeHours: [],
        partialIncidents: [],
        partialAlarms: [],
        boundaryBreached: socHour.filter(
          (i) => i.tenantId === t && isUnresolved(i) && inPeriod(i.createdAt) && i.slaDueAt < horizon && hourOf(i.slaDueAt) === hourOf(horizon),
        ).length,
        availabilityDays: [...days].filter(([d]) => d >= avail.first && d <= avail.last).map(([, c]) => c),
        belowSla: belowSla[n]!,
        outages: await devicesInOutageOf(t, countersOf(itemAt(keys.heartbeatStats(t))), now, table),
      };
    }),
  );
}

/** Whether `[from, to]` (ISO-8601 UTC) is whole UTC days: `from` at 00:00:00.000, `to` at 23:59:59.999 of a day not before it (a calendar month, `monthPeriod`). */
const isWholeDays = (p: { from: string; to: string }): boolean => p.from === `${p.from.slice(0, 10)}${DAY_START}` && p.to === `${p.to.slice(0, 10)}${DAY_END}` && p.from <= p.to;

/**
 * The report inputs of tenant `tenantId` for each of `periods` (ISO-8601 UTC `[from, to]`, in any order; the
 * monthly report's six months, `monthPeriod`) at `now`: for each, exactly what `loadReportAggregates` gives
 * for it alone (tested against it), read for all of them at once:
 *  - ONE Query of the tenant's day items from the earliest period's first day to the latest one's last (each
 *    period's own days and its availability window, `daysOfRead`; ~0.2 KB a day, so six months are one page),
 *    which also name each unresolved incident with its SLA due hour (`readTenantDaysWithOpen`);
 *  - ONE Query of the below-SLA device index and the devices in an outage now (`devicesInOutage`: ONE GetItem
 *    of the heartbeat histogram; with devices down, the outage markers and the maintenance windows over them),
 *    which do not depend on the period;
 *  - the boundary hour of each period (`boundaryBreached`: the UTC hour of its horizon min(to, now), whose
 *    incidents breached by the horizon the day counters cannot tell): not the SOC queue (one Query per
 *    period) but the unresolved incidents the period's day items name as due in that hour, fetched by
 *    BatchGetItem (100 keys a call) for all the periods together — nothing when none is, which is the usual
 *    case of a past month (its last hour) — and counted as `loadReportAggregates` counts the SOC queue's. A
 *    day item of the layout before `AGGREGATES_VERSION` 4 names no incident: a period whose boundary hour's
 *    counters it holds reads the SOC queue's hour as `loadReportAggregates` does (ONE Query).
 * A period that is not whole UTC days is read by `loadReportAggregates` with the reads as of now above (its
 * partial first/last hours and days, ≤ 6 more requests). So whole-days periods cost 3 requests, 5 with
 * devices down (plus one Query per device whose roll-up cannot give its figure), plus a BatchGetItem when
 * incidents are due in their boundary hours (one per 100), whatever their number and length and the tenant's
 * size (docs/api.md#monthly-report). Nothing is read for no period.
 */
export async function loadPeriodsAggregates(tenantId: string, periods: readonly { from: string; to: string }[], now: Date, table: TableRef): Promise<ReportAggregates[]> {
  if (periods.length === 0) return [];
  const spans = periods.filter(isWholeDays).map((p) => daysOfRead(p.from, p.to));
  const [read, belowSla, outages] = await Promise.all([
    spans.length > 0
      ? readTenantDaysWithOpen(table, tenantId, spans.map((x) => x.lo).reduce((a, b) => (b < a ? b : a)), spans.map((x) => x.hi).reduce((a, b) => (b > a ? b : a)))
      : Promise.resolve({ days: new Map<string, Counters>(), open: [] }),
    devicesBelowSla(tenantId, now, LOWEST_DEVICES, table),
    devicesInOutage(tenantId, now, table),
  ]);
  const atNow: ReportReadsAtNow = { belowSla, outages };
  // Each whole-days period's boundary hour: the incidents its day items name as due in it, or (an item of the
  // older layout counts some without naming them) the SOC queue's hour.
  const boundaries = periods.map((p) => {
    if (!isWholeDays(p)) return null;
    const fromDay = p.from.slice(0, 10);
    const toDay = p.to.slice(0, 10);
    const horizon = new Date(Math.min(Date.parse(p.to), now.getTime())).toISOString();
    const hour = hourOf(horizon);
    const ids = [...new Set(read.open.filter((o) => o.hour === hour && o.date >= fromDay && o.date <= toDay).map((o) => o.id))];
    let due = 0;
    for (const [d, c] of read.days) if (d >= fromDay && d <= toDay) due += c[agg.openDue(hour)] ?? 0;
    return { horizon, ids, unnamed: due > ids.length };
  });
  const named = [...new Set(boundaries.flatMap((b) => (b && !b.unnamed ? b.ids : [])))];
  const [items, socHours] = await Promise.all([
    batchGetAll(table, named.map((id) => keys.incident(tenantId, id))),
    Promise.all(boundaries.map((b) => (b?.unnamed ? boundaryHourIncidents(table, b.horizon, tenantId) : Promise.resolve(null)))),
  ]);
  const incidents = new Map(items.map((i) => recordOf(IncidentEntity, i)).map((i) => [i.id, i]));
  return Promise.all(
    periods.map(async (p, n): Promise<ReportAggregates> => {
      const b = boundaries[n];
      if (!b) return loadReportAggregates(tenantId, p.from, p.to, now, table, undefined, atNow);
      const fromDay = p.from.slice(0, 10);
      const toDay = p.to.slice(0, 10);
      const avail = availabilityDays(p.from, p.to);
      const boundary = socHours[n] ?? b.ids.flatMap((id) => incidents.get(id) ?? []);
      return {
        tenantId,
        wholeDays: [...read.days].filter(([d]) => d >= fromDay && d <= toDay).map(([, c]) => c),
        wholeHours: [],
        partialIncidents: [],
        partialAlarms: [],
        partialAlarmCounters: [],
        // The SOC queue's filter in `loadReportAggregates`, on the same incidents.
        boundaryBreached: boundary.filter(
          (i) => i.tenantId === tenantId && isUnresolved(i) && i.createdAt >= p.from && i.createdAt <= p.to && i.slaDueAt < b.horizon && hourOf(i.slaDueAt) === hourOf(b.horizon),
        ).length,
        availabilityDays: [...read.days].filter(([d]) => d >= avail.first && d <= avail.last).map(([, c]) => c),
        belowSla,
        outages,
      };
    }),
  );
}

/** The first and last UTC day (`yyyy-mm-dd`) whose day items a whole-days period `[from, to]` reads: its own days and its availability window (`availabilityDays`). */
function daysOfRead(from: string, to: string): { lo: string; hi: string } {
  const avail = availabilityDays(from, to);
  return {
    lo: from.slice(0, 10) < avail.first ? from.slice(0, 10) : avail.first,
    hi: to.slice(0, 10) > avail.last ? to.slice(0, 10) : avail.last,
  };
}

/** The report storage as a `ReportsPort`. */
export function reportsRepository(table: TableRef): ReportsPort {
  return {
    load: (t, from, to) => loadReportData(t, from, to, table),
    loadAggregates: (t, from, to, now, atNow) => loadReportAggregates(t, from, to, now, table, undefined, atNow),
    loadPeriodsAggregates: (t, periods, now) => loadPeriodsAggregates(t, periods, now, table),
    loadAnalyticsPage: (opts, from, to, now) => loadAnalyticsPage(opts, from, to, now, table),
    aggregateHead: (t) => readAggregateHead(table, t),
    aggregateDays: (t, from, to) => readTenantDays(table, t, from, to),
    listMarker: (t, list) => readListMarker(table, t, list),
    devicesBelowSla: (t, now, limit) => devicesBelowSla(t, now, limit, table),
    devicesInOutage: async (t, now, hist) => (await devicesInOutage(t, now, table, hist)).devices,
  };
}
