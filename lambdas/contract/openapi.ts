/**
 * OpenAPI 3.1 document of the business API, generated from the route table's rows (`routes.ts`) with zod
 * 4's `z.toJSONSchema` (JSON Schema draft 2020-12, OpenAPI 3.1's schema dialect). Every operation lists
 * each status it can answer: its success statuses (e.g. ingest 202 applied / 200 replay), the `text/csv`
 * variant where offered, and the error statuses of `errorCodes(row)`, plus what API Gateway and Lambda answer
 * in front of the handler (`lambdas/contract/platform-limits.ts`, docs/local-emulation.md#api-gateway):
 *  - 502 INTERNAL_ERROR on every operation: the function failed, timed out, ran out of memory or returned
 *    over 6 MB; 504 INTERNAL_ERROR where the function's timeout is longer than the integration timeout;
 *  - 413 `text/plain` on every operation: API Gateway's own answer to a body over 10 MB;
 *  - a method a path does not define, or a path not in the document: 404 NOT_FOUND "Missing Authentication
 *    Token" (API Gateway's MISSING_AUTHENTICATION_TOKEN gateway response, as the stage customizes it), in each
 *    path item's `x-vigia-other-methods` and the root's `x-amazon-apigateway-gateway-responses` (the stage's
 *    gateway responses, API Gateway's own OpenAPI extension). No operation documents 405: API Gateway never
 *    answers it.
 * `npx @redocly/cli lint` reports no error on it (an integration test runs it).
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
import {
  API_GATEWAY_QUOTAS,
  FUNCTION_LIMITS,
  GATEWAY_RESPONSES,
  GATEWAY_RESPONSES_NOT_CUSTOMIZABLE,
  gatewayAnswer,
} from './platform-limits.js';

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

function errorResponse(codes: readonly ErrorCode[], why?: string): Json {
  return {
    description: `Error: ${codes.join(', ')}${why ? ` (${why})` : ''}`,
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
  // In front of the handler (lambdas/contract/platform-limits.ts): a function error through DEFAULT_5XX, the
  // integration timeout where the function may outlast it, API Gateway's own 413 over 10 MB.
  const failed = gatewayAnswer('DEFAULT_5XX', 502);
  responses[String(failed.status)] = errorResponse([failed.code], 'the function failed, timed out, ran out of memory or returned over 6 MB');
  if (FUNCTION_LIMITS[route.handler].timeoutSeconds > API_GATEWAY_QUOTAS.integrationTimeoutSeconds) {
    const timedOut = gatewayAnswer('INTEGRATION_TIMEOUT');
    responses[String(timedOut.status)] = errorResponse([timedOut.code], `no answer within the ${API_GATEWAY_QUOTAS.integrationTimeoutSeconds} s integration timeout`);
  }
  const tooLarge = responses['413'] as { content?: Json } | undefined;
  responses['413'] = tooLarge
    ? { ...tooLarge, content: { ...tooLarge.content, ...REQUEST_TOO_LARGE_CONTENT } }
    : { description: 'A body over API Gateway\'s 10 MB payload quota (API Gateway\'s own answer, not the API\'s error shape)', content: REQUEST_TOO_LARGE_CONTENT };
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

/** API Gateway's own answer to a body over 10 MB (its REQUEST_TOO_LARGE response cannot be customized). */
const REQUEST_TOO_LARGE_CONTENT: Json = {
  'text/plain': { schema: { type: 'string', description: 'API Gateway\'s message: a body over its 10 MB payload quota' } },
};

/** What a method a path does not define answers: the stage's MISSING_AUTHENTICATION_TOKEN gateway response. */
function otherMethodsResponses(): Json {
  const a = gatewayAnswer('MISSING_AUTHENTICATION_TOKEN');
  return {
    [String(a.status)]: {
      description: `Error: ${a.code} "Missing Authentication Token" (API Gateway's MISSING_AUTHENTICATION_TOKEN gateway response, before any authorizer)`,
      content: { 'application/json': { schema: { allOf: [{ $ref: '#/components/schemas/ApiError' }, { properties: { code: { enum: [a.code] } } }] } } },
    },
  };
}

/**
 * The stage's gateway responses in API Gateway's OpenAPI extension `x-amazon-apigateway-gateway-responses`
 * ("x-amazon-apigateway-gateway-responses object", API Gateway developer guide,
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-swagger-extensions-gateway-responses.html),
 * without the ones API Gateway does not let a stage customize.
 */
function gatewayResponsesExtension(): Json {
  return Object.fromEntries(
    GATEWAY_RESPONSES.filter((r) => !GATEWAY_RESPONSES_NOT_CUSTOMIZABLE.includes(r.type)).map((r) => [
      r.type,
      {
        ...(r.statusCode !== undefined ? { statusCode: r.statusCode } : {}),
        responseTemplates: { 'application/json': `{"code":"${r.code}","message":$context.error.messageString,"requestId":"$context.requestId"}` },
      },
    ]),
  );
}

/**
 * The OpenAPI 3.1 document (plain JSON). `serverUrl`: the API's base URL (default `/`, the document's own
 * origin, as when the local gateway serves it).
 */
export function openApiDocument(info: { version?: string; serverUrl?: string } = {}): Json {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of ROUTES as readonly RouteDef[]) {
    (paths[route.path] ??= {
      description: 'A method not listed here answers 404 NOT_FOUND "Missing Authentication Token" (`x-vigia-other-methods`).',
      'x-vigia-other-methods': otherMethodsResponses(),
    })[route.method.toLowerCase()] = operationOf(route);
  }
  const tags = [...new Set((ROUTES as readonly RouteDef[]).map((r) => r.handler))].map((name) => ({ name, description: `Operations served by the ${name} Lambda` }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Vigía business API',
      version: info.version ?? '0.1.0',
      description: 'Business API of the Vigía portal and collectors. Rules on roles, tenants, errors and request checks: docs/api.md in the repository.',
    },
    servers: [{ url: info.serverUrl ?? '/' }],
    'x-amazon-apigateway-gateway-responses': gatewayResponsesExtension(),
    tags,
    paths,
    components: {
      schemas: { ApiError: schemaOf(ApiErrorBody, 'output') },
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
