/** Refresh token rotation of the local user pool (scripts/local/cognito/rotation.ts). */
import { createPrivateKey, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT, type JSONWebKeySet } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFRESH_TOKEN_GRACE_SECONDS } from '../../infra/stage-config.js';
import { RefreshTokenRotation } from '../../scripts/local/cognito/rotation.js';
import { DEPLOYED_REFRESH_TOKEN_GRACE_SECONDS } from '../../scripts/local/cognito/store.js';
import { RevocationRegistry, TokenVerifier, type RefreshClaims } from '../../scripts/local/cognito/tokens.js';

const require = createRequire(import.meta.url);
const ISSUER = 'http://127.0.0.1:9229/local_vigia';
const GRACE = 10;
let dir: string;
let verifier: TokenVerifier;

/** A sign-in's refresh token as cognito-local issues it (its own key, no kid). */
async function signInToken(username: string, nowMs: number): Promise<string> {
  const { pem } = require('cognito-local/lib/keys/cognitoLocal.private.json') as { pem: string };
  const iat = Math.floor(nowMs / 1000);
  return new SignJWT({ 'cognito:username': username, email: `${username}@acme.example`, jti: randomUUID() })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
    .setIssuedAt(iat)
    .setExpirationTime(iat + 30 * 86_400)
    .setIssuer(ISSUER)
    .sign(createPrivateKey(pem));
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vigia-rotation-'));
  const { jwk } = require('cognito-local/lib/keys/cognitoLocal.public.json') as { jwk: JSONWebKeySet['keys'][number] };
  verifier = new TokenVerifier({ keys: [jwk] }, ISSUER, await RevocationRegistry.load(join(dir, 'revocations.json')));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const claimsOf = (token: string) => verifier.verifyRefreshToken(token) as Promise<RefreshClaims>;
const messageOf = (run: () => unknown) => {
  try {
    run();
    return 'ok';
  } catch (e) {
    return `${(e as Error).name}: ${(e as Error).message}`;
  }
};

describe('RefreshTokenRotation', () => {
  it('the local default grace period is the deployed app client’s', () => {
    expect(DEPLOYED_REFRESH_TOKEN_GRACE_SECONDS).toBe(REFRESH_TOKEN_GRACE_SECONDS);
  });

  it('each refresh issues a new, verifiable token of the family with the sign-in’s expiry; the anchor stays cognito-local’s', async () => {
    const rotation = await RefreshTokenRotation.load(join(dir, `r-${randomUUID()}.json`));
    const t0 = Date.now();
    const first = await signInToken('ana', t0);
    const step = rotation.begin(first, await claimsOf(first), GRACE, t0);
    expect(step.anchor).toBe(first);
    const second = await step.rotate();
    expect(second).not.toBe(first);
    const secondClaims = await claimsOf(second);
    expect(secondClaims).toMatchObject({ 'cognito:username': 'ana', email: 'ana@acme.example', iss: ISSUER, exp: (await claimsOf(first)).exp });
    const next = rotation.begin(second, secondClaims, GRACE, t0 + 1000);
    expect(next.anchor).toBe(first);
    expect(await next.rotate()).not.toBe(second);
  });

  it('a rotated-out token is accepted until the grace period ends (from its first use), then NotAuthorizedException', async () => {
    const rotation = await RefreshTokenRotation.load(join(dir, `r-${randomUUID()}.json`));
    const t0 = Date.now();
    const first = await signInToken('beto', t0);
    const claims = await claimsOf(first);
    await rotation.begin(first, claims, GRACE, t0).rotate();
    // A retry inside the grace period rotates again but does not move the start of the grace period.
    await rotation.begin(first, claims, GRACE, t0 + 5_000).rotate();
    expect(messageOf(() => rotation.begin(first, claims, GRACE, t0 + GRACE * 1000))).toBe('ok');
    expect(messageOf(() => rotation.begin(first, claims, GRACE, t0 + GRACE * 1000 + 1))).toBe('NotAuthorizedException: Invalid Refresh Token');
    // Grace 0: refused right after its use.
    const other = await signInToken('beto', t0);
    const otherClaims = await claimsOf(other);
    await rotation.begin(other, otherClaims, 0, t0).rotate();
    expect(messageOf(() => rotation.begin(other, otherClaims, 0, t0 + 1))).toBe('NotAuthorizedException: Invalid Refresh Token');
  });

  it('familyOf lists every member for revocation, and the families persist across a restart', async () => {
    const file = join(dir, `r-${randomUUID()}.json`);
    const rotation = await RefreshTokenRotation.load(file);
    const t0 = Date.now();
    const first = await signInToken('carla', t0);
    const firstClaims = await claimsOf(first);
    const second = await rotation.begin(first, firstClaims, GRACE, t0).rotate();
    const secondClaims = await claimsOf(second);
    const family = rotation.familyOf(secondClaims.jti);
    expect(family?.anchor).toBe(first);
    expect(family?.members.map((m) => m.jti).sort()).toEqual([firstClaims.jti, secondClaims.jti].sort());
    expect(rotation.familyOf('unknown')).toBeNull();

    const reloaded = await RefreshTokenRotation.load(file);
    expect(reloaded.begin(second, secondClaims, GRACE, t0 + 1000).anchor).toBe(first);
    expect(messageOf(() => reloaded.begin(first, firstClaims, GRACE, t0 + GRACE * 1000 + 1))).toBe('NotAuthorizedException: Invalid Refresh Token');
  });
});
