/**
 * The sign-in gate's address rules (docs/portal.md#sign-in, #sign-out), with Amplify UI's state replaced
 * by a controllable fake: a sign-in made on the page opens `/`, a restored session keeps its address, and a
 * sign-out from a session begun on "Crear cuenta" returns to "Iniciar sesión".
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';

type AuthStatus = 'configuring' | 'authenticated' | 'unauthenticated';
const amplify = vi.hoisted(() => ({
  state: { authStatus: 'configuring' as AuthStatus, route: 'idle' },
  toSignIn: vi.fn(),
}));

vi.mock('@aws-amplify/ui-react', () => ({
  Authenticator: Object.assign(({ initialState }: { initialState: string }) => <p>authenticator:{initialState}</p>, {
    Provider: ({ children }: { children: React.ReactNode }) => <>{children}</>,
  }),
  useAuthenticator: () => ({ ...amplify.state, toSignIn: amplify.toSignIn }),
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

/** Renders the gate and returns `step(status, route)`, which moves Amplify's fake state and re-renders. */
function renderGate() {
  const view = render(<AuthGate config={CONFIG} />);
  return (authStatus: AuthStatus, route: string) => {
    amplify.state = { authStatus, route };
    act(() => view.rerender(<AuthGate config={CONFIG} />));
  };
}

describe('sign-in gate', () => {
  beforeEach(() => {
    amplify.state = { authStatus: 'configuring', route: 'idle' };
    amplify.toSignIn.mockReset();
  });

  it('opens / after a sign-in made on the sign-in page', async () => {
    window.history.replaceState(null, '', '/incidents/all');
    const step = renderGate();
    step('unauthenticated', 'signIn');
    expect(window.location.pathname).toBe('/page/login');
    step('authenticated', 'authenticated');
    expect(await screen.findByText('signed in at /')).toBeTruthy();
  });

  it('keeps the address of a session restored at start-up', async () => {
    window.history.replaceState(null, '', '/incidents/all');
    renderGate()('authenticated', 'authenticated');
    expect(await screen.findByText('signed in at /incidents/all')).toBeTruthy();
  });

  it('returns to "Iniciar sesión" after a sign-out from a session begun on /page/register', async () => {
    window.history.replaceState(null, '', '/page/register');
    const step = renderGate();
    step('unauthenticated', 'signUp');
    expect(screen.getByText('authenticator:signUp')).toBeTruthy();
    step('authenticated', 'authenticated');
    expect(amplify.toSignIn).not.toHaveBeenCalled();
    step('unauthenticated', 'signUp');
    expect(amplify.toSignIn).toHaveBeenCalledTimes(1);
    expect(window.location.pathname).toBe('/page/login');
    step('unauthenticated', 'signIn');
    step('unauthenticated', 'signUp'); // the user opens "Crear cuenta" again: allowed
    expect(amplify.toSignIn).toHaveBeenCalledTimes(1);
  });
  it('mounts the Authenticator while the session is still being checked (no loading screen first)', async () => {
    window.history.replaceState(null, '', '/page/login');
    const step = renderGate();
    // The Authenticator runs its own check at the same time (docs/portal.md#bundles): the form comes one check sooner.
    expect(screen.getByText('authenticator:signIn')).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();
    step('authenticated', 'authenticated');
    expect(await screen.findByText('signed in at /page/login')).toBeTruthy();
  });
});
