/**
 * Conformance: API Gateway stage throttling (token bucket: the stage's burst, refilled at its rate per
 * second; past it, 429 with the stage's THROTTLED gateway response). The local stack is started with the
 * development stage's limits from infra/stage-config.ts (it runs without throttling by default).
 * How to run: docs/testing.md#the-conformance-suite.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { stageConfig } from '../../infra/stage-config.js';
import { LOCAL_EQUIVALENT_STAGE, conformanceTarget, type ConformanceTarget } from '../support/conformance-target.js';

const DOCS = {
  throttling: 'https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-request-throttling.html',
  gatewayResponses: 'https://docs.aws.amazon.com/apigateway/latest/developerguide/supported-gateway-response-types.html',
} as const;

let target: ConformanceTarget;

beforeAll(async () => {
  target = await conformanceTarget({ throttling: true });
});
afterAll(async () => {
  await target?.stop();
});

it(`answers 429 THROTTLED "Too Many Requests" past the stage's burst, and serves again after a second (${DOCS.throttling}, ${DOCS.gatewayResponses})`, async (ctx) => {
  if (target.kind !== 'local') return ctx.skip('would push the deployed stage past its burst limit; run it against the local stack');
  const { burstLimit, rateLimit } = stageConfig(LOCAL_EQUIVALENT_STAGE).throttling;
  const answers = await Promise.all(
    Array.from({ length: burstLimit * 2 }, async () => {
      const res = await fetch(`${target.apiUrl}/incidents`);
      return { status: res.status, body: (await res.json()) as { code?: string; message?: string } };
    }),
  );
  const throttled = answers.filter((a) => a.status === 429);
  // The bucket starts full: about `burstLimit` requests pass (401, no token), the rest are throttled.
  expect(throttled.length).toBeGreaterThanOrEqual(burstLimit - rateLimit);
  expect(answers.length - throttled.length).toBeGreaterThanOrEqual(burstLimit);
  expect(throttled[0]!.body).toMatchObject({ code: 'THROTTLED', message: 'Too Many Requests' });
  await new Promise((r) => setTimeout(r, 1100));
  expect((await fetch(`${target.apiUrl}/incidents`)).status).toBe(401);
});
