/** Device API hooks (route `listDevices`), scoped to the active tenant. */
import type { Device } from '../../shared/lib/contract';
import { useApiSWRInfinite } from '../../shared/lib/api-context';
import { useTenantQuery } from '../../shared/lib/tenant';

export const DEVICE_PAGE_SIZE = 50;

export function useDeviceList() {
  const tenant = useTenantQuery();
  return useApiSWRInfinite<Device>('/devices', { ...tenant, limit: DEVICE_PAGE_SIZE });
}
