/**
 * Shape of the portal's `/config.json`.
 *
 * Produced from stack outputs by the PortalDeployment stack in AWS (`BucketDeployment` + `Source.jsonData`)
 * and by the local stack (`scripts/local/stack.ts`) offline; validated by the portal at start-up (a missing or invalid file shows
 * 'Configuration error (see console) – please contact the administrator'; `web/src/app/bootstrap.tsx`).
 */
import * as z from 'zod';

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
});
export type PortalConfig = z.infer<typeof PortalConfig>;
