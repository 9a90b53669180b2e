/**
 * The pending sign-in's token (`pending-sign-in.ts`): which answers open the portal at once, and the token held
 * only until it expires or is dropped.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { clearPendingIdToken, opensPortalAtOnce, pendingSignIn, setPendingIdToken } from './pending-sign-in';

const jwt = (claims: Record<string, unknown>) => `e30.${btoa(JSON.stringify(claims)).replace(/=+$/, '')}.sig`;

describe('pending sign-in', () => {
  afterEach(clearPendingIdToken);

  it('opens the portal at once only for a verified e-mail in a group', () => {
    expect(opensPortalAtOnce({ sub: 'u', email_verified: true, 'cognito:groups': ['acme'] })).toBe(true);
    // API Gateway and some pools spell booleans and groups as strings.
    expect(opensPortalAtOnce({ sub: 'u', email_verified: 'true', 'cognito:groups': '[admin]' })).toBe(true);
    expect(opensPortalAtOnce({ sub: 'u', email_verified: false, 'cognito:groups': ['acme'] })).toBe(false); // Amplify UI's contact check comes first
    expect(opensPortalAtOnce({ sub: 'u', 'cognito:groups': ['acme'] })).toBe(false);
    expect(opensPortalAtOnce({ sub: 'u', email_verified: true, 'cognito:groups': [] })).toBe(false); // the waiting page
    expect(opensPortalAtOnce({ email_verified: true, 'cognito:groups': ['acme'] })).toBe(false);
    expect(opensPortalAtOnce(null)).toBe(false);
  });

  it('holds a token until it expires or is dropped; nothing for what is not a JWT', () => {
    const token = jwt({ sub: 'u', exp: 2_000_000_000 });
    expect(setPendingIdToken(token)).toEqual({ sub: 'u', exp: 2_000_000_000 });
    expect(pendingSignIn(1_999_999_999_000)?.token).toBe(token);
    expect(pendingSignIn(2_000_000_000_000)).toBeNull(); // expired: dropped for good
    expect(pendingSignIn(0)).toBeNull();
    setPendingIdToken(token);
    clearPendingIdToken();
    expect(pendingSignIn(0)).toBeNull();
    expect(setPendingIdToken('not a token')).toBeNull();
    expect(pendingSignIn(0)).toBeNull();
  });
});
