/**
 * Key builders for the single table (`table-design.ts`): the ONE place item key strings are spelled.
 * Which entity uses which key, its attributes, TTL and list are declared in `entities.ts` (table in
 * docs/data-model.md, with the access patterns).
 *
 * Every tenant-owned key starts with `TENANT#<t>#` so a tenant id can never address another tenant's
 * items; pagination cursors are bound to the list's partition (`cursor.ts`). Tenant ids match `TenantId`
 * (`[a-z0-9-]`), so `#` cannot be smuggled into a key through them. Changing a format here orphans the
 * items already stored under the old one.
 */

/** Partition of the tenant registry. */
export const TENANTS_PK = 'TENANTS';

/** Highest sort key value below which every `AVAIL#yyyy-mm-dd` falls. */
export const AVAIL_SK_MAX = 'AVAIL#9999';

/** The tenant's partition prefix `TENANT#<t>#` followed by `rest`. */
const owned = (tenantId: string, rest: string): string => `TENANT#${tenantId}#${rest}`;
/** A history version as 10 digits, so sort-key order = version order. */
const version10 = (version: number): string => String(version).padStart(10, '0');
/** GSI1 keys: the list partition and the item's place in it. */
const gsi1 = (GSI1PK: string, GSI1SK: string) => ({ GSI1PK, GSI1SK });

export const keys = {
  tenant: (tenantId: string) => ({ PK: TENANTS_PK, SK: `TENANT#${tenantId}` }),
  /**
   * A staff-configured enterprise identity provider by its Cognito provider name (`tenant-<id>`…, letters, digits
   * and `-` only): the tenant it is bound to, read by the pre token generation trigger (docs/api.md#tenant-identity-provider).
   */
  identityProvider: (providerName: string) => ({ PK: `IDP#${providerName}`, SK: 'IDP' }),
  /** A user's session revocation marker, by Cognito `sub` (docs/api.md#session-revocation). */
  sessionRevocation: (sub: string) => ({ PK: `USER#${sub}`, SK: 'REVOKED' }),
  /** A user's access request, by Cognito user name (docs/api.md#access-requests). */
  accessRequest: (username: string) => ({ PK: `ACCESSREQUEST#${username}`, SK: 'ACCESSREQUEST' }),
  /** GSI2 partition of the access requests in one status (newest first by `<requestedAt>#<user name>`). */
  accessRequestsGsi2Pk: (status: string) => `ACCESSREQUESTS#${status}`,
  accessRequestGsi2: (status: string, requestedAt: string, username: string) => ({ GSI2PK: keys.accessRequestsGsi2Pk(status), GSI2SK: `${requestedAt}#${username}` }),
  /** A tenant's escalation contacts: one item per tenant (docs/data-model.md#escalation-contacts). */
  escalationContacts: (tenantId: string) => ({ PK: `TENANT#${tenantId}`, SK: 'ESCALATION' }),
  incidentCounter: (tenantId: string) => ({ PK: `TENANT#${tenantId}`, SK: 'COUNTER#INCIDENT' }),
  /** Partition of the tenant's membership ledger (one item per member of its Cognito group; docs/data-model.md#tenant-counts). */
  tenantMembersPk: (tenantId: string) => owned(tenantId, 'MEMBERS'),
  tenantMember: (tenantId: string, username: string) => ({ PK: keys.tenantMembersPk(tenantId), SK: `MEMBER#${username}` }),
  /** The tenant's current-state aggregates (docs/data-model.md#aggregates). */
  stats: (tenantId: string) => ({ PK: `TENANT#${tenantId}`, SK: 'STATS' }),
  /** The tenant's heartbeat histogram (devices by the minute of their last heartbeat). */
  heartbeatStats: (tenantId: string) => ({ PK: `TENANT#${tenantId}`, SK: 'STATS#HB' }),
  /** Partition of the tenant's per-day aggregates (sort key `DAY#yyyy-mm-dd`). */
  daysPk: (tenantId: string) => owned(tenantId, 'DAYS'),
  day: (tenantId: string, date: string) => ({ PK: keys.daysPk(tenantId), SK: `DAY#${date}` }),
  /** A part of a tenant day that writers other than incidents update (`a`: device alarms raised, `v`: availability): `DAY#yyyy-mm-dd#<part>`, read with the day item by one Query. */
  dayPart: (tenantId: string, date: string, part: 'a' | 'v') => ({ PK: keys.daysPk(tenantId), SK: `DAY#${date}#${part}` }),
  /** Partition of the tenant's per-hour incident aggregates (sort key `HOUR#yyyy-mm-ddTHH`). */
  hoursPk: (tenantId: string) => owned(tenantId, 'HOURS'),
  hour: (tenantId: string, hour: string) => ({ PK: keys.hoursPk(tenantId), SK: `HOUR#${hour}` }),

  incidentPk: (tenantId: string, id: string) => owned(tenantId, `INCIDENT#${id}`),
  incident: (tenantId: string, id: string) => ({ PK: keys.incidentPk(tenantId, id), SK: 'INCIDENT' }),
  incidentsGsi1Pk: (tenantId: string) => owned(tenantId, 'INCIDENTS'),
  incidentGsi1: (tenantId: string, id: string, createdAt: string) => gsi1(keys.incidentsGsi1Pk(tenantId), `${createdAt}#${id}`),
  /** GSI3 partition of the tenant's incidents in one status (docs/data-model.md#search), newest first by `<createdAt>#<id>`. */
  incidentStatusGsi3Pk: (tenantId: string, status: string) => owned(tenantId, `INCSTATUS#${status}`),
  incidentStatusGsi3: (tenantId: string, id: string, status: string, createdAt: string) => ({ GSI3PK: keys.incidentStatusGsi3Pk(tenantId, status), GSI3SK: `${createdAt}#${id}` }),
  /** Partition of the search token `token` (folded title word): one item per incident whose title has it, SK `<createdAt>#<id>`. */
  searchTokenPk: (tenantId: string, token: string) => owned(tenantId, `SEARCH#${token}`),
  searchToken: (tenantId: string, token: string, incidentId: string, createdAt: string) => ({ PK: keys.searchTokenPk(tenantId, token), SK: `${createdAt}#${incidentId}` }),
  /**
   * Partition of the comment search word `token` (docs/data-model.md#search): one item per PUBLIC comment whose
   * body has it, SK `<createdAt>#<incidentId>#<commentId>` (newest first). Internal notes never get one.
   */
  commentTokenPk: (tenantId: string, token: string) => owned(tenantId, `CSEARCH#${token}`),
  commentToken: (tenantId: string, token: string, createdAt: string, incidentId: string, commentId: string) => ({ PK: keys.commentTokenPk(tenantId, token), SK: `${createdAt}#${incidentId}#${commentId}` }),
  /**
   * Partition of the device alarm search word `token` (docs/data-model.md#search): one item per alarm whose title
   * has it, SK `<raisedAt>#<deviceId>#<alarmId>` (newest first, the alarm list's own order).
   */
  alarmTokenPk: (tenantId: string, token: string) => owned(tenantId, `ASEARCH#${token}`),
  alarmToken: (tenantId: string, token: string, raisedAt: string, deviceId: string, alarmId: string) => ({ PK: keys.alarmTokenPk(tenantId, token), SK: `${raisedAt}#${deviceId}#${alarmId}` }),
  /**
   * Partition of the tenant's Office 365 user directory (docs/data-model.md#search): one item per prefix-searchable
   * part of each UPN an alert named (`upnKeys`), SK `<part>#<upn>`.
   */
  o365UsersPk: (tenantId: string) => owned(tenantId, 'O365USERS'),
  o365User: (tenantId: string, part: string, upn: string) => ({ PK: keys.o365UsersPk(tenantId), SK: `${part}#${upn}` }),
  comment: (tenantId: string, incidentId: string, createdAt: string, commentId: string) => ({ PK: keys.incidentPk(tenantId, incidentId), SK: `COMMENT#${createdAt}#${commentId}` }),
  /**
   * Partition of an incident's internal work notes (docs/api.md#internal-notes): NOT the incident partition, so
   * no read a customer's request makes (the incident with its comments and history) can ever load a note.
   */
  incidentNotesPk: (tenantId: string, incidentId: string) => owned(tenantId, `INCNOTES#${incidentId}`),
  incidentNote: (tenantId: string, incidentId: string, createdAt: string, noteId: string) => ({ PK: keys.incidentNotesPk(tenantId, incidentId), SK: `NOTE#${createdAt}#${noteId}` }),
  /**
   * Partition of an incident's attachments (docs/data-model.md#attachments): its own, NOT the incident partition,
   * so the incident's detail read never loads them; sort key `ATTACH#<attachmentId>` (UUIDv7: creation order).
   */
  incidentAttachmentsPk: (tenantId: string, incidentId: string) => owned(tenantId, `INCATTACH#${incidentId}`),
  attachment: (tenantId: string, incidentId: string, attachmentId: string) => ({ PK: keys.incidentAttachmentsPk(tenantId, incidentId), SK: `ATTACH#${attachmentId}` }),
  history: (tenantId: string, incidentId: string, version: number) => ({ PK: keys.incidentPk(tenantId, incidentId), SK: `HISTORY#${version10(version)}` }),
  /** GSI1 partition of the history entries that take an incident out of `new` (its first response). */
  firstResponsesGsi1Pk: (tenantId: string) => owned(tenantId, 'FIRSTRESPONSES'),
  firstResponseGsi1: (tenantId: string, incidentId: string, incidentCreatedAt: string, version: number) =>
    gsi1(keys.firstResponsesGsi1Pk(tenantId), `${incidentCreatedAt}#${incidentId}#${version10(version)}`),

  devicePk: (tenantId: string, deviceId: string) => owned(tenantId, `DEVICE#${deviceId}`),
  device: (tenantId: string, deviceId: string) => ({ PK: keys.devicePk(tenantId, deviceId), SK: 'DEVICE' }),
  devicesGsi1Pk: (tenantId: string) => owned(tenantId, 'DEVICES'),
  /** `nameKey`: the device name folded (`deviceNameKey` in lambdas/domain/search.ts), so the list is ordered and prefix-searched ignoring case and accents. */
  deviceGsi1: (tenantId: string, deviceId: string, nameKey: string) => gsi1(keys.devicesGsi1Pk(tenantId), `${nameKey}#${deviceId}`),
  availability: (tenantId: string, deviceId: string, date: string) => ({ PK: keys.devicePk(tenantId, deviceId), SK: `AVAIL#${date}` }),
  /** The device's heartbeat item (exact last heartbeat; in no index, outside the partition's `ALARM#..DEVICE` reads): docs/data-model.md#heartbeats. */
  heartbeat: (tenantId: string, deviceId: string) => ({ PK: keys.devicePk(tenantId, deviceId), SK: 'HEARTBEAT' }),
  /** Partition of the tenant's outage markers: one item per device in an outage, written by the SLA job (docs/data-model.md#outage-markers). */
  outageMarkersPk: (tenantId: string) => owned(tenantId, 'OUTAGES'),
  outageMarker: (tenantId: string, deviceId: string) => ({ PK: keys.outageMarkersPk(tenantId), SK: `DEVICE#${deviceId}` }),
  alarm: (tenantId: string, deviceId: string, alarmId: string) => ({ PK: keys.devicePk(tenantId, deviceId), SK: `ALARM#${alarmId}` }),
  /** The tenant's devices by IP address (GSI3 partition; docs/data-model.md#search). */
  devicesByIpGsi3Pk: (tenantId: string) => owned(tenantId, 'DEVICEIP'),
  /** `ipKey`: the device's IP folded (`deviceIpKey`), `<ipKey>#<deviceId>`, so an exact IP or an IP prefix is a `begins_with` of one partition. */
  deviceIpGsi3: (tenantId: string, deviceId: string, ipKey: string) => ({ GSI3PK: keys.devicesByIpGsi3Pk(tenantId), GSI3SK: `${ipKey}#${deviceId}` }),
  alarmsGsi1Pk: (tenantId: string) => owned(tenantId, 'ALARMS'),
  alarmGsi1: (tenantId: string, deviceId: string, alarmId: string, raisedAt: string) => gsi1(keys.alarmsGsi1Pk(tenantId), `${raisedAt}#${deviceId}#${alarmId}`),

  o365Alarm: (tenantId: string, id: string) => ({ PK: owned(tenantId, `O365ALARM#${id}`), SK: 'O365ALARM' }),
  o365AlarmsGsi1Pk: (tenantId: string) => owned(tenantId, 'O365ALARMS'),
  o365AlarmGsi1: (tenantId: string, id: string, detectedAt: string) => gsi1(keys.o365AlarmsGsi1Pk(tenantId), `${detectedAt}#${id}`),
  o365Event: (tenantId: string, id: string) => ({ PK: owned(tenantId, `O365EVENT#${id}`), SK: 'O365EVENT' }),
  o365EventsGsi1Pk: (tenantId: string) => owned(tenantId, 'O365EVENTS'),
  o365EventGsi1: (tenantId: string, id: string, at: string) => gsi1(keys.o365EventsGsi1Pk(tenantId), `${at}#${id}`),
  recommendation: (tenantId: string, id: string) => ({ PK: owned(tenantId, `RECOMMENDATION#${id}`), SK: 'RECOMMENDATION' }),
  recommendationsGsi1Pk: (tenantId: string) => owned(tenantId, 'RECOMMENDATIONS'),
  recommendationGsi1: (tenantId: string, id: string, createdAt: string) => gsi1(keys.recommendationsGsi1Pk(tenantId), `${createdAt}#${id}`),

  /** Audit entry `entryId` of tenant `t` (its own partition: written in the same transaction as the change). */
  audit: (tenantId: string, at: string, entryId: string) => ({ PK: owned(tenantId, 'AUDIT'), SK: `AUDIT#${at}#${entryId}` }),
  auditGsi1Pk: (tenantId: string) => owned(tenantId, 'AUDIT'),
  auditGsi1: (tenantId: string, at: string, entryId: string) => gsi1(keys.auditGsi1Pk(tenantId), `${at}#${entryId}`),
  /** GSI2 partition of every tenant's audit entries (staff's cross-tenant audit log, newest first). */
  AUDIT_GSI2PK: 'AUDIT',
  auditGsi2: (tenantId: string, at: string, entryId: string) => ({ GSI2PK: 'AUDIT', GSI2SK: `${at}#${tenantId}#${entryId}` }),

  /**
   * GSI2 keys of a device whose 30-day availability is below the SLA target on some day its roll-up covers
   * (the tenant's "lowest availability" list): sort key `<day>#<figure on that day × 100, 5 digits>#<id>`,
   * `n` for no figure (after every number), so within one day the entries are lowest first by that day's
   * figure (docs/data-model.md, "Devices below the SLA target").
   */
  belowSlaGsi2Pk: (tenantId: string) => owned(tenantId, 'BELOWSLA'),
  belowSlaGsi2: (tenantId: string, deviceId: string, day: string, pct: number | null) => ({
    GSI2PK: owned(tenantId, 'BELOWSLA'),
    GSI2SK: `${day}#${pct === null ? 'n' : String(Math.round(pct * 100)).padStart(5, '0')}#${deviceId}`,
  }),

  /**
   * A resolved incident's automatic-closure entry (docs/sla.md#automatic-closure) and its GSI2 place among every
   * tenant's resolved incidents by when they are due to close (`<autoCloseAt>#<t>#<id>`).
   */
  autoCloseEntry: (tenantId: string, id: string) => ({ PK: owned(tenantId, 'AUTOCLOSE'), SK: `INCIDENT#${id}` }),
  AUTOCLOSE_GSI2PK: 'AUTOCLOSE',
  autoCloseGsi2: (tenantId: string, id: string, autoCloseAt: string) => ({ GSI2PK: 'AUTOCLOSE', GSI2SK: `${autoCloseAt}#${tenantId}#${id}` }),
  /** GSI2 partition of the SOC queue: every tenant's open incidents, SLA due time first (staff). */
  SOCQUEUE_GSI2PK: 'SOCQUEUE',
  socQueueGsi2: (tenantId: string, id: string, slaDueAt: string) => ({ GSI2PK: 'SOCQUEUE', GSI2SK: `${slaDueAt}#${tenantId}#${id}` }),
  /**
   * GSI4 partition of one tenant's SOC queue: its open incidents, sorted by their `GSI2SK` (`socQueueGsi2`, GSI4's
   * sort key too), SLA due time first (staff queue filtered by customer).
   */
  socQueueTenantGsi4Pk: (tenantId: string) => owned(tenantId, 'SOCQUEUE'),
  socQueueTenantGsi4: (tenantId: string) => ({ GSI4PK: owned(tenantId, 'SOCQUEUE') }),
  /**
   * A not-closed incident's SOC queue entry (docs/sla.md#soc-queue): a copy of the incident kept while it is
   * open or resolved, same key for its whole life, so a Put re-keys it. The key keeps the name of the time
   * when only assigned incidents had one (`SOCASSIGNED`), so stored entries are overwritten, not duplicated.
   */
  socQueueEntry: (tenantId: string, id: string) => ({ PK: owned(tenantId, 'SOCASSIGNED'), SK: `INCIDENT#${id}` }),
  /** The assignee part of a queue partition: the assignee's e-mail, or `-` for an unassigned incident ("Sin asignar"). */
  SOCQUEUE_UNASSIGNED: '-',
  /** GSI2 partition of the ranked queue of every tenant (open work rank 1–2, resolved rank 9). */
  SOCQUEUE_RANKED_GSI2PK: 'SOCQUEUE#RANKED',
  /** GSI4 partition of one tenant's ranked queue (sorted by the entry's `GSI2SK`, the ranked sort key). */
  socQueueRankedTenantGsi4Pk: (tenantId: string) => owned(tenantId, 'SOCQUEUE#RANKED'),
  /** GSI1 partition of one assignee's (or `-`: the unassigned) ranked queue. */
  socQueueRankedAssigneeGsi1Pk: (assignee: string) => `SOCQUEUE#ASSIGNEE#${assignee}#RANKED`,
  /** GSI3 partition of one assignee's (or `-`: the unassigned) queue by SLA due time (`o#…` open, `r#…` resolved). */
  socQueueAssigneeGsi3Pk: (assignee: string) => `SOCQUEUE#ASSIGNEE#${assignee}`,
  /**
   * The queue entry's index keys (docs/sla.md#soc-queue): `rank` is `1` (untriaged or new), `2` (the rest of
   * the open work) or `9` (resolved, waiting for the customer); `tab` is `o` (open) or `r` (resolved).
   * Ranked sort key `<rank>#<slaDueAt>#<t>#<id>` in GSI2 (every tenant), GSI4 (the tenant) and GSI1 (the
   * assignee or `-`); due-time sort key `<tab>#<slaDueAt>#<t>#<id>` in GSI3 (the assignee or `-`).
   */
  socQueueEntryIndexKeys: (e: { tenantId: string; id: string; slaDueAt: string; assignee: string | null; rank: '1' | '2' | '9'; tab: 'o' | 'r' }) => {
    const who = e.assignee ?? '-';
    const ranked = `${e.rank}#${e.slaDueAt}#${e.tenantId}#${e.id}`;
    return {
      GSI2PK: 'SOCQUEUE#RANKED',
      GSI2SK: ranked,
      GSI4PK: owned(e.tenantId, 'SOCQUEUE#RANKED'),
      GSI1PK: `SOCQUEUE#ASSIGNEE#${who}#RANKED`,
      GSI1SK: ranked,
      GSI3PK: `SOCQUEUE#ASSIGNEE#${who}`,
      GSI3SK: `${e.tab}#${e.slaDueAt}#${e.tenantId}#${e.id}`,
    };
  },
  /**
   * Partitions of the SOC queue's per-tab counts (docs/sla.md#soc-queue): every tenant's (`SHARD#0`–`SHARD#7`,
   * by incident, so concurrent writes of different incidents rarely meet on one item), one tenant's, one
   * assignee's (or `-`) (`SHARD#0`). Attributes `open` and `resolved`, moved by ADD in the incident's own transactions.
   */
  SOCQUEUE_COUNT_PK: 'SOCQUEUE#COUNT',
  socQueueCountTenantPk: (tenantId: string) => owned(tenantId, 'SOCQUEUE#COUNT'),
  socQueueCountAssigneePk: (assignee: string) => `SOCQUEUE#COUNT#ASSIGNEE#${assignee}`,
  socQueueCount: (pk: string, shard: number) => ({ PK: pk, SK: `SHARD#${shard}` }),

  /**
   * The alarm console's entries of one alarm (docs/data-model.md#alarm-console): copy `n` (0–3) of a device
   * alarm (`kind` `device`, `ref` `<deviceId>#<alarmId>`) or an Office 365 alert (`office365`, `ref` its id),
   * all in the tenant's `ALARMCONSOLE` partition.
   */
  alarmConsoleEntry: (tenantId: string, kind: string, ref: string, n: number) => ({ PK: owned(tenantId, 'ALARMCONSOLE'), SK: `${kind}#${ref}#${n}` }),
  /**
   * The console partition of one filter combination: `ALARMCONSOLE#<severity|*>#<state|*>#<kind|*>` for every
   * tenant, `TENANT#<t>#ALARMCONSOLE#<severity|*>#<state|*>#<kind|*>` for one (`*` = not filtered), so every
   * combination of the screen's filters is one partition.
   */
  alarmConsolePk: (scope: { tenantId?: string | undefined; severity?: string | undefined; state?: string | undefined; kind?: string | undefined }) => {
    const rest = `ALARMCONSOLE#${scope.severity ?? '*'}#${scope.state ?? '*'}#${scope.kind ?? '*'}`;
    return scope.tenantId === undefined ? rest : owned(scope.tenantId, rest);
  },
  /** The console's sort key of an alarm (newest first = descending): `<raisedAt>#<t>#<kind>#<ref>`. */
  alarmConsoleSk: (raisedAt: string, tenantId: string, kind: string, ref: string) => `${raisedAt}#${tenantId}#${kind}#${ref}`,

  /**
   * The tenant's activity feed (docs/notifications.md): events `EV#<at>#<eventId>` (newest first = descending
   * SK) and, in the same partition, each user's last-seen marker `SEEN#<sub>` (sorts after every `EV#`).
   */
  activityPk: (tenantId: string) => owned(tenantId, 'ACTIVITY'),
  activityEvent: (tenantId: string, at: string, eventId: string) => ({ PK: owned(tenantId, 'ACTIVITY'), SK: `EV#${at}#${eventId}` }),
  /** Inclusive SK bounds of every event of the feed (`EV#` … `EV#~`: ISO instants and ids sort below `~`). */
  ACTIVITY_SK_MIN: 'EV#',
  ACTIVITY_SK_MAX: 'EV#~',
  /** Lowest SK of the events strictly after the instant `at` (an event at `at` itself sorts below it). */
  activityAfter: (at: string) => `EV#${at}#~`,
  /** A user's last-seen marker in the tenant's feed (`sub`: the Cognito sub). */
  activitySeen: (tenantId: string, sub: string) => ({ PK: owned(tenantId, 'ACTIVITY'), SK: `SEEN#${sub}` }),
  /**
   * Sparse GSI2 entry of an event not yet delivered, written only by `putActivityEventOnce` (SLA job, seed:
   * events dated in the past) and by data older than the outbox mark; removed (REMOVE GSI2PK, GSI2SK) once the
   * delivery side has handled the event. docs/notifications.md#outbox.
   */
  OUTBOX_GSI2PK: 'OUTBOX',
  outboxGsi2: (tenantId: string, at: string, eventId: string) => ({ GSI2PK: 'OUTBOX', GSI2SK: `${at}#${tenantId}#${eventId}` }),
  /**
   * The sweep's outbox mark of a tenant (`from`: an event SK; every event of the feed below it has been handled
   * or is in GSI2 `OUTBOX`). In the feed partition, outside `EV#` … `EV#~`. docs/notifications.md#outbox.
   */
  outboxMark: (tenantId: string) => ({ PK: owned(tenantId, 'ACTIVITY'), SK: 'OUTBOX#MARK' }),

  /**
   * Notification delivery (docs/notifications.md#delivery): a user's e-mail preferences (`USER#<sub>`, all
   * of a tenant in one partition), the tenant's webhooks (`WEBHOOK#<id>`), and the deliveries of one event
   * (`<channel>#<recipient>`, one partition per event so "are all done?" is one Query); a webhook's
   * deliveries are also in GSI1 (`TENANT#<t>#WEBHOOK#<id>#DELIVERIES`, `<createdAt>#<eventId>`), newest first.
   */
  notificationPrefsPk: (tenantId: string) => owned(tenantId, 'NOTIFPREFS'),
  notificationPrefs: (tenantId: string, sub: string) => ({ PK: owned(tenantId, 'NOTIFPREFS'), SK: `USER#${sub}` }),
  webhooksPk: (tenantId: string) => owned(tenantId, 'WEBHOOKS'),
  webhook: (tenantId: string, id: string) => ({ PK: owned(tenantId, 'WEBHOOKS'), SK: `WEBHOOK#${id}` }),
  deliveriesPk: (tenantId: string, eventId: string) => owned(tenantId, `DELIVERY#${eventId}`),
  delivery: (tenantId: string, eventId: string, channel: string, recipient: string) => ({ PK: owned(tenantId, `DELIVERY#${eventId}`), SK: `${channel}#${recipient}` }),
  webhookDeliveriesGsi1Pk: (tenantId: string, webhookId: string) => owned(tenantId, `WEBHOOK#${webhookId}#DELIVERIES`),
  webhookDeliveryGsi1: (tenantId: string, webhookId: string, createdAt: string, eventId: string) =>
    gsi1(owned(tenantId, `WEBHOOK#${webhookId}#DELIVERIES`), `${createdAt}#${eventId}`),

  /**
   * A tenant's maintenance window (docs/data-model.md#maintenance-windows): `TENANT#<t>#MAINTENANCE` / `WINDOW#<id>`,
   * listed in GSI1 `TENANT#<t>#MAINTENANCE` by `<endAt>#<id>` (windows not ended yet = `GSI1SK > <now>`).
   */
  maintenanceWindow: (tenantId: string, windowId: string) => ({ PK: owned(tenantId, 'MAINTENANCE'), SK: `WINDOW#${windowId}` }),
  maintenanceWindowsGsi1Pk: (tenantId: string) => owned(tenantId, 'MAINTENANCE'),
  maintenanceWindowGsi1: (tenantId: string, windowId: string, endAt: string) => gsi1(owned(tenantId, 'MAINTENANCE'), `${endAt}#${windowId}`),

  /** Partition of the tenant's idempotency records (Powertools idempotency; `idempotency.ts`). */
  idempotencyPk: (tenantId: string) => owned(tenantId, 'IDEMPOTENCY'),

  /** Prefix every key of tenant `t` starts with (except the registry row). */
  tenantPrefix: (tenantId: string) => owned(tenantId, ''),
} as const;

/** Key attribute names the engine returns in LastEvaluatedKey for a base-table / GSI1 query. */
export const KEY_ATTRIBUTES = ['PK', 'SK', 'GSI1PK', 'GSI1SK'] as const;
