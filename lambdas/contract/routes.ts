/**
 * The route table: the one place that describes each operation of the business API. A row names the
 * operation (`operationId`, method, path, the Lambda that serves it, who may call it) and carries its
 * contract: request schemas (path, query, body, headers), success responses (status → JSON schema, and
 * whether a `text/csv` download is offered) and the domain error codes it can answer. Nothing else names
 * an operation's schemas.
 *
 * Consumed by
 *  - `infra/` (the CDK RestApi: one resource/method per row, each behind the Cognito user-pool
 *    authorizer or AWS IAM, each integrated with the Lambda named by `handler`),
 *  - `scripts/local/gateway.ts` (the local API gateway: same paths, same authorizer semantics),
 *  - `lambdas/http/api.ts` (validation, identity, groups, tenant and error mapping registered once per
 *    row for the Lambda named by `handler`),
 *  - `lambdas/contract/openapi.ts` (the OpenAPI document),
 *  - the portal's API client (operation ids, paths and the inferred request/response types).
 *
 * Paths use API Gateway's `{param}` syntax. Rules on groups, tenants, statuses and errors: docs/api.md.
 */
import * as z from 'zod';
import {
  AccessRequest,
  AccessRequestParams,
  GrantAccessRequestBody,
  ListAccessRequestsQuery,
  ActivityEvent,
  ActivityUnread,
  ListActivityQuery,
  AddCommentBody,
  AlarmConsoleItem,
  AlarmConsoleQuery,
  AlarmParams,
  Analytics,
  AnalyticsQuery,
  CreateIncidentBody,
  Device,
  DeviceAlarm,
  DeviceAlarmIngest,
  DeviceDetail,
  DeviceIdParams,
  HeartbeatBatchIngest,
  HeartbeatBatchResult,
  HeartbeatIngest,
  MAX_HEARTBEAT_BATCH,
  IdempotencyKey,
  Incident,
  IncidentComment,
  IncidentDetail,
  IncidentIdParams,
  IngestResult,
  ListAlarmsQuery,
  ListDevicesQuery,
  ListIncidentsQuery,
  ListO365AlarmsQuery,
  ListO365EventsQuery,
  ListRecommendationsQuery,
  Me,
  O365AlarmIngest,
  O365EventIngest,
  Office365Alarm,
  O365AlarmParams,
  Office365Event,
  Recommendation,
  RecommendationIdParams,
  RecommendationIngest,
  Report,
  ReportQuery,
  Summary,
  SummaryQuery,
  TenantList,
  TenantSummary,
  ListTenantSummariesQuery,
  TenantQuery,
  UpdateIncidentBody,
  UpdateRecommendationBody,
  pageOf,
  ClosureRequestBody,
  ConfirmResolutionBody,
  ReopenIncidentBody,
  SocBulkBody,
  SocBulkResult,
  SocQueuePage,
  SocQueueQuery,
  AssigneeList,
  TriageIncidentBody,
  AuditEntry,
  CreateTenantBody,
  InviteUserBody,
  ListAuditQuery,
  PoolUser,
  PoolUserList,
  SetUserEnabledBody,
  Tenant,
  TenantIdParams,
  TenantUserParams,
  UpdateTenantBody,
  UsernameParams,
  PutTenantIdentityProviderBody,
  TenantIdentityProviderState,
  NotificationPreferences,
  WebhookList,
  CreateWebhookBody,
  CreatedWebhook,
  WebhookIdParams,
  WebhookView,
  WebhookTestResult,
  WebhookDeliveryList,
  type ErrorCode,
} from './schemas.js';
import { EscalationContacts, PutEscalationContactsBody } from './escalation-contacts.js';
import { AttachmentDownload, AttachmentListQuery, AttachmentPage, AttachmentParams, AttachmentUpload, CreateAttachmentBody, Attachment } from './attachments.js';
import { CommentHit, Office365UserHit, SearchAlarmsQuery, SearchCommentsQuery, SearchOffice365UsersQuery } from './search.js';
import { CreateMaintenanceWindowBody, ListMaintenanceWindowsQuery, MaintenanceWindow, UpdateMaintenanceWindowBody, WindowIdParams } from './maintenance-windows.js';
import { MonthlyReportFile, MonthlyReportParams, MonthlyReportQuery, SlaHistory } from './monthly-report.js';
import { InviteTeamMemberBody, ListTeamQuery, TeamMember, TeamPage, TeamUsernameParams, UpdateTeamMemberBody } from './team.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Names of the Lambda functions that serve the API; each maps to `lambdas/handlers/<name>.ts`. */
export const HANDLER_NAMES = ['incidents', 'devices', 'account', 'ingest', 'office365', 'recommendations', 'reports', 'admin', 'notifications'] as const;
export type HandlerName = (typeof HANDLER_NAMES)[number];

/** Cognito group whose members act on any tenant and open admin-only routes (docs/api.md#roles). */
export const ADMIN_GROUP = 'admin';

/**
 * A customer user's role within their tenant, lowest first (docs/api.md#customer-roles,
 * docs/decisions/customer-roles.md): `viewer` reads, `operator` also works incidents, alarms and their own
 * preferences, `admin` also keeps the tenant's settings, webhooks and users.
 */
export const CUSTOMER_ROLES = ['viewer', 'operator', 'admin'] as const;
export type CustomerRole = (typeof CUSTOMER_ROLES)[number];

/**
 * The Cognito group that gives each customer role. Reserved: never a tenant id (lambdas/domain/reserved-names.ts),
 * never read as a tenant (lambdas/domain/identity.ts). A customer user in none of them is an `operator`
 * ({@link DEFAULT_CUSTOMER_ROLE}); in several, the highest counts.
 */
export const CUSTOMER_ROLE_GROUPS: Readonly<Record<CustomerRole, string>> = {
  viewer: 'customer-viewer',
  operator: 'customer-operator',
  admin: 'customer-admin',
};

/** The role of a customer user in no role group: today's abilities, so users created before roles keep working. */
export const DEFAULT_CUSTOMER_ROLE: CustomerRole = 'operator';

/** Whether `role` reaches `required` (viewer < operator < admin). */
export function roleAtLeast(role: CustomerRole, required: CustomerRole): boolean {
  return CUSTOMER_ROLES.indexOf(role) >= CUSTOMER_ROLES.indexOf(required);
}

/**
 * The lowest customer role a tenant-scoped row needs: its `minRole`, else `viewer` for GET and `operator`
 * for other methods (docs/api.md#customer-roles). `null` on rows that are not tenant-scoped (no customer role applies).
 */
export function resolvedMinRole(route: Pick<RouteDef, 'minRole' | 'method' | 'tenantScoped'>): CustomerRole | null {
  if (!route.tenantScoped) return null;
  if (route.minRole) return route.minRole;
  return route.method === 'GET' ? 'viewer' : 'operator';
}

/** Request schemas of an operation; each is validated before the operation runs (400 VALIDATION_FAILED). */
export interface RequestDef {
  /** Path parameters (`{id}` → `id`). */
  readonly params?: z.ZodType;
  /** Query string (every operation has one: a strict object, unknown parameters are refused). */
  readonly query: z.ZodType;
  /** JSON request body (`Content-Type: application/json`, at most `MAX_BODY_BYTES`). */
  readonly body?: z.ZodType;
  /** Optional request headers, name as documented → schema of the value (e.g. `Idempotency-Key`). */
  readonly headers?: Readonly<Record<string, z.ZodType>>;
}

/** One success response of an operation. */
export interface ResponseDef {
  readonly description: string;
  /** Schema of the `application/json` body. */
  readonly body: z.ZodType;
  /** Also answered as a `text/csv` attachment (when the query asks `format=csv`). */
  readonly csv?: true;
  /**
   * Answered with `ETag` and `Cache-Control: private, no-cache`, and `304 Not Modified` without a body when the
   * request's `If-None-Match` holds the current ETag (the operation returns `CacheValidated`, lambdas/http/api.ts).
   */
  readonly etag?: true;
}

/**
 * The lists answered with a validator ({@link RouteDef.validatedBy}; docs/api.md#conditional-requests): each
 * names the records the list shows, whose writes move the tenant's list marker of that name
 * (`LIST_MARKERS`, lambdas/data/aggregates.ts).
 */
export const LIST_VALIDATORS = ['incidents', 'alarms'] as const;
export type ListValidator = (typeof LIST_VALIDATORS)[number];

/** The conditional-request header of a validated row (`If-None-Match`, one or more entity tags). */
const IfNoneMatch = { 'If-None-Match': z.string().max(1024) } as const;

/** Success statuses the API uses. */
export type SuccessStatus = 200 | 201 | 202;

/** How far staff reach through a row ({@link RouteDef.staffReach}). */
export type StaffReach = 'all' | 'tenant' | 'self' | 'none';

export interface RouteDef {
  /** Stable operation id (also the OpenAPI operationId). */
  readonly operationId: string;
  readonly method: HttpMethod;
  /** API Gateway resource path, e.g. `/incidents/{id}`. */
  readonly path: string;
  readonly handler: HandlerName;
  /** At least one of these groups is required; `[]` = any group. */
  readonly groups: readonly string[];
  /** Whether the route is tenant-scoped (resolves the active tenant from claims + `tenant` query). */
  readonly tenantScoped: boolean;
  /**
   * How far a member of the staff group ({@link ADMIN_GROUP}) reaches through this row, which decides when it
   * must have TOTP (`vigia:mfa` = `totp`; 403 MFA_REQUIRED otherwise; docs/api.md#staff-accounts-and-totp):
   *  - `all`: staff-only rows and views across tenants (every row whose `groups` include `admin`, and the
   *    audit log): TOTP on EVERY call by an `admin` member;
   *  - `tenant`: one tenant's data, chosen with the `tenant` query (`tenantScoped` rows open to any group):
   *    TOTP when the tenant is not one of the caller's own groups;
   *  - `self`: only the caller's own account (`/me`), so the portal can load and lead to TOTP set-up: never;
   *  - `none`: collector rows (`auth: 'iam'`), which take no user tokens.
   * Required on every row so that no row can forget the rule; {@link staffReachProblem} checks it against
   * `groups`, `tenantScoped` and `auth`; the HTTP layer applies it (`assertRowAccess`, lambdas/domain/identity.ts).
   */
  readonly staffReach: StaffReach;
  /**
   * The lowest customer role (viewer < operator < admin) a customer caller needs on a tenant-scoped row; 403
   * ROLE_REQUIRED below it. Defaulted when absent: GET `viewer`, other methods `operator`
   * ({@link resolvedMinRole}). Staff keep their own rules (`groups`, `staffReach`). docs/api.md#customer-roles.
   */
  readonly minRole?: CustomerRole;
  /**
   * Who may call: `cognito` (default) = a user-pool ID token (customers, SOC); `iam` = the security
   * company's collectors, authorised by AWS IAM (SigV4; AuthorizationType.IAM in API Gateway; a local
   * access key in the local gateway). Cognito tokens are refused on `iam` routes and vice versa.
   */
  readonly auth?: 'cognito' | 'iam';
  readonly summary: string;
  readonly request: RequestDef;
  /** Success responses by status (several only together with `statusOf`). */
  readonly responses: Readonly<Partial<Record<SuccessStatus, ResponseDef>>>;
  /**
   * With several success statuses: which one a result gets (e.g. ingest: 202 applied, 200 replay).
   * Without it the row has exactly one success status.
   */
  readonly statusOf?: (body: never) => SuccessStatus;
  /**
   * Error codes the operation itself can answer, beyond those every route of its kind can answer
   * (`plumbingErrors`): e.g. NOT_FOUND for an unknown id, the 409 conflicts.
   */
  readonly errors: readonly ErrorCode[];
  /**
   * A tenant-scoped GET list validated by the HTTP layer (lambdas/http/api.ts, docs/api.md#conditional-requests):
   * answered with a weak `ETag` made of the tenant's list marker of these records and a digest of the request
   * (operation, tenant, validated query and path, caller), and `304 Not Modified` without a body after ONE read
   * (the marker) when `If-None-Match` still holds it. The row also declares the `If-None-Match` header and
   * `etag: true` on its response.
   */
  readonly validatedBy?: ListValidator;
}

/** Query of routes that take no parameters at all. */
const NoQuery = z.strictObject({});

const ingestResponses = {
  202: { description: 'The event was applied', body: IngestResult },
  200: { description: 'A replay of an event already applied (or stale): nothing changed', body: IngestResult },
} as const;
const ingestStatus = (r: IngestResult): SuccessStatus => (r.applied ? 202 : 200);

export const ROUTES = [
  {
    operationId: 'getMe', method: 'GET', path: '/me', handler: 'account', groups: [], tenantScoped: false, staffReach: 'self',
    summary: 'The caller: e-mail, groups and the tenants it may act on',
    request: { query: NoQuery },
    responses: { 200: { description: 'The caller', body: Me } },
    errors: [],
  },
  {
    operationId: 'listTenants', method: 'GET', path: '/tenants', handler: 'account', groups: [ADMIN_GROUP], tenantScoped: false, staffReach: 'all',
    summary: 'All customer tenants (admin only)',
    request: { query: NoQuery },
    responses: { 200: { description: 'Every registered tenant, ordered by id', body: TenantList } },
    errors: [],
  },
  {
    operationId: 'listIncidents', method: 'GET', path: '/incidents', handler: 'incidents', groups: [], tenantScoped: true, staffReach: 'tenant',
    summary: 'Incidents of the tenant, newest first, cursor-paginated; answered with an ETag, and 304 Not Modified after one small read while no incident of the tenant was written (docs/api.md#conditional-requests)',
    request: { query: ListIncidentsQuery, headers: IfNoneMatch },
    responses: { 200: { description: 'A page of incidents (with `ETag` and `Cache-Control: private, no-cache`; 304 without a body when `If-None-Match` holds the current ETag)', body: pageOf(Incident), etag: true } },
    errors: [],
    validatedBy: 'incidents',
  },
  {
    operationId: 'searchComments', method: 'GET', path: '/search/comments', handler: 'incidents', groups: [], tenantScoped: true, staffReach: 'tenant',
    summary: 'Public comments of the tenant whose text has every word of `q`, newest first, cursor-paginated (internal notes never; docs/api.md#comment-search)',
    request: { query: SearchCommentsQuery },
    responses: { 200: { description: 'A page of comments, each with its incident', body: pageOf(CommentHit) } },
    errors: [],
  },
  {
    operationId: 'createIncident', method: 'POST', path: '/incidents', handler: 'incidents', groups: [], tenantScoped: true, staffReach: 'tenant',
    summary: 'Open an incident',
    request: { query: TenantQuery, body: CreateIncidentBody, headers: { 'Idempotency-Key': IdempotencyKey } },
    responses: { 201: { description: 'The incident opened (a retry with the same Idempotency-Key answers the first one again); with `alarms`, linked to them both ways (docs/api.md#linked-alarms)', body: Incident } },
    errors: ['UNKNOWN_ASSIGNEE', 'ALARM_NOT_FOUND', 'ALARM_ALREADY_LINKED', 'IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_IN_PROGRESS'],
  },
  {
    operationId: 'getIncident', method: 'GET', path: '/incidents/{id}', handler: 'incidents', groups: [], tenantScoped: true, staffReach: 'tenant',
    summary: 'One incident with its comments and change history; staff with TOTP also get its internal notes (docs/api.md#internal-notes)',
    request: { params: IncidentIdParams, query: TenantQuery },
    responses: { 200: { description: 'The incident with comments (internal notes only for staff) and history', body: IncidentDetail } },
    errors: ['NOT_FOUND'],
  },
  {
    operationId: 'updateIncident', method: 'PATCH', path: '/incidents/{id}', handler: 'incidents', groups: [], tenantScoped: true, staffReach: 'tenant',
    summary: 'Change status, assignee, category, title or description, per role (version-checked; docs/api.md#incident-roles); a provider status on an untriaged incident needs a triage (docs/sla.md#triage-first)',
    request: { params: IncidentIdParams, query: TenantQuery, body: UpdateIncidentBody },
    responses: { 200: { description: 'The incident after the change', body: Incident } },
    errors: ['NOT_FOUND', 'VERSION_CONFLICT', 'INVALID_TRANSITION', 'TRIAGE_REQUIRED', 'UNKNOWN_ASSIGNEE'],
  },
  {
    operationId: 'triageIncident', method: 'POST', path: '/incidents/{id}/triage', handler: 'incidents', groups: [ADMIN_GROUP], tenantScoped: true, staffReach: 'all',
    summary: 'Set the severity with a reason and fix the SLA targets from the tenant contract (staff only; docs/sla.md)',
    request: { params: IncidentIdParams, query: TenantQuery, body: TriageIncidentBody },
    responses: { 200: { description: 'The incident after triage', body: Incident } },
    errors: ['NOT_FOUND', 'VERSION_CONFLICT', 'INVALID_TRANSITION'],
  },
  {
    operationId: 'requestIncidentClosure', method: 'POST', path: '/incidents/{id}/closure-request', handler: 'incidents', groups: [], tenantScoped: true, staffReach: 'tenant',
    summary: 'Ask the SOC to close the incident (customers)',
    request: { params: IncidentIdParams, query: TenantQuery, body: ClosureRequestBody },
    responses: { 200: { description: 'The incident with the closure requested', body: Incident } },
    errors: ['NOT_FOUND', 'INVALID_TRANSITION'],
  },
  {
    operationId: 'reopenIncident', method: 'POST', path: '/incidents/{id}/reopen', handler: 'incidents', groups: [], tenantScoped: true, staffReach: 'tenant',
    summary: 'Reopen a resolved or closed incident within the grace period (customers; docs/sla.md#reopening)',
    request: { params: IncidentIdParams, query: TenantQuery, body: ReopenIncidentBody },
    responses: { 200: { description: 'The incident, in progress again', body: Incident } },
    errors: ['NOT_FOUND', 'INVALID_TRANSITION'],
  },
  {
    operationId: 'confirmIncidentResolution', method: 'POST', path: '/incidents/{id}/confirm-resolution', handler: 'incidents', groups: [], tenantScoped: true, staffReach: 'tenant',
    summary: 'Confirm the resolution: resolved → closed (customers)',
    request: { params: IncidentIdParams, query: TenantQuery, body: ConfirmResolutionBody },
    responses: { 200: { description: 'The incident, closed', body: Incident } },
    errors: ['NOT_FOUND', 'INVALID_TRANSITION'],
  },
  {
    operationId: 'listSocQueue', method: 'GET', path: '/soc/queue', handler: 'incidents', groups: [ADMIN_GROUP], tenantScoped: false, staffReach: 'all',
    summary: 'The SOC queue of every tenant: open work (untriaged or new first, then by SLA due time) or resolved incidents waiting for the customer, with tab counts; one Query per page (staff only)',
    request: { query: SocQueueQuery },
    responses: { 200: { description: 'A page of the SOC queue and its tab counts', body: SocQueuePage } },
    errors: [],
  },
  {
    operationId: 'bulkUpdateSocQueue', method: 'POST', path: '/soc/bulk', handler: 'incidents', groups: [ADMIN_GROUP], tenantScoped: false, staffReach: 'all',
    summary: 'Assign, change the status of, or close up to 25 incidents of any tenants at once (staff only): each row applied on its own as PATCH /incidents/{id} would (version, transitions, triage first, audit), answered per row (docs/api.md#soc-bulk)',
    request: { query: NoQuery, body: SocBulkBody },
    responses: { 200: { description: 'One result per row, in the request order: applied with its new version, or the error code and message that row got', body: SocBulkResult } },
    errors: [],
  },
  {
    operationId: 'listAssignees', method: 'GET', path: '/assignees', handler: 'admin', groups: [ADMIN_GROUP], tenantScoped: true, staffReach: 'all',
    summary: 'Who an incident of the tenant can be assigned to: its enabled users and the staff (staff only)',
    request: { query: TenantQuery },
    responses: { 200: { description: 'The tenant users and staff, staff first, by e-mail', body: AssigneeList } },
    errors: [],
  },
  {
    operationId: 'addIncidentComment', method: 'POST', path: '/incidents/{id}/comments', handler: 'incidents', groups: [], tenantScoped: true, staffReach: 'tenant',
    summary: 'Add a comment to the incident timeline; `visibility: internal` = a staff-only work note (docs/api.md#internal-notes)',
    request: { params: IncidentIdParams, query: TenantQuery, body: AddCommentBody },
    responses: { 201: { description: 'The comment added', body: IncidentComment } },
    errors: ['NOT_FOUND'],
  },
  // Attachments (docs/api.md#attachments): the file goes browser → S3 with a presigned POST, never through Lambda.
  {
    operationId: 'createIncidentAttachment', method: 'POST', path: '/incidents/{id}/attachments', handler: 'incidents', groups: [], tenantScoped: true, staffReach: 'tenant',
    summary: 'Declare an attachment (name, allow-listed type, size ≤ 25 MiB) and get the presigned POST to upload it straight to S3 (docs/api.md#attachments)',
    request: { params: IncidentIdParams, query: TenantQuery, body: CreateAttachmentBody },
    responses: { 201: { description: 'The pending attachment and the presigned POST (url, fields; 300 s)', body: AttachmentUpload } },
    errors: ['ATTACHMENT_TYPE_NOT_ALLOWED', 'ATTACHMENT_TOO_LARGE', 'NOT_FOUND'],
  },
  {
    operationId: 'completeIncidentAttachment', method: 'POST', path: '/incidents/{id}/attachments/{attachmentId}/complete', handler: 'incidents', groups: [], tenantScoped: true, staffReach: 'tenant',
    summary: 'Confirm an upload (HeadObject): the attachment becomes available; audited',
    request: { params: AttachmentParams, query: TenantQuery },
    responses: { 200: { description: 'The available attachment', body: Attachment } },
    errors: ['NOT_FOUND', 'ATTACHMENT_NOT_UPLOADED'],
  },
  {
    operationId: 'listIncidentAttachments', method: 'GET', path: '/incidents/{id}/attachments', handler: 'incidents', groups: [], tenantScoped: true, staffReach: 'tenant',
    summary: 'The incident\u2019s attachments, oldest first (one Query, cursor)',
    request: { params: IncidentIdParams, query: AttachmentListQuery },
    responses: { 200: { description: 'A page of attachments', body: AttachmentPage } },
    errors: ['NOT_FOUND'],
  },
  {
    operationId: 'getIncidentAttachment', method: 'GET', path: '/incidents/{id}/attachments/{attachmentId}', handler: 'incidents', groups: [], tenantScoped: true, staffReach: 'tenant',
    summary: 'A short-lived (60 s) presigned download URL of an available attachment (Content-Disposition: attachment)',
    request: { params: AttachmentParams, query: TenantQuery },
    responses: { 200: { description: 'The attachment and its download URL', body: AttachmentDownload } },
    errors: ['NOT_FOUND', 'ATTACHMENT_NOT_UPLOADED'],
  },
  {
    operationId: 'listDevices', method: 'GET', path: '/devices', handler: 'devices', groups: [], tenantScoped: true, staffReach: 'tenant',
    summary: 'Devices of the tenant with status, availability and open alarms',
    request: { query: ListDevicesQuery },
    responses: { 200: { description: 'A page of devices', body: pageOf(Device) } },
    errors: [],
  },
  {
    operationId: 'getDevice', method: 'GET', path: '/devices/{id}', handler: 'devices', groups: [], tenantScoped: true, staffReach: 'tenant',
    summary: 'One device: availability per day and over 7/30/90 days against the SLA target, open alarms',
    request: { params: DeviceIdParams, query: TenantQuery },
    responses: { 200: { description: 'The device with its availability and open alarms', body: DeviceDetail } },
    errors: ['NOT_FOUND'],
  },
  {
    operationId: 'listAlarms', method: 'GET', path: '/alarms', handler: 'devices', groups: [], tenantScoped: true, staffReach: 'tenant',
    summary: 'Device alarms of the tenant, newest first, filtered by state, severity, device and time; answered with an ETag, and 304 Not Modified after one small read while no alarm of the tenant was written (docs/api.md#conditional-requests)',
    request: { query: ListAlarmsQuery, headers: IfNoneMatch },
    responses: { 200: { description: 'A page of device alarms (with `ETag` and `Cache-Control: private, no-cache`; 304 without a body when `If-None-Match` holds the current ETag)', body: pageOf(DeviceAlarm), etag: true } },
    errors: [],
    validatedBy: 'alarms',
  },
  {
    operationId: 'searchAlarms', method: 'GET', path: '/search/alarms', handler: 'devices', groups: [], tenantScoped: true, staffReach: 'tenant',
    summary: 'Device alarms of the tenant whose title has every word of `q`, newest raised first, cursor-paginated (docs/api.md#alarm-search)',
    request: { query: SearchAlarmsQuery },
    responses: { 200: { description: 'A page of device alarms', body: pageOf(DeviceAlarm) } },
    errors: [],
  },  {
    operationId: 'acknowledgeAlarm', method: 'POST', path: '/devices/{deviceId}/alarms/{alarmId}/acknowledge', handler: 'devices', groups: [], tenantScoped: true, staffReach: 'tenant',
    summary: 'Acknowledge an active device alarm',
    request: { params: AlarmParams, query: TenantQuery },
    responses: { 200: { description: 'The alarm, now acknowledged', body: DeviceAlarm } },
    errors: ['NOT_FOUND', 'INVALID_TRANSITION'],
  },
  {
    operationId: 'listAlarmConsole', method: 'GET', path: '/soc/alarms', handler: 'devices', groups: [ADMIN_GROUP], tenantScoped: false, staffReach: 'all',
    summary: 'The alarm console: device alarms and Office 365 alerts of every tenant, newest first, filtered by tenant, severity, state and kind; ONE Query per page (staff only; docs/api.md#alarm-console)',
    request: { query: AlarmConsoleQuery },
    responses: { 200: { description: 'A page of the alarm console', body: pageOf(AlarmConsoleItem) } },
    errors: [],
  },
  {
    operationId: 'listOffice365Alarms', method: 'GET', path: '/office365/alarms', handler: 'office365', groups: [], tenantScoped: true, staffReach: 'tenant',
    summary: 'Office 365 alerts by time range, severity, status and user, newest first',
    request: { query: ListO365AlarmsQuery },
    responses: { 200: { description: 'A page of Office 365 alerts', body: pageOf(Office365Alarm) } },
    errors: [],
  },
  {
    operationId: 'searchOffice365Users', method: 'GET', path: '/search/office365-users', handler: 'office365', groups: [], tenantScoped: true, staffReach: 'tenant',
    summary: 'Office 365 users the tenant\'s alerts named whose UPN has a part starting with `q`, in UPN order, cursor-paginated (docs/api.md#office-365-user-search)',
    request: { query: SearchOffice365UsersQuery },
    responses: { 200: { description: 'A page of users, each with the alert most recently received about them', body: pageOf(Office365UserHit) } },
    errors: [],
  },  {
    operationId: 'acknowledgeOffice365Alarm', method: 'POST', path: '/office365/alarms/{alarmId}/acknowledge', handler: 'office365', groups: [], tenantScoped: true, staffReach: 'tenant',
    summary: "Acknowledge an active Office 365 alert: Vigía records who and when beside Microsoft's status, which it does not change (docs/api.md#acknowledging-office-365-alerts)",
    request: { params: O365AlarmParams, query: TenantQuery },
    responses: { 200: { description: 'The alert, now acknowledged', body: Office365Alarm } },
    errors: ['NOT_FOUND', 'INVALID_TRANSITION'],
  },
  {
    operationId: 'listOffice365Events', method: 'GET', path: '/office365/events', handler: 'office365', groups: [], tenantScoped: true, staffReach: 'tenant',
    summary: 'Office 365 audit events by time range, workload, operation, user and result, newest first',
    request: { query: ListO365EventsQuery },
    responses: { 200: { description: 'A page of Office 365 audit events', body: pageOf(Office365Event) } },
    errors: [],
  },
  {
    operationId: 'listRecommendations', method: 'GET', path: '/recommendations', handler: 'recommendations', groups: [], tenantScoped: true, staffReach: 'tenant',
    summary: 'Security recommendations of the tenant, newest first',
    request: { query: ListRecommendationsQuery },
    responses: { 200: { description: 'A page of recommendations', body: pageOf(Recommendation) } },
    errors: [],
  },
  {
    operationId: 'updateRecommendation', method: 'PATCH', path: '/recommendations/{id}', handler: 'recommendations', groups: [], tenantScoped: true, staffReach: 'tenant',
    summary: 'Change the status of a recommendation with a note',
    request: { params: RecommendationIdParams, query: TenantQuery, body: UpdateRecommendationBody },
    responses: { 200: { description: 'The recommendation after the change', body: Recommendation } },
    errors: ['NOT_FOUND', 'INVALID_TRANSITION', 'VERSION_CONFLICT'],
  },
  {
    operationId: 'getReport', method: 'GET', path: '/reports', handler: 'reports', groups: [], tenantScoped: true, staffReach: 'tenant',
    summary: 'Report of the tenant for a period (JSON or CSV): incidents, MTTA/MTTR, SLA, availability, top alarms',
    request: { query: ReportQuery },
    responses: { 200: { description: 'The report (JSON, or a CSV attachment with format=csv)', body: Report, csv: true } },
    errors: [],
  },
  {
    operationId: 'getMonthlyReport', method: 'GET', path: '/reports/monthly/{month}', handler: 'reports', groups: [], tenantScoped: true, staffReach: 'tenant',
    summary: "The tenant's monthly report of a UTC month as a PDF in the reader's language (JSON with the PDF in base64; docs/api.md#monthly-report)",
    request: { params: MonthlyReportParams, query: MonthlyReportQuery },
    responses: { 200: { description: 'The PDF: file name, content type and base64 bytes', body: MonthlyReportFile } },
    errors: [],
  },
  {
    operationId: 'getSlaHistory', method: 'GET', path: '/reports/sla-history', handler: 'reports', groups: [], tenantScoped: true, staffReach: 'tenant',
    summary: 'Resolution-SLA compliance per month over the last 12 months, from the day aggregates (one Query; docs/api.md#monthly-report)',
    request: { query: TenantQuery },
    responses: { 200: { description: 'Compliance per month, oldest first', body: SlaHistory } },
    errors: [],
  },
  {
    operationId: 'getSummary', method: 'GET', path: '/summary', handler: 'reports', groups: [], tenantScoped: true, staffReach: 'tenant',
    summary: "The tenant's figures now (open incidents, open alarms, devices by status, Office 365 alarms) and per day (incidents created, alarms raised), from write-time aggregates; answered with an ETag, and 304 Not Modified after one small read when If-None-Match still matches (docs/api.md#summary)",
    request: { query: SummaryQuery, headers: { 'If-None-Match': z.string().max(1024) } },
    responses: { 200: { description: 'The summary (with `ETag` and `Cache-Control: private, no-cache`; 304 without a body when `If-None-Match` holds the current ETag)', body: Summary, etag: true } },
    errors: [],
  },
  {
    operationId: 'getAnalytics', method: 'GET', path: '/analytics', handler: 'reports', groups: [ADMIN_GROUP], tenantScoped: false, staffReach: 'all',
    summary: 'The report figures across all tenants and per tenant (admin only; JSON or CSV)',
    request: { query: AnalyticsQuery },
    responses: { 200: { description: 'The figures (JSON, or a CSV attachment with format=csv)', body: Analytics, csv: true } },
    errors: [],
  },
  {
    operationId: 'ingestHeartbeat', method: 'POST', path: '/ingest/heartbeats', handler: 'ingest', groups: [], tenantScoped: false, staffReach: 'none', auth: 'iam',
    summary: 'Collector: a device heartbeat',
    request: { query: NoQuery, body: HeartbeatIngest },
    responses: ingestResponses, statusOf: ingestStatus,
    errors: ['NOT_FOUND'],
  },
  {
    operationId: 'ingestHeartbeatBatch', method: 'POST', path: '/ingest/heartbeats/batch', handler: 'ingest', groups: [], tenantScoped: false, staffReach: 'none', auth: 'iam',
    summary: `Collector: up to ${MAX_HEARTBEAT_BATCH} heartbeats of any devices in one call; each entry validated and applied on its own, one result per entry (docs/api.md#batch-heartbeats)`,
    request: { query: NoQuery, body: HeartbeatBatchIngest },
    responses: { 200: { description: 'One result per entry (applied, replay or error); the entries that failed can be sent again as they are', body: HeartbeatBatchResult } },
    errors: [],
  },
  {
    operationId: 'ingestDeviceAlarm', method: 'POST', path: '/ingest/device-alarms', handler: 'ingest', groups: [], tenantScoped: false, staffReach: 'none', auth: 'iam',
    summary: 'Collector: raise or clear a device alarm',
    request: { query: NoQuery, body: DeviceAlarmIngest },
    responses: ingestResponses, statusOf: ingestStatus,
    errors: ['NOT_FOUND'],
  },
  {
    operationId: 'ingestOffice365Alarm', method: 'POST', path: '/ingest/office365/alarms', handler: 'ingest', groups: [], tenantScoped: false, staffReach: 'none', auth: 'iam',
    summary: 'Collector: an Office 365 alert (create or update)',
    request: { query: NoQuery, body: O365AlarmIngest },
    responses: ingestResponses, statusOf: ingestStatus,
    errors: ['NOT_FOUND'],
  },
  {
    operationId: 'ingestOffice365Event', method: 'POST', path: '/ingest/office365/events', handler: 'ingest', groups: [], tenantScoped: false, staffReach: 'none', auth: 'iam',
    summary: 'Collector: an Office 365 audit event',
    request: { query: NoQuery, body: O365EventIngest },
    responses: ingestResponses, statusOf: ingestStatus,
    errors: ['NOT_FOUND'],
  },
  {
    operationId: 'ingestRecommendation', method: 'POST', path: '/ingest/recommendations', handler: 'ingest', groups: [], tenantScoped: false, staffReach: 'none', auth: 'iam',
    summary: 'Collector/SOC: a new recommendation',
    request: { query: NoQuery, body: RecommendationIngest },
    responses: ingestResponses, statusOf: ingestStatus,
    errors: ['NOT_FOUND'],
  },
  {
    operationId: 'listTenantSummaries', method: 'GET', path: '/admin/tenants', handler: 'admin', groups: [ADMIN_GROUP], tenantScoped: false, staffReach: 'all',
    summary: 'A page of the customer tenants with their user and device counts, kept at write time (staff only; one Query and one BatchGetItem per page, no Cognito call)',
    request: { query: ListTenantSummariesQuery },
    responses: { 200: { description: 'A page of the registered tenants, ordered by id, with userCount and deviceCount', body: pageOf(TenantSummary) } },
    errors: [],
  },
  {
    operationId: 'getTenant', method: 'GET', path: '/tenants/{tenantId}', handler: 'admin', groups: [ADMIN_GROUP], tenantScoped: false, staffReach: 'all',
    summary: 'One tenant with its contract targets (staff only)',
    request: { params: TenantIdParams, query: NoQuery },
    responses: { 200: { description: 'The tenant', body: Tenant } },
    errors: ['NOT_FOUND', 'RESERVED_NAME'],
  },
  {
    operationId: 'createTenant', method: 'POST', path: '/tenants', handler: 'admin', groups: [ADMIN_GROUP], tenantScoped: false, staffReach: 'all',
    summary: 'Register a tenant and create its Cognito group (staff only)',
    request: { query: NoQuery, body: CreateTenantBody },
    responses: { 201: { description: 'The new tenant', body: Tenant } },
    errors: ['VERSION_CONFLICT', 'RESERVED_NAME'],
  },
  {
    operationId: 'updateTenant', method: 'PATCH', path: '/tenants/{tenantId}', handler: 'admin', groups: [ADMIN_GROUP], tenantScoped: false, staffReach: 'all',
    summary: 'Rename a tenant or change its contract SLA and availability targets (staff only)',
    request: { params: TenantIdParams, query: NoQuery, body: UpdateTenantBody },
    responses: { 200: { description: 'The tenant after the change', body: Tenant } },
    errors: ['NOT_FOUND', 'RESERVED_NAME'],
  },
  {
    operationId: 'listTenantUsers', method: 'GET', path: '/tenants/{tenantId}/users', handler: 'admin', groups: [ADMIN_GROUP], tenantScoped: false, staffReach: 'all',
    summary: 'Users of a tenant with status, enabled and MFA state (staff only)',
    request: { params: TenantIdParams, query: NoQuery },
    responses: { 200: { description: 'The members of the tenant group', body: PoolUserList } },
    errors: ['NOT_FOUND', 'RESERVED_NAME'],
  },
  {
    operationId: 'inviteUser', method: 'POST', path: '/tenants/{tenantId}/users', handler: 'admin', groups: [ADMIN_GROUP], tenantScoped: false, staffReach: 'all',
    summary: 'Invite a user to a tenant (Cognito e-mails a temporary password; staff only)',
    request: { params: TenantIdParams, query: NoQuery, body: InviteUserBody },
    responses: { 201: { description: 'The user, in FORCE_CHANGE_PASSWORD (or as it was, when it existed)', body: PoolUser } },
    errors: ['NOT_FOUND', 'RESERVED_NAME'],
  },
  {
    operationId: 'removeTenantUser', method: 'DELETE', path: '/tenants/{tenantId}/users/{username}', handler: 'admin', groups: [ADMIN_GROUP], tenantScoped: false, staffReach: 'all',
    summary: 'Remove a user from a tenant group (staff only)',
    request: { params: TenantUserParams, query: NoQuery },
    responses: { 200: { description: 'The user after the change', body: PoolUser } },
    errors: ['NOT_FOUND', 'RESERVED_NAME'],
  },
  {
    operationId: 'resendInvitation', method: 'POST', path: '/users/{username}/resend-invitation', handler: 'admin', groups: [ADMIN_GROUP], tenantScoped: false, staffReach: 'all',
    summary: 'Send the invitation again with a new temporary password (staff only)',
    request: { params: UsernameParams, query: NoQuery },
    responses: { 200: { description: 'The user', body: PoolUser } },
    errors: ['NOT_FOUND', 'INVALID_TRANSITION'],
  },
  {
    operationId: 'setUserEnabled', method: 'POST', path: '/users/{username}/enabled', handler: 'admin', groups: [ADMIN_GROUP], tenantScoped: false, staffReach: 'all',
    summary: 'Disable or enable a user (staff only)',
    request: { params: UsernameParams, query: NoQuery, body: SetUserEnabledBody },
    responses: { 200: { description: 'The user after the change', body: PoolUser } },
    errors: ['NOT_FOUND', 'INVALID_TRANSITION'],
  },
  {
    operationId: 'resetUserMfa', method: 'POST', path: '/users/{username}/reset-mfa', handler: 'admin', groups: [ADMIN_GROUP], tenantScoped: false, staffReach: 'all',
    summary: 'Turn off the user\u2019s TOTP so it sets it up again at its next sign-in (staff only)',
    request: { params: UsernameParams, query: NoQuery },
    responses: { 200: { description: 'The user after the change', body: PoolUser } },
    errors: ['NOT_FOUND'],
  },
  {
    operationId: 'listStaff', method: 'GET', path: '/staff', handler: 'admin', groups: [ADMIN_GROUP], tenantScoped: false, staffReach: 'all',
    summary: 'Members of the staff group (staff only)',
    request: { query: NoQuery },
    responses: { 200: { description: 'The staff', body: PoolUserList } },
    errors: [],
  },
  {
    operationId: 'grantStaff', method: 'PUT', path: '/staff/{username}', handler: 'admin', groups: [ADMIN_GROUP], tenantScoped: false, staffReach: 'all',
    summary: 'Add a user to the staff group (staff only)',
    request: { params: UsernameParams, query: NoQuery },
    responses: { 200: { description: 'The user', body: PoolUser } },
    errors: ['NOT_FOUND'],
  },
  {
    operationId: 'revokeStaff', method: 'DELETE', path: '/staff/{username}', handler: 'admin', groups: [ADMIN_GROUP], tenantScoped: false, staffReach: 'all',
    summary: 'Remove a user from the staff group (staff only; not oneself: 409 OWN_STAFF_ACCESS)',
    request: { params: UsernameParams, query: NoQuery },
    responses: { 200: { description: 'The user', body: PoolUser } },
    errors: ['NOT_FOUND', 'OWN_STAFF_ACCESS'],
  },
  {
    operationId: 'listAccessRequests', method: 'GET', path: '/access-requests', handler: 'admin', groups: [ADMIN_GROUP], tenantScoped: false, staffReach: 'all',
    summary: 'Users who signed in while in no group, waiting for staff: one status (default pending), newest first; one Query per page (staff only)',
    request: { query: ListAccessRequestsQuery },
    responses: { 200: { description: 'A page of access requests, newest first', body: pageOf(AccessRequest) } },
    errors: [],
  },
  {
    operationId: 'grantAccessRequest', method: 'POST', path: '/access-requests/{id}/grant', handler: 'admin', groups: [ADMIN_GROUP], tenantScoped: false, staffReach: 'all',
    summary: 'Grant a pending access request: the user is added to the tenant (its Cognito group and user count), audited (staff only)',
    request: { params: AccessRequestParams, query: NoQuery, body: GrantAccessRequestBody },
    responses: { 200: { description: 'The request, granted', body: AccessRequest } },
    errors: ['NOT_FOUND', 'RESERVED_NAME', 'ACCESS_REQUEST_DECIDED'],
  },
  {
    operationId: 'dismissAccessRequest', method: 'POST', path: '/access-requests/{id}/dismiss', handler: 'admin', groups: [ADMIN_GROUP], tenantScoped: false, staffReach: 'all',
    summary: 'Dismiss a pending access request (audited; the user stays in no group; staff only)',
    request: { params: AccessRequestParams, query: NoQuery },
    responses: { 200: { description: 'The request, dismissed', body: AccessRequest } },
    errors: ['NOT_FOUND', 'ACCESS_REQUEST_DECIDED'],
  },
  {
    operationId: 'getTenantIdentityProvider', method: 'GET', path: '/tenants/{tenantId}/identity-provider', handler: 'admin', groups: [ADMIN_GROUP], tenantScoped: false, staffReach: 'all',
    summary: 'The tenant\u2019s enterprise identity provider (OIDC or SAML) and its e-mail domains; never the client secret (staff only)',
    request: { params: TenantIdParams, query: NoQuery },
    responses: { 200: { description: 'The provider (null when none) and what to register at the customer\u2019s provider', body: TenantIdentityProviderState } },
    errors: ['NOT_FOUND', 'RESERVED_NAME'],
  },
  {
    operationId: 'putTenantIdentityProvider', method: 'PUT', path: '/tenants/{tenantId}/identity-provider', handler: 'admin', groups: [ADMIN_GROUP], tenantScoped: false, staffReach: 'all',
    summary: 'Create or change the tenant\u2019s enterprise identity provider: Cognito provider, app client, secret in Secrets Manager, provider \u2192 tenant mapping (staff only)',
    request: { params: TenantIdParams, query: NoQuery, body: PutTenantIdentityProviderBody },
    responses: { 200: { description: 'The provider after the change', body: TenantIdentityProviderState } },
    errors: ['NOT_FOUND', 'IDP_DOMAIN_IN_USE', 'FEDERATION_UNAVAILABLE', 'RESERVED_NAME'],
  },
  {
    operationId: 'deleteTenantIdentityProvider', method: 'DELETE', path: '/tenants/{tenantId}/identity-provider', handler: 'admin', groups: [ADMIN_GROUP], tenantScoped: false, staffReach: 'all',
    summary: 'Remove the tenant\u2019s enterprise identity provider (its users can no longer sign in through it; staff only)',
    request: { params: TenantIdParams, query: NoQuery },
    responses: { 200: { description: 'The state after the removal (provider null)', body: TenantIdentityProviderState } },
    errors: ['NOT_FOUND', 'FEDERATION_UNAVAILABLE', 'RESERVED_NAME'],
  },
  {
    operationId: 'listActivity', method: 'GET', path: '/activity', handler: 'account', groups: [], tenantScoped: true, staffReach: 'tenant',
    summary: "The tenant's activity feed, newest first, cursor-paginated (one Query per page; docs/notifications.md)",
    request: { query: ListActivityQuery },
    responses: { 200: { description: 'A page of activity events', body: pageOf(ActivityEvent) } },
    errors: [],
  },
  {
    operationId: 'getActivityUnread', method: 'GET', path: '/activity/unread', handler: 'account', groups: [], tenantScoped: true, staffReach: 'tenant',
    summary: "Events of others since the caller's last \"marcar todo como leído\" in the tenant (0–99)",
    request: { query: TenantQuery },
    responses: { 200: { description: 'The unread count', body: ActivityUnread } },
    errors: [],
  },
  {
    operationId: 'markActivityRead', method: 'POST', path: '/activity/read', handler: 'account', groups: [], tenantScoped: true, staffReach: 'tenant', minRole: 'viewer',
    summary: "Marks every event of the tenant's feed as read for the caller (its marker = now)",
    request: { query: TenantQuery },
    responses: { 200: { description: 'The unread count after the change', body: ActivityUnread } },
    errors: [],
  },
  {
    operationId: 'listAuditLog', method: 'GET', path: '/audit', handler: 'admin', groups: [], tenantScoped: false, staffReach: 'all',
    summary: 'Audit log, newest first: customers their tenant, staff every tenant or one (JSON or CSV)',
    request: { query: ListAuditQuery },
    responses: { 200: { description: 'A page of audit entries (JSON, or a CSV attachment with format=csv)', body: pageOf(AuditEntry), csv: true } },
    errors: ['TENANT_REQUIRED'],
  },
  {
    operationId: 'getNotificationPreferences', method: 'GET', path: '/notifications/preferences', handler: 'notifications', groups: [], tenantScoped: true, staffReach: 'tenant',
    summary: 'The caller\u2019s e-mail notification preferences in the tenant (defaults when never saved: e-mail for high and above)',
    request: { query: TenantQuery },
    responses: { 200: { description: 'The preferences', body: NotificationPreferences } },
    errors: [],
  },
  {
    operationId: 'putNotificationPreferences', method: 'PUT', path: '/notifications/preferences', handler: 'notifications', groups: [], tenantScoped: true, staffReach: 'tenant',
    summary: 'Replace the caller\u2019s e-mail notification preferences in the tenant',
    request: { query: TenantQuery, body: NotificationPreferences },
    responses: { 200: { description: 'The preferences saved', body: NotificationPreferences } },
    errors: [],
  },
  {
    operationId: 'getEscalationContacts', method: 'GET', path: '/escalation-contacts', handler: 'account', groups: [], tenantScoped: true, staffReach: 'tenant',
    summary: 'The tenant\u2019s escalation contacts in calling order (version 0 and none when never saved)',
    request: { query: TenantQuery },
    responses: { 200: { description: 'The escalation contacts', body: EscalationContacts } },
    errors: [],
  },
  {
    operationId: 'putEscalationContacts', method: 'PUT', path: '/escalation-contacts', handler: 'account', groups: [], tenantScoped: true, staffReach: 'tenant', minRole: 'admin',
    summary: 'Replace the tenant\u2019s escalation contacts (at most 20), with the version read',
    request: { query: TenantQuery, body: PutEscalationContactsBody },
    responses: { 200: { description: 'The escalation contacts saved (version + 1)', body: EscalationContacts } },
    errors: ['VERSION_CONFLICT'],
  },
  {
    operationId: 'listTeam', method: 'GET', path: '/team', handler: 'admin', groups: [], tenantScoped: true, staffReach: 'tenant', minRole: 'admin',
    summary: 'The tenant\u2019s users with role, status and enabled state, staff left out (customer admins; docs/api.md#team-management)',
    request: { query: ListTeamQuery },
    responses: { 200: { description: 'A page of the tenant\u2019s users', body: TeamPage } },
    errors: [],
  },
  {
    operationId: 'inviteTeamMember', method: 'POST', path: '/team', handler: 'admin', groups: [], tenantScoped: true, staffReach: 'tenant', minRole: 'admin',
    summary: 'Invite a colleague with a role (viewer, operator or admin); Cognito e-mails a temporary password (customer admins)',
    request: { query: TenantQuery, body: InviteTeamMemberBody },
    responses: { 201: { description: 'The new user, FORCE_CHANGE_PASSWORD', body: TeamMember } },
    errors: ['USER_EXISTS'],
  },
  {
    operationId: 'updateTeamMember', method: 'PUT', path: '/team/{username}', handler: 'admin', groups: [], tenantScoped: true, staffReach: 'tenant', minRole: 'admin',
    summary: 'Change a colleague\u2019s role or enable/disable them; never the last enabled admin (409 LAST_ADMIN) nor oneself downwards (409 OWN_ACCOUNT)',
    request: { params: TeamUsernameParams, query: TenantQuery, body: UpdateTeamMemberBody },
    responses: { 200: { description: 'The user after the change', body: TeamMember } },
    errors: ['NOT_FOUND', 'LAST_ADMIN', 'OWN_ACCOUNT'],
  },
  {
    operationId: 'removeTeamMember', method: 'DELETE', path: '/team/{username}', handler: 'admin', groups: [], tenantScoped: true, staffReach: 'tenant', minRole: 'admin',
    summary: 'Remove a colleague from the tenant (the account is deleted when it is in no other tenant); never the last enabled admin nor oneself',
    request: { params: TeamUsernameParams, query: TenantQuery },
    responses: { 200: { description: 'The user as it was', body: TeamMember } },
    errors: ['NOT_FOUND', 'LAST_ADMIN', 'OWN_ACCOUNT'],
  },
  {
    operationId: 'listMaintenanceWindows', method: 'GET', path: '/maintenance-windows', handler: 'devices', groups: [], tenantScoped: true, staffReach: 'tenant',
    summary: 'The tenant\u2019s maintenance windows: not ended (default), upcoming or active by end time, or past newest first; one Query per page',
    request: { query: ListMaintenanceWindowsQuery },
    responses: { 200: { description: 'A page of maintenance windows', body: pageOf(MaintenanceWindow) } },
    errors: [],
  },
  {
    operationId: 'createMaintenanceWindow', method: 'POST', path: '/maintenance-windows', handler: 'devices', groups: [], tenantScoped: true, staffReach: 'tenant', minRole: 'admin',
    summary: 'Declare planned work on devices and/or sites: alarms inside it notify nobody, its downtime does not count against availability',
    request: { query: TenantQuery, body: CreateMaintenanceWindowBody },
    responses: { 201: { description: 'The window created (version 1)', body: MaintenanceWindow } },
    errors: ['WINDOW_ENDS_BEFORE_START', 'WINDOW_TOO_LONG', 'UNKNOWN_DEVICE', 'VERSION_CONFLICT'],
  },
  {
    operationId: 'updateMaintenanceWindow', method: 'PUT', path: '/maintenance-windows/{windowId}', handler: 'devices', groups: [], tenantScoped: true, staffReach: 'tenant', minRole: 'admin',
    summary: 'Change a maintenance window (title, scope, times) with the version read; a customer cannot change an ended one',
    request: { params: WindowIdParams, query: TenantQuery, body: UpdateMaintenanceWindowBody },
    responses: { 200: { description: 'The window saved (version + 1)', body: MaintenanceWindow } },
    errors: ['WINDOW_ENDS_BEFORE_START', 'WINDOW_TOO_LONG', 'UNKNOWN_DEVICE', 'VERSION_CONFLICT', 'INVALID_TRANSITION'],
  },
  {
    operationId: 'deleteMaintenanceWindow', method: 'DELETE', path: '/maintenance-windows/{windowId}', handler: 'devices', groups: [], tenantScoped: true, staffReach: 'tenant', minRole: 'admin',
    summary: 'Remove a maintenance window; a customer cannot remove an ended one',
    request: { params: WindowIdParams, query: TenantQuery },
    responses: { 200: { description: 'The window removed', body: MaintenanceWindow } },
    errors: ['VERSION_CONFLICT', 'INVALID_TRANSITION'],
  },
  {
    operationId: 'listWebhooks', method: 'GET', path: '/webhooks', handler: 'notifications', groups: [], tenantScoped: true, staffReach: 'tenant', minRole: 'admin',
    summary: 'The tenant\u2019s webhooks (URLs masked, never the signing secret)',
    request: { query: TenantQuery },
    responses: { 200: { description: 'Every webhook of the tenant (at most 20), oldest first', body: WebhookList } },
    errors: [],
  },
  {
    operationId: 'createWebhook', method: 'POST', path: '/webhooks', handler: 'notifications', groups: [], tenantScoped: true, staffReach: 'tenant', minRole: 'admin',
    summary: 'Add a Teams, Slack or signed JSON webhook; a JSON webhook\u2019s signing secret is answered this once only',
    request: { query: TenantQuery, body: CreateWebhookBody },
    responses: { 201: { description: 'The webhook and its secret (null for Teams and Slack)', body: CreatedWebhook } },
    errors: [],
  },
  {
    operationId: 'deleteWebhook', method: 'DELETE', path: '/webhooks/{id}', handler: 'notifications', groups: [], tenantScoped: true, staffReach: 'tenant', minRole: 'admin',
    summary: 'Remove a webhook (pending deliveries to it are dropped)',
    request: { params: WebhookIdParams, query: TenantQuery },
    responses: { 200: { description: 'The webhook removed', body: WebhookView } },
    errors: ['NOT_FOUND'],
  },
  {
    operationId: 'testWebhook', method: 'POST', path: '/webhooks/{id}/test', handler: 'notifications', groups: [], tenantScoped: true, staffReach: 'tenant', minRole: 'admin',
    summary: 'Send a test message to the webhook now and report the receiver\u2019s answer',
    request: { params: WebhookIdParams, query: TenantQuery },
    responses: { 200: { description: 'Whether the receiver answered 2xx', body: WebhookTestResult } },
    errors: ['NOT_FOUND'],
  },
  {
    operationId: 'listWebhookDeliveries', method: 'GET', path: '/webhooks/{id}/deliveries', handler: 'notifications', groups: [], tenantScoped: true, staffReach: 'tenant', minRole: 'admin',
    summary: 'The webhook\u2019s last 20 deliveries, newest first: sent, failed (retrying) or dead',
    request: { params: WebhookIdParams, query: TenantQuery },
    responses: { 200: { description: 'The deliveries', body: WebhookDeliveryList } },
    errors: ['NOT_FOUND'],
  },
] as const satisfies readonly RouteDef[];

export type Route = (typeof ROUTES)[number];
export type OperationId = Route['operationId'];
/** The row of one operation (its literal type, schemas included). */
export type RouteOf<Op extends OperationId> = Extract<Route, { operationId: Op }>;
/** Operation ids served by one Lambda. */
export type OperationsOf<H extends HandlerName> = Extract<Route, { handler: H }>['operationId'];

type RequestPart<Op extends OperationId, K extends keyof RequestDef> = RouteOf<Op>['request'] extends { [P in K]: infer S } ? S : never;

/** Path parameters a caller sends (`{ id: 'INC-000001' }`); `never` for routes without any. */
export type OperationParams<Op extends OperationId> = RequestPart<Op, 'params'> extends z.ZodType ? z.input<RequestPart<Op, 'params'>> : never;
/** Query parameters a caller may send. */
export type OperationQuery<Op extends OperationId> = z.input<RouteOf<Op>['request']['query']>;
/** JSON body a caller sends; `never` for routes without a body. */
export type OperationBody<Op extends OperationId> = RequestPart<Op, 'body'> extends z.ZodType ? z.input<RequestPart<Op, 'body'>> : never;
/** JSON body of any success response of the operation. */
export type OperationResponse<Op extends OperationId> = {
  [S in keyof RouteOf<Op>['responses']]: RouteOf<Op>['responses'][S] extends { body: infer B extends z.ZodType } ? z.output<B> : never;
}[keyof RouteOf<Op>['responses']];

/** Routes served by one Lambda. */
export function routesFor(handler: HandlerName): RouteDef[] {
  return ROUTES.filter((r) => r.handler === handler);
}

/** Looks a route up by operation id; throws if the id is unknown (a programming error). */
export function routeById(operationId: OperationId): RouteDef {
  const r = ROUTES.find((x) => x.operationId === operationId);
  if (!r) throw new Error(`unknown operation ${operationId}`);
  return r;
}

/** Success statuses of a row, ascending. */
export function successStatuses(route: RouteDef): SuccessStatus[] {
  return Object.keys(route.responses).map(Number).sort((a, b) => a - b) as SuccessStatus[];
}

/**
 * Error codes a route can answer: those of the plumbing for its kind of route (identity, groups, tenant,
 * query and body checks, throttling, unexpected failures, the table throttling or unreachable; see
 * docs/api.md#errors) plus the row's `errors`.
 */
export function errorCodes(route: RouteDef): ErrorCode[] {
  const out = new Set<ErrorCode>(['VALIDATION_FAILED', 'UNAUTHORIZED', 'FORBIDDEN', 'THROTTLED', 'INTERNAL_ERROR', 'SERVICE_UNAVAILABLE']);
  if (route.tenantScoped) {
    out.add('TENANT_REQUIRED');
    out.add('NOT_FOUND');
  }
  // A customer below the row's role (docs/api.md#customer-roles); viewer rows are open to every customer.
  if (route.tenantScoped && resolvedMinRole(route) !== 'viewer') out.add('ROLE_REQUIRED');
  // Staff without TOTP: on every `all` row, and on `tenant` rows for another tenant (docs/api.md#staff-accounts-and-totp).
  if (route.staffReach === 'all' || route.staffReach === 'tenant') out.add('MFA_REQUIRED');
  // A user token issued before its user was disabled or lost a group (docs/api.md#session-revocation).
  if (route.auth !== 'iam') out.add('SESSION_REVOKED');
  if (route.request.body) {
    out.add('INVALID_JSON');
    out.add('PAYLOAD_TOO_LARGE');
    out.add('UNSUPPORTED_MEDIA_TYPE');
  }
  for (const c of route.errors) out.add(c);
  return [...out];
}

/**
 * Why a row's `staffReach` contradicts the rest of the row, or null when it agrees (the route-table unit test
 * runs it on every row; docs/api.md#staff-accounts-and-totp):
 *  - `auth: 'iam'` ⇔ `none`;
 *  - `groups` include `admin` ⇒ `all` (a staff-only row is a staff act whatever the tenant);
 *  - `tenantScoped` rows open to customers ⇒ `tenant`, and `tenant` ⇒ `tenantScoped`;
 *  - `self` ⇒ not tenant-scoped and open to any group (it may show the caller only).
 */
export function staffReachProblem(route: RouteDef): string | null {
  const admin = route.groups.includes(ADMIN_GROUP);
  const iam = route.auth === 'iam';
  if (iam !== (route.staffReach === 'none')) return `${route.operationId}: collector rows, and only they, have staffReach 'none'`;
  if (admin && route.staffReach !== 'all') return `${route.operationId}: a row for ${ADMIN_GROUP} must have staffReach 'all'`;
  if (route.tenantScoped && !admin && route.staffReach !== 'tenant') return `${route.operationId}: a tenant-scoped row open to customers must have staffReach 'tenant'`;
  if (route.staffReach === 'tenant' && !route.tenantScoped) return `${route.operationId}: staffReach 'tenant' needs a tenant-scoped row`;
  if (route.staffReach === 'self' && (route.tenantScoped || route.groups.length > 0)) return `${route.operationId}: staffReach 'self' is for untenanted rows open to any group`;
  return null;
}

/** `/incidents/{id}` → `/incidents/:id` (the syntax of Powertools' HTTP Router). */
export function toColonPath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ':$1');
}

/** Fills `{param}`s of a route path, URL-encoding each value. */
export function buildPath(path: string, params: Record<string, string> = {}): string {
  return path.replace(/\{([^}]+)\}/g, (_, k: string) => {
    const v = params[k];
    if (v === undefined) throw new Error(`missing path parameter ${k}`);
    return encodeURIComponent(v);
  });
}
