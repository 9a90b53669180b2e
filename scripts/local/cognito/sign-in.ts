/**
 * SRP sign-in (`USER_SRP_AUTH` then `PASSWORD_VERIFIER`) with the AWS SDK v3, for the project's own scripts and
 * tests that need a user's tokens without a browser (the benchmark, the gateway tests). The portal's app client
 * allows only SRP and refresh, as the deployed one does, so password sign-in (`USER_PASSWORD_AUTH`) is refused;
 * this is the client side of the same SRP-6a variant as `./srp.ts` (docs/local-emulation.md#srp-sign-in).
 *
 * The conformance suite does not use this: it signs in with `amazon-cognito-identity-js`, an SRP client this
 * project did not write.
 */
import { randomBytes } from 'node:crypto';
import {
  InitiateAuthCommand,
  RespondToAuthChallengeCommand,
  type AuthenticationResultType,
  type CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import { N, claimSignature, computeU, computeX, deriveKey, g, k, modPow, poolNameFromUserPoolId } from './srp.js';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The PASSWORD_VERIFIER TIMESTAMP of `date`: `EEE MMM d HH:mm:ss UTC yyyy` (day not padded), UTC. */
export function srpTimestamp(date = new Date()): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${DAYS[date.getUTCDay()]} ${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()} ${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())} UTC ${date.getUTCFullYear()}`;
}

/**
 * Signs `username` in with SRP on the app client `clientId` of `userPoolId` and returns the tokens.
 * @throws the SDK's service exceptions as the pool answers them (NotAuthorizedException for a wrong password
 *   or unknown user, UserNotConfirmedException…); Error when the pool asks for another challenge (e.g.
 *   NEW_PASSWORD_REQUIRED, or SOFTWARE_TOKEN_MFA without `totpCode`), naming it.
 */
export async function signInWithSrp(
  client: CognitoIdentityProviderClient,
  input: {
    userPoolId: string;
    clientId: string;
    username: string;
    password: string;
    /** Answers a SOFTWARE_TOKEN_MFA challenge (a user with TOTP set up) with the current code. */
    totpCode?: (() => string) | undefined;
  },
): Promise<AuthenticationResultType> {
  let a = 0n;
  let A = 0n;
  while (A % N === 0n) {
    a = BigInt(`0x${randomBytes(128).toString('hex')}`);
    A = modPow(g, a, N);
  }
  const step1 = await client.send(
    new InitiateAuthCommand({
      AuthFlow: 'USER_SRP_AUTH',
      ClientId: input.clientId,
      AuthParameters: { USERNAME: input.username, SRP_A: A.toString(16) },
    }),
  );
  const p = step1.ChallengeParameters ?? {};
  if (step1.ChallengeName !== 'PASSWORD_VERIFIER' || !p.SRP_B || !p.SALT || !p.SECRET_BLOCK || !p.USER_ID_FOR_SRP) {
    throw new Error(`SRP sign-in: expected a PASSWORD_VERIFIER challenge, got ${String(step1.ChallengeName)}`);
  }
  const poolName = poolNameFromUserPoolId(input.userPoolId);
  const B = BigInt(`0x${p.SRP_B}`);
  const userId = p.USER_ID_FOR_SRP;
  const u = computeU(A, B);
  const x = computeX(poolName, userId, input.password, BigInt(`0x${p.SALT}`));
  const base = (((B - ((k * modPow(g, x, N)) % N)) % N) + N) % N;
  const S = modPow(base, a + u * x, N);
  const timestamp = srpTimestamp();
  const signature = claimSignature(deriveKey(S, u), poolName, userId, Buffer.from(p.SECRET_BLOCK, 'base64'), timestamp);
  const step2 = await client.send(
    new RespondToAuthChallengeCommand({
      ChallengeName: 'PASSWORD_VERIFIER',
      ClientId: input.clientId,
      ChallengeResponses: {
        USERNAME: userId,
        PASSWORD_CLAIM_SECRET_BLOCK: p.SECRET_BLOCK,
        PASSWORD_CLAIM_SIGNATURE: signature,
        TIMESTAMP: timestamp,
      },
    }),
  );
  if (step2.ChallengeName === 'SOFTWARE_TOKEN_MFA' && input.totpCode) {
    const step3 = await client.send(
      new RespondToAuthChallengeCommand({
        ChallengeName: 'SOFTWARE_TOKEN_MFA',
        ClientId: input.clientId,
        Session: step2.Session,
        ChallengeResponses: { USERNAME: userId, SOFTWARE_TOKEN_MFA_CODE: input.totpCode() },
      }),
    );
    if (step3.AuthenticationResult) return step3.AuthenticationResult;
  }
  if (!step2.AuthenticationResult) throw new Error(`SRP sign-in: the pool asked for the ${String(step2.ChallengeName)} challenge`);
  return step2.AuthenticationResult;
}
