/** Token verification and revocation of the local user pool (scripts/local/cognito/tokens.ts). */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, SignJWT, type JSONWebKeySet, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RevocationRegistry, TokenVerifier } from '../../scripts/local/cognito/tokens.js';

const ISSUER = 'http://127.0.0.1:9229/local_vigia';
let dir: string;
let sign: (claims: JWTPayload, opts?: { issuer?: string; expSeconds?: number }) => Promise<string>;
let jwks: JSONWebKeySet;
let n = 0;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vigia-tokens-'));
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: 'CognitoLocal', alg: 'RS256', use: 'sig' }] };
  sign = (claims, opts = {}) => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ iat: now, jti: `jti-${++n}`, ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: 'CognitoLocal' })
      .setIssuer(opts.issuer ?? ISSUER)
      .setExpirationTime((claims.iat ?? now) + (opts.expSeconds ?? 3600))
      .sign(privateKey);
  };
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const access = (username: string, extra: JWTPayload = {}) =>
  sign({ username, sub: username, client_id: 'client', token_use: 'access', ...extra });
const refresh = (username: string, extra: JWTPayload = {}) => sign({ 'cognito:username': username, ...extra });

async function setup(file = join(dir, `rev-${++n}.json`)) {
  const registry = await RevocationRegistry.load(file);
  return { file, registry, verifier: new TokenVerifier(jwks, ISSUER, registry) };
}

const messageOf = (p: Promise<unknown>) => p.then(() => 'ok', (e: Error) => `${e.name}: ${e.message}`);

describe('TokenVerifier', () => {
  it('accepts a valid access token and refuses forged, foreign, expired or misused ones', async () => {
    const { verifier } = await setup();
    expect((await verifier.verifyAccessToken(await access('u1'))).username).toBe('u1');
    const token = await access('u1');
    const forged = `${token.slice(0, token.lastIndexOf('.'))}.AAAA`;
    expect(await messageOf(verifier.verifyAccessToken(forged))).toBe('NotAuthorizedException: Invalid Access Token');
    expect(await messageOf(verifier.verifyAccessToken(await sign({ username: 'u1', token_use: 'access' }, { issuer: 'http://elsewhere/local_vigia' })))).toBe(
      'NotAuthorizedException: Invalid Access Token',
    );
    const past = Math.floor(Date.now() / 1000) - 7200;
    expect(await messageOf(verifier.verifyAccessToken(await access('u1', { iat: past })))).toBe('NotAuthorizedException: Access Token has expired');
    expect(await messageOf(verifier.verifyAccessToken(await sign({ username: 'u1', token_use: 'id' })))).toBe('NotAuthorizedException: Invalid Access Token');
    expect(await messageOf(verifier.verifyAccessToken(undefined))).toBe('NotAuthorizedException: Invalid Access Token');
    expect(await messageOf(verifier.verifyRefreshToken(await access('u1')))).toBe('NotAuthorizedException: Invalid Refresh Token');
  });
});

describe('RevocationRegistry', () => {
  it('global sign-out refuses older tokens of that user only, and same-second tokens it saw issued', async () => {
    const { verifier, registry } = await setup();
    const now = Math.floor(Date.now() / 1000);
    const oldAccess = await access('u1', { iat: now - 5 });
    const oldRefresh = await refresh('u1', { iat: now - 5 });
    const sameSecond = await access('u1', { iat: now });
    const sameSecondRefresh = await refresh('u1', { iat: now });
    registry.recordIssued({ AccessToken: sameSecond, RefreshToken: sameSecondRefresh });
    const otherUser = await access('u2', { iat: now - 5 });

    await registry.revokeUser('u1', now * 1000 + 500);

    expect(await messageOf(verifier.verifyAccessToken(oldAccess))).toBe('NotAuthorizedException: Access Token has been revoked');
    expect(await messageOf(verifier.verifyRefreshToken(oldRefresh))).toBe('NotAuthorizedException: Refresh Token has been revoked');
    expect(await messageOf(verifier.verifyAccessToken(sameSecond))).toBe('NotAuthorizedException: Access Token has been revoked');
    expect(await messageOf(verifier.verifyRefreshToken(sameSecondRefresh))).toBe('NotAuthorizedException: Refresh Token has been revoked');
    expect(await messageOf(verifier.verifyAccessToken(otherUser))).toBe('ok');
    // Issued after the sign-out within the same second: not revoked.
    expect(await messageOf(verifier.verifyAccessToken(await access('u1', { iat: now })))).toBe('ok');
  });

  it('RevokeToken refuses that refresh token and the access tokens issued with it, and persists', async () => {
    const { verifier, registry, file } = await setup();
    const r1 = await refresh('u3');
    const r2 = await refresh('u3');
    const a1 = await access('u3');
    const a1b = await access('u3');
    const a2 = await access('u3');
    registry.recordIssued({ AccessToken: a1, RefreshToken: r1 });
    registry.recordIssued({ AccessToken: a1b }, r1); // a refresh flow with r1
    registry.recordIssued({ AccessToken: a2, RefreshToken: r2 });

    await registry.revokeRefreshToken(await verifier.verifyRefreshToken(r1));

    for (const t of [a1, a1b]) expect(await messageOf(verifier.verifyAccessToken(t))).toBe('NotAuthorizedException: Access Token has been revoked');
    expect(await messageOf(verifier.verifyRefreshToken(r1))).toBe('NotAuthorizedException: Refresh Token has been revoked');
    expect(await messageOf(verifier.verifyAccessToken(a2))).toBe('ok');
    expect(await messageOf(verifier.verifyRefreshToken(r2))).toBe('ok');

    const reloaded = await setup(file);
    expect(await messageOf(reloaded.verifier.verifyAccessToken(a1b))).toBe('NotAuthorizedException: Access Token has been revoked');
    expect(await messageOf(reloaded.verifier.verifyAccessToken(a2))).toBe('ok');
  });
});
