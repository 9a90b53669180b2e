/**
 * Device API hooks (routes `listDevices`, `getDevice`, `listAlarms`, `acknowledgeAlarm` and, for the device
 * page, `listIncidents` of `lambdas/contract/routes.ts`), scoped to the active tenant or to the tenant named
 * in the address (`tenant`, the device page's `?tenant=`).
 */
import type { DeviceAlarm, OperationQuery } from '../../shared/lib/contract';
import { useApi, useApiSWR, useApiSWRInfinite } from '../../shared/lib/api-context';
import { useTenantQuery } from '../../shared/lib/tenant';

export const DEVICE_PAGE_SIZE = 50;
export const ALARM_PAGE_SIZE = 25;

export function useDeviceList() {
  const tenant = useTenantQuery();
  return useApiSWRInfinite('listDevices', { query: { ...tenant, limit: DEVICE_PAGE_SIZE } });
}

/** Devices a device picker offers at a time (one `listDevices` page: one Query, whatever the fleet's size). */
export const PICKER_SIZE = 10;

/**
 * The device picker's choices: the first `PICKER_SIZE` devices by name whose name starts with `prefix`
 * (ignoring case and accents; `''` = the first by name) — ONE server page (`listDevices` with `prefix`),
 * so every device is reachable by typing the start of its name, at any fleet size.
 */
export function useDeviceSearch(prefix: string) {
  const tenant = useTenantQuery();
  const q = prefix.trim().slice(0, 100);
  return useApiSWR('listDevices', { query: { ...tenant, limit: PICKER_SIZE, ...(q ? { prefix: q } : {}) } });
}

export function useDevice(id: string | null, urlTenant?: string | null) {
  const active = useTenantQuery();
  const tenant = urlTenant ? { tenant: urlTenant } : active;
  return useApiSWR('getDevice', id ? { params: { id }, query: tenant } : null);
}

/** Every alarm of one device (any state), newest first, paged (`listAlarms` with `deviceId`). */
export function useDeviceAlarms(deviceId: string | null, urlTenant?: string | null) {
  const active = useTenantQuery();
  const tenant = urlTenant ? { tenant: urlTenant } : active;
  return useApiSWRInfinite('listAlarms', deviceId ? { query: { ...tenant, deviceId, limit: ALARM_PAGE_SIZE } } : null);
}

/**
 * Incidents whose title has every word of `text` (the device's name), newest first, paged (`listIncidents`
 * with `q`: the word index, not the time list; incidents carry no device reference, so the name is the link).
 */
export function useIncidentsMentioning(text: string | null, urlTenant?: string | null) {
  const active = useTenantQuery();
  const tenant = urlTenant ? { tenant: urlTenant } : active;
  return useApiSWRInfinite('listIncidents', text && text.trim().length >= 2 ? { query: { ...tenant, q: text.trim().slice(0, 100), limit: 10 } } : null);
}

/** Alarm list with `filters` (state, severity, deviceId, from, to of `listAlarms`), newest first. */
export function useAlarmList(filters: AlarmFilters) {
  const tenant = useTenantQuery();
  return useApiSWRInfinite('listAlarms', { query: { ...tenant, ...filters, limit: ALARM_PAGE_SIZE } });
}

/** The filters of the alarm list (the `listAlarms` query without tenant, page size and cursor). */
export type AlarmFilters = Omit<OperationQuery<'listAlarms'>, 'tenant' | 'limit' | 'cursor'>;

/** `POST /devices/{deviceId}/alarms/{alarmId}/acknowledge`; rejects with `ApiError`. */
export function useAcknowledge() {
  const api = useApi();
  const tenant = useTenantQuery();
  return (a: Pick<DeviceAlarm, 'deviceId' | 'id'>) => api.call('acknowledgeAlarm', { params: { deviceId: a.deviceId, alarmId: a.id }, query: tenant });
}

/** Availability windows offered on `/devices/availability`, days (the API's 7/30/90-day windows). */
export const WINDOWS = [7, 30, 90] as const;
export type WindowDays = (typeof WINDOWS)[number];

/** The last `days` entries of the detail's daily availability (oldest first). */
export function lastDays<T>(daily: readonly T[], days: number): T[] {
  return daily.slice(Math.max(0, daily.length - days));
}
