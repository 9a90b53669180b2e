/**
 * Checks API responses against the generated OpenAPI document (`openApiDocument()`): the operation is found
 * by method and path template, the status must be one the operation documents, the media type one of that
 * response's `content`, and a JSON body must match its schema (ajv, JSON Schema 2020-12, formats such as
 * `date-time` checked). A method a documented path does not define must answer what the path item's
 * `x-vigia-other-methods` documents (404 NOT_FOUND, API Gateway's MISSING_AUTHENTICATION_TOKEN as the stage
 * customizes it); a path the document does not define, the status the root's
 * `x-amazon-apigateway-gateway-responses` gives MISSING_AUTHENTICATION_TOKEN, with the error body. Used by the in-process helper (`in-process-api.ts`, every handler it hands out) and by
 * the gateway suites, so every response an integration test receives is checked.
 *
 * Errors: `checkResponse` throws `OpenApiMismatch` naming the operation, status and the first schema errors.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import { openApiDocument } from '../../lambdas/contract/openapi.js';

// ajv-formats is CommonJS with `exports.default`; under ESM interop the callable may sit one level down.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;

/** A response as a test received it. */
export interface ReceivedResponse {
  method: string;
  /** Concrete path, without query string (e.g. `/incidents/INC-000001`). */
  path: string;
  status: number;
  /** The `Content-Type` header (parameters allowed), if any. */
  contentType: string | undefined;
  body: string;
}

export class OpenApiMismatch extends Error {
  override readonly name = 'OpenApiMismatch';
}

type Json = Record<string, unknown>;

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** A checker over one document (compiled schemas are cached per operation, status and media type). */
export function createResponseValidator(doc: Json = openApiDocument()) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema(doc, 'openapi');
  const paths = doc.paths as Record<string, Record<string, Json>>;
  const templates = Object.keys(paths).map((t) => ({
    template: t,
    regex: new RegExp(`^${t.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
  }));
  const cache = new Map<string, ValidateFunction>();
  const schemaAt = (ptr: string): ValidateFunction => {
    let v = cache.get(ptr);
    if (!v) {
      v = ajv.getSchema(`openapi#/${ptr}`);
      if (!v) throw new OpenApiMismatch(`no schema at ${ptr}`);
      cache.set(ptr, v);
    }
    return v;
  };

  /** Throws `OpenApiMismatch` unless `res` is a response the document allows. */
  function checkResponse(res: ReceivedResponse): void {
    const method = res.method.toLowerCase();
    const where = `${res.method} ${res.path} → ${res.status}`;
    const media = (res.contentType ?? '').split(';')[0]!.trim().toLowerCase();
    const template = templates.find((t) => t.regex.test(res.path))?.template;
    const operation = template ? paths[template]![method] : undefined;
    if (!template) {
      const missing = ((doc['x-amazon-apigateway-gateway-responses'] ?? {}) as Record<string, { statusCode?: number }>).MISSING_AUTHENTICATION_TOKEN;
      if (res.status !== missing?.statusCode) throw new OpenApiMismatch(`${where}: undocumented path answered ${res.status}`);
      validateJson(where, media, res.body, pointer('components', 'schemas', 'ApiError'));
      return;
    }
    if (!operation) {
      const other = (paths[template]!['x-vigia-other-methods'] ?? {}) as Record<string, Json>;
      if (!other[String(res.status)]) throw new OpenApiMismatch(`${where}: a method ${template} does not define answered ${res.status}`);
      validateJson(where, media, res.body, pointer('paths', template, 'x-vigia-other-methods', String(res.status), 'content', 'application/json', 'schema'));
      return;
    }
    let ptr = pointer('paths', template, method, 'responses', String(res.status));
    let response = (operation.responses as Record<string, Json>)[String(res.status)];
    if (!response) throw new OpenApiMismatch(`${where}: status not documented for ${String(operation.operationId)}`);
    if (typeof response.$ref === 'string') {
      const name = response.$ref.split('/').pop()!;
      ptr = pointer('components', 'responses', name);
      response = ((doc.components as Json).responses as Record<string, Json>)[name]!;
    }
    const content = (response.content ?? {}) as Record<string, Json>;
    // A documented answer without content (304 Not Modified) has no body and no content type.
    if (response.content === undefined && !res.contentType && !res.body) return;
    if (!(media in content)) throw new OpenApiMismatch(`${where}: content type '${res.contentType}' not documented (${Object.keys(content).join(', ')})`);
    if (media === 'application/json') validateJson(where, media, res.body, `${ptr}/${pointer('content', media, 'schema')}`);
  }

  function validateJson(where: string, media: string, body: string, ptr: string): void {
    if (media !== 'application/json') throw new OpenApiMismatch(`${where}: expected application/json, got '${media}'`);
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      throw new OpenApiMismatch(`${where}: body is not JSON: ${body.slice(0, 200)}`);
    }
    const v = schemaAt(ptr);
    if (!v(value)) {
      throw new OpenApiMismatch(`${where}: body does not match ${ptr}: ${ajv.errorsText(v.errors?.slice(0, 5))}\nbody: ${body.slice(0, 500)}`);
    }
  }

  return { checkResponse };
}

export type ResponseValidator = ReturnType<typeof createResponseValidator>;
