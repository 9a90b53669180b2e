/**
 * Ingest Lambda: the collectors' routes (`auth: 'iam'` in the route table). Authorised by IAM (SigV4) in
 * AWS and by the local access key in the local gateway; a Cognito user is refused (403) by the plumbing in
 * `lambdas/http/api.ts`; a collector writes only the tenants it is granted (403 otherwise). Replays and
 * statuses (202 applied, 200 replay): `lambdas/domain/ingest.ts`.
 */
import type { LambdaConfig } from '../config.js';
import { ingestDeviceAlarm, ingestHeartbeat, ingestHeartbeatBatch, ingestOffice365Alarm, ingestOffice365Event, ingestRecommendation } from '../domain/ingest.js';
import { createApi, handlerFromEnv, type ApiHandler, type HandlerDeps, type Operations } from '../http/api.js';
import { HEARTBEAT_ROUTES, publishAcceptedHeartbeats } from '../triggers/job-metrics.js';

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

/**
 * {@link operations} publishing the heartbeats each heartbeat request accepted (applied or replayed, both
 * routes) as `Vigia/<stage> HeartbeatsAccepted` (`publishAcceptedHeartbeats`, EMF: the stage's ingest-silence
 * alarm, docs/platform.md#alarms). A refused request publishes nothing.
 */
export function countingOperations(stage: string): Operations<'ingest'> {
  return {
    ...operations,
    ingestHeartbeat: async (input) => {
      const out = await operations.ingestHeartbeat(input);
      publishAcceptedHeartbeats(stage, HEARTBEAT_ROUTES.single, 1);
      return out;
    },
    ingestHeartbeatBatch: async (input) => {
      const out = await operations.ingestHeartbeatBatch(input);
      const r = out as { applied: number; replayed: number };
      publishAcceptedHeartbeats(stage, HEARTBEAT_ROUTES.batch, r.applied + r.replayed);
      return out;
    },
  };
}

/**
 * The ingest API for an explicit configuration (local gateway, tests). In Lambda (`AWS_LAMBDA_FUNCTION_NAME`
 * set) it publishes the accepted heartbeats ({@link countingOperations}); elsewhere no EMF line is printed (CloudWatch
 * Logs is what turns it into a metric).
 */
export function createHandler(config: LambdaConfig, deps?: HandlerDeps): ApiHandler {
  const inLambda = process.env.AWS_LAMBDA_FUNCTION_NAME !== undefined;
  return createApi('ingest', inLambda ? countingOperations(config.stage) : operations, config, deps);
}

/** API Gateway REST (v1 proxy) entry point; configuration from the environment on the first invocation. */
export const handler: ApiHandler = handlerFromEnv(createHandler);
