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
import type { ReportAggregates, ReportData, ReportsPort } from '../domain/ports.js';
import { hourOf, isUnresolved } from '../domain/aggregates.js';
import { addDays, availabilityDays } from '../domain/devices.js';
import { LOWEST_DEVICES } from '../domain/summary.js';
import type { TableRef } from './client.js';
import { readTenantAggregates, readTenantDays } from './aggregates.js';
import { dayOf, devicesBelowSla, storedDeviceOf } from './devices.js';
import { queryAll } from './dynamo-util.js';
import { AlarmEntity, HistoryEntity, IncidentEntity, isFirstResponse, recordOf } from './entities.js';
import { keys } from './keys.js';

const HISTORY_CONCURRENCY = 8;

/** Runs `fn` over `items` with at most `n` in flight, keeping order. */
async function mapLimit<T, R>(items: readonly T[], n: number, fn: (x: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!, i);
      }
    }),
  );
  return out;
}

/**
 * Everything `buildReport` needs for tenant `tenantId` and the period `[from, to]` (ISO-8601 UTC), read from
 * the items: the reference the aggregate-based report (`loadReportAggregates`) is tested against, O(items
 * of the period + devices).
 */
export async function loadReportData(tenantId: string, from: string, to: string, table: TableRef): Promise<ReportData> {
  const between = (pk: string) => ({
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :p AND GSI1SK BETWEEN :lo AND :hi',
    ExpressionAttributeValues: { ':p': pk, ':lo': from, ':hi': `${to}#~` },
  });
  const [incItems, devItems, alarmItems, firstResponseItems] = await Promise.all([
    queryAll(table, between(keys.incidentsGsi1Pk(tenantId))),
    queryAll(table, { IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :p', ExpressionAttributeValues: { ':p': keys.devicesGsi1Pk(tenantId) } }),
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

/**
 * The report inputs of tenant `tenantId` for `[from, to]` (ISO-8601 UTC) at `now`, from its write-time
 * aggregates (docs/data-model.md#aggregates), in parallel:
 *  - ONE Query of the tenant's day items covering the UTC days wholly inside the period and the period's
 *    availability window (`availabilityDays`);
 *  - the partial first and last UTC days read as items: incidents (Query GSI1 `TENANT#t#INCIDENTS` BETWEEN)
 *    and alarms (Query GSI1 `TENANT#t#ALARMS` BETWEEN), one Query each per partial day;
 *  - ONE Query of the SOC queue (GSI2 `SOCQUEUE`, SLA due time BETWEEN the start of the hour of
 *    `horizon` = min(to, now) and `horizon`, filtered to the tenant): the breached incidents of that hour;
 *  - ONE Query of the below-SLA device index.
 * At most 8 requests whatever the period's length or the tenant's size; the items read grow only with one
 * day's incidents and alarms.
 */
export async function loadReportAggregates(tenantId: string, from: string, to: string, now: Date, table: TableRef): Promise<ReportAggregates> {
  const fromDay = from.slice(0, 10);
  const toDay = to.slice(0, 10);
  const wholeFirst = from === `${fromDay}${DAY_START}` ? fromDay : addDays(fromDay, 1);
  const wholeLast = to >= `${toDay}${DAY_END}` ? toDay : addDays(toDay, -1);
  const hasWhole = wholeFirst <= wholeLast;
  // The partial days as instant ranges (none when the period starts/ends on a day boundary).
  const partial: { lo: string; hi: string }[] = [];
  if (!hasWhole) partial.push({ lo: from, hi: to });
  else {
    if (wholeFirst !== fromDay) partial.push({ lo: from, hi: `${fromDay}${DAY_END}` });
    if (wholeLast !== toDay) partial.push({ lo: `${toDay}${DAY_START}`, hi: to });
  }
  const avail = availabilityDays(from, to);
  const lo = hasWhole && wholeFirst < avail.first ? wholeFirst : avail.first;
  const hi = hasWhole && wholeLast > avail.last ? wholeLast : avail.last;
  const between = (pk: string, r: { lo: string; hi: string }) =>
    queryAll(table, { IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :p AND GSI1SK BETWEEN :lo AND :hi', ExpressionAttributeValues: { ':p': pk, ':lo': r.lo, ':hi': `${r.hi}#~` } });
  const horizon = new Date(Math.min(Date.parse(to), now.getTime())).toISOString();
  const [days, incidents, alarms, boundary, belowSla] = await Promise.all([
    readTenantDays(table, tenantId, lo, hi),
    Promise.all(partial.map((r) => between(keys.incidentsGsi1Pk(tenantId), r))),
    Promise.all(partial.map((r) => between(keys.alarmsGsi1Pk(tenantId), r))),
    hasWhole
      ? queryAll(table, {
          IndexName: 'GSI2',
          KeyConditionExpression: 'GSI2PK = :q AND GSI2SK BETWEEN :lo AND :hi',
          FilterExpression: 'tenantId = :t',
          ExpressionAttributeValues: { ':q': keys.SOCQUEUE_GSI2PK, ':lo': horizon.slice(0, 13), ':hi': horizon, ':t': tenantId },
        })
      : Promise.resolve([]),
    devicesBelowSla(tenantId, now, LOWEST_DEVICES, table),
  ]);
  const inWhole = (iso: string) => iso >= `${wholeFirst}${DAY_START}` && iso <= `${wholeLast}${DAY_END}`;
  const boundaryBreached = boundary
    .map((i) => recordOf(IncidentEntity, i))
    .filter((i) => isUnresolved(i) && inWhole(i.createdAt) && i.slaDueAt < horizon && hourOf(i.slaDueAt) === hourOf(horizon)).length;
  return {
    tenantId,
    wholeDays: hasWhole ? [...days].filter(([d]) => d >= wholeFirst && d <= wholeLast).map(([, c]) => c) : [],
    partialIncidents: incidents.flat().map((i) => recordOf(IncidentEntity, i)),
    partialAlarms: alarms.flat().map((a) => recordOf(AlarmEntity, a)),
    boundaryBreached,
    availabilityDays: [...days].filter(([d]) => d >= avail.first && d <= avail.last).map(([, c]) => c),
    belowSla,
  };
}

/** The report storage as a `ReportsPort`. */
export function reportsRepository(table: TableRef): ReportsPort {
  return {
    load: (t, from, to) => loadReportData(t, from, to, table),
    loadAggregates: (t, from, to, now) => loadReportAggregates(t, from, to, now, table),
    aggregates: (t, from, to) => readTenantAggregates(table, t, from, to), aggregateDays: (t, from, to) => readTenantDays(table, t, from, to),
    devicesBelowSla: (t, now, limit) => devicesBelowSla(t, now, limit, table),
  };
}
