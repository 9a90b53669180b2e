/**
 * The ID token of a sign-in the user pool has just answered, for the short time before Amplify stores the
 * session (docs/portal.md#sign-in-to-dashboard).
 *
 * Amplify (6.x, `signInWithSRP`) gets the tokens in `RespondToAuthChallenge`'s answer, then computes a device
 * verifier (~120 ms of CPU), calls `ConfirmDevice` (whose failure it ignores), stores the tokens, fires the
 * Hub's `signedIn`, and the Authenticator reads the user (`GetUser`) before its flow ends. When the token says
 * that flow can only end signed in (`opensPortalAtOnce`), the gate opens the portal at once and the portal's
 * requests use this token until Amplify's session has one (`currentIdToken` in `api.ts`, `SessionProvider`).
 *
 * The token is the user pool's own answer, held in memory only (never stored), and the API verifies it as any
 * other (API Gateway's user-pool authorizer). It is dropped on `signedIn` (the session has it then), on
 * `signedOut`, and once expired (`exp`).
 */
import { parseGroups } from './session-claims';

/** The ID token of a sign-in not yet stored by Amplify, with its claims; null when none. */
let pending: { token: string; claims: Record<string, unknown> } | null = null;

/** The payload (claims) of a JWT, not verified (the API verifies the token); null when it is not a JWT. */
export function jwtClaims(token: string): Record<string, unknown> | null {
  try {
    const part = token.split('.')[1];
    if (!part) return null;
    const b64 = part.replace(/-/g, '+').replace(/_/g, '/');
    const bytes = Uint8Array.from(atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4)), (c) => c.charCodeAt(0));
    const claims: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return claims && typeof claims === 'object' ? (claims as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * Whether a sign-in answered with these claims ends signed in with no further screen, so the portal may open
 * before Amplify's flow has ended: the e-mail is verified (`email_verified`, else Amplify UI shows its contact
 * check) and the user is in a group (else the portal's guard signs them out: the waiting page).
 */
export function opensPortalAtOnce(claims: Record<string, unknown> | null): boolean {
  if (!claims || typeof claims.sub !== 'string') return false;
  const verified = claims.email_verified === true || claims.email_verified === 'true';
  return verified && parseGroups(claims['cognito:groups']).length > 0;
}

/** Holds `token` (a JWT) as the pending sign-in's; returns its claims (null, and nothing held, when not a JWT). */
export function setPendingIdToken(token: string): Record<string, unknown> | null {
  const claims = jwtClaims(token);
  pending = claims ? { token, claims } : null;
  return claims;
}

/** Drops the pending token (Amplify's session has it now, or the user signed out). */
export function clearPendingIdToken(): void {
  pending = null;
}

/** The pending sign-in's ID token and claims while not expired (`exp`, seconds since the epoch), else null. */
export function pendingSignIn(nowMs: number = Date.now()): { token: string; claims: Record<string, unknown> } | null {
  if (!pending) return null;
  const exp = pending.claims.exp;
  if (typeof exp === 'number' && exp * 1000 <= nowMs) {
    pending = null;
    return null;
  }
  return pending;
}
