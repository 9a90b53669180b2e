/**
 * The storage interfaces (ports) of the domain, in one place: what the use cases in `lambdas/domain` need
 * from storage, and the shapes storage hands back. `lambdas/data` implements every port over the single
 * DynamoDB table (`dynamoRepository`); tests implement them in memory. Nothing here depends on DynamoDB.
 *
 * Conventions of every port:
 *  - ids are the API's (tenant ids match `TenantId`); times are ISO-8601 UTC strings, days `yyyy-mm-dd`;
 *  - a list takes `limit` (1–100) and an opaque `cursor` and returns `Page<T>` (`nextCursor` null on the last
 *    page; a page may be short while `nextCursor` is not null) and throws `ApiError('VALIDATION_FAILED')` for a
 *    cursor not issued for that tenant, list and range;
 *  - a conditional write returns `false`/`null` when its condition did not hold (nothing written) rather than
 *    throwing; `ApiError('NOT_FOUND')` where a parent item is missing is said on the method.
 */
import type { CommentHit, Office365UserHit } from '../contract/search.js';
import type { MaintenanceWindow, WindowStatus } from '../contract/maintenance-windows.js';
import type { Context } from 'aws-lambda';
import type { NotificationsPort } from './notification-delivery.js';
import type { SessionRevocationPort } from './session-revocation.js';
import type { ListValidator } from '../contract/routes.js';
import type { Attachment } from '../contract/attachments.js';
import type { EscalationContacts } from '../contract/escalation-contacts.js';
import type {
  AlarmConsoleItem,
  AlarmRef,
  LinkedAlarm,
  ActivityEvent,
  ActivityUnread,
  AccessRequest,
  AccessRequestStatus,
  AuditEntry,
  PoolUser,
  AlarmState,
  Device,
  DeviceAlarm,
  Incident,
  IncidentChange,
  IncidentComment,
  IncidentDetail,
  IncidentStatus,
  Office365Alarm,
  Office365Event,
  Page,
  Recommendation,
  RecommendationStatus,
  Severity,
  Tenant,
  TenantSummary,
} from '../contract/schemas.js';

// ---------------------------------------------------------------------------------------------- lists

/** Position in a list: at most `limit` items (1–100) after the opaque `cursor` of the previous page. */
export interface PageOptions {
  limit: number;
  cursor?: string | undefined;
}

/** Inclusive bounds on the time a list is ordered by (ISO-8601 UTC); both optional. */
export interface TimeRangeOptions {
  from?: string | undefined;
  to?: string | undefined;
}

// ---------------------------------------------------------------------------------------------- tenants

/** Storage of the tenant registry. */
export interface TenantsPort {
  getTenant(id: string): Promise<Tenant | null>;
  /** All tenants ordered by id. */
  listTenants(): Promise<Tenant[]>;
  /**
   * One page of the registry ordered by id with the counts kept at write time (`userCount` on the registry
   * item, `deviceCount` from the tenant's stats item): ONE Query and ONE BatchGetItem, no Cognito call
   * (docs/data-model.md#tenant-counts). @throws ApiError VALIDATION_FAILED (cursor)
   */
  listTenantSummaries(opts: PageOptions): Promise<Page<TenantSummary>>;
  /**
   * The collector principals (normalised IAM ARNs) allowed to write the tenant; null when the tenant is
   * not registered (docs/api.md#collectors-and-tenants).
   */
  getTenantCollectors(id: string): Promise<string[] | null>;
}

// -------------------------------------------------------------------------------------------- incidents

/** Filters and position of the incident list (`from`/`to` bound `createdAt`). */
export interface IncidentListOptions extends PageOptions, TimeRangeOptions {
  /** Any of these statuses. */
  status?: readonly IncidentStatus[] | undefined;
  /** Any of these severities. */
  severity?: readonly Severity[] | undefined;
  /**
   * Search text: incidents whose title has every word of it (case, accents and stop words ignored:
   * `titleMatches` in lambdas/domain/search.ts); an exact incident id is looked up by id.
   */
  q?: string | undefined;
  sort?: 'newest' | 'oldest' | undefined;
}

/** One alarm an incident being created links, and the `incidentId` it held when read (null: none): the link is conditioned on it. */
export interface AlarmLink {
  ref: AlarmRef;
  previousIncidentId: string | null;
}

/** Storage operations the incident rules need. */
export interface IncidentsPort {
  /**
   * Allocates the tenant's next sequence number and writes the counter, `build(seq)` (+ its audit entry,
   * `auditOf`), its activity event and aggregates atomically; the title's search-word index is written after
   * that and is eventually consistent (docs/data-model.md#search).
   */
  createIncident(tenantId: string, build: (seq: number) => Incident, auditOf?: (incident: Incident) => AuditEntry, links?: readonly AlarmLink[]): Promise<Incident>;
  /**
   * The tenant's alarms `refs` as they are now (consistent read), in the order of `refs`; null for an alarm the
   * tenant does not have (docs/api.md#linked-alarms). One BatchGetItem.
   */
  getAlarms(tenantId: string, refs: readonly AlarmRef[]): Promise<(LinkedAlarm | null)[]>;
  getIncident(tenantId: string, id: string): Promise<Incident | null>;
  /**
   * The incident with comments (oldest first) and history (by version); null if absent. `internalNotes`
   * (staff reads only) adds its internal notes to the comments, in time order (docs/api.md#internal-notes).
   */
  getIncidentDetail(tenantId: string, id: string, opts?: { internalNotes?: boolean }): Promise<IncidentDetail | null>;
  /**
   * One page of the tenant's incidents matching `opts` (see `IncidentListOptions`), newest first unless
   * `sort: 'oldest'`; the storage chooses the read path (an exact id as `q`: one GetItem, no cursor).
   * @throws ApiError VALIDATION_FAILED for a cursor not issued for this tenant/list/range.
   */
  listIncidents(tenantId: string, opts: IncidentListOptions): Promise<Page<Incident>>;
  /**
   * Writes `next`, its history entry, the optional comment and the change of the tenant's aggregates in one
   * transaction, only if the stored version is still `current.version` (`current`: the incident as read,
   * which the update was planned from). Returns false (nothing written) on a version mismatch.
   */
  saveUpdate(tenantId: string, next: Incident, current: Incident, change: IncidentChange, comment: IncidentComment | null, audit?: AuditEntry): Promise<boolean>;
  /**
   * One page of a SOC queue tab (open work ranked — untriaged or new first, then by SLA due time — or by due
   * time alone; or the resolved incidents waiting for the customer), read from ONE partition — the assignee's
   * or the unassigned's (`assignee`, `unassigned`), else the tenant's own (`tenantId`), else every tenant's;
   * the other filters are applied by the engine, ≤ 4 Queries a page; with the scope's tab counts (kept at
   * write time). docs/sla.md#soc-queue.
   * @throws ApiError VALIDATION_FAILED for a cursor not issued for this list.
   */
  listSocQueue(opts: SocQueueOptions): Promise<SocQueuePage>;
  /**
   * One page of the tenant's PUBLIC comments whose body has every word of `opts.q`, newest first (the comment
   * search index, docs/data-model.md#search); internal notes are never among them. ≤ 7 DynamoDB requests.
   * @throws ApiError VALIDATION_FAILED for a cursor this search did not issue.
   */
  searchComments(tenantId: string, opts: { q: string; limit: number; cursor?: string | undefined }): Promise<Page<CommentHit>>;
  /** Adds a comment (+ its audit entry) if the incident exists (checked in the same transaction); false if it does not. */
  addComment(tenantId: string, incidentId: string, comment: IncidentComment, audit?: AuditEntry): Promise<boolean>;
  /** Adds an internal note (+ its audit entry, no activity event) if the incident exists; false if it does not. */
  addInternalNote(tenantId: string, incidentId: string, note: IncidentComment, audit?: AuditEntry): Promise<boolean>;
}

/** Filters and position of a SOC queue page (all optional but `limit`). */
export interface SocQueueOptions {
  tenantId?: string | undefined;
  severity?: readonly Severity[] | undefined;
  status?: readonly IncidentStatus[] | undefined;
  /** Exact assignee name. */
  assignee?: string | undefined;
  /** Only incidents nobody is assigned ("Sin asignar"); not with `assignee`. */
  unassigned?: boolean | undefined;
  /** `open` (default): the open work; `resolved`: resolved incidents waiting for the customer. */
  tab?: 'open' | 'resolved' | undefined;
  /** `priority` (default): untriaged or new first, then by SLA due time; `due`: by SLA due time alone. */
  sort?: 'priority' | 'due' | undefined;
  limit: number;
  cursor?: string | undefined;
}

/** The counts of the SOC queue's tabs in a page's scope (every tenant, a tenant, an assignee or the unassigned). */
export interface SocQueueCounts {
  open: number;
  resolved: number;
}

/** A page of the SOC queue with its scope's tab counts. */
export type SocQueuePage = Page<Incident> & { counts: SocQueueCounts };

/** A request sent with an `Idempotency-Key`. */
export interface IdempotentRequest {
  /** Operation name, part of the stored key (`createIncident`). */
  operation: string;
  tenantId: string;
  /** The client's `Idempotency-Key`. */
  key: string;
  /** The validated request payload; a retry must send the same one. JSON-serialisable. */
  payload: unknown;
  /** The Lambda context: an in-progress record expires with the invocation's remaining time. */
  lambdaContext?: Context | undefined;
}

/** Runs a request at most once per client `Idempotency-Key` (Powertools idempotency on the table). */
export interface IdempotencyPort {
  /**
   * First call: runs `run`, stores and returns its (JSON-serialisable) result; a retry with the same key and
   * payload returns the stored result without running it.
   * @throws ApiError IDEMPOTENCY_KEY_REUSED (same key, other payload), IDEMPOTENCY_IN_PROGRESS; whatever `run` throws
   */
  run<T>(req: IdempotentRequest, run: () => Promise<T>): Promise<T>;
}

// ---------------------------------------------------------------------------------------------- devices

/** A device as stored (no derived fields). */
export type StoredDevice = Omit<Device, 'status' | 'availability30d' | 'openAlarms'>;

/** One day of measured availability. */
export interface DailyAvailability {
  /** `yyyy-mm-dd`, UTC. */
  date: string;
  /** % of the monitored time the device was available, 0–100. */
  availablePct: number;
  /** Seconds monitored that day (86 400 for a full day); weights the day in the 30-day figure. */
  monitoredSeconds: number;
}

/**
 * The 30-day availability roll-up kept on the device item: `pct30d[k]` is `availability30d(days, D + k)`
 * for the UTC day `D = asOf` and k = 0…29, and `sums` what it is made of (docs/data-model.md, "Device roll-ups").
 */
export interface AvailabilityRollup {
  /** `yyyy-mm-dd` (UTC) the roll-up was computed on. */
  asOf: string;
  /** 30 entries: % (0–100, two decimals) or null, for the days asOf … asOf + 29. */
  pct30d: (number | null)[];
  /**
   * Per day asOf + k: `sum[k]` = Σ clamp(pct) × monitored s (% × s) and `weight[k]` = Σ monitored s of its
   * 30-day window (`availabilitySums`), from which the figure with an open outage is computed without reading
   * the days. Absent on a roll-up of the old shape (figures only; rewritten by the next refresh).
   */
  sums?: { sum: number[]; weight: number[] };
}

/** One row of the device list as stored: the device and its roll-ups (null when absent or stale). */
export interface ListedDevice {
  device: StoredDevice;
  /** Count of alarms in state active/acknowledged, maintained with every alarm write; null if never maintained. */
  openAlarms: number | null;
  availability: AvailabilityRollup | null;
}

/** Filters and position of the device alarm list (`from`/`to` bound `raisedAt`, inclusive). */
export interface AlarmListOptions extends PageOptions, TimeRangeOptions {
  state?: readonly AlarmState[] | undefined;
  severity?: readonly string[] | undefined;
  deviceId?: string | undefined;
}

/** Filters and position of a page of the staff alarm console (`GET /soc/alarms`): each filter one value. */
export interface AlarmConsoleOptions extends PageOptions {
  tenantId?: string | undefined;
  severity?: string | undefined;
  state?: string | undefined;
  kind?: string | undefined;
}

/** Storage operations of devices, their availability and alarms. */
export interface DevicesPort {
  /**
   * Devices of the tenant ordered by name ignoring case and accents, with their roll-ups (one Query); with
   * `prefix`, only those whose name starts with it (same folding: `deviceNameKey`); with `ip`, those whose IP
   * address is it (a complete address) or starts with it, ordered by IP (one Query of GSI3, docs/data-model.md#search).
   */
  listDevices(tenantId: string, opts: PageOptions & { prefix?: string | undefined; ip?: string | undefined }): Promise<Page<ListedDevice>>;
  /** Number of the tenant's devices (`Select: 'COUNT'` Query on its device list; staff tenant list). */
  countDevices(tenantId: string): Promise<number>;
  /** From scratch: daily availability items with `date >= fromDate` and the number of open alarms of one device. */
  deviceStats(tenantId: string, deviceId: string, fromDate: string): Promise<{ days: DailyAvailability[]; openAlarms: number }>;
  getDevice(tenantId: string, deviceId: string): Promise<StoredDevice | null>;
  /** The device (null if absent), its days with `date >= fromDate` and its open alarms (newest first): one Query. */
  deviceHistory(tenantId: string, deviceId: string, fromDate: string): Promise<{ device: StoredDevice | null; days: DailyAvailability[]; openAlarms: DeviceAlarm[] }>;
  /** Newest raised first; filters AND-combined. */
  listAlarms(tenantId: string, opts: AlarmListOptions): Promise<Page<DeviceAlarm>>;
  /** Alarms whose title has every word of `q`, newest raised first; ≤ 7 requests a page (docs/api.md#alarm-search). */
  searchAlarms(tenantId: string, opts: { q: string; limit: number; cursor?: string | undefined }): Promise<Page<DeviceAlarm>>;
  /** The staff alarm console: device alarms and Office 365 alerts of every tenant, newest first; ONE Query per page. */
  listAlarmConsole(opts: AlarmConsoleOptions): Promise<Page<AlarmConsoleItem>>;
  /** Atomic state change guarded by `from` (and of the device's open-alarm count); null if the alarm does not exist. */
  transitionAlarm(
    tenantId: string,
    deviceId: string,
    alarmId: string,
    from: readonly AlarmState[],
    to: AlarmState,
    fields: Partial<Pick<DeviceAlarm, 'acknowledgedAt' | 'acknowledgedBy' | 'acknowledgedBySub' | 'clearedAt'>>,
    /** Stored in the same transaction as the change (not when nothing changed). */
    audit?: AuditEntry,
  ): Promise<{ alarm: DeviceAlarm; changed: boolean } | null>;
  /** Writes a new alarm unless device + id exists; false on a replay. @throws ApiError NOT_FOUND without the device. */
  raiseAlarm(alarm: DeviceAlarm): Promise<boolean>;
  /**
   * Heartbeat at `at`: moves `lastHeartbeatAt` forward and accounts the interval since the previous one as
   * monitored (and, within the online threshold, available) time of that UTC day; false when nothing
   * changed (unknown device, replay, older heartbeat).
   */
  ingestHeartbeat(input: { tenantId: string; deviceId: string; at: string }): Promise<boolean>;
}

// ------------------------------------------------------------------------------------------- office 365

/** Position and time range of an Office 365 list (`from`/`to` inclusive, ISO-8601 UTC). */
export type Office365ListOptions = PageOptions & TimeRangeOptions;
/** Filters of the Office 365 alert list (`user` = `affectedUser`). */
export type O365AlarmListOptions = Office365ListOptions & { severity?: readonly string[] | undefined; status?: readonly string[] | undefined; user?: string | undefined };
/** Filters of the Office 365 audit event list. */
export type O365EventListOptions = Office365ListOptions & { workload?: string | undefined; operation?: string | undefined; user?: string | undefined; result?: string | undefined };

/** Storage of Office 365 alerts and audit events. */
export interface Office365Port {
  /** Creates or updates an alert (a newer `updatedAt` wins); false when nothing changed. */
  upsertAlarm(a: Office365Alarm): Promise<boolean>;
  /**
   * Vigía's acknowledgement of an active alert, written with its audit entry (docs/api.md#acknowledging-office-365-alerts).
   * null when the tenant has no such alert; `changed: false` with the stored alert when it is not active or already acknowledged.
   */
  acknowledgeAlarm(
    tenantId: string,
    alarmId: string,
    fields: { acknowledgedAt: string; acknowledgedBy: string; acknowledgedBySub: string },
    audit?: AuditEntry,
  ): Promise<{ alarm: Office365Alarm; changed: boolean } | null>;
  /** Stores an audit event once; false on a replay. */
  putEvent(e: Office365Event): Promise<boolean>;
  /** Newest detected first. */
  listAlarms(tenantId: string, opts: O365AlarmListOptions): Promise<Page<Office365Alarm>>;
  /** Newest first. */
  listEvents(tenantId: string, opts: O365EventListOptions): Promise<Page<Office365Event>>;
  /** The users alerts named whose UPN has a part starting with each word of `q`; ≤ 4 requests a page (docs/api.md#office-365-user-search). */
  searchUsers(tenantId: string, opts: { q: string; limit: number; cursor?: string | undefined }): Promise<Page<Office365UserHit>>;
}

// -------------------------------------------------------------------------------------- recommendations

/** Filters and position of a recommendation list. */
export interface RecommendationListOptions extends PageOptions {
  status?: readonly RecommendationStatus[] | readonly string[] | undefined;
  priority?: readonly string[] | undefined;
}

/** A recommendation status change: the new status, the note, who (e-mail or `sub`) and when. */
export interface RecommendationStatusChange {
  status: RecommendationStatus;
  note: string;
  by: string;
  /** Cognito `sub` of who changed it (the identity; `by` is for display). */
  bySub?: string;
  at: string;
}

/** Storage of recommendations. */
export interface RecommendationsPort {
  /** Creates a recommendation unless its id exists; false on a replay. */
  put(r: Recommendation): Promise<boolean>;
  get(tenantId: string, id: string): Promise<Recommendation | null>;
  /** Writes the change only if the stored status is still `expected`; null (nothing written) otherwise. */
  changeStatus(tenantId: string, id: string, expected: RecommendationStatus, change: RecommendationStatusChange, audit?: AuditEntry): Promise<Recommendation | null>;
  /** Newest first. */
  list(tenantId: string, opts: RecommendationListOptions): Promise<Page<Recommendation>>;
}

// ---------------------------------------------------------------------------------------------- reports

/** What a tenant's report for a period is computed from. */
export interface ReportData {
  tenantId: string;
  /** Incidents created in the period, each with its first status change away from `new` (or null). */
  incidents: { incident: Incident; firstResponseAt: string | null }[];
  /** Every device with its days inside the period. */
  devices: { device: StoredDevice; days: DailyAvailability[] }[];
  /** Alarms raised in the period. */
  alarms: DeviceAlarm[];
}

/** Aggregate attribute name → number (names in `domain/aggregates.ts`). Absent names count as 0. */
export type Counters = Record<string, number>;

/**
 * What a report of one tenant reads for the period `[from, to]` (lambdas/data/reports.ts,
 * `loadReportAggregates`; docs/data-model.md#aggregates): the day aggregates of the UTC days wholly inside
 * the period, the hour aggregates of the UTC hours wholly inside its partial first and last days, the
 * incidents of the partial first and last hours and the alarms of the partial first and last days
 * themselves, the count of the breached-by-`horizon` incidents of the SLA-due hour that holds the horizon,
 * the day aggregates of the availability window and the devices below the availability target now.
 */
/** What a report reads as of `now` whatever its period — the devices below the SLA target and the open outages — so reports of several periods at one `now` read it once (the monthly report's trend). */
export type ReportReadsAtNow = Pick<ReportAggregates, 'belowSla' | 'outages'>;

export interface ReportAggregates {
  tenantId: string;
  /** Day counters of the UTC days wholly inside the period (absent days had no activity). */
  wholeDays: Counters[];
  /** Hour counters (incidents only) of the UTC hours wholly inside the period's partial first/last day. */
  wholeHours: Counters[];
  /** Incidents created in the period's partial first/last UTC hour (outside the whole days and hours). */
  partialIncidents: Incident[];
  /** Device alarms raised in the period's partial first/last UTC day, read as items (see `partialAlarmCounters`). */
  partialAlarms: DeviceAlarm[];
  /**
   * The alarm counters (`alarmDay`) of a partial day whose alarms were not read as items: its day item's
   * alarm counters minus those of the alarms outside the period that day (the shorter side of the day).
   */
  partialAlarmCounters?: Counters[];
  /**
   * `horizon` = min(to, now); incidents created on the whole days or hours, unresolved, whose SLA is due in
   * the UTC hour of `horizon` before `horizon` (the day and hour counters give the earlier hours).
   */
  boundaryBreached: number;
  /** Day counters of the availability window of the period (`availabilityDays`). */
  availabilityDays: Counters[];
  /** Devices below the availability SLA target now from the stored days (lowest first, at most 10). */
  belowSla: { deviceId: string; name: string; availability30d: number }[];
  /** The open outages of the tenant now (`devicesInOutageOf` in lambdas/data/outages.ts; docs/data-model.md#outages). */
  outages?: TenantOutages;
}

/** One page of the analytics: the tenants (registry order), their report inputs (same order) and the next page's cursor. */
export interface AnalyticsPageData {
  tenants: Tenant[];
  data: ReportAggregates[];
  /** Opaque cursor of the next tenants; null after the last. */
  nextCursor: string | null;
}

/**
 * A device in an outage at the instant read (docs/data-model.md#outages): its recorded last heartbeat
 * (ISO-8601 UTC) and its stored days of the 30-day availability window.
 */
export interface DeviceOutage {
  deviceId: string;
  name: string;
  lastHeartbeatAt: string;
  /** Its stored days of the window (empty when `availability30d` was read from its roll-up). */
  days: DailyAvailability[];
  /** Its 30-day figure with the outage at the instant read, from its roll-up (`availabilityFromRollup`); absent: from `days`. */
  availability30d?: number | null;
  /**
   * Of its open outage, the ms per UTC day (`yyyy-mm-dd`) inside the maintenance windows covering it — not
   * downtime (docs/sla.md#maintenance-windows): already left out of its `availability30d`, and what the fleet
   * figures take off the histogram's outage time (`TenantOutages.dayMs` counts the whole outage). Absent: none.
   */
  maintenanceMs?: Record<string, number>;
}

/**
 * A tenant's open outages at the instant read (docs/data-model.md#outages): `dayMs`, the whole outage time of
 * all its devices in an outage per UTC day of the 30-day window (`histogramOutage` of its heartbeat
 * histogram: the fleet figures), and `devices`, those devices themselves (the below-target list).
 */
export interface TenantOutages {
  /** `yyyy-mm-dd` → ms, days without outage time left out. */
  dayMs: Record<string, number>;
  devices: DeviceOutage[];
}

/** A tenant's write-time aggregates as read (docs/data-model.md#aggregates; names in `domain/aggregates.ts`). */
export interface TenantAggregates {
  /** The tenant's change marker, read with (before) the rest (docs/data-model.md#aggregates; 0 when absent). */
  marker: number;
  /** Current-state counters (incidents by status × severity, open alarms, Office 365 alarms, devices). */
  stats: Counters;
  /** Devices by the minute of their last heartbeat. */
  heartbeat: Counters;
  /** Per UTC day (`yyyy-mm-dd`) counters of the days read; a day without activity is absent. */
  days: Map<string, Counters>;
}

/** Storage the reports read. */
export interface ReportsPort {
  /** Incidents created, devices with their days, and alarms raised in `[from, to]` (ISO-8601 UTC) for one tenant. */
  load(tenantId: string, from: string, to: string): Promise<ReportData>;
  /**
   * The tenant's aggregates without days (stats, change marker, heartbeat histogram): ONE Query. What a reader
   * reads after it is at least as new as its change marker (docs/data-model.md#aggregates). Its marker and
   * histogram are also what validates a summary's ETag.
   */
  aggregateHead(tenantId: string): Promise<Omit<TenantAggregates, 'days'>>;
  /** The tenant's day aggregates of `fromDate..toDate` only (UTC dates, inclusive): 1 Query. */
  aggregateDays(tenantId: string, fromDate: string, toDate: string): Promise<Map<string, Counters>>;
  /**
   * The report inputs of tenant `tenantId` for `[from, to]` at `now` from its aggregates (`ReportAggregates`; ≤ 10
   * requests, more for devices in an outage). `atNow`: its `belowSla` and `outages` from another period's inputs
   * at the same `now` (they do not depend on the period), not read again.
   */
  loadAggregates(tenantId: string, from: string, to: string, now: Date, atNow?: ReportReadsAtNow): Promise<ReportAggregates>;
  /**
   * The report inputs of tenant `tenantId` for each of `periods` (ISO-8601 UTC `[from, to]`; same order) at
   * `now`, each what `loadAggregates` gives for it alone, read together (`loadPeriodsAggregates` in
   * lambdas/data/reports.ts): for whole-UTC-days periods (calendar months) ONE Query of the day items over
   * all of them, the reads as of now once (below-SLA index, heartbeat histogram, the devices in an outage)
   * and a BatchGetItem (100 a call; none when no incident is due in a period's boundary hour) of the incidents
   * due in their boundary hours — whatever the number of periods and the tenant's size (the monthly report's
   * six months, lambdas/domain/monthly-report.ts). A period that is not whole UTC days adds its partial reads.
   */
  loadPeriodsAggregates(tenantId: string, periods: readonly { from: string; to: string }[], now: Date): Promise<ReportAggregates[]>;
  /**
   * One page of the analytics (`GET /analytics`): the registry's next tenants (by id, after `opts.cursor`) and
   * their report inputs for the whole UTC days `[from, to]` at `now` — at most `ANALYTICS_PAGE_REQUESTS`
   * requests whatever the number of tenants (more only for devices in an outage, or keys DynamoDB leaves
   * unprocessed): `loadAnalyticsPage` (lambdas/data/reports.ts). @throws ApiError VALIDATION_FAILED (cursor)
   */
  loadAnalyticsPage(opts: { cursor?: string | undefined; limit?: number | undefined }, from: string, to: string, now: Date): Promise<AnalyticsPageData>;
  /** The tenant's list marker of `list`, what validates a list's ETag (`readListMarker`: 1 GetItem, ≤ 0.5 RCU; docs/api.md#conditional-requests). */
  listMarker(tenantId: string, list: ListValidator): Promise<number>;
  /** The tenant's devices below the availability SLA target at `now`, lowest first, at most `limit` (1 Query). */
  devicesBelowSla(tenantId: string, now: Date, limit: number): Promise<{ deviceId: string; name: string; availability30d: number }[]>;
  /**
   * The tenant's devices in an outage at `now`, each with its figure from its roll-up (or its days when the
   * roll-up cannot give it); `heartbeat`: its histogram as already read (else 1 GetItem). Nothing more read when
   * the histogram shows none (docs/data-model.md#outages).
   */
  devicesInOutage(tenantId: string, now: Date, heartbeat?: Counters): Promise<DeviceOutage[]>;
}

// ------------------------------------------------------------------------------------------- repository

/** Every port, as the handlers receive them. */
// ---------------------------------------------------------------------------------------------- audit

/** Filters and page of an audit list (`from`/`to` inclusive; `actor` = sub or e-mail, exact). */
export interface AuditListOptions extends PageOptions, TimeRangeOptions {
  action?: string | undefined;
  actor?: string | undefined;
}

/** Storage of the audit log (docs/api.md#audit-log). */
export interface AuditPort {
  /** Stores one entry on its own (after a Cognito change, or an export). */
  put(entry: AuditEntry): Promise<void>;
  /** One tenant's entries, newest first. */
  listTenant(tenantId: string, opts: AuditListOptions): Promise<Page<AuditEntry>>;
  /** Every tenant's entries, newest first (staff). */
  listAll(opts: AuditListOptions): Promise<Page<AuditEntry>>;
}

// ---------------------------------------------------------------------------------------------- users

/** A group member as ListUsersInGroup lists it: no MFA state (that needs one AdminGetUser per member). */
export type GroupMember = Omit<PoolUser, 'mfa'>;

/**
 * The one user-pool read the incidents API makes: who may be assigned an incident (members of the tenant
 * group and of `admin`; docs/api.md#assignees). One paged ListUsersInGroup per group, nothing else.
 */
export interface GroupMembersPort {
  /** Members of a group, all pages of ListUsersInGroup, no per-user call. */
  listGroupMembers(group: string): Promise<GroupMember[]>;
}

/**
 * The user pool's administrative operations the administration API uses (Cognito `Admin*` calls on one
 * user pool; `lambdas/data/cognito-users.ts`). Errors: a user or group that does not exist →
 * `ApiError('NOT_FOUND')`; other Cognito errors reject as they are.
 */
export interface UsersPort extends GroupMembersPort {
  /** Members of a group (a tenant group or `admin`), with status/enabled/MFA. */
  listGroupUsers(group: string): Promise<PoolUser[]>;
  /** Number of members of a group (all pages of ListUsersInGroup; no per-user call). */
  countGroupUsers(group: string): Promise<number>;
  getUser(username: string): Promise<PoolUser | null>;
  /** Creates the group unless it exists (idempotent). */
  ensureGroup(group: string, description: string): Promise<void>;
  /**
   * Creates the user (verified e-mail, Cognito sends the temporary password) unless a user with that
   * e-mail exists; returns the user and whether it was created. With `permanentPassword` (the operator's
   * command line only: CI seeding, local stack) no e-mail is sent and that password is set as permanent,
   * for an existing user too (AdminSetUserPassword, which the admin Lambda's role may not call).
   */
  createUser(email: string, opts?: CreateUserOptions): Promise<{ user: PoolUser; created: boolean }>;
  /** Sends the invitation again (`MessageAction: RESEND`; only for FORCE_CHANGE_PASSWORD users). */
  resendInvitation(username: string): Promise<PoolUser>;
  addToGroup(username: string, group: string): Promise<void>;
  removeFromGroup(username: string, group: string): Promise<void>;
  setEnabled(username: string, enabled: boolean): Promise<void>;
  /** Turns the user's TOTP off (it must set it up again). */
  resetMfa(username: string): Promise<void>;
  /** Group names of the user. */
  groupsOf(username: string): Promise<string[]>;
  /**
   * One page of a group's members (one ListUsersInGroup, at most `limit` ≤ 60), each with its `name`
   * attribute; `nextToken` is Cognito's opaque token of the next page (absent on the last).
   */
  listGroupPage(group: string, opts: { limit: number; token?: string | undefined }): Promise<{ users: NamedPoolUser[]; nextToken?: string }>;
  /** Deletes the user from the pool (AdminDeleteUser; the team page's removal of a user left in no group). */
  deleteUser(username: string): Promise<void>;
}

/** A pool user with its `name` attribute, when it has one. */
export type NamedPoolUser = PoolUser & { name?: string };

/** Options of `UsersPort.createUser`. */
export interface CreateUserOptions {
  /** Operator's command line only: set this permanent password, send no e-mail. */
  permanentPassword?: string | undefined;
  /** The `name` attribute of a created user. */
  name?: string | undefined;
  /** Refuse an e-mail that has a user already: ApiError USER_EXISTS (409), nothing changed (the team invitation). */
  mustBeNew?: boolean | undefined;
}

/** Tenant registry writes of the administration API, each stored with its audit entry in one transaction. */
export interface TenantAdminPort {
  /** Registers the tenant; false when the id exists (nothing written). */
  create(tenant: Tenant, audit: AuditEntry): Promise<boolean>;
  /** Replaces the declared attributes of a registered tenant; false when it is not registered. */
  update(tenant: Tenant, audit: AuditEntry): Promise<boolean>;
  /**
   * Counts `username` in the tenant's `userCount` (once: false when counted already) and stores `audit` with it;
   * `at` is the ISO-8601 UTC time of the change (docs/data-model.md#tenant-counts).
   */
  addMember(tenantId: string, username: string, at: string, audit: AuditEntry | null): Promise<boolean>;
  /**
   * Stops counting `username` in the tenant's `userCount` and stores `audit` with it, in one transaction (false
   * when it was not counted: then nothing is written, `audit` included).
   */
  removeMember(tenantId: string, username: string, audit?: AuditEntry | null): Promise<boolean>;
}

// --------------------------------------------------------------------------------------------- activity

/** The tenant's activity feed and each user's last-seen marker (docs/notifications.md). */
export interface ActivityPort {
  /** One page of the tenant's events, newest first (one Query). @throws ApiError VALIDATION_FAILED (cursor) */
  list(tenantId: string, opts: PageOptions): Promise<Page<ActivityEvent>>;
  /** Events of others after the marker of `sub` (0–99, `capped` when more may exist). */
  countUnread(tenantId: string, sub: string): Promise<ActivityUnread>;
  /** Moves the marker of `sub` to `now` (never back); returns the unread count after the marker stored (the write is its last call). */
  markRead(tenantId: string, sub: string, now: string): Promise<ActivityUnread>;
  /** Stores an event unless one with its key exists (SLA job, seed); true when written. */
  putOnce(event: ActivityEvent): Promise<boolean>;
}

export interface Repository {
  activity: ActivityPort;
  audit: AuditPort;
  tenantAdmin: TenantAdminPort;
  incidents: IncidentsPort;
  devices: DevicesPort;
  tenants: TenantsPort;
  office365: Office365Port;
  recommendations: RecommendationsPort;
  reports: ReportsPort;
  idempotency: IdempotencyPort;
  /** Notification preferences, webhooks, deliveries and the outbox (docs/notifications.md#delivery). */
  notifications: NotificationsPort;
  /** Session revocation markers (docs/api.md#session-revocation). */
  sessions: SessionRevocationPort;
  /** Users who signed in in no group, waiting for staff (docs/api.md#access-requests). */
  accessRequests: AccessRequestsPort;
  /** A tenant's escalation contacts (docs/api.md#escalation-contacts). */
  escalationContacts: EscalationContactsPort;
  /** Incident attachments' metadata (docs/api.md#attachments). */
  attachments: AttachmentsPort;
  /** A tenant's maintenance windows (docs/api.md#maintenance-windows). */
  maintenanceWindows: MaintenanceWindowsPort;
}

/** Storage of incident attachments' metadata (the bytes are in S3). */
export interface AttachmentsPort {
  /** Stores a pending attachment if its incident exists (checked in the same transaction); false, nothing written, if not. */
  create(attachment: Attachment): Promise<boolean>;
  /** The attachment, or null: ONE GetItem (strongly consistent). */
  get(tenantId: string, incidentId: string, attachmentId: string): Promise<Attachment | null>;
  /** Marks a pending attachment available at `completedAt`, with `audit`, one transaction; false when it was not pending. */
  markAvailable(attachment: Attachment, completedAt: string, audit: AuditEntry): Promise<boolean>;
  /** One page of the incident's attachments, oldest first: ONE Query. @throws ApiError VALIDATION_FAILED (cursor) */
  list(tenantId: string, incidentId: string, opts: { limit: number; cursor?: string | undefined }): Promise<Page<Attachment>>;
}

/** Storage of the maintenance windows (lambdas/data/maintenance-windows.ts; rules: lambdas/domain/maintenance-windows.ts). */
export interface MaintenanceWindowsPort {
  /** The window, or null: ONE GetItem (strongly consistent). */
  get(tenantId: string, windowId: string): Promise<MaintenanceWindow | null>;
  /**
   * One page of the tenant's windows relative to `now` (ISO-8601): `upcoming`/`active`/undefined (not ended) by
   * end time ascending, `past` newest end first. ONE Query per page. @throws ApiError VALIDATION_FAILED (cursor)
   */
  list(tenantId: string, opts: { status?: WindowStatus | undefined; now: string; limit: number; cursor?: string | undefined }): Promise<Page<MaintenanceWindow>>;
  /**
   * Every window of the tenant that overlaps `[from, to]` (ISO-8601, inclusive): one Query of the windows ending
   * after `from` (GSI1 by end time), `startAt ≤ to` filtered; pages followed (a tenant has few such windows).
   * `from` = `to` = now gives the active windows (what an alarm ingest reads).
   */
  overlapping(tenantId: string, from: string, to: string): Promise<MaintenanceWindow[]>;
  /** Stores `w` when the stored version is still `readVersion` (0: must not exist), with `audit`; false, nothing written, otherwise. */
  put(w: MaintenanceWindow, readVersion: number, audit: AuditEntry): Promise<boolean>;
  /** Deletes the window when its version is still `readVersion`, with `audit`; false, nothing written, otherwise. */
  delete(tenantId: string, windowId: string, readVersion: number, audit: AuditEntry): Promise<boolean>;
}

/** Storage of the escalation contacts: one item per tenant. */
export interface EscalationContactsPort {
  /** The tenant's list, or null when it never saved one: ONE GetItem (strongly consistent). */
  get(tenantId: string): Promise<EscalationContacts | null>;
  /**
   * Replaces the list when its stored version is still `readVersion` (0: none stored), with `audit` in the same
   * transaction; false, nothing written, when the version moved meanwhile.
   */
  replace(next: EscalationContacts, readVersion: number, audit: AuditEntry): Promise<boolean>;
}

/** Storage of the access requests. */
export interface AccessRequestsPort {
  /**
   * Stores the request of a sign-in (replacing a pending or granted one of the same user: its latest sign-in);
   * false, nothing written, when staff dismissed that user's request.
   */
  raise(request: AccessRequest, audit: AuditEntry): Promise<boolean>;
  /** The request of user `id`, or null. */
  get(id: string): Promise<AccessRequest | null>;
  /** One page of the requests in `status`, newest first: ONE Query. @throws ApiError VALIDATION_FAILED (cursor) */
  list(status: AccessRequestStatus, opts: { limit: number; cursor?: string | undefined }): Promise<Page<AccessRequest>>;
  /**
   * Stores `decided` (granted or dismissed) only if the stored request is still pending, with `audit`; when granted,
   * in the same transaction counts the user as a member of `decided.tenantId` (ledger item and `userCount`, once).
   * False when the request was no longer pending (nothing written).
   */
  decide(decided: AccessRequest, audit: readonly AuditEntry[]): Promise<boolean>;
}
