/**
 * Spanish messages for errors thrown by `aws-amplify/auth` on the account screens (profile, MFA, devices,
 * password change): the texts come from the one catalogue of Cognito errors, `shared/lib/cognito-errors.ts`
 * (code + English message → Spanish; docs/portal.md#identity-service-errors), read for the account screens'
 * operations (a wrong password on ChangePassword is "the current password is not correct").
 */
import { ACCOUNT_OPERATIONS, cognitoErrorText } from '../../shared/lib/cognito-errors';

/** The Spanish message for `err` (an Amplify `AuthError` or any thrown value); never empty. */
export function authErrorMessage(err: unknown): string {
  return cognitoErrorText(err, ACCOUNT_OPERATIONS);
}
