/**
 * Which user attributes a caller may write, as Cognito decides it and cognito-local does not (cognito-local stores
 * whatever SignUp and AdminCreateUser send, `identities` and unknown `custom:` attributes included;
 * docs/local-emulation.md#user-attributes). The schema and the app client's write permissions come from ONE
 * source, infra/user-pool-attributes.ts, which the deployed stack also builds the user pool and app client from.
 *
 * AWS: developer guide, "Working with user attributes"
 * (https://docs.aws.amazon.com/cognito/latest/developerguide/user-pool-settings-attributes.html), sections
 * "Custom attributes" and "Attribute permissions and scopes"; API reference, UserPoolClientType `WriteAttributes`
 * (https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_UserPoolClientType.html),
 * SignUp, AdminCreateUser, UpdateUserAttributes, AdminUpdateUserAttributes.
 */
import {
  COGNITO_MAINTAINED_ATTRIBUTES,
  PORTAL_CLIENT_WRITE_ATTRIBUTES,
  userPoolSchemaAttributes,
  type StandardAttributeName,
} from '../../../infra/user-pool-attributes.js';
import type { CognitoErrorShape } from './policy.js';

/**
 * Who writes: an app client through a public operation (SignUp; UpdateUserAttributes, whose access token names
 * the client), limited to the client's `WriteAttributes`; or an administrator through an IAM-authorised operation
 * (AdminCreateUser, AdminUpdateUserAttributes), not limited by any client.
 */
export type AttributeWriter = { kind: 'client'; writeAttributes: readonly string[] } | { kind: 'admin' };

/**
 * The write attributes of an app client: its `WriteAttributes`, or Cognito's default when the client has none
 * (API reference, UserPoolClientType `WriteAttributes`: the standard attributes — which excludes `email_verified`,
 * `phone_number_verified` and the attributes Cognito maintains; the same list as the portal client's, see
 * infra/user-pool-attributes.ts).
 */
export function clientWriteAttributes(client: { WriteAttributes?: readonly string[] | undefined }): readonly string[] {
  return client.WriteAttributes ?? PORTAL_CLIENT_WRITE_ATTRIBUTES;
}

/** NotAuthorizedException of a public operation writing an attribute outside the client's WriteAttributes. */
export const UNAUTHORIZED_ATTRIBUTE: CognitoErrorShape = {
  type: 'NotAuthorizedException',
  // Cognito's message, as its clients report it (e.g. aws/aws-sdk-js#1319, aws-amplify/amplify-js#5345); the
  // developer guide describes the permission ("Attribute permissions and scopes"), not the message.
  message: 'A client attempted to write unauthorized attribute',
};

/**
 * Checks the attributes of a SignUp, AdminCreateUser, UpdateUserAttributes or AdminUpdateUserAttributes request,
 * in Cognito's order: first that every name is in the pool's schema, then that the caller may write it.
 *
 *  - A name outside the schema (an undeclared `custom:` attribute, or no attribute at all) is InvalidParameterException
 *    "Attributes did not conform to the schema: Type for attribute {<name>} could not be determined" (developer
 *    guide, "Custom attributes": custom attributes exist only once added to the pool; the message is the service's
 *    as clients report it, not documented by AWS).
 *  - A client (public operation) writing an attribute outside its WriteAttributes — `email_verified`,
 *    `phone_number_verified`, `identities`, `sub` for the portal — is NotAuthorizedException "A client attempted to
 *    write unauthorized attribute" (developer guide, "Attribute permissions and scopes").
 *  - An administrator may set `email_verified` (API reference, AdminCreateUser and AdminUpdateUserAttributes), but
 *    not an attribute Cognito maintains (`identities`, set only by a federated sign-in or AdminLinkProviderForUser;
 *    `sub`): InvalidParameterException. AWS documents that these attributes are Cognito's, not the code or message
 *    of this refusal; the local message names the attribute.
 * @param attributes the request's `UserAttributes` (`[{ Name, Value }]`); anything else is left to cognito-local
 * @param schema the pool's attribute names (default: infra/user-pool-attributes.ts)
 * @returns null when every attribute may be written; otherwise the error Cognito answers
 */
export function checkAttributeWrite(
  attributes: unknown,
  writer: AttributeWriter,
  schema: readonly string[] = userPoolSchemaAttributes(),
): CognitoErrorShape | null {
  if (!Array.isArray(attributes)) return null;
  const names = attributes.map((a) => (a && typeof a === 'object' ? (a as { Name?: unknown }).Name : undefined)).filter((n): n is string => typeof n === 'string');
  for (const name of names) {
    if (!schema.includes(name)) {
      return { type: 'InvalidParameterException', message: `Attributes did not conform to the schema: Type for attribute {${name}} could not be determined` };
    }
  }
  for (const name of names) {
    if (writer.kind === 'client') {
      if (!writer.writeAttributes.includes(name)) return UNAUTHORIZED_ATTRIBUTE;
    } else if (COGNITO_MAINTAINED_ATTRIBUTES.includes(name as StandardAttributeName)) {
      return { type: 'InvalidParameterException', message: `Cannot write the attribute ${name}: Amazon Cognito maintains it.` };
    }
  }
  return null;
}
