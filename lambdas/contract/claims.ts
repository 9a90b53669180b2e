/**
 * Claims this project adds to Cognito ID tokens, shared by the pre token generation trigger that adds them
 * (`lambdas/triggers/pre-token-generation.ts`) and the API that reads them (`lambdas/domain/identity.ts`).
 */

/** Claim of a user with TOTP set up as an MFA method (docs/api.md#staff-accounts-and-totp). */
export const MFA_CLAIM = 'vigia:mfa';
/** Value of {@link MFA_CLAIM} for a user with TOTP set up. */
export const MFA_TOTP = 'totp';
