/**
 * Reports Lambda: getReport (`GET /reports`, tenant-scoped) and getAnalytics (`GET /analytics`, `admin`
 * only — enforced by the route table's `groups`, not by the portal). Both answer JSON, or CSV with
 * `format=csv` (`Content-Disposition: attachment`). Figures: `lambdas/domain/reports.ts`.
 */
import type { LambdaConfig } from '../config.js';
import { analytics, tenantReport } from '../domain/reports.js';
import { createApi, handlerFromEnv, type ApiHandler, type HandlerDeps, type Operations } from '../http/api.js';

export const operations: Operations<'reports'> = {
  getReport: ({ repo, tenantId, query, now }) => tenantReport(repo.reports, tenantId, query, now),
  getAnalytics: ({ repo, query, now }) => analytics(repo, query, now),
};

/** The reports API for an explicit configuration (local gateway, tests). */
export function createHandler(config: LambdaConfig, deps?: HandlerDeps): ApiHandler {
  return createApi('reports', operations, config, deps);
}

/** API Gateway REST (v1 proxy) entry point; configuration from the environment on the first invocation. */
export const handler: ApiHandler = handlerFromEnv(createHandler);
