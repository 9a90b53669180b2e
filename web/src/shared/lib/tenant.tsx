/**
 * The active tenant: which customer's data the portal shows. The list comes from `GET /me`
 * (`tenants`: the caller's tenants, every tenant for admin); the choice is kept in localStorage under
 * `TENANT_STORAGE_KEY` and sent as the `tenant` query parameter of tenant-scoped calls.
 */
import { createContext, useCallback, useContext, useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import type { Me, Tenant } from './contract';
import type { ApiError } from './api';
import { useApiSWR } from './api-context';

export const TENANT_STORAGE_KEY = 'vigia.activeTenant';

export interface TenantState {
  me: Me | undefined;
  meError: ApiError | undefined;
  isLoading: boolean;
  retry: () => void;
  tenants: Tenant[];
  /** Active tenant id; null until `/me` is loaded or when the caller has no tenant. */
  activeTenant: string | null;
  setActiveTenant: (id: string) => void;
  /** Whether the header shows a tenant picker (several tenants, or admin). */
  canPick: boolean;
}

const TenantContext = createContext<TenantState | null>(null);

/** The tenant chosen on this browser (`TENANT_STORAGE_KEY`), or null. */
export function readStoredTenant(): string | null {
  try {
    return localStorage.getItem(TENANT_STORAGE_KEY);
  } catch {
    return null;
  }
}

/**
 * The active tenant among the caller's tenant ids (`/me`'s order): the chosen one when it is among them,
 * else the first; null when there is none. Also used to prefetch the dashboard at sign-in
 * (`app/prefetch-signed-in.ts`), so both ask for the same tenant.
 */
export function pickActiveTenant(tenantIds: readonly string[], chosen: string | null): string | null {
  return chosen !== null && tenantIds.includes(chosen) ? chosen : (tenantIds[0] ?? null);
}

export function TenantProvider({ children }: { children: ReactNode }) {
  const { data: me, error, mutate } = useApiSWR('getMe', {});
  // Loading means "no answer yet". SWR's own `isLoading` is also true at the first render of an answer already in
  // its cache (the sign-in's prefetch puts `/me` there) while it revalidates it, which held the screens back by a
  // render and, when the prefetch was still under way, by the whole request (docs/portal.md#sign-in-to-dashboard).
  const isLoading = me === undefined && error === undefined;
  const [chosen, setChosen] = useState<string | null>(readStoredTenant);
  const tenants = useMemo(() => me?.tenants ?? [], [me]);
  const activeTenant = pickActiveTenant(tenants.map((t) => t.id), chosen);
  const setActiveTenant = useCallback((id: string) => {
    setChosen(id);
    try {
      localStorage.setItem(TENANT_STORAGE_KEY, id);
    } catch {
      /* storage unavailable (private mode): keep the choice in memory */
    }
  }, []);
  const value: TenantState = {
    me,
    meError: error,
    isLoading,
    retry: () => void mutate(),
    tenants,
    activeTenant,
    setActiveTenant,
    canPick: !!me && (me.isAdmin || tenants.length > 1),
  };
  return <TenantContext.Provider value={value}>{children}</TenantContext.Provider>;
}

/**
 * Whether the caller may do an operator's work (open and comment incidents, acknowledge alarms): staff, or a
 * customer whose role (`/me` `role`, docs/api.md#customer-roles) is not `viewer`. The portal hides, not
 * disables, what a viewer cannot do; the API refuses it anyway (403 ROLE_REQUIRED).
 */
export function canOperate(me: Me | undefined): boolean {
  return !!me && (me.isAdmin || me.role !== 'viewer');
}

export function useTenant(): TenantState {
  const t = useContext(TenantContext);
  if (!t) throw new Error('useTenant() outside <TenantProvider>');
  return t;
}

/** The `tenant` query parameter for tenant-scoped calls (`{}` when no tenant is active). */
export function useTenantQuery(): { tenant?: string } {
  const { activeTenant } = useTenant();
  return activeTenant ? { tenant: activeTenant } : {};
}
