/**
 * The sign-in gate's rules (docs/portal.md#sign-in, #sign-out, #bundles), with Amplify replaced by controllable
 * fakes (the session check `getCurrentUser`, the Hub's auth events, and an Authenticator that shows its
 * initial screen, or its signed-in content once its flow has ended): a sign-in made on the page opens `/`, a
 * restored session keeps its address, the form stays until the Authenticator's flow ends (Verify Contact), a
 * sign-out from a session begun on "Crear cuenta" returns to "Iniciar sesión", and the form is mounted while
 * the session is still being checked.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';

const amplify = vi.hoisted(() => ({
  /** The pending session check of the current test. */
  check: { resolve: (_v?: unknown) => {}, reject: (_e?: unknown) => {} },
  /** Whether the fake Authenticator's flow has ended (it then renders its signed-in content). */
  flowDone: false,
  listeners: [] as Array<(e: { payload: { event: string } }) => void>,
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
  Authenticator: ({ initialState, children }: { initialState: string; children: () => ReactNode }) =>
    amplify.flowDone ? <>{children()}</> : <p>authenticator:{initialState}</p>,
}));
vi.mock('./SignedInApp', () => ({ default: () => <p>signed in at {window.location.pathname}</p> }));

import { AuthGate } from './AuthGate';

const CONFIG = {
  region: 'eu-west-1',
  userPoolId: 'local_abc123',
  userPoolClientId: 'client123',
  identityPoolId: '',
  apiUrl: 'http://127.0.0.1:3001',
  stage: 'local',
  allowSignUp: true,
  brandName: 'Vigía',
};

/** Renders the gate; returns helpers that move the fakes and re-render. */
function renderGate() {
  const view = render(<AuthGate config={CONFIG} />);
  const rerender = () => view.rerender(<AuthGate config={CONFIG} />);
  return {
    checked: async (signedIn: boolean) => {
      await act(async () => (signedIn ? amplify.check.resolve({}) : amplify.check.reject(new Error('UserUnAuthenticatedException'))));
    },
    hub: (event: string) => act(() => amplify.listeners.forEach((l) => l({ payload: { event } }))),
    flow: (done: boolean) => {
      amplify.flowDone = done;
      act(rerender);
    },
  };
}

describe('sign-in gate', () => {
  beforeEach(() => {
    amplify.flowDone = false;
    amplify.listeners = [];
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
});
