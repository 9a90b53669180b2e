/**
 * Property-based tests (fast-check): generated requests per route of the route table, driven in-process
 * through the REAL handlers over dynoxide (HTTP would be too slow on 2 cores). `npm test` runs 100 inputs
 * per route; `FULL_FUZZ=1` runs 1,000 (CI runs that in its own step, see docs/testing.md#full_fuzz).
 * For every input:
 *  - no 5xx;
 *  - every 4xx has the JSON error shape `{ code, message, requestId, details? }` with the status of its code;
 *  - a rejected request leaves the stored data unchanged (table snapshot before = after).
 * Inputs mix valid requests with mutations: unknown/missing fields, wrong types, huge strings, bad JSON,
 * wrong content types, repeated/foreign query parameters, odd path parameters, every kind of caller,
 * arbitrary Unicode in every string (fast-check's `binary` unit: any code point including lone UTF-16
 * surrogates, in field values, field names, query names and values, path segments) and arbitrary periods
 * (`from`/`to` anywhere in years 1–9999, one, both or neither), so the lone-surrogate refusal and the
 * 366-day bound of docs/api.md are checked on every route, not only on the fields a test names.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { startInProcessApi, type InProcessApi } from '../support/in-process-api.js';
import type { ApiHandler } from '../../lambdas/http/api.js';
import { HANDLER_NAMES, ROUTES, type HandlerName, type RouteDef } from '../../lambdas/contract/routes.js';
import { ApiErrorBody, ERROR_STATUS } from '../../lambdas/contract/schemas.js';
import { apiEvent, lambdaContext, type CallerSpec } from '../support/events.js';
import { tableSnapshot } from '../support/table-snapshot.js';

const TABLE = 'vigia-prop-main';
/** Generated inputs per route: 1,000 with `FULL_FUZZ=1`, else 100. */
const RUNS = process.env.FULL_FUZZ === '1' ? 1000 : 100;
let api: InProcessApi;
let raw: DynamoDBClient;
const handlers = {} as Record<HandlerName, ApiHandler>;

beforeAll(async () => {
  api = await startInProcessApi({ table: TABLE });
  const { data } = api;
  raw = api.rawClient();
  for (const name of HANDLER_NAMES) handlers[name] = api.handler(name);
  const { newIncident } = await import('../../lambdas/domain/incidents.js');
  await data.putTenant({ id: 'acme', name: 'Acme' });
  await data.putTenant({ id: 'globex', name: 'Globex' });
  for (const t of ['acme', 'globex']) {
    await data.putIncident(newIncident(t, 1, { title: 'Seeded', description: 'd', severity: 'high', category: 'c' }, 's', new Date().toISOString()));
    await data.putDevice({ tenantId: t, id: 'dev-1', name: 'fw', type: 'firewall', site: 'M', ipAddress: '10.0.0.1', vendor: 'v', model: 'm', lastHeartbeatAt: new Date(Date.now() - 60_000).toISOString() });
    await data.putAlarm({ tenantId: t, deviceId: 'dev-1', id: 'al-1', severity: 'high', state: 'active', title: 'x', raisedAt: new Date().toISOString() });
  }
}, 60_000);

afterAll(async () => {
  raw?.destroy();
  await api?.stop();
});

/** Hash of every item of the table (test/support/table-snapshot.ts). */
const snapshot = (): Promise<string> => tableSnapshot(raw, TABLE);

const CALLERS: Array<CallerSpec | null | 'collector'> = [
  { sub: 'a', groups: ['acme'] },
  { sub: 'b', groups: ['globex'], groupsForm: 'bracket' },
  { sub: 'c', groups: ['admin'] },
  { sub: 'd', groups: ['acme', 'globex'], groupsForm: 'space' },
  { sub: 'e', groups: [] },
  null,
  'collector',
];

/** Any code point, lone surrogates included (a string JavaScript can hold but no UTF-8 text can). */
const unicode = (maxLength: number) => fc.string({ unit: 'binary', maxLength });
/** A string with at least one lone surrogate somewhere. */
const loneSurrogate = fc
  .tuple(unicode(8), fc.integer({ min: 0xd800, max: 0xdfff }), unicode(8))
  .map(([a, c, b]) => `${a}${String.fromCharCode(c)}${b}`);
/** Instants in years 1–9999 as ISO-8601 UTC (valid `from`/`to` values, most of them far apart). */
const instant = fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }).map((d) => d.toISOString());
/** An instant near now (within ±2 years), so some generated periods are valid and some just over 366 days. */
const nearNow = fc.integer({ min: -730, max: 730 }).map((days) => new Date(Date.now() + days * 86_400_000).toISOString());

/** Values that are sometimes valid for a field and often not. */
const fieldValue = fc.oneof(
  unicode(30),
  loneSurrogate,
  fc.constantFrom('acme', 'globex', 'critical', 'low', 'new', 'in_progress', 'resolved', 'INC-000001', 'dev-1', 'al-1', 'raise', 'clear', 'active', 'newest', '20', '2026-01-01T00:00:00Z', new Date().toISOString()),
  fc.string({ maxLength: 30 }),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.string({ minLength: 3000, maxLength: 6000 }),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
);
const FIELD_NAMES = ['title', 'description', 'severity', 'category', 'assignee', 'source', 'version', 'status', 'comment', 'body', 'eventId', 'tenantId', 'deviceId', 'alarmId', 'at', 'action', 'extra'];
const bodyArb = fc.oneof(
  { weight: 5, arbitrary: fc.dictionary(fc.constantFrom(...FIELD_NAMES), fieldValue, { maxKeys: 9 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.oneof(fc.constantFrom(...FIELD_NAMES), unicode(6), loneSurrogate), fieldValue, { maxKeys: 4 }) },
  { weight: 1, arbitrary: fc.jsonValue() },
  { weight: 1, arbitrary: fc.string({ maxLength: 50 }).map((s) => ({ __raw: s })) },
  { weight: 1, arbitrary: fc.constant(undefined) },
);
const QUERY_NAMES = ['tenant', 'limit', 'cursor', 'status', 'severity', 'from', 'to', 'q', 'sort', 'state', 'deviceId', 'format', 'user', 'workload', 'x'];
const queryValue = fc.oneof(
  fc.string({ maxLength: 40 }),
  unicode(20),
  loneSurrogate,
  instant,
  nearNow,
  fc.constantFrom('acme', 'globex', '5', '0', '101', 'critical,low', 'active', 'oldest', 'ZZZ', 'csv', 'json', '0001-01-01T00:00:00Z'),
  fc.array(fc.constantFrom('acme', 'globex'), { minLength: 2, maxLength: 2 }),
);
const queryArb = fc.oneof(
  { weight: 4, arbitrary: fc.dictionary(fc.constantFrom(...QUERY_NAMES), queryValue, { maxKeys: 5 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.oneof(fc.constantFrom(...QUERY_NAMES), loneSurrogate), queryValue, { maxKeys: 3 }) },
  // a period: from only, to only, neither or both, anywhere in time (with the format sometimes)
  {
    weight: 3,
    arbitrary: fc.record(
      { from: fc.oneof(instant, nearNow), to: fc.oneof(instant, nearNow), format: fc.constantFrom('json', 'csv'), tenant: fc.constantFrom('acme', 'globex') },
      { requiredKeys: [] },
    ),
  },
);
const segmentArb = fc.oneof(
  fc.constantFrom('INC-000001', 'INC-999999', 'dev-1', 'al-1', 'nope', '%E0%A4%A', '..', '.', '%2E', 'INC-1'),
  fc.string({ minLength: 1, maxLength: 20 }).map((s) => encodeURIComponent(s)),
  // One path segment: a raw '/' would make it two (and the path another route's, or none).
  loneSurrogate.map((s) => s.replaceAll('/', '_')),
);

function buildEvent(
  route: RouteDef,
  input: { caller: CallerSpec | null | 'collector'; query: Record<string, string | string[]>; body: unknown; segs: string[]; contentType: string; header?: string | undefined },
): APIGatewayProxyEvent {
  let i = 0;
  const path = route.path.replace(/\{[^}]+\}/g, () => input.segs[i++ % input.segs.length]!);
  const raw = input.body !== null && typeof input.body === 'object' && '__raw' in input.body ? String((input.body as { __raw: string }).__raw) : undefined;
  const e = apiEvent({
    method: route.method,
    path,
    query: input.query,
    caller: input.caller === 'collector' ? null : input.caller,
    ...(input.body === undefined ? {} : { body: raw ?? input.body }),
    headers: {
      'Content-Type': input.contentType,
      // a header value as API Gateway may pass it: sometimes outside ISO-8859-1, sometimes a lone surrogate
      'Idempotency-Key': input.header ?? `k-${input.segs[0]!.length}`,
    },
  });
  if (input.caller === 'collector') e.requestContext.identity = { ...e.requestContext.identity, userArn: 'arn:aws:iam::0:user/c' };
  return e;
}

describe(`property: every route survives ${RUNS} generated requests`, () => {
  for (const route of ROUTES as readonly RouteDef[]) {
    it(`${route.method} ${route.path}`, async () => {
      const mutating = route.method !== 'GET';
      let before = mutating ? await snapshot() : '';
      await fc.assert(
        fc.asyncProperty(
          fc.record({
            caller: fc.constantFrom(...CALLERS),
            query: queryArb,
            body: bodyArb,
            segs: fc.array(segmentArb, { minLength: 2, maxLength: 2 }),
            contentType: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', ''),
            header: fc.option(fc.oneof(unicode(12), loneSurrogate), { nil: undefined, freq: 4 }),
          }),
          async (input) => {
            const res = await handlers[route.handler](buildEvent(route, input), lambdaContext);
            expect(res.statusCode, res.body).toBeLessThan(500);
            if (res.statusCode >= 400) {
              const parsed = ApiErrorBody.safeParse(JSON.parse(res.body));
              expect(parsed.success, res.body).toBe(true);
              expect(ERROR_STATUS[parsed.data!.code]).toBe(res.statusCode);
              if (mutating) expect(await snapshot()).toBe(before);
            } else if (mutating) {
              before = await snapshot();
            }
          },
        ),
        { numRuns: RUNS },
      );
    }, 120_000);
  }
});
