/**
 * Every entity stored in the single table, declared once (in the manner of ElectroDB / dynamodb-toolbox
 * models, without their AWS SDK dependency): its primary key, every index it is in with its key builders
 * (`indexes`, ElectroDB's shape; the index comes from the access pattern that queries it), the explicit list
 * of attributes it stores, its TTL and how it is read and listed. Key strings are spelled in
 * `keys.ts`; docs/data-model.md is the table of these declarations (`test/integration/data-entities.test.ts`
 * keeps the two equal).
 *
 * The two directions of the mapping:
 *  - `itemOf(entity, record)`: the stored item = keys + the GSI keys of its `indexes` + `entity` marker + the
 *    declared attributes (those of `omitNull` only when not null) + `derived` attributes + the TTL attribute. Nothing else of `record` is stored.
 *  - `recordOf(entity, item)`: the API object = the declared attributes present on the item (plus
 *    `readDefaults` for attributes older items lack). Keys, the marker, the TTL, derived and internal
 *    attributes, and any attribute added to an item later, never reach a response.
 */
import type { Attachment } from '../contract/attachments.js';
import type { EscalationContacts } from '../contract/escalation-contacts.js';
import type { MaintenanceWindow } from '../contract/maintenance-windows.js';
import type { AccessRequest, ActivityEvent, AlarmConsoleItem, AuditEntry, DeviceAlarm, Incident, IncidentChange, IncidentComment, Office365Alarm, Office365Event, Recommendation, Tenant } from '../contract/schemas.js';
import type { DailyAvailability, StoredDevice } from '../domain/ports.js';
import type { StoredIdentityProvider } from '../domain/identity-providers.js';
import { deviceIpKey, deviceNameKey, foldText } from '../domain/search.js';
import { TABLE_DESIGN } from './table/table-design.js';
import { keys } from './table/keys.js';
import { INDEX_ACCESS, type IndexAccessId } from './access-patterns.js';
import type { Retention } from './retention.js';

/** Primary key of an item. */
export type ItemKey = {
  PK: string;
  SK: string;
};
/** GSI1 keys of an item (the tenant-scoped list it appears in). */
export type Gsi1Key = {
  GSI1PK: string;
  GSI1SK: string;
};

/**
 * One global secondary index an entity's items are in, with the builders of the item's key attributes in it
 * (the shape of ElectroDB's `indexes` entries; issue 30 point 1, "Access patterns are data"). `access` is the
 * access pattern that queries this index's partitions (`access-patterns.ts`): the GSI, its key attribute names
 * and the `IndexName` of the Query all come from it, so the writer, the Query and the IAM grant name one index.
 * `pk`/`sk` are the values of the index's partition and sort key attributes; the strings are spelled in `keys.ts`.
 */
export interface IndexDeclaration<R> {
  /** The access pattern (and so the GSI) this index entry is queried by. */
  readonly access: IndexAccessId;
  /** Value of the GSI's partition key attribute (e.g. `GSI3PK`). */
  readonly pk: (r: R) => string;
  /** Value of the GSI's sort key attribute (e.g. `GSI3SK`; GSI4's is `GSI2SK`). */
  readonly sk: (r: R) => string;
  /** Whether `r` is in this index (a sparse index); always when absent. */
  readonly when?: (r: R) => boolean;
  /**
   * Set when `itemOf` does NOT write these keys: a dedicated write adds and removes them (`indexKeys` of this
   * declaration), named here for the docs. E.g. an activity event's outbox entry, a device's below-SLA entry.
   */
  readonly writtenBy?: string;
}

/** The indexes of an entity by name (ElectroDB `indexes`): one declaration per index entry of its items. */
export type IndexDeclarations<R> = Readonly<Record<string, IndexDeclaration<R>>>;

/** The GSI (`TABLE_DESIGN.gsiN`) of an index declaration: its access pattern's. */
export function gsiOf(d: IndexDeclaration<never>): (typeof INDEX_ACCESS)[IndexAccessId]['index'] {
  return INDEX_ACCESS[d.access].index;
}

/**
 * The key attributes one index declaration gives `r` (`{ GSI3PK, GSI3SK }`), or `{}` when `r` is not in that
 * sparse index. For the dedicated writes of a `writtenBy` declaration, and by `indexKeysOf`.
 */
export function indexKeys<R>(d: IndexDeclaration<R>, r: R): Record<string, string> {
  if (d.when && !d.when(r)) return {};
  const g = gsiOf(d as IndexDeclaration<never>);
  return { [g.partitionKey]: d.pk(r), [g.sortKey]: d.sk(r) };
}

/**
 * The index `name` that `entity` declares (`entity.indexes[name]`), for a dedicated write or a Query of it.
 * @throws Error when the entity declares no index of that name (a typo must not write an undeclared key).
 */
export function declaredIndex<R extends object, A extends object>(entity: Entity<R, A>, name: string): IndexDeclaration<R> {
  const d = entity.indexes?.[name];
  if (!d) throw new Error(`${entity.name} declares no index ${name}`);
  return d;
}

/**
 * Every GSI key attribute `itemOf` writes for `record`: those of each of the entity's `indexes` (but the
 * `writtenBy` ones) that `record` is in. Two declarations may share an attribute (GSI4 sorts by `GSI2SK`)
 * only with the same value; a different one throws (the declarations disagree).
 */
export function indexKeysOf<R extends object, A extends object>(entity: Entity<R, A>, record: R): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, d] of Object.entries(entity.indexes ?? {})) {
    if (d.writtenBy) continue;
    for (const [attr, value] of Object.entries(indexKeys(d, record))) {
      if (out[attr] !== undefined && out[attr] !== value) throw new Error(`${entity.name}: index ${name} writes ${attr} = ${value}, another index ${out[attr]}`);
      out[attr] = value;
    }
  }
  return out;
}

/**
 * Declaration of one entity. `R` is what a write receives (the API object plus the ids of its parents,
 * e.g. a comment's `incidentId`); `A` is the API object read back (by default `R`).
 */
export interface Entity<R extends object, A extends object = R> {
  /** Value of the `entity` attribute on every item of this type. */
  readonly name: string;
  /** What the entity is, in one line (docs/data-model.md). */
  readonly description: string;
  readonly key: (r: R) => ItemKey;
  /**
   * Every index the items are in (ElectroDB `indexes`), with their key builders: `itemOf` writes the GSI key
   * attributes from these only (`indexKeysOf`), and the Queries of these indexes take the `IndexName` from the
   * declaration's access pattern.
   */
  readonly indexes?: IndexDeclarations<R>;
  /**
   * The GSI1 keys of the entity's tenant list (its GSI1 `indexes` entry: `gsi1Of`), or undefined when this item
   * is not in one; the docs table's GSI1 columns. Not written from here: `itemOf` writes `indexes`.
   */
  readonly gsi1?: (r: R) => Gsi1Key | undefined;
  /** GSI1 keys in words, for the documentation (e.g. only some history entries are indexed). */
  readonly gsi1Note?: string;
  /** The attributes stored from `R`, in order; the API object is built from these only. */
  readonly attributes: readonly (keyof R & string)[];
  /** Non-key attributes computed from `R` at write time and stored, never returned (e.g. `upnKey`); GSI keys are `indexes`. */
  readonly derived?: (r: R) => Record<string, unknown>;
  /** Attributes stored by dedicated updates (counters, roll-ups), never returned as API fields. */
  readonly internal?: readonly string[];
  /** Values for declared attributes an older item lacks. */
  readonly readDefaults?: Partial<A>;
  /**
   * Declared attributes a Put (`itemOf`) does not store while their value is null: absent reads as null (each
   * has a null `readDefaults`). A list page then reads fewer bytes (an open incident has no resolution, closure
   * or SLA result yet; docs/data-model.md#soc-queue). Only for entities always written whole by Put (an
   * UpdateItem `SET` of `attributesOf` would leave an old value in place); nothing may tell an absent one from
   * a null one (`attribute_exists`, `= :null`); a FilterExpression `IN`/`=` on a value matches neither.
   */
  readonly omitNull?: readonly (keyof R & string)[];
  /** Builds the API object from the declared attributes when it is not a plain copy of them. */
  readonly read?: (picked: Partial<R>) => A;
  /** The TTL (`expiresAt`, epoch seconds) for `r`, or undefined when the item never expires. */
  readonly ttl?: (r: R, retention: Retention) => number | undefined;
  /** The TTL rule in words (docs). */
  readonly ttlNote?: string;
  /** How items of this entity are read besides their GSI1 `list` (docs). */
  readonly readBy?: string;
  /**
   * The tenant's GSI1 list of this entity, when it has one: its partition, whether the sort key starts with
   * an ISO instant (`from`/`to` bound it) and the default order.
   */
  readonly list?: { readonly gsi1pk: (tenantId: string) => string; readonly byTime: boolean; readonly newestFirst: boolean };
}

/**
 * `attributes` written so that TypeScript fails when `A` gains a field the declaration does not list:
 * `allOf<Incident>()(['id', …])`.
 */
export function allOf<A extends object>() {
  return <const L extends readonly (keyof A & string)[]>(list: L & ([Exclude<keyof A, L[number]>] extends [never] ? unknown : { missing: Exclude<keyof A, L[number]> })): L => list;
}

/**
 * The GSI1 keys (`{ GSI1PK, GSI1SK }`) of a GSI1 index declaration, undefined when the record is not in it:
 * the `gsi1` view of an entity's tenant list.
 */
export function gsi1Of<R>(d: IndexDeclaration<R>): (r: R) => Gsi1Key | undefined {
  if (gsiOf(d as IndexDeclaration<never>) !== TABLE_DESIGN.gsi1) throw new Error(`gsi1Of: ${d.access} is not on GSI1`);
  return (r) => (d.when && !d.when(r) ? undefined : { GSI1PK: d.pk(r), GSI1SK: d.sk(r) });
}

/**
 * A GSI1 tenant list (access pattern `tenantLists`) from a `keys.ts` builder of its `{ GSI1PK, GSI1SK }`.
 */
function tenantList<R>(gsi1: (r: R) => Gsi1Key, when?: (r: R) => boolean): IndexDeclaration<R> {
  return { access: 'tenantLists', pk: (r) => gsi1(r).GSI1PK, sk: (r) => gsi1(r).GSI1SK, ...(when ? { when } : {}) };
}

/**
 * Indexes, GSI1 view and list of an entity listed newest first by the ISO-8601 instant its GSI1 sort key starts
 * with (`from`/`to` bound it): its tenant list `list` plus `more` indexes.
 */
function newestFirstByTime<R extends object>(gsi1pk: (tenantId: string) => string, gsi1: (r: R) => Gsi1Key, more: IndexDeclarations<R> = {}) {
  const list = tenantList(gsi1);
  return { indexes: { list, ...more }, gsi1: gsi1Of(list), list: { gsi1pk, byTime: true, newestFirst: true } } as const;
}

/** A UPN as it appears in a key: folded (`foldText`) and trimmed. */
const foldUpn = (upn: string): string => foldText(upn).trim();

const DAY_S = 86_400;
/** Epoch seconds of an ISO-8601 instant or a `yyyy-mm-dd` day (00:00 UTC) plus `days`. */
const epochPlusDays = (isoOrDay: string, days: number): number =>
  Math.floor(Date.parse(isoOrDay.length === 10 ? `${isoOrDay}T00:00:00Z` : isoOrDay) / 1000) + days * DAY_S;

/** Cleared device alarms expire this many days after `clearedAt` (fixed, not configured per stage). */
export const CLEARED_ALARM_RETENTION_DAYS = 90;


/** Whether a history entry takes its incident out of `new` (its first response; MTTA in reports). */
export const isFirstResponse = (h: IncidentChange): boolean => h.changes.some((c) => c.field === 'status' && c.from === 'new');

export const TenantEntity: Entity<Tenant> = {
  name: 'Tenant',
  description: 'One customer tenant of the registry (membership comes from Cognito groups)',
  readBy: 'Query `PK = TENANTS` (ordered by id)',
  key: (t) => keys.tenant(t.id),
  attributes: allOf<Tenant>()(['id', 'name', 'slaTargets', 'availabilityTargetPct', 'autoCloseDays']),
  internal: ['collectors', 'userCount'],
};

/** A member of a tenant's Cognito group as the registry counts it (`TenantMemberRecord`). */
export interface TenantMemberRecord {
  tenantId: string;
  username: string;
  addedAt: string;
}

/**
 * One member of a tenant's Cognito group, the ledger behind the registry's `userCount` (docs/data-model.md#tenant-counts):
 * Put `attribute_not_exists` / Delete `attribute_exists` in the transaction that moves the count, so a retried
 * membership change counts once.
 */
export const TenantMemberEntity: Entity<TenantMemberRecord> = {
  name: 'TenantMember',
  description: "A member of the tenant's Cognito group: the ledger that keeps the registry's `userCount` exact under retries",
  readBy: 'Put/Delete (conditional) with the `userCount` ADD in one transaction; Query `PK = TENANT#<t>#MEMBERS` by the backfill and drift check only',
  key: (m) => keys.tenantMember(m.tenantId, m.username),
  attributes: allOf<TenantMemberRecord>()(['tenantId', 'username', 'addedAt']),
};

/**
 * A tenant's staff-configured enterprise identity provider (`lambdas/domain/identity-providers.ts`); its key is the
 * Cognito provider name, which is what the pre token generation trigger knows of a federated user.
 */
export const TenantIdentityProviderEntity: Entity<StoredIdentityProvider> = {
  name: 'TenantIdentityProvider',
  description: "A tenant's enterprise identity provider (OIDC/SAML) configured by staff: the provider → tenant binding and its e-mail domains; the client secret only by its Secrets Manager name",
  readBy: 'GetItem by provider name (the staff screen derives it from the tenant id; the trigger reads the user\'s `identities`)',
  key: (p) => keys.identityProvider(p.providerName),
  attributes: allOf<StoredIdentityProvider>()(['tenantId', 'providerName', 'type', 'issuerUrl', 'clientId', 'scopes', 'metadataUrl', 'emailDomains', 'clientSecretSet', 'updatedAt', 'secretName']),
};

/**
 * The per-tenant incident number counter as stored before `AGGREGATES_VERSION` 3 (item `COUNTER#INCIDENT`).
 * Now attribute `incidentSeq` of the tenant's stats item (`INCIDENT_SEQ` in `aggregates.ts`); an old item is
 * read by a create only while the stats item has no counter, and the aggregates' rebuild moves and deletes it.
 */
export interface IncidentCounterRecord {
  tenantId: string;
  /** Last issued number of `INC-<seq>`. */
  seq: number;
}
export const IncidentCounterEntity: Entity<IncidentCounterRecord, { seq: number }> = {
  name: 'Counter',
  description: 'The last number issued for `INC-<seq>` in the tenant, where it was kept before the aggregates version 3 (now `incidentSeq` of the `STATS` item; the rebuild moves it and deletes this item)',
  readBy: 'GetItem (consistent) by a create while the stats item has no incidentSeq (not migrated yet)',
  key: (c) => keys.incidentCounter(c.tenantId),
  attributes: allOf<{ seq: number }>()(['seq']),
};

/**
 * GSI3 `TENANT#<t>#INCSTATUS#<status>`, `<createdAt>#<id>`: every incident in the partition of its status
 * (docs/data-model.md#search). Its `pk` needs only the tenant and the status, so the status filter's Query
 * builds its partitions with it.
 */
export const INCIDENT_BY_STATUS = {
  access: 'incidentsByStatus',
  pk: (i: Pick<Incident, 'tenantId' | 'status'>) => keys.incidentStatusGsi3Pk(i.tenantId, i.status),
  sk: (i: Incident) => keys.incidentStatusGsi3(i.tenantId, i.id, i.status, i.createdAt).GSI3SK,
} as const satisfies IndexDeclaration<Incident>;

export const IncidentEntity: Entity<Incident> = {
  name: 'Incident',
  description: 'Incident; `version` is the optimistic-concurrency check of every update',
  readBy: '`from`/`to` bound `createdAt`; also oldest first (`sort=oldest`); with its comments and history: Query the incident partition',
  key: (i) => keys.incident(i.tenantId, i.id),
  ...newestFirstByTime<Incident>(keys.incidentsGsi1Pk, (i) => keys.incidentGsi1(i.tenantId, i.id, i.createdAt), {
    byStatus: INCIDENT_BY_STATUS,
    socQueue: { access: 'socQueue', when: (i) => inSocQueueByDue(i), pk: () => keys.SOCQUEUE_GSI2PK, sk: (i) => keys.socQueueGsi2(i.tenantId, i.id, i.slaDueAt).GSI2SK },
    socQueueOfTenant: { access: 'socQueueOfTenant', when: (i) => inSocQueueByDue(i), pk: (i) => keys.socQueueTenantGsi4Pk(i.tenantId), sk: (i) => keys.socQueueGsi2(i.tenantId, i.id, i.slaDueAt).GSI2SK },
  }),
  attributes: allOf<Incident>()(['id', 'tenantId', 'title', 'description', 'severity', 'status', 'category', 'source', 'reporter', 'reporterSub', 'assignee', 'createdAt', 'updatedAt', 'resolvedAt', 'slaDueAt', 'version', 'slaTargets', 'triagedAt', 'firstAcknowledgedAt', 'closureRequested', 'closedAt', 'slaResult', 'autoCloseAt', 'alarms']),
  // Items written before the SLA fields existed read as untriaged, unacknowledged and open (the upgrade
  // step fills them: lambdas/data/migrations.ts).
  readDefaults: { assignee: null, resolvedAt: null, slaTargets: null, triagedAt: null, firstAcknowledgedAt: null, closureRequested: false, closedAt: null, slaResult: null },
  // Not stored while null (`omitNull`): a page of 20 open incidents reads ~1 KB less (docs/data-model.md#soc-queue).
  // `closureRequested` stays stored when false: the SLA upgrade finds items without it (lambdas/data/migrations.ts).
  omitNull: ['assignee', 'resolvedAt', 'slaTargets', 'triagedAt', 'firstAcknowledgedAt', 'closedAt', 'slaResult'],
  // An open incident (neither resolved nor closed) is in the SOC queue by SLA due time (GSI2 `SOCQUEUE`); a
  // resolved or closed one is not (a Put without the attributes removes it): the SLA job and the reports read
  // only unresolved incidents there. docs/sla.md#soc-queue. Every incident is in the GSI3 partition of its
  // status (docs/data-model.md#search), moved by the Put that changes the status.
  // An open incident is also in its tenant's queue by due time (GSI4 `TENANT#<t>#SOCQUEUE`, sorted by the same
  // GSI2SK), so the queue filtered by customer is one Query of that tenant's partition. The ranked queue and
  // the resolved tab are the incident's queue entry (`SocQueueEntryEntity`).
};

/** Whether an incident is in the SOC queue by due time (GSI2 `SOCQUEUE`, GSI4): open, neither resolved nor closed. */
export function inSocQueueByDue(i: Pick<Incident, 'status'>): boolean {
  return i.status !== 'closed' && i.status !== 'resolved';
}

/**
 * The SOC queue tab and rank of an incident (docs/sla.md#soc-queue), null when it is in no tab (closed):
 * resolved → tab `r`, rank `9` (waiting for the customer); otherwise tab `o` and rank `1` when it is still
 * untriaged (`triagedAt` null) or `new` (nobody acknowledged it), `2` for the rest of the open work. The rank
 * is the prefix of the ranked sort key; within a rank the entries follow SLA due time, so those at risk
 * (due within `SOC_AT_RISK_MINUTES` or breached) lead rank 2 at any instant without re-keying.
 */
export function socQueuePlace(i: Pick<Incident, 'status' | 'triagedAt'>): { tab: 'o' | 'r'; rank: '1' | '2' | '9' } | null {
  if (i.status === 'closed') return null;
  if (i.status === 'resolved') return { tab: 'r', rank: '9' };
  return { tab: 'o', rank: i.triagedAt === null || i.status === 'new' ? '1' : '2' };
}

/**
 * A not-closed incident's entry in the SOC queue (docs/sla.md#soc-queue): a copy of the incident (same
 * attributes), Put in the transaction that stores the incident while it is open or resolved, Deleted by the
 * one that closes it; one key for the incident's whole life, so a Put moves it to a new rank, tab, assignee
 * or due time. Its keys (`socQueueEntryIndexKeys`) place it in the ranked queue of every tenant (GSI2
 * `SOCQUEUE#RANKED`), of its tenant (GSI4 `TENANT#<t>#SOCQUEUE#RANKED`) and of its assignee or the
 * unassigned (GSI1 `SOCQUEUE#ASSIGNEE#<a|->#RANKED`), and in that assignee's queue by due time (GSI3
 * `SOCQUEUE#ASSIGNEE#<a|->`), so each view of each tab is one Query of its own partition.
 */
export const SocQueueEntryEntity: Entity<Incident> = {
  name: 'SocQueueEntry',
  description: "A not-closed incident's entry in the SOC queue: a copy of the incident, kept by the incident's own transactions",
  readBy: 'Query GSI2 `SOCQUEUE#RANKED`, GSI4 `TENANT#<t>#SOCQUEUE#RANKED`, GSI1 `SOCQUEUE#ASSIGNEE#<a|->#RANKED` (`<rank>#<slaDueAt>#<t>#<id>`) or GSI3 `SOCQUEUE#ASSIGNEE#<a|->` (`<tab>#<slaDueAt>#<t>#<id>`), ascending',
  key: (i) => keys.socQueueEntry(i.tenantId, i.id),
  // Not its linked alarms (`alarms`, up to 20 references): the queue page does not show them.
  attributes: IncidentEntity.attributes.filter((a) => a !== 'alarms'),
  readDefaults: IncidentEntity.readDefaults,
  omitNull: IncidentEntity.omitNull,
  indexes: {
    ranked: queueEntryIndex('socQueueRanked', 'GSI2PK', 'GSI2SK'),
    rankedOfTenant: queueEntryIndex('socQueueRankedOfTenant', 'GSI4PK', 'GSI2SK'),
    rankedOfAssignee: queueEntryIndex('socQueueRankedOfAssignee', 'GSI1PK', 'GSI1SK'),
    ofAssignee: queueEntryIndex('socQueueOfAssignee', 'GSI3PK', 'GSI3SK'),
  },
};

/** The keys of a queue entry in its four indexes (`keys.socQueueEntryIndexKeys`), or null when it is in no tab. */
function queueEntryKeys(i: Incident): ReturnType<typeof keys.socQueueEntryIndexKeys> | null {
  const place = socQueuePlace(i);
  return place ? keys.socQueueEntryIndexKeys({ tenantId: i.tenantId, id: i.id, slaDueAt: i.slaDueAt, assignee: i.assignee, ...place }) : null;
}

/** One index of a queue entry: its pair of `keys.socQueueEntryIndexKeys`, while the entry is in a tab. */
function queueEntryIndex(access: IndexAccessId, pk: keyof NonNullable<ReturnType<typeof queueEntryKeys>>, sk: keyof NonNullable<ReturnType<typeof queueEntryKeys>>): IndexDeclaration<Incident> {
  return { access, when: (i) => socQueuePlace(i) !== null, pk: (i) => queueEntryKeys(i)![pk], sk: (i) => queueEntryKeys(i)![sk] };
}

/**
 * One search token of an incident title (docs/data-model.md#search): in the token's partition, sorted like the
 * incident list (`<createdAt>#<id>`); `tokens` are every token of the title it was written for (the other
 * words of a query are checked on them before the incident is read).
 */
export interface SearchTokenRecord {
  tenantId: string;
  token: string;
  incidentId: string;
  incidentCreatedAt: string;
  tokens: string[];
}
export const SearchTokenEntity: Entity<SearchTokenRecord, Pick<SearchTokenRecord, 'tokens'>> = {
  name: 'SearchToken',
  description: 'A word of an incident title (folded, stop words dropped: `searchTokens` in lambdas/domain/search.ts) pointing at the incident',
  readBy: 'Query `PK = TENANT#<t>#SEARCH#<token>`, `SK BETWEEN <from> AND <to>#~`, newest first; the other words of the query as a FilterExpression on `tokens`',
  key: (r) => keys.searchToken(r.tenantId, r.token, r.incidentId, r.incidentCreatedAt),
  attributes: ['tokens'],
};

/** A word of a public comment as stored (docs/data-model.md#search). */
export interface CommentTokenRecord {
  tenantId: string;
  token: string;
  incidentId: string;
  commentId: string;
  /** The comment's `createdAt`. */
  commentCreatedAt: string;
  /** The comment's indexed words (`commentTokens`: ≤ 64), for the FilterExpression of a multi-word search. */
  tokens: string[];
}
/**
 * A word of a PUBLIC comment's body pointing at the comment (`lambdas/data/comment-search.ts`). Written after
 * the comment's transaction (and completed from its `incident.commented` event); internal notes never get one.
 */
export const CommentTokenEntity: Entity<CommentTokenRecord, Pick<CommentTokenRecord, 'tokens'>> = {
  name: 'CommentToken',
  description: "A word of a public comment's body (folded, stop words dropped, ≤ 64 per comment) pointing at the comment; never for an internal note",
  readBy: 'Query `PK = TENANT#<t>#CSEARCH#<token>` newest first (`GET /search/comments`); the other words of the query as a FilterExpression on `tokens`',
  key: (r) => keys.commentToken(r.tenantId, r.token, r.commentCreatedAt, r.incidentId, r.commentId),
  attributes: ['tokens'],
};

/** A word of a device alarm's title as stored (docs/data-model.md#search). */
export interface AlarmTokenRecord {
  tenantId: string;
  token: string;
  deviceId: string;
  alarmId: string;
  /** The alarm's `raisedAt`. */
  raisedAt: string;
  /** The title's indexed words (`alarmTokens`: ≤ 16), for the FilterExpression of a multi-word search. */
  tokens: string[];
  /** The alarm's state and `clearedAt`: a cleared alarm's words expire with it. */
  state: DeviceAlarm['state'];
  clearedAt: string | null;
}
/**
 * A word of a device alarm's title pointing at the alarm (`lambdas/data/alarm-search.ts`), written, replaced and
 * deleted in the alarm's own TransactWriteItems; it expires with the alarm (`CLEARED_ALARM_RETENTION_DAYS`).
 */
export const AlarmTokenEntity: Entity<AlarmTokenRecord, Pick<AlarmTokenRecord, 'tokens'>> = {
  name: 'AlarmToken',
  description: "A word of a device alarm's title (folded, stop words dropped, ≤ 16 per alarm) pointing at the alarm",
  readBy: 'Query `PK = TENANT#<t>#ASEARCH#<token>` newest first (`GET /search/alarms`); the other words of the query as a FilterExpression on `tokens`',
  key: (r) => keys.alarmToken(r.tenantId, r.token, r.raisedAt, r.deviceId, r.alarmId),
  attributes: ['tokens'],
  ttl: (r) => (r.state === 'cleared' ? epochPlusDays(r.clearedAt ?? r.raisedAt, CLEARED_ALARM_RETENTION_DAYS) : undefined),
  ttlNote: `its alarm's: cleared alarms \`clearedAt\` + ${CLEARED_ALARM_RETENTION_DAYS} days`,
};

/** A prefix-searchable part of an Office 365 user's UPN as stored (docs/data-model.md#search). */
export interface O365UserRecord {
  tenantId: string;
  /** The part of the UPN this entry is found by (`upnKeys`). */
  part: string;
  /** The UPN as the alert named it (`affectedUser`). */
  upn: string;
  /** `detectedAt` and id of the alert most recently received that named the user. */
  lastAlertAt: string;
  lastAlertId: string;
}
/**
 * An Office 365 user of the tenant, known from the alerts that named them (`affectedUser`;
 * `lambdas/data/o365-user-search.ts`): one item per prefix-searchable part of the UPN, Put in the alert's transaction.
 */
export const O365UserEntity: Entity<O365UserRecord, Pick<O365UserRecord, 'upn' | 'lastAlertAt' | 'lastAlertId'>> = {
  name: 'Office365User',
  description: 'An Office 365 user an alert named (`affectedUser`), once per prefix-searchable part of the UPN (≤ 4), with the alert most recently received about them',
  readBy: 'Query `PK = TENANT#<t>#O365USERS`, `begins_with(SK, <prefix>)` (`GET /search/office365-users`)',
  key: (r) => keys.o365User(r.tenantId, r.part, foldUpn(r.upn)),
  attributes: ['upn', 'lastAlertAt', 'lastAlertId'],
  // The UPN folded, for the FilterExpression of the other words of a search (a filter cannot name the sort key).
  derived: (r) => ({ upnKey: foldUpn(r.upn) }),
};

/** A resolved incident's automatic-closure entry as stored. */
export interface AutoCloseRecord {
  tenantId: string;
  incidentId: string;
  /** ISO-8601 UTC: the incident's `autoCloseAt`. */
  autoCloseAt: string;
}
/**
 * A resolved incident's entry among the incidents due to close automatically (docs/sla.md#automatic-closure):
 * Put by the transaction that resolves the incident (with its `autoCloseAt`), Deleted by the one that takes it
 * out of `resolved` (the customer's confirmation, a reopening, a staff or automatic closure), so the SLA job
 * reads only what is due, whatever the number of tenants.
 */
export const AutoCloseEntity: Entity<AutoCloseRecord> = {
  name: 'AutoCloseEntry',
  description: "A resolved incident's place among those due to close automatically, kept by the incident's own transactions",
  readBy: 'Query GSI2 `AUTOCLOSE`, `GSI2SK < <now>#~` (`<autoCloseAt>#<t>#<id>`), oldest due first (the SLA job)',
  key: (r) => keys.autoCloseEntry(r.tenantId, r.incidentId),
  attributes: allOf<AutoCloseRecord>()(['tenantId', 'incidentId', 'autoCloseAt']),
  indexes: { autoClose: { access: 'autoClose', pk: () => keys.AUTOCLOSE_GSI2PK, sk: (r) => keys.autoCloseGsi2(r.tenantId, r.incidentId, r.autoCloseAt).GSI2SK } },
};

/** A comment as stored: the comment and its incident. */
export type CommentRecord = IncidentComment & { tenantId: string; incidentId: string };
export const CommentEntity: Entity<CommentRecord, IncidentComment> = {
  name: 'IncidentComment',
  description: 'Comment on an incident (in the incident partition)',
  readBy: 'Query `PK = TENANT#<t>#INCIDENT#<id>` (with the incident and its history; oldest first)',
  key: (c) => keys.comment(c.tenantId, c.incidentId, c.createdAt, c.id),
  attributes: allOf<IncidentComment>()(['id', 'author', 'authorSub', 'body', 'createdAt', 'visibility']),
  // Comments written before internal notes existed are public.
  readDefaults: { visibility: 'public' },
};

/**
 * An internal work note on an incident (docs/api.md#internal-notes): written and read by staff only. Stored in
 * a partition of its own (`keys.incidentNotesPk`), never in the incident partition a customer's read queries,
 * never with an activity event (so no e-mail, webhook, bell or digest), not in the title search index.
 */
export const InternalNoteEntity: Entity<CommentRecord, IncidentComment> = {
  name: 'IncidentInternalNote',
  description: 'Staff-only work note on an incident (its own partition: no customer read reaches it; no activity event)',
  readBy: 'Query `PK = TENANT#<t>#INCNOTES#<id>` (oldest first), only for a staff read of the incident',
  key: (c) => keys.incidentNote(c.tenantId, c.incidentId, c.createdAt, c.id),
  attributes: CommentEntity.attributes,
  // Whatever was stored, a note reads as internal.
  read: (c) => ({ ...(c as IncidentComment), visibility: 'internal' }),
};

/** A history entry as stored: the change, its incident and the incident's creation time (GSI1 order). */
export type HistoryRecord = IncidentChange & { tenantId: string; incidentId: string; incidentCreatedAt: string };
/** GSI1 `TENANT#<t>#FIRSTRESPONSES`: only the history entry that takes its incident out of `new`. */
const HISTORY_FIRST_RESPONSES = tenantList<HistoryRecord>((h) => keys.firstResponseGsi1(h.tenantId, h.incidentId, h.incidentCreatedAt, h.version), isFirstResponse);
export const HistoryEntity: Entity<HistoryRecord, IncidentChange> = {
  name: 'IncidentHistory',
  description: 'One accepted incident update: version, who, when, `changes[{field, from, to}]`',
  readBy: 'Query the incident partition; first responses of a period: Query GSI1 `TENANT#<t>#FIRSTRESPONSES`',
  key: (h) => keys.history(h.tenantId, h.incidentId, h.version),
  indexes: { firstResponses: HISTORY_FIRST_RESPONSES },
  gsi1: gsi1Of(HISTORY_FIRST_RESPONSES),
  gsi1Note: 'only the entry that takes the incident out of `new`: its first response',
  attributes: allOf<IncidentChange>()(['version', 'at', 'by', 'bySub', 'changes', 'reason']),
};

/** Roll-up attributes of a device item (docs/data-model.md, "Device roll-ups"). */
export const DEVICE_ROLLUP_ATTRIBUTES = ['openAlarms', 'availRev', 'availAsOf', 'availSum30d', 'availMon30d', 'availPct30d', 'availRollupRev'] as const;

/** GSI1 `TENANT#<t>#DEVICES`: a tenant's devices by folded name (`deviceNameKey`). */
const DEVICE_BY_NAME = tenantList<StoredDevice>((d) => keys.deviceGsi1(d.tenantId, d.id, deviceNameKey(d.name)));

export const DeviceEntity: Entity<StoredDevice> = {
  name: 'Device',
  description: 'Monitored device; `status` is derived from `lastHeartbeatAt` at read time',
  readBy: 'ordered by name ignoring case and accents (`deviceNameKey`); a name prefix (`?prefix=`): `GSI1SK` from the folded prefix to the prefix followed by U+10FFFF; the list reads the roll-ups on the item; devices below the SLA target: Query GSI2 `TENANT#<t>#BELOWSLA` (`GSI2SK = <day>#<figure × 100>#<id>`, set by the roll-up refresh and the SLA job re-key, see "Devices below the SLA target"); by IP address (`?ip=`, exact or prefix): Query GSI3 `TENANT#<t>#DEVICEIP`, `begins_with(GSI3SK, <ip>)`',
  key: (d) => keys.device(d.tenantId, d.id),
  indexes: {
    byName: DEVICE_BY_NAME,
    // Devices by IP address: GSI3 `TENANT#<t>#DEVICEIP`, `<ip>#<id>` (docs/data-model.md#search).
    byIp: { access: 'devicesByIp', pk: (d) => keys.devicesByIpGsi3Pk(d.tenantId), sk: (d) => keys.deviceIpGsi3(d.tenantId, d.id, deviceIpKey(d.ipAddress)).GSI3SK },
  },
  gsi1: gsi1Of(DEVICE_BY_NAME),
  attributes: allOf<StoredDevice>()(['id', 'tenantId', 'name', 'type', 'site', 'ipAddress', 'vendor', 'model', 'lastHeartbeatAt']),
  internal: DEVICE_ROLLUP_ATTRIBUTES,
  readDefaults: { lastHeartbeatAt: null },
  list: { gsi1pk: keys.devicesGsi1Pk, byTime: false, newestFirst: false },
};

/**
 * One day of a device's availability as stored: the figure written by the daily roll-up/seed
 * (`availablePct`, `monitoredSeconds`) and/or the time measured from heartbeats (`hbUpSeconds`,
 * `hbMonitoredSeconds`, seconds), which is preferred when present.
 */
export interface AvailabilityRecord {
  tenantId: string;
  deviceId: string;
  /** yyyy-mm-dd, UTC. */
  date: string;
  availablePct?: number;
  monitoredSeconds?: number;
  hbUpSeconds?: number;
  hbMonitoredSeconds?: number;
}
export const AvailabilityEntity: Entity<AvailabilityRecord, DailyAvailability> = {
  name: 'DailyAvailability',
  description: "One UTC day of a device's availability (roll-up figure and/or heartbeat-measured seconds)",
  readBy: 'Query `PK = TENANT#<t>#DEVICE#<id>`, `SK BETWEEN AVAIL#<from> AND …`',
  key: (d) => keys.availability(d.tenantId, d.deviceId, d.date),
  attributes: allOf<Omit<AvailabilityRecord, 'tenantId'>>()(['deviceId', 'date', 'availablePct', 'monitoredSeconds', 'hbUpSeconds', 'hbMonitoredSeconds']),
  read: (d) => {
    const hbM = Number(d.hbMonitoredSeconds ?? 0);
    if (hbM > 0) return { date: String(d.date), availablePct: Math.min(100, (Number(d.hbUpSeconds ?? 0) / hbM) * 100), monitoredSeconds: hbM };
    return { date: String(d.date), availablePct: Number(d.availablePct ?? 0), monitoredSeconds: Number(d.monitoredSeconds ?? 0) };
  },
  ttl: (d, retention) => epochPlusDays(d.date, retention.availabilityDays),
  ttlNote: 'its date + `retention.availabilityDays` (default 400)',
};

export const AlarmEntity: Entity<DeviceAlarm> = {
  name: 'DeviceAlarm',
  description: 'Device alarm: active → acknowledged → cleared',
  readBy: '`from`/`to` bound `raisedAt`; open alarms of one device: Query its partition',
  key: (a) => keys.alarm(a.tenantId, a.deviceId, a.id),
  ...newestFirstByTime<DeviceAlarm>(keys.alarmsGsi1Pk, (a) => keys.alarmGsi1(a.tenantId, a.deviceId, a.id, a.raisedAt)),
  attributes: allOf<DeviceAlarm>()(['id', 'tenantId', 'deviceId', 'deviceName', 'title', 'severity', 'state', 'raisedAt', 'acknowledgedAt', 'acknowledgedBy', 'acknowledgedBySub', 'clearedAt', 'incidentId', 'inMaintenance', 'maintenanceWindowId']),
  ttl: (a) => (a.state === 'cleared' ? epochPlusDays(a.clearedAt ?? a.raisedAt, CLEARED_ALARM_RETENTION_DAYS) : undefined),
  ttlNote: `cleared alarms: \`clearedAt\` + ${CLEARED_ALARM_RETENTION_DAYS} days`,
};

export const O365AlarmEntity: Entity<Office365Alarm> = {
  name: 'Office365Alarm',
  description: 'Office 365 alert; a newer `updatedAt` replaces it',
  key: (a) => keys.o365Alarm(a.tenantId, a.id),
  ...newestFirstByTime<Office365Alarm>(keys.o365AlarmsGsi1Pk, (a) => keys.o365AlarmGsi1(a.tenantId, a.id, a.detectedAt)),
  attributes: allOf<Office365Alarm>()(['id', 'tenantId', 'title', 'severity', 'category', 'status', 'affectedUser', 'detectedAt', 'updatedAt', 'incidentId', 'acknowledgedAt', 'acknowledgedBy', 'acknowledgedBySub']),
};

/** A console entry as written: the row and which of the alarm's four copies (0–3) it is. */
export interface AlarmConsoleEntryRecord extends AlarmConsoleItem {
  copy: number;
}

/** Copies of each alarm in the console: 4 copies × 4 indexes = the 16 combinations of its 4 filters. */
export const ALARM_CONSOLE_COPIES = 4;
/** The access pattern of each console slot (`alarmConsolePlace`): GSI1, GSI2, GSI3, GSI4. */
export const ALARM_CONSOLE_SLOT_ACCESS = ['alarmConsole1', 'alarmConsole2', 'alarmConsole3', 'alarmConsole4'] as const satisfies readonly IndexAccessId[];
/** The filters of a console page, bit 0 tenant, 1 severity, 2 state, 3 kind (set = filtered). */
export type AlarmConsoleScope = { tenantId?: string | undefined; severity?: string | undefined; state?: string | undefined; kind?: string | undefined };
const scopeMask = (s: AlarmConsoleScope): number =>
  (s.tenantId === undefined ? 0 : 1) | (s.severity === undefined ? 0 : 2) | (s.state === undefined ? 0 : 4) | (s.kind === undefined ? 0 : 8);

/**
 * Where the partition of a console filter combination lives (docs/data-model.md#alarm-console): combination
 * `m` (bit mask of `scopeMask`) is on copy `m >> 2`, index `m & 3` (GSI1, GSI2, GSI3, GSI4; GSI4 sorts by
 * `GSI2SK`), so each of the 16 combinations is ONE partition of one index.
 */
export function alarmConsolePlace(scope: AlarmConsoleScope): { copy: number; slot: 0 | 1 | 2 | 3; pk: string } {
  const m = scopeMask(scope);
  return { copy: m >> 2, slot: (m & 3) as 0 | 1 | 2 | 3, pk: keys.alarmConsolePk(scope) };
}

/**
 * The index of console slot `slot` (`ALARM_CONSOLE_SLOT_ACCESS`): copy `copy` of an entry is in the partition of
 * combination `(copy << 2) | slot` there, sorted newest first by `alarmConsoleSk`.
 */
function alarmConsoleIndex(slot: 0 | 1 | 2 | 3): IndexDeclaration<AlarmConsoleEntryRecord> {
  return {
    access: ALARM_CONSOLE_SLOT_ACCESS[slot],
    pk: (e) => {
      const m = (e.copy << 2) | slot;
      return keys.alarmConsolePk({
        tenantId: m & 1 ? e.tenantId : undefined,
        severity: m & 2 ? e.severity : undefined,
        state: m & 4 ? e.state : undefined,
        kind: m & 8 ? e.kind : undefined,
      });
    },
    sk: (e) => keys.alarmConsoleSk(e.raisedAt, e.tenantId, e.kind, e.deviceId === null ? e.id : `${e.deviceId}#${e.id}`),
  };
}

/**
 * One of the four copies of an alarm's entry in the staff alarm console (docs/data-model.md#alarm-console):
 * written (Put, all four) in the transaction that raises, moves or renames the device alarm, or stores the
 * Office 365 alert; each copy's four index keys place it in four of the 16 filter combinations
 * (`alarmConsolePlace`), so a console page is ONE Query of one partition whatever the filters.
 */
export const AlarmConsoleEntryEntity: Entity<AlarmConsoleEntryRecord, AlarmConsoleItem> = {
  name: 'AlarmConsoleEntry',
  description: "A copy (one of 4) of a device alarm's or an Office 365 alert's row in the staff alarm console, kept by the alarm's own transactions",
  readBy: 'ONE Query of the partition of the filter combination (`alarmConsolePlace`: on GSI1–GSI4, `ALARMCONSOLE#<severity>#<state>#<kind>` for every tenant or `TENANT#<t>#ALARMCONSOLE#<severity>#<state>#<kind>`, `*` for a filter not set), sorted `<raisedAt>#<t>#<kind>#<ref>`, newest first; SK of an Office 365 alert: `office365#<id>#<copy>`',
  key: (e) => keys.alarmConsoleEntry(e.tenantId, e.kind, e.deviceId === null ? e.id : `${e.deviceId}#${e.id}`, e.copy),
  attributes: allOf<AlarmConsoleItem>()(['kind', 'tenantId', 'id', 'deviceId', 'deviceName', 'affectedUser', 'title', 'severity', 'state', 'sourceState', 'raisedAt', 'acknowledgedAt', 'acknowledgedBy', 'clearedAt', 'inMaintenance']),
  indexes: {
    slot0: alarmConsoleIndex(0),
    slot1: alarmConsoleIndex(1),
    slot2: alarmConsoleIndex(2),
    slot3: alarmConsoleIndex(3),
  },
  ttl: (e) => (e.kind === 'device' && e.state === 'cleared' ? epochPlusDays(e.clearedAt ?? e.raisedAt, CLEARED_ALARM_RETENTION_DAYS) : undefined),
  ttlNote: `cleared device alarms: \`clearedAt\` + ${CLEARED_ALARM_RETENTION_DAYS} days (as the alarm)`,
};

export const O365EventEntity: Entity<Office365Event> = {
  name: 'Office365Event',
  description: 'Office 365 unified audit log record (subset)',
  key: (e) => keys.o365Event(e.tenantId, e.id),
  ...newestFirstByTime<Office365Event>(keys.o365EventsGsi1Pk, (e) => keys.o365EventGsi1(e.tenantId, e.id, e.at)),
  attributes: allOf<Office365Event>()(['id', 'tenantId', 'workload', 'operation', 'user', 'result', 'clientIp', 'at']),
  ttl: (e, retention) => epochPlusDays(e.at, retention.o365EventDays),
  ttlNote: '`at` + `retention.o365EventDays` (default 90)',
};

export const RecommendationEntity: Entity<Recommendation> = {
  name: 'Recommendation',
  description: 'Security recommendation; last status change in `statusNote` / `statusChangedBy` / `statusChangedAt`',
  key: (r) => keys.recommendation(r.tenantId, r.id),
  ...newestFirstByTime<Recommendation>(keys.recommendationsGsi1Pk, (r) => keys.recommendationGsi1(r.tenantId, r.id, r.createdAt)),
  attributes: allOf<Recommendation>()(['id', 'tenantId', 'title', 'rationale', 'priority', 'category', 'status', 'createdAt', 'statusNote', 'statusChangedBy', 'statusChangedBySub', 'statusChangedAt']),
};

/** An audit entry as stored: the API object (its `tenantId` and `at` place it in the lists). */
export const AuditEntity: Entity<AuditEntry> = {
  name: 'AuditEntry',
  description: 'Audit log entry: actor, action, target, before/after of the changed fields, request id, source IP',
  readBy: 'all tenants (staff): Query GSI2 `GSI2PK = AUDIT` (`GSI2SK = <at>#<tenantId>#<id>`, newest first)',
  key: (e) => keys.audit(e.tenantId, e.at, e.id),
  ...newestFirstByTime<AuditEntry>(keys.auditGsi1Pk, (e) => keys.auditGsi1(e.tenantId, e.at, e.id), {
    allTenants: { access: 'auditAllTenants', pk: () => keys.AUDIT_GSI2PK, sk: (e) => keys.auditGsi2(e.tenantId, e.at, e.id).GSI2SK },
  }),
  attributes: allOf<AuditEntry>()(['id', 'at', 'tenantId', 'actor', 'action', 'target', 'before', 'after', 'requestId', 'sourceIp']),
  ttl: (e, retention) => epochPlusDays(e.at, retention.auditDays),
  ttlNote: '`at` + `retention.auditDays` (default 400; production stages ≥ 400)',
};

/** Activity events expire this many days after `at` (the feed shows recent activity; fixed, not per stage). */
export const ACTIVITY_RETENTION_DAYS = 180;

/**
 * An activity event (docs/notifications.md): the feed of the tenant, newest first by SK. `outbox` is `PENDING`
 * until the delivery side has handled it; the delivery side finds new events in the feed itself (DynamoDB
 * stream in AWS, the sweep's per-tenant outbox mark), so the item written in a change's transaction has no
 * index entry. Only `putActivityEventOnce` (SLA job, demo seed: events dated in the past) adds the sparse GSI2
 * `OUTBOX` entry (docs/notifications.md#outbox).
 */
/**
 * The sparse GSI2 `OUTBOX` entry of a PENDING event (`<at>#<t>#<eventId>`, oldest first): not written by
 * `itemOf` (the events of a change's transaction have none) but by `putActivityEventOnce`; REMOVEd once delivered.
 */
export const ACTIVITY_OUTBOX_INDEX: IndexDeclaration<ActivityEvent> = {
  access: 'outbox',
  when: (e) => e.outbox === 'PENDING',
  pk: () => keys.OUTBOX_GSI2PK,
  sk: (e) => keys.outboxGsi2(e.tenantId, e.at, e.eventId).GSI2SK,
  writtenBy: '`putActivityEventOnce` only; REMOVEd once delivered',
};

export const ActivityEventEntity: Entity<ActivityEvent> = {
  name: 'ActivityEvent',
  description: 'Activity event of the tenant (written in the transaction of the change it describes); `outbox` PENDING until delivered',
  readBy: 'Query `PK = TENANT#<t>#ACTIVITY`, `SK BETWEEN EV# AND EV#~`, newest first; unread: `SK > EV#<seenAt>#~`, `Select=COUNT`; pending delivery: per tenant, Query `SK BETWEEN <outbox mark> AND EV#~` with `outbox = PENDING` as a filter, and Query GSI2 `GSI2PK = OUTBOX` (entries only of events written by `putActivityEventOnce`, while PENDING)',
  key: (e) => keys.activityEvent(e.tenantId, e.at, e.eventId),
  indexes: { outbox: ACTIVITY_OUTBOX_INDEX },
  attributes: allOf<ActivityEvent>()(['eventId', 'tenantId', 'kind', 'severity', 'at', 'actor', 'subject', 'title', 'message', 'link', 'outbox']),
  ttl: (e) => epochPlusDays(e.at, ACTIVITY_RETENTION_DAYS),
  ttlNote: `\`at\` + ${ACTIVITY_RETENTION_DAYS} days`,
};

/** A user's last-seen marker in a tenant's feed ("marcar todo como leído"). */
export interface ActivitySeenRecord {
  tenantId: string;
  /** Cognito sub of the user. */
  sub: string;
  /** ISO-8601 UTC: events up to this instant are read. */
  seenAt: string;
}
export const ActivitySeenEntity: Entity<ActivitySeenRecord, { seenAt: string }> = {
  name: 'ActivitySeen',
  description: "A user's last-seen marker in the tenant's activity feed",
  readBy: 'GetItem before counting the unread events; PutItem `seenAt < :now` on "marcar todo como leído"',
  key: (m) => keys.activitySeen(m.tenantId, m.sub),
  attributes: allOf<{ seenAt: string }>()(['seenAt']),
};

/**
 * A Powertools idempotency record (`idempotency-store.ts` writes it; never returned by the API).
 */
export interface IdempotencyRecordItem {
  tenantId: string;
  /** `<operation>#<md5 of [tenantId, Idempotency-Key]>`. */
  operationKey: string;
  status: string;
  data?: unknown;
  validation?: string;
  in_progress_expiration?: number;
}
export const IdempotencyEntity: Entity<IdempotencyRecordItem, Omit<IdempotencyRecordItem, 'tenantId' | 'operationKey'>> = {
  name: 'IdempotencyRecord',
  description: 'Result of a request sent with an `Idempotency-Key` (Powertools idempotency)',
  readBy: 'GetItem on the key (never listed)',
  key: (r) => ({ PK: keys.idempotencyPk(r.tenantId), SK: r.operationKey }),
  attributes: allOf<Omit<IdempotencyRecordItem, 'tenantId' | 'operationKey'>>()(['status', 'data', 'validation', 'in_progress_expiration']),
  ttlNote: '24 h after completion (`IDEMPOTENCY_TTL_SECONDS`)',
};

/** A user's session revocation marker (docs/api.md#session-revocation; lambdas/domain/session-revocation.ts). */
export interface SessionRevocationRecord {
  /** Cognito sub of the user. */
  sub: string;
  /** ISO-8601 UTC: tokens of the user issued at or before this instant are refused. */
  revokedAt: string;
}
/** A marker expires this long after `revokedAt`: Cognito issues no ID token valid longer (`IdTokenValidity` ≤ 1 day). */
export const SESSION_REVOCATION_TTL_SECONDS = 86_400;
export const SessionRevocationEntity: Entity<SessionRevocationRecord, { revokedAt: string }> = {
  name: 'SessionRevocation',
  description: "When staff last disabled a user or took a group from it: the user's tokens issued until then are refused",
  readBy: 'GetItem by the API on a user token, remembered 30 s per container; Put (with the audit entries, one transaction) by disable, remove from tenant, revoke staff',
  key: (r) => keys.sessionRevocation(r.sub),
  attributes: allOf<{ revokedAt: string }>()(['revokedAt']),
  ttl: (r) => Math.floor(Date.parse(r.revokedAt) / 1000) + SESSION_REVOCATION_TTL_SECONDS,
  ttlNote: '`revokedAt` + 1 day (the longest ID token Cognito issues)',
};

/**
 * A user who signed in in no group, waiting for staff (docs/api.md#access-requests): Put by the pre token generation
 * trigger at such a sign-in (unless dismissed), moved to `granted`/`dismissed` by staff with its audit entry in one
 * transaction. Its GSI2 entry places it in the list of its status, newest first.
 */
export const AccessRequestEntity: Entity<AccessRequest> = {
  name: 'AccessRequest',
  description: 'A user who signed in while in no group, waiting for staff: who, e-mail, identity provider, when; pending → granted (tenant) or dismissed',
  readBy: 'GetItem by user name; staff list: Query GSI2 `GSI2PK = ACCESSREQUESTS#<status>` (`GSI2SK = <requestedAt>#<user name>`, newest first)',
  key: (r) => keys.accessRequest(r.id),
  attributes: allOf<AccessRequest>()(['id', 'sub', 'email', 'emailVerified', 'provider', 'emailDomain', 'requestedAt', 'status', 'tenantId', 'decidedAt', 'decidedBy']),
  indexes: { byStatus: { access: 'accessRequests', pk: (r) => keys.accessRequestsGsi2Pk(r.status), sk: (r) => keys.accessRequestGsi2(r.status, r.requestedAt, r.id).GSI2SK } },
};

/**
 * A tenant's maintenance window (docs/api.md#maintenance-windows): one item per window; its GSI1 list is ordered
 * by END time, so "not ended yet" (active and upcoming: what an alarm ingest checks) is one bounded Query.
 */
/** GSI1 `TENANT#<t>#MAINTENANCE`: a tenant's windows by END time (`<endAt>#<id>`). */
const MAINTENANCE_BY_END = tenantList<MaintenanceWindow>((w) => keys.maintenanceWindowGsi1(w.tenantId, w.windowId, w.endAt));

export const MaintenanceWindowEntity: Entity<MaintenanceWindow> = {
  name: 'MaintenanceWindow',
  description: 'Planned work on some devices and/or sites from `startAt` to `endAt`: alarms inside it notify nobody, its downtime does not count against availability; `version` is the optimistic-concurrency check of an update',
  readBy: 'GetItem by id (`PUT`/`DELETE /maintenance-windows/{windowId}`); list by end time: `GSI1SK > <now>` (not ended: the alarm ingest, active/upcoming), `GSI1SK ≥ <period start>` (the windows of a report period), `GSI1SK ≤ <now>` (past)',
  key: (w) => keys.maintenanceWindow(w.tenantId, w.windowId),
  indexes: { byEnd: MAINTENANCE_BY_END },
  gsi1: gsi1Of(MAINTENANCE_BY_END),
  gsi1Note: 'by end time',
  attributes: allOf<MaintenanceWindow>()(['windowId', 'tenantId', 'title', 'scope', 'startAt', 'endAt', 'createdAt', 'createdBy', 'updatedAt', 'version']),
};

/**
 * An incident's attachment (docs/api.md#attachments): the metadata of one evidence file whose bytes are in the
 * attachments bucket under `tenants/<t>/incidents/<id>/<attachmentId>`; in a partition of its own per incident.
 */
export const AttachmentEntity: Entity<Attachment> = {
  name: 'Attachment',
  description: 'An evidence file of an incident (or of one of its public comments): name, allow-listed type, size ≤ 25 MiB, `pending` until the upload is confirmed by HeadObject, then `available`; who uploaded it and when',
  readBy: 'GetItem by id (`complete`, download); list: Query `PK = TENANT#<t>#INCATTACH#<id>` (oldest first: UUIDv7 ids), cursor',
  key: (a) => keys.attachment(a.tenantId, a.incidentId, a.attachmentId),
  attributes: allOf<Attachment>()(['attachmentId', 'tenantId', 'incidentId', 'commentId', 'fileName', 'contentType', 'size', 'status', 'uploadedBy', 'uploadedBySub', 'createdAt', 'completedAt']),
};

/**
 * A tenant's escalation contacts (docs/api.md#escalation-contacts): the whole ordered list in ONE item (at most
 * `MAX_ESCALATION_CONTACTS` = 20, about 25 KB at the largest: far below the 400 KB item limit), replaced by a Put
 * conditioned on the `version` read (optimistic concurrency) in one transaction with its audit entry.
 */
export const EscalationContactsEntity: Entity<EscalationContacts> = {
  name: 'EscalationContacts',
  description: 'A tenant\'s escalation contacts in calling order (≤ 20): name, role, E.164 phone, e-mail, severities, hours; `version` is the optimistic-concurrency check of a replace',
  readBy: 'GetItem by tenant (`GET /escalation-contacts`); Put `version = :read` (or `attribute_not_exists(PK)` for version 0) with the audit entry, one transaction',
  key: (r) => keys.escalationContacts(r.tenantId),
  attributes: allOf<EscalationContacts>()(['tenantId', 'version', 'contacts', 'updatedAt', 'updatedBy']),
};

/** Every declaration, in the order of docs/data-model.md. */
export const ENTITIES = [
  TenantEntity,
  TenantMemberEntity,
  TenantIdentityProviderEntity,
  IncidentCounterEntity,
  IncidentEntity,
  SocQueueEntryEntity,
  SearchTokenEntity,
  CommentTokenEntity,
  CommentEntity,
  InternalNoteEntity,
  HistoryEntity,
  AutoCloseEntity,
  DeviceEntity,
  AvailabilityEntity,
  AlarmEntity,
  AlarmTokenEntity,
  O365AlarmEntity,
  O365UserEntity,
  AlarmConsoleEntryEntity,
  O365EventEntity,
  RecommendationEntity,
  AuditEntity,
  ActivityEventEntity,
  ActivitySeenEntity,
  IdempotencyEntity,
  SessionRevocationEntity,
  AccessRequestEntity,
  EscalationContactsEntity,
  AttachmentEntity,
  MaintenanceWindowEntity,
] as const;

/** The TTL attribute (epoch seconds) of the table. */
export const TTL_ATTRIBUTE = TABLE_DESIGN.ttlAttribute;

/**
 * The stored item of `record`: keys, the GSI keys of its `indexes` (`indexKeysOf`), `entity`, the declared
 * attributes (undefined ones are not stored), derived attributes and the TTL. `retention` is needed by entities whose TTL is configured.
 */
export function itemOf<R extends object, A extends object>(entity: Entity<R, A>, record: R, retention?: Retention): Record<string, unknown> {
  const item: Record<string, unknown> = { ...entity.key(record), ...indexKeysOf(entity, record), entity: entity.name };
  for (const a of entity.attributes) if (record[a] !== undefined && !(record[a] === null && entity.omitNull?.includes(a))) item[a] = record[a];
  if (entity.derived) Object.assign(item, entity.derived(record));
  if (entity.ttl) {
    const ttl = entity.ttl(record, retention ?? { availabilityDays: NaN, o365EventDays: NaN, auditDays: NaN });
    if (ttl !== undefined) {
      if (!Number.isFinite(ttl)) throw new Error(`${entity.name}: no retention given for its TTL`);
      item[TTL_ATTRIBUTE] = ttl;
    }
  }
  return item;
}

/** The declared, non-key attributes of `record` (what an UpdateItem `SET`s to store it). */
export function attributesOf<R extends object, A extends object>(entity: Entity<R, A>, record: R): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const a of entity.attributes) if (record[a] !== undefined) out[a] = record[a];
  return out;
}

/** The API object of a stored item: only the declared attributes (see module doc). */
export function recordOf<R extends object, A extends object>(entity: Entity<R, A>, item: Record<string, unknown>): A {
  const picked: Record<string, unknown> = { ...entity.readDefaults };
  for (const a of entity.attributes) if (item[a] !== undefined) picked[a] = item[a];
  return entity.read ? entity.read(picked as Partial<R>) : (picked as A);
}
