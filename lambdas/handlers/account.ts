/** Account Lambda: getMe (`GET /me`) and listTenants (`GET /tenants`, admin only by the route table). */
import type { LambdaConfig } from '../config.js';
import { describeMe, listTenants } from '../domain/account.js';
import { createApi, handlerFromEnv, type ApiHandler, type HandlerDeps, type Operations } from '../http/api.js';

export const operations: Operations<'account'> = {
  getMe: ({ repo, identity }) => describeMe(repo.tenants, identity),
  listTenants: ({ repo }) => listTenants(repo.tenants),
};

/** The account API for an explicit configuration (local gateway, tests). */
export function createHandler(config: LambdaConfig, deps?: HandlerDeps): ApiHandler {
  return createApi('account', operations, config, deps);
}

/** API Gateway REST (v1 proxy) entry point; configuration from the environment on the first invocation. */
export const handler: ApiHandler = handlerFromEnv(createHandler);
