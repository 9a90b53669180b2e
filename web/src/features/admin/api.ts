/**
 * Administration API hooks (staff only; routes `listTenantSummaries`, `getTenant`, `createTenant`, `updateTenant`,
 * `listTenantUsers`, `inviteUser`, `removeTenantUser`, `resendInvitation`, `setUserEnabled`,
 * `resetUserMfa`, `listStaff`, `grantStaff`, `revokeStaff`, `getTenantIdentityProvider`, `putTenantIdentityProvider`,
 * `deleteTenantIdentityProvider` of `lambdas/contract/routes.ts`). Writes
 * reject with `ApiError` and revalidate what they change.
 */
import { useSWRConfig } from 'swr';
import { unstable_serialize } from 'swr/infinite';
import type { CreateTenantBody, PoolUser, PutTenantIdentityProviderBody, TenantSummary, UpdateTenantBody } from '../../shared/lib/contract';

import { pageKey, useApi, useApiSWR, useApiSWRInfinite } from '../../shared/lib/api-context';

/** Tenants per page of the staff tenant list. */
export const TENANT_PAGE_SIZE = 50;

/**
 * The tenants with their user and device counts, page by page ("Cargar más"; admin Lambda, staff only): each
 * page is one Query and one BatchGetItem, the counts kept at write time, no Cognito call (docs/api.md#administration).
 */
export function useTenants() {
  return useApiSWRInfinite('listTenantSummaries', TENANTS_INPUT);
}

export function useTenantDetail(tenantId: string | undefined) {
  return useApiSWR('getTenant', tenantId ? { params: { tenantId } } : null);
}

export function useTenantUsers(tenantId: string | undefined) {
  return useApiSWR('listTenantUsers', tenantId ? { params: { tenantId } } : null);
}

/** The tenant's enterprise identity provider (staff only; never the client secret, only `clientSecretSet`). */
export function useTenantIdentityProvider(tenantId: string | undefined) {
  return useApiSWR('getTenantIdentityProvider', tenantId ? { params: { tenantId } } : null);
}

export function useStaff() {
  return useApiSWR('listStaff', {});
}

/** The paged tenant list's input (one definition for the hook and its revalidation). */
const TENANTS_INPUT = { query: { limit: TENANT_PAGE_SIZE } };

/**
 * Revalidates every cached administration read (tenants, users, staff), `/me` (its tenant list) and the
 * paged tenant list, whose pages live under SWR-infinite's own key (`unstable_serialize`), not the plain keys.
 */
function useRevalidateAdmin() {
  const { mutate } = useSWRConfig();
  return () =>
    Promise.all([
      mutate((key) => Array.isArray(key) && ['listTenants', 'listTenantSummaries', 'getTenant', 'listTenantUsers', 'listStaff', 'getMe', 'getTenantIdentityProvider'].includes(key[0] as string)),
      mutate(unstable_serialize(pageKey('listTenantSummaries', TENANTS_INPUT))),
    ]);
}

export function useAdminActions() {
  const api = useApi();
  const revalidate = useRevalidateAdmin();
  const after = async <T,>(p: Promise<T>): Promise<T> => {
    const r = await p;
    await revalidate();
    return r;
  };
  return {
    createTenant: (body: CreateTenantBody): Promise<TenantSummary> => after(api.call('createTenant', { body })),
    updateTenant: (tenantId: string, body: UpdateTenantBody) => after(api.call('updateTenant', { params: { tenantId }, body })),
    invite: (tenantId: string, email: string): Promise<PoolUser> => after(api.call('inviteUser', { params: { tenantId }, body: { email } })),
    remove: (tenantId: string, username: string) => after(api.call('removeTenantUser', { params: { tenantId, username } })),
    resend: (username: string) => after(api.call('resendInvitation', { params: { username } })),
    setEnabled: (username: string, enabled: boolean) => after(api.call('setUserEnabled', { params: { username }, body: { enabled } })),
    resetMfa: (username: string) => after(api.call('resetUserMfa', { params: { username } })),
    grantStaff: (username: string) => after(api.call('grantStaff', { params: { username } })),
    revokeStaff: (username: string) => after(api.call('revokeStaff', { params: { username } })),
    putIdentityProvider: (tenantId: string, body: PutTenantIdentityProviderBody) => after(api.call('putTenantIdentityProvider', { params: { tenantId }, body })),
    deleteIdentityProvider: (tenantId: string) => after(api.call('deleteTenantIdentityProvider', { params: { tenantId } })),
  };
}
