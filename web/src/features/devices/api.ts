/**
 * Device API hooks (routes `listDevices`, `getDevice`, `listAlarms`, `acknowledgeAlarm` of
 * `lambdas/contract/routes.ts`), scoped to the active tenant.
 */
import type { DeviceAlarm, OperationQuery } from '../../shared/lib/contract';
import { useApi, useApiSWR, useApiSWRInfinite } from '../../shared/lib/api-context';
import { useTenantQuery } from '../../shared/lib/tenant';
import { useAllPages } from '../../shared/ui/useAllPages';

export const DEVICE_PAGE_SIZE = 50;
export const ALARM_PAGE_SIZE = 25;

export function useDeviceList() {
  const tenant = useTenantQuery();
  return useApiSWRInfinite('listDevices', { query: { ...tenant, limit: DEVICE_PAGE_SIZE } });
}

/** Every device of the tenant (device pickers, names of alarm devices). */
export function useAllDevices() {
  return useAllPages('listDevices', { query: useTenantQuery() });
}

export function useDevice(id: string | null) {
  const tenant = useTenantQuery();
  return useApiSWR('getDevice', id ? { params: { id }, query: tenant } : null);
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
