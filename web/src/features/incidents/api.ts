/**
 * Incident API hooks (routes `listIncidents`, `getIncident`, `createIncident`, `updateIncident`,
 * `addIncidentComment`, `triageIncident`, `requestIncidentClosure`, `reopenIncident`,
 * `confirmIncidentResolution`, `listAssignees` of `lambdas/contract/routes.ts`), scoped to the active tenant
 * or, on a ticket page, to the tenant of its address.
 */
import { useSWRConfig } from 'swr';
import { unstable_serialize } from 'swr/infinite';
import { INCIDENT_TRANSITIONS } from '../../shared/lib/contract';
import type { CommentVisibility, CreateIncidentBody, Incident, IncidentComment, TriageIncidentBody, UpdateIncidentBody } from '../../shared/lib/contract';
import { readAllPages } from '../../shared/ui/useAllPages';
import { pageKey, useApi, useApiSWR, useApiSWRInfinite } from '../../shared/lib/api-context';
import type { IncidentQuery } from './filters';
import { useTenantQuery } from '../../shared/lib/tenant';

/** Page size of the incident list. */
export const INCIDENT_PAGE_SIZE = 20;

/** Next states offered in the status select: the contract's lifecycle table (the API enforces it). */
export const NEXT_STATUSES = INCIDENT_TRANSITIONS;

/** The incident list with `filters` (a `GET /incidents` query from `filtersToQuery`), cursor-paginated. */
export function useIncidentList(filters: IncidentQuery = {}) {
  const tenant = useTenantQuery();
  return useApiSWRInfinite('listIncidents', { query: { ...tenant, ...filters, limit: INCIDENT_PAGE_SIZE } });
}

/** Most incidents one CSV export reads (every page of the filtered list up to this many). */
export const CSV_MAX_ITEMS = 5000;

/** Every incident matching `filters` (up to `CSV_MAX_ITEMS`), for the CSV export. Rejects with `ApiError`. */
export function useIncidentExport() {
  const api = useApi();
  const tenant = useTenantQuery();
  return (filters: IncidentQuery) => readAllPages(api, 'listIncidents', { query: { ...tenant, ...filters } }, CSV_MAX_ITEMS);
}

/**
 * One incident with comments and history. `urlTenant` is the `?tenant=` of the ticket address: when
 * present it wins over the active tenant, so the header's picker never swaps in another customer's
 * incident (docs/portal.md#incident-detail).
 */
export function useIncident(id: string | undefined, urlTenant?: string | null) {
  const active = useTenantQuery();
  const tenant = urlTenant ? { tenant: urlTenant } : active;
  return useApiSWR('getIncident', id ? { params: { id }, query: tenant } : null);
}

/** Who an incident of `tenant` can be assigned to (`listAssignees`, staff only); null = do not load. */
export function useAssignees(tenant: string | null) {
  return useApiSWR('listAssignees', tenant ? { query: { tenant } } : null);
}

/**
 * Role actions on one incident of `tenant` (docs/api.md#incident-roles); each rejects with `ApiError`.
 * Staff: `triage`, `update` (provider statuses, assignee, category). Customers: `requestClosure`,
 * `reopen`, `confirmResolution`. Both: `comment`.
 */
export function useIncidentRoleActions(tenant: string) {
  const api = useApi();
  const query = { tenant };
  return {
    triage: (id: string, body: TriageIncidentBody) => api.call('triageIncident', { params: { id }, body, query }),
    update: (id: string, body: UpdateIncidentBody) => api.call('updateIncident', { params: { id }, body, query }),
    requestClosure: (id: string, note: string) => api.call('requestIncidentClosure', { params: { id }, body: { note }, query }),
    reopen: (id: string, reason: string) => api.call('reopenIncident', { params: { id }, body: { reason }, query }),
    confirmResolution: (id: string, note?: string) => api.call('confirmIncidentResolution', { params: { id }, body: note ? { note } : {}, query }),
    /** A comment, or with `visibility: 'internal'` a staff-only work note (docs/api.md#internal-notes). */
    comment: (id: string, text: string, visibility: CommentVisibility = 'public') => api.call('addIncidentComment', { params: { id }, body: { body: text, visibility }, query }),
  };
}

/** Days after resolution (or closure) within which a customer may reopen; the API enforces it (docs/sla.md#reopening). */
export const REOPEN_GRACE_DAYS = 7;

/** Write calls; each rejects with `ApiError`. Creating revalidates the incident list. */
export function useIncidentActions() {
  const api = useApi();
  const tenant = useTenantQuery();
  const { mutate } = useSWRConfig();
  return {
    /** Opens an incident in `forTenant` (staff name the customer) or else the active tenant. */
    async create(body: CreateIncidentBody, forTenant?: string): Promise<Incident> {
      const created = await api.call('createIncident', { body, query: forTenant ? { tenant: forTenant } : tenant });
      await mutate(unstable_serialize(pageKey('listIncidents', { query: { ...tenant, limit: INCIDENT_PAGE_SIZE } })));
      return created;
    },
    update(id: string, body: UpdateIncidentBody): Promise<Incident> {
      return api.call('updateIncident', { params: { id }, body, query: tenant });
    },
    comment(id: string, text: string): Promise<IncidentComment> {
      return api.call('addIncidentComment', { params: { id }, body: { body: text }, query: tenant });
    },
  };
}
