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
import type { ReportData, ReportsPort } from '../domain/ports.js';
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

/** Everything `buildReport` needs for tenant `tenantId` and the period `[from, to]` (ISO-8601 UTC). */
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

/** The report storage as a `ReportsPort`. */
export function reportsRepository(table: TableRef): ReportsPort {
  return {
    load: (t, from, to) => loadReportData(t, from, to, table),
    aggregates: (t, from, to) => readTenantAggregates(table, t, from, to), aggregateDays: (t, from, to) => readTenantDays(table, t, from, to),
    devicesBelowSla: (t, now, limit) => devicesBelowSla(t, now, limit, table),
  };
}
