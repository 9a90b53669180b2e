/**
 * Deeply nested JSON bodies answer 400 VALIDATION_FAILED, never 500, over the REAL handlers and dynoxide
 * and through the local gateway (`scripts/local/gateway.ts`), with nothing written
 * (docs/api.md#request-checks, `MAX_JSON_DEPTH` in lambdas/http/validation.ts).
 *
 * A 16 KB body can nest ~8,000 levels; the recursive well-formed-Unicode walk overflowed the stack on it
 * (500 on every route with a body). Fuzz (fast-check) over nesting depths, shapes (arrays, objects, mixed,
 * with brackets, quotes and escapes inside strings) and positions (the whole body, or a field of the row's
 * valid example), on every row with a body.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES, type OperationId, type RouteDef } from '../../lambdas/contract/routes.js';
import { MAX_BODY_BYTES } from '../../lambdas/contract/schemas.js';
import { MAX_JSON_DEPTH } from '../../lambdas/http/validation.js';
import { startGateway, type RunningGateway } from '../../scripts/local/gateway.js';
import { lambdaContext } from '../support/events.js';
import { EXAMPLES, exampleEvent, fieldsOf } from '../support/route-examples.js';
import { useExampleApi } from '../support/example-api.js';

const TABLE = 'vigia-deepjson-main';
const ex = useExampleApi({ table: TABLE });
const { handlers, snapshot } = ex;
const BODY_ROWS = (ROUTES as readonly RouteDef[]).filter((r) => r.request.body);

/** Strings that hold brackets, quotes and escapes: the raw-text depth scan must not count them. */
const noise = fc.constantFrom('', '"[[[["', '"{{{{"', '"a\\"[{"', '"\\\\"', '"]]]}}}"', '"\\u005b\\u007b"');

/** One level of nesting around `inner`: array, object, or an object/array carrying a noisy sibling. */
type Level = 'array' | 'object' | 'arrayNoise' | 'objectNoise';
const wrap = (inner: string, level: Level, n: string): string =>
  level === 'array' ? `[${inner}]` : level === 'object' ? `{"a":${inner}}` : level === 'arrayNoise' ? `[${n || '1'},${inner}]` : `{"k":${n || 'null'},"a":${inner}}`;

/** Nested JSON of exactly `depth` levels (cycling the shapes), innermost a noisy scalar. */
function nested(depth: number, shapes: Level[], n: string): string {
  let s = n || '0';
  for (let i = 0; i < depth; i++) s = wrap(s, shapes[i % shapes.length]!, n);
  return s;
}

const shapes = fc.array(fc.constantFrom<Level>('array', 'object', 'arrayNoise', 'objectNoise'), { minLength: 1, maxLength: 4 });
const deep = fc.integer({ min: MAX_JSON_DEPTH + 1, max: 3000 });

/** The row's event with a raw body text (Content-Type application/json). */
function rawEvent(row: RouteDef, body: string) {
  const e = exampleEvent(row);
  e.body = body;
  return e;
}

/** The row's example body with `value` (JSON text) as the value of one of its fields, or as the whole body. */
function placed(row: RouteDef, value: string, field: number): string {
  const ex = EXAMPLES[row.operationId as OperationId];
  const keys = fieldsOf(row.request.body);
  if (field === 0 || keys.length === 0 || !ex.body) return value;
  const key = keys[(field - 1) % keys.length]!;
  const rest = JSON.stringify({ ...ex.body, [key]: '__X__' });
  return rest.replace('"__X__"', value);
}

const send = (row: RouteDef, body: string) => handlers[row.handler](rawEvent(row, body), lambdaContext);
const parse = (body: string) => JSON.parse(body) as { code: string; message: string; details?: { path: string; message: string }[] };

describe(`a body nested deeper than ${MAX_JSON_DEPTH} levels → 400 VALIDATION_FAILED on every route with a body, nothing written`, () => {
  it(`${BODY_ROWS.length} rows have a body`, () => expect(BODY_ROWS.length).toBeGreaterThan(10));

  for (const row of BODY_ROWS) {
    it(`${row.operationId}: the ~8,000-level 16 KB body, and fuzzed depths and shapes`, async () => {
      const before = await snapshot();
      const levels = Math.floor(MAX_BODY_BYTES / 2) - 200;
      const worst = `${'['.repeat(levels)}${']'.repeat(levels)}`;
      expect(Buffer.byteLength(worst)).toBeLessThanOrEqual(MAX_BODY_BYTES);
      const res = await send(row, worst);
      expect([res.statusCode, parse(res.body).code, parse(res.body).details?.[0]?.path], res.body).toEqual([400, 'VALIDATION_FAILED', 'body']);
      await fc.assert(
        fc.asyncProperty(deep, shapes, noise, fc.nat({ max: 4 }), async (depth, sh, n, field) => {
          const body = placed(row, nested(depth, sh, n), field);
          fc.pre(Buffer.byteLength(body) <= MAX_BODY_BYTES);
          const r = await send(row, body);
          expect(r.statusCode, body.slice(0, 80)).toBe(400);
          const b = parse(r.body);
          expect(b.code).toBe('VALIDATION_FAILED');
          expect(b.details?.[0]).toEqual({ path: 'body', message: `nested deeper than ${MAX_JSON_DEPTH} levels of arrays and objects` });
        }),
        { numRuns: 8 },
      );
      expect(await snapshot()).toBe(before);
    }, 60_000);
  }
});

describe(`nesting up to ${MAX_JSON_DEPTH} levels is never a 500 (the schema answers)`, () => {
  it('fuzzed shallow bodies on every row with a body', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...BODY_ROWS), fc.integer({ min: 1, max: MAX_JSON_DEPTH - 3 }), shapes, noise, fc.nat({ max: 4 }), async (row, depth, sh, n, field) => {
        const r = await send(row, placed(row, nested(depth, sh, n), field));
        expect(r.statusCode, `${row.operationId} ${depth}`).toBeLessThan(500);
        if (r.statusCode === 400) expect(parse(r.body).details?.[0]?.message ?? '').not.toMatch(/nested deeper/);
      }),
      { numRuns: 60 },
    );
  }, 120_000);

  it('brackets and quotes inside strings do not count: a valid body full of them is accepted', async () => {
    const row = BODY_ROWS.find((r) => r.operationId === 'addIncidentComment')!;
    const text = `${'[{'.repeat(200)} "\\" ${'}]'.repeat(50)}`;
    const r = await send(row, JSON.stringify({ body: text }));
    expect(r.statusCode, r.body).toBe(201);
  });
});

describe('the local gateway answers the same', () => {
  let gateway: RunningGateway;
  let jwks: http.Server;
  let token = '';

  beforeAll(async () => {
    const pair = await generateKeyPair('RS256', { extractable: true });
    const jwk: JWK = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
    jwks = http.createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ keys: [jwk] })));
    await new Promise<void>((r) => jwks.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}`;
    const now = Math.floor(Date.now() / 1000);
    token = await new SignJWT({ token_use: 'id', email: 'u@acme.example', email_verified: true, 'cognito:groups': ['acme', 'customer-admin'] })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setSubject('u-acme')
      .setIssuer(`${base}/local_test`)
      .setAudience('client-abc')
      .setIssuedAt(now - 60)
      .setExpirationTime(now + 3600)
      .sign(pair.privateKey);
    gateway = await startGateway({
      port: 0,
      stage: 'local',
      issuer: `${base}/local_test`,
      audience: 'client-abc',
      jwksUri: `${base}/local_test/.well-known/jwks.json`,
      allowedOrigins: ['http://127.0.0.1:5173'],
      handlers: { incidents: handlers.incidents, notifications: handlers.notifications },
    });
  });

  afterAll(async () => {
    await gateway?.stop();
    await new Promise((r) => jwks?.close(r));
  });

  it('POST /incidents, PUT /notifications/preferences, POST /webhooks with 8,000 levels → 400 VALIDATION_FAILED', async () => {
    const before = await snapshot();
    const body = `${'['.repeat(8000)}${']'.repeat(8000)}`;
    for (const [method, path] of [['POST', '/incidents'], ['PUT', '/notifications/preferences'], ['POST', '/webhooks']] as const) {
      const res = await fetch(`${gateway.url}${path}`, { method, headers: { Authorization: token, 'Content-Type': 'application/json', 'Idempotency-Key': 'deep-1' }, body });
      const b = (await res.json()) as { code: string; details?: { path: string }[] };
      expect([res.status, b.code, b.details?.[0]?.path], `${method} ${path}`).toEqual([400, 'VALIDATION_FAILED', 'body']);
    }
    expect(await snapshot()).toBe(before);
  });
});
