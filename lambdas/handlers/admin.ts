/**
 * Admin Lambda: tenant and user administration (staff only) and the audit log (customers: their tenant;
 * staff: all). Rules: `lambdas/domain/admin.ts`, `lambdas/domain/audit.ts`; docs/api.md#administration.
 *
 * Users are administered through `UsersPort` on the pool `config.userPoolId` (aws-lite signed Cognito
 * calls, `lambdas/data/cognito-users.ts`); the function's role may call exactly `COGNITO_ADMIN_ACTIONS` on
 * that pool. The local stack and the tests pass their own port in `deps.users` (the local pool signed with
 * the local operator key, or an in-memory pool).
 */
import type { LambdaConfig } from '../config.js';
import { cognitoUsers } from '../data/cognito-users.js';
import * as admin from '../domain/admin.js';
import { listAuditLog } from '../domain/audit.js';
import { CsvDownload } from '../domain/reports.js';
import { listAssignees } from '../domain/incidents.js';
import type { UsersPort } from '../domain/ports.js';
import { createApi, handlerFromEnv, type ApiHandler, type HandlerDeps, type Operations, type OperationInput } from '../http/api.js';

/** Dependencies of the admin Lambda: those of every handler, and the user pool. */
export interface AdminHandlerDeps extends HandlerDeps {
  /** The user pool; default `cognitoUsers` on `config.userPoolId` (`config.cognitoEndpoint` when set). */
  users?: UsersPort;
}

/** A users port that fails every call: the configuration names no user pool. */
function noUserPool(): UsersPort {
  const fail = () => Promise.reject(new Error('admin Lambda: no userPoolId configured'));
  return { listGroupMembers: fail, listGroupUsers: fail, countGroupUsers: fail, getUser: fail, ensureGroup: fail, createUser: fail, resendInvitation: fail, addToGroup: fail, removeFromGroup: fail, setEnabled: fail, resetMfa: fail, groupsOf: fail };
}

/** The request facts an audit entry records. */
const auditReq = (i: Pick<OperationInput<'getMe'>, 'identity' | 'requestId' | 'sourceIp' | 'now'>) => ({ identity: i.identity, requestId: i.requestId, sourceIp: i.sourceIp, now: i.now });

/** The admin operations over `users`. */
export function adminOperations(users: UsersPort): Operations<'admin'> {
  const ports = (repo: OperationInput<'getTenant'>['repo']) => ({ tenants: repo.tenants, tenantAdmin: repo.tenantAdmin, audit: repo.audit, users });
  return {
    listTenantSummaries: ({ repo }) => admin.listTenantSummaries({ tenants: repo.tenants, devices: repo.devices, users }),
    getTenant: ({ repo, params }) => admin.getTenant(repo.tenants, params.tenantId),
    createTenant: (i) => admin.createTenant(ports(i.repo), i.body, auditReq(i)),
    updateTenant: (i) => admin.updateTenant(ports(i.repo), i.params.tenantId, i.body, auditReq(i)),
    listTenantUsers: ({ repo, params }) => admin.listTenantUsers({ tenants: repo.tenants, users }, params.tenantId),
    inviteUser: (i) => admin.inviteUser(ports(i.repo), i.params.tenantId, i.body.email, auditReq(i)),
    removeTenantUser: (i) => admin.removeTenantUser(ports(i.repo), i.params.tenantId, i.params.username, auditReq(i)),
    resendInvitation: (i) => admin.resendInvitation(ports(i.repo), i.params.username, auditReq(i)),
    setUserEnabled: (i) => admin.setUserEnabled(ports(i.repo), i.params.username, i.body.enabled, auditReq(i)),
    resetUserMfa: (i) => admin.resetUserMfa(ports(i.repo), i.params.username, auditReq(i)),
    listStaff: () => admin.listStaff(users),
    grantStaff: (i) => admin.grantStaff(ports(i.repo), i.params.username, auditReq(i)),
    revokeStaff: (i) => admin.revokeStaff(ports(i.repo), i.params.username, auditReq(i)),
    listAssignees: ({ tenantId }) => listAssignees(users, tenantId),
    listAuditLog: (i) =>
      listAuditLog(i.repo.audit, i.query, auditReq(i), async (id) => (await i.repo.tenants.getTenant(id)) !== null, (filename, text) => new CsvDownload(filename, text)),
  };
}

/** The admin API for an explicit configuration (local gateway, tests). */
export function createHandler(config: LambdaConfig, deps: AdminHandlerDeps = {}): ApiHandler {
  const users =
    deps.users ??
    (config.userPoolId ? cognitoUsers({ userPoolId: config.userPoolId, region: config.region, endpoint: config.cognitoEndpoint }) : noUserPool());
  return createApi('admin', adminOperations(users), config, deps);
}

/** API Gateway REST (v1 proxy) entry point; configuration from the environment on the first invocation. */
export const handler: ApiHandler = handlerFromEnv(createHandler);
