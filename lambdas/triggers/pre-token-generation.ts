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
 */
import { AdminGetUserCommand, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import type { PreTokenGenerationTriggerEvent } from 'aws-lambda';
import { MFA_CLAIM, MFA_TOTP } from '../contract/claims.js';

export { MFA_CLAIM, MFA_TOTP } from '../contract/claims.js';

/** The one Cognito call the trigger makes: `AdminGetUser`'s MFA methods of a user (e.g. `['SOFTWARE_TOKEN_MFA']`). */
export type MfaMethodsOf = (userPoolId: string, username: string) => Promise<readonly string[]>;

/** `AdminGetUser` with an AWS SDK v3 client. */
export function adminGetUserMfa(client: Pick<CognitoIdentityProviderClient, 'send'>): MfaMethodsOf {
  return async (userPoolId, username) => {
    const user = await client.send(new AdminGetUserCommand({ UserPoolId: userPoolId, Username: username }));
    return user.UserMFASettingList ?? [];
  };
}

/**
 * The trigger for a given `mfaMethodsOf` (the deployed trigger's: AdminGetUser on the event's pool).
 * Returns the event with `response.claimsOverrideDetails.claimsToAddOrOverride[vigia:mfa] = 'totp'` when
 * TOTP is among the user's MFA methods; otherwise the event unchanged.
 */
export function createPreTokenGenerationHandler(
  mfaMethodsOf: MfaMethodsOf,
  log: (message: string, error: unknown) => void = (m, e) => console.error(m, e),
): (event: PreTokenGenerationTriggerEvent) => Promise<PreTokenGenerationTriggerEvent> {
  return async (event) => {
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

let deployed: ((event: PreTokenGenerationTriggerEvent) => Promise<PreTokenGenerationTriggerEvent>) | undefined;

/** The Lambda entry of the deployed user pool (client built on the first invocation, region of the function). */
export const handler = (event: PreTokenGenerationTriggerEvent): Promise<PreTokenGenerationTriggerEvent> =>
  (deployed ??= createPreTokenGenerationHandler(adminGetUserMfa(new CognitoIdentityProviderClient({}))))(event);
