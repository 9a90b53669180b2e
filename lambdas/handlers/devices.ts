/**
 * Devices Lambda: listDevices, getDevice, listAlarms, listAlarmConsole (staff), acknowledgeAlarm (route table rows with
 * `handler: 'devices'`). Status, availability and alarm rules live in `lambdas/domain/devices.ts`.
 */
import type { LambdaConfig } from '../config.js';
import { acknowledgeAlarm, deviceDetailView, listAlarmConsole, listAlarms, listDevicesView } from '../domain/devices.js';
import { createApi, handlerFromEnv, type ApiHandler, type HandlerDeps, type Operations } from '../http/api.js';

export const operations: Operations<'devices'> = {
  listDevices: ({ repo, tenantId, query, now }) => listDevicesView(repo.devices, tenantId, query, now),
  getDevice: ({ repo, tenantId, params, now }) => deviceDetailView(repo.devices, tenantId, params.id, now),
  listAlarms: ({ repo, tenantId, query }) => listAlarms(repo.devices, tenantId, query),
  listAlarmConsole: ({ repo, query }) => listAlarmConsole(repo.devices, query),
  acknowledgeAlarm: ({ repo, tenantId, params, identity, now, requestId, sourceIp }) =>
    acknowledgeAlarm(repo.devices, tenantId, params.deviceId, params.alarmId, identity, now, { requestId, sourceIp }),
};

/** The devices API for an explicit configuration (local gateway, tests). */
export function createHandler(config: LambdaConfig, deps?: HandlerDeps): ApiHandler {
  return createApi('devices', operations, config, deps);
}

/** API Gateway REST (v1 proxy) entry point; configuration from the environment on the first invocation. */
export const handler: ApiHandler = handlerFromEnv(createHandler);
