/**
 * The activity feed's data hooks (docs/notifications.md, docs/portal.md#notifications): the caller's unread
 * count in the active tenant (`GET /activity/unread`, refreshed every `UNREAD_REFRESH_MS` and on focus), the
 * latest events (`GET /activity`), and "Marcar todo como leído" (`POST /activity/read`), which refreshes both.
 */
import { useSWRConfig } from 'swr';
import type { ActivityEvent, ActivityUnread } from '../../shared/lib/contract';
import { callOp, useApi, useApiSWR } from '../../shared/lib/api-context';
import { useTenant } from '../../shared/lib/tenant';

/** How often the bell asks for the unread count, ms. */
export const UNREAD_REFRESH_MS = 30_000;

/** Events the bell's panel shows. */
export const PANEL_EVENTS = 5;

/**
 * The `tenant` query of the activity routes, or null until the active tenant is known (before `GET /me`
 * answers, a request without it would be 400 TENANT_REQUIRED for staff).
 */
export function useActivityTenant(): { tenant: string } | null {
  const { activeTenant } = useTenant();
  return activeTenant ? { tenant: activeTenant } : null;
}

/** The caller's unread count in the active tenant (SWR, refreshed every 30 s). */
export function useActivityUnread() {
  const tenant = useActivityTenant();
  return useApiSWR('getActivityUnread', tenant ? { query: tenant } : null, { refreshInterval: UNREAD_REFRESH_MS });
}

/** The latest `PANEL_EVENTS` events of the active tenant (SWR, refreshed with the count). */
export function useLatestActivity() {
  const tenant = useActivityTenant();
  return useApiSWR('listActivity', tenant ? { query: { ...tenant, limit: PANEL_EVENTS } } : null, { refreshInterval: UNREAD_REFRESH_MS });
}

/** "Marcar todo como leído": posts the marker, then revalidates every activity read of the cache. */
export function useMarkAllRead(): () => Promise<ActivityUnread> {
  const api = useApi();
  const tenant = useActivityTenant();
  const { mutate } = useSWRConfig();
  return async () => {
    const result = await callOp(api, 'markActivityRead', { query: tenant ?? {} });
    // Plain keys are `[operationId, input]`; the feed page's infinite key is a serialised string.
    await mutate((key) => (Array.isArray(key) ? key[0] === 'getActivityUnread' || key[0] === 'listActivity' : typeof key === 'string' && key.includes('listActivity')));
    return result;
  };
}

/** Whether `e` counts as unread for the caller (after the marker and not the caller's own change). */
export function isUnread(e: ActivityEvent, unread: ActivityUnread | undefined, sub: string | undefined): boolean {
  if (!unread || unread.count === 0) return false;
  if (sub && e.actor?.sub === sub) return false;
  return unread.seenAt === null || e.at > unread.seenAt;
}

/** The bell's badge text: '' for none, the count, or "99+". */
export function badgeText(unread: ActivityUnread | undefined): string {
  if (!unread || unread.count === 0) return '';
  return unread.capped && unread.count >= 99 ? '99+' : String(unread.count);
}
