/**
 * The signed-in user as the portal sees it, read from the verified ID token's claims (docs/portal.md#identity).
 */
import { createContext, useContext, useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import { fetchAuthSession, signOut } from 'aws-amplify/auth';
import { parseGroups } from './session-claims';
import { pendingSignIn } from './pending-sign-in';

export { parseGroups };

export interface SessionUser {
  /** `email` claim; '' when absent. */
  email: string;
  /** `cognito:groups` claim (group names: `admin` and tenant ids). */
  groups: string[];
}

export type SessionState =
  | { status: 'loading' }
  | { status: 'ready'; user: SessionUser }
  | { status: 'error'; error: unknown };

/** Reads the user from ID-token claims (`email`, `cognito:groups`). */
export function userFromClaims(claims: Record<string, unknown> | undefined): SessionUser {
  const email = typeof claims?.email === 'string' ? claims.email : '';
  return { email, groups: parseGroups(claims?.['cognito:groups']) };
}

const SessionContext = createContext<SessionState>({ status: 'loading' });

/** The session of a sign-in the gate opened the portal for before Amplify stored it (`pending-sign-in.ts`), or null. */
function pendingSession(): SessionState | null {
  const pending = pendingSignIn();
  return pending ? { status: 'ready', user: userFromClaims(pending.claims) } : null;
}

/**
 * Loads the session once (`fetchAuthSession()`); `value` overrides it (tests). A portal opened on a sign-in's
 * held token (`pending-sign-in.ts`, docs/portal.md#sign-in-to-dashboard) starts ready with that token's user:
 * until Amplify stores the tokens, `fetchAuthSession()` would answer that same user from the held token, one
 * asynchronous step and one render later, on the path from the submit to the dashboard's figures.
 */
export function SessionProvider({ children, value }: { children: ReactNode; value?: SessionState }) {
  const [held] = useState(pendingSession);
  const [state, setState] = useState<SessionState>(() => value ?? held ?? { status: 'loading' });
  useEffect(() => {
    if (value || held) return;
    let live = true;
    fetchAuthSession()
      .then((s) => {
        // Before Amplify has stored a sign-in the gate opened the portal for, its token's claims (pending-sign-in.ts).
        const claims = (s.tokens?.idToken?.payload as Record<string, unknown> | undefined) ?? pendingSignIn()?.claims;
        if (!claims) throw new Error('no ID token in the session');
        if (live) setState({ status: 'ready', user: userFromClaims(claims) });
      })
      .catch((error: unknown) => live && setState({ status: 'error', error }));
    return () => {
      live = false;
    };
  }, [value, held]);
  return <SessionContext.Provider value={value ?? state}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  return useContext(SessionContext);
}

/**
 * Signs the user out of every device (`signOut({ global: true })`, which revokes the refresh token);
 * falls back to a local sign-out when the global call fails (e.g. offline). The sign-in gate then
 * shows `/page/login`.
 */
export async function signOutEverywhere(): Promise<void> {
  try {
    await signOut({ global: true });
  } catch (err) {
    console.error('[vigia] global sign-out failed; signing out locally', err);
    await signOut();
  }
}
