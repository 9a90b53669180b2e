/**
 * Dashboard data (docs/portal.md#screens) from the existing list routes, all scoped to the active tenant:
 * - open incidents: `GET /incidents?status=new,in_progress,on_hold` (every page);
 * - incident trend: `GET /incidents?from=<30 days ago>` (every page, up to 1,000);
 * - devices: `GET /devices` (every page) → counts by status and the mean 30-day availability;
 * - alarms: `GET /alarms?state=active,acknowledged` (every page) → active count and latest alarms.
 * - Office 365: `GET /office365/alarms?status=active` (every page, up to 1,000) → count.
 */
import type { Device, Incident, Severity } from '../../shared/lib/contract';
import { useTenant, useTenantQuery } from '../../shared/lib/tenant';
import { useAllPages } from '../../shared/ui/useAllPages';
import type { TrendPoint } from '../../shared/ui/charts';

/** Days of the incident trend and of "30-day availability". */
export const TREND_DAYS = 30;

/** Incident statuses counted as open (not resolved or closed). */
export const OPEN_STATUSES = 'new,in_progress,on_hold';

function useReady() {
  const { activeTenant, isLoading } = useTenant();
  return !isLoading && activeTenant !== null;
}

export function useOpenIncidents() {
  const tenant = useTenantQuery();
  return useAllPages('listIncidents', useReady() ? { query: { ...tenant, status: OPEN_STATUSES } } : null);
}

/** Start of the trend window: midnight UTC `TREND_DAYS - 1` days before `now`. */
export function trendStart(now: Date): Date {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  d.setUTCDate(d.getUTCDate() - (TREND_DAYS - 1));
  return d;
}

export function useRecentIncidents(from: string) {
  const tenant = useTenantQuery();
  return useAllPages('listIncidents', useReady() ? { query: { ...tenant, from } } : null);
}

export function useAllDevices() {
  const tenant = useTenantQuery();
  return useAllPages('listDevices', useReady() ? { query: tenant } : null);
}

export function useOpenAlarms() {
  const tenant = useTenantQuery();
  return useAllPages('listAlarms', useReady() ? { query: { ...tenant, state: 'active,acknowledged' } } : null);
}

export function useOpenO365Alarms() {
  const tenant = useTenantQuery();
  return useAllPages('listOffice365Alarms', useReady() ? { query: { ...tenant, status: 'active' } } : null);
}

/** How many devices the availability chart shows. */
export const LOWEST_DEVICES = 10;

/** The `n` devices with the lowest 30-day availability (devices without history left out), lowest first. */
export function lowestAvailability(devices: readonly Pick<Device, 'name' | 'availability30d'>[], n: number): { name: string; value: number }[] {
  return devices
    .filter((d): d is Pick<Device, 'name'> & { availability30d: number } => d.availability30d !== null)
    .map((d) => ({ name: d.name, value: d.availability30d }))
    .sort((a, b) => a.value - b.value)
    .slice(0, n);
}

/** Counts `items` by `key`, returning an entry (possibly 0) for every value of `all`. */
export function countBy<T, K extends string>(items: readonly T[], all: readonly K[], key: (t: T) => K): Record<K, number> {
  const out = Object.fromEntries(all.map((k) => [k, 0])) as Record<K, number>;
  for (const item of items) out[key(item)] = (out[key(item)] ?? 0) + 1;
  return out;
}

/**
 * Incidents opened per UTC day and severity, one point per day from `start` (UTC midnight) for `days`
 * days, oldest first; incidents outside the window are ignored.
 */
export function incidentTrend(incidents: readonly Pick<Incident, 'createdAt' | 'severity'>[], start: Date, days = TREND_DAYS): TrendPoint[] {
  const points: TrendPoint[] = [];
  const index = new Map<string, TrendPoint>();
  for (let i = 0; i < days; i++) {
    const date = new Date(start.getTime() + i * 86_400_000).toISOString().slice(0, 10);
    const p: TrendPoint = { date, critical: 0, high: 0, medium: 0, low: 0 };
    points.push(p);
    index.set(date, p);
  }
  for (const inc of incidents) {
    const p = index.get(inc.createdAt.slice(0, 10));
    if (p) p[inc.severity as Severity] += 1;
  }
  return points;
}

/** Mean of the devices' 30-day availability (%), ignoring devices without history; null if none. */
export function meanAvailability(devices: readonly Pick<Device, 'availability30d'>[]): number | null {
  const values = devices.map((d) => d.availability30d).filter((v): v is number => v !== null);
  if (values.length === 0) return null;
  return Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 100) / 100;
}

/** The `n` most recently updated incidents (by `updatedAt`, newest first), without duplicates. */
export function latestUpdates(lists: readonly (readonly Incident[])[], n = 5): Incident[] {
  const byId = new Map<string, Incident>();
  for (const list of lists) for (const inc of list) byId.set(inc.id, inc);
  return [...byId.values()].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt)).slice(0, n);
}
