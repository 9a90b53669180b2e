/**
 * Conformance: the user pool (local emulation, or a deployed stage with VIGIA_TARGET) driven by
 * `amazon-cognito-identity-js` (AWS's own SRP client, not written by this project) and the AWS SDK v3.
 * Each test names the Cognito behaviour it expects and the AWS documentation that states it.
 * How to run: docs/testing.md#the-conformance-suite.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as identity from 'amazon-cognito-identity-js';
import {
  AuthenticationDetails,
  CognitoUser,
  CognitoUserAttribute,
  CognitoUserPool,
  type CognitoUserSession,
  type ISignUpResult,
} from 'amazon-cognito-identity-js';
import {
  AdminAddUserToGroupCommand,
  AdminInitiateAuthCommand,
  CognitoIdentityProviderClient,
  GetTokensFromRefreshTokenCommand,
  InitiateAuthCommand,
  RevokeTokenCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { decodeJwt } from 'jose';
import { CONFORMANCE_GROUP, CONFORMANCE_PASSWORD, LOCAL_ONLY, conformanceTarget, operatorClient, type ConformanceTarget } from '../support/conformance-target.js';

const DOCS = {
  userExistence: 'https://docs.aws.amazon.com/cognito/latest/developerguide/cognito-user-pool-managing-errors.html',
  initiateAuth: 'https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_InitiateAuth.html',
  adminInitiateAuth: 'https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_AdminInitiateAuth.html',
  authFlows: 'https://docs.aws.amazon.com/cognito/latest/developerguide/amazon-cognito-user-pools-authentication-flow-methods.html',
  commonErrors: 'https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/CommonErrors.html',
  authorization: 'https://docs.aws.amazon.com/cognito/latest/developerguide/user-pools-API-operations.html',
  refresh: 'https://docs.aws.amazon.com/cognito/latest/developerguide/amazon-cognito-user-pools-using-the-refresh-token.html',
  getTokens: 'https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_GetTokensFromRefreshToken.html',
  rotation: 'https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_RefreshTokenRotationType.html',
  revokeToken: 'https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_RevokeToken.html',
  globalSignOut: 'https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_GlobalSignOut.html',
  changePassword: 'https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_ChangePassword.html',
  forgotPassword: 'https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_ForgotPassword.html',
  signUp: 'https://docs.aws.amazon.com/cognito/latest/developerguide/signing-up-users-in-your-app.html',
  passwordPolicy: 'https://docs.aws.amazon.com/cognito/latest/developerguide/managing-users-passwords.html',
  keepOriginal: 'https://docs.aws.amazon.com/cognito/latest/developerguide/user-pool-settings-email-phone-verification.html',
} as const;

let target: ConformanceTarget;
let pool: CognitoUserPool;
let sdk: CognitoIdentityProviderClient;

/**
 * The local pool's grace period for a rotated-out refresh token, shortened so the test can see it end (the
 * deployed client's is 10 s; against a deployed stage the test waits that long).
 */
const LOCAL_GRACE_SECONDS = 2;

beforeAll(async () => {
  target = await conformanceTarget({ refreshTokenGraceSeconds: LOCAL_GRACE_SECONDS });
  pool = new CognitoUserPool({ UserPoolId: target.userPoolId, ClientId: target.clientId, ...(target.cognitoEndpoint ? { endpoint: target.cognitoEndpoint } : {}) });
  // Public operations need no AWS credentials; the SDK signs nothing for them.
  sdk = new CognitoIdentityProviderClient({ region: target.region, ...(target.cognitoEndpoint ? { endpoint: target.cognitoEndpoint } : {}) });
});

afterAll(async () => {
  sdk?.destroy();
  await target?.stop();
});

const local = () => target.kind === 'local';
/** The error of an amazon-cognito-identity-js callback: `code` is the service's `__type`. */
type ServiceError = Error & { code?: string };

const userOf = (email: string) => new CognitoUser({ Username: email, Pool: pool });

function signIn(email: string, password: string, flow?: 'USER_PASSWORD_AUTH'): Promise<{ user: CognitoUser; session: CognitoUserSession }> {
  const user = userOf(email);
  if (flow) user.setAuthenticationFlowType(flow);
  return new Promise((resolve, reject) => {
    user.authenticateUser(new AuthenticationDetails({ Username: email, Password: password }), {
      onSuccess: (session) => resolve({ user, session }),
      onFailure: (err: ServiceError) => reject(err),
      newPasswordRequired: () => reject(new Error('unexpected NEW_PASSWORD_REQUIRED')),
      totpRequired: () => reject(new Error('unexpected SOFTWARE_TOKEN_MFA')),
      mfaRequired: () => reject(new Error('unexpected SMS_MFA')),
    });
  });
}

/** amazon-cognito-identity-js's refresh: InitiateAuth with REFRESH_TOKEN_AUTH. */
const refreshSession = (user: CognitoUser, session: CognitoUserSession) =>
  new Promise<CognitoUserSession>((resolve, reject) =>
    user.refreshSession(session.getRefreshToken(), (err: ServiceError | null, s: CognitoUserSession) => (err ? reject(err) : resolve(s))),
  );

/** A refresh with GetTokensFromRefreshToken (the AWS SDK): the only refresh of an app client that rotates refresh tokens. */
async function getTokens(refreshToken: string): Promise<{ idToken: string; accessToken: string; refreshToken: string | undefined }> {
  const { AuthenticationResult: r } = await sdk.send(new GetTokensFromRefreshTokenCommand({ ClientId: target.clientId, RefreshToken: refreshToken }));
  return { idToken: r!.IdToken!, accessToken: r!.AccessToken!, refreshToken: r!.RefreshToken };
}

/** Why the sign-up tests are skipped on a stage without self sign-up. */
const SIGN_UP_OFF = 'self sign-up is off on this stage (its config.json says allowSignUp: false, as on previews and production): SignUp is refused there';

const callback = <T>(run: (cb: (err: ServiceError | undefined | null, result?: T) => void) => void) =>
  new Promise<T>((resolve, reject) => run((err, result) => (err ? reject(err) : resolve(result as T))));

/** Expects `promise` to fail with the Cognito error `code` (and `message`, when given). */
async function expectServiceError(promise: Promise<unknown>, code: string, message?: string | RegExp): Promise<void> {
  const err = (await promise.then(
    () => null,
    (e: unknown) => e,
  )) as (ServiceError & { name?: string }) | null;
  expect(err, `expected ${code}`).not.toBeNull();
  expect(err!.code ?? err!.name).toBe(code);
  if (message !== undefined) expect(err!.message).toMatch(message);
}

/** A fresh local user (created with the operator key). */
async function freshUser(prefix: string): Promise<string> {
  const email = `${prefix}.${randomUUID().slice(0, 8)}@acme.example`;
  await target.createUser(email, CONFORMANCE_PASSWORD);
  return email;
}

const MASKED = /^.\*\*\*@.\*\*\*$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('SRP sign-in and user-existence errors (PreventUserExistenceErrors: ENABLED)', () => {
  it(`signs in with SRP and returns an ID token for the app client (${DOCS.authFlows})`, async (ctx) => {
    if (!target.user) return ctx.skip('set VIGIA_TEST_EMAIL and VIGIA_TEST_PASSWORD (a confirmed user of the stage)');
    const { session } = await signIn(target.user.email, target.user.password);
    const id = decodeJwt(session.getIdToken().getJwtToken());
    expect(id).toMatchObject({ token_use: 'id', aud: target.clientId, email: target.user.email });
    expect(decodeJwt(session.getAccessToken().getJwtToken())).toMatchObject({ token_use: 'access', client_id: target.clientId });
  });

  it(`a wrong password is NotAuthorizedException "Incorrect username or password." (${DOCS.initiateAuth})`, async (ctx) => {
    if (!target.user) return ctx.skip('set VIGIA_TEST_EMAIL and VIGIA_TEST_PASSWORD');
    await expectServiceError(signIn(target.user.email, 'not-the-password'), 'NotAuthorizedException', 'Incorrect username or password.');
  });

  it(`an unknown user gets the same error as a wrong password, never UserNotFoundException (${DOCS.userExistence})`, async () => {
    await expectServiceError(signIn(`nadie.${randomUUID()}@example.com`, 'whatever-8'), 'NotAuthorizedException', 'Incorrect username or password.');
  });

  it(`SRP step 1 answers an unknown user with a PASSWORD_VERIFIER challenge shaped like a known user's (${DOCS.userExistence})`, async (ctx) => {
    if (!target.user) return ctx.skip('set VIGIA_TEST_EMAIL and VIGIA_TEST_PASSWORD');
    const Helper = (identity as unknown as { AuthenticationHelper: new (pool: string) => { getLargeAValue(cb: (e: unknown, a: { toString(r: number): string }) => void): void } })
      .AuthenticationHelper;
    const helper = new Helper(target.userPoolId.split('_')[1]!);
    const srpA = await new Promise<string>((resolve, reject) => helper.getLargeAValue((e, a) => (e ? reject(e as Error) : resolve(a.toString(16)))));
    const step1 = (username: string) =>
      sdk.send(new InitiateAuthCommand({ AuthFlow: 'USER_SRP_AUTH', ClientId: target.clientId, AuthParameters: { USERNAME: username, SRP_A: srpA } }));
    const known = await step1(target.user.email);
    const unknown = await step1(`nadie.${randomUUID()}@example.com`);
    for (const answer of [known, unknown]) {
      expect(answer.ChallengeName).toBe('PASSWORD_VERIFIER');
      expect(Object.keys(answer.ChallengeParameters ?? {}).sort()).toEqual(Object.keys(known.ChallengeParameters ?? {}).sort());
      expect(answer.ChallengeParameters?.USER_ID_FOR_SRP).toMatch(UUID);
      expect(answer.ChallengeParameters?.SRP_B).toMatch(/^[0-9a-f]+$/);
    }
  });

  it(`USER_PASSWORD_AUTH is refused: the portal's app client allows only SRP (refresh: GetTokensFromRefreshToken) (${DOCS.initiateAuth})`, async (ctx) => {
    await expectServiceError(
      sdk.send(new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: target.clientId, AuthParameters: { USERNAME: 'x@example.com', PASSWORD: 'whatever-8' } })),
      'InvalidParameterException',
      'USER_PASSWORD_AUTH flow not enabled for this client',
    );
    if (!target.user) return ctx.skip('the amazon-cognito-identity-js half needs VIGIA_TEST_EMAIL / VIGIA_TEST_PASSWORD');
    await expectServiceError(signIn(target.user.email, target.user.password, 'USER_PASSWORD_AUTH'), 'InvalidParameterException', /flow not enabled for this client/);
  });

  it(`ADMIN_USER_PASSWORD_AUTH and REFRESH_TOKEN_AUTH (signed by an operator) are refused for the portal's app client (${DOCS.adminInitiateAuth})`, async (ctx) => {
    if (!local()) return ctx.skip(LOCAL_ONLY);
    const admin = operatorClient(target.cognitoEndpoint!, target.region);
    await expectServiceError(
      admin.send(
        new AdminInitiateAuthCommand({
          UserPoolId: target.userPoolId,
          ClientId: target.clientId,
          AuthFlow: 'ADMIN_USER_PASSWORD_AUTH',
          AuthParameters: { USERNAME: target.user!.email, PASSWORD: target.user!.password },
        }),
      ),
      'InvalidParameterException',
      'Auth flow not enabled for this client',
    );
    // Nor REFRESH_TOKEN_AUTH: the client rotates refresh tokens (${DOCS.rotation}).
    const { session } = await signIn(target.user!.email, target.user!.password);
    await expectServiceError(
      admin.send(
        new AdminInitiateAuthCommand({
          UserPoolId: target.userPoolId,
          ClientId: target.clientId,
          AuthFlow: 'REFRESH_TOKEN_AUTH',
          AuthParameters: { REFRESH_TOKEN: session.getRefreshToken().getToken() },
        }),
      ),
      'InvalidParameterException',
    );
    admin.destroy();
  });
});

describe('administrative operations need IAM credentials', () => {
  const unsignedAddToGroup = () =>
    fetch(target.cognitoEndpoint ?? `https://cognito-idp.${target.region}.amazonaws.com/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'AWSCognitoIdentityProviderService.AdminAddUserToGroup' },
      body: JSON.stringify({ UserPoolId: target.userPoolId, Username: 'conformidad@acme.example', GroupName: CONFORMANCE_GROUP }),
    });

  it(`an unsigned AdminAddUserToGroup is refused with MissingAuthenticationTokenException (${DOCS.commonErrors}, ${DOCS.authorization})`, async () => {
    const res = await unsignedAddToGroup();
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    const body = (await res.json()) as { __type?: string };
    expect(String(body.__type)).toMatch(/MissingAuthenticationToken/);
  });

  it(`an unknown access key is UnrecognizedClientException "The security token included in the request is invalid." (${DOCS.commonErrors})`, async () => {
    const stranger = new CognitoIdentityProviderClient({
      region: target.region,
      ...(target.cognitoEndpoint ? { endpoint: target.cognitoEndpoint } : {}),
      credentials: { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' },
    });
    await expectServiceError(
      stranger.send(new AdminAddUserToGroupCommand({ UserPoolId: target.userPoolId, Username: 'conformidad@acme.example', GroupName: CONFORMANCE_GROUP })),
      'UnrecognizedClientException',
      'The security token included in the request is invalid.',
    );
    stranger.destroy();
  });

  it(`the operator key with a wrong secret is InvalidSignatureException (${DOCS.commonErrors})`, async (ctx) => {
    if (!local()) return ctx.skip(LOCAL_ONLY);
    const { LOCAL_OPERATOR_CREDENTIAL } = await import('../../scripts/local/config.js');
    const wrong = new CognitoIdentityProviderClient({
      region: target.region,
      endpoint: target.cognitoEndpoint!,
      credentials: { accessKeyId: LOCAL_OPERATOR_CREDENTIAL.accessKeyId, secretAccessKey: 'not-the-secret' },
    });
    await expectServiceError(
      wrong.send(new AdminAddUserToGroupCommand({ UserPoolId: target.userPoolId, Username: 'conformidad@acme.example', GroupName: CONFORMANCE_GROUP })),
      'InvalidSignatureException',
      /signature we calculated does not match/,
    );
    wrong.destroy();
  });
});

describe('tokens: refresh token rotation, revocation, global sign-out, change password', () => {
  it(`amazon-cognito-identity-js's refreshSession (REFRESH_TOKEN_AUTH) is refused: the app client rotates refresh tokens (${DOCS.refresh}, ${DOCS.rotation})`, async (ctx) => {
    if (!target.user) return ctx.skip('set VIGIA_TEST_EMAIL and VIGIA_TEST_PASSWORD');
    const { user, session } = await signIn(target.user.email, target.user.password);
    // Rotation leaves ALLOW_REFRESH_TOKEN_AUTH out of the client's flows: a disabled flow is InvalidParameterException.
    await expectServiceError(refreshSession(user, session), 'InvalidParameterException', local() ? 'REFRESH_TOKEN_AUTH flow not enabled for this client' : undefined);
  });

  it(`GetTokensFromRefreshToken returns new ID and access tokens and a NEW refresh token each time (${DOCS.getTokens})`, async (ctx) => {
    if (!target.user) return ctx.skip('set VIGIA_TEST_EMAIL and VIGIA_TEST_PASSWORD');
    const { session } = await signIn(target.user.email, target.user.password);
    const first = session.getRefreshToken().getToken();
    const once = await getTokens(first);
    expect(decodeJwt(once.idToken)).toMatchObject({ token_use: 'id', aud: target.clientId, sub: decodeJwt(session.getIdToken().getJwtToken()).sub });
    expect(decodeJwt(once.accessToken)).toMatchObject({ token_use: 'access', client_id: target.clientId });
    expect(once.refreshToken).toBeTruthy();
    expect(once.refreshToken).not.toBe(first);
    const twice = await getTokens(once.refreshToken!);
    expect(twice.refreshToken).toBeTruthy();
    expect(new Set([first, once.refreshToken, twice.refreshToken]).size).toBe(3);
  });

  it(`a rotated-out refresh token is accepted during the grace period only, then NotAuthorizedException; the new one keeps working (${DOCS.rotation})`, async (ctx) => {
    if (!target.user) return ctx.skip('set VIGIA_TEST_EMAIL and VIGIA_TEST_PASSWORD');
    const { session } = await signIn(target.user.email, target.user.password);
    const old = session.getRefreshToken().getToken();
    const rotated = await getTokens(old);
    // A retry with the old token inside the grace period (a lost response) still succeeds.
    const retried = await getTokens(old);
    expect(retried.refreshToken).not.toBe(old);
    await sleep(target.refreshTokenGraceSeconds * 1000 + 1500);
    await expectServiceError(getTokens(old), 'NotAuthorizedException');
    const next = await getTokens(rotated.refreshToken!);
    expect(next.refreshToken).not.toBe(rotated.refreshToken);
  }, 90_000);

  it(`RevokeToken of the newest refresh token ends the family: the older ones are refused too (${DOCS.revokeToken})`, async (ctx) => {
    if (!local()) return ctx.skip(LOCAL_ONLY);
    const email = await freshUser('revocada');
    const { session } = await signIn(email, CONFORMANCE_PASSWORD);
    const old = session.getRefreshToken().getToken();
    const rotated = await getTokens(old);
    await sdk.send(new RevokeTokenCommand({ ClientId: target.clientId, Token: rotated.refreshToken! }));
    await expectServiceError(getTokens(rotated.refreshToken!), 'NotAuthorizedException');
    // Still inside the grace period, but revoked with its family.
    await expectServiceError(getTokens(old), 'NotAuthorizedException');
  });

  it(`after a global sign-out every refresh token of the family is refused with NotAuthorizedException (${DOCS.globalSignOut})`, async (ctx) => {
    if (!local()) return ctx.skip(LOCAL_ONLY);
    const email = await freshUser('salida');
    const { user, session } = await signIn(email, CONFORMANCE_PASSWORD);
    const old = session.getRefreshToken().getToken();
    const rotated = await getTokens(old);
    await new Promise<void>((resolve, reject) => user.globalSignOut({ onSuccess: () => resolve(), onFailure: (e: Error) => reject(e) }));
    // Sent with the SDK: amazon-cognito-identity-js retries a failed refresh with back-off for about 5 s before
    // it reports the error (its Client.requestWithRetry), which only slows the test down.
    await expectServiceError(getTokens(rotated.refreshToken!), 'NotAuthorizedException');
    await expectServiceError(getTokens(old), 'NotAuthorizedException');
  });

  it(`changes the password with the access token; the old one then fails (${DOCS.changePassword})`, async (ctx) => {
    if (!local()) return ctx.skip(LOCAL_ONLY);
    const email = await freshUser('cambio');
    const { user } = await signIn(email, CONFORMANCE_PASSWORD);
    await callback<'SUCCESS'>((cb) => user.changePassword(CONFORMANCE_PASSWORD, 'otra-clave-9', cb));
    await expectServiceError(
      callback((cb) => user.changePassword('not-the-password', 'tercera-clave', cb)),
      'NotAuthorizedException',
      'Incorrect username or password.',
    );
    await expectServiceError(signIn(email, CONFORMANCE_PASSWORD), 'NotAuthorizedException', 'Incorrect username or password.');
    await signIn(email, 'otra-clave-9');
  });
});

describe('forgot password', () => {
  const forgot = (email: string) =>
    new Promise<{ CodeDeliveryDetails: { AttributeName: string; DeliveryMedium: string; Destination: string } }>((resolve, reject) =>
      userOf(email).forgotPassword({
        onSuccess: (data) => resolve(data as never),
        onFailure: (e: Error) => reject(e),
        inputVerificationCode: (data) => resolve(data as never),
      }),
    );
  const confirm = (email: string, code: string, password: string) =>
    new Promise<void>((resolve, reject) =>
      userOf(email).confirmPassword(code, password, { onSuccess: () => resolve(), onFailure: (e: Error) => reject(e) }),
    );

  it(`sends a code to the masked verified address and resets the password with it (${DOCS.forgotPassword})`, async (ctx) => {
    if (!local()) return ctx.skip(LOCAL_ONLY);
    const email = await freshUser('olvido');
    const sent = await forgot(email);
    expect(sent.CodeDeliveryDetails).toEqual({ AttributeName: 'email', DeliveryMedium: 'EMAIL', Destination: 'o***@a***' });
    await expectServiceError(confirm(email, '000000', 'nueva-clave-1'), 'CodeMismatchException', 'Invalid verification code provided, please try again.');
    await confirm(email, await target.codeFor(email, 'ForgotPassword'), 'nueva-clave-1');
    await signIn(email, 'nueva-clave-1');
  });

  it(`confirming a reset of an unknown user is CodeMismatchException, never UserNotFoundException (${DOCS.userExistence})`, async () => {
    await expectServiceError(confirm(`nadie.${randomUUID().slice(0, 8)}@example.com`, '123456', 'nueva-clave-1'), 'CodeMismatchException');
  });

  it(`confirming a sign-up of an unknown user is CodeMismatchException and a resend is simulated, never UserNotFoundException (${DOCS.userExistence})`, async (ctx) => {
    if (!target.selfSignUp) return ctx.skip(SIGN_UP_OFF);
    const nobody = `nadie.${randomUUID().slice(0, 8)}@example.com`;
    await expectServiceError(callback((cb) => userOf(nobody).confirmRegistration('123456', false, cb)), 'CodeMismatchException');
    const resent = await callback<{ CodeDeliveryDetails: { Destination: string } }>((cb) => userOf(nobody).resendConfirmationCode(cb));
    expect(resent.CodeDeliveryDetails.Destination).toMatch(MASKED);
  });

  it(`an unknown user gets a simulated, masked delivery of the same shape (${DOCS.userExistence})`, async () => {
    const sent = await forgot(`nadie.${randomUUID().slice(0, 8)}@example.com`);
    expect(sent.CodeDeliveryDetails.AttributeName).toBe('email');
    expect(sent.CodeDeliveryDetails.DeliveryMedium).toBe('EMAIL');
    expect(sent.CodeDeliveryDetails.Destination).toMatch(MASKED);
  });
});

describe('sign-up, resend and confirm', () => {
  it(`signs up unconfirmed, refuses sign-in until confirmed, resends and confirms the code (${DOCS.signUp})`, async (ctx) => {
    if (!target.selfSignUp) return ctx.skip(SIGN_UP_OFF);
    if (!local()) return ctx.skip(LOCAL_ONLY);
    const email = `alta.${randomUUID().slice(0, 8)}@example.com`;
    const attributes = [new CognitoUserAttribute({ Name: 'email', Value: email })];
    const result = await callback<ISignUpResult>((cb) => pool.signUp(email, CONFORMANCE_PASSWORD, attributes, [], cb));
    expect(result.userConfirmed).toBe(false);
    expect(result.codeDeliveryDetails).toMatchObject({ AttributeName: 'email', DeliveryMedium: 'EMAIL', Destination: expect.stringMatching(MASKED) });
    await expectServiceError(signIn(email, CONFORMANCE_PASSWORD), 'UserNotConfirmedException');
    const resent = await callback<{ CodeDeliveryDetails: { Destination: string } }>((cb) => userOf(email).resendConfirmationCode(cb));
    expect(resent.CodeDeliveryDetails.Destination).toMatch(MASKED);
    await expectServiceError(
      callback((cb) => userOf(email).confirmRegistration('000000', false, cb)),
      'CodeMismatchException',
    );
    const code = await target.codeFor(email, 'ResendConfirmationCode');
    expect(await callback<string>((cb) => userOf(email).confirmRegistration(code, false, cb))).toBe('SUCCESS');
    const { session } = await signIn(email, CONFORMANCE_PASSWORD);
    expect(decodeJwt(session.getIdToken().getJwtToken())).toMatchObject({ email, email_verified: true });
  });

  it(`refuses a password shorter than the policy with InvalidPasswordException, and a taken e-mail with UsernameExistsException (${DOCS.passwordPolicy})`, async (ctx) => {
    if (!target.selfSignUp) return ctx.skip(SIGN_UP_OFF);
    if (!local()) return ctx.skip(LOCAL_ONLY);
    const email = `corta.${randomUUID().slice(0, 8)}@example.com`;
    const attributes = [new CognitoUserAttribute({ Name: 'email', Value: email })];
    await expectServiceError(callback((cb) => pool.signUp(email, 'corta', attributes, [], cb)), 'InvalidPasswordException', /Password not long enough/);
    const taken = target.user!.email;
    await expectServiceError(
      callback((cb) => pool.signUp(taken, CONFORMANCE_PASSWORD, [new CognitoUserAttribute({ Name: 'email', Value: taken })], [], cb)),
      'UsernameExistsException',
    );
  });
});

describe('changing the e-mail (keepOriginal)', () => {
  it(`keeps the old, verified address in the ID token until the new one is verified (${DOCS.keepOriginal})`, async (ctx) => {
    if (!local()) return ctx.skip(LOCAL_ONLY);
    const email = await freshUser('correo');
    const next = `nuevo.${randomUUID().slice(0, 8)}@acme.example`;
    const { user, session } = await signIn(email, CONFORMANCE_PASSWORD);
    await callback((cb) => user.updateAttributes([new CognitoUserAttribute({ Name: 'email', Value: next })], cb));
    const renewed = await getTokens(session.getRefreshToken().getToken());
    const pending = decodeJwt(renewed.idToken);
    expect(pending).toMatchObject({ email, email_verified: true });
    await expectServiceError(
      new Promise((resolve, reject) => user.verifyAttribute('email', '000000', { onSuccess: resolve, onFailure: reject })),
      'CodeMismatchException',
    );
    const code = await target.codeFor(next, 'UpdateUserAttributes');
    await new Promise((resolve, reject) => user.verifyAttribute('email', code, { onSuccess: resolve, onFailure: reject }));
    const verified = decodeJwt((await getTokens(renewed.refreshToken!)).idToken);
    expect(verified).toMatchObject({ email: next, email_verified: true });
  });
});
