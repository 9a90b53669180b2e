/**
 * The notifications API on dynoxide, through the handler with every response checked against the OpenAPI
 * document: preferences per user and tenant, webhooks (secret shown once, URLs masked, the URL policy,
 * tenant isolation, staff for any tenant), "send test" to a local receiver with a verifiable signature, and
 * a webhook's last deliveries.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startInProcessApi, type InProcessApi } from '../support/in-process-api.js';
import type { CallerSpec } from '../support/events.js';

const ana: CallerSpec = { sub: 'sub-ana', email: 'ana@acme.example', groups: ['acme', 'customer-admin'] };
const luis: CallerSpec = { sub: 'sub-luis', email: 'luis@acme.example', groups: ['acme'] };
const bruno: CallerSpec = { sub: 'sub-bruno', email: 'bruno@globex.example', groups: ['globex', 'customer-admin'] };
const staff: CallerSpec = { sub: 'sub-soc', email: 'soc@vigia.example', groups: ['admin'] };

let api: InProcessApi;
let localApi: InProcessApi;
let receiver: http.Server;
let receiverUrl: string;
const received: Array<{ headers: http.IncomingHttpHeaders; body: string }> = [];

beforeAll(async () => {
  api = await startInProcessApi({ table: 'vigia-notifapi-main', config: { notifications: { siteUrl: 'https://portal.vigia.example', allowLocalWebhooks: false } } });
  localApi = await startInProcessApi({ table: 'vigia-notifapi-local', config: { notifications: { siteUrl: 'http://127.0.0.1:5173', allowLocalWebhooks: true } } });
  for (const a of [api, localApi]) {
    await a.data.putTenant({ id: 'acme', name: 'Acme' });
    await a.data.putTenant({ id: 'globex', name: 'Globex' });
  }
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
}, 60_000);

afterAll(async () => {
  await new Promise<void>((r) => { receiver?.closeAllConnections(); receiver?.close(() => r()); });
  await api?.stop();
  await localApi?.stop();
});

const json = (res: { body: string }) => JSON.parse(res.body) as Record<string, unknown>;

describe('preferences', () => {
  it('defaults, saved per user and tenant', async () => {
    const h = api.handler('notifications');
    const def = await call(h, { method: 'GET', path: '/notifications/preferences', caller: ana });
    expect([def.statusCode, json(def)]).toEqual([200, { email: true, minSeverity: 'high', kinds: null, digest: false }]);
    const put = await call(h, { method: 'PUT', path: '/notifications/preferences', caller: ana, body: { email: false, minSeverity: 'critical', kinds: ['sla.breached', 'sla.breached'], digest: true } });
    expect([put.statusCode, json(put)]).toEqual([200, { email: false, minSeverity: 'critical', kinds: ['sla.breached'], digest: true }]);
    expect(json(await call(h, { method: 'GET', path: '/notifications/preferences', caller: ana }))).toMatchObject({ email: false });
    expect(json(await call(h, { method: 'GET', path: '/notifications/preferences', caller: luis }))).toMatchObject({ email: true });
    const bad = await call(h, { method: 'PUT', path: '/notifications/preferences', caller: ana, body: { email: true, minSeverity: 'urgent', kinds: null, digest: false } });
    expect([bad.statusCode, json(bad).code]).toEqual([400, 'VALIDATION_FAILED']);
  });
});

describe('webhooks', () => {
  it('the signing secret is answered once; lists mask the URL; other tenants see nothing; staff manage any tenant', async () => {
    const h = api.handler('notifications');
    const created = await call(h, { method: 'POST', path: '/webhooks', caller: ana, body: { name: 'SIEM', kind: 'json', url: 'https://hooks.example.com/services/T000/B000/XXXXsecretpart' } });
    expect(created.statusCode).toBe(201);
    const { webhook, secret } = json(created) as { webhook: { id: string; urlPreview: string; signed: boolean }; secret: string };
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(webhook).toMatchObject({ signed: true, urlPreview: 'https://hooks.example.com/…part' });
    const slack = json(await call(h, { method: 'POST', path: '/webhooks', caller: ana, body: { name: 'Slack', kind: 'slack', url: 'https://hooks.slack.com/services/a/b/c', minSeverity: 'critical' } }));
    expect(slack.secret).toBeNull();

    // Webhooks are the customer admin's (docs/api.md#customer-roles): an operator of the tenant is refused.
    const asOperator = await call(h, { method: 'GET', path: '/webhooks', caller: luis });
    expect(asOperator.statusCode).toBe(403);
    expect(json(asOperator).code).toBe('ROLE_REQUIRED');
    const list = await call(h, { method: 'GET', path: '/webhooks', caller: ana });
    expect(list.body).not.toContain(secret);
    expect(list.body).not.toContain('secretpart');
    expect((json(list).items as unknown[]).length).toBe(2);
    expect(json(await call(h, { method: 'GET', path: '/webhooks', caller: bruno })).items).toEqual([]);
    const foreign = await call(h, { method: 'DELETE', path: `/webhooks/${webhook.id}`, caller: bruno });
    expect(foreign.statusCode).toBe(404);
    // A customer cannot name another tenant; staff can.
    expect((await call(h, { method: 'GET', path: '/webhooks', query: { tenant: 'acme' }, caller: bruno })).statusCode).toBe(403);
    expect((json(await call(h, { method: 'GET', path: '/webhooks', query: { tenant: 'acme' }, caller: staff })).items as unknown[]).length).toBe(2);
    const del = await call(h, { method: 'DELETE', path: `/webhooks/${webhook.id}`, query: { tenant: 'acme' }, caller: staff });
    expect(del.statusCode).toBe(200);
    expect((json(await call(h, { method: 'GET', path: '/webhooks', caller: ana })).items as unknown[]).length).toBe(1);
  });

  it('AWS policy: https to public hosts only', async () => {
    const h = api.handler('notifications');
    for (const url of ['http://hooks.example.com/x', 'https://10.0.0.8/x', 'https://169.254.169.254/latest/meta-data', 'https://localhost/x', receiverUrl]) {
      const res = await call(h, { method: 'POST', path: '/webhooks', caller: ana, body: { name: 'x', kind: 'json', url } });
      expect([res.statusCode, json(res).code, (json(res).details as Array<{ path: string }>)[0]!.path], url).toEqual([400, 'VALIDATION_FAILED', 'body.url']);
    }
  });

  it('locally: send test reaches a localhost receiver, signed; deliveries list', async () => {
    const h = localApi.handler('notifications');
    const created = json(await call(h, { method: 'POST', path: '/webhooks', caller: ana, body: { name: 'Local', kind: 'json', url: receiverUrl } }));
    const id = (created.webhook as { id: string }).id;
    const res = await call(h, { method: 'POST', path: `/webhooks/${id}/test`, caller: ana });
    expect(json(res)).toEqual({ ok: true, status: 204, error: null });
    const got = received.at(-1)!;
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(got.headers['x-vigia-signature']))!;
    expect(createHmac('sha256', String(created.secret)).update(`${t}.${got.body}`).digest('hex')).toBe(v1);
    expect(JSON.parse(got.body)).toMatchObject({ type: 'test', tenant: 'acme', data: { title: expect.stringContaining('Mensaje de prueba') } });
    const deliveries = await call(h, { method: 'GET', path: `/webhooks/${id}/deliveries`, caller: ana });
    expect([deliveries.statusCode, json(deliveries).items]).toEqual([200, []]);
    expect((await call(h, { method: 'POST', path: '/webhooks/wh-doesnotexist/test', caller: ana })).statusCode).toBe(404);
  });
});
