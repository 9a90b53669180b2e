/**
 * Request parsing and validation for the API Lambdas: JSON bodies (size, content type, syntax, schema),
 * query strings and path parameters, all mapped to `ApiError`s (never a 500):
 *  - body over `MAX_BODY_BYTES` (decoded bytes)       → 413 PAYLOAD_TOO_LARGE
 *  - body present without `application/json` type     → 415 UNSUPPORTED_MEDIA_TYPE
 *  - body that is not JSON                            → 400 INVALID_JSON
 *  - schema mismatch (or a missing body)              → 400 VALIDATION_FAILED, `details: [{ path, message }]`
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type * as z from 'zod';
import { MAX_BODY_BYTES } from '../contract/schemas.js';
import { ApiError, type FieldIssue } from '../domain/errors.js';

/** zod issues → `[{ path, message }]`, paths prefixed with `body` / `query` / `path` and dot-joined. */
export function issuesToDetails(prefix: string, issues: readonly z.core.$ZodIssue[]): FieldIssue[] {
  const out: FieldIssue[] = [];
  for (const issue of issues) {
    const base = [prefix, ...issue.path.map((p) => String(p))].join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const k of issue.keys) out.push({ path: `${base}.${k}`, message: 'unknown field' });
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

/** Parses and validates the JSON body of `event` (see module doc for the error mapping). */
export function parseJsonBody<S extends z.ZodType>(event: APIGatewayProxyEvent, schema: S): z.output<S> {
  const raw = event.body;
  if (raw === null || raw === undefined || raw === '') {
    throw new ApiError('VALIDATION_FAILED', 'a JSON request body is required', [{ path: 'body', message: 'required' }]);
  }
  const buf = event.isBase64Encoded ? Buffer.from(raw, 'base64') : Buffer.from(raw, 'utf8');
  if (buf.byteLength > MAX_BODY_BYTES) {
    throw new ApiError('PAYLOAD_TOO_LARGE', `the request body exceeds ${MAX_BODY_BYTES} bytes`, { maxBytes: MAX_BODY_BYTES });
  }
  if (!isJsonContentType(header(event, 'content-type'))) {
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'the request body must be sent as application/json');
  }
  let json: unknown;
  try {
    json = JSON.parse(buf.toString('utf8'));
  } catch {
    throw new ApiError('INVALID_JSON', 'the request body is not valid JSON');
  }
  return validate(schema, json, 'body');
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
