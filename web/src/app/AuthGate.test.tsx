/**
 * The sign-in gate's rules (docs/portal.md#sign-in, #sign-out, #bundles), with Amplify replaced by controllable
 * fakes (the session check `getCurrentUser`, the Hub's auth events, and an Authenticator that shows its
 * initial screen, or its signed-in content once its flow has ended): a sign-in made on the page opens `/`, a
 * restored session keeps its address, the form stays until the Authenticator's flow ends (Verify Contact), a
 * sign-out from a session begun on "Crear cuenta" returns to "Iniciar sesión", and the form is mounted while
 * the session is still being checked.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { useEffect, useSyncExternalStore } from 'react';
import type { ReactNode } from 'react';

const amplify = vi.hoisted(() => ({
  /** The pending session check of the current test. */
  check: { resolve: (_v?: unknown) => {}, reject: (_e?: unknown) => {} },
  /** Whether the fake Authenticator's flow has ended (it then renders its signed-in content). */
  flowDone: false,
  /** The fake Authenticator's renders waiting for its flow to move (the real one follows its own state machine, not its parent's renders). */
  flowWatchers: new Set<() => void>(),
  listeners: [] as Array<(e: { payload: { event: string } }) => void>,
  tokenListener: null as null | ((idToken: string) => unknown),
  portalMounts: 0,
}));

vi.mock('aws-amplify/auth', () => ({
  getCurrentUser: () =>
    new Promise((resolve, reject) => {
      amplify.check = { resolve, reject };
    }),
}));
vi.mock('aws-amplify/utils', () => ({
  Hub: {
    listen: (_channel: string, cb: (e: { payload: { event: string } }) => void) => {
      amplify.listeners.push(cb);
      return () => (amplify.listeners = amplify.listeners.filter((l) => l !== cb));
    },
  },
  I18n: { get: (k: string) => k },
}));
vi.mock('@aws-amplify/ui-react', () => ({
  Authenticator: function FakeAuthenticator({ initialState, children }: { initialState: string; children: () => ReactNode }) {
    const done = useSyncExternalStore(
      (changed) => {
        amplify.flowWatchers.add(changed);
        return () => amplify.flowWatchers.delete(changed);
      },
      () => amplify.flowDone,
    );
    return done ? <>{children()}</> : <p>authenticator:{initialState}</p>;
  },
}));
vi.mock('./SignedInApp', () => ({
  default: function FakePortal() {
    // Counts mounts: the portal opened early must not be mounted again when the form's flow ends.
    useEffect(() => {
      amplify.portalMounts += 1;
    }, []);
    return <p>signed in at {window.location.pathname}</p>;
  },
}));
// The user pool's answer to a sign-in (sign-in-tokens.ts): the test hands the gate an ID token itself.
vi.mock('./sign-in-tokens', () => ({
  watchSignInTokens: (listener: (idToken: string) => unknown) => {
    amplify.tokenListener = listener;
    return () => undefined;
  },
}));
vi.mock('./prefetch-signed-in', () => ({ prefetchWithIdToken: () => Promise.resolve(), prefetchAfterSignIn: () => Promise.resolve() }));

import { AuthGate } from './AuthGate';
import { pendingSignIn } from '../shared/lib/pending-sign-in';
import { markFirstScreenShown } from '../shared/lib/first-screen';
import { TEST_CONFIG } from '../shared/lib/test-utils';

/** An unsigned JWT with these claims (the gate reads claims; the API verifies signatures). */
const jwt = (claims: Record<string, unknown>) => `e30.${btoa(JSON.stringify(claims)).replace(/=+$/, '')}.sig`;
const CUSTOMER_TOKEN = jwt({ sub: 'u-ana', email: 'ana@acme.test', email_verified: true, 'cognito:groups': ['acme'], exp: 4102444800 });

const CONFIG = TEST_CONFIG;

/** Renders the gate; returns helpers that move the fakes and re-render. */
function renderGate() {
  const view = render(<AuthGate config={CONFIG} />);
  const rerender = () => view.rerender(<AuthGate config={CONFIG} />);
  return {
    checked: async (signedIn: boolean) => {
      await act(async () => (signedIn ? amplify.check.resolve({}) : amplify.check.reject(new Error('UserUnAuthenticatedException'))));
    },
    hub: (event: string) => act(() => amplify.listeners.forEach((l) => l({ payload: { event } }))),
    /** The user pool answers the sign-in with `idToken` (before Amplify stores it and fires `signedIn`). */
    answered: (idToken: string) => act(() => void amplify.tokenListener?.(idToken)),
    flow: (done: boolean) => {
      amplify.flowDone = done;
      act(() => {
        amplify.flowWatchers.forEach((changed) => changed());
        rerender();
      });
    },
  };
}

describe('sign-in gate', () => {
  beforeEach(() => {
    amplify.flowDone = false;
    amplify.listeners = [];
    amplify.portalMounts = 0;
  });

  it('opens / after a sign-in made on the sign-in page', async () => {
    window.history.replaceState(null, '', '/incidents/all');
    const gate = renderGate();
    await gate.checked(false);
    expect(window.location.pathname).toBe('/page/login');
    gate.hub('signedIn');
    gate.flow(true);
    expect(await screen.findByText('signed in at /')).toBeTruthy();
  });

  it('keeps the address of a session restored at start-up', async () => {
    window.history.replaceState(null, '', '/incidents/all');
    await renderGate().checked(true);
    expect(await screen.findByText('signed in at /incidents/all')).toBeTruthy();
  });

  it('keeps the form after the sign-in until the Authenticator flow ends (Verify Contact)', async () => {
    window.history.replaceState(null, '', '/page/login');
    const gate = renderGate();
    await gate.checked(false);
    gate.hub('signedIn'); // tokens stored; the Authenticator still shows its contact check
    expect(screen.getByText('authenticator:signIn')).toBeTruthy();
    expect(screen.queryByText(/signed in at/)).toBeNull();
    gate.flow(true);
    expect(await screen.findByText('signed in at /')).toBeTruthy();
  });

  it('returns to "Iniciar sesión" after a sign-out from a session begun on /page/register', async () => {
    window.history.replaceState(null, '', '/page/register');
    const gate = renderGate();
    await gate.checked(false);
    expect(screen.getByText('authenticator:signUp')).toBeTruthy();
    gate.hub('signedIn');
    gate.flow(true);
    expect(await screen.findByText('signed in at /')).toBeTruthy();
    window.history.replaceState(null, '', '/page/logout');
    amplify.flowDone = false;
    gate.hub('signedOut');
    expect(screen.getByText('authenticator:signIn')).toBeTruthy();
    expect(window.location.pathname).toBe('/page/login');
  });

  it('mounts the Authenticator while the session is still being checked (no loading screen first)', async () => {
    window.history.replaceState(null, '', '/page/login');
    const gate = renderGate();
    // The Authenticator runs its own check at the same time (docs/portal.md#bundles): the form comes one check sooner.
    expect(screen.getByText('authenticator:signIn')).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();
    await gate.checked(true);
    expect(await screen.findByText('signed in at /page/login')).toBeTruthy();
  });

  it("opens the portal on the user pool's answer when the flow can only end signed in, and keeps it when the flow ends", async () => {
    window.history.replaceState(null, '', '/page/login');
    const gate = renderGate();
    await gate.checked(false);
    gate.answered(CUSTOMER_TOKEN);
    // Before Amplify stored the session: the portal is shown, on the pending token; the form's flow goes on hidden.
    expect(await screen.findByText('signed in at /')).toBeTruthy();
    expect(pendingSignIn()?.claims.sub).toBe('u-ana');
    const form = screen.getByText('authenticator:signIn');
    expect(form.closest<HTMLElement>('.signin-page')?.style.display).toBe('none');
    // The user moves on before the flow ends: its end neither remounts the portal nor takes them back to `/`.
    window.history.pushState(null, '', '/incidents/all');
    gate.hub('signedIn');
    expect(pendingSignIn()).toBeNull(); // Amplify's session has the token now
    gate.flow(true);
    expect(screen.queryByText('authenticator:signIn')).toBeNull();
    expect(window.location.pathname).toBe('/incidents/all');
    expect(amplify.portalMounts).toBe(1);
  });

  it("holds Amplify's copy of the answer until the first screen's data is on the screen", async () => {
    window.history.replaceState(null, '', '/page/login');
    const gate = renderGate();
    await gate.checked(false);
    let hold: unknown;
    act(() => {
      hold = amplify.tokenListener?.(CUSTOMER_TOKEN);
    });
    expect(hold).toBeInstanceOf(Promise);
    let released = false;
    void (hold as Promise<unknown>).then(() => (released = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(released).toBe(false);
    markFirstScreenShown(); // the dashboard's figures are committed
    await vi.waitFor(() => expect(released).toBe(true));
  });

  it('waits for the flow when the token does not say it ends signed in (unverified e-mail, no group)', async () => {
    for (const claims of [
      { sub: 'u-1', email_verified: false, 'cognito:groups': ['acme'] },
      { sub: 'u-2', email_verified: true },
    ]) {
      window.history.replaceState(null, '', '/page/login');
      amplify.flowDone = false;
      const gate = renderGate();
      await gate.checked(false);
      gate.answered(jwt(claims));
      expect(screen.getByText('authenticator:signIn')).toBeTruthy();
      expect(screen.queryByText(/signed in at/)).toBeNull();
      expect(pendingSignIn()).toBeNull();
      cleanup();
    }
  });

  it('closes the early portal on a sign-out before the flow has ended', async () => {
    window.history.replaceState(null, '', '/page/login');
    const gate = renderGate();
    await gate.checked(false);
    gate.answered(CUSTOMER_TOKEN);
    expect(await screen.findByText('signed in at /')).toBeTruthy();
    gate.hub('signedOut');
    expect(screen.queryByText(/signed in at/)).toBeNull();
    expect(pendingSignIn()).toBeNull();
    expect(screen.getByText('authenticator:signIn').closest<HTMLElement>('.signin-page')?.style.display).toBe('');
    expect(window.location.pathname).toBe('/page/login');
  });
});
