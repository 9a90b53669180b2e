/**
 * Request checks of the API Lambdas, all mapped to `ApiError`s (never a 500); the order and the error
 * bodies are listed in docs/api.md#request-checks.
 *
 *  - `requestValidation(route)`: the route row's schemas as Powertools' `validation.req` (Standard Schema
 *    adapters over zod, so a failure carries our `details: [{ path, message }]`);
 *  - `validationFailure(err)`: Powertools' `RequestValidationError` → 400 VALIDATION_FAILED (the first
 *    failing part in the order path, query, header, body) or 400 INVALID_JSON;
 *  - `checkBodyEnvelope(event)`: what must hold before a JSON body is parsed:
 *      body missing                                   → 400 VALIDATION_FAILED (`details: [{ path: 'body' }]`)
 *      body over `MAX_BODY_BYTES` (decoded bytes)     → 413 PAYLOAD_TOO_LARGE
 *      body without `application/json` media type    → 415 UNSUPPORTED_MEDIA_TYPE;
 *  - `queryRecord(event)`: the query string as a record, a repeated parameter refused.
 */
import type { RequestValidationError } from '@aws-lambda-powertools/event-handler/http';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import * as z from 'zod';
import type { RouteDef } from '../contract/routes.js';
import { MAX_BODY_BYTES } from '../contract/schemas.js';
import { ApiError, type FieldIssue } from '../domain/errors.js';

/** zod issues → `[{ path, message }]`, paths prefixed with `body` / `query` / `path` / `header` and dot-joined. */
export function issuesToDetails(prefix: string, issues: readonly z.core.$ZodIssue[]): FieldIssue[] {
  return zodIssues(issues).map((i) => ({ path: [prefix, ...i.path].join('.'), message: i.message }));
}

/** zod issues with an unknown key expanded to one `unknown field` issue per key. */
function zodIssues(issues: readonly z.core.$ZodIssue[]): { path: string[]; message: string }[] {
  const out: { path: string[]; message: string }[] = [];
  for (const issue of issues) {
    const base = issue.path.map((p) => String(p));
    if (issue.code === 'unrecognized_keys') {
      for (const k of issue.keys) out.push({ path: [...base, k], message: 'unknown field' });
    } else {
      out.push({ path: base, message: issue.message });
    }
  }
  return out;
}

/** Parses `value` with `schema` or throws VALIDATION_FAILED with per-field details under `prefix`. */
export function validate<S extends z.ZodType>(schema: S, value: unknown, prefix: 'body' | 'query' | 'path' | 'header'): z.output<S> {
  const r = schema.safeParse(value);
  if (!r.success) {
    throw new ApiError('VALIDATION_FAILED', `invalid request ${prefix}`, issuesToDetails(prefix, r.error.issues));
  }
  return r.data;
}

/** A zod schema as a Standard Schema whose issues are already in our detail form (see `zodIssues`). */
function standard<S extends z.ZodType>(schema: S, map: (v: z.output<S>) => unknown = (v) => v): StandardSchemaV1<unknown, unknown> {
  return {
    '~standard': {
      version: 1,
      vendor: 'vigia',
      validate: (value) => {
        const r = schema.safeParse(value);
        return r.success ? { value: map(r.data) } : { issues: zodIssues(r.error.issues) };
      },
    },
  };
}

/**
 * Optional request headers `name → schema` as one schema over Powertools' header record (lower-case
 * names); the validated value and issue paths use the names as documented (`Idempotency-Key`).
 */
function headerSchema(headers: Readonly<Record<string, z.ZodType>>): StandardSchemaV1<unknown, unknown> {
  const names = Object.keys(headers);
  const lower = z.object(Object.fromEntries(names.map((n) => [n.toLowerCase(), headers[n]!.optional()])));
  return {
    '~standard': {
      version: 1,
      vendor: 'vigia',
      validate: (value) => {
        const r = lower.safeParse(value);
        if (!r.success) {
          const byLower = new Map(names.map((n) => [n.toLowerCase(), n]));
          return { issues: zodIssues(r.error.issues).map((i) => ({ ...i, path: i.path.map((p, k) => (k === 0 ? (byLower.get(p) ?? p) : p)) })) };
        }
        const data = r.data as Record<string, unknown>;
        return { value: Object.fromEntries(names.map((n) => [n, data[n.toLowerCase()]])) };
      },
    },
  };
}

/** Powertools `validation.req` of a route row (body, headers, path, query as the row declares them). */
export function requestValidation(route: RouteDef): { body?: StandardSchemaV1; headers?: StandardSchemaV1; path?: StandardSchemaV1; query: StandardSchemaV1 } {
  const { params, query, body, headers } = route.request;
  return {
    query: standard(query),
    ...(params ? { path: standard(params) } : {}),
    ...(headers ? { headers: headerSchema(headers) } : {}),
    ...(body ? { body: standard(body) } : {}),
  };
}

/** Order in which request parts are reported: only the first failing part's issues are answered. */
const PARTS = [
  ['path', 'path'],
  ['query', 'query'],
  ['headers', 'header'],
  ['body', 'body'],
] as const;

/** Powertools' request validation failure → our `ApiError` (see module doc). */
export function validationFailure(err: RequestValidationError): ApiError {
  const issues = ((err.details as { issues?: { message: string; path?: readonly unknown[] }[] } | undefined)?.issues ?? []).map((i) => ({
    message: i.message,
    path: (i.path ?? []).map((p) => String(typeof p === 'object' && p !== null && 'key' in p ? (p as { key: unknown }).key : p)),
  }));
  if (issues.length === 0) return new ApiError('INVALID_JSON', 'the request body is not valid JSON');
  for (const [part, prefix] of PARTS) {
    const mine = issues.filter((i) => i.path[0] === part);
    if (mine.length > 0) {
      return new ApiError('VALIDATION_FAILED', `invalid request ${prefix}`, mine.map((i) => ({ path: [prefix, ...i.path.slice(1)].join('.'), message: i.message })));
    }
  }
  return new ApiError('VALIDATION_FAILED', 'invalid request', issues.map((i) => ({ path: i.path.join('.'), message: i.message })));
}

/** Case-insensitive header lookup on an API Gateway v1 event. */
export function header(event: APIGatewayProxyEvent, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const [k, v] of Object.entries(event.headers ?? {})) if (k.toLowerCase() === lower && v != null) return v;
  return undefined;
}

/** Whether a Content-Type header value denotes JSON (`application/json`, optionally with parameters). */
export function isJsonContentType(value: string | undefined): boolean {
  if (!value) return false;
  const media = value.split(';')[0]!.trim().toLowerCase();
  return media === 'application/json';
}

/** The checks before a JSON body is parsed (see module doc). @throws ApiError */
export function checkBodyEnvelope(event: APIGatewayProxyEvent): void {
  const raw = event.body;
  if (raw === null || raw === undefined || raw === '') {
    throw new ApiError('VALIDATION_FAILED', 'a JSON request body is required', [{ path: 'body', message: 'required' }]);
  }
  const bytes = event.isBase64Encoded ? Buffer.from(raw, 'base64').byteLength : Buffer.byteLength(raw, 'utf8');
  if (bytes > MAX_BODY_BYTES) {
    throw new ApiError('PAYLOAD_TOO_LARGE', `the request body exceeds ${MAX_BODY_BYTES} bytes`, { maxBytes: MAX_BODY_BYTES });
  }
  if (!isJsonContentType(header(event, 'content-type'))) {
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'the request body must be sent as application/json');
  }
}

/**
 * The query string as a plain record; a parameter given more than once is rejected (API Gateway would
 * silently keep the last value, which would make `tenant` ambiguous).
 */
export function queryRecord(event: APIGatewayProxyEvent): Record<string, string> {
  const multi = event.multiValueQueryStringParameters ?? {};
  const repeated = Object.entries(multi).filter(([, v]) => (v?.length ?? 0) > 1).map(([k]) => k);
  if (repeated.length > 0) {
    throw new ApiError(
      'VALIDATION_FAILED',
      'invalid request query',
      repeated.map((k) => ({ path: `query.${k}`, message: 'must be given at most once' })),
    );
  }
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(event.queryStringParameters ?? {})) if (v != null) out[k] = v;
  return out;
}
