/**
 * Dashboard data: the first page (up to `SUMMARY_SAMPLE` items, the API's maximum page size) of the
 * tenant's incidents and devices, from the same list routes as their screens.
 */
import type { Device, Incident, Page } from '../../shared/lib/contract';
import { useApiSWR } from '../../shared/lib/api-context';
import { useTenantQuery } from '../../shared/lib/tenant';

export const SUMMARY_SAMPLE = 100;

export function useIncidentSample() {
  return useApiSWR<Page<Incident>>('/incidents', { ...useTenantQuery(), limit: SUMMARY_SAMPLE });
}

export function useDeviceSample() {
  return useApiSWR<Page<Device>>('/devices', { ...useTenantQuery(), limit: SUMMARY_SAMPLE });
}

/** Counts `items` by `key`, returning an entry (possibly 0) for every value of `all`. */
export function countBy<T, K extends string>(items: readonly T[], all: readonly K[], key: (t: T) => K): Record<K, number> {
  const out = Object.fromEntries(all.map((k) => [k, 0])) as Record<K, number>;
  for (const item of items) out[key(item)] = (out[key(item)] ?? 0) + 1;
  return out;
}
