/**
 * `SessionProvider`: a portal opened on a sign-in's held token (`pending-sign-in.ts`) starts ready with that
 * token's user in its first render, without waiting for Amplify (docs/portal.md#sign-in-to-dashboard);
 * otherwise the session is read from Amplify.
 */
import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

const fetchAuthSession = vi.fn();
vi.mock('aws-amplify/auth', () => ({ fetchAuthSession: () => fetchAuthSession(), signOut: vi.fn() }));

const { SessionProvider, useSession } = await import('./session');
const { clearPendingIdToken, setPendingIdToken } = await import('./pending-sign-in');

const jwt = (claims: Record<string, unknown>) => `e30.${btoa(JSON.stringify(claims)).replace(/=+$/, '')}.sig`;

/** Renders the session's state; `renders` gets one entry per render. */
function Probe({ renders }: { renders: string[] }) {
  const s = useSession();
  const text = s.status === 'ready' ? `ready ${s.user.email} ${s.user.groups.join(',')}` : s.status;
  renders.push(text);
  return <p>{text}</p>;
}

afterEach(() => {
  clearPendingIdToken();
  fetchAuthSession.mockReset();
});

describe('SessionProvider', () => {
  it("is ready in its first render with the held sign-in token's user, and does not ask Amplify", () => {
    setPendingIdToken(jwt({ sub: 'u-ana', email: 'ana@acme.example', email_verified: true, 'cognito:groups': ['acme'], exp: 4_000_000_000 }));
    const renders: string[] = [];
    render(
      <SessionProvider>
        <Probe renders={renders} />
      </SessionProvider>,
    );
    expect(renders[0]).toBe('ready ana@acme.example acme');
    expect(fetchAuthSession).not.toHaveBeenCalled();
  });

  it("otherwise loads the session from Amplify's stored tokens", async () => {
    fetchAuthSession.mockResolvedValue({ tokens: { idToken: { payload: { email: 'luis@vigia.example', 'cognito:groups': ['admin'] } } } });
    const renders: string[] = [];
    render(
      <SessionProvider>
        <Probe renders={renders} />
      </SessionProvider>,
    );
    expect(renders[0]).toBe('loading');
    expect(await screen.findByText('ready luis@vigia.example admin')).toBeTruthy();
    expect(fetchAuthSession).toHaveBeenCalledTimes(1);
  });
});
