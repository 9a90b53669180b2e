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
import { TABLE_DESIGN } from './table-design.js';

/** One access pattern on an index: the index, and what it reads (docs). */
export interface IndexAccess {
  readonly index: { readonly indexName: string; readonly partitionKey: string; readonly sortKey: string };
  readonly reads: string;
}

/** The index access patterns (see module doc). */
export const INDEX_ACCESS = {
  /** A tenant's GSI1 lists: incidents, alarms, devices by name, Office 365, recommendations, audit, first responses, webhook deliveries. */
  tenantLists: { index: TABLE_DESIGN.gsi1, reads: 'a tenant list: `GSI1PK = TENANT#<t>#<LIST>` (incidents, alarms, devices by name, Office 365, recommendations, the tenant audit log, first responses, webhook deliveries)' },
  /** The SOC queue: every tenant's unresolved incidents by SLA due time. */
  socQueue: { index: TABLE_DESIGN.gsi2, reads: 'the SOC queue: `GSI2PK = SOCQUEUE`, by SLA due time (staff queue, report boundary hours, the SLA job)' },
  /** One tenant's SOC queue: its open incidents by SLA due time. */
  socQueueOfTenant: { index: TABLE_DESIGN.gsi4, reads: 'one tenant\'s SOC queue: `GSI4PK = TENANT#<t>#SOCQUEUE`, by SLA due time (staff queue filtered by customer)' },
  /** One assignee's SOC queue: the assignment entries of every tenant's open incidents assigned to them. */
  socQueueOfAssignee: { index: TABLE_DESIGN.gsi2, reads: 'one assignee\'s SOC queue: `GSI2PK = SOCQUEUE#ASSIGNEE#<assignee>`, by SLA due time (staff queue by assignee, "Asignados a mí")' },
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
  // lists and search of incidents, the status filter (GSI3), the SOC queue (GSI2; by tenant GSI4, by assignee GSI2)
  incidents: ['tenantLists', 'incidentsByStatus', 'socQueue', 'socQueueOfTenant', 'socQueueOfAssignee'],
  // tenant summaries (device counts), the tenant audit log (GSI1) and every tenant's (GSI2), access requests (GSI2)
  admin: ['tenantLists', 'auditAllTenants', 'accessRequests'],
  devices: ['tenantLists'],
  office365: ['tenantLists'],
  recommendations: ['tenantLists'],
  // reports and analytics: lists and first responses (GSI1), the queue's boundary hours and devices below target (GSI2)
  reports: ['tenantLists', 'socQueue', 'belowSla'],
  notifications: ['tenantLists'],
  // the outbox sweep (GSI2 OUTBOX) and search tokens of incidents (GSI1)
  'notifications-consumer': ['tenantLists', 'outbox'],
  // due and breached SLAs from the SOC queue; the below-SLA re-key
  // and the resolved incidents due to close automatically (GSI2 AUTOCLOSE)
  'sla-watch': ['socQueue', 'belowSla', 'autoClose'],
};

/** The distinct index names a function queries (its `dynamodb:Query` grant on `<table ARN>/index/<name>`). */
export function indexesOf(functionId: string): string[] {
  return [...new Set((FUNCTION_INDEX_ACCESS[functionId] ?? []).map(indexOf))].sort();
}
