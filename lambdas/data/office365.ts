/**
 * Office 365 alarms and audit events over the single table (keys in `keys.ts`). Both are written only by
 * the collectors (ingest routes) and listed newest first by time range with filters (`paging.ts`).
 * Events expire by TTL `retention.o365EventDays` days after their time (Lambda configuration, default 90).
 */
import type { Office365Alarm, Office365Event, Page } from '../contract/schemas.js';
import { type TableRef } from './client.js';
import { isConditionFailure, stripKeys } from './dynamo-util.js';
import { ENTITY, keys } from './keys.js';
import { newestFirstInRange, type TimeRangePageOptions } from './paging.js';
import { DEFAULT_RETENTION, type Retention } from './retention.js';

const DAY_S = 86_400;


/** Builds an `IN` / `=` FilterExpression from optional filters (attribute → accepted values). */
function filterOf(spec: Record<string, readonly string[] | string | undefined>) {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const parts: string[] = [];
  let n = 0;
  for (const [attr, v] of Object.entries(spec)) {
    if (v === undefined || (Array.isArray(v) && v.length === 0)) continue;
    const tag = `#a${n}`;
    names[tag] = attr;
    const list = Array.isArray(v) ? v : [v as string];
    const ph = list.map((x, i) => {
      values[`:v${n}_${i}`] = x;
      return `:v${n}_${i}`;
    });
    parts.push(`${tag} IN (${ph.join(', ')})`);
    n++;
  }
  return parts.length ? { expression: parts.join(' AND '), names, values } : undefined;
}

/**
 * Creates or updates an alarm: written when absent or when `updatedAt` is newer than the stored one;
 * returns false for a replay or an older update.
 */
export async function upsertO365Alarm(a: Office365Alarm, table: TableRef): Promise<boolean> {
  try {
    await table.doc.send('PutItem', {
      TableName: table.tableName,
      Item: { ...keys.o365Alarm(a.tenantId, a.id), ...keys.o365AlarmGsi1(a.tenantId, a.id, a.detectedAt), entity: ENTITY.o365Alarm, ...a },
      ConditionExpression: 'attribute_not_exists(PK) OR updatedAt < :u',
      ExpressionAttributeValues: { ':u': a.updatedAt },
    });
    return true;
  } catch (e) {
    if (isConditionFailure(e)) return false;
    throw e;
  }
}

/** Stores an audit event once (false on a replay of its id); TTL = `at` + retention. */
export async function putO365Event(ev: Office365Event, table: TableRef, retention: Retention = DEFAULT_RETENTION): Promise<boolean> {
  const expiresAt = Math.floor(Date.parse(ev.at) / 1000) + retention.o365EventDays * DAY_S;
  try {
    await table.doc.send('PutItem', {
      TableName: table.tableName,
      Item: { ...keys.o365Event(ev.tenantId, ev.id), ...keys.o365EventGsi1(ev.tenantId, ev.id, ev.at), entity: ENTITY.o365Event, ...ev, expiresAt },
      ConditionExpression: 'attribute_not_exists(PK)',
    });
    return true;
  } catch (e) {
    if (isConditionFailure(e)) return false;
    throw e;
  }
}

/** Paging and time range of the Office 365 lists. */
export type O365ListOptions = TimeRangePageOptions;

/** Alarms newest detected first (Query GSI1 `TENANT#t#O365ALARMS`). @throws ApiError VALIDATION_FAILED (cursor) */
export async function listO365Alarms(
  tenantId: string,
  opts: O365ListOptions & { severity?: readonly string[] | undefined; status?: readonly string[] | undefined; user?: string | undefined },
  table: TableRef,
): Promise<Page<Office365Alarm>> {
  const page = await newestFirstInRange(
    table,
    { scope: keys.o365AlarmsGsi1Pk(tenantId), tenantPrefix: keys.tenantPrefix(tenantId) },
    opts,
    filterOf({ severity: opts.severity, status: opts.status, affectedUser: opts.user }),
  );
  return { items: page.items.map((i) => stripKeys<Office365Alarm>(i)), nextCursor: page.nextCursor };
}

/** Events newest first (Query GSI1 `TENANT#t#O365EVENTS`). @throws ApiError VALIDATION_FAILED (cursor) */
export async function listO365Events(
  tenantId: string,
  opts: O365ListOptions & { workload?: string | undefined; operation?: string | undefined; user?: string | undefined; result?: string | undefined },
  table: TableRef,
): Promise<Page<Office365Event>> {
  const page = await newestFirstInRange(
    table,
    { scope: keys.o365EventsGsi1Pk(tenantId), tenantPrefix: keys.tenantPrefix(tenantId) },
    opts,
    filterOf({ workload: opts.workload, operation: opts.operation, user: opts.user, result: opts.result }),
  );
  return { items: page.items.map((i) => stripKeys<Office365Event>(i)), nextCursor: page.nextCursor };
}

/** Storage port of the Office 365 routes. */
export interface Office365Port {
  upsertAlarm(a: Office365Alarm): Promise<boolean>;
  putEvent(e: Office365Event): Promise<boolean>;
  listAlarms: (tenantId: string, opts: Parameters<typeof listO365Alarms>[1]) => Promise<Page<Office365Alarm>>;
  listEvents: (tenantId: string, opts: Parameters<typeof listO365Events>[1]) => Promise<Page<Office365Event>>;
}

export function office365Repository(table: TableRef, retention: Retention = DEFAULT_RETENTION): Office365Port {
  return {
    upsertAlarm: (a) => upsertO365Alarm(a, table),
    putEvent: (e) => putO365Event(e, table, retention),
    listAlarms: (t, o) => listO365Alarms(t, o, table),
    listEvents: (t, o) => listO365Events(t, o, table),
  };
}
