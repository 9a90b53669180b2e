/**
 * OpenAPI 3.1 document of the business API, generated from the route table (`routes.ts`) and the zod
 * schemas of each operation (`operations.ts`) with zod 4's `z.toJSONSchema` (JSON Schema draft 2020-12,
 * which OpenAPI 3.1 uses as its schema dialect). Served by the local gateway at `/openapi.json` and written
 * to a file for deployments by `writeOpenApi` (`npx tsx lambdas/contract/openapi.ts <out.json>`).
 *
 * Security: `cognitoIdToken` (the user pool's ID token in `Authorization`) on user routes; `sigv4`
 * (AWS IAM, Signature Version 4) on the collectors' `auth: 'iam'` routes.
 */
import { writeFileSync } from 'node:fs';
import * as z from 'zod';
import { OPERATION_SCHEMAS, type OperationSchemas } from './operations.js';
import { ROUTES, type RouteDef } from './routes.js';
import { ApiErrorBody, ERROR_STATUS } from './schemas.js';

type Json = Record<string, unknown>;

function schemaOf(s: z.ZodType, io: 'input' | 'output'): Json {
  const j = z.toJSONSchema(s, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Json;
  delete j.$schema;
  return j;
}

/** One `parameters` entry per property of an object schema (`in: path | query | header`). */
function parametersOf(s: z.ZodType | undefined, where: 'path' | 'query'): Json[] {
  if (!s) return [];
  const j = schemaOf(s, 'input');
  const props = (j.properties ?? {}) as Record<string, Json>;
  const required = new Set((j.required as string[] | undefined) ?? []);
  return Object.entries(props).map(([name, schema]) => ({ name, in: where, required: where === 'path' || required.has(name), schema }));
}

/** Error statuses each route can answer (documented with the shared error body). */
function errorStatuses(route: RouteDef, ops: OperationSchemas): number[] {
  const out = new Set<number>([400, 401, 403, 429]);
  if (route.path.includes('{') || route.tenantScoped) out.add(404);
  if (ops.body) {
    out.add(413);
    out.add(415);
  }
  if (['updateIncident', 'acknowledgeAlarm', 'createIncident', 'updateRecommendation'].includes(route.operationId)) out.add(409);
  if (route.auth === 'iam') out.add(404);
  return [...out].sort();
}

/** The OpenAPI 3.1 document (plain JSON). */
export function openApiDocument(info: { version?: string; serverUrl?: string } = {}): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const route of ROUTES as readonly RouteDef[]) {
    const ops = OPERATION_SCHEMAS[route.operationId as keyof typeof OPERATION_SCHEMAS] as OperationSchemas;
    const headerParams = Object.entries(ops.headers ?? {}).map(([name, s]) => ({ name, in: 'header', required: false, schema: schemaOf(s, 'input') }));
    const responses: Record<string, Json> = {
      [String(ops.status)]: { description: 'Success', content: { 'application/json': { schema: schemaOf(ops.response, 'output') } } },
    };
    for (const st of errorStatuses(route, ops)) {
      const codes = Object.entries(ERROR_STATUS).filter(([, v]) => v === st).map(([k]) => k);
      responses[String(st)] = { description: `Error: ${codes.join(', ')}`, content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiError' } } } };
    }
    (paths[route.path] ??= {})[route.method.toLowerCase()] = {
      operationId: route.operationId,
      summary: route.summary,
      tags: [route.handler],
      security: [route.auth === 'iam' ? { sigv4: [] } : { cognitoIdToken: [] }],
      ...(route.groups.length ? { 'x-vigia-groups': route.groups } : {}),
      parameters: [...parametersOf(ops.params, 'path'), ...parametersOf(ops.query, 'query'), ...headerParams],
      ...(ops.body ? { requestBody: { required: true, content: { 'application/json': { schema: schemaOf(ops.body, 'input') } } } } : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Vigía business API', version: info.version ?? '0.1.0' },
    ...(info.serverUrl ? { servers: [{ url: info.serverUrl }] } : {}),
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
