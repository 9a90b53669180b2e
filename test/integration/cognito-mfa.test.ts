/**
 * TOTP MFA on the local user pool with the REAL Amplify v6 client (`aws-amplify/auth`): set up an authenticator
 * app (AssociateSoftwareToken → VerifySoftwareToken), enable it (SetUserMFAPreference), then sign in with a
 * SOFTWARE_TOKEN_MFA challenge answered with an RFC 6238 code computed here (otplib, the library cognito-local
 * uses); a wrong code is refused; turning TOTP off signs in without the challenge again; remembered devices (device tracking, user opt-in:
 * ConfirmDevice at sign-in, rememberDevice, fetchDevices, forgetDevice).
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
  rememberDevice,
  setUpTOTP,
  signIn,
  signOut,
  updateMFAPreference,
  verifyTOTPSetup,
} from 'aws-amplify/auth';
import { generateSync } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUserPool, type RunningUserPool } from '../../scripts/local/cognito/index.js';
import { LOCAL_OPERATOR_CREDENTIAL } from '../../scripts/local/config.js';

let dataDir: string;
let pool: RunningUserPool;
let admin: CognitoIdentityProviderClient;
const EMAIL = 'totp@acme.example';
const PASSWORD = 'Vigia-Totp-2026';

const totp = (secret: string): string => generateSync({ secret, algorithm: 'sha1', digits: 6, period: 30 });

beforeAll(async () => {
  // Amplify names a new device after navigator.userAgent (getDeviceName); Node 20 has no navigator, and without a
  // name Amplify silently skips ConfirmDevice. A browser always has one.
  if (!('navigator' in globalThis)) Object.defineProperty(globalThis, 'navigator', { value: { userAgent: 'Vitest (Node 20)' }, configurable: true });
  dataDir = await mkdtemp(join(tmpdir(), 'vigia-cognito-mfa-'));
  pool = await startUserPool({ dataDir, port: 0, internalPort: 0 });
  admin = new CognitoIdentityProviderClient({ region: 'us-east-1', endpoint: pool.endpoint, credentials: { accessKeyId: LOCAL_OPERATOR_CREDENTIAL.accessKeyId, secretAccessKey: LOCAL_OPERATOR_CREDENTIAL.secretAccessKey } });
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

  it('remembers the current device on request, lists it with its name and dates, forgets it', async () => {
    // Device tracking with user opt-in: the sign-in confirmed a device, which is not listed until remembered.
    expect(await fetchDevices()).toEqual([]);
    await rememberDevice();
    const [device, ...others] = await fetchDevices();
    expect(others).toEqual([]);
    expect(device!.id).toMatch(/^local_[0-9a-f-]{36}$/);
    expect(device!.name).toBeTruthy();
    expect(device!.attributes).toMatchObject({ device_name: device!.name, device_status: 'valid' });
    expect(Math.abs(device!.lastAuthenticatedDate!.getTime() - Date.now())).toBeLessThan(60_000);
    expect(device!.createDate).toBeInstanceOf(Date);

    // Signing in again from the remembered device keeps it (no second device is issued).
    await signOut();
    expect((await signIn({ username: EMAIL, password: PASSWORD })).isSignedIn).toBe(true);
    expect((await fetchDevices()).map((d) => d.id)).toEqual([device!.id]);

    await forgetDevice({ device: { id: device!.id } });
    expect(await fetchDevices()).toEqual([]);
    await expect(forgetDevice({ device: { id: device!.id } })).rejects.toThrow(/not found/);
  });
});
