/**
 * Incident storage over the single table (keys in `keys.ts`): implements `IncidentsPort` and exports
 * `putIncident` for the seed.
 */
import type { Incident, IncidentChange, IncidentComment, IncidentDetail } from '../contract/schemas.js';
import { ApiError } from '../domain/errors.js';
import type { IncidentListOptions, IncidentsPort } from '../domain/incidents.js';
import { type TableRef } from './client.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { isConditionFailure, isConditionFailureInTransaction, isTransactionConflict, queryAll, stripKeys } from './dynamo-util.js';
import { ENTITY, keys } from './keys.js';

/** Attempts before giving up on allocating an id under contention (jittered backoff between them). */
const CREATE_ATTEMPTS = 12;

/** Lower-cased text the `q` filter searches (id, title, description, category). */
export function searchTextOf(i: Pick<Incident, 'id' | 'title' | 'description' | 'category'>): string {
  return `${i.id}\n${i.title}\n${i.description}\n${i.category}`.toLowerCase();
}

function incidentItem(i: Incident): Record<string, unknown> {
  return {
    ...keys.incident(i.tenantId, i.id),
    ...keys.incidentGsi1(i.tenantId, i.id, i.createdAt),
    entity: ENTITY.incident,
    ...i,
    searchText: searchTextOf(i),
  };
}

/** Stored incident item → API shape (drops keys and the search attribute). */
function toIncident(item: Record<string, unknown>): Incident {
  const i = stripKeys<Incident & { searchText?: string }>(item);
  delete i.searchText;
  return i;
}

/** Items read per Query round trip of a filtered list, and round trips per request (bounds latency/cost). */
const LIST_READ_BATCH = 200;
const LIST_MAX_ROUND_TRIPS = 8;
function commentItem(tenantId: string, incidentId: string, c: IncidentComment): Record<string, unknown> {
  return { ...keys.comment(tenantId, incidentId, c.createdAt, c.id), entity: ENTITY.comment, ...c };
}
/**
 * A history entry item. The entry that takes the incident out of `new` (its first response, for MTTA in
 * reports) also carries GSI1 keys `TENANT#t#FIRSTRESPONSES` / `<incident createdAt>#<id>#<version>`, so a
 * report reads every first response of a period with one Query instead of one per incident.
 */
function historyItem(tenantId: string, incidentId: string, incidentCreatedAt: string, h: IncidentChange): Record<string, unknown> {
  const firstResponse = h.changes.some((c) => c.field === 'status' && c.from === 'new');
  return {
    ...keys.history(tenantId, incidentId, h.version),
    ...(firstResponse ? keys.firstResponseGsi1(tenantId, incidentId, incidentCreatedAt, h.version) : {}),
    entity: ENTITY.history,
    ...h,
  };
}

/** Sequence number of an `INC-000123` id. */
function seqOf(id: string): number {
  return Number(id.slice(4));
}

/**
 * Raises the tenant's incident counter to at least `seq` (never lowers it). Used after seeding
 * incidents with fixed ids so later creates do not collide.
 */
export async function raiseIncidentCounter(tenantId: string, seq: number, table: TableRef): Promise<void> {
  try {
    await table.doc.send('UpdateItem', {
      TableName: table.tableName,
      Key: keys.incidentCounter(tenantId),
      UpdateExpression: 'SET seq = :s, #e = :t',
      ConditionExpression: 'attribute_not_exists(seq) OR seq < :s',
      ExpressionAttributeNames: { '#e': 'entity' },
      ExpressionAttributeValues: { ':s': seq, ':t': ENTITY.counter },
    });
  } catch (e) {
    if (!isConditionFailure(e)) throw e;
  }
}

/**
 * Seed path: writes an incident with a fixed id (replacing any previous copy), its comments and history
 * entries, and raises the counter. Idempotent for the same input.
 */
export async function putIncident(
  incident: Incident,
  extras: { comments?: IncidentComment[]; history?: IncidentChange[] } = {},
  table: TableRef,
): Promise<void> {
  const items = [
    incidentItem(incident),
    ...(extras.comments ?? []).map((c) => commentItem(incident.tenantId, incident.id, c)),
    ...(extras.history ?? []).map((h) => historyItem(incident.tenantId, incident.id, incident.createdAt, h)),
  ];
  for (const Item of items) await table.doc.send('PutItem', { TableName: table.tableName, Item });
  await raiseIncidentCounter(incident.tenantId, seqOf(incident.id), table);
}

/**
 * Allocates the next per-tenant number and writes counter + incident in one TransactWriteItems (the counter
 * write is conditioned on the value read, the incident on not existing); retries a lost race with jittered
 * backoff.
 * @throws Error after `CREATE_ATTEMPTS` lost races (sustained contention).
 */
export async function createIncident(tenantId: string, build: (seq: number) => Incident, table: TableRef): Promise<Incident> {
  for (let attempt = 0; attempt < CREATE_ATTEMPTS; attempt++) {
    const counterKey = keys.incidentCounter(tenantId);
    const cur = await table.doc.send('GetItem', { TableName: table.tableName, Key: counterKey, ConsistentRead: true });
    const prev = typeof cur.Item?.seq === 'number' ? cur.Item.seq : 0;
    const incident = build(prev + 1);
    try {
      await table.doc.send('TransactWriteItems', {
        TransactItems: [
          {
            Put: {
              TableName: table.tableName,
              Item: { ...counterKey, entity: ENTITY.counter, seq: prev + 1 },
              ConditionExpression: prev === 0 ? 'attribute_not_exists(seq)' : 'seq = :prev',
              ExpressionAttributeValues: prev === 0 ? undefined : { ':prev': prev },
            },
          },
          {
            Put: {
              TableName: table.tableName,
              Item: incidentItem(incident),
              ConditionExpression: 'attribute_not_exists(PK)',
            },
          },
        ],
      });
      return incident;
    } catch (e) {
      if (isConditionFailureInTransaction(e, 1)) {
        // The id is taken (e.g. seeded without raising the counter): move the counter past it and retry.
        await raiseIncidentCounter(tenantId, prev + 1, table);
        continue;
      }
      if (isConditionFailureInTransaction(e, 0) || isTransactionConflict(e)) {
        await new Promise((r) => setTimeout(r, Math.random() * 10 * (attempt + 1)));
        continue;
      }
      throw e;
    }
  }
  throw new Error(`could not allocate an incident id for tenant ${tenantId} after ${CREATE_ATTEMPTS} attempts`);
}

/** The incident item alone (GetItem), or null. */
export async function getIncident(tenantId: string, id: string, table: TableRef): Promise<Incident | null> {
  const res = await table.doc.send('GetItem', { TableName: table.tableName, Key: keys.incident(tenantId, id), ConsistentRead: true });
  return res.Item ? toIncident(res.Item) : null;
}

/** Incident + comments (oldest first) + history (ascending version): one Query on the incident partition. */
export async function getIncidentDetail(tenantId: string, id: string, table: TableRef): Promise<IncidentDetail | null> {
  const items = await queryAll(table, {
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.incidentPk(tenantId, id) },
    ConsistentRead: true,
  });
  let incident: Incident | undefined;
  const comments: IncidentComment[] = [];
  const history: IncidentChange[] = [];
  for (const it of items) {
    const sk = String(it.SK);
    if (sk === 'INCIDENT') incident = toIncident(it);
    else if (sk.startsWith('COMMENT#')) comments.push(stripKeys<IncidentComment>(it));
    else if (sk.startsWith('HISTORY#')) history.push(stripKeys<IncidentChange>(it));
  }
  return incident ? { ...incident, comments, history } : null;
}

/**
 * One page of the tenant's incidents (Query GSI1 `TENANT#t#INCIDENTS`, sort key `<createdAt>#<id>`):
 *  - `from`/`to` become a KeyCondition `BETWEEN` on the sort key; `status`, `severity` and `q` a
 *    FilterExpression (`q` against the lower-cased `searchText` attribute);
 *  - order: newest first (ScanIndexForward=false) or `sort: 'oldest'`;
 *  - the Query is repeated (at most `LIST_MAX_ROUND_TRIPS` reads of `LIST_READ_BATCH` items) until `limit`
 *    matches are found; when more matched than fit, the cursor is built from the keys of the last item
 *    returned, otherwise from LastEvaluatedKey. Either way the next page starts right after the last item
 *    the client saw, so no item is skipped or repeated.
 * @throws ApiError VALIDATION_FAILED for a cursor from another list/tenant or outside `from`/`to`.
 */
export async function listIncidents(
  tenantId: string,
  opts: IncidentListOptions,
  table: TableRef,
): Promise<{ items: Incident[]; nextCursor: string | null }> {
  const scope = keys.incidentsGsi1Pk(tenantId);
  const lower = opts.from ? opts.from : '';
  // `~` sorts after every character of `<iso>#INC-…`, so every id created at `to` is inside the range.
  const upper = opts.to ? `${opts.to}#~` : '~';
  let start: Record<string, unknown> | undefined = opts.cursor ? decodeCursor(opts.cursor, scope, keys.tenantPrefix(tenantId)) : undefined;
  if (start) {
    const sk = String(start.GSI1SK);
    if (sk < lower || sk > upper) throw new ApiError('VALIDATION_FAILED', 'invalid cursor', [{ path: 'query.cursor', message: 'cursor outside the from/to range' }]);
  }
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':p': scope, ':lo': lower, ':hi': upper };
  const filters: string[] = [];
  if (opts.status?.length) {
    names['#st'] = 'status';
    filters.push(`#st IN (${opts.status.map((v, i) => ((values[`:st${i}`] = v), `:st${i}`)).join(', ')})`);
  }
  if (opts.severity?.length) {
    names['#sv'] = 'severity';
    filters.push(`#sv IN (${opts.severity.map((v, i) => ((values[`:sv${i}`] = v), `:sv${i}`)).join(', ')})`);
  }
  if (opts.q) {
    values[':q'] = opts.q.toLowerCase();
    filters.push('contains(searchText, :q)');
  }
  const filtered = filters.length > 0;
  const out: Record<string, unknown>[] = [];
  let lastKey: Record<string, unknown> | undefined;
  for (let trip = 0; trip < LIST_MAX_ROUND_TRIPS; trip++) {
    const res = await table.doc.send('Query', {
      TableName: table.tableName,
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :p AND GSI1SK BETWEEN :lo AND :hi',
      ...(filtered ? { FilterExpression: filters.join(' AND ') } : {}),
      ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
      ExpressionAttributeValues: values,
      ScanIndexForward: opts.sort === 'oldest',
      Limit: filtered ? LIST_READ_BATCH : opts.limit - out.length,
      ExclusiveStartKey: start,
    });
    out.push(...(res.Items ?? []));
    lastKey = res.LastEvaluatedKey;
    if (out.length >= opts.limit || !lastKey) break;
    start = lastKey;
  }
  let nextCursor: string | null;
  if (out.length > opts.limit) {
    out.length = opts.limit;
    const last = out[out.length - 1]!;
    nextCursor = encodeCursor(scope, { PK: last.PK, SK: last.SK, GSI1PK: last.GSI1PK, GSI1SK: last.GSI1SK });
  } else if (out.length === opts.limit && lastKey) {
    // Resume after the last item returned (LastEvaluatedKey may be further on when a filter skipped items).
    const last = out[out.length - 1]!;
    nextCursor = encodeCursor(scope, { PK: last.PK, SK: last.SK, GSI1PK: last.GSI1PK, GSI1SK: last.GSI1SK });
  } else {
    nextCursor = encodeCursor(scope, lastKey);
  }
  return { items: out.map(toIncident), nextCursor };
}

/** See `IncidentsPort.saveUpdate`: incident (condition on version) + history + comment in one transaction. */
export async function saveIncidentUpdate(
  tenantId: string,
  next: Incident,
  expectedVersion: number,
  change: IncidentChange,
  comment: IncidentComment | null,
  table: TableRef,
): Promise<boolean> {
  try {
    await table.doc.send('TransactWriteItems', {
      TransactItems: [
        {
          Put: {
            TableName: table.tableName,
            Item: incidentItem(next),
            ConditionExpression: 'version = :v',
            ExpressionAttributeValues: { ':v': expectedVersion },
          },
        },
        { Put: { TableName: table.tableName, Item: historyItem(tenantId, next.id, next.createdAt, change), ConditionExpression: 'attribute_not_exists(SK)' } },
        ...(comment
          ? [{ Put: { TableName: table.tableName, Item: commentItem(tenantId, next.id, comment), ConditionExpression: 'attribute_not_exists(SK)' } }]
          : []),
      ],
    });
    return true;
  } catch (e) {
    // A concurrent transaction on the incident is also a lost race: the caller reloads (VERSION_CONFLICT).
    if (isConditionFailureInTransaction(e) || isTransactionConflict(e)) return false;
    throw e;
  }
}

/** Adds a comment in one transaction with a ConditionCheck that the incident exists; false if it does not. */
export async function addIncidentComment(tenantId: string, incidentId: string, comment: IncidentComment, table: TableRef): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    try {
      await table.doc.send('TransactWriteItems', {
        TransactItems: [
          { ConditionCheck: { TableName: table.tableName, Key: keys.incident(tenantId, incidentId), ConditionExpression: 'attribute_exists(PK)' } },
          { Put: { TableName: table.tableName, Item: commentItem(tenantId, incidentId, comment), ConditionExpression: 'attribute_not_exists(SK)' } },
        ],
      });
      return true;
    } catch (e) {
      if (isConditionFailureInTransaction(e, 0)) return false;
      // The incident is being updated right now: retry shortly (a comment does not depend on its version).
      if (isTransactionConflict(e) && attempt < 4) {
        await new Promise((r) => setTimeout(r, 10 * attempt));
        continue;
      }
      throw e;
    }
  }
}

/** The incident storage as an `IncidentsPort`. */
export function incidentsRepository(table: TableRef): IncidentsPort {
  return {
    createIncident: (t, build) => createIncident(t, build, table),
    getIncident: (t, id) => getIncident(t, id, table),
    getIncidentDetail: (t, id) => getIncidentDetail(t, id, table),
    listIncidents: (t, opts) => listIncidents(t, opts, table),
    saveUpdate: (t, next, v, change, comment) => saveIncidentUpdate(t, next, v, change, comment, table),
    addComment: (t, id, c) => addIncidentComment(t, id, c, table),
  };
}
