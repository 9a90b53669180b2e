/**
 * Request checks of the API Lambdas, all mapped to `ApiError`s (never a 500); the order and the error
 * bodies are listed in docs/api.md#request-checks.
 *
 *  - `validateRequest(route, event, params, query)`: the route row's schemas, in the order path, query,
 *    header, body; the first failing part answers 400 VALIDATION_FAILED with `details: [{ path, message }]`;
 *    before the body schema, `checkBodyEnvelope(event)`:
 *      body missing                                   → 400 VALIDATION_FAILED (`details: [{ path: 'body' }]`)
 *      body over `MAX_BODY_BYTES` (decoded bytes)     → 413 PAYLOAD_TOO_LARGE
 *      body without `application/json` media type    → 415 UNSUPPORTED_MEDIA_TYPE
 *      body nested deeper than `MAX_JSON_DEPTH` levels → 400 VALIDATION_FAILED (`details: [{ path: 'body' }]`),
 *                                                       found by an iterative scan of the raw text BEFORE
 *                                                       JSON.parse or any walk of the value;
 *      body that is not JSON                          → 400 INVALID_JSON;
 *  - `queryRecord(event)`: the query string as a record, a repeated parameter refused;
 *  - every string of the request (path parameters, query, declared headers, the JSON body's keys and values at
 *    any depth) must be well-formed UTF-16, checked before each part's schema: a lone surrogate (which
 *    DynamoDB refuses with `SerializationException`, and which no UTF-8 text can hold) → 400
 *    VALIDATION_FAILED naming the field (`body.title`, `query.q`), for every field of every row
 *    (`assertWellFormed`; docs/api.md#request-checks).
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type * as z from 'zod';
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

/** A lone UTF-16 surrogate: a high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether `s` is a well-formed UTF-16 string (`String.prototype.isWellFormed`, ES2024). */
export function isWellFormed(s: string): boolean {
  return !LONE_SURROGATE.test(s);
}

/**
 * The dotted path (`body.items.0.title`) of the first string in `value` — a string, an array element, an
 * object key or value at any depth, in document order — that is not well-formed UTF-16; `null` when every
 * string is. Iterative (an explicit stack), so no nesting depth can overflow the call stack.
 */
export function illFormedPath(value: unknown, prefix: string): string | null {
  // `key: true` entries check an object key; they are pushed above their value so the key is seen first.
  const stack: Array<{ v: unknown; path: string; key?: true }> = [{ v: value, path: prefix }];
  while (stack.length > 0) {
    const { v, path, key } = stack.pop()!;
    if (key || typeof v === 'string') {
      if (!isWellFormed(v as string)) return path;
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], path: `${path}.${i}` });
    } else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, child] = entries[i]!;
        stack.push({ v: child, path: `${path}.${k}` }, { v: k, path: `${path}.${k}`, key: true });
      }
    }
  }
  return null;
}

/**
 * Most levels of nested arrays and objects a JSON request body may have (`{}` and `[]` are one level,
 * `{"a":[{}]}` three). The deepest valid body of any route's schema is 3 levels (PATCH /tenants/{id}); a
 * body nested deeper than this is refused with 400 VALIDATION_FAILED before it is parsed or walked
 * (docs/api.md#request-checks). A 16 KB body can nest ~8,000 levels, which overflowed the recursive walk.
 */
export const MAX_JSON_DEPTH = 32;

/**
 * Whether the JSON text `raw` opens more than `max` arrays/objects at once: one pass over the characters,
 * counting `[`/`{` against `]`/`}` outside string literals (a `\` escape inside a string skips the next
 * character). No recursion and no parse, so any input — valid JSON or not — is scanned in O(length).
 */
export function jsonDepthExceeds(raw: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > max) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      depth--;
    }
  }
  return false;
}

/** @throws ApiError VALIDATION_FAILED naming the first string of `value` that is not well-formed UTF-16. */
export function assertWellFormed(value: unknown, prefix: 'body' | 'query' | 'path' | 'header'): void {
  const path = illFormedPath(value, prefix);
  if (path !== null) {
    throw new ApiError('VALIDATION_FAILED', `invalid request ${prefix}`, [{ path, message: 'must be well-formed Unicode text (no lone surrogate)' }]);
  }
}

/** The validated request of a row: path parameters, query, declared headers (by documented name) and body. */
export interface ValidRequest {
  params: unknown;
  query: unknown;
  headers: Record<string, unknown>;
  body: unknown;
}

/**
 * Validates a request against its row's schemas (see module doc); `params` are the Router's path
 * parameters and `query` the result of `queryRecord`.
 * @throws ApiError VALIDATION_FAILED, PAYLOAD_TOO_LARGE, UNSUPPORTED_MEDIA_TYPE, INVALID_JSON
 */
export function validateRequest(route: RouteDef, event: APIGatewayProxyEvent, params: Record<string, string>, query: Record<string, string>): ValidRequest {
  const req = route.request;
  const out: ValidRequest = { params: undefined, query: undefined, headers: {}, body: undefined };
  if (req.params) {
    assertWellFormed(params, 'path');
    out.params = validate(req.params, params, 'path');
  }
  assertWellFormed(query, 'query');
  out.query = validate(req.query, query, 'query');
  if (req.headers) {
    for (const [name, schema] of Object.entries(req.headers)) {
      const v = header(event, name);
      if (v === undefined) continue;
      assertWellFormed({ [name]: v }, 'header');
      out.headers[name] = validate(schema, v, 'header');
    }
  }
  if (req.body) {
    checkBodyEnvelope(event);
    const body = parseJson(event);
    assertWellFormed(body, 'body');
    out.body = validate(req.body, body, 'body');
  }
  return out;
}

/**
 * The JSON body of an event whose envelope passed `checkBodyEnvelope`; its nesting is checked on the raw
 * text first (`jsonDepthExceeds`).
 * @throws ApiError VALIDATION_FAILED (deeper than `MAX_JSON_DEPTH`), INVALID_JSON
 */
function parseJson(event: APIGatewayProxyEvent): unknown {
  const raw = event.body ?? '';
  const text = event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw;
  if (jsonDepthExceeds(text)) {
    throw new ApiError('VALIDATION_FAILED', `the request body is nested deeper than ${MAX_JSON_DEPTH} levels`, [
      { path: 'body', message: `nested deeper than ${MAX_JSON_DEPTH} levels of arrays and objects` },
    ]);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError('INVALID_JSON', 'the request body is not valid JSON');
  }
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
 * silently keep the last value, which would make `tenant` ambiguous), and so is a name or value that is
 * not well-formed UTF-16 (before the `tenant` parameter is read).
 * @throws ApiError VALIDATION_FAILED
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
  assertWellFormed(out, 'query');
  return out;
}
