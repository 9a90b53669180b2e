/**
 * The webhook SSRF guard through the notifications API on dynoxide (every response checked against the
 * OpenAPI document; docs/notifications.md#webhook-url-policy):
 *
 *  - AWS policy: IPv4-mapped / -compatible, 6to4, NAT64, Teredo, site-local, unique-local forms of internal
 *    addresses and trailing-dot / internal names → 400 VALIDATION_FAILED on `body.url`, nothing written;
 *  - "Enviar prueba" (`POST /webhooks/{id}/test`) to a receiver that cannot be reached answers the generic
 *    `WEBHOOK_UNREACHABLE`, the same for a closed port, an unknown name and a host that never answers: no
 *    socket error, address or port, so the route cannot map what the URL reaches.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CallerSpec } from '../support/events.js';
import { call, startInProcessApi, type InProcessApi } from '../support/in-process-api.js';
import { tableSnapshot } from '../support/table-snapshot.js';

const ana: CallerSpec = { sub: 'sub-ana', email: 'ana@acme.example', groups: ['acme', 'customer-admin'] };
const TABLE = 'vigia-ssrf-main';
let api: InProcessApi;
let localApi: InProcessApi;
let raw: DynamoDBClient;

beforeAll(async () => {
  api = await startInProcessApi({ table: TABLE, config: { notifications: { siteUrl: 'https://portal.vigia.example', allowLocalWebhooks: false } } });
  localApi = await startInProcessApi({ table: 'vigia-ssrf-local', config: { notifications: { siteUrl: 'http://127.0.0.1:5173', allowLocalWebhooks: true } } });
  for (const a of [api, localApi]) await a.data.putTenant({ id: 'acme', name: 'Acme' });
  raw = api.rawClient();
}, 60_000);

afterAll(async () => {
  raw?.destroy();
  await api?.stop();
  await localApi?.stop();
});

const json = (res: { body: string }) => JSON.parse(res.body) as Record<string, unknown>;

/** Hash of every item of the table (test/support/table-snapshot.ts). */
const snapshot = (): Promise<string> => tableSnapshot(raw, TABLE);

describe('AWS policy: internal addresses in any IPv6 form, and trailing-dot names, are refused', () => {
  it('400 VALIDATION_FAILED on body.url, nothing written', async () => {
    const h = api.handler('notifications');
    const before = await snapshot();
    for (const url of [
      'https://[::ffff:169.254.169.254]/latest/meta-data/',
      'https://[::ffff:a9fe:a9fe]/latest/meta-data/',
      'https://[::ffff:127.0.0.1]/x',
      'https://[::ffff:10.0.0.1]/x',
      'https://[::127.0.0.1]/x',
      'https://[0:0:0:0:0:FFFF:C0A8:0101]/x',
      'https://[fec0::1]/x',
      'https://[fd00:ec2::254]/x',
      'https://[2002:a9fe:a9fe::1]/x',
      'https://[64:ff9b::10.0.0.1]/x',
      'https://[2001:0:a9fe:a9fe::1]/x',
      'https://localhost./x',
      'https://metadata.google.internal./computeMetadata/v1/',
      'https://2852039166/latest/meta-data/',
    ]) {
      const res = await call(h, { method: 'POST', path: '/webhooks', caller: ana, body: { name: 'x', kind: 'json', url } });
      expect([res.statusCode, json(res).code, (json(res).details as Array<{ path: string }>)[0]!.path], url).toEqual([400, 'VALIDATION_FAILED', 'body.url']);
    }
    expect(await snapshot()).toBe(before);
    // A public address in the same forms is accepted (the refusals above are about the address, not the form).
    const ok = await call(h, { method: 'POST', path: '/webhooks', caller: ana, body: { name: 'ok', kind: 'slack', url: 'https://[::ffff:8.8.8.8]/x' } });
    expect(ok.statusCode).toBe(201);
  });
});

describe('"Enviar prueba" answers a generic WEBHOOK_UNREACHABLE, never the socket error', () => {
  let silent: http.Server;
  let silentPort = 0;
  let closedPort = 0;
  const sockets = new Set<Socket>();

  beforeAll(async () => {
    // Accepts connections and never answers (the sender's timeout path).
    silent = http.createServer(() => {});
    silent.on('connection', (s) => sockets.add(s));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    silentPort = (silent.address() as AddressInfo).port;
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
  });

  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => silent.close(() => r()));
  });

  it('a closed port, by address and by name: the same answer, no detail', async () => {
    const h = localApi.handler('notifications');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const answers: string[] = [];
      for (const url of [`http://127.0.0.1:${closedPort}/hook`, `http://localhost:${closedPort}/hook`]) {
        const created = await call(h, { method: 'POST', path: '/webhooks', caller: ana, body: { name: 'x', kind: 'json', url } });
        expect(created.statusCode, url).toBe(201);
        const id = (json(created).webhook as { id: string }).id;
        const res = await call(h, { method: 'POST', path: `/webhooks/${id}/test`, caller: ana });
        expect([res.statusCode, json(res)], url).toEqual([200, { ok: false, status: null, error: 'WEBHOOK_UNREACHABLE' }]);
        for (const leak of ['ECONNREFUSED', 'connect', '127.0.0.1', String(closedPort), 'ENOTFOUND', 'getaddrinfo']) expect(res.body, url).not.toContain(leak);
        answers.push(res.body);
      }
      expect(new Set(answers).size).toBe(1);
      // The detail is in the server log.
      expect(warn.mock.calls.map((c) => String(c[0])).join('\n')).toContain('ECONNREFUSED');
    } finally {
      warn.mockRestore();
    }
  });

  it('a receiver that never answers: the same answer after the timeout', async () => {
    const h = localApi.handler('notifications');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const created = await call(h, { method: 'POST', path: '/webhooks', caller: ana, body: { name: 'silent', kind: 'slack', url: `http://127.0.0.1:${silentPort}/hook` } });
      const id = (json(created).webhook as { id: string }).id;
      const res = await call(h, { method: 'POST', path: `/webhooks/${id}/test`, caller: ana });
      expect([res.statusCode, json(res)]).toEqual([200, { ok: false, status: null, error: 'WEBHOOK_UNREACHABLE' }]);
      expect(res.body).not.toMatch(/ms|timeout|answer/i);
    } finally {
      warn.mockRestore();
    }
  }, 20_000);
});
