/**
 * `IdentityProviderAdminPort` over the Cognito user pool API (`awsJson11` in `aws-lite.ts`, as
 * `cognito-users.ts`): a tenant's enterprise provider and the portal app client's provider list.
 *
 * The app client: `UpdateUserPoolClient` resets every setting the request leaves out to its default — "If you
 * don't provide a value for an attribute, Amazon Cognito sets it to its default value" (Amazon Cognito API
 * Reference, UpdateUserPoolClient; developer guide, "Updating user pool and app client configuration",
 * https://docs.aws.amazon.com/cognito/latest/developerguide/cognito-user-pool-updating.html). So every change reads
 * the client with `DescribeUserPoolClient` first and sends ALL its updatable settings back
 * ({@link UPDATABLE_CLIENT_SETTINGS}), with only `SupportedIdentityProviders` changed.
 *
 * IAM actions (granted on this pool only, infra/api-stack.ts): {@link COGNITO_IDP_ADMIN_ACTIONS}.
 * Errors reject with `name` = the Cognito error code (e.g. `InvalidParameterException`, `DuplicateProviderException`).
 */
import type { CognitoProviderSpec, IdentityProviderAdminPort } from '../domain/identity-providers.js';
import { type AwsCredentials, type JsonObject as Json, awsJson11 } from './table/aws-lite.js';
import { cognitoIdp } from './cognito-users.js';

/** The IAM actions this module calls. */
export const COGNITO_IDP_ADMIN_ACTIONS = [
  'cognito-idp:DescribeIdentityProvider',
  'cognito-idp:CreateIdentityProvider',
  'cognito-idp:UpdateIdentityProvider',
  'cognito-idp:DeleteIdentityProvider',
  'cognito-idp:GetIdentityProviderByIdentifier',
  'cognito-idp:DescribeUserPoolClient',
  'cognito-idp:UpdateUserPoolClient',
] as const;

/** The settings `UpdateUserPoolClient` takes (API reference, request syntax), copied from `DescribeUserPoolClient`. */
export const UPDATABLE_CLIENT_SETTINGS = [
  'ClientName',
  'RefreshTokenValidity',
  'AccessTokenValidity',
  'IdTokenValidity',
  'TokenValidityUnits',
  'ReadAttributes',
  'WriteAttributes',
  'ExplicitAuthFlows',
  'SupportedIdentityProviders',
  'CallbackURLs',
  'LogoutURLs',
  'DefaultRedirectURI',
  'AllowedOAuthFlows',
  'AllowedOAuthScopes',
  'AllowedOAuthFlowsUserPoolClient',
  'AnalyticsConfiguration',
  'PreventUserExistenceErrors',
  'EnableTokenRevocation',
  'EnablePropagateAdditionalUserContextData',
  'AuthSessionValidity',
  'RefreshTokenRotation',
] as const;

export interface CognitoIdentityProvidersOptions {
  userPoolId: string;
  /** The portal's app client. */
  clientId: string;
  region: string;
  endpoint?: string | undefined;
  credentials?: AwsCredentials | undefined;
}

/** The `UpdateUserPoolClient` request that changes only `SupportedIdentityProviders` of `described` (a `UserPoolClient`). */
export function clientUpdateOf(described: Json, providers: readonly string[]): Json {
  const out: Json = { UserPoolId: described.UserPoolId, ClientId: described.ClientId };
  for (const k of UPDATABLE_CLIENT_SETTINGS) if (described[k] !== undefined && described[k] !== null) out[k] = described[k];
  out.SupportedIdentityProviders = [...providers];
  return out;
}

/** The port on one pool and app client (see module doc). */
export function cognitoIdentityProviders(opts: CognitoIdentityProvidersOptions): IdentityProviderAdminPort {
  const call = awsJson11({ ...cognitoIdp(opts), common: { UserPoolId: opts.userPoolId } });
  const notFound = (e: unknown) => (e as Error).name === 'ResourceNotFoundException';
  const request = (s: CognitoProviderSpec): Json => ({
    ProviderName: s.name,
    ProviderDetails: s.details,
    AttributeMapping: s.attributeMapping,
    IdpIdentifiers: s.identifiers,
  });
  const describeClient = async (): Promise<Json> => ((await call('DescribeUserPoolClient', { ClientId: opts.clientId })).UserPoolClient ?? {}) as Json;
  return {
    async describe(name) {
      try {
        const p = ((await call('DescribeIdentityProvider', { ProviderName: name })).IdentityProvider ?? {}) as Json;
        const details = { ...((p.ProviderDetails ?? {}) as Record<string, string>) };
        // Cognito adds discovered endpoints to an OIDC provider's details; they are derived, not settings.
        for (const k of ['authorize_url', 'token_url', 'attributes_url', 'jwks_uri', 'attributes_url_add_attributes']) delete details[k];
        return {
          name,
          type: p.ProviderType === 'SAML' ? 'SAML' : 'OIDC',
          details,
          attributeMapping: { ...((p.AttributeMapping ?? {}) as Record<string, string>) },
          identifiers: [...((p.IdpIdentifiers ?? []) as string[])],
        };
      } catch (e) {
        if (notFound(e)) return null;
        throw e;
      }
    },
    async create(s) {
      await call('CreateIdentityProvider', { ...request(s), ProviderType: s.type });
    },
    async update(s) {
      await call('UpdateIdentityProvider', request(s));
    },
    async delete(name) {
      try {
        await call('DeleteIdentityProvider', { ProviderName: name });
      } catch (e) {
        if (!notFound(e)) throw e;
      }
    },
    async providerOfIdentifier(identifier) {
      try {
        const p = ((await call('GetIdentityProviderByIdentifier', { IdpIdentifier: identifier })).IdentityProvider ?? {}) as Json;
        return typeof p.ProviderName === 'string' ? p.ProviderName : null;
      } catch (e) {
        if (notFound(e)) return null;
        throw e;
      }
    },
    async clientProviders() {
      return [...(((await describeClient()).SupportedIdentityProviders ?? []) as string[])];
    },
    async updateClientProviders(change) {
      const described = await describeClient();
      const next = change([...((described.SupportedIdentityProviders ?? []) as string[])]);
      await call('UpdateUserPoolClient', clientUpdateOf({ ...described, UserPoolId: opts.userPoolId, ClientId: opts.clientId }, next));
    },
  };
}
