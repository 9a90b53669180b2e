/**
 * Federated sign-in on the sign-in page (docs/portal.md#company-sign-in): the Authenticator gets "Sign In with
 * {provider}" only for the social providers in `config.json`, the company button only when a customer identity
 * provider exists, and nothing of it without `oauth`; the company form hands the e-mail's domain to Amplify's
 * `signInWithRedirect` as `idpIdentifier`; a failed redirect is logged; Amplify's OAuth settings follow config.json.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';

const amplify = vi.hoisted(() => ({
  listeners: [] as Array<(e: { payload: { event: string; data?: unknown } }) => void>,
  redirects: [] as unknown[],
  props: null as null | { socialProviders?: string[]; components?: { SignIn?: { Header?: () => ReactNode } } },
}));

vi.mock('aws-amplify/auth', () => ({
  getCurrentUser: () => Promise.reject(new Error('UserUnAuthenticatedException')),
  signInWithRedirect: async (input: unknown) => void amplify.redirects.push(input),
}));
vi.mock('aws-amplify/utils', () => ({
  Hub: {
    listen: (_channel: string, cb: (e: { payload: { event: string } }) => void) => {
      amplify.listeners.push(cb);
      return () => (amplify.listeners = amplify.listeners.filter((l) => l !== cb));
    },
  },
  I18n: { get: (k: string) => k, putVocabulariesForLanguage: () => undefined },
}));
vi.mock('@aws-amplify/ui-react', () => ({
  Authenticator: (props: NonNullable<typeof amplify.props>) => {
    amplify.props = props;
    const Header = props.components?.SignIn?.Header;
    return <div>{Header ? <Header /> : null}<p>authenticator</p></div>;
  },
  Button: ({ children, onClick, type }: { children: ReactNode; onClick?: () => void; type?: 'submit' }) => <button type={type ?? 'button'} onClick={onClick}>{children}</button>,
  Flex: ({ children }: { children: ReactNode }) => <div>{children}</div>,
  TextField: ({ label, value, onChange, errorMessage }: { label: string; value: string; onChange: (e: { target: { value: string } }) => void; errorMessage?: string }) => (
    <label>
      {label}
      <input value={value} onChange={onChange} />
      {errorMessage ? <span role="alert">{errorMessage}</span> : null}
    </label>
  ),
}));
vi.mock('./SignedInApp', () => ({ default: () => <p>signed in</p> }));

import { AuthGate } from './AuthGate';
import { emailDomain } from './CompanySignIn';
import { amplifyConfigFor, logRedirectFailures } from '../shared/lib/amplify';
import type { PortalConfig } from '../shared/lib/config';

const BASE: PortalConfig = {
  region: 'eu-west-1',
  userPoolId: 'eu-west-1_abc',
  userPoolClientId: 'client123',
  identityPoolId: '',
  apiUrl: 'https://api.example/prod',
  stage: 'prod',
  allowSignUp: false,
  brandName: 'Vigía',
};
const OAUTH = {
  domain: 'vigia-prod.auth.eu-west-1.amazoncognito.com',
  scopes: ['openid', 'email', 'profile', 'aws.cognito.signin.user.admin'],
  redirectSignIn: 'https://portal.example/',
  redirectSignOut: 'https://portal.example/',
  socialProviders: ['Google' as const],
  enterprise: true,
};

describe('sign-in page with federated sign-in', () => {
  beforeEach(() => {
    amplify.listeners = [];
    amplify.redirects = [];
    amplify.props = null;
  });

  it('without oauth: no social buttons, no company button', async () => {
    render(<AuthGate config={BASE} />);
    await screen.findByText('authenticator');
    expect(amplify.props!.socialProviders).toBeUndefined();
    expect(amplify.props!.components?.SignIn).toBeUndefined();
    expect(screen.queryByText('Sign in with your company account')).toBeNull();
  });

  it('with social providers only: their buttons (Amplify UI names), no company button', async () => {
    render(<AuthGate config={{ ...BASE, oauth: { ...OAUTH, socialProviders: ['Google', 'Apple'], enterprise: false } }} />);
    await screen.findByText('authenticator');
    expect(amplify.props!.socialProviders).toEqual(['google', 'apple']);
    expect(amplify.props!.components?.SignIn).toBeUndefined();
  });

  it('company button → company e-mail → signInWithRedirect with the domain as idpIdentifier and the e-mail as login hint', async () => {
    render(<AuthGate config={{ ...BASE, oauth: OAUTH }} />);
    fireEvent.click(await screen.findByText('Sign in with your company account'));
    const input = screen.getByLabelText('Company e-mail');
    fireEvent.change(input, { target: { value: 'no-at-sign' } });
    fireEvent.click(screen.getByText('Continue with your company'));
    expect(screen.getByRole('alert').textContent).toBe('Enter the e-mail of your company account.');
    expect(amplify.redirects).toEqual([]);
    fireEvent.change(input, { target: { value: ' Carla@ACME.example ' } });
    await act(async () => fireEvent.click(screen.getByText('Continue with your company')));
    expect(amplify.redirects).toEqual([{ provider: { idpIdentifier: 'acme.example' }, options: { loginHint: 'Carla@ACME.example' } }]);
  });

  it('a failed redirect (signInWithRedirect_failure) is logged (from before the first render) and leaves the form', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    logRedirectFailures();
    render(<AuthGate config={{ ...BASE, oauth: OAUTH }} />);
    await screen.findByText('authenticator');
    act(() => amplify.listeners.forEach((l) => l({ payload: { event: 'signInWithRedirect_failure', data: { error: 'invalid_grant' } } })));
    expect(error).toHaveBeenCalledWith('[vigia] federated sign-in failed', { error: 'invalid_grant' });
    expect(screen.getByText('authenticator')).toBeTruthy();
    error.mockRestore();
  });
});

describe('company e-mail domain', () => {
  it('takes the lower-cased domain of local@domain.tld only', () => {
    expect(emailDomain('carla@acme.example')).toBe('acme.example');
    expect(emailDomain(' Carla@Sub.ACME.example ')).toBe('sub.acme.example');
    for (const bad of ['', 'carla', 'carla@', '@acme.example', 'carla@acme', 'a b@acme.example', 'a@b@c.example']) expect(emailDomain(bad), bad).toBeNull();
  });
});

describe('Amplify configuration', () => {
  it('adds loginWith.oauth (code flow, the site root for sign-in and sign-out, the social providers) only with oauth', () => {
    const plain = amplifyConfigFor(BASE) as { Auth: { Cognito: { loginWith: Record<string, unknown> } } };
    expect(plain.Auth.Cognito.loginWith).toEqual({ email: true });
    const fed = amplifyConfigFor({ ...BASE, oauth: OAUTH }) as { Auth: { Cognito: { loginWith: Record<string, unknown> } } };
    expect(fed.Auth.Cognito.loginWith).toEqual({
      email: true,
      oauth: {
        domain: OAUTH.domain,
        scopes: OAUTH.scopes,
        redirectSignIn: ['https://portal.example/'],
        redirectSignOut: ['https://portal.example/'],
        responseType: 'code',
        providers: ['Google'],
      },
    });
  });
});
