/**
 * API contract: zod schemas for every request and response of the business API.
 *
 * The route table's rows (`routes.ts`) name, per operation, which of these schemas validate its request
 * (in the Lambdas' router) and describe its responses (OpenAPI, the portal's inferred types). Request
 * bodies are `.strict()`: unknown fields are rejected with `VALIDATION_FAILED`. Times are ISO-8601 UTC
 * strings; percentages are 0–100.
 */
import * as z from 'zod';

/** Incident severities, most severe first (security-operations standard scale). */
export const SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;
export const Severity = z.enum(SEVERITIES);
export type Severity = z.infer<typeof Severity>;

/** Incident lifecycle states; the allowed transitions are `INCIDENT_TRANSITIONS` below (enforced by `lambdas/domain/incidents.ts`). */
export const INCIDENT_STATUSES = ['new', 'in_progress', 'on_hold', 'resolved', 'closed'] as const;
export const IncidentStatus = z.enum(INCIDENT_STATUSES);
export type IncidentStatus = z.infer<typeof IncidentStatus>;

/**
 * Allowed status transitions (the incident lifecycle): new → in_progress ⇄ on_hold → resolved → closed;
 * a resolved incident may be reopened (→ in_progress); closed is final. Enforced by the API
 * (409 INVALID_TRANSITION) and used by the portal to offer only valid next states.
 */
export const INCIDENT_TRANSITIONS: Readonly<Record<IncidentStatus, readonly IncidentStatus[]>> = {
  new: ['in_progress'],
  in_progress: ['on_hold', 'resolved'],
  on_hold: ['in_progress', 'resolved'],
  resolved: ['in_progress', 'closed'],
  closed: [],
};

export const INCIDENT_SOURCES = ['portal', 'soc', 'alarm'] as const;
export const IncidentSource = z.enum(INCIDENT_SOURCES);
export type IncidentSource = z.infer<typeof IncidentSource>;

/** A person named on an incident (assignee): e-mail-like handle, 3–254 chars. */
export const PersonRef = z.string().trim().min(3).max(254);

/** Human-readable incident id, unique per tenant: `INC-` + 6+ digits. */
export const IncidentId = z.string().regex(/^INC-\d{6,}$/, 'must look like INC-000123');

/** A tenant id = the name of the customer's Cognito group. */
export const TenantId = z.string().regex(/^[a-z0-9][a-z0-9-]{1,62}$/, 'invalid tenant id');

const IsoTime = z.iso.datetime();

/** Opaque pagination cursor (base64url); never parsed by clients. */
export const Cursor = z.string().min(1).max(2048).regex(/^[A-Za-z0-9_-]+$/, 'invalid cursor');

/** Page size: 1–100, default 20. */
export const Limit = z.coerce.number().int().min(1).max(100).default(20);

/** Query accepted by every tenant-scoped route: `tenant` picks the active tenant when the caller has several. */
export const TenantQuery = z.strictObject({ tenant: TenantId.optional() });

// ---------------------------------------------------------------------------------------------------
// Alarms linked to incidents (docs/api.md#linked-alarms)

/**
 * Most alarms one incident links: 20. Creating it writes one alarm update per link in its TransactWriteItems
 * (≤ 100 actions, https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html),
 * next to the ~12 of the incident itself; and its detail reads them with one BatchGetItem (≤ 100 keys).
 */
export const MAX_LINKED_ALARMS = 20;

export const LINKED_ALARM_KINDS = ['device', 'office365'] as const;

/** A reference to one alarm of the tenant: a device alarm (`deviceId` required: its key) or an Office 365 alert. */
export const AlarmRef = z
  .strictObject({ kind: z.enum(LINKED_ALARM_KINDS), id: z.string().regex(/^[A-Za-z0-9_.:-]{1,128}$/, 'invalid alarm id'), deviceId: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'invalid device id').optional() })
  .refine((r) => (r.kind === 'device') === (r.deviceId !== undefined), { message: 'deviceId is required for a device alarm and only for one', path: ['deviceId'] });
export type AlarmRef = z.infer<typeof AlarmRef>;

/** The identity of an alarm reference: `<kind>#<deviceId>#<id>`. */
export function alarmRefKey(r: AlarmRef): string {
  return `${r.kind}#${r.deviceId ?? ''}#${r.id}`;
}

/**
 * A linked alarm as the incident detail shows it: the reference, whose it is (`name`: the device's name or the
 * affected user, null when unknown), title, severity, state (a device alarm's `state` or an alert's `status`).
 */
export const LinkedAlarm = z.object({
  kind: z.enum(LINKED_ALARM_KINDS),
  id: z.string(),
  deviceId: z.string().optional(),
  name: z.string().nullable(),
  title: z.string(),
  severity: Severity,
  state: z.string(),
  /** When it was raised (device alarm) or detected (Office 365 alert). */
  at: IsoTime,
  incidentId: IncidentId.optional(),
});
export type LinkedAlarm = z.infer<typeof LinkedAlarm>;

export const Incident = z.object({
  id: IncidentId,
  tenantId: TenantId,
  title: z.string(),
  description: z.string(),
  severity: Severity,
  status: IncidentStatus,
  category: z.string(),
  source: IncidentSource,
  reporter: z.string(),
  /** Cognito `sub` of the reporter (the identity; `reporter` is for display). Absent on items written before it was recorded. */
  reporterSub: z.string().optional(),
  assignee: z.string().nullable(),
  createdAt: IsoTime,
  updatedAt: IsoTime,
  resolvedAt: IsoTime.nullable(),
  /** When the resolution target runs out: createdAt + resolution target (docs/sla.md). */
  slaDueAt: IsoTime,
  /** Optimistic-concurrency version; starts at 1, +1 per accepted update. */
  version: z.number().int().positive(),
  /** Response/resolution targets, minutes, fixed when staff triaged the incident; null before triage (docs/sla.md). */
  slaTargets: z.object({ responseMinutes: z.number().int().positive(), resolutionMinutes: z.number().int().positive() }).nullable(),
  /** When staff triaged it (set the severity and fixed the targets); null before. */
  triagedAt: IsoTime.nullable(),
  /** The first staff acknowledgement (staff moving it out of `new`): MTTA's end; null before (docs/sla.md). */
  firstAcknowledgedAt: IsoTime.nullable(),
  /** The customer asked staff to close it (cleared when it closes or reopens). */
  closureRequested: z.boolean(),
  /** When it was closed; null while open. */
  closedAt: IsoTime.nullable(),
  /** SLA result fixed when the incident closed (`met`: resolved by `slaDueAt`); null while open. Never changes. */
  slaResult: z.enum(['met', 'breached']).nullable(),
  /**
   * While resolved: when Vigía closes it if the customer has not confirmed (`resolvedAt` + the tenant's
   * `autoCloseDays`, fixed at resolution; docs/sla.md#automatic-closure); absent otherwise.
   */
  autoCloseAt: IsoTime.optional(),
  /** The alarms it was opened for (docs/api.md#linked-alarms): set at creation, at most `MAX_LINKED_ALARMS`; absent when none. */
  alarms: z.array(AlarmRef).optional(),
});
export type Incident = z.infer<typeof Incident>;

/**
 * Who sees a comment (docs/api.md#internal-notes): `public` = the customer and the SOC; `internal` = an
 * internal work note, written and read by staff only (`admin`, with TOTP), never returned to customers nor
 * sent by any notification channel.
 */
export const COMMENT_VISIBILITIES = ['public', 'internal'] as const;
export const CommentVisibility = z.enum(COMMENT_VISIBILITIES);
export type CommentVisibility = z.infer<typeof CommentVisibility>;

export const IncidentComment = z.object({
  id: z.string(),
  author: z.string(),
  /** Cognito `sub` of the author (`author` is the verified e-mail or the `sub`, for display). Absent on older items. */
  authorSub: z.string().optional(),
  body: z.string(),
  createdAt: IsoTime,
  /** `internal`: a staff-only work note (only staff ever receive one); `public` otherwise. */
  visibility: CommentVisibility,
});
export type IncidentComment = z.infer<typeof IncidentComment>;

export const FieldChange = z.object({
  field: z.string(),
  from: z.string().nullable(),
  to: z.string().nullable(),
});
export const IncidentChange = z.object({
  version: z.number().int().positive(),
  at: IsoTime,
  by: z.string(),
  /** Cognito `sub` of who made the change (`by` is for display). Absent on older items. */
  bySub: z.string().optional(),
  changes: z.array(FieldChange),
  /** Why (staff triage and customer reopen/closure requests give one; docs/sla.md#history). */
  reason: z.string().optional(),
});
export type IncidentChange = z.infer<typeof IncidentChange>;

export const IncidentDetail = Incident.extend({
  comments: z.array(IncidentComment),
  history: z.array(IncidentChange),
  /** Its linked alarms as they are now (docs/api.md#linked-alarms); present when `alarms` is; an alarm deleted since (its TTL) is left out. */
  linkedAlarms: z.array(LinkedAlarm).optional(),
});
export type IncidentDetail = z.infer<typeof IncidentDetail>;

/** Comma-separated list of enum values in a query parameter (`status=new,in_progress`), deduplicated. */
function csvOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z
    .string()
    .max(200)
    .transform((s) => [...new Set(s.split(',').map((x) => x.trim()))])
    .pipe(z.array(z.enum(values)).min(1));
}

/** Sort orders of `GET /incidents` by creation time: `newest` (default) or `oldest`. */
export const INCIDENT_SORTS = ['newest', 'oldest'] as const;

/**
 * Query of `GET /incidents`. Filters combine with AND; `status`/`severity` accept comma-separated lists
 * (OR within the list); `from`/`to` bound `createdAt` (inclusive, ISO-8601 UTC); `q` is a case-insensitive
 * substring of id, title, description or category (2–100 chars). A page may hold fewer than `limit` items
 * while `nextCursor` is not null (the server reads at most a bounded number of items per request); follow
 * `nextCursor` until it is null. A cursor is only valid with the same filters and sort that produced it.
 */
export const ListIncidentsQuery = TenantQuery.extend({
  limit: Limit,
  cursor: Cursor.optional(),
  status: csvOf(INCIDENT_STATUSES).optional(),
  severity: csvOf(SEVERITIES).optional(),
  from: IsoTime.optional(),
  to: IsoTime.optional(),
  q: z.string().trim().min(2).max(100).optional(),
  sort: z.enum(INCIDENT_SORTS).default('newest'),
}).refine((q) => q.from === undefined || q.to === undefined || Date.parse(q.from) <= Date.parse(q.to), {
  message: 'from must not be after to',
  path: ['from'],
});
export type ListIncidentsQuery = z.infer<typeof ListIncidentsQuery>;

export const CreateIncidentBody = z.strictObject({
  title: z.string().trim().min(3).max(120),
  description: z.string().trim().min(1).max(5000),
  severity: Severity,
  category: z.string().trim().min(1).max(60).default('general'),
  /** Who works on it; default unassigned. */
  assignee: PersonRef.nullable().optional(),
  /** Origin of the ticket; only `admin` (the SOC) may set `soc` or `alarm`, customers always open `portal`. */
  source: IncidentSource.optional(),
  /**
   * Alarms of the tenant to link (docs/api.md#linked-alarms): 1–`MAX_LINKED_ALARMS`, each once, none already
   * linked to an open incident; each gets `incidentId` in the transaction that stores the incident.
   */
  alarms: z
    .array(AlarmRef)
    .min(1)
    .max(MAX_LINKED_ALARMS)
    .refine((l) => new Set(l.map(alarmRefKey)).size === l.length, { message: 'each alarm at most once' })
    .optional(),
});
export type CreateIncidentBody = z.input<typeof CreateIncidentBody>;

/**
 * `Idempotency-Key` request header of `POST /incidents`: 1–128 chars of `[A-Za-z0-9._:-]`. Retries with the
 * same key (same tenant) within 24 h return the first result and create nothing; the same key with a
 * different body → 409 IDEMPOTENCY_KEY_REUSED; a retry while the first is still running → 409
 * IDEMPOTENCY_IN_PROGRESS (retry later).
 */
export const IdempotencyKey = z.string().regex(/^[A-Za-z0-9._:-]{1,128}$/, 'invalid Idempotency-Key');

export const UpdateIncidentBody = z
  .strictObject({
    /** The version the client last saw; a stale one is answered 409 VERSION_CONFLICT. */
    version: z.number().int().positive(),
    status: IncidentStatus.optional(),
    severity: Severity.optional(),
    description: z.string().trim().min(1).max(5000).optional(),
    comment: z.string().trim().min(1).max(2000).optional(),
    title: z.string().trim().min(3).max(120).optional(),
    category: z.string().trim().min(1).max(60).optional(),
    /** `null` unassigns. */
    assignee: PersonRef.nullable().optional(),
    /**
     * Staff: triage in the same change (severity with a reason, as `POST /incidents/{id}/triage`), so an
     * untriaged incident can be moved to a provider status in one request (docs/sla.md#triage-first).
     */
    triage: z.strictObject({ severity: Severity, reason: z.string().trim().min(3).max(500) }).optional(),
    /** Staff moving it to `resolved`: also clear its linked device alarms still open (default true; docs/api.md#linked-alarms). */
    clearLinkedAlarms: z.boolean().optional(),
  })
  .refine(
    (b) =>
      b.status !== undefined ||
      b.triage !== undefined ||
      b.severity !== undefined ||
      b.description !== undefined ||
      b.comment !== undefined ||
      b.title !== undefined ||
      b.category !== undefined ||
      b.assignee !== undefined,
    { message: 'at least one of status, severity, triage, description, title, category, assignee or comment is required' },
  );
export type UpdateIncidentBody = z.input<typeof UpdateIncidentBody>;

/** `POST /incidents/{id}/triage` (staff): the severity with a reason; fixes the SLA targets (docs/sla.md). */
export const TriageIncidentBody = z.strictObject({
  version: z.number().int().positive(),
  severity: Severity,
  reason: z.string().trim().min(3).max(500),
});
export type TriageIncidentBody = z.input<typeof TriageIncidentBody>;

/** `POST /incidents/{id}/closure-request` (customer). */
export const ClosureRequestBody = z.strictObject({ note: z.string().trim().min(1).max(2000) });
export type ClosureRequestBody = z.input<typeof ClosureRequestBody>;

/** `POST /incidents/{id}/reopen` (customer, within the grace period of docs/sla.md#reopening). */
export const ReopenIncidentBody = z.strictObject({ reason: z.string().trim().min(3).max(2000) });
export type ReopenIncidentBody = z.input<typeof ReopenIncidentBody>;

/** `POST /incidents/{id}/confirm-resolution` (customer): resolved → closed. */
export const ConfirmResolutionBody = z.strictObject({ note: z.string().trim().min(1).max(2000).optional() });
export type ConfirmResolutionBody = z.input<typeof ConfirmResolutionBody>;

/** Tabs of the SOC queue: `open` = the open work; `resolved` = resolved incidents waiting for the customer (docs/sla.md#soc-queue). */
export const SOC_QUEUE_TABS = ['open', 'resolved'] as const;
/** Orders of the SOC queue: `priority` = untriaged or new first, then by SLA due time (at risk first); `due` = SLA due time alone. */
export const SOC_QUEUE_SORTS = ['priority', 'due'] as const;

/** Query of `GET /soc/queue` (staff): tab, order and filters over the incidents of every tenant (docs/sla.md#soc-queue). */
export const SocQueueQuery = z.strictObject({
  tenant: TenantId.optional(),
  severity: csvOf(SEVERITIES).optional(),
  status: csvOf(INCIDENT_STATUSES).optional(),
  assignee: PersonRef.optional(),
  mine: z.enum(['true', 'false']).optional(),
  /** "Sin asignar": only incidents nobody is assigned (not with `assignee` or `mine`). */
  unassigned: z.enum(['true', 'false']).optional(),
  /** Default `open`. */
  tab: z.enum(SOC_QUEUE_TABS).optional(),
  /** Default `priority`. */
  sort: z.enum(SOC_QUEUE_SORTS).optional(),
  limit: Limit,
  cursor: Cursor.optional(),
});
export type SocQueueQuery = z.input<typeof SocQueueQuery>;

/**
 * One row of the SOC queue: the incident, its minutes to breach (negative = breached) and whether it is at
 * risk (open and `minutesToBreach ≤ 60`, docs/sla.md#soc-queue).
 */
export const SocQueueItem = Incident.extend({ minutesToBreach: z.number().int(), atRisk: z.boolean() });
export type SocQueueItem = z.infer<typeof SocQueueItem>;

/** A page of the SOC queue and the counts of its tabs in the page's scope (every tenant, the customer, the assignee or the unassigned), kept at write time. */
export const SocQueuePage = pageOf(SocQueueItem).extend({
  counts: z.object({ open: z.number().int().nonnegative(), resolved: z.number().int().nonnegative() }),
});
export type SocQueuePage = z.infer<typeof SocQueuePage>;

/** Incidents one `POST /soc/bulk` changes at most: each is its own read and transaction (~2 requests, ~50 ms
 * on DynamoDB), so 25 stay far inside API Gateway's 29 s integration timeout
 * (https://docs.aws.amazon.com/apigateway/latest/developerguide/limits.html) and the Lambda's own timeout. */
export const SOC_BULK_MAX_ITEMS = 25;

/** The bulk actions of the SOC queue (docs/api.md#soc-bulk). */
export const SOC_BULK_ACTIONS = ['assign', 'status', 'close'] as const;

/**
 * `POST /soc/bulk` (staff): one action on up to `SOC_BULK_MAX_ITEMS` incidents of any tenants, each row with
 * the version the client last saw. `assign` needs `assignee` (`null` unassigns), `status` needs `status`,
 * `close` takes neither (resolved → closed). The same incident twice is a 400: nothing is applied.
 */
export const SocBulkBody = z
  .strictObject({
    action: z.enum(SOC_BULK_ACTIONS),
    items: z
      .array(z.strictObject({ tenantId: TenantId, id: IncidentId, version: z.number().int().positive() }))
      .min(1)
      .max(SOC_BULK_MAX_ITEMS),
    assignee: PersonRef.nullable().optional(),
    status: IncidentStatus.optional(),
  })
  .superRefine((b, ctx) => {
    if (b.action === 'assign' && b.assignee === undefined) ctx.addIssue({ code: 'custom', path: ['assignee'], message: 'assign needs an assignee (null unassigns)' });
    if (b.action !== 'assign' && b.assignee !== undefined) ctx.addIssue({ code: 'custom', path: ['assignee'], message: `${b.action} takes no assignee` });
    if (b.action === 'status' && b.status === undefined) ctx.addIssue({ code: 'custom', path: ['status'], message: 'status needs a status' });
    if (b.action !== 'status' && b.status !== undefined) ctx.addIssue({ code: 'custom', path: ['status'], message: `${b.action} takes no status` });
    const seen = new Set<string>();
    b.items.forEach((i, n) => {
      const key = `${i.tenantId}#${i.id}`;
      if (seen.has(key)) ctx.addIssue({ code: 'custom', path: ['items', n], message: `${i.id} of ${i.tenantId} is listed twice` });
      seen.add(key);
    });
  });
export type SocBulkBody = z.infer<typeof SocBulkBody>;

/** The outcome of one row of `POST /soc/bulk`: applied (the incident's new version) or refused (the error the single-incident route would answer). */
export const SocBulkRowResult = z.discriminatedUnion('ok', [
  z.object({ tenantId: z.string(), id: z.string(), ok: z.literal(true), version: z.number().int().positive() }),
  z.object({ tenantId: z.string(), id: z.string(), ok: z.literal(false), code: z.string(), message: z.string() }),
]);
export type SocBulkRowResult = z.infer<typeof SocBulkRowResult>;

/** `POST /soc/bulk` answer: one result per row, in the request's order, and how many were applied. */
export const SocBulkResult = z.object({ applied: z.number().int().nonnegative(), failed: z.number().int().nonnegative(), results: z.array(SocBulkRowResult) });
export type SocBulkResult = z.infer<typeof SocBulkResult>;

/** Someone an incident can be assigned to: a user of the tenant or a staff member (`GET /assignees`). */
export const Assignee = z.object({
  username: z.string(),
  /** The e-mail the incident's `assignee` field takes. */
  email: z.string(),
  staff: z.boolean(),
});
export type Assignee = z.infer<typeof Assignee>;
export const AssigneeList = z.object({ items: z.array(Assignee) });
export type AssigneeList = z.infer<typeof AssigneeList>;

export const AddCommentBody = z.strictObject({
  body: z.string().trim().min(1).max(2000),
  /** `internal` = a staff-only work note (staff with TOTP; a customer gets 403 FORBIDDEN, `details.fields: ['visibility']`). Default `public`. */
  visibility: CommentVisibility.default('public'),
});
export type AddCommentBody = z.input<typeof AddCommentBody>;

export const IncidentIdParams = z.strictObject({ id: IncidentId });

export const DEVICE_STATUSES = ['online', 'degraded', 'offline', 'unknown'] as const;
export const DeviceStatus = z.enum(DEVICE_STATUSES);
export type DeviceStatus = z.infer<typeof DeviceStatus>;

export const Device = z.object({
  id: z.string(),
  tenantId: TenantId,
  name: z.string(),
  type: z.string(),
  site: z.string(),
  ipAddress: z.string(),
  vendor: z.string(),
  model: z.string(),
  /** Derived from `lastHeartbeatAt` at read time (thresholds in `lambdas/domain/devices.ts`). */
  status: DeviceStatus,
  lastHeartbeatAt: IsoTime.nullable(),
  /** Availability over the last 30 days, % (0–100, two decimals); null when no history. */
  availability30d: z.number().min(0).max(100).nullable(),
  /** Number of alarms in state active or acknowledged. */
  openAlarms: z.number().int().min(0),
});
export type Device = z.infer<typeof Device>;

export const ListDevicesQuery = TenantQuery.extend({
  limit: Limit,
  cursor: Cursor.optional(),
  /** Only devices whose name starts with this text, ignoring case and accents (an index range; docs/data-model.md#search). */
  prefix: z.string().trim().min(1).max(100).optional(),
  /**
   * Only devices whose IP address is this one (a complete IPv4/IPv6 address) or starts with it (`10.0.3.`):
   * 2–45 characters of hex digits, `.` and `:`; not with `prefix` (docs/data-model.md#search).
   */
  ip: z.string().trim().regex(/^[0-9A-Fa-f.:]{2,45}$/, 'an IP address or its start: 2–45 of 0-9 a-f . :').optional(),
}).refine((q) => q.prefix === undefined || q.ip === undefined, { message: 'prefix and ip cannot be combined', path: ['ip'] });
export type ListDevicesQuery = z.infer<typeof ListDevicesQuery>;

/** Device id: 1–64 chars of `[A-Za-z0-9_.-]` (assigned by the collectors' inventory). */
export const DeviceId = z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'invalid device id');
/** Alarm id, unique per device: 1–64 chars of `[A-Za-z0-9_.-]`. */
export const AlarmId = z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'invalid alarm id');

/** Device alarm lifecycle: active → acknowledged (customer or SOC) → cleared (collectors only); active → cleared. */
export const ALARM_STATES = ['active', 'acknowledged', 'cleared'] as const;
export const AlarmState = z.enum(ALARM_STATES);
export type AlarmState = z.infer<typeof AlarmState>;

export const DeviceAlarm = z.object({
  id: AlarmId,
  tenantId: TenantId,
  deviceId: DeviceId,
  /**
   * The device's name, copied onto the alarm when it is raised and kept equal to the device's on every rename
   * (docs/data-model.md#alarm-device-names), so an alarm list page shows names without reading the devices.
   * Absent only on alarms written before the copy until `npm run platform:upgrade-data` fills it.
   */
  deviceName: z.string().optional(),
  title: z.string(),
  severity: Severity,
  state: AlarmState,
  raisedAt: IsoTime,
  acknowledgedAt: IsoTime.nullable(),
  /** E-mail (or `sub`) of who acknowledged. */
  acknowledgedBy: z.string().nullable(),
  /** Cognito `sub` of who acknowledged (the identity; `acknowledgedBy` is for display). Absent before an acknowledgement and on older items. */
  acknowledgedBySub: z.string().optional(),
  clearedAt: IsoTime.nullable(),
  /** The incident opened for it (docs/api.md#linked-alarms); absent when none. */
  incidentId: IncidentId.optional(),
  /**
   * Raised inside an active maintenance window covering the device (docs/api.md#maintenance-windows): shown marked,
   * notifies nobody. Absent when not (and on alarms raised before windows existed).
   */
  inMaintenance: z.boolean().optional(),
  /** The window it was raised in, with `inMaintenance`. */
  maintenanceWindowId: z.string().optional(),
});
export type DeviceAlarm = z.infer<typeof DeviceAlarm>;

/** Query of `GET /alarms`: newest raised first; filters AND-combined; `from`/`to` bound `raisedAt` (inclusive). */
export const ListAlarmsQuery = TenantQuery.extend({
  limit: Limit,
  cursor: Cursor.optional(),
  state: csvOf(ALARM_STATES).optional(),
  severity: csvOf(SEVERITIES).optional(),
  deviceId: DeviceId.optional(),
  from: IsoTime.optional(),
  to: IsoTime.optional(),
}).refine((q) => q.from === undefined || q.to === undefined || Date.parse(q.from) <= Date.parse(q.to), {
  message: 'from must not be after to',
  path: ['from'],
});
export type ListAlarmsQuery = z.input<typeof ListAlarmsQuery>;

export const DeviceIdParams = z.strictObject({ id: DeviceId });
export const AlarmParams = z.strictObject({ deviceId: DeviceId, alarmId: AlarmId });

/** One UTC day of availability. */
export const DailyAvailability = z.object({
  date: z.string(),
  /** % of the monitored time the device was available, 0–100. */
  availablePct: z.number().min(0).max(100),
  /** Seconds monitored that day. */
  monitoredSeconds: z.number().min(0),
});

/** Availability over a trailing window ending today (UTC) against the SLA target. */
export const AvailabilityWindow = z.object({
  days: z.number().int(),
  /** Monitored-time-weighted %, two decimals; null when nothing was monitored. */
  availablePct: z.number().min(0).max(100).nullable(),
  /** Whether `availablePct >= slaTargetPct`; null without data. */
  meetsSla: z.boolean().nullable(),
});

/** `GET /devices/{id}`: the device, availability per day (last 90 days, oldest first) and over 7/30/90 days. */
export const DeviceDetail = Device.extend({
  /** Availability target of the managed-service SLA, %. */
  slaTargetPct: z.number(),
  availability: z.object({ last7d: AvailabilityWindow, last30d: AvailabilityWindow, last90d: AvailabilityWindow }),
  daily: z.array(DailyAvailability),
  /** Alarms in state active or acknowledged, newest first. */
  activeAlarms: z.array(DeviceAlarm),
});
export type DeviceDetail = z.infer<typeof DeviceDetail>;

/** Collector event id: unique per event; a replay with the same id changes nothing. */
export const EventId = z.string().regex(/^[A-Za-z0-9_.:-]{1,128}$/, 'invalid event id');

/** `POST /ingest/heartbeats`: one device heartbeat. */
export const HeartbeatIngest = z.strictObject({
  eventId: EventId,
  tenantId: TenantId,
  deviceId: DeviceId,
  at: IsoTime,
});
export type HeartbeatIngest = z.infer<typeof HeartbeatIngest>;

/** `POST /ingest/device-alarms`: raise (`action: raise`) or clear (`action: clear`) a device alarm. */
export const DeviceAlarmIngest = z.discriminatedUnion('action', [
  z.strictObject({
    action: z.literal('raise'),
    eventId: EventId,
    tenantId: TenantId,
    deviceId: DeviceId,
    alarmId: AlarmId,
    severity: Severity,
    title: z.string().trim().min(1).max(200),
    at: IsoTime,
  }),
  z.strictObject({
    action: z.literal('clear'),
    eventId: EventId,
    tenantId: TenantId,
    deviceId: DeviceId,
    alarmId: AlarmId,
    at: IsoTime,
  }),
]);
export type DeviceAlarmIngest = z.infer<typeof DeviceAlarmIngest>;

/** Answer of every ingest route: `applied` false when the event was a replay or stale (nothing changed). */
export const IngestResult = z.object({ eventId: EventId, applied: z.boolean() });
export type IngestResult = z.infer<typeof IngestResult>;

/**
 * Most heartbeats in one `POST /ingest/heartbeats/batch` (docs/api.md#batch-heartbeats): 100 entries of
 * ~110 bytes fit the request body limit (`MAX_BODY_BYTES`, 16 KB) with room for long ids.
 */
export const MAX_HEARTBEAT_BATCH = 100;

/**
 * `POST /ingest/heartbeats/batch`: heartbeats of any devices of the tenants the collector may write. The
 * envelope is validated here; each entry is validated on its own as a `HeartbeatIngest`, so a bad entry
 * is answered in its own result and does not refuse the others.
 */
export const HeartbeatBatchIngest = z.strictObject({
  heartbeats: z.array(z.unknown().describe('a HeartbeatIngest')).min(1).max(MAX_HEARTBEAT_BATCH),
});
export type HeartbeatBatchIngest = z.infer<typeof HeartbeatBatchIngest>;

/** One entry's outcome: `applied` (202-like), a replay/stale beat (200-like), or the error it would have had alone. */
export const HeartbeatBatchEntryResult = z.object({
  /** Position of the entry in the request (0-based). */
  index: z.number().int().min(0),
  /** The entry's `eventId`, or null when the entry has none that is valid. */
  eventId: EventId.nullable(),
  status: z.enum(['applied', 'replay', 'error']),
  /** With `status: error`: the code and message the entry would have been answered alone (e.g. NOT_FOUND, FORBIDDEN, VALIDATION_FAILED, SERVICE_UNAVAILABLE — send it again). */
  error: z.object({ code: z.string().describe('an error code of the API (`ERROR_STATUS`)'), message: z.string() }).nullable(),
});
export type HeartbeatBatchEntryResult = z.infer<typeof HeartbeatBatchEntryResult>;

/** Answer of `POST /ingest/heartbeats/batch`: one result per entry, in request order, and the counts. */
export const HeartbeatBatchResult = z.object({
  applied: z.number().int().min(0),
  replayed: z.number().int().min(0),
  failed: z.number().int().min(0),
  results: z.array(HeartbeatBatchEntryResult),
});
export type HeartbeatBatchResult = z.infer<typeof HeartbeatBatchResult>;

// ---------------------------------------------------------------------------------------------------
// Office 365 (alerts and audit events pushed by the collectors)

export const O365_ALARM_STATUSES = ['active', 'investigating', 'resolved'] as const;
export const O365AlarmStatus = z.enum(O365_ALARM_STATUSES);

/** An Office 365 alert (e.g. from Microsoft Defender / Purview alert policies), as the SOC reports it. */
export const Office365Alarm = z.object({
  id: EventId,
  tenantId: TenantId,
  title: z.string(),
  severity: Severity,
  category: z.string(),
  status: O365AlarmStatus,
  /** UPN / e-mail of the affected user; null when the alert is not about one user. */
  affectedUser: z.string().nullable(),
  detectedAt: IsoTime,
  updatedAt: IsoTime,
  /** The incident opened for it (docs/api.md#linked-alarms); absent when none. */
  incidentId: IncidentId.optional(),
  /**
   * When someone at Vigía (the customer or the SOC) acknowledged it (ISO-8601 UTC; docs/api.md#acknowledging-office-365-alerts).
   * Vigía's own mark, beside Microsoft's `status`, which the collectors keep sending and which it never
   * changes; absent while nobody acknowledged it.
   */
  acknowledgedAt: IsoTime.optional(),
  /** Who acknowledged it (e-mail or name, for display); absent while nobody did. */
  acknowledgedBy: z.string().optional(),
  /** Cognito `sub` of who acknowledged it; absent while nobody did. */
  acknowledgedBySub: z.string().optional(),
});
export type Office365Alarm = z.infer<typeof Office365Alarm>;

/** `POST /office365/alarms/{alarmId}/acknowledge`: the alert's id. */
export const O365AlarmParams = z.strictObject({ alarmId: EventId });


// ---------------------------------------------------------------------------------------------------
// Alarm console (staff): device alarms and Office 365 alerts of every tenant (docs/api.md#alarm-console)

/** What a console row is: a device alarm or an Office 365 alert. */
export const ALARM_CONSOLE_KINDS = ['device', 'office365'] as const;
/**
 * The console's states, one scale for both kinds: device alarm `active` / Office 365 `active` → `open`;
 * `acknowledged` / `investigating` → `acknowledged`; `cleared` / `resolved` → `cleared` (`consoleStateOf`).
 */
export const ALARM_CONSOLE_STATES = ['open', 'acknowledged', 'cleared'] as const;
export type AlarmConsoleState = (typeof ALARM_CONSOLE_STATES)[number];

/** One row of the alarm console: the alarm or alert as its kind stores it, with the state on the console's scale. */
export const AlarmConsoleItem = z.object({
  kind: z.enum(ALARM_CONSOLE_KINDS),
  tenantId: TenantId,
  /** The alarm id (unique per device) or the Office 365 alert id. */
  id: z.string(),
  /** The device of a device alarm; null for an Office 365 alert. */
  deviceId: z.string().nullable(),
  /** The device's name (a device alarm; null on alarms stored before the names were copied, and for alerts). */
  deviceName: z.string().nullable(),
  /** The affected user of an Office 365 alert; null for a device alarm or an alert about no one user. */
  affectedUser: z.string().nullable(),
  title: z.string(),
  severity: Severity,
  state: z.enum(ALARM_CONSOLE_STATES),
  /** The state as its kind names it (device alarm `active`/`acknowledged`/`cleared`; alert `active`/`investigating`/`resolved`). */
  sourceState: z.string(),
  /** When it was raised (device alarm `raisedAt`; alert `detectedAt`). */
  raisedAt: IsoTime,
  acknowledgedAt: IsoTime.nullable(),
  acknowledgedBy: z.string().nullable(),
  clearedAt: IsoTime.nullable(),
  /** A device alarm raised inside a maintenance window (docs/api.md#maintenance-windows); absent otherwise. */
  inMaintenance: z.boolean().optional(),
});
export type AlarmConsoleItem = z.infer<typeof AlarmConsoleItem>;

/** Query of `GET /soc/alarms` (staff): each filter one value; every combination is one index partition. */
export const AlarmConsoleQuery = z.strictObject({
  tenant: TenantId.optional(),
  severity: Severity.optional(),
  state: z.enum(ALARM_CONSOLE_STATES).optional(),
  kind: z.enum(ALARM_CONSOLE_KINDS).optional(),
  limit: Limit,
  cursor: Cursor.optional(),
});
export type AlarmConsoleQuery = z.input<typeof AlarmConsoleQuery>;

/** An Office 365 unified audit log record (subset). */
export const Office365Event = z.object({
  id: EventId,
  tenantId: TenantId,
  /** Exchange, SharePoint, OneDrive, AzureActiveDirectory, Teams… */
  workload: z.string(),
  /** e.g. UserLoggedIn, New-InboxRule, FileDownloaded. */
  operation: z.string(),
  user: z.string(),
  /** Succeeded, Failed, PartiallySucceeded… */
  result: z.string(),
  clientIp: z.string().nullable(),
  at: IsoTime,
});
export type Office365Event = z.infer<typeof Office365Event>;

const TimeRange = { from: IsoTime.optional(), to: IsoTime.optional() };
const rangeOk = (q: { from?: string | undefined; to?: string | undefined }) => q.from === undefined || q.to === undefined || Date.parse(q.from) <= Date.parse(q.to);

/** `GET /office365/alarms`: newest detected first; `from`/`to` bound `detectedAt`. */
export const ListO365AlarmsQuery = TenantQuery.extend({
  limit: Limit,
  cursor: Cursor.optional(),
  ...TimeRange,
  severity: csvOf(SEVERITIES).optional(),
  status: csvOf(O365_ALARM_STATUSES).optional(),
  user: z.string().trim().min(1).max(254).optional(),
}).refine(rangeOk, { message: 'from must not be after to', path: ['from'] });
export type ListO365AlarmsQuery = z.input<typeof ListO365AlarmsQuery>;

/** `GET /office365/events`: newest first; `from`/`to` bound `at`; exact-match filters. */
export const ListO365EventsQuery = TenantQuery.extend({
  limit: Limit,
  cursor: Cursor.optional(),
  ...TimeRange,
  workload: z.string().trim().min(1).max(60).optional(),
  operation: z.string().trim().min(1).max(120).optional(),
  user: z.string().trim().min(1).max(254).optional(),
  result: z.string().trim().min(1).max(60).optional(),
}).refine(rangeOk, { message: 'from must not be after to', path: ['from'] });
export type ListO365EventsQuery = z.input<typeof ListO365EventsQuery>;

/** `POST /ingest/office365/alarms`: creates or updates an alert (newer `updatedAt` wins; replays are no-ops). */
export const O365AlarmIngest = z.strictObject({
  eventId: EventId,
  tenantId: TenantId,
  alarmId: EventId,
  title: z.string().trim().min(1).max(200),
  severity: Severity,
  category: z.string().trim().min(1).max(60),
  status: O365AlarmStatus,
  affectedUser: z.string().trim().min(1).max(254).nullable(),
  detectedAt: IsoTime,
  updatedAt: IsoTime,
});
export type O365AlarmIngest = z.infer<typeof O365AlarmIngest>;

/** `POST /ingest/office365/events`: one audit record; `eventId` is its id (a replay is a no-op). */
export const O365EventIngest = z.strictObject({
  eventId: EventId,
  tenantId: TenantId,
  workload: z.string().trim().min(1).max(60),
  operation: z.string().trim().min(1).max(120),
  user: z.string().trim().min(1).max(254),
  result: z.string().trim().min(1).max(60),
  clientIp: z.string().trim().min(2).max(45).nullable(),
  at: IsoTime,
});
export type O365EventIngest = z.infer<typeof O365EventIngest>;

// ---------------------------------------------------------------------------------------------------
// Recommendations

export const RECOMMENDATION_STATUSES = ['open', 'accepted', 'dismissed', 'done'] as const;
export const RecommendationStatus = z.enum(RECOMMENDATION_STATUSES);
export type RecommendationStatus = z.infer<typeof RecommendationStatus>;
export const RECOMMENDATION_PRIORITIES = ['high', 'medium', 'low'] as const;
export const RecommendationPriority = z.enum(RECOMMENDATION_PRIORITIES);

/**
 * Allowed recommendation status changes: open → accepted | dismissed; accepted → done | dismissed;
 * dismissed → open (reconsider); done is final.
 */
export const RECOMMENDATION_TRANSITIONS: Readonly<Record<RecommendationStatus, readonly RecommendationStatus[]>> = {
  open: ['accepted', 'dismissed'],
  accepted: ['done', 'dismissed'],
  dismissed: ['open'],
  done: [],
};

export const Recommendation = z.object({
  id: EventId,
  tenantId: TenantId,
  title: z.string(),
  rationale: z.string(),
  priority: RecommendationPriority,
  category: z.string(),
  status: RecommendationStatus,
  createdAt: IsoTime,
  /** Last status change: note, who (e-mail or `sub`), when; null until the first change. */
  statusNote: z.string().nullable(),
  statusChangedBy: z.string().nullable(),
  /** Cognito `sub` of who made the last status change (`statusChangedBy` is for display). Absent before a change and on older items. */
  statusChangedBySub: z.string().optional(),
  statusChangedAt: IsoTime.nullable(),
});
export type Recommendation = z.infer<typeof Recommendation>;

export const ListRecommendationsQuery = TenantQuery.extend({
  limit: Limit,
  cursor: Cursor.optional(),
  status: csvOf(RECOMMENDATION_STATUSES).optional(),
  priority: csvOf(RECOMMENDATION_PRIORITIES).optional(),
});
export type ListRecommendationsQuery = z.input<typeof ListRecommendationsQuery>;

export const RecommendationIdParams = z.strictObject({ id: EventId });

/** `PATCH /recommendations/{id}`: a status change with a note (409 INVALID_TRANSITION if not allowed). */
export const UpdateRecommendationBody = z.strictObject({
  status: RecommendationStatus,
  note: z.string().trim().min(1).max(1000),
});
export type UpdateRecommendationBody = z.input<typeof UpdateRecommendationBody>;

/** `POST /ingest/recommendations`: a new recommendation (status open); a replay of the id is a no-op. */
export const RecommendationIngest = z.strictObject({
  eventId: EventId,
  tenantId: TenantId,
  recommendationId: EventId,
  title: z.string().trim().min(3).max(200),
  rationale: z.string().trim().min(1).max(4000),
  priority: RecommendationPriority,
  category: z.string().trim().min(1).max(60),
  at: IsoTime,
});
export type RecommendationIngest = z.infer<typeof RecommendationIngest>;

// ---------------------------------------------------------------------------------------------------
// Reports (per tenant) and analytics (admin, across tenants)

/** Longest report period, days. */
export const MAX_REPORT_DAYS = 366;

/**
 * Query of `GET /reports` / `GET /analytics`: the period `[from, to]` (ISO-8601 UTC; default the 30 days
 * before now, at most `MAX_REPORT_DAYS`), and `format` json (default) or csv (a download).
 */
const ReportQueryFields = TenantQuery.extend({
  from: IsoTime.optional(),
  to: IsoTime.optional(),
  format: z.enum(['json', 'csv']).default('json'),
});
/** The period rules of a report query: `from` ≤ `to`, at most `MAX_REPORT_DAYS` apart. */
const periodRules = <T extends z.ZodType<{ from?: string | undefined; to?: string | undefined }>>(q: T) =>
  q
    .refine(rangeOk, { message: 'from must not be after to', path: ['from'] })
    .refine((v) => v.from === undefined || v.to === undefined || Date.parse(v.to) - Date.parse(v.from) <= MAX_REPORT_DAYS * 86_400_000, {
      message: `the period is at most ${MAX_REPORT_DAYS} days`,
      path: ['to'],
    });
export const ReportQuery = periodRules(ReportQueryFields);
export type ReportQuery = z.input<typeof ReportQuery>;
/**
 * Query of `GET /analytics`: a report query plus the page: `cursor` (the previous page's `nextCursor`) and
 * `limit`, at most that many tenants (1–100; the page holds fewer when the period's length needs it, so that
 * a page stays within its request budget: docs/api.md#analytics). The CSV export ignores both (it is
 * always every tenant).
 */
export const AnalyticsQuery = periodRules(ReportQueryFields.extend({ cursor: Cursor.optional(), limit: z.coerce.number().int().min(1).max(100).optional() }));
export type AnalyticsQuery = z.input<typeof AnalyticsQuery>;

export const ReportFigures = z.object({
  period: z.object({ from: IsoTime, to: IsoTime }),
  incidents: z.object({
    /** Incidents created in the period. */
    total: z.number().int(),
    bySeverity: z.record(Severity, z.number().int()),
    byStatus: z.record(IncidentStatus, z.number().int()),
  }),
  /** Mean time to acknowledge: createdAt → first status change away from `new`, minutes; null without data. */
  mttaMinutes: z.number().nullable(),
  /** Mean time to resolve: createdAt → resolvedAt, minutes, over resolved incidents; null without data. */
  mttrMinutes: z.number().nullable(),
  sla: z.object({
    /** Incidents of the period resolved (or closed after resolution). */
    resolved: z.number().int(),
    /** Of those, resolved by `slaDueAt`. */
    resolvedWithinSla: z.number().int(),
    /** resolvedWithinSla / resolved × 100, two decimals; null when nothing was resolved. */
    compliancePct: z.number().nullable(),
    /** Still unresolved and past `slaDueAt` at the end of the period. */
    openBreached: z.number().int(),
  }),
  availability: z.object({
    /** The availability SLA target per device, %. */
    slaTargetPct: z.number(),
    /**
     * The fleet's availability over the period's UTC days (docs/data-model.md#availability): every device-day's
     * available time over its monitored time, summed over the tenant's devices, %; null without monitored time.
     */
    fleetPct: z.number().nullable(),
    /** Devices whose own 30-day availability is below the target now, lowest first (at most 10). */
    belowSla: z.array(z.object({ tenantId: TenantId, deviceId: z.string(), name: z.string(), availability30d: z.number() })),
  }),
  /** Device alarms raised in the period, grouped by title, most frequent first (top 10). */
  topAlarms: z.array(z.object({ title: z.string(), count: z.number().int(), highestSeverity: Severity })),
});
export type ReportFigures = z.infer<typeof ReportFigures>;

export const Report = ReportFigures.extend({ tenantId: TenantId, generatedAt: IsoTime });
export type Report = z.infer<typeof Report>;

/**
 * `GET /analytics` (admin only), one page: the report figures of the registry's next tenants (by id) and, when
 * this one response holds every tenant (first page, no next one), the figures across all of them (`totals`;
 * null otherwise: across more tenants they are in the CSV export, which always covers all of them).
 */
export const Analytics = z.object({
  generatedAt: IsoTime,
  /** The whole UTC days counted. */
  period: z.object({ from: IsoTime, to: IsoTime }),
  totals: ReportFigures.nullable(),
  tenants: z.array(ReportFigures.extend({ tenantId: TenantId, tenantName: z.string() })),
  /** Cursor of the next tenants; null on the last page. */
  nextCursor: Cursor.nullable(),
});
export type Analytics = z.infer<typeof Analytics>;

// ---------------------------------------------------------------------------------------------------
// Summary (dashboard and calendar): the tenant's write-time aggregates (docs/data-model.md#aggregates)

/** A UTC calendar day, `yyyy-mm-dd`. */
export const UtcDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date yyyy-mm-dd').refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), 'not a calendar date');

/** Longest per-day series of `GET /summary`, days. */
export const MAX_SUMMARY_DAYS = 92;

/**
 * Query of `GET /summary`: the UTC days of the per-day series, `from`..`to` inclusive (default: the 30 days
 * ending today, UTC; at most `MAX_SUMMARY_DAYS`).
 */
export const SummaryQuery = TenantQuery.extend({ from: UtcDate.optional(), to: UtcDate.optional() })
  .refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, { message: 'from must not be after to', path: ['from'] })
  .refine((q) => q.from === undefined || q.to === undefined || (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 < MAX_SUMMARY_DAYS, {
    message: `the series is at most ${MAX_SUMMARY_DAYS} days`,
    path: ['to'],
  });
export type SummaryQuery = z.input<typeof SummaryQuery>;

const bySeverity = z.record(Severity, z.number().int());

/**
 * `GET /summary`: the tenant's figures now, exact for any tenant size, from O(1) reads (one Query of the stats
 * item and the heartbeat histogram, then one Query of at most `MAX_SUMMARY_DAYS` day items and the below-target index).
 */
export const Summary = z.object({
  tenantId: TenantId,
  generatedAt: IsoTime,
  incidents: z.object({
    /** Incidents neither resolved nor closed. */
    open: z.number().int(),
    openBySeverity: bySeverity,
    /** Every incident of the tenant by its current status. */
    byStatus: z.record(IncidentStatus, z.number().int()),
  }),
  alarms: z.object({
    /** Device alarms active or acknowledged. */
    open: z.number().int(),
    openBySeverity: bySeverity,
    /** Of those, still active (not acknowledged). */
    active: z.number().int(),
    acknowledged: z.number().int(),
  }),
  office365: z.object({ alarmsByStatus: z.record(O365AlarmStatus, z.number().int()) }),
  devices: z.object({
    total: z.number().int(),
    /** Devices by status from the minute of their last heartbeat (one-minute resolution at the thresholds). */
    byStatus: z.record(DeviceStatus, z.number().int()),
  }),
  availability: z.object({
    /**
     * The fleet's availability over today (UTC) and the 29 days before, %: every device-day's available time
     * over its monitored time, summed over the tenant's devices (two decimals; null without monitored time).
     */
    pct30d: z.number().nullable(),
    /** The availability SLA target per device, %. */
    slaTargetPct: z.number(),
    /** Devices whose 30-day availability is below the target now, lowest first (at most 10). */
    belowSla: z.array(z.object({ deviceId: z.string(), name: z.string(), availability30d: z.number() })),
  }),
  /** One entry per UTC day of the requested series, oldest first (days without activity have zeros). */
  days: z.array(
    z.object({
      date: UtcDate,
      /** Incidents created that day, by severity. */
      incidentsCreated: bySeverity,
      /** Device alarms raised that day, by severity. */
      alarmsRaised: bySeverity,
    }),
  ),
});
export type Summary = z.infer<typeof Summary>;

/** A page of a cursor-paginated list; `nextCursor` is null on the last page. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), nextCursor: Cursor.nullable() });
}
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** Contract targets of one severity, minutes (response = first staff acknowledgement; resolution = resolved). */
export const SlaTarget = z.strictObject({ responseMinutes: z.number().int().min(1).max(525_600), resolutionMinutes: z.number().int().min(1).max(525_600) });
export type SlaTarget = z.infer<typeof SlaTarget>;
/** Contract SLA targets per severity (a severity left out uses the default targets, docs/api.md#tenants). */
export const SlaTargets = z.strictObject({ critical: SlaTarget.optional(), high: SlaTarget.optional(), medium: SlaTarget.optional(), low: SlaTarget.optional() });
export type SlaTargets = z.infer<typeof SlaTargets>;

/** Days a resolved incident waits for the customer's confirmation before it closes automatically: whole days, 1–90. */
export const AutoCloseDays = z.number().int().min(1).max(90);

export const Tenant = z.object({
  id: TenantId,
  name: z.string(),
  /** Contract targets per severity (absent = defaults). */
  slaTargets: SlaTargets.optional(),
  /** Contracted device availability, % (0–100; absent = default). */
  availabilityTargetPct: z.number().min(0).max(100).optional(),
  /** Days a resolved incident waits for the customer's confirmation before Vigía closes it (1–90; absent = 7, docs/sla.md#automatic-closure). */
  autoCloseDays: AutoCloseDays.optional(),
});
export type Tenant = z.infer<typeof Tenant>;

export const Me = z.object({
  sub: z.string(),
  email: z.string(),
  groups: z.array(z.string()),
  isAdmin: z.boolean(),
  /** Tenants the caller may act on (all tenants for admin). */
  tenants: z.array(Tenant),
  /**
   * The caller signed in through their company's identity provider (the ID token's `identities` claim): their
   * password and second factor are managed there, never in Vigía (docs/api.md#me). Always sent.
   */
  federated: z.boolean().optional(),
  /** That provider's name (Cognito provider name), only when `federated`. */
  identityProvider: z.string().optional(),
  /**
   * The caller's customer role within their tenant (viewer < operator < admin, from the role groups; operator
   * when in none; docs/api.md#customer-roles), so the portal hides what the role cannot do. Absent for staff.
   */
  role: z.enum(['viewer', 'operator', 'admin']).optional(),
});
export type Me = z.infer<typeof Me>;

/** Stable error codes of the API; the HTTP status for each is fixed in `ERROR_STATUS`. */
export const ERROR_STATUS = {
  INVALID_JSON: 400,
  VALIDATION_FAILED: 400,
  TENANT_REQUIRED: 400,
  /** An incident's `assignee` that is not on the tenant's assignee list, `details: { fields: ['assignee'] }` (docs/api.md#assignees). */
  UNKNOWN_ASSIGNEE: 400,
  /** A name reserved for the staff: tenant id `admin`, or a staff e-mail domain, `details: { fields, names }` (docs/api.md#reserved-names). */
  RESERVED_NAME: 400,
  UNAUTHORIZED: 401,
  /** A user token issued before staff disabled the user or took a group from it (docs/api.md#session-revocation). */
  SESSION_REVOKED: 401,
  FORBIDDEN: 403,
  /** A member of `admin` without TOTP set up, on an admin route or another tenant (docs/api.md#staff-accounts-and-totp). */
  MFA_REQUIRED: 403,
  /** A maintenance window whose `endAt` is not after its `startAt`, `details: { fields: ['endAt'] }` (docs/api.md#maintenance-windows); nothing stored. */
  WINDOW_ENDS_BEFORE_START: 400,
  /** A maintenance window longer than 31 days, `details: { fields: ['endAt'], maxDays }`; nothing stored. */
  WINDOW_TOO_LONG: 400,
  /** A maintenance window naming a device the tenant does not have, `details: { fields: ['scope.deviceIds'], deviceIds }`; nothing stored. */
  UNKNOWN_DEVICE: 400,
  /** An attachment whose type is not on the allow-list, `details: { fields: ['contentType'] }` (docs/api.md#attachments); nothing stored. */
  ATTACHMENT_TYPE_NOT_ALLOWED: 400,
  /** An attachment over 25 MiB, `details: { fields: ['size'], maxBytes }` (docs/api.md#attachments); nothing stored. */
  ATTACHMENT_TOO_LARGE: 400,
  NOT_FOUND: 404,
  VERSION_CONFLICT: 409,
  /** `complete` or a download of an attachment whose file is not in the bucket (yet), `details: { attachmentId }` (docs/api.md#attachments). */
  ATTACHMENT_NOT_UPLOADED: 409,
  INVALID_TRANSITION: 409,
  /** Granting or dismissing an access request that is no longer pending, `details: { status }` (docs/api.md#access-requests). */
  ACCESS_REQUEST_DECIDED: 409,
  /** Staff removing their own staff access (`DELETE /staff/{username}` on oneself): the last way back in (docs/api.md#administration). */
  OWN_STAFF_ACCESS: 409,
  /** `POST /team` with an e-mail that has a user already (docs/api.md#team-management); nothing changed. */
  USER_EXISTS: 409,
  /** Disabling, demoting or removing the tenant's last enabled customer admin (docs/api.md#team-management); nothing changed. */
  LAST_ADMIN: 409,
  /** A customer admin disabling, demoting or removing their own account (docs/api.md#team-management); nothing changed. */
  OWN_ACCOUNT: 409,
  /** Staff moving an untriaged incident to a provider status without a `triage` in the request, `details: { from, to, fields: ['triage'] }` (docs/sla.md#triage-first). */
  TRIAGE_REQUIRED: 409,
  /** An e-mail domain of a tenant's identity provider already routes to another provider, `details: { fields: ['emailDomains'], domains }`. */
  IDP_DOMAIN_IN_USE: 409,
  /** The stage has no Cognito domain for staff-configured identity providers (docs/api.md#tenant-identity-provider). */
  FEDERATION_UNAVAILABLE: 409,
  /** A customer user whose role in the tenant is below the row's `minRole`, `details: { required, role }` (docs/api.md#customer-roles). */
  ROLE_REQUIRED: 403,
  /** `POST /incidents` naming an alarm the tenant does not have, `details: { alarms }` (docs/api.md#linked-alarms); nothing is written. */
  ALARM_NOT_FOUND: 404,
  /** `POST /incidents` naming an alarm already linked to an open incident, `details: { alarms: [{ ...ref, incidentId }] }`; nothing is written. */
  ALARM_ALREADY_LINKED: 409,
  IDEMPOTENCY_KEY_REUSED: 409,
  IDEMPOTENCY_IN_PROGRESS: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  THROTTLED: 429,
  INTERNAL_ERROR: 500,
  /** The table is throttling or unreachable past the client's retries; sent with `Retry-After` (docs/api.md#errors). */
  SERVICE_UNAVAILABLE: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

export const ApiErrorBody = z.object({
  code: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]),
  message: z.string(),
  requestId: z.string(),
  /** For VALIDATION_FAILED: one entry per offending field; for VERSION_CONFLICT: `{ currentVersion }`. */
  details: z.unknown().optional(),
});
export type ApiErrorBody = z.infer<typeof ApiErrorBody>;

/** Maximum accepted request body, bytes (API Gateway allows 10 MB; we need far less). */
export const MAX_BODY_BYTES = 16 * 1024;

/** A tenant in the staff's tenant list: the registry item with its user and device counts. */
export const TenantSummary = Tenant.extend({ userCount: z.number().int().min(0).optional(), deviceCount: z.number().int().min(0).optional() });
export type TenantSummary = z.infer<typeof TenantSummary>;

/**
 * Query of `GET /admin/tenants`: a page of the registry, ordered by id (`limit` 1–100, default 20; `cursor` from
 * the previous page's `nextCursor`).
 */
export const ListTenantSummariesQuery = z.strictObject({ limit: Limit, cursor: Cursor.optional() });
export type ListTenantSummariesQuery = z.input<typeof ListTenantSummariesQuery>;

/** Response of `GET /tenants` (admin only): every registered tenant, ordered by id. */
export const TenantList = z.object({ items: z.array(TenantSummary) });
export type TenantList = z.infer<typeof TenantList>;

/** Audit actions (`<target type>.<verb>`), see docs/api.md#audit-log. */
export const AUDIT_ACTIONS = [
  'incident.create',
  'incident.update',
  'incident.triage',
  'incident.comment',
  'incident.closure_request',
  'incident.reopen',
  'incident.confirm_resolution',
  'incident.auto_close',
  'incident.attachment',
  'alarm.acknowledge',
  'alarm.clear',
  'recommendation.update',
  'tenant.create',
  'tenant.update',
  'tenant.identity_provider_set',
  'tenant.identity_provider_delete',
  'user.invite',
  'user.resend_invitation',
  'user.enable',
  'user.disable',
  'user.remove_from_tenant',
  'user.reset_mfa',
  'user.access_request',
  'access_request.grant',
  'access_request.dismiss',
  'staff.grant',
  'staff.revoke',
  'team.invite',
  'team.update',
  'team.remove',
  'escalation_contacts.update',
  'maintenance.create',
  'maintenance.update',
  'maintenance.delete',
  'export.report',
  'export.analytics',
  'export.audit',
] as const;
export const AuditAction = z.enum(AUDIT_ACTIONS);
export type AuditAction = z.infer<typeof AuditAction>;

/**
 * One audit log entry: who (`actor.sub`, verified e-mail only), which tenant, what (`action` on
 * `target`), the changed fields before/after (changed fields only), when (`at`, ISO-8601 UTC), and the
 * request (`requestId`, `sourceIp`). Staff actions outside any tenant (staff grants) use tenant `_staff`.
 */
export const AuditEntry = z.object({
  id: z.string(),
  at: IsoTime,
  tenantId: z.string(),
  actor: z.object({ sub: z.string(), email: z.string().optional() }),
  action: AuditAction,
  /** What was acted on; `name` (a user's e-mail) is stored at write time so the log names people, not internal ids. */
  target: z.object({ type: z.string(), id: z.string(), name: z.string().optional() }),
  before: z.record(z.string(), z.unknown()).optional(),
  after: z.record(z.string(), z.unknown()).optional(),
  requestId: z.string(),
  sourceIp: z.string(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

// ------------------------------------------------------------------------------------------ administration

export const TenantIdParams = z.strictObject({ tenantId: TenantId });
/**
 * A Cognito user name (the pool's `sub`-like user name or the e-mail it signs in with): Cognito's pattern
 * (letters, marks, symbols, numbers, punctuation), without U+FFFD (what a lone surrogate decodes to).
 */
export const Username = z.string().min(1).max(128).regex(/^(?!.*\uFFFD)[\p{L}\p{M}\p{S}\p{N}\p{P}]+$/u, 'invalid user name');
export const UsernameParams = z.strictObject({ username: Username });
export const TenantUserParams = z.strictObject({ tenantId: TenantId, username: Username });

export const CreateTenantBody = z.strictObject({ tenantId: TenantId, name: z.string().trim().min(1).max(120) });
export type CreateTenantBody = z.input<typeof CreateTenantBody>;
export const UpdateTenantBody = z
  .strictObject({
    name: z.string().trim().min(1).max(120).optional(),
    slaTargets: SlaTargets.optional(),
    availabilityTargetPct: z.number().min(0).max(100).optional(),
    autoCloseDays: AutoCloseDays.optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), 'nothing to change');
export type UpdateTenantBody = z.input<typeof UpdateTenantBody>;

/** Cognito user statuses as Cognito spells them. */
export const USER_STATUSES = ['FORCE_CHANGE_PASSWORD', 'CONFIRMED', 'RESET_REQUIRED', 'UNCONFIRMED', 'ARCHIVED', 'COMPROMISED', 'EXTERNAL_PROVIDER', 'UNKNOWN'] as const;

/** A user of the pool as the administration screens show it. */
export const PoolUser = z.object({
  username: z.string(),
  sub: z.string().optional(),
  email: z.string().optional(),
  status: z.enum(USER_STATUSES),
  enabled: z.boolean(),
  /** TOTP set up (software token MFA among the user's MFA settings). */
  mfa: z.boolean(),
  createdAt: IsoTime.optional(),
});
export type PoolUser = z.infer<typeof PoolUser>;
export const PoolUserList = z.object({ items: z.array(PoolUser) });
export type PoolUserList = z.infer<typeof PoolUserList>;

export const InviteUserBody = z.strictObject({ email: z.email().max(254) });
export type InviteUserBody = z.input<typeof InviteUserBody>;
export const SetUserEnabledBody = z.strictObject({ enabled: z.boolean() });

// ------------------------------------------------------------------------------------------ access requests

/** States of an access request (docs/api.md#access-requests): waiting for staff, granted a tenant, or dismissed. */
export const ACCESS_REQUEST_STATUSES = ['pending', 'granted', 'dismissed'] as const;
export const AccessRequestStatus = z.enum(ACCESS_REQUEST_STATUSES);
export type AccessRequestStatus = z.infer<typeof AccessRequestStatus>;

/**
 * A user who signed in while in no group (self-registered, or federated through a provider bound to no tenant),
 * recorded by the pre token generation trigger at that sign-in: one per user name (`id`), `requestedAt` its latest
 * such sign-in (ISO-8601 UTC). `email` as Cognito holds it (`emailVerified` tells whether it was verified), `provider`
 * the identity provider of a federated user (null: the user pool itself), `emailDomain` the e-mail's domain.
 * `status` moves once, from `pending` to `granted` (with `tenantId`) or `dismissed`, by `decidedBy` at `decidedAt`.
 */
export const AccessRequest = z.object({
  id: Username,
  sub: z.string(),
  email: z.string().nullable(),
  emailVerified: z.boolean(),
  provider: z.string().nullable(),
  emailDomain: z.string().nullable(),
  requestedAt: IsoTime,
  status: AccessRequestStatus,
  tenantId: z.string().nullable(),
  decidedAt: IsoTime.nullable(),
  decidedBy: z.string().nullable(),
});
export type AccessRequest = z.infer<typeof AccessRequest>;

/** `GET /access-requests`: one status (default `pending`), newest first; `limit` 1–100 (default 20), `cursor`. */
export const ListAccessRequestsQuery = z.strictObject({ status: AccessRequestStatus.default('pending'), limit: Limit, cursor: Cursor.optional() });
export type ListAccessRequestsQuery = z.input<typeof ListAccessRequestsQuery>;
export const AccessRequestParams = z.strictObject({ id: Username });
/** `POST /access-requests/{id}/grant`: the tenant the user is added to. */
export const GrantAccessRequestBody = z.strictObject({ tenantId: TenantId });
export type GrantAccessRequestBody = z.input<typeof GrantAccessRequestBody>;

// ------------------------------------------------------------------ a tenant's enterprise identity provider

/**
 * An e-mail domain routed to a tenant's identity provider (Cognito's identifier-based routing): lower-cased, at
 * most 40 characters (Cognito `IdpIdentifiers`: 1–40 characters, `[\w\s+=.@-]+`).
 */
export const IdpEmailDomain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?=.{3,40}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, 'Dominio de correo no válido: escribe solo el dominio, p. ej. acme.com (como mucho 40 caracteres).');
const IdpEmailDomains = z
  .array(IdpEmailDomain)
  .min(1, 'Indica al menos un dominio de correo.')
  .max(20, 'Como mucho 20 dominios de correo.')
  .refine((d) => new Set(d).size === d.length, 'Hay un dominio de correo repetido.');
/**
 * An `https://` address (the issuer or the SAML metadata of a customer's identity provider). `http://` passes here only
 * for a loopback host (`127.0.0.1`, `localhost`, `[::1]`): the local identity provider offline; every other stage
 * refuses it (`lambdas/domain/identity-providers.ts`, and Cognito itself).
 */
const IdpHttpsUrl = z
  .url({ protocol: /^https?$/, message: 'Debe ser una dirección https:// completa.' })
  .max(2048, 'Dirección demasiado larga.')
  .refine((u) => u.startsWith('https://') || /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?(\/|$)/.test(u), 'Debe ser una dirección https:// completa.');
/** OAuth scopes Cognito asks a customer's OIDC provider for (space-free tokens, RFC 6749 §3.3); `openid` required. */
const IdpScopes = z
  .array(z.string().regex(/^[\x21\x23-\x5B\x5D-\x7E]{1,128}$/, 'Ámbito no válido (sin espacios ni comillas).'))
  .min(1)
  .max(20)
  .refine((s) => s.includes('openid'), 'Los ámbitos deben incluir openid.');
/** Scopes used when the request names none. */
export const DEFAULT_IDP_SCOPES = ['openid', 'email', 'profile'] as const;

/**
 * `PUT /tenants/{tenantId}/identity-provider`: the tenant's enterprise provider, OIDC (issuer, client id, client
 * secret, scopes) or SAML (metadata URL), and the e-mail domains routed to it (docs/api.md#tenant-identity-provider).
 * `clientSecret` is required when the tenant has no OIDC provider yet; left out on a change, the stored one stays.
 */
export const PutTenantIdentityProviderBody = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('oidc'),
    /** e.g. `https://login.microsoftonline.com/<directory id>/v2.0` (Entra ID). */
    issuerUrl: IdpHttpsUrl,
    clientId: z.string().trim().min(1, 'Indica el ID de cliente.').max(255),
    clientSecret: z.string().min(1, 'El secreto de cliente no puede estar vacío.').max(2048).optional(),
    scopes: IdpScopes.optional(),
    emailDomains: IdpEmailDomains,
  }),
  z.strictObject({
    type: z.literal('saml'),
    /** The provider's federation metadata URL, e.g. Entra ID's "App Federation Metadata Url". */
    metadataUrl: IdpHttpsUrl,
    emailDomains: IdpEmailDomains,
  }),
]);
export type PutTenantIdentityProviderBody = z.input<typeof PutTenantIdentityProviderBody>;

/** A tenant's enterprise provider as staff read it: never the client secret, only whether one is stored. */
export const TenantIdentityProvider = z.object({
  tenantId: TenantId,
  /** Cognito `ProviderName`, derived from the tenant id (stable). */
  providerName: z.string(),
  type: z.enum(['oidc', 'saml']),
  issuerUrl: z.string().optional(),
  clientId: z.string().optional(),
  scopes: z.array(z.string()).optional(),
  metadataUrl: z.string().optional(),
  emailDomains: z.array(z.string()),
  /** OIDC: a client secret is stored (Secrets Manager). */
  clientSecretSet: z.boolean(),
  updatedAt: IsoTime,
});
export type TenantIdentityProvider = z.infer<typeof TenantIdentityProvider>;

/** `GET`/`PUT`/`DELETE /tenants/{tenantId}/identity-provider`: what staff need to configure the tenant's provider. */
export const TenantIdentityProviderState = z.object({
  /** Whether this stage lets staff configure providers (a stage with a Cognito domain and `adminConfiguredProviders`). */
  available: z.boolean(),
  /** The provider name the tenant's provider has (or will have). */
  providerName: z.string(),
  /** The redirect URI (OIDC) / ACS URL (SAML) to register at the customer's provider; null when not available. */
  redirectUrl: z.string().nullable(),
  /** The SAML audience (entity id) to register at the customer's provider: `urn:amazon:cognito:sp:<user pool id>`. */
  samlEntityId: z.string().nullable(),
  /** The provider, or null when none is configured. */
  provider: TenantIdentityProvider.nullable(),
  /** Whether the portal's app client lists the provider (a deploy that rewrites the app client drops it; saving again adds it back). */
  enabledOnAppClient: z.boolean(),
  /**
   * The provider of the stage's providers file bound to this tenant (set at deploy time, changed only by a deploy),
   * with the e-mail domains Cognito routes to it; null when the file binds none to the tenant. It signs the
   * tenant's users in as much as `provider` does (docs/api.md#tenant-identity-provider).
   */
  stageProvider: z.object({ name: z.string(), type: z.enum(['oidc', 'saml']), emailDomains: z.array(z.string()) }).nullable(),
});
export type TenantIdentityProviderState = z.infer<typeof TenantIdentityProviderState>;

/** `GET /audit` query: `tenant` (staff; customers get their own), time range, filters, CSV. */
export const ListAuditQuery = z
  .strictObject({
    tenant: TenantId.optional(),
    from: IsoTime.optional(),
    to: IsoTime.optional(),
    action: AuditAction.optional(),
    actor: z.string().min(1).max(254).optional(),
    limit: Limit,
    cursor: Cursor.optional(),
    format: z.enum(['json', 'csv']).default('json'),
  })
  .refine(rangeOk, { message: 'from must not be after to', path: ['from'] });
export type ListAuditQuery = z.input<typeof ListAuditQuery>;

// ------------------------------------------------------------------------------------------- activity

/**
 * Kinds of activity event (docs/notifications.md#kinds). Each is written in the same TransactWriteItems as
 * the change it describes (`lambdas/data/activity.ts`), built by `lambdas/domain/activity.ts`.
 */
export const ACTIVITY_KINDS = [
  'incident.created',
  'incident.triaged',
  'incident.status_changed',
  'incident.commented',
  'incident.resolved',
  'incident.closed',
  'alarm.raised',
  'alarm.cleared',
  'alarm.acknowledged',
  'office365.alert_raised',
  'recommendation.added',
  'sla.at_risk',
  'sla.breached',
] as const;
export const ActivityKind = z.enum(ACTIVITY_KINDS);
export type ActivityKind = z.infer<typeof ActivityKind>;

/** Severity of an activity event: the subject's severity, or `info` for good news (an alarm cleared). */
export const ACTIVITY_SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
export const ActivitySeverity = z.enum(ACTIVITY_SEVERITIES);
export type ActivitySeverity = z.infer<typeof ActivitySeverity>;

/** What an activity event is about. */
export const ACTIVITY_SUBJECT_TYPES = ['incident', 'alarm', 'office365Alarm', 'recommendation', 'device'] as const;

/** Id of an activity event: a ULID (26 chars, time-sortable) or, for idempotent system events, a deterministic id. */
export const ActivityEventId = z.string().regex(/^[A-Za-z0-9_.:-]{1,160}$/, 'invalid activity event id');

/** Outbox state of an event: `PENDING` until the delivery side has handled it (docs/notifications.md#outbox). */
export const ACTIVITY_OUTBOX_STATES = ['PENDING', 'DONE'] as const;

/**
 * What an activity event says, as a message key and its parameters (strings), rendered in each reader's
 * language by the portal (i18next `notifications.events.*`) and the server (`lambdas/domain/messages.ts`),
 * e.g. `{ key: 'activity.alarm.raised', params: { deviceId: 'dev-007', deviceName: 'FW Madrid', severity: 'high', title: '…' } }`.
 */
export const ActivityMessage = z.object({ key: z.string().max(80), params: z.record(z.string(), z.string()) });
export type ActivityMessage = z.infer<typeof ActivityMessage>;

/**
 * One activity event of a tenant, as stored (item `TENANT#<t>#ACTIVITY` / `EV#<at>#<eventId>`) and as the
 * feed returns it. The contract of the delivery side (docs/notifications.md): fields may be added, never
 * removed. `title` is Spanish and holds no more than the portal shows that tenant's users; `link` is a
 * portal path (with `?tenant=<t>`).
 */
export const ActivityEvent = z.object({
  eventId: ActivityEventId,
  tenantId: TenantId,
  kind: ActivityKind,
  severity: ActivitySeverity,
  /** When the change happened (ISO-8601 UTC); the feed's order. */
  at: IsoTime,
  /** Who made the change: display name and Cognito `sub`; null for the system (collectors, SLA job). */
  actor: z.object({ name: z.string(), sub: z.string().optional() }).nullable(),
  subject: z.object({ type: z.enum(ACTIVITY_SUBJECT_TYPES), id: z.string() }),
  /**
   * Spanish one-line text, e.g. "INC-000012: estado «Nuevo» → «En curso»" — kept for the readers of the stored
   * contract; readers render `message` in their language and fall back to `title` for events stored before it.
   */
  title: z.string(),
  /** Message key and parameters (absent on events stored before issue 32): what readers render. */
  message: ActivityMessage.optional(),
  /** Portal path of the subject, e.g. `/ticket/update/INC-000012?tenant=acme`. */
  link: z.string(),
  /** `PENDING` while the delivery side has not handled it. */
  outbox: z.enum(ACTIVITY_OUTBOX_STATES),
});
export type ActivityEvent = z.infer<typeof ActivityEvent>;

/** `GET /activity` query: `tenant` (staff pick one; customers get their own), page. */
export const ListActivityQuery = TenantQuery.extend({ limit: Limit, cursor: Cursor.optional() });
export type ListActivityQuery = z.input<typeof ListActivityQuery>;

/** The most `GET /activity/unread` counts (the bell shows "99+" beyond: `capped`). */
export const ACTIVITY_UNREAD_MAX = 99;

/** `GET /activity/unread`: events of others since the caller's last "marcar todo como leído". */
export const ActivityUnread = z.object({
  /** Unread events, 0–99. */
  count: z.number().int().min(0).max(ACTIVITY_UNREAD_MAX),
  /** More may exist beyond `count` (show "99+"). */
  capped: z.boolean(),
  /** The caller's marker (ISO-8601 UTC), null when never set. */
  seenAt: IsoTime.nullable(),
});
export type ActivityUnread = z.infer<typeof ActivityUnread>;

// ------------------------------------------------------------------------------------------- notification delivery

/**
 * A user's e-mail preferences in a tenant (`GET`/`PUT /notifications/preferences`; docs/notifications.md#delivery):
 * e-mail on/off, the minimum severity and the kinds (null = every kind) that send an e-mail, and the daily
 * digest flag (instead of one e-mail per event). Users who never saved any get e-mail for `high` and above.
 */
export const NotificationPreferences = z.strictObject({
  email: z.boolean(),
  minSeverity: ActivitySeverity,
  kinds: z.array(ActivityKind).max(ACTIVITY_KINDS.length).nullable(),
  digest: z.boolean(),
  /** Language of the user's e-mails and digests; absent = `es` (the portal sends its language when saving). */
  language: z.enum(['es', 'en']).optional(),
  /** "Informe mensual por correo": the monthly PDF report e-mailed on the 1st (docs/notifications.md#monthly-report-e-mail); absent or false = off. */
  monthlyReport: z.boolean().optional(),
});
export type NotificationPreferences = z.infer<typeof NotificationPreferences>;

/** Webhook formats: Microsoft Teams, Slack (incoming webhooks) and a generic JSON body signed with HMAC-SHA256. */
export const WEBHOOK_FORMATS = ['teams', 'slack', 'json'] as const;
/** A webhook id (`wh-` + 20 lower-case base-32 characters, generated server-side). */
export const WebhookId = z.string().regex(/^wh-[a-z0-9]{8,40}$/, 'invalid webhook id');
export const WebhookIdParams = z.strictObject({ id: WebhookId });

/** `POST /webhooks`: https URL (local stack: also http://localhost), what it receives. */
export const CreateWebhookBody = z.strictObject({
  name: z.string().trim().min(1).max(80),
  kind: z.enum(WEBHOOK_FORMATS),
  url: z.string().trim().min(8).max(2048),
  minSeverity: ActivitySeverity.default('high'),
  kinds: z.array(ActivityKind).max(ACTIVITY_KINDS.length).nullable().default(null),
});
export type CreateWebhookBody = z.input<typeof CreateWebhookBody>;

/**
 * A webhook as the API shows it: the URL masked (Teams and Slack URLs are bearer secrets: scheme, host and the
 * last 4 characters only), never the signing secret (`signed`: it has one).
 */
export const WebhookView = z.object({
  id: WebhookId,
  name: z.string(),
  kind: z.enum(WEBHOOK_FORMATS),
  urlPreview: z.string(),
  minSeverity: ActivitySeverity,
  kinds: z.array(z.string()).nullable(),
  createdAt: IsoTime,
  createdBy: z.string(),
  signed: z.boolean(),
});
export type WebhookView = z.infer<typeof WebhookView>;
export const WebhookList = z.object({ items: z.array(WebhookView) });
/** `POST /webhooks` answer: the webhook and, for `json`, its signing secret — shown this once only. */
export const CreatedWebhook = z.object({ webhook: WebhookView, secret: z.string().nullable() });

/** One delivery to a webhook: `sending` → `sent`, or `failed` (retried at `nextAttemptAt`) → `dead` after 5 attempts. */
export const WebhookDelivery = z.object({
  deliveryId: z.string(),
  eventId: z.string(),
  kind: z.string(),
  title: z.string(),
  state: z.enum(['sending', 'sent', 'failed', 'dead']),
  attempts: z.number().int(),
  lastStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  nextAttemptAt: IsoTime.nullable(),
  createdAt: IsoTime,
  updatedAt: IsoTime,
  sentAt: IsoTime.nullable(),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;
export const WebhookDeliveryList = z.object({ items: z.array(WebhookDelivery) });
/** `POST /webhooks/{id}/test`: whether the receiver answered 2xx, its status, the error otherwise. */
export const WebhookTestResult = z.object({ ok: z.boolean(), status: z.number().int().nullable(), error: z.string().nullable() });
export type WebhookTestResult = z.infer<typeof WebhookTestResult>;
