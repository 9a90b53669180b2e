/**
 * Account Lambda: getMe (`GET /me`), listTenants (`GET /tenants`, admin only by the route table), and the
 * caller's activity feed: listActivity (`GET /activity`), getActivityUnread (`GET /activity/unread`),
 * markActivityRead (`POST /activity/read`), and the tenant's escalation contacts
 * (`GET`/`PUT /escalation-contacts`, lambdas/domain/escalation-contacts.ts) — tenant from the claims (staff: `?tenant=`), the per-user marker
 * keyed by the token's `sub` (docs/notifications.md).
 */
import type { LambdaConfig } from '../config.js';
import { describeMe, listTenants } from '../domain/account.js';
import { getEscalationContacts, putEscalationContacts } from '../domain/escalation-contacts.js';
import { createApi, handlerFromEnv, type ApiHandler, type HandlerDeps, type Operations } from '../http/api.js';

export const operations: Operations<'account'> = {
  getMe: ({ repo, identity }) => describeMe(repo.tenants, identity),
  listTenants: ({ repo }) => listTenants(repo.tenants),
  listActivity: ({ repo, tenantId, query }) => repo.activity.list(tenantId, { limit: query.limit, cursor: query.cursor }),
  getActivityUnread: ({ repo, tenantId, identity }) => repo.activity.countUnread(tenantId, identity.sub),
  markActivityRead: ({ repo, tenantId, identity, now }) => repo.activity.markRead(tenantId, identity.sub, now.toISOString()),
  getEscalationContacts: ({ repo, tenantId }) => getEscalationContacts(repo.escalationContacts, tenantId),
  putEscalationContacts: ({ repo, tenantId, identity, body, now, requestId, sourceIp }) =>
    putEscalationContacts(repo.escalationContacts, tenantId, body, { identity, requestId, sourceIp, now }),
};

/** The account API for an explicit configuration (local gateway, tests). */
export function createHandler(config: LambdaConfig, deps?: HandlerDeps): ApiHandler {
  return createApi('account', operations, config, deps);
}

/** API Gateway REST (v1 proxy) entry point; configuration from the environment on the first invocation. */
export const handler: ApiHandler = handlerFromEnv(createHandler);
