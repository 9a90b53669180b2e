/**
 * Devices Lambda: listDevices, getDevice, listAlarms, searchAlarms, listAlarmConsole (staff), acknowledgeAlarm, the maintenance windows
 * (list/create/update/delete, lambdas/domain/maintenance-windows.ts) (route table rows with
 * `handler: 'devices'`). Status, availability and alarm rules live in `lambdas/domain/devices.ts`.
 */
import type { LambdaConfig } from '../config.js';
import { acknowledgeAlarm, deviceDetailView, listAlarmConsole, listAlarms, listDevicesView } from '../domain/devices.js';
import { createMaintenanceWindow, deleteMaintenanceWindow, listMaintenanceWindows, updateMaintenanceWindow } from '../domain/maintenance-windows.js';
import { createApi, handlerFromEnv, type ApiHandler, type HandlerDeps, type Operations } from '../http/api.js';

export const operations: Operations<'devices'> = {
  listDevices: ({ repo, tenantId, query, now }) => listDevicesView(repo.devices, tenantId, query, now, repo.maintenanceWindows),
  getDevice: ({ repo, tenantId, params, now }) => deviceDetailView(repo.devices, tenantId, params.id, now, repo.maintenanceWindows),
  listAlarms: ({ repo, tenantId, query }) => listAlarms(repo.devices, tenantId, query),
  // The alarms whose title has every word of q (docs/api.md#alarm-search).
  searchAlarms: ({ repo, tenantId, query }) => repo.devices.searchAlarms(tenantId, query),
  listAlarmConsole: ({ repo, query }) => listAlarmConsole(repo.devices, query),
  acknowledgeAlarm: ({ repo, tenantId, params, identity, now, requestId, sourceIp }) =>
    acknowledgeAlarm(repo.devices, tenantId, params.deviceId, params.alarmId, identity, now, { requestId, sourceIp }),
  listMaintenanceWindows: ({ repo, tenantId, query, now }) => listMaintenanceWindows(repo.maintenanceWindows, tenantId, query, now),
  createMaintenanceWindow: ({ repo, tenantId, body, identity, now, requestId, sourceIp }) =>
    createMaintenanceWindow(repo.maintenanceWindows, repo.devices, tenantId, body, { identity, requestId, sourceIp, now }),
  updateMaintenanceWindow: ({ repo, tenantId, params, body, identity, now, requestId, sourceIp }) =>
    updateMaintenanceWindow(repo.maintenanceWindows, repo.devices, tenantId, params.windowId, body, { identity, requestId, sourceIp, now }),
  deleteMaintenanceWindow: ({ repo, tenantId, params, identity, now, requestId, sourceIp }) =>
    deleteMaintenanceWindow(repo.maintenanceWindows, tenantId, params.windowId, { identity, requestId, sourceIp, now }),
};

/** The devices API for an explicit configuration (local gateway, tests). */
export function createHandler(config: LambdaConfig, deps?: HandlerDeps): ApiHandler {
  return createApi('devices', operations, config, deps);
}

/** API Gateway REST (v1 proxy) entry point; configuration from the environment on the first invocation. */
export const handler: ApiHandler = handlerFromEnv(createHandler);
