/**
 * The user pool's attribute schema and the portal app client's write permissions: ONE source for the deployed
 * stack (infra/auth-stack.ts builds the client's `WriteAttributes` and the identity providers' attribute mappings
 * from it) and the local user pool (scripts/local/cognito/attributes.ts refuses what Cognito refuses from it).
 *
 * Kept free of the CDK library so that the local stack can import it.
 *
 * AWS: Amazon Cognito developer guide, "Working with user attributes"
 * (https://docs.aws.amazon.com/cognito/latest/developerguide/user-pool-settings-attributes.html): standard
 * attributes, custom attributes (`custom:` prefix), "Attribute permissions and scopes"; API reference,
 * UserPoolClientType `WriteAttributes`
 * (https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_UserPoolClientType.html).
 */

import { OIDC_ATTRIBUTE_MAPPING as STAFF_OIDC_ATTRIBUTE_MAPPING } from '../lambdas/domain/identity-providers.js';

/**
 * The standard attributes every Cognito user pool has (developer guide, "Working with user attributes" →
 * "Standard attributes", the OpenID Connect claims), plus the ones Cognito maintains: `sub` (immutable),
 * `email_verified`, `phone_number_verified` and `identities` (the federated identities of a user, written only by
 * Cognito at a federated sign-in or AdminLinkProviderForUser).
 */
export const STANDARD_ATTRIBUTES = [
  'address',
  'birthdate',
  'email',
  'email_verified',
  'family_name',
  'gender',
  'given_name',
  'identities',
  'locale',
  'middle_name',
  'name',
  'nickname',
  'phone_number',
  'phone_number_verified',
  'picture',
  'preferred_username',
  'profile',
  'sub',
  'updated_at',
  'website',
  'zoneinfo',
] as const;

/** A standard attribute's name. */
export type StandardAttributeName = (typeof STANDARD_ATTRIBUTES)[number];

/**
 * The pool's declared custom attributes, without the `custom:` prefix (infra/auth-stack.ts `customAttributes`).
 * None: the tenant is a group, never an attribute (README "Tenancy"), so `custom:tenant` and any other `custom:`
 * name is outside the schema and Cognito refuses it.
 */
export const USER_POOL_CUSTOM_ATTRIBUTES: readonly string[] = [];

/**
 * Attributes only Cognito itself writes: no app client may be granted them and no API call sets them
 * (`identities`: developer guide, "Working with user attributes" and "Linking federated users"; `sub`: the
 * immutable user id).
 */
export const COGNITO_MAINTAINED_ATTRIBUTES: readonly StandardAttributeName[] = ['identities', 'sub'];

/**
 * The portal app client's `WriteAttributes` (infra/auth-stack.ts `writeAttributes`): what a user may set on their
 * own profile through the public APIs (SignUp, UpdateUserAttributes). These are the standard attributes an app
 * client without an explicit list may write (API reference, UserPoolClientType `WriteAttributes`: "When you don't
 * specify the WriteAttributes for your app client, your app can write the values of the Standard attributes of
 * your user pool"), made explicit so that the local pool enforces the same list: never `email_verified` /
 * `phone_number_verified` (a user must prove the address with a code), never `identities` or `sub`. The list must
 * include every attribute an identity provider maps (`email`; see ATTRIBUTE_MAPPING in infra/federation-config.ts):
 * Cognito writes mapped attributes with the client's permissions (same page).
 */
export const PORTAL_CLIENT_WRITE_ATTRIBUTES: readonly StandardAttributeName[] = STANDARD_ATTRIBUTES.filter(
  (a) => a !== 'email_verified' && a !== 'phone_number_verified' && !COGNITO_MAINTAINED_ATTRIBUTES.includes(a),
);

/** The pool's schema: every standard attribute and each declared custom attribute (`custom:<name>`). */
export function userPoolSchemaAttributes(custom: readonly string[] = USER_POOL_CUSTOM_ATTRIBUTES): readonly string[] {
  return [...STANDARD_ATTRIBUTES, ...custom.map((c) => `custom:${c}`)];
}

/**
 * The attribute mapping of every OpenID Connect provider (infra/auth-stack.ts, and the local pool's providers):
 * user pool attribute → the provider's claim. Only `email`: a federated user gets the e-mail and nothing else from
 * the provider — in particular no `email_verified`, which Cognito sets only when it is mapped (developer guide,
 * "Specifying identity provider attribute mappings for your user pool",
 * https://docs.aws.amazon.com/cognito/latest/developerguide/cognito-user-pools-specifying-attribute-mapping.html).
 * The same mapping as the providers staff configure (lambdas/domain/identity-providers.ts), whence it comes.
 */
export const OIDC_ATTRIBUTE_MAPPING: Readonly<Record<string, string>> = STAFF_OIDC_ATTRIBUTE_MAPPING;
