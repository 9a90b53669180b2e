/**
 * TOTP MFA on the local user pool with the REAL Amplify v6 client (`aws-amplify/auth`): set up an authenticator
 * app (AssociateSoftwareToken → VerifySoftwareToken), enable it (SetUserMFAPreference), then sign in with a
 * SOFTWARE_TOKEN_MFA challenge answered with an RFC 6238 code computed here (otplib, the library cognito-local
 * uses); a wrong code is refused; turning TOTP off signs in without the challenge again; remembered devices.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AdminCreateUserCommand,
  AdminSetUserPasswordCommand,
  CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import { Amplify } from 'aws-amplify';
import {
  confirmSignIn,
  fetchDevices,
  fetchMFAPreference,
  forgetDevice,
  setUpTOTP,
  signIn,
  signOut,
  updateMFAPreference,
  verifyTOTPSetup,
} from 'aws-amplify/auth';
import { generateSync } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUserPool, type RunningUserPool } from '../../scripts/local/cognito/index.js';

let dataDir: string;
let pool: RunningUserPool;
let admin: CognitoIdentityProviderClient;
const EMAIL = 'totp@acme.example';
const PASSWORD = 'Vigia-Totp-2026';

const totp = (secret: string): string => generateSync({ secret, algorithm: 'sha1', digits: 6, period: 30 });

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'vigia-cognito-mfa-'));
  pool = await startUserPool({ dataDir, port: 0, internalPort: 0 });
  admin = new CognitoIdentityProviderClient({ region: 'us-east-1', endpoint: pool.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  await admin.send(
    new AdminCreateUserCommand({
      UserPoolId: pool.userPoolId,
      Username: EMAIL,
      MessageAction: 'SUPPRESS',
      UserAttributes: [
        { Name: 'email', Value: EMAIL },
        { Name: 'email_verified', Value: 'true' },
      ],
    }),
  );
  await admin.send(new AdminSetUserPasswordCommand({ UserPoolId: pool.userPoolId, Username: EMAIL, Password: PASSWORD, Permanent: true }));
  Amplify.configure({
    Auth: { Cognito: { userPoolId: pool.userPoolId, userPoolClientId: pool.userPoolClientId, userPoolEndpoint: pool.endpoint, loginWith: { email: true } } },
  });
});

afterAll(async () => {
  await signOut().catch(() => undefined);
  admin?.destroy();
  await pool?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('TOTP MFA with the real Amplify client', () => {
  let secret = '';

  it('sets up TOTP, verifies a code and prefers it', async () => {
    expect((await signIn({ username: EMAIL, password: PASSWORD })).isSignedIn).toBe(true);
    expect(await fetchMFAPreference()).toEqual({});
    const details = await setUpTOTP();
    secret = details.sharedSecret;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(details.getSetupUri('Vigía', EMAIL).href).toContain(`secret=${secret}`);
    await expect(verifyTOTPSetup({ code: '000000' })).rejects.toThrow(/code/i);
    await verifyTOTPSetup({ code: totp(secret) });
    await updateMFAPreference({ totp: 'PREFERRED' });
    expect(await fetchMFAPreference()).toEqual({ enabled: ['TOTP'], preferred: 'TOTP' });
    await signOut();
  });

  it('signs in with a SOFTWARE_TOKEN_MFA challenge; a wrong code is refused', async () => {
    const first = await signIn({ username: EMAIL, password: PASSWORD });
    expect(first.nextStep.signInStep).toBe('CONFIRM_SIGN_IN_WITH_TOTP_CODE');
    await expect(confirmSignIn({ challengeResponse: '000000' })).rejects.toThrow(/code/i);
    // A refused code ends the challenge session in Cognito: start again.
    await signOut();
    expect((await signIn({ username: EMAIL, password: PASSWORD })).nextStep.signInStep).toBe('CONFIRM_SIGN_IN_WITH_TOTP_CODE');
    const done = await confirmSignIn({ challengeResponse: totp(secret) });
    expect(done.isSignedIn).toBe(true);
  });

  it('turning TOTP off removes the challenge', async () => {
    await updateMFAPreference({ totp: 'DISABLED' });
    expect(await fetchMFAPreference()).toEqual({});
    await signOut();
    expect((await signIn({ username: EMAIL, password: PASSWORD })).isSignedIn).toBe(true);
  });

  it('lists remembered devices (none: the pool has no device tracking) and refuses to forget an unknown one', async () => {
    expect(await fetchDevices()).toEqual([]);
    await expect(forgetDevice({ device: { id: 'eu-west-1_unknown' } })).rejects.toThrow(/not found/);
  });
});
