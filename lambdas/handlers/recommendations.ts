/**
 * Recommendations Lambda: listRecommendations, updateRecommendation. Status rules:
 * `lambdas/domain/recommendations.ts`.
 */
import type { LambdaConfig } from '../config.js';
import { changeRecommendationStatus, listRecommendations } from '../domain/recommendations.js';
import { createApi, handlerFromEnv, type ApiHandler, type HandlerDeps, type Operations } from '../http/api.js';

export const operations: Operations<'recommendations'> = {
  listRecommendations: ({ repo, tenantId, query }) => listRecommendations(repo.recommendations, tenantId, query),
  updateRecommendation: ({ repo, tenantId, params, body, identity, now, requestId, sourceIp }) =>
    changeRecommendationStatus(repo.recommendations, tenantId, params.id, body, identity, now, { requestId, sourceIp }),
};

/** The recommendations API for an explicit configuration (local gateway, tests). */
export function createHandler(config: LambdaConfig, deps?: HandlerDeps): ApiHandler {
  return createApi('recommendations', operations, config, deps);
}

/** API Gateway REST (v1 proxy) entry point; configuration from the environment on the first invocation. */
export const handler: ApiHandler = handlerFromEnv(createHandler);
