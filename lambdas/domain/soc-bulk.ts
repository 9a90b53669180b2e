/**
 * Bulk work from the SOC queue (issue 31 point 6; docs/api.md#soc-bulk, docs/sla.md#soc-queue): one action on
 * up to `SOC_BULK_MAX_ITEMS` incidents of any tenants. Each row goes through `updateIncident`, the function
 * of `PATCH /incidents/{id}`, with the row's own version — so every rule of the single route holds per row
 * (version check, allowed transitions, triage first, assignee check, automatic-closure date) and each change
 * writes its own transaction: the incident, its history, its SOC-queue place and counts, aggregates,
 * activity and its own audit entry. A row never half-applies; a failed row does not stop the others.
 */
import type { SocBulkBody, SocBulkRowResult, SocBulkResult } from '../contract/schemas.js';
import type { AuditRequest } from './audit.js';
import { ApiError } from './errors.js';
import type { Identity } from './identity.js';
import { updateIncident, type IncidentPatch } from './incidents.js';
import type { GroupMembersPort, IncidentsPort, TenantsPort } from './ports.js';

/** The PATCH body of one row of `body` (a validated bulk request). */
export function bulkPatch(body: SocBulkBody, version: number): IncidentPatch {
  switch (body.action) {
    case 'assign':
      return { version, assignee: body.assignee ?? null };
    case 'status':
      return { version, status: body.status! };
    case 'close':
      return { version, status: 'closed' };
  }
}

/**
 * Applies `body` (validated at the edge by the route's `SocBulkBody`) row by row, in order (one row at a time: rows of one tenant share its stats item, so
 * parallel rows would only conflict with each other). A row's `ApiError` (NOT_FOUND, VERSION_CONFLICT,
 * INVALID_TRANSITION, TRIAGE_REQUIRED, UNKNOWN_ASSIGNEE, FORBIDDEN…) becomes its result; any other error
 * (the table failing past its retries) is thrown, leaving the rows before it applied and reported by their
 * own audit entries.
 * @returns one result per row, in the request's order, with the counts applied / failed
 */
export async function applySocBulk(
  ports: { incidents: IncidentsPort; tenants: TenantsPort; users: GroupMembersPort },
  body: SocBulkBody,
  identity: Identity,
  now: Date,
  audit: AuditRequest,
): Promise<SocBulkResult> {
  const results: SocBulkRowResult[] = [];
  for (const row of body.items) {
    try {
      const updated = await updateIncident(ports.incidents, row.tenantId, row.id, bulkPatch(body, row.version), identity, now.toISOString(), audit, ports.users, ports.tenants);
      results.push({ tenantId: row.tenantId, id: row.id, ok: true, version: updated.version });
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      results.push({ tenantId: row.tenantId, id: row.id, ok: false, code: err.code, message: err.message });
    }
  }
  const applied = results.filter((r) => r.ok).length;
  return { applied, failed: results.length - applied, results };
}
