/**
 * The local user pool (cognito-local + compatibility proxy) driven by the REAL Amplify v6 client
 * (`aws-amplify/auth`, configured with `userPoolEndpoint`) and by the AWS SDK v3 the seed uses.
 * Every test exercises a gap of cognito-local the proxy fills (docs/decisions/local-cognito.md lists them), so each
 * fails without the layer.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminListGroupsForUserCommand,
  AdminSetUserPasswordCommand,
  AdminUpdateUserAttributesCommand,
  CognitoIdentityProviderClient,
  CreateGroupCommand,
  GetUserCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { Amplify } from 'aws-amplify';
import {
  autoSignIn,
  confirmResetPassword,
  confirmSignIn,
  confirmSignUp,
  fetchAuthSession,
  fetchUserAttributes,
  resendSignUpCode,
  resetPassword,
  signIn,
  signOut,
  signUp,
} from 'aws-amplify/auth';
import { cognitoUserPoolsTokenProvider } from 'aws-amplify/auth/cognito';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXED_CODE, lastCodeFor, startUserPool, type RunningUserPool } from '../../scripts/local/cognito/index.js';
import { LOCAL_OPERATOR_CREDENTIAL } from '../../scripts/local/config.js';

/** In-memory key-value storage for Amplify's tokens, readable by the test (to fetch the refresh token). */
class MemoryStorage {
  readonly items = new Map<string, string>();
  async setItem(key: string, value: string): Promise<void> {
    this.items.set(key, value);
  }
  async getItem(key: string): Promise<string | null> {
    return this.items.get(key) ?? null;
  }
  async removeItem(key: string): Promise<void> {
    this.items.delete(key);
  }
  async clear(): Promise<void> {
    this.items.clear();
  }
  refreshToken(): string | undefined {
    return [...this.items].find(([k]) => k.endsWith('.refreshToken'))?.[1];
  }
}

let dataDir: string;
let pool: RunningUserPool;
let admin: CognitoIdentityProviderClient;
const storage = new MemoryStorage();

/** Raw JSON call to the user-pool endpoint, as a browser would make it. */
async function poolCall(target: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${pool.endpoint}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `AWSCognitoIdentityProviderService.${target}` },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

/** Creates a confirmed user the way the seed does (SDK, signed with the local operator key). */
async function seedUser(email: string, password: string, groups: string[]): Promise<void> {
  await admin.send(
    new AdminCreateUserCommand({ UserPoolId: pool.userPoolId, Username: email, MessageAction: 'SUPPRESS', UserAttributes: [{ Name: 'email', Value: email }] }),
  );
  await admin.send(new AdminSetUserPasswordCommand({ UserPoolId: pool.userPoolId, Username: email, Password: password, Permanent: true }));
  await admin.send(
    new AdminUpdateUserAttributesCommand({
      UserPoolId: pool.userPoolId,
      Username: email,
      UserAttributes: [
        { Name: 'email', Value: email },
        { Name: 'email_verified', Value: 'true' },
      ],
    }),
  );
  for (const group of groups) {
    await admin.send(new AdminAddUserToGroupCommand({ UserPoolId: pool.userPoolId, Username: email, GroupName: group }));
  }
}

async function errorName(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    return `${(err as Error).name}: ${(err as Error).message}`;
  }
  return 'resolved';
}

async function tokens() {
  const session = await fetchAuthSession();
  if (!session.tokens?.idToken) throw new Error('no tokens');
  return { access: session.tokens.accessToken.toString(), id: session.tokens.idToken.toString(), idPayload: session.tokens.idToken.payload };
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'vigia-cognito-'));
  pool = await startUserPool({ dataDir, port: 0, internalPort: 0 });
  admin = new CognitoIdentityProviderClient({
    region: 'us-east-1',
    endpoint: pool.endpoint,
    credentials: { accessKeyId: LOCAL_OPERATOR_CREDENTIAL.accessKeyId, secretAccessKey: LOCAL_OPERATOR_CREDENTIAL.secretAccessKey },
  });
  await admin.send(new CreateGroupCommand({ UserPoolId: pool.userPoolId, GroupName: 'acme' }));
  Amplify.configure({
    Auth: {
      Cognito: {
        userPoolId: pool.userPoolId,
        userPoolClientId: pool.userPoolClientId,
        userPoolEndpoint: pool.endpoint,
        loginWith: { email: true },
        signUpVerificationMethod: 'code',
      },
    },
  });
  cognitoUserPoolsTokenProvider.setKeyValueStorage(storage);
});

afterAll(async () => {
  await signOut().catch(() => undefined);
  await pool?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('local Cognito user pool with the real Amplify client', () => {
  it('signs up, resends and confirms the code, signs in automatically with e-mail verified', async () => {
    const email = 'nueva@example.com';
    const up = await signUp({ username: email, password: 'ocho-car', options: { userAttributes: { email }, autoSignIn: true } });
    expect(up.nextStep.signUpStep).toBe('CONFIRM_SIGN_UP');
    const resent = await resendSignUpCode({ username: email });
    // Cognito masks the destination of a code (first letter of the local part and of the domain).
    expect(resent.destination).toBe('n***@e***');
    expect(await lastCodeFor(dataDir, email, 'ResendConfirmationCode')).toBe(FIXED_CODE);

    const confirmed = await confirmSignUp({ username: email, confirmationCode: (await lastCodeFor(dataDir, email)) ?? '' });
    expect(confirmed.nextStep.signUpStep).toBe('COMPLETE_AUTO_SIGN_IN');
    const auto = await autoSignIn();
    expect(auto.isSignedIn).toBe(true);
    expect((await fetchUserAttributes()).email_verified).toBe('true');
    expect((await tokens()).idPayload.email_verified).toBe(true);
    await signOut();
  });

  it('enforces the password policy (length 8) on sign-up and admin password changes', async () => {
    expect(await errorName(signUp({ username: 'corta@example.com', password: 'siete77', options: { userAttributes: { email: 'corta@example.com' } } }))).toBe(
      'InvalidPasswordException: Password did not conform with policy: Password not long enough',
    );
    await seedUser('politica@example.com', 'larga-y-valida', []);
    expect(
      await errorName(admin.send(new AdminSetUserPasswordCommand({ UserPoolId: pool.userPoolId, Username: 'politica@example.com', Password: 'short', Permanent: true }))),
    ).toMatch(/^InvalidPasswordException/);
  });

  it('signs in with SRP: wrong password and unknown user are NotAuthorized; tokens carry verified claims', async () => {
    await seedUser('ana@acme.example', 'contraseña-ana', ['acme']);
    expect(await errorName(signIn({ username: 'ana@acme.example', password: 'contraseña-mal' }))).toBe(
      'NotAuthorizedException: Incorrect username or password.',
    );
    expect(await errorName(signIn({ username: 'nadie@acme.example', password: 'contraseña-ana' }))).toBe(
      'NotAuthorizedException: Incorrect username or password.',
    );

    const result = await signIn({ username: 'ana@acme.example', password: 'contraseña-ana' });
    expect(result.isSignedIn).toBe(true);
    const { id } = await tokens();
    const { payload } = await jwtVerify(id, createRemoteJWKSet(new URL(pool.jwksUri)), {
      issuer: pool.issuer,
      audience: pool.userPoolClientId,
    });
    expect(payload).toMatchObject({ email: 'ana@acme.example', token_use: 'id', 'cognito:groups': ['acme'] });
    expect(pool.issuer).toBe(`${pool.endpoint}/${pool.userPoolId}`);
    await signOut();
  });

  it('refreshes tokens, then global sign-out refuses the old refresh and access tokens', async () => {
    await seedUser('beto@acme.example', 'contraseña-beto', ['acme']);
    await signIn({ username: 'beto@acme.example', password: 'contraseña-beto' });
    const before = await tokens();
    const refreshToken = storage.refreshToken();
    expect(refreshToken).toBeTruthy();

    await fetchAuthSession({ forceRefresh: true });
    const after = await tokens();
    expect(after.access).not.toBe(before.access);
    expect(after.id).not.toBe(before.id);
    // The app client rotates refresh tokens: Amplify keeps the new one.
    const rotated = storage.refreshToken();
    expect(rotated).toBeTruthy();
    expect(rotated).not.toBe(refreshToken);
    await admin.send(new GetUserCommand({ AccessToken: after.access }));

    await signOut({ global: true });
    for (const token of [refreshToken, rotated]) {
      const refreshed = await poolCall('GetTokensFromRefreshToken', { ClientId: pool.userPoolClientId, RefreshToken: token });
      expect(refreshed.status).toBe(400);
      expect(refreshed.json.__type).toBe('NotAuthorizedException');
    }
    expect(await errorName(admin.send(new GetUserCommand({ AccessToken: after.access })))).toBe('NotAuthorizedException: Access Token has been revoked');

    // A new sign-in right away (same second) is not caught by the revocation.
    await signIn({ username: 'beto@acme.example', password: 'contraseña-beto' });
    await admin.send(new GetUserCommand({ AccessToken: (await tokens()).access }));
    await signOut();
  });

  it('resets a forgotten password with the e-mailed code', async () => {
    await seedUser('carla@acme.example', 'contraseña-vieja', ['acme']);
    const reset = await resetPassword({ username: 'carla@acme.example' });
    expect(reset.nextStep.resetPasswordStep).toBe('CONFIRM_RESET_PASSWORD_WITH_CODE');
    const code = (await lastCodeFor(dataDir, 'carla@acme.example', 'ForgotPassword')) ?? '';
    expect(await errorName(confirmResetPassword({ username: 'carla@acme.example', confirmationCode: code, newPassword: 'corta' }))).toMatch(
      /^InvalidPasswordException/,
    );
    await confirmResetPassword({ username: 'carla@acme.example', confirmationCode: code, newPassword: 'contraseña-nueva' });
    expect(await errorName(signIn({ username: 'carla@acme.example', password: 'contraseña-vieja' }))).toMatch(/^NotAuthorizedException/);
    expect((await signIn({ username: 'carla@acme.example', password: 'contraseña-nueva' })).isSignedIn).toBe(true);
    await signOut();
  });

  it('invited user: NEW_PASSWORD_REQUIRED, policy on the new password, then tokens that refresh', async () => {
    await admin.send(
      new AdminCreateUserCommand({
        UserPoolId: pool.userPoolId,
        Username: 'invitada@globex.example',
        TemporaryPassword: 'Temporal-123',
        UserAttributes: [
          { Name: 'email', Value: 'invitada@globex.example' },
          { Name: 'email_verified', Value: 'true' },
        ],
      }),
    );
    expect(await lastCodeFor(dataDir, 'invitada@globex.example', 'AdminCreateUser')).toBe('Temporal-123');
    const first = await signIn({ username: 'invitada@globex.example', password: 'Temporal-123' });
    expect(first.nextStep.signInStep).toBe('CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED');
    expect(await errorName(confirmSignIn({ challengeResponse: 'corta' }))).toMatch(/^InvalidPasswordException/);
    const done = await confirmSignIn({ challengeResponse: 'definitiva-456' });
    expect(done.isSignedIn).toBe(true);
    const before = await tokens();
    await fetchAuthSession({ forceRefresh: true });
    expect((await tokens()).access).not.toBe(before.access);
    await signOut();
    expect((await signIn({ username: 'invitada@globex.example', password: 'definitiva-456' })).isSignedIn).toBe(true);
    await signOut();
  });

  it('treats e-mail user names case-insensitively, like the deployed pool', async () => {
    expect((await signIn({ username: 'ANA@Acme.Example', password: 'contraseña-ana' })).isSignedIn).toBe(true);
    await signOut();
    expect(await errorName(signUp({ username: 'Ana@ACME.example', password: 'otra-contraseña', options: { userAttributes: { email: 'Ana@ACME.example' } } }))).toMatch(
      /^UsernameExistsException/,
    );
    await admin.send(new AdminAddUserToGroupCommand({ UserPoolId: pool.userPoolId, Username: 'ANA@acme.example', GroupName: 'acme' }));
  });

  it('refuses to re-create an existing group instead of wiping its members (cognito-local replaces it)', async () => {
    // CreateGroup is an administrative (IAM) operation: signed with the operator key through the SDK.
    await expect(admin.send(new CreateGroupCommand({ UserPoolId: pool.userPoolId, GroupName: 'acme', Description: 'otra' }))).rejects.toThrow(
      expect.objectContaining({ name: 'GroupExistsException' }),
    );
    const groups = await admin.send(new AdminListGroupsForUserCommand({ UserPoolId: pool.userPoolId, Username: 'ana@acme.example' }));
    expect(groups.Groups?.map((g) => g.GroupName)).toContain('acme');
  });

  it('refuses challenge sessions it did not issue', async () => {
    const res = await poolCall('RespondToAuthChallenge', {
      ClientId: pool.userPoolClientId,
      ChallengeName: 'NEW_PASSWORD_REQUIRED',
      Session: 'forged',
      ChallengeResponses: { USERNAME: 'ana@acme.example', NEW_PASSWORD: 'hijacked-password' },
    });
    expect(res.json.__type).toBe('NotAuthorizedException');
  });

  it('serves CORS and an openid-configuration with its own issuer', async () => {
    const preflight = await fetch(`${pool.endpoint}/`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type,x-amz-target' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('x-amz-target');
    const error = await fetch(`${pool.endpoint}/`, {
      method: 'POST',
      headers: { Origin: 'http://localhost:5173', 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'AWSCognitoIdentityProviderService.GetUser' },
      body: JSON.stringify({ AccessToken: 'nope' }),
    });
    expect(error.headers.get('access-control-expose-headers')).toContain('x-amzn-ErrorType');
    const oidc = (await (await fetch(`${pool.issuer}/.well-known/openid-configuration`)).json()) as { issuer: string; jwks_uri: string };
    expect(oidc).toMatchObject({ issuer: pool.issuer, jwks_uri: pool.jwksUri });
  });

  it('rejects a busy port with a one-line error naming it', async () => {
    const port = Number(new URL(pool.endpoint).port);
    await expect(startUserPool({ dataDir: join(dataDir, 'other'), port, internalPort: 0 })).rejects.toThrow(new RegExp(`^Port ${port} .*in use`));
  });

  it('stop() frees both ports; a restart on the same data keeps the pool id, users and groups', async () => {
    const { userPoolId, userPoolClientId, endpoint } = pool;
    const port = Number(new URL(endpoint).port);
    const internalPort = Number(new URL(pool.internalEndpoint).port);
    await pool.stop();
    pool = await startUserPool({ dataDir, port, internalPort });
    expect(pool).toMatchObject({ userPoolId, userPoolClientId, endpoint });
    expect((await signIn({ username: 'ana@acme.example', password: 'contraseña-ana' })).isSignedIn).toBe(true);
    expect((await tokens()).idPayload['cognito:groups']).toEqual(['acme']);
    await signOut();
  });
});
