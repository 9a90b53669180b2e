/**
 * API contract: zod schemas for every request and response of the business API.
 *
 * One set of schemas validates requests in the Lambda handlers and types the portal's API client
 * (`web/src/shared/lib/api.ts` imports the inferred types). Request bodies are `.strict()`: unknown
 * fields are rejected with `VALIDATION_FAILED`. Times are ISO-8601 UTC strings; percentages are 0–100.
 */
import { z } from 'zod';

/** Incident severities, most severe first (security-operations standard scale). */
export const SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;
export const Severity = z.enum(SEVERITIES);
export type Severity = z.infer<typeof Severity>;

/** Incident lifecycle states; allowed transitions live in `lambdas/domain/incidents.ts`. */
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
  assignee: z.string().nullable(),
  createdAt: IsoTime,
  updatedAt: IsoTime,
  resolvedAt: IsoTime.nullable(),
  /** When the SLA for this severity runs out (createdAt + SLA hours). */
  slaDueAt: IsoTime,
  /** Optimistic-concurrency version; starts at 1, +1 per accepted update. */
  version: z.number().int().positive(),
});
export type Incident = z.infer<typeof Incident>;

export const IncidentComment = z.object({
  id: z.string(),
  author: z.string(),
  body: z.string(),
  createdAt: IsoTime,
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
  changes: z.array(FieldChange),
});
export type IncidentChange = z.infer<typeof IncidentChange>;

export const IncidentDetail = Incident.extend({
  comments: z.array(IncidentComment),
  history: z.array(IncidentChange),
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
  })
  .refine(
    (b) =>
      b.status !== undefined ||
      b.severity !== undefined ||
      b.description !== undefined ||
      b.comment !== undefined ||
      b.title !== undefined ||
      b.category !== undefined ||
      b.assignee !== undefined,
    { message: 'at least one of status, severity, description, title, category, assignee or comment is required' },
  );
export type UpdateIncidentBody = z.input<typeof UpdateIncidentBody>;

export const AddCommentBody = z.strictObject({
  body: z.string().trim().min(1).max(2000),
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
});
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
  title: z.string(),
  severity: Severity,
  state: AlarmState,
  raisedAt: IsoTime,
  acknowledgedAt: IsoTime.nullable(),
  /** E-mail (or `sub`) of who acknowledged. */
  acknowledgedBy: z.string().nullable(),
  clearedAt: IsoTime.nullable(),
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

/** A page of a cursor-paginated list; `nextCursor` is null on the last page. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), nextCursor: Cursor.nullable() });
}
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export const Tenant = z.object({ id: TenantId, name: z.string() });
export type Tenant = z.infer<typeof Tenant>;

export const Me = z.object({
  sub: z.string(),
  email: z.string(),
  groups: z.array(z.string()),
  isAdmin: z.boolean(),
  /** Tenants the caller may act on (all tenants for admin). */
  tenants: z.array(Tenant),
});
export type Me = z.infer<typeof Me>;

/** Stable error codes of the API; the HTTP status for each is fixed in `ERROR_STATUS`. */
export const ERROR_STATUS = {
  INVALID_JSON: 400,
  VALIDATION_FAILED: 400,
  TENANT_REQUIRED: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  VERSION_CONFLICT: 409,
  INVALID_TRANSITION: 409,
  IDEMPOTENCY_KEY_REUSED: 409,
  IDEMPOTENCY_IN_PROGRESS: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  THROTTLED: 429,
  INTERNAL_ERROR: 500,
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

/** Response of `GET /tenants` (admin only): every registered tenant, ordered by id. */
export const TenantList = z.object({ items: z.array(Tenant) });
export type TenantList = z.infer<typeof TenantList>;
