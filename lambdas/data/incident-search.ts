/**
 * The incident list's status filter and text search as index reads (docs/data-model.md#search), so their cost
 * follows the page, not the tenant's history:
 *
 *  - **status**: every incident is in the GSI3 partition of its status (`TENANT#<t>#INCSTATUS#<status>`, sort
 *    key `<createdAt>#<id>`, moved by the Put that changes the status). A filter on k statuses is k Queries
 *    (in parallel), merged in list order; a severity filter is applied to those partitions (severities do not
 *    pile up with age the way closed incidents do, so the share read and discarded stays that of the severity).
 *  - **text** (`q`): each word of a title (`searchTokens`) has an item in the partition of that word
 *    (`TENANT#<t>#SEARCH#<token>`, same sort key) carrying all the title's words. A search reads the partitions
 *    of its (up to 4 longest) words side by side, the other words as a FilterExpression on the items, continues
 *    the one that reached deepest (the rarest word's) — ≤ 8 Queries (`searchIncidents`) — then the
 *    candidates with ONE BatchGetItem, and keeps those whose current title, status, severity and creation time
 *    match (`titleMatches`). A create writes the token items right after its transaction (ONE BatchWriteItem,
 *    1 WCU per word): a derived index, eventually consistent like a GSI, completed from the `incident.created`
 *    event by the outbox consumer when that write fails (`ensureSearchTokens`). An update writes a new title's
 *    token items IN its transaction (the seed and the upgrade write them before it) and removes the dropped
 *    words after it, so the index can hold extra (stale) entries and never misses a word of a stored title,
 *    except a new incident's between its create and the consumer's repair when the create's word write failed.
 *
 * Both lists page with a position cursor: base64url of `{ p: "<createdAt>#<id>" }`, the sort key up to which
 * (in the list's order) every item has been looked at; the next page starts right after it in each partition.
 * A cursor outside `from`/`to` or of another shape → 400 VALIDATION_FAILED; the keys built from it are always
 * under the caller's tenant.
 */
import type { Incident, IncidentStatus, Page } from '../contract/schemas.js';
import type { IncidentListOptions } from '../domain/ports.js';
import { searchTokens, titleMatches } from '../domain/search.js';
import type { AttributeMap, TableRef, TransactWriteItem } from './table/client.js';
import { decodePositionCursor, encodePositionCursor } from './table/cursor.js';
import { batchGetAll, batchWriteAll } from './table/dynamo-util.js';
import { gsiOf, INCIDENT_BY_STATUS, IncidentEntity, itemOf, recordOf, SearchTokenEntity } from './entities.js';
import { keys } from './table/keys.js';
import { queryItems, timeRange } from './table/paging.js';
import { listFilter, type ListFilterSpec } from './table/list-filter.js';
import { indexOf } from './access-patterns.js';

/** Sort key of an incident in the lists read here: `<createdAt>#<id>`. */
const POSITION = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z#INC-\d{1,12}$/;

/** The position cursor of sort key `p`. */
const encodePosition = (p: string): string => encodePositionCursor(p);

/**
 * The position of a cursor, checked against the list's `from`/`to` bounds.
 * @throws ApiError VALIDATION_FAILED
 */
function decodePosition(cursor: string, range: { lower: string; upper: string }): string {
  return decodePositionCursor(cursor, (p) => POSITION.test(p) && p >= range.lower && p <= range.upper);
}

/** The incident id of a sort key `<createdAt>#<id>`. */
const idOf = (position: string): string => position.slice(position.lastIndexOf('#') + 1);

/** Whether `a` comes after `b` in the list's order. */
const after = (a: string, b: string, newestFirst: boolean): boolean => (newestFirst ? a < b : a > b);

/**
 * One page of the tenant's incidents in any of `opts.status` (GSI3), with the other filters of `opts` except
 * `q`; see the module doc. At most one Query per status per round trip of `queryItems`.
 * @throws ApiError VALIDATION_FAILED for a cursor that is not a position inside `from`/`to`.
 */
export async function listIncidentsByStatus(table: TableRef, tenantId: string, opts: IncidentListOptions & { status: readonly IncidentStatus[] }): Promise<Page<Incident>> {
  const newestFirst = opts.sort !== 'oldest';
  const range = timeRange(opts.from, opts.to);
  const position = opts.cursor ? decodePosition(opts.cursor, range) : undefined;
  // The status is the partition read; the other filters are the FilterExpression.
  const filter = incidentListFilter({ severity: opts.severity }).toExpression();
  // The index, its key attributes and partitions as the incident declares them (`INCIDENT_BY_STATUS`).
  const { partitionKey, sortKey } = gsiOf(INCIDENT_BY_STATUS);
  const parts = await Promise.all(
    [...new Set(opts.status)].map(async (status) => {
      const pk = INCIDENT_BY_STATUS.pk({ tenantId, status });
      const start = position ? { ...keys.incident(tenantId, idOf(position)), [partitionKey]: pk, [sortKey]: position } : undefined;
      const { out, lastKey } = await queryItems(
        table,
        {
          IndexName: indexOf(INCIDENT_BY_STATUS.access),
          KeyConditionExpression: `${partitionKey} = :p AND ${sortKey} BETWEEN :lo AND :hi`,
          ...(filter ? { FilterExpression: filter.expression, ExpressionAttributeNames: filter.names } : {}),
          ExpressionAttributeValues: { ...filter?.values, ':p': pk, ':lo': range.lower, ':hi': range.upper },
          ScanIndexForward: !newestFirst,
        },
        opts.limit,
        !!filter,
        start,
      );
      return { items: out, frontier: lastKey ? String(lastKey[sortKey]) : undefined };
    }),
  );
  // Everything up to the nearest frontier (in list order) has been read in every partition; past it, a
  // partition that stopped early may still hold items.
  let cut: string | undefined;
  for (const p of parts) if (p.frontier !== undefined && (cut === undefined || after(cut, p.frontier, newestFirst))) cut = p.frontier;
  const merged = parts
    .flatMap((p) => p.items)
    .map((i) => ({ sk: String(i[sortKey]), item: i }))
    .filter((x) => cut === undefined || !after(x.sk, cut, newestFirst))
    .sort((a, b) => (a.sk === b.sk ? 0 : after(a.sk, b.sk, newestFirst) ? 1 : -1));
  const page = merged.slice(0, opts.limit);
  const nextPosition = merged.length > opts.limit ? page[page.length - 1]!.sk : cut;
  return { items: page.map((x) => recordOf(IncidentEntity, x.item)), nextCursor: nextPosition === undefined ? null : encodePosition(nextPosition) };
}

/**
 * The incident list's filter (`GET /incidents`, `GET /soc/queue`), declared once: the tenant (an assignee's
 * or the unassigned's SOC queue partition holds every tenant's entries), then any of the severities, then any
 * of the statuses, each a `listFilter` `in` clause (none given = no condition). Its `toExpression()` is the
 * FilterExpression of the Query paths, its `matches()` the check of the items read by key (the search's
 * BatchGetItem, the exact-id GetItem). A read path passes only the filters its partition does not already
 * apply (the status partitions of GSI3 are read without the status clause).
 */
export function incidentListFilter(opts: { tenantId?: string | undefined; severity?: readonly string[] | undefined; status?: readonly string[] | undefined }): ListFilterSpec {
  return listFilter([
    { attribute: 'tenantId', op: 'in', values: opts.tenantId === undefined ? undefined : [opts.tenantId] },
    { attribute: 'severity', op: 'in', values: opts.severity },
    { attribute: 'status', op: 'in', values: opts.status },
  ]);
}

/** Word partitions a search reads in its first round at most (the query's longest words; the others are checked by the filter). */
export const SEARCH_PARTITIONS = 4;
/** Queries a search page sends at most (then ONE BatchGetItem: ≤ 9 requests a page, whatever the words' frequencies). */
export const SEARCH_MAX_QUERIES = 8;
/** Word entries (~0.15 KB each) one search Query reads at most: ≤ 4 RCU eventually consistent. */
const SEARCH_READ = 100;

/** One word partition being read by a search: where it stands and the matching entries read so far. */
interface WordCursor {
  pk: string;
  /** Sort key of the last entry read (`LastEvaluatedKey`), undefined once the partition (within the range) is read to its end. */
  frontier: string | undefined;
  done: boolean;
}

/**
 * One page of the tenant's incidents whose title matches the text `opts.q` (`titleMatches`), with the other
 * filters of `opts`, newest (or oldest) first; see docs/data-model.md#search. Every match is in the partition
 * of EACH of its words, so the partitions are read as a merge: round 1 reads up to `SEARCH_READ` entries of
 * each of the query's `SEARCH_PARTITIONS` longest words in parallel (the other words as a FilterExpression on
 * `tokens`); the rarest word's partition reaches deepest, and every match between the position and the
 * deepest frontier is in it. Further rounds continue only the deepest partition until `limit` matches lie
 * inside the covered range, the partition ends, or `SEARCH_MAX_QUERIES` Queries are spent; then ONE
 * BatchGetItem of ≤ `limit` candidates, kept if their stored title, status, severity and creation time match.
 * The cursor is the last returned candidate's position, or the covered frontier: nothing before it is skipped,
 * nothing after it is shown out of order. ≤ 9 requests and ≤ ~45 RCU a page whatever the words' frequencies.
 * @throws ApiError VALIDATION_FAILED for a cursor that is not a position inside `from`/`to`.
 */
export async function searchIncidents(table: TableRef, tenantId: string, opts: IncidentListOptions & { q: string }): Promise<Page<Incident>> {
  const tokens = searchTokens(opts.q);
  if (tokens.length === 0) return { items: [], nextCursor: null };
  const newestFirst = opts.sort !== 'oldest';
  const range = timeRange(opts.from, opts.to);
  const position = opts.cursor ? decodePosition(opts.cursor, range) : undefined;
  const words = [...tokens].sort((a, b) => b.length - a.length).slice(0, SEARCH_PARTITIONS);
  const matches = new Map<string, AttributeMap>();
  let queries = 0;
  const read = async (word: string, c: WordCursor): Promise<void> => {
    const others = tokens.filter((t) => t !== word);
    const values: AttributeMap = { ':p': c.pk, ':lo': range.lower, ':hi': range.upper };
    others.forEach((t, n) => (values[`:t${n}`] = t));
    const from = c.frontier ?? position;
    queries++;
    const res = await table.doc.send('Query', {
      TableName: table.tableName,
      KeyConditionExpression: 'PK = :p AND SK BETWEEN :lo AND :hi',
      ...(others.length ? { FilterExpression: others.map((_, n) => `contains(#tk, :t${n})`).join(' AND '), ExpressionAttributeNames: { '#tk': 'tokens' } } : {}),
      ExpressionAttributeValues: values,
      ScanIndexForward: !newestFirst,
      Limit: SEARCH_READ,
      ...(from ? { ExclusiveStartKey: { PK: c.pk, SK: from } } : {}),
    });
    for (const i of res.Items ?? []) matches.set(String(i.SK), i);
    c.frontier = res.LastEvaluatedKey ? String(res.LastEvaluatedKey.SK) : undefined;
    c.done = !res.LastEvaluatedKey;
  };
  const parts = new Map(words.map((w) => [w, { pk: keys.searchTokenPk(tenantId, w), frontier: undefined, done: false } as WordCursor]));
  await Promise.all([...parts].map(([w, c]) => read(w, c)));
  // Everything between the position and the deepest frontier is read (all of the range once a partition ended).
  const deepest = (): [string, WordCursor] | undefined => {
    let best: [string, WordCursor] | undefined;
    for (const [w, c] of parts) {
      if (c.done) return undefined;
      if (!best || after(c.frontier!, best[1].frontier!, newestFirst)) best = [w, c];
    }
    return best;
  };
  const inRange = (cut: string | undefined) => [...matches.keys()].filter((sk) => cut === undefined || !after(sk, cut, newestFirst));
  for (let lead = deepest(); lead && inRange(lead[1].frontier).length < opts.limit && queries < SEARCH_MAX_QUERIES; lead = deepest()) await read(lead[0], lead[1]);
  const cut = deepest()?.[1].frontier;
  const candidates = inRange(cut).sort((a, b) => (a === b ? 0 : after(a, b, newestFirst) ? 1 : -1));
  const page = candidates.slice(0, opts.limit);
  const nextPosition = candidates.length > opts.limit ? page[page.length - 1] : cut;
  const found = await batchGetIncidents(table, tenantId, page.map(idOf));
  const filter = incidentListFilter({ status: opts.status, severity: opts.severity });
  const items: Incident[] = [];
  for (const sk of page) {
    const incident = found.get(idOf(sk));
    // A stale entry (an older title, or a create that lost its race for the id) is skipped.
    if (incident && `${incident.createdAt}#${incident.id}` === sk && titleMatches(incident.title, tokens) && filter.matches(incident)) items.push(incident);
  }
  return { items, nextCursor: nextPosition === undefined ? null : encodePosition(nextPosition) };
}

/**
 * The tenant's incidents with these ids that exist (BatchGetItem, eventually consistent, `batchGetAll`: keys
 * left unprocessed are asked again with backoff), by id.
 * @throws Error when keys are still unprocessed after `batchGetAll`'s attempts.
 */
export async function batchGetIncidents(table: TableRef, tenantId: string, ids: readonly string[]): Promise<Map<string, Incident>> {
  const found = new Map<string, Incident>();
  for (const item of await batchGetAll(table, [...new Set(ids)].map((id) => keys.incident(tenantId, id)))) {
    const incident = recordOf(IncidentEntity, item) as Incident;
    found.set(incident.id, incident);
  }
  return found;
}

/** The token items of `incident`'s title, each carrying `tokens` (default: the title's own). */
export function searchTokenItems(incident: Pick<Incident, 'tenantId' | 'id' | 'createdAt' | 'title'>, tokens: readonly string[] = searchTokens(incident.title)): AttributeMap[] {
  return searchTokens(incident.title).map((token) =>
    itemOf(SearchTokenEntity, { tenantId: incident.tenantId, token, incidentId: incident.id, incidentCreatedAt: incident.createdAt, tokens: [...tokens] }),
  );
}

/**
 * The TransactWriteItems Puts of `next`'s token items, for the transaction that stores `next` (a create, or an
 * update from `before`): each item carries the words of both titles, so whichever title is stored, every word of
 * it has an entry that passes the query's filter; none when the title is unchanged. In the transaction the
 * entries exist iff the change does (a throttled or refused transaction leaves none: never a partial write).
 * Count: ≤ 40 words per title of ≤ 120 characters (words of ≥ 2 letters), ≤ 80 for a title change, so with the
 * incident, history, comment, audit, event and aggregate actions a transaction stays under DynamoDB's 100.
 * Cost: 2 WCU per word (transactional write of an item ≤ 1 KB; docs/data-model.md#search).
 */
export function searchTokenPuts(table: TableRef, next: Incident, before: Incident | null): TransactWriteItem[] {
  if (before && before.title === next.title && before.createdAt === next.createdAt) return [];
  const words = [...new Set([...searchTokens(next.title), ...(before ? searchTokens(before.title) : [])])];
  return searchTokenItems(next, words).map((Item) => ({ Put: { TableName: table.tableName, Item } }));
}

/**
 * After a create's transaction (`createIncident`), or before a write that stores `next` outside a request (the
 * seed, the upgrade): puts the token items of `next`'s
 * title when it is new or its title changed, each carrying the words of both titles, so whichever title the
 * transaction leaves stored, every word of it has an entry that passes the query's filter. Nothing when the
 * title is unchanged. One BatchWriteItem (1 WCU per token item of ≤ 1 KB).
 */
export async function putSearchTokens(table: TableRef, next: Incident, before: Incident | null): Promise<void> {
  if (before && before.title === next.title && before.createdAt === next.createdAt) return;
  const words = [...new Set([...searchTokens(next.title), ...(before ? searchTokens(before.title) : [])])];
  await batchWriteAll(
    table,
    searchTokenItems(next, words).map((Item) => ({ PutRequest: { Item } })),
  );
}

/**
 * The backstop of a create's word items (docs/data-model.md#search): puts the token items of the stored
 * incident `incidentId`'s current title that are missing. One consistent GetItem of the incident, ONE
 * BatchGetItem of its token keys (keys only) and, only for missing ones, one BatchWriteItem (1 WCU each).
 * Idempotent and replay-safe (a Put of an item already there is not sent; a missing incident — deleted, or an
 * event replayed after retention — does nothing). Run by the outbox consumer for every `incident.created` event.
 * @returns how many token items were written.
 */
export async function ensureSearchTokens(table: TableRef, tenantId: string, incidentId: string): Promise<number> {
  const res = await table.doc.send('GetItem', { TableName: table.tableName, Key: keys.incident(tenantId, incidentId), ConsistentRead: true });
  if (!res.Item) return 0;
  const incident = recordOf(IncidentEntity, res.Item) as Incident;
  const items = searchTokenItems(incident);
  if (items.length === 0) return 0;
  const present = new Set<string>();
  for (const item of await batchGetAll(table, items.map((i) => ({ PK: i.PK, SK: i.SK })), { projection: 'PK, SK' })) present.add(`${String(item.PK)}|${String(item.SK)}`);
  const missing = items.filter((i) => !present.has(`${String(i.PK)}|${String(i.SK)}`));
  await batchWriteAll(
    table,
    missing.map((Item) => ({ PutRequest: { Item } })),
  );
  return missing.length;
}

/**
 * After an update that changed the title from `before` to `next` was stored: deletes the entries of words the
 * new title no longer has. Best effort (a failure leaves stale entries, which searches skip).
 */
export async function dropSearchTokens(table: TableRef, next: Incident, before: Incident): Promise<void> {
  if (before.title === next.title) return;
  const keep = new Set(searchTokens(next.title));
  const gone = searchTokens(before.title).filter((t) => !keep.has(t));
  try {
    await batchWriteAll(
      table,
      gone.map((t) => ({ DeleteRequest: { Key: keys.searchToken(before.tenantId, t, before.id, before.createdAt) } })),
    );
  } catch {
    // Stale entries are verified away on read (module doc).
  }
}
