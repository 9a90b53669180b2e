/**
 * OpenAPI 3.1 document of the business API, generated from the route table's rows (`routes.ts`) with zod
 * 4's `z.toJSONSchema` (JSON Schema draft 2020-12, OpenAPI 3.1's schema dialect). Every operation lists
 * each status it can answer: its success statuses (e.g. ingest 202 applied / 200 replay), the `text/csv`
 * variant where offered, and the error statuses of `errorCodes(row)`, plus the gateway's 405 for a method
 * the path does not define. `npx @redocly/cli lint` reports no error on it (an integration test runs it).
 *
 * Served by the local gateway at `/openapi.json`, deployed next to the portal, and written to a file by
 * `writeOpenApi` (`npx tsx lambdas/contract/openapi.ts <out.json>`). Rules it documents: docs/api.md.
 *
 * Security: `cognitoIdToken` (the user pool's ID token in `Authorization`) on user routes; `sigv4`
 * (AWS IAM, Signature Version 4) on the collectors' `auth: 'iam'` routes.
 */
import { writeFileSync } from 'node:fs';
import * as z from 'zod';
import { ROUTES, errorCodes, successStatuses, type RouteDef } from './routes.js';
import { ApiErrorBody, ERROR_STATUS, type ErrorCode } from './schemas.js';

type Json = Record<string, unknown>;

/**
 * JSON Schema of a zod schema. A record keyed by an enum (e.g. counts per severity) gets its keys listed
 * as `properties` as well, so the document says which properties it has.
 */
function schemaOf(s: z.ZodType, io: 'input' | 'output'): Json {
  const j = z.toJSONSchema(s, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Json;
  delete j.$schema;
  return listRecordKeys(j) as Json;
}

function listRecordKeys(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(listRecordKeys);
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) out[k] = listRecordKeys(v);
  const names = (out.propertyNames as { enum?: unknown[] } | undefined)?.enum;
  if (Array.isArray(names) && out.additionalProperties && typeof out.additionalProperties === 'object' && out.properties === undefined) {
    out.properties = Object.fromEntries(names.map((n) => [String(n), out.additionalProperties]));
  }
  return out;
}

/** One `parameters` entry per property of an object schema (`in: path | query`). */
function parametersOf(s: z.ZodType | undefined, where: 'path' | 'query'): Json[] {
  if (!s) return [];
  const j = schemaOf(s, 'input');
  const props = (j.properties ?? {}) as Record<string, Json>;
  const required = new Set((j.required as string[] | undefined) ?? []);
  return Object.entries(props).map(([name, schema]) => ({ name, in: where, required: where === 'path' || required.has(name), schema }));
}

/** Error codes by HTTP status, e.g. 409 → VERSION_CONFLICT, INVALID_TRANSITION. */
function byStatus(codes: readonly ErrorCode[]): Map<number, ErrorCode[]> {
  const out = new Map<number, ErrorCode[]>();
  for (const c of codes) out.set(ERROR_STATUS[c], [...(out.get(ERROR_STATUS[c]) ?? []), c]);
  return new Map([...out.entries()].sort(([a], [b]) => a - b));
}

function errorResponse(codes: readonly ErrorCode[]): Json {
  return {
    description: `Error: ${codes.join(', ')}`,
    ...(codes.includes('SERVICE_UNAVAILABLE')
      ? { headers: { 'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 1 } } } }
      : {}),
    content: { 'application/json': { schema: { allOf: [{ $ref: '#/components/schemas/ApiError' }, { properties: { code: { enum: codes } } }] } } },
  };
}

/** Response headers of a route answered with a validator (`ResponseDef.etag`). */
const ETAG_HEADERS: Json = {
  ETag: { description: 'Weak entity tag of the answer; send it back as `If-None-Match`', schema: { type: 'string' } },
  'Cache-Control': { description: '`private, no-cache`', schema: { type: 'string' } },
};

function operationOf(route: RouteDef): Json {
  const req = route.request;
  const headerParams = Object.entries(req.headers ?? {}).map(([name, s]) => ({ name, in: 'header', required: false, schema: schemaOf(s, 'input') }));
  const responses: Record<string, Json> = {};
  for (const status of successStatuses(route)) {
    const r = route.responses[status]!;
    responses[String(status)] = {
      description: r.description,
      ...(r.csv
        ? { headers: { 'Content-Disposition': { description: 'With `text/csv`: `attachment; filename="…csv"`', schema: { type: 'string' } } } }
        : {}),
      ...(r.etag ? { headers: ETAG_HEADERS } : {}),
      content: {
        'application/json': { schema: schemaOf(r.body, 'output') },
        ...(r.csv ? { 'text/csv': { schema: { type: 'string', description: 'UTF-8, CRLF lines: section,key,value,extra' } } } : {}),
      },
    };
  }
  if (successStatuses(route).some((s) => route.responses[s]!.etag)) {
    responses['304'] = { description: 'Not Modified: the `If-None-Match` entity tag is still current (no body)', headers: ETAG_HEADERS };
  }
  for (const [status, codes] of byStatus(errorCodes(route))) responses[String(status)] = errorResponse(codes);
  responses['405'] = { $ref: '#/components/responses/MethodNotAllowed' };
  return {
    operationId: route.operationId,
    summary: route.summary,
    tags: [route.handler],
    security: [route.auth === 'iam' ? { sigv4: [] } : { cognitoIdToken: [] }],
    ...(route.groups.length ? { 'x-vigia-groups': route.groups } : {}),
    parameters: [...parametersOf(req.params, 'path'), ...parametersOf(req.query, 'query'), ...headerParams],
    ...(req.body ? { requestBody: { required: true, content: { 'application/json': { schema: schemaOf(req.body, 'input') } } } } : {}),
    responses: Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b))),
  };
}

/**
 * The OpenAPI 3.1 document (plain JSON). `serverUrl`: the API's base URL (default `/`, the document's own
 * origin, as when the local gateway serves it).
 */
export function openApiDocument(info: { version?: string; serverUrl?: string } = {}): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const route of ROUTES as readonly RouteDef[]) (paths[route.path] ??= {})[route.method.toLowerCase()] = operationOf(route);
  const tags = [...new Set((ROUTES as readonly RouteDef[]).map((r) => r.handler))].map((name) => ({ name, description: `Operations served by the ${name} Lambda` }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Vigía business API',
      version: info.version ?? '0.1.0',
      description: 'Business API of the Vigía portal and collectors. Rules on roles, tenants, errors and request checks: docs/api.md in the repository.',
    },
    servers: [{ url: info.serverUrl ?? '/' }],
    tags,
    paths,
    components: {
      schemas: { ApiError: schemaOf(ApiErrorBody, 'output') },
      responses: {
        MethodNotAllowed: {
          description: 'Error: METHOD_NOT_ALLOWED (answered by the gateway for a method the path does not define)',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiError' } } },
        },
      },
      securitySchemes: {
        cognitoIdToken: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Cognito user pool ID token (raw JWT, no Bearer prefix)' },
        sigv4: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'AWS Signature Version 4 (IAM), service execute-api', 'x-amazon-apigateway-authtype': 'awsSigv4' },
      },
    },
  };
}

/** Writes the document to `file` (pretty-printed JSON). */
export function writeOpenApi(file: string, info?: { version?: string; serverUrl?: string }): void {
  writeFileSync(file, `${JSON.stringify(openApiDocument(info), null, 2)}\n`);
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const out = process.argv[2] ?? 'openapi.json';
  writeOpenApi(out);
  console.log(`OpenAPI 3.1 written to ${out}`);
}
