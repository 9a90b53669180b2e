/**
 * Device API hooks (routes `listDevices`, `getDevice`, `listAlarms`, `acknowledgeAlarm` of
 * `lambdas/contract/routes.ts`), scoped to the active tenant.
 */
import { buildPath } from '../../shared/lib/contract';
import type { Device, DeviceAlarm, DeviceDetail } from '../../shared/lib/contract';
import type { Query } from '../../shared/lib/api';
import { useApi, useApiSWR, useApiSWRInfinite } from '../../shared/lib/api-context';
import { useTenantQuery } from '../../shared/lib/tenant';
import { useAllPages } from '../../shared/ui/useAllPages';

export const DEVICE_PAGE_SIZE = 50;
export const ALARM_PAGE_SIZE = 25;

export function useDeviceList() {
  const tenant = useTenantQuery();
  return useApiSWRInfinite<Device>('/devices', { ...tenant, limit: DEVICE_PAGE_SIZE });
}

/** Every device of the tenant (device pickers, names of alarm devices). */
export function useAllDevices() {
  return useAllPages<Device>('/devices', useTenantQuery());
}

export function useDevice(id: string | null) {
  const tenant = useTenantQuery();
  return useApiSWR<DeviceDetail>(id ? buildPath('/devices/{id}', { id }) : null, tenant);
}

/** Alarm list with `filters` (`ListAlarmsQuery`: state, severity, deviceId, from, to), newest first. */
export function useAlarmList(filters: Query) {
  const tenant = useTenantQuery();
  return useApiSWRInfinite<DeviceAlarm>('/alarms', { ...tenant, ...filters, limit: ALARM_PAGE_SIZE });
}

/** `POST /devices/{deviceId}/alarms/{alarmId}/acknowledge`; rejects with `ApiError`. */
export function useAcknowledge() {
  const api = useApi();
  const tenant = useTenantQuery();
  return (a: Pick<DeviceAlarm, 'deviceId' | 'id'>) =>
    api.post<DeviceAlarm>(buildPath('/devices/{deviceId}/alarms/{alarmId}/acknowledge', { deviceId: a.deviceId, alarmId: a.id }), {}, tenant);
}

/** Availability windows offered on `/devices/availability`, days (the API's 7/30/90-day windows). */
export const WINDOWS = [7, 30, 90] as const;
export type WindowDays = (typeof WINDOWS)[number];

/** The last `days` entries of the detail's daily availability (oldest first). */
export function lastDays<T>(daily: readonly T[], days: number): T[] {
  return daily.slice(Math.max(0, daily.length - days));
}
