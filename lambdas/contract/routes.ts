/**
 * The route table: the single source of truth for the business API.
 *
 * Consumed by
 *  - `infra/` (the CDK RestApi: one resource/method per row, each behind the Cognito user-pool
 *    authorizer, each integrated with the Lambda named by `handler`),
 *  - `scripts/local/gateway.ts` (the local API gateway: same paths, same authorizer semantics),
 *  - `lambdas/handlers/*` (each Lambda registers the operations whose `handler` is its own name and
 *    enforces `groups` from the verified token claims),
 *  - the portal's API client (paths and operation ids).
 *
 * Paths use API Gateway's `{param}` syntax. `groups` lists the Cognito groups of which the caller must
 * belong to at least one; an empty list means "any group" (spec §5/§6: every authenticated route needs
 * membership of some group; `/analytics`-style routes need `admin`).
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Names of the Lambda functions that serve the API; each maps to `lambdas/handlers/<name>.ts`. */
export const HANDLER_NAMES = ['incidents', 'devices', 'account', 'ingest', 'office365', 'recommendations', 'reports'] as const;
export type HandlerName = (typeof HANDLER_NAMES)[number];

/** Cognito group whose members act on any tenant and open admin-only routes (spec §6). */
export const ADMIN_GROUP = 'admin';

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
   * Who may call: `cognito` (default) = a user-pool ID token (customers, SOC); `iam` = the security
   * company's collectors, authorised by AWS IAM (SigV4; AuthorizationType.IAM in API Gateway; a local
   * access key in the local gateway). Cognito tokens are refused on `iam` routes and vice versa.
   */
  readonly auth?: 'cognito' | 'iam';
  readonly summary: string;
}

export const ROUTES = [
  { operationId: 'getMe', method: 'GET', path: '/me', handler: 'account', groups: [], tenantScoped: false, summary: 'The caller: e-mail, groups and the tenants it may act on' },
  { operationId: 'listTenants', method: 'GET', path: '/tenants', handler: 'account', groups: [ADMIN_GROUP], tenantScoped: false, summary: 'All customer tenants (admin only)' },
  { operationId: 'listIncidents', method: 'GET', path: '/incidents', handler: 'incidents', groups: [], tenantScoped: true, summary: 'Incidents of the tenant, newest first, cursor-paginated' },
  { operationId: 'createIncident', method: 'POST', path: '/incidents', handler: 'incidents', groups: [], tenantScoped: true, summary: 'Open an incident' },
  { operationId: 'getIncident', method: 'GET', path: '/incidents/{id}', handler: 'incidents', groups: [], tenantScoped: true, summary: 'One incident with its comments and change history' },
  { operationId: 'updateIncident', method: 'PATCH', path: '/incidents/{id}', handler: 'incidents', groups: [], tenantScoped: true, summary: 'Change status, severity or description (version-checked)' },
  { operationId: 'addIncidentComment', method: 'POST', path: '/incidents/{id}/comments', handler: 'incidents', groups: [], tenantScoped: true, summary: 'Add a comment to the incident timeline' },
  { operationId: 'listDevices', method: 'GET', path: '/devices', handler: 'devices', groups: [], tenantScoped: true, summary: 'Devices of the tenant with status, availability and open alarms' },
  { operationId: 'getDevice', method: 'GET', path: '/devices/{id}', handler: 'devices', groups: [], tenantScoped: true, summary: 'One device: availability per day and over 7/30/90 days against the SLA target, open alarms' },
  { operationId: 'listAlarms', method: 'GET', path: '/alarms', handler: 'devices', groups: [], tenantScoped: true, summary: 'Device alarms of the tenant, newest first, filtered by state, severity, device and time' },
  { operationId: 'acknowledgeAlarm', method: 'POST', path: '/devices/{deviceId}/alarms/{alarmId}/acknowledge', handler: 'devices', groups: [], tenantScoped: true, summary: 'Acknowledge an active device alarm' },
  { operationId: 'listOffice365Alarms', method: 'GET', path: '/office365/alarms', handler: 'office365', groups: [], tenantScoped: true, summary: 'Office 365 alerts by time range, severity, status and user, newest first' },
  { operationId: 'listOffice365Events', method: 'GET', path: '/office365/events', handler: 'office365', groups: [], tenantScoped: true, summary: 'Office 365 audit events by time range, workload, operation, user and result, newest first' },
  { operationId: 'listRecommendations', method: 'GET', path: '/recommendations', handler: 'recommendations', groups: [], tenantScoped: true, summary: 'Security recommendations of the tenant, newest first' },
  { operationId: 'updateRecommendation', method: 'PATCH', path: '/recommendations/{id}', handler: 'recommendations', groups: [], tenantScoped: true, summary: 'Change the status of a recommendation with a note' },
  { operationId: 'getReport', method: 'GET', path: '/reports', handler: 'reports', groups: [], tenantScoped: true, summary: 'Report of the tenant for a period (JSON or CSV): incidents, MTTA/MTTR, SLA, availability, top alarms' },
  { operationId: 'getAnalytics', method: 'GET', path: '/analytics', handler: 'reports', groups: [ADMIN_GROUP], tenantScoped: false, summary: 'The report figures across all tenants and per tenant (admin only; JSON or CSV)' },
  { operationId: 'ingestHeartbeat', method: 'POST', path: '/ingest/heartbeats', handler: 'ingest', groups: [], tenantScoped: false, auth: 'iam', summary: 'Collector: a device heartbeat' },
  { operationId: 'ingestDeviceAlarm', method: 'POST', path: '/ingest/device-alarms', handler: 'ingest', groups: [], tenantScoped: false, auth: 'iam', summary: 'Collector: raise or clear a device alarm' },
  { operationId: 'ingestOffice365Alarm', method: 'POST', path: '/ingest/office365/alarms', handler: 'ingest', groups: [], tenantScoped: false, auth: 'iam', summary: 'Collector: an Office 365 alert (create or update)' },
  { operationId: 'ingestOffice365Event', method: 'POST', path: '/ingest/office365/events', handler: 'ingest', groups: [], tenantScoped: false, auth: 'iam', summary: 'Collector: an Office 365 audit event' },
  { operationId: 'ingestRecommendation', method: 'POST', path: '/ingest/recommendations', handler: 'ingest', groups: [], tenantScoped: false, auth: 'iam', summary: 'Collector/SOC: a new recommendation' },
] as const satisfies readonly RouteDef[];

export type Route = (typeof ROUTES)[number];
export type OperationId = Route['operationId'];

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
