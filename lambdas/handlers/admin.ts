/**
 * Admin Lambda: tenant and user administration (staff only), a customer admin's own team (`/team`,
 * lambdas/domain/team.ts, docs/api.md#team-management) and the audit log (customers: their tenant;
 * staff: all). Rules: `lambdas/domain/admin.ts`, `lambdas/domain/audit.ts`; docs/api.md#administration.
 *
 * Users are administered through `UsersPort` on the pool `config.userPoolId` (aws-lite signed Cognito
 * calls, `lambdas/data/cognito-users.ts`); the function's role may call exactly `COGNITO_ADMIN_ACTIONS` on
 * that pool. The local stack and the tests pass their own port in `deps.users` (the local pool signed with
 * the local operator key, or an in-memory pool).
 */
import type { LambdaConfig } from '../config.js';
import { cognitoIdentityProviders } from '../data/cognito-identity-providers.js';
import { cognitoUsers } from '../data/cognito-users.js';
import { createDocumentClient } from '../data/table/client.js';
import { identityProviderStore } from '../data/identity-providers.js';
import { secretsManager } from '../data/secrets.js';
import * as admin from '../domain/admin.js';
import * as team from '../domain/team.js';
import * as idp from '../domain/identity-providers.js';
import * as accessRequests from '../domain/access-requests.js';
import { listAuditLog } from '../domain/audit.js';
import { CsvDownload } from '../domain/reports.js';
import { listAssignees } from '../domain/incidents.js';
import type { UsersPort } from '../domain/ports.js';
import { createApi, handlerFromEnv, type ApiHandler, type HandlerDeps, type Operations, type OperationInput } from '../http/api.js';

/** Dependencies of the admin Lambda: those of every handler, and the user pool. */
export interface AdminHandlerDeps extends HandlerDeps {
  /** The user pool; default `cognitoUsers` on `config.userPoolId` (`config.cognitoEndpoint` when set). */
  users?: UsersPort;
  /**
   * Staff-configured identity providers: Cognito's provider and app client calls, Secrets Manager, the provider
   * items. Default: aws-lite on `config.userPoolId` / the first of `config.userPoolClientIds` / `config.region`
   * (endpoint overrides from the config), the items on `config.tableName`. The local stack passes the local pool
   * signed with the operator key.
   */
  identityProviders?: Partial<Pick<idp.IdentityProviderPorts, 'cognito' | 'secrets' | 'store'>>;
}

/** A users port that fails every call: the configuration names no user pool. */
function noUserPool(): UsersPort {
  const fail = () => Promise.reject(new Error('admin Lambda: no userPoolId configured'));
  return { listGroupMembers: fail, listGroupUsers: fail, countGroupUsers: fail, getUser: fail, ensureGroup: fail, createUser: fail, resendInvitation: fail, addToGroup: fail, removeFromGroup: fail, setEnabled: fail, resetMfa: fail, groupsOf: fail, listGroupPage: fail, deleteUser: fail };
}

/** The request facts an audit entry records. */
const auditReq = (i: Pick<OperationInput<'getMe'>, 'identity' | 'requestId' | 'sourceIp' | 'now'>) => ({ identity: i.identity, requestId: i.requestId, sourceIp: i.sourceIp, now: i.now });

/** The admin operations over `users` (and the identity provider ports `idps`, given the tenants port of the request). */
export function adminOperations(users: UsersPort, idps?: (repo: OperationInput<'getTenant'>['repo']) => idp.IdentityProviderPorts): Operations<'admin'> {
  const ports = (repo: OperationInput<'getTenant'>['repo']) => ({ tenants: repo.tenants, tenantAdmin: repo.tenantAdmin, audit: repo.audit, users, sessions: repo.sessions });
  const idpPorts = (repo: OperationInput<'getTenant'>['repo']): idp.IdentityProviderPorts => {
    if (!idps) throw new Error('admin Lambda: identity provider ports not configured');
    return idps(repo);
  };
  return {
    listTenantSummaries: ({ repo, query }) => admin.listTenantSummaries(repo.tenants, query),
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
    listAccessRequests: ({ repo, query }) => accessRequests.listAccessRequests(repo.accessRequests, query),
    grantAccessRequest: (i) => accessRequests.grantAccessRequest({ ...ports(i.repo), accessRequests: i.repo.accessRequests }, i.params.id, i.body.tenantId, auditReq(i)),
    dismissAccessRequest: (i) => accessRequests.dismissAccessRequest(i.repo, i.params.id, auditReq(i)),
    getTenantIdentityProvider: ({ repo, params }) => idp.getTenantIdentityProvider(idpPorts(repo), params.tenantId),
    putTenantIdentityProvider: (i) => idp.putTenantIdentityProvider(idpPorts(i.repo), i.params.tenantId, i.body, auditReq(i)),
    deleteTenantIdentityProvider: (i) => idp.deleteTenantIdentityProvider(idpPorts(i.repo), i.params.tenantId, auditReq(i)),
    listTeam: ({ tenantId, query }) => team.listTeam(users, tenantId, query),
    inviteTeamMember: (i) => team.inviteTeamMember(ports(i.repo), i.tenantId, i.body, auditReq(i)),
    updateTeamMember: (i) => team.updateTeamMember(ports(i.repo), i.tenantId, i.params.username, i.body, auditReq(i)),
    removeTeamMember: (i) => team.removeTeamMember(ports(i.repo), i.tenantId, i.params.username, auditReq(i)),
    listAuditLog: (i) =>
      listAuditLog(i.repo.audit, i.query, auditReq(i), async (id) => (await i.repo.tenants.getTenant(id)) !== null, (filename, text) => new CsvDownload(filename, text)),
  };
}

/** A port whose every call fails: the stage offers no staff-configured providers (never reached: FEDERATION_UNAVAILABLE first). */
const unavailable = <T extends object>(what: string): T =>
  new Proxy({} as T, { get: () => () => Promise.reject(new Error(`admin Lambda: ${what} not configured`)) });

/** The identity provider ports of the admin Lambda (see `AdminHandlerDeps.identityProviders`). */
function identityProviderPorts(config: LambdaConfig, deps: AdminHandlerDeps): (repo: OperationInput<'getTenant'>['repo']) => idp.IdentityProviderPorts {
  const given = deps.identityProviders ?? {};
  const clientId = config.userPoolClientIds[0];
  const cognito =
    given.cognito ??
    (config.userPoolId && clientId
      ? cognitoIdentityProviders({ userPoolId: config.userPoolId, clientId, region: config.region, endpoint: config.cognitoEndpoint })
      : unavailable<idp.IdentityProviderAdminPort>('user pool'));
  const secrets = given.secrets ?? secretsManager({ region: config.region, endpoint: config.secretsManagerEndpoint });
  let store = given.store;
  const settings: idp.IdentityProviderSettings = {
    available: config.identityProviders !== undefined,
    secretPrefix: config.identityProviders?.secretPrefix ?? `vigia/${config.stage}/identity-providers/`,
    oauthDomain: config.identityProviders?.oauthDomain,
    staffEmailDomains: config.identityProviders?.staffEmailDomains ?? [],
    userPoolId: config.userPoolId,
    stageProviders: config.stageProviders,
    // Only the local stack's own identity provider is served over http (docs/local-emulation.md).
    allowLoopbackHttp: config.stage === 'local',
  };
  return (repo) => {
    store ??= identityProviderStore({ doc: createDocumentClient({ region: config.region, endpoint: config.dynamodbEndpoint }), tableName: config.tableName }, config.retention);
    return { tenants: repo.tenants, store, cognito, secrets, settings };
  };
}

/** The admin API for an explicit configuration (local gateway, tests). */
export function createHandler(config: LambdaConfig, deps: AdminHandlerDeps = {}): ApiHandler {
  const users =
    deps.users ??
    (config.userPoolId ? cognitoUsers({ userPoolId: config.userPoolId, region: config.region, endpoint: config.cognitoEndpoint }) : noUserPool());
  return createApi('admin', adminOperations(users, identityProviderPorts(config, deps)), config, deps);
}

/** API Gateway REST (v1 proxy) entry point; configuration from the environment on the first invocation. */
export const handler: ApiHandler = handlerFromEnv(createHandler);
