/**
 * Incident API hooks (routes `listIncidents`, `getIncident`, `createIncident`, `updateIncident`,
 * `addIncidentComment` of `lambdas/contract/routes.ts`), all scoped to the active tenant.
 */
import { useSWRConfig } from 'swr';
import { unstable_serialize } from 'swr/infinite';
import { INCIDENT_TRANSITIONS } from '../../shared/lib/contract';
import type { CreateIncidentBody, Incident, IncidentComment, UpdateIncidentBody } from '../../shared/lib/contract';
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

export function useIncident(id: string | undefined) {
  const tenant = useTenantQuery();
  return useApiSWR('getIncident', id ? { params: { id }, query: tenant } : null);
}

/** Write calls; each rejects with `ApiError`. Creating revalidates the incident list. */
export function useIncidentActions() {
  const api = useApi();
  const tenant = useTenantQuery();
  const { mutate } = useSWRConfig();
  return {
    async create(body: CreateIncidentBody): Promise<Incident> {
      const created = await api.call('createIncident', { body, query: tenant });
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
