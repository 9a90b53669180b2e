/**
 * Ingest Lambda: the collectors' routes (`auth: 'iam'` in the route table). Authorised by IAM (SigV4) in
 * AWS and by the local access key in the local gateway; a Cognito user is refused (403) by the plumbing in
 * `lambdas/http/api.ts`; a collector writes only the tenants it is granted (403 otherwise). Replays and
 * statuses (202 applied, 200 replay): `lambdas/domain/ingest.ts`.
 */
import type { LambdaConfig } from '../config.js';
import { ingestDeviceAlarm, ingestHeartbeat, ingestHeartbeatBatch, ingestOffice365Alarm, ingestOffice365Event, ingestRecommendation } from '../domain/ingest.js';
import { createApi, handlerFromEnv, type ApiHandler, type HandlerDeps, type Operations } from '../http/api.js';

// `identity.sub` of a collector is its IAM ARN (`collectorIdentity`); the domain checks it may write the
// body's tenant (docs/api.md#collectors-and-tenants).
export const operations: Operations<'ingest'> = {
  ingestHeartbeat: ({ repo, identity, body }) => ingestHeartbeat(repo, identity.sub, body),
  ingestHeartbeatBatch: ({ repo, identity, body }) => ingestHeartbeatBatch(repo, identity.sub, body),
  ingestDeviceAlarm: ({ repo, identity, body }) => ingestDeviceAlarm(repo, identity.sub, body),
  ingestOffice365Alarm: ({ repo, identity, body }) => ingestOffice365Alarm(repo, identity.sub, body),
  ingestOffice365Event: ({ repo, identity, body }) => ingestOffice365Event(repo, identity.sub, body),
  ingestRecommendation: ({ repo, identity, body }) => ingestRecommendation(repo, identity.sub, body),
};

/** The ingest API for an explicit configuration (local gateway, tests). */
export function createHandler(config: LambdaConfig, deps?: HandlerDeps): ApiHandler {
  return createApi('ingest', operations, config, deps);
}

/** API Gateway REST (v1 proxy) entry point; configuration from the environment on the first invocation. */
export const handler: ApiHandler = handlerFromEnv(createHandler);
