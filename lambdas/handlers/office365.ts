/**
 * Office 365 Lambda: listOffice365Alarms, listOffice365Events, searchOffice365Users, acknowledgeOffice365Alarm (the collectors write the
 * alerts via ingest; Vigía only adds its acknowledgement).
 */
import type { LambdaConfig } from '../config.js';
import { acknowledgeOffice365Alarm, listOffice365Alarms, listOffice365Events } from '../domain/office365.js';
import { createApi, handlerFromEnv, type ApiHandler, type HandlerDeps, type Operations } from '../http/api.js';

export const operations: Operations<'office365'> = {
  listOffice365Alarms: ({ repo, tenantId, query }) => listOffice365Alarms(repo.office365, tenantId, query),
  listOffice365Events: ({ repo, tenantId, query }) => listOffice365Events(repo.office365, tenantId, query),
  // The users the alerts named, by UPN prefix (docs/api.md#office-365-user-search).
  searchOffice365Users: ({ repo, tenantId, query }) => repo.office365.searchUsers(tenantId, query),
  acknowledgeOffice365Alarm: ({ repo, tenantId, params, identity, now, requestId, sourceIp }) =>
    acknowledgeOffice365Alarm(repo.office365, tenantId, params.alarmId, identity, now, { requestId, sourceIp }),
};

/** The Office 365 API for an explicit configuration (local gateway, tests). */
export function createHandler(config: LambdaConfig, deps?: HandlerDeps): ApiHandler {
  return createApi('office365', operations, config, deps);
}

/** API Gateway REST (v1 proxy) entry point; configuration from the environment on the first invocation. */
export const handler: ApiHandler = handlerFromEnv(createHandler);
