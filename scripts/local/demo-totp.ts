/**
 * TOTP for the demo staff account: members of `admin` must have an authenticator app set up before admin
 * routes answer (docs/api.md#staff-accounts-and-totp), so the local stack sets TOTP up for the demo users
 * marked `totp` (the demo admin) and keeps each secret in `<dataDir>/demo-totp.json`, so `npm start` can
 * print it (add it to an authenticator app, or compute codes with {@link totpCode}) and the tests can answer
 * the SOFTWARE_TOKEN_MFA challenge at sign-in.
 *
 * Setting up is what a user does in the portal's profile: sign in (SRP), AssociateSoftwareToken,
 * VerifySoftwareToken with a current code, SetUserMFAPreference (TOTP enabled and preferred).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  AdminGetUserCommand,
  AssociateSoftwareTokenCommand,
  CognitoIdentityProviderClient,
  SetUserMFAPreferenceCommand,
  VerifySoftwareTokenCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { generateSync } from 'otplib';
import { signInWithSrp } from './cognito/sign-in.js';
import { DEMO_REGION, LOCAL_OPERATOR_CREDENTIAL } from './config.js';

/** The current RFC 6238 code of a base32 `secret` (SHA-1, 6 digits, 30 s: Cognito's TOTP). */
export function totpCode(secret: string, now = Date.now()): string {
  return generateSync({ secret, algorithm: 'sha1', digits: 6, period: 30, epoch: Math.floor(now / 1000) });
}

const secretsFile = (dataDir: string): string => path.join(dataDir, 'demo-totp.json');

/** The TOTP secrets the stack set up, by e-mail (empty when none). */
export function readDemoTotpSecrets(dataDir: string): Record<string, string> {
  const file = secretsFile(dataDir);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>) : {};
}

/**
 * Sets TOTP up for each of `users` that has none yet and returns every known secret by e-mail (new ones are
 * saved in `<dataDir>/demo-totp.json`). A user who already has TOTP keeps it (its secret is the one saved, if
 * the stack set it up).
 * @throws the pool's errors (e.g. a wrong password)
 */
export async function ensureDemoTotp(opts: {
  cognitoEndpoint: string;
  userPoolId: string;
  clientId: string;
  dataDir: string;
  users: ReadonlyArray<{ email: string; password: string }>;
}): Promise<Record<string, string>> {
  const secrets = readDemoTotpSecrets(opts.dataDir);
  const { accessKeyId, secretAccessKey } = LOCAL_OPERATOR_CREDENTIAL;
  const idp = new CognitoIdentityProviderClient({ endpoint: opts.cognitoEndpoint, region: DEMO_REGION, credentials: { accessKeyId, secretAccessKey } });
  let changed = false;
  try {
    for (const u of opts.users) {
      const user = await idp.send(new AdminGetUserCommand({ UserPoolId: opts.userPoolId, Username: u.email }));
      if ((user.UserMFASettingList ?? []).includes('SOFTWARE_TOKEN_MFA')) continue;
      const tokens = await signInWithSrp(idp, { userPoolId: opts.userPoolId, clientId: opts.clientId, username: u.email, password: u.password });
      const { SecretCode } = await idp.send(new AssociateSoftwareTokenCommand({ AccessToken: tokens.AccessToken! }));
      await idp.send(new VerifySoftwareTokenCommand({ AccessToken: tokens.AccessToken!, UserCode: totpCode(SecretCode!), FriendlyDeviceName: 'demo' }));
      await idp.send(
        new SetUserMFAPreferenceCommand({ AccessToken: tokens.AccessToken!, SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true } }),
      );
      secrets[u.email] = SecretCode!;
      changed = true;
    }
  } finally {
    idp.destroy();
  }
  if (changed) writeFileSync(secretsFile(opts.dataDir), `${JSON.stringify(secrets, null, 2)}\n`);
  return secrets;
}
