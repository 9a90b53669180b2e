/**
 * Amplify v6 set-up for the portal: the `Auth.Cognito` resource config built from `/config.json`.
 */
import { Amplify } from 'aws-amplify';
import type { ResourcesConfig } from 'aws-amplify';
import type { PortalConfig } from './config';

/**
 * Builds Amplify's `ResourcesConfig` for the user pool (and the identity pool when configured).
 *
 * - `identityPoolId` is set only when non-empty (offline there is no identity-pool emulator).
 * - `userPoolEndpoint` is set only when present (offline: the local Cognito compatibility proxy;
 *   Amplify v6 `Auth.Cognito.userPoolEndpoint`).
 * - Sign-in with e-mail as username and code verification (docs/portal.md#identity).
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
  // The StrictUnion of Amplify's Cognito config types can't be built incrementally; the object above
  // is one of its members (user pool, or user pool + identity pool).
  return { Auth: { Cognito: cognito } } as unknown as ResourcesConfig;
}

/** Configures the Amplify singleton from the portal configuration (call once, before rendering). */
export function configureAmplify(config: PortalConfig): void {
  Amplify.configure(amplifyConfigFor(config));
}
