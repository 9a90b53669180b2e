/**
 * Incident API hooks (routes `listIncidents`, `getIncident`, `createIncident`, `updateIncident`,
 * `addIncidentComment` of `lambdas/contract/routes.ts`), all scoped to the active tenant.
 */
import { useSWRConfig } from 'swr';
import { unstable_serialize } from 'swr/infinite';
import { buildPath, INCIDENT_TRANSITIONS } from '../../shared/lib/contract';
import type { CreateIncidentBody, Incident, IncidentDetail, Page, UpdateIncidentBody } from '../../shared/lib/contract';
import type { Query } from '../../shared/lib/api';
import { collectPages } from '../../shared/ui/useAllPages';
import { pageKey, useApi, useApiSWR, useApiSWRInfinite } from '../../shared/lib/api-context';
import { useTenantQuery } from '../../shared/lib/tenant';

/** Page size of the incident list. */
export const INCIDENT_PAGE_SIZE = 20;

/** Next states offered in the status select: the contract's lifecycle table (the API enforces it). */
export const NEXT_STATUSES = INCIDENT_TRANSITIONS;

/** The incident list with `filters` (a `GET /incidents` query from `filtersToQuery`), cursor-paginated. */
export function useIncidentList(filters: Query = {}) {
  const tenant = useTenantQuery();
  return useApiSWRInfinite<Incident>('/incidents', { ...tenant, ...filters, limit: INCIDENT_PAGE_SIZE });
}

/** Most incidents one CSV export reads (every page of the filtered list up to this many). */
export const CSV_MAX_ITEMS = 5000;

/** Every incident matching `filters` (up to `CSV_MAX_ITEMS`), for the CSV export. Rejects with `ApiError`. */
export function useIncidentExport() {
  const api = useApi();
  const tenant = useTenantQuery();
  return (filters: Query) => collectPages((q) => api.get<Page<Incident>>('/incidents', q), { ...tenant, ...filters }, CSV_MAX_ITEMS);
}

export function useIncident(id: string | undefined) {
  const tenant = useTenantQuery();
  return useApiSWR<IncidentDetail>(id ? buildPath('/incidents/{id}', { id }) : null, tenant);
}

/** Write calls; each rejects with `ApiError`. Creating revalidates the incident list. */
export function useIncidentActions() {
  const api = useApi();
  const tenant = useTenantQuery();
  const { mutate } = useSWRConfig();
  return {
    async create(body: CreateIncidentBody): Promise<Incident> {
      const created = await api.post<Incident>('/incidents', body, tenant);
      await mutate(unstable_serialize(pageKey('/incidents', { ...tenant, limit: INCIDENT_PAGE_SIZE })));
      return created;
    },
    update(id: string, body: UpdateIncidentBody): Promise<Incident> {
      return api.patch<Incident>(buildPath('/incidents/{id}', { id }), body, tenant);
    },
    comment(id: string, text: string): Promise<unknown> {
      return api.post(buildPath('/incidents/{id}/comments', { id }), { body: text }, tenant);
    },
  };
}
