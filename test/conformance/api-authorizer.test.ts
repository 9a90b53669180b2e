/**
 * Conformance: the API's Cognito authorizer (the local gateway, or a deployed stage with VIGIA_TARGET)
 * against forged and misused JSON Web Tokens, built with `jose` (not this project's code), and a genuine
 * sign-in with `amazon-cognito-identity-js`. Every refused token is a 401 before any handler runs.
 * How to run: docs/testing.md#the-conformance-suite.
 */
import { generateKeyPair, exportSPKI, importJWK, SignJWT, decodeJwt, decodeProtectedHeader, type JWK } from 'jose';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthenticationDetails, CognitoUser, CognitoUserPool, type CognitoUserSession } from 'amazon-cognito-identity-js';
import { LOCAL_ONLY, conformanceTarget, type ConformanceTarget } from '../support/conformance-target.js';

const DOCS = {
  authorizer: 'https://docs.aws.amazon.com/apigateway/latest/developerguide/apigateway-integrate-with-cognito.html',
  verifyJwt: 'https://docs.aws.amazon.com/cognito/latest/developerguide/amazon-cognito-user-pools-using-tokens-verifying-a-jwt.html',
  limits: 'https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-execution-service-limits-table.html',
} as const;

let target: ConformanceTarget;
let session: CognitoUserSession | null = null;
let idToken = '';
let issuer = '';

beforeAll(async () => {
  target = await conformanceTarget();
  issuer = `${target.cognitoEndpoint ?? `https://cognito-idp.${target.region}.amazonaws.com`}/${target.userPoolId}`;
  if (!target.user) return;
  const pool = new CognitoUserPool({ UserPoolId: target.userPoolId, ClientId: target.clientId, ...(target.cognitoEndpoint ? { endpoint: target.cognitoEndpoint } : {}) });
  const user = new CognitoUser({ Username: target.user.email, Pool: pool });
  const { email, password } = target.user;
  session = await new Promise<CognitoUserSession>((resolve, reject) =>
    user.authenticateUser(new AuthenticationDetails({ Username: email, Password: password }), { onSuccess: resolve, onFailure: reject }),
  );
  idToken = session.getIdToken().getJwtToken();
});

afterAll(async () => {
  await target?.stop();
});

/** GET /incidents (a Cognito-authorised route) with `authorization` as the Authorization header. */
async function call(authorization?: string): Promise<number> {
  const res = await fetch(`${target.apiUrl}/incidents`, { headers: authorization === undefined ? {} : { Authorization: authorization } });
  await res.arrayBuffer();
  return res.status;
}

const b64url = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');
/** The claims of a genuine ID token (or plausible ones when no user is configured). */
const claims = () =>
  idToken
    ? decodeJwt(idToken)
    : { sub: '00000000-0000-4000-8000-000000000000', aud: target.clientId, iss: issuer, token_use: 'id', 'cognito:groups': ['acme'], email: 'x@acme.example' };
const fresh = () => {
  const now = Math.floor(Date.now() / 1000);
  return { ...claims(), iat: now, exp: now + 3600 };
};
async function kid(): Promise<string> {
  if (idToken) return decodeProtectedHeader(idToken).kid ?? '';
  const jwks = (await (await fetch(`${issuer}/.well-known/jwks.json`)).json()) as { keys: Array<{ kid: string }> };
  return jwks.keys[0]!.kid;
}

describe('the Cognito authorizer accepts genuine ID tokens', () => {
  it(`a genuine ID token passes the authorizer (${DOCS.authorizer})`, async (ctx) => {
    if (!idToken) return ctx.skip('set VIGIA_TEST_EMAIL and VIGIA_TEST_PASSWORD');
    expect(await call(idToken)).not.toBe(401);
  });

  it(`a genuine ID token after "Bearer " passes too (${DOCS.authorizer})`, async (ctx) => {
    if (!idToken) return ctx.skip('set VIGIA_TEST_EMAIL and VIGIA_TEST_PASSWORD');
    expect(await call(`Bearer ${idToken}`)).not.toBe(401);
  });
});

describe('the Cognito authorizer refuses with 401', () => {
  it(`no Authorization header (${DOCS.authorizer})`, async () => {
    expect(await call()).toBe(401);
  });

  it(`an access token where the ID token is expected (no OAuth scopes on the method) (${DOCS.authorizer})`, async (ctx) => {
    if (!session) return ctx.skip('set VIGIA_TEST_EMAIL and VIGIA_TEST_PASSWORD');
    expect(await call(session.getAccessToken().getJwtToken())).toBe(401);
  });

  it(`alg "none" (unsigned) with the ID token's claims (${DOCS.verifyJwt})`, async () => {
    const token = `${b64url({ alg: 'none', kid: await kid(), typ: 'JWT' })}.${b64url(fresh())}.`;
    expect(await call(token)).toBe(401);
  });

  it(`HS256 signed with the pool's public key as the HMAC secret (${DOCS.verifyJwt})`, async () => {
    const jwks = (await (await fetch(`${issuer}/.well-known/jwks.json`)).json()) as { keys: JWK[] };
    const wanted = await kid();
    const jwk = jwks.keys.find((k) => k.kid === wanted) ?? jwks.keys[0]!;
    const publicKey = await importJWK({ ...jwk, alg: 'RS256' }, 'RS256', { extractable: true });
    const pem = await exportSPKI(publicKey as Parameters<typeof exportSPKI>[0]);
    const input = `${b64url({ alg: 'HS256', kid: jwk.kid, typ: 'JWT' })}.${b64url(fresh())}`;
    for (const secret of [pem, JSON.stringify(jwk)]) {
      const token = `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
      expect(await call(token)).toBe(401);
    }
  });

  it(`RS256 signed by a foreign key that claims the pool key's kid (${DOCS.verifyJwt})`, async () => {
    const foreign = await generateKeyPair('RS256');
    const token = await new SignJWT(fresh()).setProtectedHeader({ alg: 'RS256', kid: await kid() }).sign(foreign.privateKey);
    expect(await call(token)).toBe(401);
  });

  describe('signed with the pool key itself (local only: the key of the local pool is known)', () => {
    async function poolKeySign(payload: Record<string, unknown>): Promise<string> {
      const require = createRequire(import.meta.url);
      const file = path.join(path.dirname(require.resolve('cognito-local/package.json')), 'lib/keys/cognitoLocal.private.json');
      const { jwk } = JSON.parse(readFileSync(file, 'utf8')) as { jwk: JWK };
      return new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid: await kid() }).sign(await importJWK(jwk, 'RS256'));
    }

    it(`the control: a token the pool key signs with the genuine claims is accepted (${DOCS.verifyJwt})`, async (ctx) => {
      if (target.kind !== 'local') return ctx.skip(LOCAL_ONLY);
      expect(await call(await poolKeySign(fresh()))).not.toBe(401);
    });

    it(`an expired ID token (exp in the past) (${DOCS.verifyJwt})`, async (ctx) => {
      if (target.kind !== 'local') return ctx.skip(LOCAL_ONLY);
      const now = Math.floor(Date.now() / 1000);
      expect(await call(await poolKeySign({ ...claims(), iat: now - 7200, exp: now - 3600 }))).toBe(401);
    });

    it(`a wrong issuer (iss of another pool) (${DOCS.verifyJwt})`, async (ctx) => {
      if (target.kind !== 'local') return ctx.skip(LOCAL_ONLY);
      expect(await call(await poolKeySign({ ...fresh(), iss: `${issuer.replace(/[^/]+$/, '')}us-east-1_Other` }))).toBe(401);
    });
  });
});

describe('API Gateway limits', () => {
  it(`a body over the 10 MB payload limit is 413 (${DOCS.limits})`, async (ctx) => {
    if (!idToken) return ctx.skip('set VIGIA_TEST_EMAIL and VIGIA_TEST_PASSWORD');
    const res = await fetch(`${target.apiUrl}/incidents`, {
      method: 'POST',
      headers: { Authorization: idToken, 'Content-Type': 'application/json' },
      body: `{"title":"${'x'.repeat(10 * 1024 * 1024 + 16)}"}`,
    });
    await res.arrayBuffer();
    expect(res.status).toBe(413);
    // Local only (AWS documents no connection behaviour): the gateway closes the connection after a 413.
    if (target.kind === 'local') expect(res.headers.get('connection')).toBe('close');
  });
});
