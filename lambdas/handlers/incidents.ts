/**
 * Incidents Lambda: listIncidents, createIncident, getIncident, updateIncident, addIncidentComment
 * (route table rows with `handler: 'incidents'`). Validation and errors: `lambdas/http/api.ts`;
 * rules: `lambdas/domain/incidents.ts`.
 */
import type { LambdaConfig } from '../config.js';
import { commentOnIncident, fileIncident, getIncidentDetail, listIncidents, updateIncident } from '../domain/incidents.js';
import { createApi, handlerFromEnv, type ApiHandler, type HandlerDeps, type Operations } from '../http/api.js';

export const operations: Operations<'incidents'> = {
  listIncidents: ({ repo, tenantId, query }) => listIncidents(repo.incidents, tenantId, query),
  createIncident: ({ repo, tenantId, body, identity, now, headers, lambdaContext }) =>
    fileIncident(repo, tenantId, body, identity, now, { key: headers['Idempotency-Key'], lambdaContext }),
  getIncident: ({ repo, tenantId, params }) => getIncidentDetail(repo.incidents, tenantId, params.id),
  updateIncident: ({ repo, tenantId, params, body, identity, now }) => updateIncident(repo.incidents, tenantId, params.id, body, identity, now.toISOString()),
  addIncidentComment: ({ repo, tenantId, params, body, identity, now }) => commentOnIncident(repo.incidents, tenantId, params.id, body.body, identity, now.toISOString()),
};

/** The incidents API for an explicit configuration (local gateway, tests). */
export function createHandler(config: LambdaConfig, deps?: HandlerDeps): ApiHandler {
  return createApi('incidents', operations, config, deps);
}

/** API Gateway REST (v1 proxy) entry point; configuration from the environment on the first invocation. */
export const handler: ApiHandler = handlerFromEnv(createHandler);
