/**
 * Incidents Lambda: listIncidents, createIncident, getIncident, updateIncident, triageIncident,
 * requestIncidentClosure, reopenIncident, confirmIncidentResolution, listSocQueue, addIncidentComment
 * (route table rows with `handler: 'incidents'`). Validation and errors: `lambdas/http/api.ts`;
 * rules: `lambdas/domain/incidents.ts` (roles: docs/api.md#incident-roles; SLA: docs/sla.md).
 */
import type { LambdaConfig } from '../config.js';
import {
  commentOnIncident,
  confirmIncidentResolution,
  fileIncident,
  getIncidentDetail,
  listIncidents,
  listSocQueue,
  reopenIncident,
  requestIncidentClosure,
  triageIncident,
  updateIncident,
} from '../domain/incidents.js';
import { createApi, handlerFromEnv, type ApiHandler, type HandlerDeps, type Operations } from '../http/api.js';

/** The audit facts of a request (actor, request id, source IP, time). */
const auditOf = (i: { identity: Parameters<typeof updateIncident>[4]; requestId: string; sourceIp: string; now: Date }) => ({
  identity: i.identity,
  requestId: i.requestId,
  sourceIp: i.sourceIp,
  now: i.now,
});

export const operations: Operations<'incidents'> = {
  listIncidents: ({ repo, tenantId, query }) => listIncidents(repo.incidents, tenantId, query),
  createIncident: (i) => fileIncident(i.repo, i.tenantId, i.body, i.identity, i.now, { key: i.headers['Idempotency-Key'], lambdaContext: i.lambdaContext }, auditOf(i)),
  getIncident: ({ repo, tenantId, params }) => getIncidentDetail(repo.incidents, tenantId, params.id),
  updateIncident: (i) => updateIncident(i.repo.incidents, i.tenantId, i.params.id, i.body, i.identity, i.now.toISOString(), auditOf(i)),
  triageIncident: (i) => triageIncident(i.repo, i.tenantId, i.params.id, i.body, i.identity, i.now.toISOString(), auditOf(i)),
  requestIncidentClosure: (i) => requestIncidentClosure(i.repo.incidents, i.tenantId, i.params.id, i.body.note, i.identity, i.now.toISOString(), auditOf(i)),
  reopenIncident: (i) => reopenIncident(i.repo.incidents, i.tenantId, i.params.id, i.body.reason, i.identity, i.now.toISOString(), auditOf(i)),
  confirmIncidentResolution: (i) => confirmIncidentResolution(i.repo.incidents, i.tenantId, i.params.id, i.body.note, i.identity, i.now.toISOString(), auditOf(i)),
  listSocQueue: ({ repo, query, identity, now }) => listSocQueue(repo.incidents, query, identity, now),
  addIncidentComment: (i) => commentOnIncident(i.repo.incidents, i.tenantId, i.params.id, i.body.body, i.identity, i.now.toISOString(), auditOf(i)),
};

/** The incidents API for an explicit configuration (local gateway, tests). */
export function createHandler(config: LambdaConfig, deps?: HandlerDeps): ApiHandler {
  return createApi('incidents', operations, config, deps);
}

/** API Gateway REST (v1 proxy) entry point; configuration from the environment on the first invocation. */
export const handler: ApiHandler = handlerFromEnv(createHandler);
