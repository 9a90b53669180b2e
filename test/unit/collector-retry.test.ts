/**
 * The collector simulator keeps an event the API refused for a while (429, 5xx such as 503
 * SERVICE_UNAVAILABLE, or no answer) and sends it again, same body and `eventId`, on the next tick; a 4xx
 * other than 429 is final. Mirrors the retry guidance for API Gateway 429/5xx answers
 * (https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-request-throttling.html) and
 * DynamoDB's own for throttling (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Programming.Errors.html#Programming.Errors.RetryAndBackoff).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isRetryable, startCollector } from '../../scripts/local/collector.js';

let server: Server;
let url = '';
let answer = 503;
const received: { path: string; body: { eventId: string } }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString('utf8')));
    req.on('end', () => {
      received.push({ path: req.url ?? '', body: JSON.parse(text) as { eventId: string } });
      res.writeHead(answer, { 'Content-Type': 'application/json', ...(answer === 503 ? { 'Retry-After': '2' } : {}) });
      res.end(JSON.stringify(answer < 300 ? { eventId: 'x', applied: true } : { code: 'SERVICE_UNAVAILABLE', message: 'm', requestId: 'r' }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('collector simulator retries refused events', () => {
  it('classifies answers', () => {
    expect([null, 429, 500, 503].map(isRetryable)).toEqual([true, true, true, true]);
    expect([200, 202, 400, 403, 404, 413].map(isRetryable)).toEqual([false, false, false, false, false, false]);
  });

  it('keeps the events refused with 503 and sends them again, same eventIds, on the next tick', async () => {
    answer = 503;
    const c = startCollector({ apiUrl: url, intervalMs: 3_600_000, outageProbability: 0, random: () => 0.5, devices: [{ tenantId: 'acme', id: 'd1' }] });
    const first = await c.tick(); // the automatic first tick ran before; this is the second one under 503
    expect(first.pending).toBeGreaterThan(0);
    const refusedIds = new Set(received.map((r) => r.body.eventId));
    answer = 202;
    received.length = 0;
    const second = await c.tick();
    await c.stop();
    expect(second.retried).toBe(first.pending);
    expect(second.pending).toBe(0);
    const resent = received.slice(0, second.retried).map((r) => r.body.eventId);
    expect(resent.every((id) => refusedIds.has(id))).toBe(true);
    expect(new Set(resent).size).toBe(resent.length);
  });

  it('drops an event refused with a final 4xx', async () => {
    answer = 400;
    received.length = 0;
    const c = startCollector({ apiUrl: url, intervalMs: 3_600_000, outageProbability: 0, random: () => 0.5, devices: [{ tenantId: 'acme', id: 'd1' }] });
    const r = await c.tick();
    await c.stop();
    expect(r.failures).toBeGreaterThan(0);
    expect(r.pending).toBe(0);
  });
});
