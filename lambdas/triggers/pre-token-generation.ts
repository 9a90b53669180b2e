/**
 * Cognito pre token generation trigger (V1 event): adds the claim `vigia:mfa` = `totp` to the ID token of a
 * user who has TOTP (an authenticator app) as an MFA method, i.e. whose `AdminGetUser` answer lists
 * `SOFTWARE_TOKEN_MFA` in `UserMFASettingList`. The API refuses members of `admin` without that claim on
 * admin routes and when acting on another tenant (403 MFA_REQUIRED; docs/api.md#staff-accounts-and-totp).
 *
 * Cognito runs the trigger at every token issue, sign-in and refresh alike (`triggerSource`
 * `TokenGeneration_*`), so the claim appears at the first refresh after the user sets TOTP up and
 * disappears at the first one after it is turned off. The deployed user pool invokes `handler`; the local
 * user pool invokes the same `createPreTokenGenerationHandler` (scripts/local/cognito/triggers.ts), so there
 * is one implementation of the rule.
 *
 * If AdminGetUser fails, the token is issued without the claim (the sign-in still works; staff routes then
 * answer MFA_REQUIRED until the next refresh) and the failure is logged.
 *
 * Access requests: a SIGN-IN (not a refresh) of a user in no group — typically a self-registered customer no
 * administrator has put in a tenant yet — is recorded as an access request item (`AccessRequestEntity`: who, e-mail,
 * identity provider and domain, when), listed for staff in "Solicitudes de acceso", and in the staff audit log as
 * `user.access_request` (docs/api.md#access-requests). Both come from the event Cognito built (verified by
 * construction: user name, `sub`, the `email` attribute, `identities`, the group list). A user whose request staff
 * dismissed records nothing more. A failed write is logged and the token issued anyway.
 *
 * Federated users (docs/platform.md#federated-sign-in): on a stage with enterprise identity providers
 * (`FEDERATED_TENANTS`), a user who signed in through one is put in its provider's tenant group
 * (`AdminAddUserToGroup` when not yet a member; a failure is logged) and the ID token's groups are overridden
 * with exactly that tenant (`groupOverrideDetails`), so the first sign-in already lands in the tenant and such a
 * user never carries `admin` or another tenant. Such a sign-in is not an access request. Providers configured by
 * staff from the administration screen (`FEDERATED_TENANTS_FROM_TABLE` = `true`) are bound to their tenant by an
 * item of the table (`IDP#<provider>`, one GetItem for a federated user the file does not name;
 * docs/api.md#tenant-identity-provider); a failed read issues the token with no tenant (the user waits).
 */
import { randomUUID } from 'node:crypto';
import { AdminAddUserToGroupCommand, AdminGetUserCommand, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import type { Context, PreTokenGenerationTriggerEvent } from 'aws-lambda';
import { MFA_CLAIM, MFA_TOTP } from '../contract/claims.js';
import type { AccessRequest, AuditEntry } from '../contract/schemas.js';
import { accessRequestOf } from '../domain/access-requests.js';
import { newAuditEntry, STAFF_AUDIT_TENANT } from '../domain/audit.js';
import { ADMIN_GROUP } from '../contract/routes.js';
import { preTokenTriggerConfigFromEnv } from '../config.js';
import { federatedProviderOf, federatedTenantOf, type FederatedTenants } from './federation.js';

export { MFA_CLAIM, MFA_TOTP } from '../contract/claims.js';

/**
 * The event version this trigger is written for and the stack configures: "1" (infra/pre-token-trigger.ts adds the
 * trigger with `userPool.addTrigger` and no LambdaVersion, i.e. `V1_0`: ID token claims and groups only; developer
 * guide, "Pre token generation Lambda trigger", event versions). The local pool sends this version too.
 */
export const PRE_TOKEN_GENERATION_EVENT_VERSION = '1';

/** The one Cognito call the trigger makes: `AdminGetUser`'s MFA methods of a user (e.g. `['SOFTWARE_TOKEN_MFA']`). */
export type MfaMethodsOf = (userPoolId: string, username: string) => Promise<readonly string[]>;

/** `AdminGetUser` with an AWS SDK v3 client. */
export function adminGetUserMfa(client: Pick<CognitoIdentityProviderClient, 'send'>): MfaMethodsOf {
  return async (userPoolId, username) => {
    const user = await client.send(new AdminGetUserCommand({ UserPoolId: userPoolId, Username: username }));
    return user.UserMFASettingList ?? [];
  };
}

/** `AdminAddUserToGroup` with an AWS SDK v3 client. */
export function adminAddUserToGroup(client: Pick<CognitoIdentityProviderClient, 'send'>): AddUserToGroup {
  return async (userPoolId, username, group) => {
    await client.send(new AdminAddUserToGroupCommand({ UserPoolId: userPoolId, Username: username, GroupName: group }));
  };
}

/** Puts a user in a group (`AdminAddUserToGroup`; idempotent in Cognito). */
export type AddUserToGroup = (userPoolId: string, username: string, group: string) => Promise<void>;

/** Federated sign-in settings of the trigger: provider → tenant, and how to add a user to a group. */
export interface TriggerFederation {
  /** The providers file's enterprise providers (`FEDERATED_TENANTS`). */
  readonly tenants: FederatedTenants;
  readonly addUserToGroup: AddUserToGroup;
  /**
   * Staff-configured providers (docs/api.md#tenant-identity-provider): the tenant of a provider the file does not
   * name, from the table (one GetItem of `IDP#<provider>`); null when none. Absent: the file's providers only.
   */
  readonly tenantOfProvider?: (providerName: string) => Promise<string | null>;
}

/**
 * Stores an access request and its audit entry (`AccessRequestsPort.raise`: the deployed trigger's PutItems on the
 * stage's table; nothing when staff dismissed the user's request).
 */
export type RecordAudit = (entry: AuditEntry, request: AccessRequest) => Promise<void>;

/** The access request of a sign-in event that `accessRequestEntry` records (same user, same instant). */
export function accessRequestOfEvent(event: PreTokenGenerationTriggerEvent, entry: AuditEntry): AccessRequest {
  const attrs = event.request.userAttributes ?? {};
  return accessRequestOf(
    {
      username: event.userName,
      sub: attrs.sub ?? event.userName,
      email: attrs.email || null,
      emailVerified: attrs.email_verified === 'true',
      provider: federatedProviderOf(event.userName, attrs, []),
    },
    new Date(entry.at),
  );
}

/**
 * `triggerSource` values of a token issue that is a sign-in: password/SRP sign-in (incl. its MFA and
 * custom challenges), the new-password challenge, the hosted UI, device authentication. Not
 * `TokenGeneration_RefreshTokens`.
 */
export const SIGN_IN_TRIGGER_SOURCES: ReadonlySet<string> = new Set([
  'TokenGeneration_Authentication',
  'TokenGeneration_NewPasswordChallenge',
  'TokenGeneration_HostedAuth',
  'TokenGeneration_AuthenticateDevice',
]);

/**
 * The staff audit entry of an access request, or `null` when the event is not one (a refresh, or a user with
 * at least one group). Entry: tenant `_staff`, action `user.access_request`, actor = the user (`sub`, and the
 * e-mail when `email_verified` is `true`), target `{ type: 'user', id: <user name> }`, `after: { email }`,
 * `requestId` = the Lambda request id (or a UUID), `sourceIp` '' (the event carries none), `at` = `now`.
 */
export function accessRequestEntry(event: PreTokenGenerationTriggerEvent, requestId: string, now: Date = new Date()): AuditEntry | null {
  if (!SIGN_IN_TRIGGER_SOURCES.has(event.triggerSource)) return null;
  const groups = event.request.groupConfiguration?.groupsToOverride ?? [];
  if (groups.length > 0) return null;
  const attrs = event.request.userAttributes ?? {};
  const email = attrs.email ?? '';
  const verified = attrs.email_verified === 'true';
  return newAuditEntry(
    {
      tenantId: STAFF_AUDIT_TENANT,
      actor: { sub: attrs.sub ?? event.userName, ...(email && verified ? { email } : {}) },
      action: 'user.access_request',
      target: { type: 'user', id: event.userName, ...(email ? { name: email } : {}) },
      ...(email ? { after: { email } } : {}),
      requestId,
      sourceIp: '',
    },
    now,
  );
}

/**
 * The trigger for a given `mfaMethodsOf` (the deployed trigger's: AdminGetUser on the event's pool).
 * Returns the event with `response.claimsOverrideDetails.claimsToAddOrOverride[vigia:mfa] = 'totp'` when
 * TOTP is among the user's MFA methods; otherwise the event unchanged. With `recordAudit`, a sign-in of a user
 * in no group is also recorded (`accessRequestEntry`); its failure is logged, never thrown. With `federation`,
 * a user of an enterprise provider gets exactly its tenant as groups (module doc), and no access request.
 */
export function createPreTokenGenerationHandler(
  mfaMethodsOf: MfaMethodsOf,
  log: (message: string, error: unknown) => void = (m, e) => console.error(m, e),
  recordAudit?: RecordAudit,
  federation?: TriggerFederation,
): (event: PreTokenGenerationTriggerEvent, context?: Pick<Context, 'awsRequestId'>) => Promise<PreTokenGenerationTriggerEvent> {
  return async (event, context) => {
    let tenant = federation ? federatedTenantOf(event.userName, event.request.userAttributes ?? {}, federation.tenants) : null;
    if (tenant === null && federation?.tenantOfProvider) {
      // Only a user who signed in through a provider (Cognito's `identities` attribute) is looked up.
      const provider = federatedProviderOf(event.userName, event.request.userAttributes ?? {}, []);
      if (provider !== null) {
        try {
          const t = await federation.tenantOfProvider(provider);
          tenant = t !== null && t !== ADMIN_GROUP ? t : null;
        } catch (e) {
          log(`reading the tenant of identity provider ${provider} failed; the token carries no tenant`, e);
        }
      }
    }
    if (tenant !== null) {
      const groups = event.request.groupConfiguration?.groupsToOverride ?? [];
      if (!groups.includes(tenant)) {
        try {
          await federation!.addUserToGroup(event.userPoolId, event.userName, tenant);
        } catch (e) {
          log(`adding the federated user to group ${tenant} failed; this token carries the group anyway`, e);
        }
      }
      const details = event.response.claimsOverrideDetails ?? {};
      event.response.claimsOverrideDetails = { ...details, groupOverrideDetails: { ...(details.groupOverrideDetails ?? {}), groupsToOverride: [tenant] } };
    }
    if (recordAudit && tenant === null) {
      const entry = accessRequestEntry(event, context?.awsRequestId ?? randomUUID());
      if (entry) {
        try {
          await recordAudit(entry, accessRequestOfEvent(event, entry));
        } catch (e) {
          log('recording the access request failed; the token is issued anyway', e);
        }
      }
    }
    let methods: readonly string[] = [];
    try {
      methods = await mfaMethodsOf(event.userPoolId, event.userName);
    } catch (e) {
      log('AdminGetUser failed; the ID token is issued without the MFA claim', e);
    }
    if (!methods.includes('SOFTWARE_TOKEN_MFA')) return event;
    const details = event.response.claimsOverrideDetails ?? {};
    event.response.claimsOverrideDetails = {
      ...details,
      claimsToAddOrOverride: { ...(details.claimsToAddOrOverride ?? {}), [MFA_CLAIM]: MFA_TOTP },
    };
    return event;
  };
}

let deployed: ReturnType<typeof createPreTokenGenerationHandler> | undefined;

/**
 * The access request writer of the deployed trigger: the request and its entry on `TABLE_NAME` in the function's
 * region (`accessRequestsRepository(…).raise`: PutItems only), loaded on first use (the data layer is only imported
 * when a user in no group signs in).
 */
function deployedRecordAudit(tableName: string, region: string): RecordAudit {
  return async (entry, request) => {
    const { createDocumentClient } = await import('../data/table/client.js');
    const { accessRequestsRepository } = await import('../data/access-requests.js');
    await accessRequestsRepository({ doc: createDocumentClient({ region }), tableName }).raise(request, entry);
  };
}

/** The staff-configured providers' tenants of the deployed trigger: GetItem `IDP#<provider>` on `TABLE_NAME` (data layer loaded on first use). */
function deployedTenantOfProvider(tableName: string, region: string): (provider: string) => Promise<string | null> {
  return async (provider) => {
    const { createDocumentClient } = await import('../data/table/client.js');
    const { tenantOfProvider } = await import('../data/identity-providers.js');
    return tenantOfProvider(provider, { doc: createDocumentClient({ region }), tableName });
  };
}

/**
 * The Lambda entry of the deployed user pool: its configuration (`preTokenTriggerConfigFromEnv`, lambdas/config.ts)
 * and client built on the first invocation, region of the function; access requests audited when the table is
 * set; federated users mapped when the providers file names providers or staff may configure them.
 */
export const handler = (event: PreTokenGenerationTriggerEvent, context?: Pick<Context, 'awsRequestId'>): Promise<PreTokenGenerationTriggerEvent> => {
  if (!deployed) {
    const config = preTokenTriggerConfigFromEnv(process.env);
    const client = new CognitoIdentityProviderClient({});
    const tenants = config.federatedTenants;
    const fromTable = config.federatedTenantsFromTable && config.tableName ? deployedTenantOfProvider(config.tableName, config.region) : undefined;
    const federation =
      Object.keys(tenants).length > 0 || fromTable ? { tenants, addUserToGroup: adminAddUserToGroup(client), ...(fromTable ? { tenantOfProvider: fromTable } : {}) } : undefined;
    deployed = createPreTokenGenerationHandler(adminGetUserMfa(client), undefined, config.tableName ? deployedRecordAudit(config.tableName, config.region) : undefined, federation);
  }
  return deployed(event, context);
};

/** The IAM action of `adminGetUserMfa` (granted on the stage's pool: infra/pre-token-trigger.ts). */
export const PRE_TOKEN_MFA_ACTIONS = ['cognito-idp:AdminGetUser'] as const;
/** The IAM action of `adminAddUserToGroup` (granted on stages with federated sign-in). */
export const PRE_TOKEN_FEDERATION_ACTIONS = ['cognito-idp:AdminAddUserToGroup'] as const;
/** Every Cognito action the trigger calls through the AWS SDK (evaluated by test/integration/aws-rules-walk.test.ts). */
export const PRE_TOKEN_COGNITO_ACTIONS = [...PRE_TOKEN_MFA_ACTIONS, ...PRE_TOKEN_FEDERATION_ACTIONS] as const;
