/**
 * The shared plumbing of the API Lambdas: one Powertools HTTP `Router` per Lambda, with the routes of the
 * route table (`routesFor(name)`, `{id}` → `:id`), and for every request:
 *
 *  1. identity from `event.requestContext.authorizer.claims` only (absent → 401 UNAUTHORIZED);
 *  2. the route's `groups` (→ 403 FORBIDDEN; a user in no group is always 403, spec §5/§6);
 *  3. for tenant-scoped routes the active tenant (`tenant` query parameter; see `resolveTenant`);
 *  4. the operation (which validates its path/query/body through the context helpers);
 *  5. the result as JSON, or an error body `{ code, message, requestId, details? }` with the status from
 *     `ERROR_STATUS`. Unexpected errors → 500 INTERNAL_ERROR, logged with the stack, nothing leaked.
 *
 * CORS: `Access-Control-Allow-Origin` echoes the request's `Origin` when it is listed in the
 * comma-separated env var `ALLOWED_ORIGINS` (Powertools `cors` middleware); otherwise no CORS headers.
 */
import { Router, HttpError, ParameterValidationError } from '@aws-lambda-powertools/event-handler/http';
import { cors } from '@aws-lambda-powertools/event-handler/http/middleware';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type * as z from 'zod';
import { routesFor, toColonPath, type HandlerName, type OperationId, type RouteDef } from '../contract/routes.js';
import { ERROR_STATUS, TenantId, type ApiErrorBody, type ErrorCode } from '../contract/schemas.js';
import { ApiError } from '../domain/errors.js';
import { assertGroups, identityFromClaims, resolveTenant, type Identity } from '../domain/identity.js';
import { createRepository, type Repository } from '../data/index.js';
import { lambdaConfigFromEnv } from '../config.js';
import { logger } from './logger.js';
import { parseJsonBody, queryRecord, validate } from './validation.js';

/** What an operation receives. */
export interface OperationContext {
  event: APIGatewayProxyEvent;
  /** The Lambda context of the invocation (remaining time for Powertools idempotency). */
  lambdaContext: Context | undefined;
  /** API Gateway's request id (`requestContext.requestId`). */
  requestId: string;
  route: RouteDef;
  identity: Identity;
  /** Active tenant; `null` on routes that are not tenant-scoped. */
  tenantId: string | null;
  repo: Repository;
  now: Date;
  /** Path parameters validated with `schema` (400 VALIDATION_FAILED). */
  params<S extends z.ZodType>(schema: S): z.output<S>;
  /** Query string validated with `schema` (400 VALIDATION_FAILED; repeated parameters rejected). */
  query<S extends z.ZodType>(schema: S): z.output<S>;
  /** JSON body validated with `schema` (413 / 415 / 400 INVALID_JSON / 400 VALIDATION_FAILED). */
  body<S extends z.ZodType>(schema: S): z.output<S>;
}

/**
 * An operation's successful result: HTTP status and JSON body; or, with `contentType`, a text body sent as
 * is (e.g. a CSV download) with optional extra `headers` (e.g. `Content-Disposition`).
 */
export interface OperationResult {
  status: number;
  body: unknown;
  contentType?: string;
  headers?: Record<string, string>;
}

export type Operation = (ctx: OperationContext) => Promise<OperationResult>;

export interface ApiOptions {
  /** Storage; default: DynamoDB from the environment, created on first use. */
  repository?: () => Repository;
  /** Clock; default `new Date()`. */
  now?: () => Date;
  /** Allowed CORS origins; default from `ALLOWED_ORIGINS`. */
  allowedOrigins?: string[];
}

export type ApiHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/** Origins listed in `ALLOWED_ORIGINS` (comma-separated, trimmed, empty entries ignored). */
export function allowedOriginsFromEnv(value = process.env.ALLOWED_ORIGINS): string[] {
  return (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/**
 * Identity of an IAM-authorised caller (a collector): `requestContext.identity.userArn` (set by API Gateway
 * for AuthorizationType.IAM, and by the local gateway for its local access key). Null when absent.
 */
export function collectorIdentity(event: APIGatewayProxyEvent): Identity | null {
  const arn = event.requestContext?.identity?.userArn;
  if (typeof arn !== 'string' || arn.length === 0) return null;
  return { sub: arn, email: '', groups: [], tenants: [], isAdmin: false };
}

/** Status of a Powertools `HttpError` → our error code. */
function codeForHttpStatus(status: number): ErrorCode {
  switch (status) {
    case 400: return 'VALIDATION_FAILED';
    case 401: return 'UNAUTHORIZED';
    case 403: return 'FORBIDDEN';
    case 404: return 'NOT_FOUND';
    case 405: return 'METHOD_NOT_ALLOWED';
    case 413: return 'PAYLOAD_TOO_LARGE';
    default: return 'INTERNAL_ERROR';
  }
}

/** Any thrown value → the API error response (logs unexpected errors with their stack). */
export function errorResponse(err: unknown, requestId: string): Response {
  let code: ErrorCode;
  let message: string;
  let details: unknown;
  if (err instanceof ApiError) {
    ({ code, message, details } = err);
  } else if (err instanceof URIError) {
    code = 'VALIDATION_FAILED';
    message = 'malformed percent-encoding in the path';
  } else if (err instanceof ParameterValidationError) {
    // Powertools refuses blank path parameters (e.g. `/incidents/%20`) before our schemas run.
    code = 'VALIDATION_FAILED';
    message = 'invalid path parameter';
  } else if (err instanceof HttpError && err.statusCode < 500) {
    code = codeForHttpStatus(err.statusCode);
    message = code === 'NOT_FOUND' ? 'no such route' : err.message;
  } else {
    if (err instanceof Error) logger.error('unexpected error', err);
    else logger.error('unexpected error', { error: String(err) });
    code = 'INTERNAL_ERROR';
    message = 'internal error';
  }
  const body: ApiErrorBody = { code, message, requestId, ...(details !== undefined ? { details } : {}) };
  return json(ERROR_STATUS[code], body);
}

/**
 * Builds the Lambda handler of `name` from its operations (one per route-table row whose `handler` is
 * `name`). @throws Error at start-up if an operation of the route table is missing (a programming error).
 */
export function createApi(name: HandlerName, operations: Partial<Record<OperationId, Operation>>, opts: ApiOptions = {}): ApiHandler {
  let repo: Repository | undefined;
  const getRepo = (): Repository => (repo ??= opts.repository ? opts.repository() : createRepository(lambdaConfigFromEnv({ STAGE: 'unknown', ...process.env })));
  const now = opts.now ?? (() => new Date());
  const app = new Router({ logger });
  app.use(cors({ origin: opts.allowedOrigins ?? allowedOriginsFromEnv(), allowHeaders: ['Authorization', 'Content-Type'] }));

  for (const route of routesFor(name)) {
    const op = operations[route.operationId as OperationId];
    if (!op) throw new Error(`handler ${name}: no operation for ${route.operationId}`);
    const path = toColonPath(route.path) as `/${string}`;
    app.route(
      async (reqCtx) => {
        const event = reqCtx.event as APIGatewayProxyEvent;
        const requestId = event.requestContext?.requestId ?? '';
        logger.appendKeys({ operationId: route.operationId });
        try {
          const claims = event.requestContext?.authorizer?.claims as Record<string, unknown> | undefined;
          let identity: Identity | null;
          if (route.auth === 'iam') {
            // Collector routes: API Gateway verified the SigV4 signature; the caller is an IAM principal.
            if (claims) throw new ApiError('FORBIDDEN', 'collector routes do not accept user tokens');
            identity = collectorIdentity(event);
            if (!identity) throw new ApiError('UNAUTHORIZED', 'missing IAM caller identity');
          } else {
            identity = identityFromClaims(claims);
            if (!identity) throw new ApiError('UNAUTHORIZED', 'missing or invalid identity');
          }
          logger.appendKeys({ sub: identity.sub });
          if (route.auth !== 'iam') assertGroups(identity, route.groups);
          const rawQuery = queryRecord(event);
          let tenantId: string | null = null;
          if (route.tenantScoped) {
            const requested = rawQuery.tenant === undefined ? undefined : validate(TenantId, rawQuery.tenant, 'query');
            tenantId = await resolveTenant(identity, requested, async (id) => (await getRepo().tenants.getTenant(id)) !== null);
            logger.appendKeys({ tenantId });
          }
          const ctx: OperationContext = {
            event,
            lambdaContext: reqCtx.context as Context | undefined,
            requestId,
            route,
            identity,
            tenantId,
            repo: getRepo(),
            now: now(),
            params: (schema) => validate(schema, reqCtx.params, 'path'),
            query: (schema) => validate(schema, rawQuery, 'query'),
            body: (schema) => parseJsonBody(event, schema),
          };
          const result = await op(ctx);
          if (result.contentType !== undefined) {
            return new Response(String(result.body), { status: result.status, headers: { ...result.headers, 'Content-Type': result.contentType } });
          }
          return json(result.status, result.body);
        } catch (err) {
          return errorResponse(err, requestId);
        }
      },
      { method: route.method, path },
    );
  }
  const notFound = async (err: Error, reqCtx: { event: unknown }): Promise<Response> =>
    errorResponse(err, (reqCtx.event as APIGatewayProxyEvent).requestContext?.requestId ?? '');
  app.notFound(notFound);
  app.errorHandler(Error, notFound);

  return async (event, context) => {
    const started = Date.now();
    logger.resetKeys();
    logger.addContext(context);
    logger.appendKeys({ requestId: event.requestContext?.requestId });
    // `new Request()` refuses a body on GET/HEAD; such a body is meaningless, drop it instead of failing.
    const method = (event.httpMethod ?? '').toUpperCase();
    const ev: APIGatewayProxyEvent =
      (method === 'GET' || method === 'HEAD') && event.body != null ? { ...event, body: null, isBase64Encoded: false } : event;
    let res: APIGatewayProxyResult;
    try {
      res = await app.resolve(ev, context);
    } catch (err) {
      const r = errorResponse(err, event.requestContext?.requestId ?? '');
      res = { statusCode: r.status, headers: { 'Content-Type': 'application/json' }, body: await r.text() };
    }
    logger.info('request', { method, status: res.statusCode, durationMs: Date.now() - started });
    return res;
  };
}
