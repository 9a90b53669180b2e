/**
 * Amplify v6 set-up for the portal: the `Auth.Cognito` resource config built from `/config.json`.
 */
import { Amplify } from 'aws-amplify';
import type { ResourcesConfig } from 'aws-amplify';
import { Hub } from 'aws-amplify/utils';
import type { PortalConfig } from './config';

/**
 * Builds Amplify's `ResourcesConfig` for the user pool (and the identity pool when configured).
 *
 * - `identityPoolId` is set only when non-empty (offline there is no identity-pool emulator).
 * - `userPoolEndpoint` is set only when present (offline: the local Cognito compatibility proxy;
 *   Amplify v6 `Auth.Cognito.userPoolEndpoint`).
 * - Sign-in with e-mail as username and code verification (docs/portal.md#identity).
 * - `loginWith.oauth` only when `config.oauth` is present (a stage with identity providers,
 *   docs/platform.md#federated-sign-in): authorization code flow (Amplify adds PKCE and checks `state`), the
 *   site root as the only redirect for sign-in and sign-out. Amplify then completes a redirect back to the
 *   portal by itself (only when the address has `code` or `error` and a flow it started is in flight) and
 *   sends `signOut()` of such a session through the hosted `/logout` endpoint.
 */
export function amplifyConfigFor(config: PortalConfig): ResourcesConfig {
  const cognito: Record<string, unknown> = {
    userPoolId: config.userPoolId,
    userPoolClientId: config.userPoolClientId,
    loginWith: { email: true },
    signUpVerificationMethod: 'code',
  };
  if (config.identityPoolId) cognito.identityPoolId = config.identityPoolId;
  if (config.userPoolEndpoint) cognito.userPoolEndpoint = config.userPoolEndpoint;
  if (config.oauth) {
    cognito.loginWith = {
      email: true,
      oauth: {
        domain: config.oauth.domain,
        scopes: config.oauth.scopes,
        redirectSignIn: [config.oauth.redirectSignIn],
        redirectSignOut: [config.oauth.redirectSignOut],
        responseType: 'code',
        providers: config.oauth.socialProviders,
      },
    };
  }
  // The StrictUnion of Amplify's Cognito config types can't be built incrementally; the object above
  // is one of its members (user pool, or user pool + identity pool).
  return { Auth: { Cognito: cognito } } as unknown as ResourcesConfig;
}

/**
 * Logs every failed hosted-UI redirect (`signInWithRedirect_failure`: refused at the provider, a `state` that is
 * not the one this browser sent, a refused code) as `[vigia] federated sign-in failed`; Amplify has already cleaned
 * the address (docs/portal.md#company-sign-in). Subscribed before `Amplify.configure`, because Amplify completes
 * (or fails) a redirect as soon as it is configured, before any React component listens.
 * @returns the unsubscribe function
 */
export function logRedirectFailures(): () => void {
  return Hub.listen('auth', ({ payload }) => {
    if (payload.event === 'signInWithRedirect_failure') console.error('[vigia] federated sign-in failed', payload.data);
  });
}

/** Configures the Amplify singleton from the portal configuration (call once, before rendering). */
export function configureAmplify(config: PortalConfig): void {
  if (config.oauth) logRedirectFailures();
  Amplify.configure(amplifyConfigFor(config));
}
