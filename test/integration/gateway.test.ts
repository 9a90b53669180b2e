/**
 * The local API gateway refuses every token the Cognito user-pool authorizer would refuse, and hands
 * verified claims to the handler as strings, the way API Gateway does; unknown paths and methods, each
 * function's timeout and memory, and the 6 MB / 10 MB payload quotas answer as the deployed API does.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';

type PrivateKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileRoutes, matchRoute, startGateway, type RunningGateway } from '../../scripts/local/gateway.js';
import { ROUTES } from '../../lambdas/contract/routes.js';
import { FUNCTION_LIMITS } from '../../lambdas/contract/platform-limits.js';

const AUDIENCE = 'client-abc';
let issuer = '';
let jwksServer: http.Server;
let gateway: RunningGateway;
let goodKey: PrivateKey;
let otherKey: PrivateKey;
const seen: APIGatewayProxyEvent[] = [];

async function token(overrides: Record<string, unknown> = {}, opts: { key?: PrivateKey; exp?: number } = {}) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ token_use: 'id', email: 'ana@acme.example', 'cognito:groups': ['acme', 'admin'], ...overrides })
    .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
    .setSubject('user-1')
    .setIssuer((overrides['iss'] as string | undefined) ?? issuer)
    .setAudience((overrides['aud'] as string | undefined) ?? AUDIENCE)
    .setIssuedAt(now - 60)
    .setExpirationTime(opts.exp ?? now + 3600)
    .sign(opts.key ?? goodKey);
}

function call(path: string, init: RequestInit = {}) {
  return fetch(`${gateway.url}${path}`, init);
}

beforeAll(async () => {
  const good = await generateKeyPair('RS256', { extractable: true });
  const other = await generateKeyPair('RS256', { extractable: true });
  goodKey = good.privateKey;
  otherKey = other.privateKey;
  const jwk: JWK = { ...(await exportJWK(good.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  jwksServer = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((r) => jwksServer.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}`;
  issuer = `${base}/local_test`;
  const echo = async (event: APIGatewayProxyEvent) => {
    seen.push(event);
    return { statusCode: 200, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ ok: true }) };
  };
  gateway = await startGateway({
    port: 0,
    stage: 'local',
    issuer,
    audience: AUDIENCE,
    jwksUri: `${base}/local_test/.well-known/jwks.json`,
    allowedOrigins: ['http://127.0.0.1:5173'],
    handlers: { incidents: echo, devices: echo, account: echo },
  });
});

afterAll(async () => {
  await gateway?.stop();
  await new Promise((r) => jwksServer?.close(r));
});

describe('route matching from the route table', () => {
  const compiled = compileRoutes(ROUTES);
  it('matches path parameters and distinguishes methods', () => {
    const m = matchRoute(compiled, 'GET', '/incidents/INC-000001');
    expect(m).not.toBe('unknown-method');
    expect(m && m !== 'unknown-method' && m.route.operationId).toBe('getIncident');
    expect(m && m !== 'unknown-method' && m.pathParameters).toEqual({ id: 'INC-000001' });
    expect(matchRoute(compiled, 'DELETE', '/incidents')).toBe('unknown-method');
    expect(matchRoute(compiled, 'GET', '/nope')).toBeUndefined();
    expect(matchRoute(compiled, 'GET', '/incidents/a/b')).toBeUndefined();
  });
});

describe('authorizer semantics', () => {
  // Which tokens are refused, route by route, is api-gateway-routes.test.ts; here: refused requests never
  // reach the handler, and the error carries a request id.
  it('never hands a refused request to the handler', async () => {
    const before = seen.length;
    const none = await call('/incidents');
    expect(none.status).toBe(401);
    expect(((await none.json()) as { requestId: string }).requestId).toMatch(/[0-9a-f-]{36}/);
    for (const bad of [await token({}, { exp: Math.floor(Date.now() / 1000) - 1 }), await token({}, { key: otherKey }), 'not-a-jwt']) {
      expect((await call('/incidents', { headers: { Authorization: bad } })).status).toBe(401);
    }
    expect(seen.length).toBe(before);
  });

  it('passes a valid ID token with claims flattened to strings, as API Gateway does', async () => {
    const res = await call('/incidents/INC-000007?tenant=acme', { headers: { Authorization: await token() } });
    expect(res.status).toBe(200);
    const event = seen.at(-1)!;
    const claims = event.requestContext.authorizer!['claims'] as Record<string, unknown>;
    expect(claims['cognito:groups']).toBe('acme,admin');
    expect(claims['email']).toBe('ana@acme.example');
    expect(typeof claims['exp']).toBe('string');
    expect(event.resource).toBe('/incidents/{id}');
    expect(event.pathParameters).toEqual({ id: 'INC-000007' });
    expect(event.queryStringParameters).toEqual({ tenant: 'acme' });
    expect(event.requestContext.stage).toBe('local');
  });

  it('answers CORS preflight only for allowed origins', async () => {
    const ok = await call('/incidents', { method: 'OPTIONS', headers: { Origin: 'http://127.0.0.1:5173' } });
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:5173');
    expect(ok.headers.get('access-control-allow-headers')).toContain('Authorization');
    const bad = await call('/incidents', { method: 'OPTIONS', headers: { Origin: 'http://evil.example' } });
    expect(bad.headers.get('access-control-allow-origin')).toBeNull();
  });

  // API Gateway answers an unknown path, and a method the path does not define, with its
  // MISSING_AUTHENTICATION_TOKEN gateway response (403 "Missing Authentication Token"), before any
  // authorizer; the stage rewrites it to 404 NOT_FOUND with CORS headers (GATEWAY_RESPONSES). "Gateway
  // response types for API Gateway":
  // https://docs.aws.amazon.com/apigateway/latest/developerguide/supported-gateway-response-types.html
  it('an unknown path or method is the MISSING_AUTHENTICATION_TOKEN gateway response: 404 NOT_FOUND with CORS, before the authorizer', async () => {
    const before = seen.length;
    const origin = { Origin: 'http://127.0.0.1:5173' };
    for (const [method, path, auth] of [
      ['GET', '/nothing-here', true],
      ['DELETE', '/devices', true],
      ['DELETE', '/devices', false],
      ['PUT', '/incidents/INC-000001', false],
      ['GET', '/soc', false], // a resource of the API with no method of its own (parent of /soc/queue)
    ] as const) {
      const r = await call(path, { method, headers: { ...origin, ...(auth ? { Authorization: await token() } : {}) } });
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.headers.get('access-control-allow-origin')).toBe(origin.Origin);
      const body = (await r.json()) as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual(['code', 'message', 'requestId']);
      expect(body).toMatchObject({ code: 'NOT_FOUND', message: 'Missing Authentication Token' });
    }
    expect(seen.length).toBe(before);
  });

  // defaultCorsPreflightOptions puts an OPTIONS method on every resource, ancestors included.
  it('answers a pre-flight on every resource of the API (also /soc, /) and 404 on an unknown one', async () => {
    for (const p of ['/soc', '/', '/tenants/t-1/users/u-1']) {
      const r = await call(p, { method: 'OPTIONS', headers: { Origin: 'http://127.0.0.1:5173' } });
      expect(r.status, p).toBe(204);
      expect(r.headers.get('access-control-max-age')).toBe('3600');
    }
    const nf = await call('/nothing-here', { method: 'OPTIONS', headers: { Origin: 'http://127.0.0.1:5173' } });
    expect(nf.status).toBe(404);
    expect(((await nf.json()) as { code: string }).code).toBe('NOT_FOUND');
  });

  // A request-target whose percent-encoding is malformed is not a valid URI (RFC 3986 section 2.1,
  // https://www.rfc-editor.org/rfc/rfc3986#section-2.1). The local gateway answers 400 without calling the
  // handler, never a 500; the exact 4xx of a deployed API Gateway is not documented by AWS and has not been
  // measured here (docs/local-emulation.md#malformed-paths).
  it('answers 400 to malformed percent-encoding in the path, before the handler', async () => {
    const before = seen.length;
    for (const p of ['/incidents/%E0%A4%A', '/incidents/%ZZ', '/devices/%', '/incidents/%ED%A0%80']) {
      const r = await call(p, { headers: { Authorization: await token() } });
      expect(r.status, p).toBe(400);
      expect(((await r.json()) as { code: string }).code).toBe('VALIDATION_FAILED');
    }
    expect(seen.length).toBe(before);
    const ok = await call('/incidents/INC-000001%20', { headers: { Authorization: await token() } });
    expect(ok.status).toBe(200);
  });
});

/**
 * Each function's timeout and memory (FUNCTION_LIMITS, shortened here through `functionLimits`), API Gateway's
 * integration timeout (shortened through `integrationTimeoutSeconds`) and Lambda's 6 MB payloads, answered as
 * the deployed API does. AWS: Lambda developer guide, "Handling Lambda errors with an API Gateway API" (invoke
 * refused → 500, function error → 502, https://docs.aws.amazon.com/lambda/latest/dg/services-apigateway-errors.html),
 * "Lambda quotas" (6 MB synchronous payloads, https://docs.aws.amazon.com/lambda/latest/dg/gettingstarted-limits.html),
 * "Gateway response types for API Gateway" (INTEGRATION_TIMEOUT 504, DEFAULT_5XX keeps the status), API Gateway
 * "important notes for REST APIs" (REQUEST_TOO_LARGE cannot be customized).
 */
describe('Lambda and API Gateway limits', () => {
  let limited: RunningGateway;
  const finished: string[] = [];
  const contexts: Array<{ memory: string; remaining: number }> = [];
  let held: Buffer | undefined;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const ok = (body: unknown) => ({ statusCode: 200, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const ORIGIN = 'http://127.0.0.1:5173';
  const get = async (path: string, init: RequestInit = {}) =>
    fetch(`${limited.url}${path}`, { ...init, headers: { Origin: ORIGIN, Authorization: await token(), ...init.headers } });

  beforeAll(async () => {
    limited = await startGateway({
      port: 0,
      stage: 'local',
      issuer,
      audience: AUDIENCE,
      jwksUri: `${issuer}/.well-known/jwks.json`,
      allowedOrigins: [ORIGIN],
      integrationTimeoutSeconds: 0.5,
      functionLimits: { reports: { timeoutSeconds: 0.2 }, recommendations: { timeoutSeconds: 5 }, admin: { memoryMB: 32 } },
      handlers: {
        account: async (_e, ctx) => {
          contexts.push({ memory: ctx.memoryLimitInMB, remaining: ctx.getRemainingTimeInMillis() });
          return ok({ ok: true });
        },
        reports: async () => {
          await sleep(600);
          finished.push('reports');
          return ok({ late: true });
        },
        recommendations: async () => {
          await sleep(900);
          finished.push('recommendations');
          return ok({ late: true });
        },
        office365: async (e) => ok({ pad: 'x'.repeat(Number(e.queryStringParameters?.['bytes'] ?? 0)) }),
        devices: async () => {
          finished.push('devices');
          return ok({ ok: true });
        },
        admin: async () => {
          held = Buffer.alloc(64 * 1024 * 1024, 1); // kept until the test ends: 64 MB over a 32 MB function
          return ok({ ok: true });
        },
      },
    });
  });
  afterAll(async () => {
    held = undefined;
    await limited?.stop();
  });

  /** The API's error body from the stage's DEFAULT_5XX gateway response, with CORS headers. */
  async function expect5xx(res: Response, status: number, message: string) {
    expect(res.status).toBe(status);
    expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['code', 'message', 'requestId']);
    expect(body).toMatchObject({ code: 'INTERNAL_ERROR', message });
  }

  it("hands the handler its function's memory and a remaining time counting down from its timeout", async () => {
    expect((await get('/me')).status).toBe(200);
    const c = contexts.at(-1)!;
    expect(c.memory).toBe(String(FUNCTION_LIMITS.account.memoryMB));
    expect(c.remaining).toBeGreaterThan(FUNCTION_LIMITS.account.timeoutSeconds * 1000 - 1000);
    expect(c.remaining).toBeLessThanOrEqual(FUNCTION_LIMITS.account.timeoutSeconds * 1000);
  });

  it("past its function's timeout: 502 INTERNAL_ERROR, the handler's late result discarded", async () => {
    const started = Date.now();
    await expect5xx(await get('/reports'), 502, 'Internal server error');
    expect(Date.now() - started).toBeLessThan(550);
    await sleep(600);
    expect(finished).toContain('reports'); // it ran to its end, and its 200 was never sent
  });

  it('past the integration timeout (function timeout longer): 504 INTERNAL_ERROR "Endpoint request timed out"', async () => {
    await expect5xx(await get('/recommendations'), 504, 'Endpoint request timed out');
  });

  it('a result over 6 MB is a function error: 502; just under passes', async () => {
    await expect5xx(await get(`/office365/alarms?bytes=${6 * 1024 * 1024}`), 502, 'Internal server error');
    const under = await get(`/office365/alarms?bytes=${6 * 1024 * 1024 - 1024}`);
    expect(under.status).toBe(200);
    expect((await under.arrayBuffer()).byteLength).toBeGreaterThan(6 * 1024 * 1024 - 1024);
  });

  it('an event over 6 MB (body of 7 MB) is refused by Lambda before the handler: 500', async () => {
    const before = finished.filter((f) => f === 'devices').length;
    const res = await get('/devices/d-1/alarms/a-1/acknowledge', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ pad: 'x'.repeat(7 * 1024 * 1024) }),
    });
    await expect5xx(res, 500, 'Internal server error');
    expect(finished.filter((f) => f === 'devices').length).toBe(before);
  });

  it("a body over 10 MB is API Gateway's own 413 (not customizable): no API error shape, no CORS headers", async () => {
    const res = await get('/devices/d-1/alarms/a-1/acknowledge', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: 'x'.repeat(10 * 1024 * 1024 + 1),
    });
    expect(res.status).toBe(413);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    await res.arrayBuffer();
  });

  it("memory growth over the function's memory is an out-of-memory function error: 502", async () => {
    await expect5xx(await get('/audit'), 502, 'Internal server error');
    expect(held?.length).toBe(64 * 1024 * 1024); // the handler did run to its end: only its result was discarded
  });

  it('counts the requests each rule refused (plain data for the check:aws report)', async () => {
    await get('/devices', { method: 'DELETE' });
    await get('/nothing-here');
    const report = limited.rulesReport();
    expect(report).toEqual({
      unknownMethod: 1,
      unknownPath: 1,
      payloadOver10MB: 1,
      requestOver6MB: 1,
      responseOver6MB: 1,
      functionTimeout: 1,
      integrationTimeout: 1,
      outOfMemory: 1,
    });
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
  });
});

describe('start-up errors', () => {
  it('a busy port is a clear one-line error', async () => {
    const port = Number(new URL(gateway.url).port);
    await expect(
      startGateway({ port, stage: 'local', issuer, audience: AUDIENCE, jwksUri: `${issuer}/.well-known/jwks.json`, allowedOrigins: [] }),
    ).rejects.toThrow(`port ${port} is already in use`);
  });
});
