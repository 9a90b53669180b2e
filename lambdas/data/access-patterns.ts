/**
 * Every Query of a global secondary index the data layer makes, declared once as an access pattern (the
 * index comes from `TABLE_DESIGN`, the only place index names are spelled), and which patterns each function's
 * code runs. Queries take their `IndexName` from here ({@link indexOf}); the CDK stacks grant each function
 * `dynamodb:Query` on exactly the indexes of its patterns ({@link indexesOf}: infra/api-stack.ts,
 * infra/notifications.ts, infra/sla-watch.ts); the runtime IAM check (scripts/aws-rules/recorder.ts) proves
 * the grants enough on every call the test suites and the local stack make — a function that starts querying
 * an index it does not declare is denied there, as AWS would deny it.
 *
 * Entities and their index keys: docs/data-model.md (GSI1 tenant lists, GSI2 cross-tenant and sparse lists,
 * GSI3 incidents by status, GSI4 one tenant's SOC queue).
 */
import { TABLE_DESIGN } from './table/table-design.js';

/** One access pattern on an index: the index, and what it reads (docs). */
export interface IndexAccess {
  readonly index: { readonly indexName: string; readonly partitionKey: string; readonly sortKey: string };
  readonly reads: string;
}

/** The index access patterns (see module doc). */
export const INDEX_ACCESS = {
  /** A tenant's GSI1 lists: incidents, alarms, devices by name, Office 365, recommendations, audit, first responses, webhook deliveries. */
  tenantLists: { index: TABLE_DESIGN.gsi1, reads: 'a tenant list: `GSI1PK = TENANT#<t>#<LIST>` (incidents, alarms, devices by name, Office 365, recommendations, the tenant audit log, first responses, webhook deliveries)' },
  /** The SOC queue by SLA due time: every tenant's open (unresolved) incidents. */
  socQueue: { index: TABLE_DESIGN.gsi2, reads: 'the SOC queue by due time: `GSI2PK = SOCQUEUE`, open incidents by SLA due time (staff queue sorted by due time, the analytics\' boundary hour, the SLA job)' },
  /** One tenant's SOC queue by SLA due time: its open incidents. */
  socQueueOfTenant: { index: TABLE_DESIGN.gsi4, reads: 'one tenant\'s SOC queue by due time: `GSI4PK = TENANT#<t>#SOCQUEUE`, by SLA due time (staff queue by customer, sorted by due time; a tenant report\'s boundary hour)' },
  /** The ranked SOC queue of every tenant: queue entries, untriaged/new first, then by SLA due time; the resolved tab. */
  socQueueRanked: { index: TABLE_DESIGN.gsi2, reads: 'the ranked SOC queue: `GSI2PK = SOCQUEUE#RANKED`, `<rank>#<slaDueAt>#<t>#<id>` (staff queue default order; resolved tab)' },
  /** One tenant's ranked SOC queue (its entries). */
  socQueueRankedOfTenant: { index: TABLE_DESIGN.gsi4, reads: 'one tenant\'s ranked SOC queue: `GSI4PK = TENANT#<t>#SOCQUEUE#RANKED` (staff queue by customer; resolved tab)' },
  /** One assignee's (or the unassigned) ranked SOC queue (their entries). */
  socQueueRankedOfAssignee: { index: TABLE_DESIGN.gsi1, reads: 'one assignee\'s or the unassigned ranked SOC queue: `GSI1PK = SOCQUEUE#ASSIGNEE#<a|->#RANKED` ("Asignados a mí", "Sin asignar"; resolved tab)' },
  /** One assignee's (or the unassigned) SOC queue by SLA due time (their entries). */
  socQueueOfAssignee: { index: TABLE_DESIGN.gsi3, reads: 'one assignee\'s or the unassigned SOC queue by due time: `GSI3PK = SOCQUEUE#ASSIGNEE#<a|->`, `<tab>#<slaDueAt>#<t>#<id>`' },
  /** The audit log of every tenant (staff). */
  auditAllTenants: { index: TABLE_DESIGN.gsi2, reads: 'the audit log of every tenant: `GSI2PK = AUDIT`, newest first' },
  /** Access requests in one status (staff): users who signed in in no group. */
  accessRequests: { index: TABLE_DESIGN.gsi2, reads: 'access requests in one status: `GSI2PK = ACCESSREQUESTS#<status>`, newest first (staff "Solicitudes de acceso")' },
  /** A tenant's devices below the availability target. */
  belowSla: { index: TABLE_DESIGN.gsi2, reads: 'devices below the SLA target: `GSI2PK = TENANT#<t>#BELOWSLA`' },
  /** Activity events waiting for delivery. */
  outbox: { index: TABLE_DESIGN.gsi2, reads: 'the notification outbox: `GSI2PK = OUTBOX`, oldest first' },
  /** Every tenant's resolved incidents by when they close automatically. */
  autoClose: { index: TABLE_DESIGN.gsi2, reads: 'resolved incidents due to close automatically: `GSI2PK = AUTOCLOSE`, `GSI2SK < <now>#~` (`<autoCloseAt>#<t>#<id>`), oldest due first (the SLA job)' },
  /** The staff alarm console, filter combinations placed on GSI1 (`alarmConsolePlace` slot 0). */
  alarmConsole1: { index: TABLE_DESIGN.gsi1, reads: 'the alarm console (device alarms and Office 365 alerts of every tenant), the filter combinations of slot 0: `ALARMCONSOLE#…` / `TENANT#<t>#ALARMCONSOLE#…`, newest first' },
  /** The staff alarm console, slot 1 (GSI2). */
  alarmConsole2: { index: TABLE_DESIGN.gsi2, reads: 'the alarm console, the filter combinations of slot 1 (GSI2)' },
  /** The staff alarm console, slot 2 (GSI3). */
  alarmConsole3: { index: TABLE_DESIGN.gsi3, reads: 'the alarm console, the filter combinations of slot 2 (GSI3)' },
  /** The staff alarm console, slot 3 (GSI4, sorted by `GSI2SK`). */
  alarmConsole4: { index: TABLE_DESIGN.gsi4, reads: 'the alarm console, the filter combinations of slot 3 (GSI4)' },
  /** A tenant's devices by IP address (exact or prefix). */
  devicesByIp: { index: TABLE_DESIGN.gsi3, reads: 'a tenant\'s devices by IP address: `GSI3PK = TENANT#<t>#DEVICEIP`, `begins_with(GSI3SK, <ip>)` (device search by IP, exact or prefix)' },
  /** A tenant's incidents in one status. */
  incidentsByStatus: { index: TABLE_DESIGN.gsi3, reads: 'a tenant\'s incidents in one status: `GSI3PK = TENANT#<t>#INCSTATUS#<status>`, newest first' },
} as const satisfies Record<string, IndexAccess>;

/** The name of an index access pattern. */
export type IndexAccessId = keyof typeof INDEX_ACCESS;

/** The `IndexName` of an access pattern's Query. */
export function indexOf(id: IndexAccessId): string {
  return INDEX_ACCESS[id].index.indexName;
}

/**
 * The functions whose code queries an index, by the name that follows `vigia-<stage>-` (the route table's
 * handlers and the jobs of infra/: `notifications-consumer`, `notification-digest`, `sla-watch`,
 * `pre-token-generation`), and the patterns each runs. A function absent here queries no index.
 */
export const FUNCTION_INDEX_ACCESS: Readonly<Record<string, readonly IndexAccessId[]>> = {
  // GET /tenants (the registry list) and the activity feed (its own partition, no index)
  account: ['tenantLists'],
  // lists and search of incidents, the status filter (GSI3), the SOC queue (by due time GSI2/GSI4; ranked GSI2/GSI4; by assignee GSI1/GSI3)
  incidents: ['tenantLists', 'incidentsByStatus', 'socQueue', 'socQueueOfTenant', 'socQueueRanked', 'socQueueRankedOfTenant', 'socQueueRankedOfAssignee', 'socQueueOfAssignee'],
  // tenant summaries (device counts), the tenant audit log (GSI1) and every tenant's (GSI2), access requests (GSI2)
  admin: ['tenantLists', 'auditAllTenants', 'accessRequests'],
  // device lists and alarms (GSI1), devices by IP (GSI3); the staff alarm console (GSI1–GSI4, one partition per filter combination)
  devices: ['tenantLists', 'devicesByIp', 'alarmConsole1', 'alarmConsole2', 'alarmConsole3', 'alarmConsole4'],
  office365: ['tenantLists'],
  // the active maintenance windows when a device alarm is raised (GSI1 by end time)
  ingest: ['tenantLists'],
  recommendations: ['tenantLists'],
  // reports and analytics: lists and first responses (GSI1), devices below target (GSI2), the queue's boundary hour
  // of every tenant (analytics, GSI2) and of one tenant (a tenant's report, GSI4)
  reports: ['tenantLists', 'socQueue', 'socQueueOfTenant', 'belowSla'],
  notifications: ['tenantLists'],
  // the outbox sweep (GSI2 OUTBOX) and search tokens of incidents (GSI1)
  'notifications-consumer': ['tenantLists', 'outbox'],
  // due and breached SLAs from the SOC queue; the below-SLA re-key
  // and the resolved incidents due to close automatically (GSI2 AUTOCLOSE); the device lists of tenants whose
  // outage markers are behind (GSI1)
  'sla-watch': ['socQueue', 'belowSla', 'autoClose', 'tenantLists'],
};

/** The distinct index names a function queries (its `dynamodb:Query` grant on `<table ARN>/index/<name>`). */
export function indexesOf(functionId: string): string[] {
  return [...new Set((FUNCTION_INDEX_ACCESS[functionId] ?? []).map(indexOf))].sort();
}
