/**
 * Shape of the portal's `/config.json`.
 *
 * Produced from stack outputs by the PortalDeployment stack in AWS (`BucketDeployment` + `Source.jsonData`)
 * and by the local stack (`scripts/local/stack.ts`) offline; validated by the portal at start-up (a missing or invalid file shows
 * 'Configuration error (see console) – please contact the administrator'; `web/src/app/bootstrap.tsx`).
 */
import * as z from 'zod';

/** Social providers by Amplify's names (`signInWithRedirect({ provider })`, the Authenticator's "Sign In with {provider}"). */
export const SocialProvider = z.enum(['Amazon', 'Apple', 'Facebook', 'Google']);
export type SocialProvider = z.infer<typeof SocialProvider>;

/**
 * Federated sign-in of a stage (docs/platform.md#federated-sign-in); absent = password sign-in only (no OAuth at all).
 * The portal hands these to Amplify's `Auth.Cognito.loginWith.oauth` (authorization code + PKCE).
 */
export const PortalOAuthConfig = z.object({
  /** Host (and port) of the user pool's OAuth endpoints, without scheme: `<prefix>.auth.<region>.amazoncognito.com`; Amplify prefixes `https://`. */
  domain: z.string().min(1).regex(/^[^/\s]+$/),
  /** Scopes the portal asks for, e.g. `['openid', 'email', 'profile', 'aws.cognito.signin.user.admin']`. */
  scopes: z.array(z.string().min(1)).min(1),
  /** Callback URL registered on the app client: the site's root, e.g. `https://d111.cloudfront.net/`. */
  redirectSignIn: z.string().url(),
  /** Sign-out URL registered on the app client (the hosted `/logout` returns there). */
  redirectSignOut: z.string().url(),
  /** Configured social providers: one "Sign In with {provider}" button each. */
  socialProviders: z.array(SocialProvider),
  /**
   * Whether at least one customer identity provider (OIDC/SAML) is configured: shows "Iniciar sesión con la cuenta
   * de tu empresa", which routes by the e-mail's domain (Cognito `idp_identifier`). The providers and their domains
   * are deliberately not listed: the file is public and would name the customers.
   */
  enterprise: z.boolean(),
});
export type PortalOAuthConfig = z.infer<typeof PortalOAuthConfig>;

export const PortalConfig = z.object({
  /** AWS region of the user pool, e.g. `eu-west-1`. */
  region: z.string().min(1),
  userPoolId: z.string().min(1),
  /** The portal's app client (no secret). */
  userPoolClientId: z.string().min(1),
  /** Identity pool for signed-in users; empty string offline (no identity-pool emulator). */
  identityPoolId: z.string(),
  /** Base URL of the business API, no trailing slash, e.g. `https://abc.execute-api.eu-west-1.amazonaws.com/prod`. */
  apiUrl: z.string().url(),
  /** Deployment stage, e.g. `dev`, `prod`, `pr-42`, `local`. */
  stage: z.string().min(1),
  /** Whether self sign-up is allowed (hides the Create Account tab when false). */
  allowSignUp: z.boolean(),
  brandName: z.string().min(1),
  /** Only offline: endpoint of the local Cognito user-pool emulator (Amplify `userPoolEndpoint`). */
  userPoolEndpoint: z.string().url().optional(),
  /** Federated sign-in; absent when the stage configures no identity provider. */
  oauth: PortalOAuthConfig.optional(),
});
export type PortalConfig = z.infer<typeof PortalConfig>;
