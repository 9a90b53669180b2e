/**
 * Filters and column order of the device status list (docs/portal.md#device-list-filters). They apply in
 * the browser to the devices already loaded: `status`, `type` and `site` are exact matches ('' = any), and
 * the order is by one column, ascending or descending, stable (ties keep the API's order, by name).
 */
import { DEVICE_STATUSES } from '../../shared/lib/contract';
import type { Device } from '../../shared/lib/contract';

export interface DeviceFilters {
  status: string;
  type: string;
  site: string;
}

/** The sortable columns: name (A→Z), status (online → unknown), 30-day availability (%), open alarms. */
export type DeviceSortKey = 'name' | 'status' | 'availability' | 'alarms';
export interface DeviceSort {
  key: DeviceSortKey;
  direction: 'asc' | 'desc';
}

/** The address's `status`, `type` and `site` parameters (absent = ''). */
export function deviceFiltersFrom(params: URLSearchParams): DeviceFilters {
  return { status: params.get('status') ?? '', type: params.get('type') ?? '', site: params.get('site') ?? '' };
}

/** The devices matching every non-empty filter. */
export function filterDevices<T extends Pick<Device, 'status' | 'type' | 'site'>>(items: readonly T[], f: DeviceFilters): T[] {
  return items.filter((d) => (!f.status || d.status === f.status) && (!f.type || d.type === f.type) && (!f.site || d.site === f.site));
}

/** The distinct values of `field` among `items`, sorted (Spanish collation): the options of a filter. */
export function distinctValues<T, K extends keyof T>(items: readonly T[], field: K): string[] {
  return [...new Set(items.map((d) => String(d[field])))].sort((a, b) => a.localeCompare(b, 'es'));
}

const COLLATOR = new Intl.Collator('es', { numeric: true });

/** A new array of `items` in the column order (a null availability sorts last either way). */
export function sortDevices<T extends Pick<Device, 'name' | 'status' | 'availability30d' | 'openAlarms'>>(items: readonly T[], sort: DeviceSort): T[] {
  const sign = sort.direction === 'asc' ? 1 : -1;
  const compare = (a: T, b: T): number => {
    switch (sort.key) {
      case 'name':
        return sign * COLLATOR.compare(a.name, b.name);
      case 'status':
        return sign * (DEVICE_STATUSES.indexOf(a.status) - DEVICE_STATUSES.indexOf(b.status));
      case 'availability':
        if (a.availability30d === null || b.availability30d === null) return (a.availability30d === null ? 1 : 0) - (b.availability30d === null ? 1 : 0);
        return sign * (a.availability30d - b.availability30d);
      case 'alarms':
        return sign * (a.openAlarms - b.openAlarms);
    }
  };
  return items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => compare(a.item, b.item) || a.index - b.index)
    .map((x) => x.item);
}
