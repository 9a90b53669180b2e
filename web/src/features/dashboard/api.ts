/**
 * Dashboard data (docs/portal.md#screens), scoped to the active tenant, at a cost that does not grow with it:
 * - `GET /summary`: open incidents by severity, devices by status, the fleet's 30-day availability and the
 *   devices below the availability target, open and active alarms, Office 365 alerts by status, and the
 *   incidents created per day (the trend) — all from the API's write-time aggregates, exact for any
 *   tenant size (docs/api.md#summary);
 * - `GET /alarms?state=active,acknowledged&limit=5`: the latest open alarms (one page);
 * - `GET /incidents?limit=20`: the newest incidents, for "latest updates" (one page).
 * Each refreshes every `REFRESH_MS` while the page is open and when the window regains focus (SWR).
 */
import type { Incident, Severity, Summary } from '../../shared/lib/contract';
import { useApiSWR } from '../../shared/lib/api-context';
import { useTenant, useTenantQuery } from '../../shared/lib/tenant';
import type { TrendPoint } from '../../shared/ui/charts';

/** Days of the incident trend (the summary's default series). */
export const TREND_DAYS = 30;

/** How often the dashboard's figures are refreshed while it is open, ms. */
export const REFRESH_MS = 60_000;

/** Incident statuses counted as open (not resolved or closed). */
export const OPEN_STATUSES = 'new,in_progress,on_hold';

/** Latest open alarms listed. */
export const LATEST_ALARMS = 5;

/** Newest incidents read for "latest updates". */
const RECENT_INCIDENTS = 20;

const LIVE = { refreshInterval: REFRESH_MS, revalidateOnFocus: true } as const;

function useReady() {
  const { activeTenant, isLoading } = useTenant();
  return !isLoading && activeTenant !== null;
}

/** The tenant's summary (`GET /summary`, the default 30-day series). */
export function useSummary() {
  const tenant = useTenantQuery();
  return useApiSWR('getSummary', useReady() ? { query: tenant } : null, LIVE);
}

/** The newest open device alarms (one page). */
export function useLatestOpenAlarms() {
  const tenant = useTenantQuery();
  return useApiSWR('listAlarms', useReady() ? { query: { ...tenant, state: 'active,acknowledged', limit: LATEST_ALARMS } } : null, LIVE);
}

/** The newest incidents (one page), for the latest updates. */
export function useRecentIncidents() {
  const tenant = useTenantQuery();
  return useApiSWR('listIncidents', useReady() ? { query: { ...tenant, limit: RECENT_INCIDENTS } } : null, LIVE);
}

/** The summary's per-day series as chart points: incidents created per UTC day and severity, oldest first. */
export function incidentTrend(days: Summary['days']): TrendPoint[] {
  return days.map((d) => ({ date: d.date, ...(d.incidentsCreated as Record<Severity, number>) }));
}

/** Incidents created over the series. */
export function trendTotal(days: Summary['days']): number {
  return days.reduce((n, d) => n + Object.values(d.incidentsCreated).reduce((a, b) => a + b, 0), 0);
}

/** The `n` most recently updated incidents (by `updatedAt`, newest first), without duplicates. */
export function latestUpdates(lists: readonly (readonly Incident[])[], n = 5): Incident[] {
  const byId = new Map<string, Incident>();
  for (const list of lists) for (const inc of list) byId.set(inc.id, inc);
  return [...byId.values()].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt)).slice(0, n);
}
