/**
 * The generated OpenAPI document (docs/api.md#openapi): `redocly lint` (the @redocly/cli devDependency, run as
 * a subprocess with its recommended rules) reports no error, and the response validator the integration
 * suites use refuses what the document does not allow.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../lambdas/contract/openapi.js';
import { ROUTES, successStatuses, type RouteDef } from '../../lambdas/contract/routes.js';
import { OpenApiMismatch, createResponseValidator } from '../support/openapi-validator.js';

const redoclyCli = join(dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin', 'cli.js');

describe('OpenAPI document', () => {
  it('passes redocly lint with 0 errors', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vigia-openapi-'));
    try {
      const file = join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(openApiDocument({ serverUrl: 'https://api.example.com/prod' })));
      const r = spawnSync(process.execPath, [redoclyCli, 'lint', file, '--format=json'], {
        encoding: 'utf8',
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
        timeout: 60_000,
      });
      const report = JSON.parse(r.stdout.slice(r.stdout.indexOf('{'))) as { totals: { errors: number }; problems: { ruleId: string; severity: string; message: string }[] };
      const errors = report.problems.filter((p) => p.severity === 'error');
      expect(errors, JSON.stringify(errors.slice(0, 5))).toEqual([]);
      expect(report.totals.errors).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);

  it('documents every success status of every row, the CSV variants and a server', () => {
    const doc = openApiDocument() as { servers: unknown[]; paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>> };
    expect(doc.servers).toEqual([{ url: '/' }]);
    for (const route of ROUTES as readonly RouteDef[]) {
      const op = doc.paths[route.path]![route.method.toLowerCase()]!;
      for (const s of successStatuses(route)) expect(Object.keys(op.responses[String(s)]!.content!).includes('text/csv')).toBe(!!route.responses[s]!.csv);
    }
    expect(Object.keys(doc.paths['/ingest/heartbeats']!.post!.responses)).toEqual(expect.arrayContaining(['200', '202', '413', '415']));
    expect(Object.keys(doc.paths['/incidents/{id}']!.patch!.responses)).toEqual(expect.arrayContaining(['409', '502']));
  });

  // API Gateway never answers 405: a method a path does not define is its MISSING_AUTHENTICATION_TOKEN gateway
  // response, which the stage turns into 404 NOT_FOUND (GATEWAY_RESPONSES; "Gateway response types for API
  // Gateway", https://docs.aws.amazon.com/apigateway/latest/developerguide/supported-gateway-response-types.html).
  it('documents no 405 anywhere, and the unknown-method 404 on every path and in the gateway responses', () => {
    const doc = openApiDocument() as Record<string, unknown> & { paths: Record<string, Record<string, unknown>> };
    expect(JSON.stringify(doc)).not.toMatch(/"405"|METHOD_NOT_ALLOWED|MethodNotAllowed/);
    for (const [path, item] of Object.entries(doc.paths)) {
      const other = item['x-vigia-other-methods'] as Record<string, { content: Record<string, { schema: unknown }> }>;
      expect(Object.keys(other), path).toEqual(['404']);
      expect(JSON.stringify(other['404']!.content['application/json']!.schema)).toContain('"enum":["NOT_FOUND"]');
      for (const [method, op] of Object.entries(item)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        const statuses = Object.keys((op as { responses: Record<string, unknown> }).responses);
        expect(statuses, `${method} ${path}`).not.toContain('405');
        expect(statuses, `${method} ${path}`).toEqual(expect.arrayContaining(['413', '500', '502']));
      }
    }
    const gw = doc['x-amazon-apigateway-gateway-responses'] as Record<string, { statusCode?: number; responseTemplates: Record<string, string> }>;
    expect(gw.MISSING_AUTHENTICATION_TOKEN!.statusCode).toBe(404);
    expect(gw.MISSING_AUTHENTICATION_TOKEN!.responseTemplates['application/json']).toContain('"code":"NOT_FOUND"');
    expect(gw.REQUEST_TOO_LARGE).toBeUndefined(); // not customizable: API Gateway answers its own 413
    expect(gw.DEFAULT_5XX!.statusCode).toBeUndefined();
  });
});

describe('response validator', () => {
  const v = createResponseValidator();
  const incident = {
    id: 'INC-000001', tenantId: 'acme', title: 'abc', description: 'd', severity: 'low', status: 'new', category: 'general', source: 'portal',
    reporter: 'a@example.com', assignee: null, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', resolvedAt: null,
    slaDueAt: '2026-01-04T00:00:00.000Z', version: 1, slaTargets: null, triagedAt: null, firstAcknowledgedAt: null, closureRequested: false,
    closedAt: null, slaResult: null,
  };
  const ok = { method: 'GET', path: '/incidents', status: 200, contentType: 'application/json', body: JSON.stringify({ items: [incident], nextCursor: null }) };

  it('accepts a documented response', () => {
    expect(() => v.checkResponse(ok)).not.toThrow();
    const err = { ...ok, status: 409, path: '/incidents/INC-000001', method: 'PATCH', body: JSON.stringify({ code: 'VERSION_CONFLICT', message: 'm', requestId: 'r', details: { currentVersion: 2 } }) };
    expect(() => v.checkResponse(err)).not.toThrow();
    const missing = JSON.stringify({ code: 'NOT_FOUND', message: 'Missing Authentication Token', requestId: 'r' });
    expect(() => v.checkResponse({ ...ok, method: 'DELETE', status: 404, body: missing })).not.toThrow();
    expect(() => v.checkResponse({ ...ok, path: '/nowhere', status: 404, body: missing })).not.toThrow();
    const failed = JSON.stringify({ code: 'INTERNAL_ERROR', message: 'Internal server error', requestId: 'r' });
    expect(() => v.checkResponse({ ...ok, status: 502, body: failed })).not.toThrow();
    expect(() => v.checkResponse({ ...ok, status: 413, contentType: 'text/plain', body: 'HTTP content length exceeded 10485760 bytes.' })).not.toThrow();
  });

  it('refuses an extra field, a wrong type, an undocumented status or code, and an undocumented media type', () => {
    const bad = [
      { ...ok, body: JSON.stringify({ items: [{ ...incident, searchText: 'abc d' }], nextCursor: null }) },
      { ...ok, body: JSON.stringify({ items: [{ ...incident, version: '1' }], nextCursor: null }) },
      { ...ok, body: JSON.stringify({ items: [{ ...incident, createdAt: 'yesterday' }], nextCursor: null }) },
      { ...ok, status: 418 },
      { ...ok, status: 409, body: JSON.stringify({ code: 'VERSION_CONFLICT', message: 'm', requestId: 'r' }) },
      { ...ok, status: 404, body: JSON.stringify({ code: 'NOT_FOUND', message: 'm', requestId: 'r' }), path: '/me' },
      { ...ok, contentType: 'text/csv' },
      { ...ok, path: '/nowhere', status: 200 },
      { ...ok, method: 'DELETE', status: 405, body: JSON.stringify({ code: 'NOT_FOUND', message: 'm', requestId: 'r' }) },
      { ...ok, method: 'DELETE', status: 404, body: JSON.stringify({ code: 'FORBIDDEN', message: 'm', requestId: 'r' }) },
    ];
    for (const res of bad) expect(() => v.checkResponse(res), JSON.stringify(res).slice(0, 120)).toThrow(OpenApiMismatch);
  });
});
