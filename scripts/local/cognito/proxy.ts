/**
 * The Cognito compatibility proxy: a `node:http` server on the public user-pool endpoint that forwards every
 * request to cognito-local unchanged, except the `X-Amz-Target`s listed in {@link createProxy}'s dispatch table,
 * which it completes or answers itself (the gaps are listed in docs/local-emulation.md#cognito-user-pool).
 *
 * To support another target, add an entry to `handlers` (`(body, ctx) => Promise<response JSON>`; throw
 * {@link CognitoError} for service errors, use `ctx.call` to reach cognito-local).
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { appendFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CognitoError, checkPassword, VIGIA_PASSWORD_POLICY, type CognitoErrorShape, type PasswordPolicy } from './policy.js';
import { DeviceStore, toDeviceType } from './devices.js';
import { checkAttributeWrite, clientWriteAttributes } from './attributes.js';
import { createSrpChallenge, parseSrpTimestamp, verifyPasswordClaim, type SrpChallenge } from './srp.js';
import {
  attributeValue,
  findUser,
  readAppClient,
  readPool,
  recordSentCode,
  type LocalAppClient,
  type LocalPoolFile,
  type LocalUser,
} from './store.js';
import type { RefreshTokenRotation } from './rotation.js';
import { decodeClaims, type RevocationRegistry, type TokenVerifier } from './tokens.js';
import { SignatureRefused, verifySignatureV4 } from '../collector-auth.js';
import type { CollectorCredential } from '../config.js';
import type { LocalIdentityProviders } from './identity-providers.js';
import type { ExpectedTokenIssue, TokenIssueFlows } from './pre-token-event.js';

/** What the proxy needs from its surroundings. */
export interface ProxyOptions {
  /** Working directory of cognito-local (its `.cognito/` lives here) and of the proxy's own files. */
  dataDir: string;
  userPoolId: string;
  userPoolClientId: string;
  /** cognito-local's base URL, e.g. `http://127.0.0.1:9230`. */
  upstream: string;
  /** Public base URL of this proxy, e.g. `http://127.0.0.1:9229` (issuer = `<endpoint>/<userPoolId>`). */
  endpoint: string;
  verifier: TokenVerifier;
  registry: RevocationRegistry;
  /** Refresh token families of app clients with rotation on (./rotation.ts). */
  rotation: RefreshTokenRotation;
  /** Receives one line per code sent and per proxy-level failure. */
  log: (line: string) => void;
  /**
   * Access keys allowed to call the IAM-authorised (administrative) operations, SigV4-signed for
   * `cognito-idp` (`LOCAL_OPERATOR_CREDENTIAL` in scripts/local/config.ts). Empty: every such call is refused.
   */
  operatorCredentials: readonly CollectorCredential[];
  /**
   * File that receives one line per invitation (AdminCreateUser and its RESEND): time, e-mail, user name and
   * the temporary password, which the local pool does not e-mail (docs/local-emulation.md#invitations).
   */
  invitationsFile?: string;
  /** The pool's identity providers (Cognito's provider API, which cognito-local lacks; ./identity-providers.ts). */
  identityProviders?: LocalIdentityProviders;
  /** Where sign-ins completed in cognito-local announce their flow to the trigger (./pre-token-event.ts). */
  flows?: TokenIssueFlows;
}

type Json = Record<string, unknown>;

/** Context handed to each target handler. */
interface HandlerContext {
  /** Calls cognito-local; resolves with its JSON output, rejects with its error as a {@link CognitoError}. */
  call(target: string, body: Json): Promise<Json>;
}
type Handler = (body: Json, ctx: HandlerContext) => Promise<Json>;

const JSON_TYPE = 'application/x-amz-json-1.1';
const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'x-amzn-RequestId,x-amzn-ErrorType,x-amzn-ErrorMessage,Date',
};
/** Authentication sessions (PASSWORD_VERIFIER, NEW_PASSWORD_REQUIRED…) last 3 minutes, Cognito's default. */
const SESSION_TTL_MS = 3 * 60 * 1000;
const INCORRECT = 'Incorrect username or password.';
const INVALID_SESSION = 'Invalid session for the user, session is expired.';
/** Targets authorized by an access token (Cognito API reference: operations "authorized with an access token"). */
const ACCESS_TOKEN_TARGETS = new Set([
  'GetUser',
  'ChangePassword',
  'UpdateUserAttributes',
  'DeleteUser',
  'DeleteUserAttributes',
  'GetUserAttributeVerificationCode',
  'VerifyUserAttribute',
  'SetUserMFAPreference',
  'SetUserSettings',
  'AssociateSoftwareToken',
  'VerifySoftwareToken',
  'ListDevices',
  'GetDevice',
  'ForgetDevice',
  'UpdateDeviceStatus',
  'ConfirmDevice',
  'GlobalSignOut',
]);

/**
 * Operations Cognito serves without AWS credentials (the public, unauthenticated ones, and those authorised by
 * an access token, {@link ACCESS_TOKEN_TARGETS}). Every other target is IAM-authorised: it needs a SigV4
 * signature of an operator key (docs/local-emulation.md#administrative-operations).
 */
const PUBLIC_TARGETS = new Set([
  'InitiateAuth',
  'RespondToAuthChallenge',
  'SignUp',
  'ConfirmSignUp',
  'ResendConfirmationCode',
  'ForgotPassword',
  'ConfirmForgotPassword',
  'GetTokensFromRefreshToken',
  'RevokeToken',
]);
/** Service name in the credential scope of Cognito user pool requests. */
const COGNITO_IDP_SERVICE = 'cognito-idp';

/**
 * Cognito's answer to an IAM-authorised call without a valid signature (AWS common errors; JSON protocol
 * `__type`): no Authorization header, an unknown access key, or a signature that does not match.
 */
function iamError(err: SignatureRefused): CognitoError {
  if (err.fault === 'missing') return new CognitoError('MissingAuthenticationTokenException', 'Missing Authentication Token', 403);
  if (err.fault === 'unknown-key') return new CognitoError('UnrecognizedClientException', 'The security token included in the request is invalid.');
  return new CognitoError(
    'InvalidSignatureException',
    'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.',
  );
}

/** Cognito's masking of a code's e-mail destination: `a***@e***` (first letter of the local part and of the domain). */
export function maskEmail(address: string): string {
  const [local = '', domain = ''] = address.split('@');
  return `${local.slice(0, 1)}***@${domain.slice(0, 1)}***`;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});

/** A request's string map (ClientMetadata), or undefined. */
const stringMap = (v: unknown): Record<string, string> | undefined =>
  v && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.entries(v as Json).filter((e): e is [string, string] => typeof e[1] === 'string'))
    : undefined;

function throwIfBad(err: CognitoErrorShape | null): void {
  if (err) throw new CognitoError(err.type, err.message);
}

/**
 * Builds the request listener of the proxy. Also answers CORS preflights and
 * `GET /<userPoolId>/.well-known/openid-configuration` (cognito-local hard-codes localhost:9229 there).
 */
export function createProxy(opts: ProxyOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const srpSessions = new Map<string, { challenge: SrpChallenge; clientId: string; password: string | null; expires: number }>();
  const challengeSessions = new Map<string, { challengeName: string; username: string; clientId: string; deviceKey?: string; expires: number }>();
  const issuer = `${opts.endpoint}/${opts.userPoolId}`;
  // Unknown users get a USER_ID_FOR_SRP shaped like a real one (a UUID, the `sub` of this e-mail-as-username
  // pool), the same for the same name while the pool runs, so SRP step 1 does not tell them apart.
  const fakeIdKey = randomBytes(32);
  const fakeUserId = (name: string): string => {
    const h = createHmac('sha256', fakeIdKey).update(name.toLowerCase()).digest('hex');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  };
  const devices = new DeviceStore(opts.dataDir, opts.userPoolId.split('_')[0] || 'local');

  const prune = (): void => {
    const now = Date.now();
    for (const [key, s] of srpSessions) if (s.expires < now) srpSessions.delete(key);
    for (const [key, s] of challengeSessions) if (s.expires < now) challengeSessions.delete(key);
  };

  async function call(target: string, body: Json): Promise<Json> {
    const response = await fetch(`${opts.upstream}/`, {
      method: 'POST',
      headers: { 'content-type': JSON_TYPE, 'x-amz-target': `AWSCognitoIdentityProviderService.${target}` },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    const json = text ? (JSON.parse(text) as Json) : {};
    if (!response.ok) {
      throw new CognitoError(str(json.__type) ?? 'InternalErrorException', str(json.message) ?? text, response.status);
    }
    return json;
  }
  const ctx: HandlerContext = { call };

  /** A cognito-local sign-in whose token issue the trigger must see as `issue` (Cognito's flow; ./pre-token-event.ts). */
  const signInUpstream = <T>(username: string, issue: ExpectedTokenIssue, run: () => Promise<T>): Promise<T> =>
    opts.flows ? opts.flows.run(username, issue, run) : run();

  async function pool(): Promise<LocalPoolFile> {
    const p = await readPool(opts.dataDir, opts.userPoolId);
    if (!p) throw new CognitoError('ResourceNotFoundException', `User pool ${opts.userPoolId} does not exist.`);
    return p;
  }
  const policy = async (): Promise<PasswordPolicy> => (await pool()).Options.Policies?.PasswordPolicy ?? VIGIA_PASSWORD_POLICY;
  const userByName = async (username: unknown): Promise<LocalUser | null> =>
    typeof username === 'string' ? findUser(await pool(), username) : null;

  async function appClient(clientId: unknown): Promise<LocalAppClient> {
    const client = typeof clientId === 'string' ? await readAppClient(opts.dataDir, clientId) : null;
    if (!client) throw new CognitoError('ResourceNotFoundException', `User pool client ${String(clientId)} does not exist.`);
    return client;
  }
  function requireFlow(client: LocalAppClient, flow: string, allow: string): void {
    if (client.ExplicitAuthFlows && !client.ExplicitAuthFlows.includes(allow)) {
      throw new CognitoError('InvalidParameterException', `${flow} flow not enabled for this client`);
    }
  }

  /** Appends `<ISO time> <e-mail> user <name> temporary password <password>` to `opts.invitationsFile`. */
  async function logInvitation(user: LocalUser | null, password: string): Promise<void> {
    if (!opts.invitationsFile || !user) return;
    const line = `${new Date().toISOString()} ${attributeValue(user, 'email') ?? '-'} user ${user.Username} temporary password ${password}\n`;
    await appendFile(opts.invitationsFile, line);
  }

  async function logCode(user: LocalUser | null, purpose: string, code: string | undefined, to?: string): Promise<void> {
    const destination = to ?? (user ? attributeValue(user, 'email') : undefined);
    if (!user || !destination || !code) return;
    await recordSentCode(opts.dataDir, { time: new Date().toISOString(), destination, username: user.Username, purpose, code });
    opts.log(`${purpose}: code ${code} sent to ${destination}`);
  }

  /**
   * Device tracking of a completed sign-in (not a refresh), when the pool has a `DeviceConfiguration`: a DEVICE_KEY
   * of a device of this user stamps its LastAuthenticatedDate; otherwise a new device is issued and returned as
   * `NewDeviceMetadata`. The pool never issues DEVICE_SRP_AUTH (ChallengeRequiredOnNewDevice false), so a known
   * device key is trusted without the device's SRP proof — local only.
   */
  async function trackDevice(result: Json, deviceKey: string | undefined): Promise<Json> {
    const auth = result.AuthenticationResult as Json | undefined;
    if (!auth || !(await pool()).Options.DeviceConfiguration) return result;
    const username = str(decodeClaims(auth.AccessToken)?.username);
    if (!username) return result;
    const known = deviceKey
      ? await devices.modify(username, deviceKey, (d) => {
          d.LastAuthenticatedDate = new Date().toISOString();
        })
      : null;
    if (known) return result;
    return { ...result, AuthenticationResult: { ...auth, NewDeviceMetadata: await devices.issue(username) } };
  }

  /** Completes an authentication response: records issued tokens / challenge sessions; adds ExpiresIn, TokenType. */
  function afterAuth(result: Json, clientId: string, usedRefreshToken?: string, deviceKey?: string): Json {
    const auth = result.AuthenticationResult as Json | undefined;
    if (auth) {
      opts.registry.recordIssued(auth, usedRefreshToken);
      const claims = decodeClaims(auth.AccessToken);
      const expiresIn = claims?.exp && claims.iat ? claims.exp - claims.iat : 3600;
      const clean = Object.fromEntries(Object.entries(auth).filter(([, v]) => v !== undefined && v !== null));
      return { ...result, ChallengeParameters: result.ChallengeParameters ?? {}, AuthenticationResult: { ...clean, ExpiresIn: expiresIn, TokenType: 'Bearer' } };
    }
    const session = str(result.Session);
    const challengeName = str(result.ChallengeName);
    if (session && challengeName) {
      prune();
      const username = str(obj(result.ChallengeParameters).USER_ID_FOR_SRP) ?? '';
      challengeSessions.set(session, { challengeName, username, clientId, deviceKey, expires: Date.now() + SESSION_TTL_MS });
    }
    return result;
  }

  /** cognito-local's REFRESH_TOKEN_AUTH with one of its own refresh tokens; a token it no longer lists is revoked. */
  async function refreshUpstream(clientId: string, refreshToken: string): Promise<Json> {
    try {
      return await call('InitiateAuth', { ClientId: clientId, AuthFlow: 'REFRESH_TOKEN_AUTH', AuthParameters: { REFRESH_TOKEN: refreshToken } });
    } catch (err) {
      // cognito-local refuses refresh tokens no longer in the user's list (revoked, or user gone).
      if (err instanceof CognitoError && err.type === 'NotAuthorizedException') {
        throw new CognitoError('NotAuthorizedException', 'Refresh Token has been revoked');
      }
      throw err;
    }
  }

  /**
   * A refresh (GetTokensFromRefreshToken, or REFRESH_TOKEN_AUTH where the client allows it). With the client's
   * refresh token rotation on, the answer carries the family's next refresh token (./rotation.ts); otherwise
   * only new ID and access tokens.
   * @throws CognitoError NotAuthorizedException for an invalid, expired, revoked or (rotation) superseded token.
   */
  async function refresh(clientId: string, refreshToken: unknown, client: LocalAppClient): Promise<Json> {
    const claims = await opts.verifier.verifyRefreshToken(refreshToken);
    const token = refreshToken as string;
    const rotation = client.RefreshTokenRotation;
    if (rotation?.Feature !== 'ENABLED') return afterAuth(await refreshUpstream(clientId, token), clientId, token);
    const step = opts.rotation.begin(token, claims, rotation.RetryGracePeriodSeconds ?? 0);
    const result = await refreshUpstream(clientId, step.anchor);
    const auth = obj(result.AuthenticationResult);
    return afterAuth({ ...result, AuthenticationResult: { ...auth, RefreshToken: await step.rotate() } }, clientId);
  }

  /** Revokes every refresh token of the user in cognito-local and refuses its older tokens here. */
  async function signOutUser(username: string): Promise<void> {
    const user = await userByName(username);
    for (const token of user?.RefreshTokens ?? []) {
      await call('RevokeToken', { ClientId: opts.userPoolClientId, Token: token }).catch(() => undefined);
    }
    await opts.registry.revokeUser(user?.Username ?? username);
  }

  async function passwordAuthCheck(usernameInput: unknown, password: unknown): Promise<LocalUser> {
    const user = await userByName(usernameInput);
    if (!user || typeof password !== 'string' || user.Password !== password) throw new CognitoError('NotAuthorizedException', INCORRECT);
    if (user.Enabled === false) throw new CognitoError('NotAuthorizedException', 'User is disabled.');
    return user;
  }

  const tokenUser = async (accessToken: unknown): Promise<string> => (await opts.verifier.verifyAccessToken(accessToken)).username;
  const deviceNotFound = (key: unknown): CognitoError => new CognitoError('ResourceNotFoundException', `Device ${String(key)} not found.`);

  const simulatedDelivery = (username: unknown): Json => ({
    CodeDeliveryDetails: { AttributeName: 'email', DeliveryMedium: 'EMAIL', Destination: maskEmail(String(username ?? '')) },
  });

  const idpHandlers: Record<string, Handler> = opts.identityProviders?.handlers() ?? {};
  const handlers: Record<string, Handler> = {
    async InitiateAuth(body) {
      const clientId = str(body.ClientId) ?? '';
      const client = await appClient(clientId);
      const params = obj(body.AuthParameters);
      switch (body.AuthFlow) {
        case 'USER_SRP_AUTH': {
          requireFlow(client, 'USER_SRP_AUTH', 'ALLOW_USER_SRP_AUTH');
          const username = str(params.USERNAME);
          const srpA = str(params.SRP_A);
          if (!username) throw new CognitoError('InvalidParameterException', 'Missing required parameter USERNAME');
          if (!srpA) throw new CognitoError('InvalidParameterException', 'Missing required parameter SRP_A');
          const user = await userByName(username);
          // Unknown user: answer with a challenge nobody can satisfy (user-existence errors prevented).
          const password = user?.Password ?? null;
          let challenge: SrpChallenge;
          try {
            challenge = createSrpChallenge({
              userPoolId: opts.userPoolId,
              userIdForSrp: user?.Username ?? fakeUserId(username),
              password: password ?? randomBytes(32).toString('hex'),
              srpA,
            });
          } catch (err) {
            throw new CognitoError('InvalidParameterException', (err as Error).message);
          }
          prune();
          srpSessions.set(challenge.challengeParameters.SECRET_BLOCK, { challenge, clientId, password, expires: Date.now() + SESSION_TTL_MS });
          return { ChallengeName: 'PASSWORD_VERIFIER', ChallengeParameters: challenge.challengeParameters };
        }
        case 'USER_PASSWORD_AUTH': {
          requireFlow(client, 'USER_PASSWORD_AUTH', 'ALLOW_USER_PASSWORD_AUTH');
          const user = await passwordAuthCheck(params.USERNAME, params.PASSWORD);
          const { DEVICE_KEY: deviceKey, ...rest } = params;
          const result = await call('InitiateAuth', { ...body, AuthParameters: { ...rest, USERNAME: user.Username } });
          return afterAuth(await trackDevice(result, str(deviceKey)), clientId, undefined, str(deviceKey));
        }
        case 'REFRESH_TOKEN_AUTH':
        case 'REFRESH_TOKEN':
          // Refused when the client rotates refresh tokens (rotation leaves ALLOW_REFRESH_TOKEN_AUTH out).
          requireFlow(client, 'REFRESH_TOKEN_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH');
          return refresh(clientId, params.REFRESH_TOKEN, client);
        default:
          return call('InitiateAuth', body);
      }
    },

    async RespondToAuthChallenge(body) {
      const clientId = str(body.ClientId) ?? '';
      await appClient(clientId);
      const responses = obj(body.ChallengeResponses);
      if (body.ChallengeName === 'PASSWORD_VERIFIER') {
        const secretBlock = str(responses.PASSWORD_CLAIM_SECRET_BLOCK) ?? '';
        const session = srpSessions.get(secretBlock);
        srpSessions.delete(secretBlock);
        if (!session || session.expires < Date.now() || session.clientId !== clientId) {
          throw new CognitoError('NotAuthorizedException', INVALID_SESSION);
        }
        const timestamp = str(responses.TIMESTAMP) ?? '';
        if (parseSrpTimestamp(timestamp) === null) {
          throw new CognitoError('InvalidParameterException', 'TIMESTAMP format is invalid; expected "EEE MMM d HH:mm:ss z yyyy"');
        }
        const signatureOk =
          session.password !== null &&
          responses.USERNAME === session.challenge.userIdForSrp &&
          verifyPasswordClaim(session.challenge, timestamp, str(responses.PASSWORD_CLAIM_SIGNATURE) ?? '');
        if (!signatureOk) throw new CognitoError('NotAuthorizedException', INCORRECT);
        // The password is proven: let cognito-local decide the outcome (tokens, NEW_PASSWORD_REQUIRED,
        // UserNotConfirmedException, MFA…) with its own USER_PASSWORD_AUTH.
        const user = await passwordAuthCheck(session.challenge.userIdForSrp, session.password);
        // cognito-local drops InitiateAuth's ClientMetadata; Cognito passes RespondToAuthChallenge's to the trigger.
        const result = await signInUpstream(user.Username, { triggerSource: 'TokenGeneration_Authentication', clientMetadata: stringMap(body.ClientMetadata) }, () =>
          call('InitiateAuth', {
            ClientId: clientId,
            AuthFlow: 'USER_PASSWORD_AUTH',
            AuthParameters: { USERNAME: user.Username, PASSWORD: session.password },
            ClientMetadata: body.ClientMetadata,
          }),
        );
        const deviceKey = str(responses.DEVICE_KEY);
        return afterAuth(await trackDevice(result, deviceKey), clientId, undefined, deviceKey);
      }

      // Other challenges: only sessions this pool issued, for that challenge, user and app client.
      const sessionId = str(body.Session) ?? '';
      const session = challengeSessions.get(sessionId);
      const user = await userByName(responses.USERNAME);
      if (
        !session ||
        session.expires < Date.now() ||
        session.challengeName !== body.ChallengeName ||
        session.clientId !== clientId ||
        !user ||
        user.Username !== session.username
      ) {
        throw new CognitoError('NotAuthorizedException', INVALID_SESSION);
      }
      if (body.ChallengeName === 'NEW_PASSWORD_REQUIRED') {
        const newPassword = responses.NEW_PASSWORD;
        throwIfBad(checkPassword(newPassword, await policy(), 'challengeResponses.NEW_PASSWORD'));
        await call('RespondToAuthChallenge', body);
        challengeSessions.delete(sessionId);
        // cognito-local does not store the refresh token it issues here, so sign in again with the new
        // password: the tokens (or next challenge) are then cognito-local's regular ones.
        const result = await signInUpstream(user.Username, { triggerSource: 'TokenGeneration_NewPasswordChallenge', clientMetadata: stringMap(body.ClientMetadata) }, () =>
          call('InitiateAuth', {
            ClientId: clientId,
            AuthFlow: 'USER_PASSWORD_AUTH',
            AuthParameters: { USERNAME: user.Username, PASSWORD: newPassword },
          }),
        );
        return afterAuth(await trackDevice(result, session.deviceKey), clientId, undefined, session.deviceKey);
      }
      const { DEVICE_KEY: _deviceKey, ...forwarded } = responses;
      const result = await call('RespondToAuthChallenge', { ...body, ChallengeResponses: forwarded });
      challengeSessions.delete(sessionId);
      return afterAuth(await trackDevice(result, session.deviceKey), clientId, undefined, session.deviceKey);
    },

    async AdminInitiateAuth(body) {
      const client = await appClient(body.ClientId);
      if (body.AuthFlow === 'ADMIN_USER_PASSWORD_AUTH' || body.AuthFlow === 'ADMIN_NO_SRP_AUTH') {
        if (client.ExplicitAuthFlows && !client.ExplicitAuthFlows.includes('ALLOW_ADMIN_USER_PASSWORD_AUTH')) {
          throw new CognitoError('InvalidParameterException', 'Auth flow not enabled for this client');
        }
      }
      // A client that rotates refresh tokens has no ALLOW_REFRESH_TOKEN_AUTH: refresh is GetTokensFromRefreshToken only.
      if (body.AuthFlow === 'REFRESH_TOKEN_AUTH' || body.AuthFlow === 'REFRESH_TOKEN') {
        if (client.ExplicitAuthFlows && !client.ExplicitAuthFlows.includes('ALLOW_REFRESH_TOKEN_AUTH')) {
          throw new CognitoError('InvalidParameterException', 'Auth flow not enabled for this client');
        }
      }
      return call('AdminInitiateAuth', body);
    },

    async GetTokensFromRefreshToken(body) {
      const clientId = str(body.ClientId) ?? '';
      const client = await appClient(clientId);
      if (client.RefreshTokenRotation?.Feature !== 'ENABLED') requireFlow(client, 'REFRESH_TOKEN_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH');
      const result = await refresh(clientId, body.RefreshToken, client);
      return { AuthenticationResult: result.AuthenticationResult };
    },

    async GlobalSignOut(body) {
      const claims = await opts.verifier.verifyAccessToken(body.AccessToken);
      await signOutUser(claims.username);
      return {};
    },

    async AdminUserGlobalSignOut(body) {
      if (body.UserPoolId !== opts.userPoolId) throw new CognitoError('ResourceNotFoundException', `User pool ${String(body.UserPoolId)} does not exist.`);
      const user = await userByName(body.Username);
      if (!user) throw new CognitoError('UserNotFoundException', 'User does not exist.');
      await signOutUser(user.Username);
      return {};
    },

    async RevokeToken(body) {
      await appClient(body.ClientId);
      let claims;
      try {
        claims = await opts.verifier.verifyRefreshToken(body.Token);
      } catch (err) {
        // Revoking an already revoked token succeeds (idempotent); any other token is refused.
        if (err instanceof CognitoError && err.message === 'Refresh Token has been revoked') return {};
        throw new CognitoError('UnsupportedTokenTypeException', 'The token is not a valid refresh token of this user pool.');
      }
      // Revoking any token of a rotated family ends the family: its anchor is revoked in cognito-local and every
      // member (and the access tokens issued with it) is refused here.
      const family = opts.rotation.familyOf(claims.jti);
      await call('RevokeToken', { ClientId: body.ClientId, Token: family?.anchor ?? body.Token }).catch(() => undefined);
      for (const member of family?.members ?? []) {
        if (member.jti !== claims.jti) await opts.registry.revokeRefreshToken({ ...claims, jti: member.jti, exp: member.exp });
      }
      await opts.registry.revokeRefreshToken(claims);
      return {};
    },

    async SignUp(body) {
      const client = await appClient(body.ClientId);
      throwIfBad(checkPassword(body.Password, await policy(), 'password'));
      // The schema and the client's WriteAttributes (./attributes.ts): no `identities`, `email_verified`, `sub` or
      // undeclared `custom:` attribute from a self-registration.
      throwIfBad(checkAttributeWrite(body.UserAttributes, { kind: 'client', writeAttributes: clientWriteAttributes(client) }));
      const result = await call('SignUp', body);
      const user = await userByName(result.UserSub);
      await logCode(user, 'SignUp', user?.ConfirmationCode);
      const email = user && attributeValue(user, 'email');
      return email ? { ...result, CodeDeliveryDetails: { AttributeName: 'email', DeliveryMedium: 'EMAIL', Destination: maskEmail(email) } } : result;
    },

    async ConfirmSignUp(body) {
      await appClient(body.ClientId);
      // User-existence errors prevented: an unknown user is a wrong code, not UserNotFoundException.
      if (!(await userByName(body.Username))) throw new CognitoError('CodeMismatchException', 'Invalid verification code provided, please try again.');
      const result = await call('ConfirmSignUp', body);
      // Confirming the code sent by e-mail verifies the address (AutoVerifiedAttributes: email).
      const user = await userByName(body.Username);
      const email = user && attributeValue(user, 'email');
      if (user && email && attributeValue(user, 'email_verified') !== 'true') {
        await call('AdminUpdateUserAttributes', {
          UserPoolId: opts.userPoolId,
          Username: user.Username,
          UserAttributes: [
            { Name: 'email', Value: email },
            { Name: 'email_verified', Value: 'true' },
          ],
        });
      }
      return result;
    },

    async ResendConfirmationCode(body) {
      await appClient(body.ClientId);
      const user = await userByName(body.Username);
      if (!user) return simulatedDelivery(body.Username);
      if (user.UserStatus !== 'UNCONFIRMED') throw new CognitoError('InvalidParameterException', 'User is already confirmed.');
      const email = attributeValue(user, 'email');
      if (!user.ConfirmationCode || !email) {
        throw new CognitoError('InvalidParameterException', 'Cannot resend codes. Auto verification not turned on.');
      }
      // cognito-local keeps the pending code until confirmation; with the fixed offline code it stays valid.
      await logCode(user, 'ResendConfirmationCode', user.ConfirmationCode);
      return { CodeDeliveryDetails: { AttributeName: 'email', DeliveryMedium: 'EMAIL', Destination: maskEmail(email) } };
    },

    async ForgotPassword(body) {
      await appClient(body.ClientId);
      const user = await userByName(body.Username);
      // Unknown users and users without a verified address get a simulated delivery (user-existence errors
      // prevented); nothing is sent.
      const email = user && attributeValue(user, 'email');
      if (!user || !email || attributeValue(user, 'email_verified') !== 'true') return simulatedDelivery(email ?? body.Username);
      await call('ForgotPassword', body);
      const updated = await userByName(user.Username);
      await logCode(updated, 'ForgotPassword', updated?.ConfirmationCode);
      return { CodeDeliveryDetails: { AttributeName: 'email', DeliveryMedium: 'EMAIL', Destination: maskEmail(email) } };
    },

    async ConfirmForgotPassword(body) {
      await appClient(body.ClientId);
      throwIfBad(checkPassword(body.Password, await policy(), 'password'));
      const user = await userByName(body.Username);
      if (!user) throw new CognitoError('CodeMismatchException', 'Invalid verification code provided, please try again.');
      try {
        return await call('ConfirmForgotPassword', body);
      } catch (err) {
        if (err instanceof CognitoError && err.type === 'CodeMismatchException') {
          throw new CognitoError('CodeMismatchException', 'Invalid verification code provided, please try again.');
        }
        throw err;
      }
    },

    async ChangePassword(body) {
      throwIfBad(checkPassword(body.ProposedPassword, await policy(), 'proposedPassword'));
      try {
        return await call('ChangePassword', body);
      } catch (err) {
        // cognito-local reports a wrong PreviousPassword as InvalidPasswordException.
        if (err instanceof CognitoError && err.type === 'InvalidPasswordException') throw new CognitoError('NotAuthorizedException', INCORRECT);
        throw err;
      }
    },

    async AdminSetUserMFAPreference(body) {
      // cognito-local has no administrative MFA call. Its SetUserMFAPreference takes the user from the access
      // token's `client_id` and `sub` without verifying the token, so a token naming the user stands in for the
      // operator, whose SigV4 signature the proxy has verified (docs/local-emulation.md#administrative-operations).
      const user = await userByName(str(body.Username));
      if (!user) throw new CognitoError('UserNotFoundException', 'User does not exist.');
      const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
      const accessToken = `${part({ alg: 'none', typ: 'JWT' })}.${part({ client_id: opts.userPoolClientId, sub: user.Username, token_use: 'access' })}.x`;
      await call('SetUserMFAPreference', {
        AccessToken: accessToken,
        ...(body.SoftwareTokenMfaSettings ? { SoftwareTokenMfaSettings: body.SoftwareTokenMfaSettings } : {}),
        ...(body.SMSMfaSettings ? { SMSMfaSettings: body.SMSMfaSettings } : {}),
      });
      return {};
    },

    async AdminUpdateUserAttributes(body) {
      // An administrator may set email_verified, never `identities` or an undeclared custom attribute (./attributes.ts).
      throwIfBad(checkAttributeWrite(body.UserAttributes, { kind: 'admin' }));
      return call('AdminUpdateUserAttributes', body);
    },

    async AdminSetUserPassword(body) {
      throwIfBad(checkPassword(body.Password, await policy(), 'password'));
      return call('AdminSetUserPassword', body);
    },

    async CreateGroup(body) {
      // cognito-local silently REPLACES an existing group (dropping its members); the real pool refuses.
      const name = str(body.GroupName);
      if (name && (await pool()).Groups?.[name]) {
        throw new CognitoError('GroupExistsException', 'A group with the name already exists.');
      }
      return call('CreateGroup', body);
    },

    async AdminCreateUser(body) {
      throwIfBad(checkAttributeWrite(body.UserAttributes, { kind: 'admin' }));
      const p = await policy();
      if (body.MessageAction === 'RESEND') {
        // Cognito sends a new temporary password to a user still in FORCE_CHANGE_PASSWORD.
        const user = await userByName(str(body.Username));
        if (!user) throw new CognitoError('UserNotFoundException', 'User does not exist.');
        if (user.UserStatus !== 'FORCE_CHANGE_PASSWORD') throw new CognitoError('UnsupportedUserStateException', 'Resend not possible. User has already set a password.');
        const password = `Tmp-${randomBytes(6).toString('hex')}9aA!`;
        await call('AdminSetUserPassword', { UserPoolId: body.UserPoolId, Username: user.Username, Password: password, Permanent: false });
        await logCode(user, 'AdminCreateUser', password);
        await logInvitation(user, password);
        const got = await call('AdminGetUser', { UserPoolId: body.UserPoolId, Username: user.Username });
        return { User: { Username: got.Username, Attributes: got.UserAttributes, Enabled: got.Enabled, UserStatus: got.UserStatus, UserCreateDate: got.UserCreateDate } };
      }
      // Without TemporaryPassword cognito-local would use CODE (123456), which breaks the policy; the real pool
      // generates one that conforms.
      const temporaryPassword = str(body.TemporaryPassword) ?? `Tmp-${randomBytes(6).toString('hex')}9aA!`;
      throwIfBad(checkPassword(temporaryPassword, p, 'temporaryPassword'));
      const result = await call('AdminCreateUser', { ...body, TemporaryPassword: temporaryPassword, DesiredDeliveryMediums: body.DesiredDeliveryMediums ?? ['EMAIL'] });
      if (body.MessageAction !== 'SUPPRESS') {
        const created = await userByName(str(obj(result.User).Username));
        await logCode(created, 'AdminCreateUser', temporaryPassword);
        await logInvitation(created, temporaryPassword);
      }
      return result;
    },

    async GetUserAttributeVerificationCode(body) {
      const result = await call('GetUserAttributeVerificationCode', body);
      const user = await userByName(decodeClaims(body.AccessToken)?.username);
      // With an e-mail change pending verification, the code goes to the new address.
      const to = user?.UnverifiedAttributeChanges?.find((a) => a.Name === 'email')?.Value ?? (user ? attributeValue(user, 'email') : undefined);
      await logCode(user, 'GetUserAttributeVerificationCode', user?.AttributeVerificationCode, to);
      return to ? { ...result, CodeDeliveryDetails: { AttributeName: 'email', DeliveryMedium: 'EMAIL', Destination: maskEmail(to) } } : result;
    },

    async GetUser(body) {
      const result = await call('GetUser', body);
      // The service omits UserMFASettingList when no MFA method is enabled; cognito-local returns [] after
      // SetUserMFAPreference disables the last one (Amplify's fetchMFAPreference then reports `enabled: []`).
      if (Array.isArray(result.UserMFASettingList) && result.UserMFASettingList.length === 0) {
        const { UserMFASettingList: _empty, PreferredMfaSetting: _none, ...rest } = result;
        return rest;
      }
      return result;
    },

    // Remembered devices (cognito-local has none of these targets): ./devices.ts; the access token is verified in
    // handlePost, its `username` names the owner. Unknown keys: ResourceNotFoundException, as the service says.
    async ConfirmDevice(body) {
      const username = await tokenUser(body.AccessToken);
      const device = await devices.modify(username, body.DeviceKey, (d) => {
        d.DeviceName = str(body.DeviceName) ?? d.DeviceName;
        const config = obj(body.DeviceSecretVerifierConfig);
        d.DeviceSecretVerifierConfig = { Salt: str(config.Salt), PasswordVerifier: str(config.PasswordVerifier) };
      });
      if (!device) throw deviceNotFound(body.DeviceKey);
      // DeviceOnlyRememberedOnUserPrompt: the client must ask the user (UserConfirmationNecessary true).
      const prompt = obj((await pool()).Options.DeviceConfiguration).DeviceOnlyRememberedOnUserPrompt === true;
      if (!prompt) await devices.modify(username, body.DeviceKey, (d) => void (d.DeviceRememberedStatus = 'remembered'));
      return { UserConfirmationNecessary: prompt };
    },
    async ListDevices(body) {
      const username = await tokenUser(body.AccessToken);
      // With user opt-in tracking only remembered devices are listed (measured on AWS: amplify-js PR #12171).
      const remembered = (await devices.list(username)).filter((d) => d.DeviceSecretVerifierConfig && d.DeviceRememberedStatus === 'remembered');
      return { Devices: remembered.map(toDeviceType) };
    },
    async GetDevice(body) {
      const device = await devices.find(await tokenUser(body.AccessToken), body.DeviceKey);
      if (!device) throw deviceNotFound(body.DeviceKey);
      return { Device: toDeviceType(device) };
    },
    async UpdateDeviceStatus(body) {
      const status = body.DeviceRememberedStatus;
      if (status !== 'remembered' && status !== 'not_remembered') {
        throw new CognitoError('InvalidParameterException', "DeviceRememberedStatus must be 'remembered' or 'not_remembered'");
      }
      const device = await devices.modify(await tokenUser(body.AccessToken), body.DeviceKey, (d) => void (d.DeviceRememberedStatus = status));
      if (!device) throw deviceNotFound(body.DeviceKey);
      return {};
    },
    async ForgetDevice(body) {
      if (!(await devices.forget(await tokenUser(body.AccessToken), body.DeviceKey))) throw deviceNotFound(body.DeviceKey);
      return {};
    },

    // cognito-local answers every member at once: page by `Limit` (1-60, default 60) with an opaque NextToken
    // (base64url offset), ordered by Username, as the service pages (GET /team reads one page per request).
    async ListUsersInGroup(body) {
      const { Limit: limit, NextToken: token, ...rest } = body;
      const size = typeof limit === 'number' ? limit : 60;
      if (!Number.isInteger(size) || size < 1 || size > 60) throw new CognitoError('InvalidParameterException', 'Limit must be between 1 and 60');
      const start = typeof token === 'string' ? Number(Buffer.from(token, 'base64url').toString('utf8')) : 0;
      if (!Number.isInteger(start) || start < 0) throw new CognitoError('InvalidParameterException', 'Invalid NextToken');
      const all = ((await call('ListUsersInGroup', rest)).Users ?? []) as Json[];
      const sorted = [...all].sort((a, b) => String(a.Username).localeCompare(String(b.Username)));
      const end = start + size;
      return { Users: sorted.slice(start, end), ...(end < sorted.length ? { NextToken: Buffer.from(String(end), 'utf8').toString('base64url') } : {}) };
    },

    async UpdateUserAttributes(body) {
      // The access token (verified in handlePost) names the app client whose WriteAttributes apply.
      const client = await appClient(decodeClaims(body.AccessToken)?.client_id);
      throwIfBad(checkAttributeWrite(body.UserAttributes, { kind: 'client', writeAttributes: clientWriteAttributes(client) }));
      const result = await call('UpdateUserAttributes', body);
      if (Array.isArray(result.CodeDeliveryDetailsList) && result.CodeDeliveryDetailsList.length > 0) {
        // A new e-mail waits for verification (keepOriginal): the code goes to the NEW address, the user keeps
        // the old one until VerifyUserAttribute.
        const user = await userByName(decodeClaims(body.AccessToken)?.username);
        const pending = user?.UnverifiedAttributeChanges?.find((a) => a.Name === 'email')?.Value;
        const to = pending ?? (user ? attributeValue(user, 'email') : undefined);
        await logCode(user, 'UpdateUserAttributes', user?.AttributeVerificationCode, to);
        return { ...result, CodeDeliveryDetailsList: to ? [{ AttributeName: 'email', DeliveryMedium: 'EMAIL', Destination: maskEmail(to) }] : [] };
      }
      return result;
    },
  };

  async function handlePost(req: IncomingMessage, res: ServerResponse, raw: Buffer): Promise<void> {
    const target = String(req.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
    const handler = handlers[target] ?? idpHandlers[target];
    let body: Json;
    try {
      body = obj(JSON.parse(raw.toString('utf8') || '{}'));
    } catch {
      throw new CognitoError('SerializationException', 'Request body is not valid JSON');
    }
    if (!PUBLIC_TARGETS.has(target) && !ACCESS_TOKEN_TARGETS.has(target)) {
      try {
        await verifySignatureV4(
          opts.operatorCredentials,
          { method: req.method ?? 'POST', url: new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`), headers: req.headers, body: raw },
          { service: COGNITO_IDP_SERVICE },
        );
      } catch (err) {
        if (err instanceof SignatureRefused) throw iamError(err);
        throw err;
      }
    }
    if (ACCESS_TOKEN_TARGETS.has(target) && !(target.endsWith('SoftwareToken') && body.Session)) {
      await opts.verifier.verifyAccessToken(body.AccessToken);
    }
    // Case-insensitive user names (the deployed pool's signInCaseSensitive: false): cognito-local matches
    // e-mails exactly, so hand it the internal Username of an existing user.
    if (typeof body.Username === 'string') {
      const existing = await userByName(body.Username);
      if (target === 'SignUp' && existing) throw new CognitoError('UsernameExistsException', 'An account with the given email already exists.');
      if (target === 'AdminCreateUser' && existing && body.MessageAction !== 'RESEND') throw new CognitoError('UsernameExistsException', 'User account already exists');
      if (existing && target !== 'SignUp' && target !== 'AdminCreateUser') body = { ...body, Username: existing.Username };
    }
    if (!handler) return forward(req, res, Buffer.from(JSON.stringify(body)));
    send(res, 200, await handler(body, ctx));
  }

  async function forward(req: IncomingMessage, res: ServerResponse, raw: Buffer): Promise<void> {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || ['host', 'connection', 'content-length', 'origin'].includes(name)) continue;
      headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const method = req.method ?? 'GET';
    const response = await fetch(`${opts.upstream}${req.url ?? '/'}`, {
      method,
      headers,
      ...(method === 'GET' || method === 'HEAD' ? {} : { body: raw }),
    });
    const out: Record<string, string> = { ...CORS_HEADERS };
    const type = response.headers.get('content-type');
    if (type) out['content-type'] = type;
    const payload = Buffer.from(await response.arrayBuffer());
    res.writeHead(response.status, { ...out, 'content-length': String(payload.length) });
    res.end(payload);
  }

  function send(res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
    const payload = Buffer.from(JSON.stringify(body));
    res.writeHead(status, {
      ...CORS_HEADERS,
      'content-type': JSON_TYPE,
      'content-length': String(payload.length),
      'x-amzn-requestid': randomUUID(),
      ...extra,
    });
    res.end(payload);
  }

  return (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const run = async (): Promise<void> => {
        const path = (req.url ?? '/').split('?')[0];
        if (req.method === 'OPTIONS') {
          res.writeHead(204, {
            ...CORS_HEADERS,
            'access-control-allow-methods': 'GET,POST,OPTIONS',
            'access-control-allow-headers': String(req.headers['access-control-request-headers'] ?? 'content-type,x-amz-target,x-amz-user-agent'),
            'access-control-max-age': '86400',
          });
          res.end();
        } else if (req.method === 'GET' && path === `/${opts.userPoolId}/.well-known/openid-configuration`) {
          send(res, 200, {
            issuer,
            jwks_uri: `${issuer}/.well-known/jwks.json`,
            id_token_signing_alg_values_supported: ['RS256'],
            subject_types_supported: ['public'],
            response_types_supported: ['code', 'token'],
          }, { 'content-type': 'application/json' });
        } else if (req.method === 'POST' && path === '/') {
          await handlePost(req, res, raw);
        } else {
          await forward(req, res, raw);
        }
      };
      run().catch((err: unknown) => {
        if (err instanceof CognitoError) {
          send(res, err.status, { __type: err.type, message: err.message }, { 'x-amzn-errortype': `${err.type}:` });
          return;
        }
        opts.log(`cognito proxy: ${(err as Error).stack ?? String(err)}`);
        if (!res.headersSent) send(res, 500, { __type: 'InternalErrorException', message: (err as Error).message });
        else res.destroy();
      });
    });
  };
}
