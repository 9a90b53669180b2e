/**
 * Incident storage over the single table (entities `IncidentEntity`, `CommentEntity`, `HistoryEntity` in
 * `entities.ts`; the incident number counter is attribute `incidentSeq` of the tenant's stats item,
 * `INCIDENT_SEQ` in `aggregates.ts`): implements `IncidentsPort` and exports `putIncident` and
 * `raiseIncidentCounter` for the seed.
 */
import type { AuditEntry, Incident, IncidentChange, IncidentComment, IncidentDetail, IncidentStatus, Page } from '../contract/schemas.js';
import { incidentCommentEvent, incidentCreatedEvent, incidentUpdateEvent } from '../domain/activity.js';
import { ApiError } from '../domain/errors.js';
import { activityPut, activityPuts } from './activity.js';
import type { IncidentListOptions, IncidentsPort, SocQueueCounts, SocQueueOptions, SocQueuePage } from '../domain/ports.js';
import { aggregateWrites, AGGREGATE_ENTITIES, incidentChange, INCIDENT_SEQ, legacyCounterKey, LIST_MARKERS, type AggregateChange } from './aggregates.js';
import { auditPut } from './audit.js';
import { decodeKeyCursor, encodeKeyCursor } from './table/cursor.js';
import type { TableRef, TransactWriteItem } from './table/client.js';
import { isConditionFailureInTransaction, isTransactionConflict, queryAll, RETRY, withRetries, writeIf } from './table/dynamo-util.js';
import { AutoCloseEntity, CommentEntity, declaredIndex, gsiOf, HistoryEntity, IncidentEntity, InternalNoteEntity, itemOf, recordOf, SocQueueEntryEntity, socQueuePlace, type Entity, type IndexDeclaration } from './entities.js';
import { keys } from './table/keys.js';
import { dropSearchTokens, incidentListFilter, listIncidentsByStatus, putSearchTokens, searchIncidents, searchTokenPuts } from './incident-search.js';
import { listPage } from './table/paging.js';
import { indexOf, type IndexAccessId } from './access-patterns.js';
import { putCommentTokens, searchComments } from './comment-search.js';
import { alarmLinkWrites, getAlarmsByRef, type AlarmLink } from './alarm-links.js';

/** Attempts at allocating an id under contention (more than the default: creates race on one counter). */
const CREATE_ATTEMPTS = 12;

const commentItem = (tenantId: string, incidentId: string, c: IncidentComment) => itemOf(CommentEntity, { ...c, tenantId, incidentId });
const historyItem = (tenantId: string, incidentId: string, incidentCreatedAt: string, h: IncidentChange) =>
  itemOf(HistoryEntity, { ...h, tenantId, incidentId, incidentCreatedAt });

/** Sequence number of an `INC-000123` id. */
function seqOf(id: string): number {
  return Number(id.slice(4));
}

/**
 * Raises the tenant's incident counter (`incidentSeq` of its stats item) to at least `seq` (never lowers
 * it): one conditional UpdateItem. Used after seeding incidents with fixed ids, and by a create that found
 * its number taken, so later creates do not collide.
 */
export async function raiseIncidentCounter(tenantId: string, seq: number, table: TableRef): Promise<void> {
  await writeIf(table, 'UpdateItem', {
    Key: keys.stats(tenantId),
    UpdateExpression: 'SET #s = :s, #e = :t',
    ConditionExpression: 'attribute_not_exists(#s) OR #s < :s',
    ExpressionAttributeNames: { '#e': 'entity', '#s': INCIDENT_SEQ },
    ExpressionAttributeValues: { ':s': seq, ':t': AGGREGATE_ENTITIES.stats },
  });
}

/**
 * The number of the tenant's last allocated incident and whether it was read from the stats item (`incidentSeq`,
 * one consistent GetItem) — or, for a tenant whose stats item has no counter yet (data from before
 * `AGGREGATES_VERSION` 3 not migrated yet, or a new tenant), from the old counter item (a second GetItem).
 */
async function lastIncidentSeq(tenantId: string, table: TableRef): Promise<{ value: number; inStats: boolean }> {
  const stats = await table.doc.send('GetItem', {
    TableName: table.tableName,
    Key: keys.stats(tenantId),
    ConsistentRead: true,
    ProjectionExpression: '#s',
    ExpressionAttributeNames: { '#s': INCIDENT_SEQ },
  });
  const seq = stats.Item?.[INCIDENT_SEQ];
  if (typeof seq === 'number') return { value: seq, inStats: true };
  const legacy = await table.doc.send('GetItem', { TableName: table.tableName, Key: legacyCounterKey(tenantId), ConsistentRead: true });
  return { value: typeof legacy.Item?.seq === 'number' ? legacy.Item.seq : 0, inStats: false };
}

/**
 * Seed path: writes an incident with a fixed id (replacing any previous copy), its comments and history
 * entries, and raises the counter. Idempotent for the same input (an identical stored copy is not written
 * again). A different copy is replaced (condition on its version, retried on a lost race) in one
 * TransactWriteItems with the change of the tenant's aggregates (docs/data-model.md#aggregates); when the
 * given version is not newer than the stored one it becomes the stored version + 1.
 */
export async function putIncident(
  incident: Incident,
  extras: { comments?: IncidentComment[] | undefined; history?: IncidentChange[] | undefined } | undefined,
  table: TableRef,
): Promise<void> {
  await withRetries(`putIncident ${incident.id}`, async () => {
    const before = await getIncident(incident.tenantId, incident.id, table);
    if (before && JSON.stringify(itemOf(IncidentEntity, before)) === JSON.stringify(itemOf(IncidentEntity, incident))) return undefined;
    // A changed copy gets a newer version, so an update planned from the copy replaced fails its version
    // check (and the aggregates it would move) instead of overwriting this one.
    const next = before && incident.version <= before.version ? { ...incident, version: before.version + 1 } : incident;
    // The title's search tokens first (docs/data-model.md#search: the index may hold extra entries, never miss one).
    await putSearchTokens(table, next, before);
    try {
      await table.doc.send('TransactWriteItems', {
        TransactItems: [
          {
            Put: {
              TableName: table.tableName,
              Item: itemOf(IncidentEntity, next),
              ConditionExpression: before ? 'version = :v' : 'attribute_not_exists(PK)',
              ...(before ? { ExpressionAttributeValues: { ':v': before.version } } : {}),
            },
          },
          ...aggregateWrites(table, incident.tenantId, incidentChange(before, next), { list: 'incidents' }),
          ...socAssignmentWrites(table, before, next),
          ...autoCloseWrites(table, before, next),
        ],
      });
    } catch (e) {
      if (isConditionFailureInTransaction(e, 0)) return RETRY;
      throw e;
    }
    if (before) await dropSearchTokens(table, next, before);
    return undefined;
  });
  const items = [
    ...(extras?.comments ?? []).map((c) => commentItem(incident.tenantId, incident.id, c)),
    ...(extras?.history ?? []).map((h) => historyItem(incident.tenantId, incident.id, incident.createdAt, h)),
  ];
  for (const Item of items) await table.doc.send('PutItem', { TableName: table.tableName, Item });
  await raiseIncidentCounter(incident.tenantId, seqOf(incident.id), table);
}

/**
 * Allocates the next per-tenant number and writes, in ONE TransactWriteItems, the incident (condition: not
 * existing), its audit entry, its `incident.created` activity event and the change of the tenant's
 * aggregates, whose stats update also sets the counter (`incidentSeq`, conditioned on the value read:
 * `aggregateWrites` option `incidentSeq`); a lost race is retried (`withRetries`). An id taken by a seeded
 * incident moves the counter past it first.
 *
 * Then, outside the transaction, the title's search-word items (docs/data-model.md#search): ONE BatchWriteItem
 * (1 WCU per word instead of 2 in the transaction). They are a derived index, eventually consistent like a
 * GSI: if that write fails after the SDK's retries the incident is stored all the same (the create succeeds,
 * a warning is logged) and the delivery side completes the index from the `incident.created` event
 * (`ensureSearchTokens`, docs/notifications.md#outbox).
 * Cost (docs/benchmarks.md "Write budgets"): 1 GetItem (1 RCU); the transaction 17 WCU with an audit entry
 * (incident 2 + 3 index copies, audit 2 + 2, event 2, stats/day/hour 6); 1 WCU per title word (3 for 3 words).
 * With `links` (docs/api.md#linked-alarms), the same transaction also sets `incidentId` on each linked alarm
 * (`alarmLinkWrites`: 1 WCU + 1 for its GSI1 copy each; ≤ 20 links keep the transaction far below its 100 actions).
 * @throws ApiError ALARM_ALREADY_LINKED when a linked alarm changed its link (or vanished) since it was read:
 *         nothing is written.
 * @throws Error after `CREATE_ATTEMPTS` lost races (sustained contention).
 */
export async function createIncident(
  tenantId: string,
  build: (seq: number) => Incident,
  table: TableRef,
  auditOf?: (incident: Incident) => AuditEntry,
  links: readonly AlarmLink[] = [],
): Promise<Incident> {
  const created = await withRetries(
    `createIncident for tenant ${tenantId}`,
    async () => {
      const last = await lastIncidentSeq(tenantId, table);
      const incident = build(last.value + 1);
      try {
        await table.doc.send('TransactWriteItems', {
          TransactItems: [
            { Put: { TableName: table.tableName, Item: itemOf(IncidentEntity, incident), ConditionExpression: 'attribute_not_exists(PK)' } },
            // The linked alarms' `incidentId` (indexes 1..links.length), conditioned on the link read.
            ...alarmLinkWrites(table, tenantId, incident.id, links),
            ...(auditOf ? [auditPut(auditOf(incident), table)] : []),
            // Its activity event (docs/notifications.md), in the same transaction.
            activityPut(incidentCreatedEvent(incident), table),
            // The aggregates' stats update allocates the number (condition on the counter read).
            ...aggregateWrites(table, tenantId, withAlarmListMarker(incidentChange(null, incident), links), { incidentSeq: { prev: last.inStats ? last.value : null, next: last.value + 1 }, list: 'incidents' }),
            ...socAssignmentWrites(table, null, incident),
          ],
        });
        return incident;
      } catch (e) {
        if (links.some((_, i) => isConditionFailureInTransaction(e, 1 + i))) {
          throw new ApiError('ALARM_ALREADY_LINKED', 'an alarm was linked to another incident meanwhile; reload it', {
            alarms: links.filter((_, i) => isConditionFailureInTransaction(e, 1 + i)).map((l) => l.ref),
          });
        }
        // The id is taken (e.g. seeded without raising the counter): move the counter past it.
        if (isConditionFailureInTransaction(e, 0)) await raiseIncidentCounter(tenantId, last.value + 1, table);
        if (isConditionFailureInTransaction(e)) return RETRY;
        throw e;
      }
    },
    CREATE_ATTEMPTS,
  );
  try {
    await putSearchTokens(table, created, null);
  } catch (e) {
    // The incident exists; its word items are completed from its incident.created event (ensureSearchTokens).
    console.warn(
      JSON.stringify({
        level: 'WARN',
        message: 'search index: word items of a new incident not written; the outbox consumer completes them',
        tenantId,
        incidentId: created.id,
        error: e instanceof Error ? `${e.name}: ${e.message}` : String(e),
      }),
    );
  }
  return created;
}

/**
 * `change` plus one on the tenant's alarm list marker (`revA`) when `links` name a device alarm: their new
 * `incidentId` changes `GET /alarms`, whose ETag is that marker (docs/api.md#conditional-requests).
 */
function withAlarmListMarker(change: AggregateChange, links: readonly AlarmLink[]): AggregateChange {
  return links.some((l) => l.ref.kind === 'device') ? { ...change, stats: { ...change.stats, [LIST_MARKERS.alarms]: 1 } } : change;
}

/** The incident item alone (GetItem), or null. */
export async function getIncident(tenantId: string, id: string, table: TableRef): Promise<Incident | null> {
  const res = await table.doc.send('GetItem', { TableName: table.tableName, Key: keys.incident(tenantId, id), ConsistentRead: true });
  return res.Item ? recordOf(IncidentEntity, res.Item) : null;
}

/**
 * Incident + comments (oldest first) + history (ascending version): one Query on the incident partition.
 * With `internalNotes` (a staff read, docs/api.md#internal-notes) also the incident's internal notes: a second
 * Query, of their own partition, in parallel; they join the comments in time order. Without it nothing of that
 * partition is read, so a customer's read cannot return a note whatever the incident partition holds.
 * An incident with linked alarms also gets `linkedAlarms`: one BatchGetItem of their ≤ 20 items after the Query.
 */
export async function getIncidentDetail(tenantId: string, id: string, table: TableRef, opts: { internalNotes?: boolean } = {}): Promise<IncidentDetail | null> {
  const [items, notes] = await Promise.all([
    queryAll(table, {
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.incidentPk(tenantId, id) },
      ConsistentRead: true,
    }),
    opts.internalNotes ? listInternalNotes(tenantId, id, table) : Promise.resolve([]),
  ]);
  let incident: Incident | undefined;
  const comments: IncidentComment[] = [];
  const history: IncidentChange[] = [];
  for (const it of items) {
    const sk = String(it.SK);
    if (sk === 'INCIDENT') incident = recordOf(IncidentEntity, it);
    else if (sk.startsWith('COMMENT#')) comments.push(recordOf(CommentEntity, it));
    else if (sk.startsWith('HISTORY#')) history.push(recordOf(HistoryEntity, it));
  }
  if (!incident) return null;
  // Its linked alarms as they are now (docs/api.md#linked-alarms): ONE BatchGetItem of ≤ 20 keys.
  const linked = incident.alarms?.length ? (await getAlarmsByRef(tenantId, incident.alarms, table)).filter((a) => a !== null) : null;
  const timeline = notes.length ? [...comments, ...notes].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id)) : comments;
  return { ...incident, comments: timeline, history, ...(linked ? { linkedAlarms: linked } : {}) };
}

/** The incident's internal notes, oldest first: one Query of their partition (`keys.incidentNotesPk`). */
export async function listInternalNotes(tenantId: string, incidentId: string, table: TableRef): Promise<IncidentComment[]> {
  const items = await queryAll(table, {
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.incidentNotesPk(tenantId, incidentId) },
    ConsistentRead: true,
  });
  return items.map((it) => recordOf(InternalNoteEntity, it));
}

/**
 * Adds an internal note (docs/api.md#internal-notes) in one transaction: a ConditionCheck that the incident
 * exists, the note (in its own partition) and the audit entry. No activity event: a note is never notified.
 * Cost: 3 WCU + 2 per KB of the note, + the audit entry's. False if the incident does not exist.
 */
export function addIncidentNote(tenantId: string, incidentId: string, note: IncidentComment, table: TableRef, audit?: AuditEntry): Promise<boolean> {
  return withRetries(`addNote to ${incidentId}`, async () => {
    try {
      await table.doc.send('TransactWriteItems', {
        TransactItems: [
          { ConditionCheck: { TableName: table.tableName, Key: keys.incident(tenantId, incidentId), ConditionExpression: 'attribute_exists(PK)' } },
          { Put: { TableName: table.tableName, Item: itemOf(InternalNoteEntity, { ...note, visibility: 'internal', tenantId, incidentId }), ConditionExpression: 'attribute_not_exists(SK)' } },
          ...(audit ? [auditPut(audit, table)] : []),
        ],
      });
      return true;
    } catch (e) {
      if (isConditionFailureInTransaction(e, 0)) return false;
      throw e;
    }
  });
}

/** An exact incident id typed as the search text (`INC-` + 6 or more digits, any case). */
const EXACT_ID = /^inc-\d{6,}$/i;

/** The read path of an incident list query (`incidentReadPath`). */
export type IncidentReadPath =
  | { path: 'byId'; id: string }
  | { path: 'search'; q: string }
  | { path: 'byStatus'; status: readonly IncidentStatus[] }
  | { path: 'list' };

/**
 * The one choice of how a page of the incident list (`GET /incidents`, `listIncidents`) is read
 * (docs/data-model.md#search, docs/api.md#incident-search), first match wins:
 *  - `byId`: the search text is exactly an incident id (`INC-` + ≥ 6 digits, any case, trimmed) on a first page
 *    (no cursor) → ONE GetItem of that incident, kept if it matches the other filters and `from`/`to`; no cursor;
 *  - `search`: any other non-blank search text → the title word index (`searchIncidents`: ≤ 8 Queries + ONE
 *    BatchGetItem), status and severity checked on the candidates;
 *  - `byStatus`: a status filter → the GSI3 partitions of those statuses merged (`listIncidentsByStatus`), the
 *    severity as a FilterExpression;
 *  - `list`: otherwise → the GSI1 list `TENANT#<t>#INCIDENTS` (`listPage`), the severity as a FilterExpression.
 * Pure; the filters themselves are `incidentListFilter`.
 */
export function incidentReadPath(opts: Pick<IncidentListOptions, 'q' | 'status' | 'cursor'>): IncidentReadPath {
  const text = opts.q?.trim();
  if (text && EXACT_ID.test(text) && !opts.cursor) return { path: 'byId', id: text.toUpperCase() };
  if (text) return { path: 'search', q: opts.q! };
  if (opts.status?.length) return { path: 'byStatus', status: opts.status };
  return { path: 'list' };
}

/**
 * One page of the tenant's incidents, newest first unless `sort: 'oldest'`, `from`/`to` bounding `createdAt`,
 * read by the path `incidentReadPath` chooses; gap-free cursors (none for `byId`).
 * @throws ApiError VALIDATION_FAILED for a cursor from another list/tenant or outside `from`/`to`.
 */
export async function listIncidents(tenantId: string, opts: IncidentListOptions, table: TableRef): Promise<Page<Incident>> {
  const { status, severity, q: _q, sort, ...position } = opts;
  const read = incidentReadPath(opts);
  switch (read.path) {
    case 'byId': {
      const found = await getIncident(tenantId, read.id, table);
      const matches =
        found !== null &&
        incidentListFilter({ status, severity }).matches(found) &&
        (!opts.from || Date.parse(found.createdAt) >= Date.parse(opts.from)) &&
        (!opts.to || Date.parse(found.createdAt) <= Date.parse(opts.to));
      return { items: matches ? [found] : [], nextCursor: null };
    }
    case 'search':
      return searchIncidents(table, tenantId, { ...opts, q: read.q });
    case 'byStatus':
      return listIncidentsByStatus(table, tenantId, { ...opts, status: read.status });
    case 'list':
      return listPage(table, IncidentEntity, tenantId, { ...position, newestFirst: sort !== 'oldest' }, incidentListFilter({ severity }));
  }
}

/**
 * See `IncidentsPort.saveUpdate`: incident (condition on the version of `current`) + history + comment +
 * audit entry + the change of the tenant's aggregates (`current` → `next`) in one transaction.
 */
export async function saveIncidentUpdate(
  tenantId: string,
  next: Incident,
  current: Incident,
  change: IncidentChange,
  comment: IncidentComment | null,
  table: TableRef,
  audit?: AuditEntry,
): Promise<boolean> {
  const put = (Item: Record<string, unknown>) => ({ Put: { TableName: table.tableName, Item, ConditionExpression: 'attribute_not_exists(SK)' } });
  // A new title's search tokens in the transaction, the old title's words removed after it (docs/data-model.md#search).
  try {
    await table.doc.send('TransactWriteItems', {
      TransactItems: [
        { Put: { TableName: table.tableName, Item: itemOf(IncidentEntity, next), ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': current.version } } },
        put(historyItem(tenantId, next.id, next.createdAt, change)),
        ...(comment ? [put(commentItem(tenantId, next.id, comment))] : []),
        // The audit entry of the change, in the same transaction (docs/api.md#audit-log).
        ...(audit ? [auditPut(audit, table)] : []),
        // The activity event of the change, if customers are told about it (docs/notifications.md#kinds).
        // The incident's automatic-closure entry (docs/sla.md#automatic-closure).
        ...autoCloseWrites(table, current, next),
        ...activityPuts([incidentUpdateEvent(current, next, change, comment)], table),
        ...aggregateWrites(table, tenantId, incidentChange(current, next), { list: 'incidents' }),
        ...socAssignmentWrites(table, current, next),
        ...searchTokenPuts(table, next, current),
      ],
    });
    await dropSearchTokens(table, next, current);
    if (comment) await indexComment(table, tenantId, next.id, comment);
    return true;
  } catch (e) {
    // A concurrent transaction on the incident is also a lost race: the caller reloads (VERSION_CONFLICT).
    if (isConditionFailureInTransaction(e) || isTransactionConflict(e)) return false;
    throw e;
  }
}

/** Queue entries one filtered SOC queue Query reads at most (~0.8 KB each: ≤ ~10 RCU). */
const SOC_QUEUE_READ = 100;
/** Queries a filtered SOC queue page sends at most before answering with a cursor (≤ ~40 RCU a page). */
const SOC_QUEUE_MAX_QUERIES = 4;
/**
 * Shards of the count items every incident of its scope moves (every tenant's, the unassigned's:
 * `keys.socQueueCount`), so concurrent writes of different incidents rarely meet on one item (a transaction
 * conflict); a tenant's or an assignee's counts are one item.
 */
const SOC_COUNT_SHARDS = 8;
const shardsOf = (pk: string) => (pk === keys.SOCQUEUE_COUNT_PK || pk === keys.socQueueCountAssigneePk(keys.SOCQUEUE_UNASSIGNED) ? SOC_COUNT_SHARDS : 1);

/** The partition (and sort key range) a SOC queue page reads: the index, its key attributes, the partition value and the range. */
interface SocPartition {
  index: IndexAccessId;
  pk: string;
  sk: string;
  value: string;
  /** Sort key condition: below `lt` (the open ranks of the ranked order), or beginning with `prefix`; none: the whole partition. */
  range?: { lt: string } | { prefix: string } | undefined;
}

/**
 * The partition of the SOC queue a page reads (docs/sla.md#soc-queue), from the tab, the sort and the scope:
 *  - an assignee (`assignee`) or the unassigned (`unassigned`): their entries' GSI1 `SOCQUEUE#ASSIGNEE#<a|->#RANKED`
 *    (ranked order and the resolved tab) or GSI3 `SOCQUEUE#ASSIGNEE#<a|->` (open work by due time, `o#`);
 *  - else a tenant (`tenantId`): GSI4 `TENANT#<t>#SOCQUEUE#RANKED` (entries) or, by due time, GSI4 `TENANT#<t>#SOCQUEUE` (incidents);
 *  - else every tenant: GSI2 `SOCQUEUE#RANKED` (entries) or, by due time, GSI2 `SOCQUEUE` (incidents).
 * The open tab of the ranked order is the ranks below `9`; the resolved tab is rank `9` (its order is SLA due time).
 */
function socPartition(opts: SocQueueOptions): SocPartition {
  // The index and its key attributes as the entity declares them: incidents by due time, queue entries ranked or by due time.
  const on = (entity: Entity<Incident>, name: string, value: string, range?: SocPartition['range']): SocPartition => {
    const d = declaredIndex(entity, name);
    const g = gsiOf(d as IndexDeclaration<never>);
    return { index: d.access, pk: g.partitionKey, sk: g.sortKey, value, range };
  };
  const resolved = opts.tab === 'resolved';
  const byDue = opts.sort === 'due' && !resolved;
  const range = resolved ? { prefix: '9#' } : byDue ? undefined : { lt: '9' };
  const who = opts.unassigned ? keys.SOCQUEUE_UNASSIGNED : opts.assignee;
  if (who !== undefined) {
    if (byDue) return on(SocQueueEntryEntity, 'ofAssignee', keys.socQueueAssigneeGsi3Pk(who), { prefix: 'o#' });
    return on(SocQueueEntryEntity, 'rankedOfAssignee', keys.socQueueRankedAssigneeGsi1Pk(who), range);
  }
  if (opts.tenantId) {
    if (byDue) return on(IncidentEntity, 'socQueueOfTenant', keys.socQueueTenantGsi4Pk(opts.tenantId));
    return on(SocQueueEntryEntity, 'rankedOfTenant', keys.socQueueRankedTenantGsi4Pk(opts.tenantId), range);
  }
  if (byDue) return on(IncidentEntity, 'socQueue', keys.SOCQUEUE_GSI2PK);
  return on(SocQueueEntryEntity, 'ranked', keys.SOCQUEUE_RANKED_GSI2PK, range);
}


/**
 * One page of the SOC queue (docs/sla.md#soc-queue): Queries of ONE partition (`socPartition`), ascending —
 * by default the ranked order (untriaged or new first, then the rest of the open work by SLA due time, so
 * those at risk lead it), with `sort: 'due'` by SLA due time alone; `tab: 'resolved'` the resolved incidents
 * waiting for the customer, by due time. Without other filters the page is ONE Query of `limit` entries,
 * whatever the number of tenants. The other filters (tenant when reading an assignee's or the unassigned
 * partition, severity, status) are a FilterExpression: Queries of `SOC_QUEUE_READ` entries until `limit`
 * match, the partition ends, or `SOC_QUEUE_MAX_QUERIES` were sent — then a cursor (follow `nextCursor` until
 * null; a page may be short). Alongside, in parallel, the tab counts of the page's scope (`socQueueCounts`).
 * @throws ApiError VALIDATION_FAILED for a cursor of another partition (another filter, tab or sort) or another list.
 */
export async function listSocQueue(opts: SocQueueOptions, table: TableRef): Promise<SocQueuePage> {
  const [page, counts] = await Promise.all([socQueuePage(opts, table), socQueueCounts(opts, table)]);
  return { ...page, counts };
}

async function socQueuePage(opts: SocQueueOptions, table: TableRef): Promise<Page<Incident>> {
  const part = socPartition(opts);
  const listId = `${part.index}|${part.value}|${JSON.stringify(part.range ?? null)}`;
  const keyNames = [...new Set(['PK', 'SK', part.pk, part.sk])];
  let start: Record<string, string> | undefined = opts.cursor
    ? decodeKeyCursor(opts.cursor, { scope: listId, keyNames, partitionKey: part.pk, partition: part.value, pkPrefix: 'TENANT#' })
    : undefined;
  const byAssignee = part.index === 'socQueueRankedOfAssignee' || part.index === 'socQueueOfAssignee';
  const filter = incidentListFilter({ tenantId: opts.tenantId && byAssignee ? opts.tenantId : undefined, severity: opts.severity, status: opts.status }).toExpression();
  const range = part.range;
  const rangeCondition = !range ? '' : 'lt' in range ? ' AND #qs < :r' : ' AND begins_with(#qs, :r)';
  const items: Record<string, unknown>[] = [];
  let last: Record<string, unknown> | undefined;
  for (let n = 0; n < (filter ? SOC_QUEUE_MAX_QUERIES : 1); n++) {
    const res = await table.doc.send('Query', {
      TableName: table.tableName,
      IndexName: indexOf(part.index),
      KeyConditionExpression: `#qp = :p${rangeCondition}`,
      ...(filter ? { FilterExpression: filter.expression } : {}),
      ExpressionAttributeNames: { ...filter?.names, '#qp': part.pk, ...(range ? { '#qs': part.sk } : {}) },
      ExpressionAttributeValues: { ...filter?.values, ':p': part.value, ...(range ? { ':r': 'lt' in range ? range.lt : range.prefix } : {}) },
      ScanIndexForward: true,
      Limit: filter ? Math.max(SOC_QUEUE_READ, opts.limit) : opts.limit,
      ExclusiveStartKey: start,
    });
    items.push(...(res.Items ?? []));
    last = res.LastEvaluatedKey;
    if (!last || items.length >= opts.limit) break;
    start = last as Record<string, string>;
  }
  if (items.length > opts.limit) {
    items.length = opts.limit;
    last = items[items.length - 1];
  }
  return { items: items.map((i) => recordOf(IncidentEntity, i)), nextCursor: encodeKeyCursor(listId, keyNames, last) };
}

/** The count partition of a page's scope: the assignee's (or the unassigned), else the tenant's, else every tenant's. */
function countPk(opts: Pick<SocQueueOptions, 'tenantId' | 'assignee' | 'unassigned'>): string {
  const who = opts.unassigned ? keys.SOCQUEUE_UNASSIGNED : opts.assignee;
  if (who !== undefined) return keys.socQueueCountAssigneePk(who);
  if (opts.tenantId) return keys.socQueueCountTenantPk(opts.tenantId);
  return keys.SOCQUEUE_COUNT_PK;
}

/**
 * The tab counts of a page's scope (docs/sla.md#soc-queue), kept at write time by `socAssignmentWrites`, never
 * counted by reading the queue: every tenant's or the unassigned = ONE Query of the 8 shards' partition (0.5 RCU), a
 * tenant's or an assignee's = ONE GetItem (0.5 RCU). Severity and status filters do not narrow them.
 */
export async function socQueueCounts(opts: Pick<SocQueueOptions, 'tenantId' | 'assignee' | 'unassigned'>, table: TableRef): Promise<SocQueueCounts> {
  const pk = countPk(opts);
  let items: Record<string, unknown>[];
  if (shardsOf(pk) > 1) {
    // The shards share one partition (SK SHARD#0..7): ONE Query reads them all for 0.5 RCU (charged by the bytes
    // returned, < 4 KB), where a BatchGetItem of the 8 keys costs 0.5 RCU per key, 4 RCU
    // (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/read-write-operations.html).
    const res = await table.doc.send('Query', {
      TableName: table.tableName,
      KeyConditionExpression: 'PK = :p AND begins_with(SK, :s)',
      ExpressionAttributeValues: { ':p': pk, ':s': 'SHARD#' },
    });
    items = res.Items ?? [];
  } else {
    const res = await table.doc.send('GetItem', { TableName: table.tableName, Key: keys.socQueueCount(pk, 0) });
    items = res.Item ? [res.Item] : [];
  }
  const sum = (a: 'open' | 'resolved') => Math.max(0, items.reduce((n, i) => n + (typeof i[a] === 'number' ? i[a] : 0), 0));
  return { open: sum('open'), resolved: sum('resolved') };
}

/** The shard of count partition `pk` an incident moves (a fixed function of tenant and id; 0 for an unsharded partition). */
function countShard(pk: string, tenantId: string, id: string): number {
  let h = 0;
  for (const ch of `${tenantId}#${id}`) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return h % shardsOf(pk);
}

/**
 * The changes to the SOC queue counts of an incident going from `before` to `next` (null: none): −1 in the
 * tab it leaves and +1 in the one it enters, in each scope it is counted in (every tenant, its tenant, its
 * assignee or the unassigned). Keyed `<PK>|<shard>`; zero deltas dropped.
 */
export function socQueueCountDeltas(before: Incident | null, next: Incident | null): Map<string, { open: number; resolved: number }> {
  const out = new Map<string, { open: number; resolved: number }>();
  const add = (i: Incident | null, sign: 1 | -1) => {
    const place = i && socQueuePlace(i);
    if (!i || !place) return;
    const tab = place.tab === 'r' ? 'resolved' : 'open';
    for (const pk of [keys.SOCQUEUE_COUNT_PK, keys.socQueueCountTenantPk(i.tenantId), keys.socQueueCountAssigneePk(i.assignee ?? keys.SOCQUEUE_UNASSIGNED)]) {
      const k = `${pk}|${countShard(pk, i.tenantId, i.id)}`;
      const d = out.get(k) ?? { open: 0, resolved: 0 };
      d[tab] += sign;
      out.set(k, d);
    }
  };
  add(before, -1);
  add(next, 1);
  for (const [k, d] of out) if (d.open === 0 && d.resolved === 0) out.delete(k);
  return out;
}

/** The UpdateItem actions (ADD `open`, `resolved`) of `socQueueCountDeltas`. */
export function socQueueCountWrites(table: TableRef, before: Incident | null, next: Incident | null): TransactWriteItem[] {
  return [...socQueueCountDeltas(before, next)].map(([k, d]) => {
    const [pk, shard] = k.split('|') as [string, string];
    return {
      Update: {
        TableName: table.tableName,
        Key: keys.socQueueCount(pk, Number(shard)),
        UpdateExpression: 'ADD #o :o, #r :r SET #e = :e',
        ExpressionAttributeNames: { '#o': 'open', '#r': 'resolved', '#e': 'entity' },
        ExpressionAttributeValues: { ':o': d.open, ':r': d.resolved, ':e': 'SocQueueCount' },
      },
    };
  });
}

/**
 * The TransactWriteItems actions that keep `next`'s SOC queue entry (`SocQueueEntryEntity`) and the queue's
 * tab counts in step with the incident, in the transaction that stores it (docs/sla.md#soc-queue): a Put of
 * the entry while `next` is not closed (the same key for the incident's life, so it moves to a new rank, tab,
 * assignee or due time), a Delete when `before` had one and `next` is closed; and an ADD on each count item
 * whose tab membership changes (create, resolve, close, reopen, reassign: 1 WCU each, up to 6 on a
 * reassignment). The entry is 1–2 WCU + its 4 index entries.
 */
export function socAssignmentWrites(table: TableRef, before: Incident | null, next: Incident): TransactWriteItem[] {
  const counts = socQueueCountWrites(table, before, next);
  if (socQueuePlace(next)) return [{ Put: { TableName: table.tableName, Item: itemOf(SocQueueEntryEntity, next) } }, ...counts];
  if (before && socQueuePlace(before)) return [{ Delete: { TableName: table.tableName, Key: keys.socQueueEntry(next.tenantId, next.id) } }, ...counts];
  return counts;
}

/**
 * The TransactWriteItems action that keeps `next`'s automatic-closure entry (`AutoCloseEntity`) in step with the
 * incident in the transaction that stores it (docs/sla.md#automatic-closure): a Put when `next` is resolved with
 * an `autoCloseAt` that `before` did not have, a Delete when `before` had one and `next` has none (confirmed,
 * reopened, closed); none otherwise. 1 WCU (+ its GSI2 entry), only on entering or leaving `resolved`.
 */
export function autoCloseWrites(table: TableRef, before: Incident | null, next: Incident): TransactWriteItem[] {
  const due = (i: Incident | null) => (i && i.status === 'resolved' && i.autoCloseAt ? i.autoCloseAt : null);
  const was = due(before);
  const now = due(next);
  if (now && now !== was) return [{ Put: { TableName: table.tableName, Item: itemOf(AutoCloseEntity, { tenantId: next.tenantId, incidentId: next.id, autoCloseAt: now }) } }];
  if (was && !now) return [{ Delete: { TableName: table.tableName, Key: keys.autoCloseEntry(next.tenantId, next.id) } }];
  return [];
}

/** Entries one page of the incidents due to close reads at most (~0.2 KB each: ≤ 3 RCU). */
export const AUTO_CLOSE_PAGE = 100;

/**
 * One page of the resolved incidents of every tenant due to close automatically at `now` (docs/sla.md#automatic-closure):
 * ONE Query of GSI2 `AUTOCLOSE`, `GSI2SK < <now>#~` (`<autoCloseAt>#<t>#<id>`), oldest due first, `limit` entries
 * from `start` (the previous page's `LastEvaluatedKey`). Reads only entries that are due, whatever the number
 * of tenants or of incidents resolved and not due yet.
 */
export async function listAutoCloseDue(
  table: TableRef,
  now: Date,
  limit = AUTO_CLOSE_PAGE,
  start?: Record<string, unknown>,
): Promise<{ items: { tenantId: string; incidentId: string; autoCloseAt: string }[]; next: Record<string, unknown> | undefined }> {
  const res = await table.doc.send('Query', {
    TableName: table.tableName,
    IndexName: indexOf('autoClose'),
    KeyConditionExpression: 'GSI2PK = :p AND GSI2SK < :u',
    ExpressionAttributeValues: { ':p': keys.AUTOCLOSE_GSI2PK, ':u': `${now.toISOString()}#~` },
    ScanIndexForward: true,
    Limit: limit,
    ...(start ? { ExclusiveStartKey: start } : {}),
  });
  return { items: (res.Items ?? []).map((i) => recordOf(AutoCloseEntity, i)), next: res.LastEvaluatedKey };
}

/**
 * A stored public comment's search words (docs/data-model.md#search), written after its transaction; a failure
 * is left to the outbox consumer's repair from the comment's event (`ensureCommentTokens`), never to the caller.
 */
async function indexComment(table: TableRef, tenantId: string, incidentId: string, comment: IncidentComment): Promise<void> {
  try {
    await putCommentTokens(table, tenantId, incidentId, comment);
  } catch {
    // Completed from the event (module doc of comment-search.ts).
  }
}

/** Adds a comment in one transaction with a ConditionCheck that the incident exists; false if it does not. */
export function addIncidentComment(tenantId: string, incidentId: string, comment: IncidentComment, table: TableRef, audit?: AuditEntry): Promise<boolean> {
  // A transaction conflict (the incident is being updated right now) is retried: a comment does not depend on its version.
  return withRetries(`addComment to ${incidentId}`, async () => {
    try {
      await table.doc.send('TransactWriteItems', {
        TransactItems: [
          { ConditionCheck: { TableName: table.tableName, Key: keys.incident(tenantId, incidentId), ConditionExpression: 'attribute_exists(PK)' } },
          { Put: { TableName: table.tableName, Item: commentItem(tenantId, incidentId, comment), ConditionExpression: 'attribute_not_exists(SK)' } },
          ...(audit ? [auditPut(audit, table)] : []),
          activityPut(incidentCommentEvent(tenantId, incidentId, comment), table),
        ],
      });
      await indexComment(table, tenantId, incidentId, comment);
      return true;
    } catch (e) {
      if (isConditionFailureInTransaction(e, 0)) return false;
      throw e;
    }
  });
}

/** The incident storage as an `IncidentsPort`. */
export function incidentsRepository(table: TableRef): IncidentsPort {
  return {
    createIncident: (t, build, auditOf, links) => createIncident(t, build, table, auditOf, links),
    getAlarms: (t, refs) => getAlarmsByRef(t, refs, table, true),
    getIncident: (t, id) => getIncident(t, id, table),
    getIncidentDetail: (t, id, opts) => getIncidentDetail(t, id, table, opts),
    listIncidents: (t, opts) => listIncidents(t, opts, table),
    saveUpdate: (t, next, current, change, comment, audit) => saveIncidentUpdate(t, next, current, change, comment, table, audit),
    listSocQueue: (opts) => listSocQueue(opts, table),
    addComment: (t, id, c, audit) => addIncidentComment(t, id, c, table, audit),
    addInternalNote: (t, id, n, audit) => addIncidentNote(t, id, n, table, audit),
    searchComments: (t, opts) => searchComments(table, t, opts),
  };
}
