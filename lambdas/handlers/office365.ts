/** Office 365 Lambda: listOffice365Alarms, listOffice365Events (read-only; the collectors write via ingest). */
import type { LambdaConfig } from '../config.js';
import { listOffice365Alarms, listOffice365Events } from '../domain/office365.js';
import { createApi, handlerFromEnv, type ApiHandler, type HandlerDeps, type Operations } from '../http/api.js';

export const operations: Operations<'office365'> = {
  listOffice365Alarms: ({ repo, tenantId, query }) => listOffice365Alarms(repo.office365, tenantId, query),
  listOffice365Events: ({ repo, tenantId, query }) => listOffice365Events(repo.office365, tenantId, query),
};

/** The Office 365 API for an explicit configuration (local gateway, tests). */
export function createHandler(config: LambdaConfig, deps?: HandlerDeps): ApiHandler {
  return createApi('office365', operations, config, deps);
}

/** API Gateway REST (v1 proxy) entry point; configuration from the environment on the first invocation. */
export const handler: ApiHandler = handlerFromEnv(createHandler);
