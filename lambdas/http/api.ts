/**
 * The shared plumbing of the API Lambdas: one Powertools HTTP `Router` per Lambda with the rows of the
 * route table whose `handler` is that Lambda. Everything an operation needs is registered ONCE from its
 * row, with what the Router offers:
 *
 *  1. `cors` middleware (global): `Access-Control-Allow-Origin` echoes a request `Origin` listed in
 *     `config.allowedOrigins`, on errors too; pre-flights allow `config.allowedHeaders`;
 *  2. the request middleware (typed Router middleware, one per row): identity from the verified claims
 *     (or the IAM caller on collector routes), the row's `groups`, a repeated query parameter refused,
 *     the active tenant of a tenant-scoped row, then the row's request schemas: path, query, headers, and
 *     for a JSON body its envelope (presence, size, media type, syntax) before its schema. Powertools' own `validation`
 *     option would parse the URL and clone the request once more per call, and report every part at
 *     once; this keeps the per-request cost of the list routes and the first-failing-part answers;
 *  3. the operation: a function of the validated, typed input that calls the domain layer;
 *  4. the result as JSON with the row's status (or a CSV attachment), and one `errorHandler` that maps
 *     every thrown error to the body `{ code, message, requestId, details? }` with the status of its code
 *     (`ERROR_STATUS`); the table throttling or unreachable → 503 SERVICE_UNAVAILABLE with `Retry-After`
 *     (`faults.ts`); unexpected errors → 500 INTERNAL_ERROR, logged with the stack, nothing leaked.
 *
 * Order of the checks and the error bodies: docs/api.md#request-checks.
 */
import { Router, HttpError, ParameterValidationError } from '@aws-lambda-powertools/event-handler/http';
import { cors } from '@aws-lambda-powertools/event-handler/http/middleware';
import type { Middleware, RequestContext } from '@aws-lambda-powertools/event-handler/types';
import type { Logger } from '@aws-lambda-powertools/logger';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type * as z from 'zod';
import { lambdaConfigFromEnv, type LambdaConfig } from '../config.js';
import {
  routesFor,
  successStatuses,
  toColonPath,
  type HandlerName,
  type OperationId,
  type OperationResponse,
  type OperationsOf,
  type RouteDef,
  type RouteOf,
} from '../contract/routes.js';
import { ERROR_STATUS, TenantId, type ApiErrorBody, type ErrorCode } from '../contract/schemas.js';
import { createRepository, type Repository } from '../data/index.js';
import { ApiError } from '../domain/errors.js';
import { assertRowAccess, identityFromClaims, resolveTenant, type Identity } from '../domain/identity.js';
import { listEtag, listKey, listStillCurrent } from '../domain/list-validators.js';
import { CsvDownload } from '../domain/reports.js';
import { sessionRevocationGuard, type SessionGuard } from '../domain/session-revocation.js';
import { isStorageUnavailable, RETRY_AFTER_SECONDS } from './faults.js';
import { createLogger } from './logger.js';
import { queryRecord, validate, validateRequest, type ValidRequest } from './validation.js';

type Output<S> = S extends z.ZodType ? z.output<S> : undefined;
type Request<Op extends OperationId> = RouteOf<Op>['request'];
type Headers<Op extends OperationId> = Request<Op> extends { headers: infer H } ? { [K in keyof H]?: Output<H[K]> } : Record<string, never>;
type Responses<Op extends OperationId> = RouteOf<Op>['responses'][keyof RouteOf<Op>['responses']];

/** What an operation receives: the validated request of its row and the caller. */
export interface OperationInput<Op extends OperationId> {
  /** Path parameters after the row's `params` schema. */
  params: Request<Op> extends { params: infer P } ? Output<P> : undefined;
  /** Query after the row's `query` schema (defaults applied). */
  query: Output<Request<Op>['query']>;
  /** JSON body after the row's `body` schema. */
  body: Request<Op> extends { body: infer B } ? Output<B> : undefined;
  /** The row's optional headers that were sent, by their documented names. */
  headers: Headers<Op>;
  identity: Identity;
  /** Active tenant of a tenant-scoped row; `null` on the others. */
  tenantId: RouteOf<Op>['tenantScoped'] extends true ? string : null;
  repo: Repository;
  /** The clock at the start of the request. */
  now: Date;
  /** API Gateway's request id (`requestContext.requestId`). */
  requestId: string;
  /** The caller's IP address as API Gateway saw it (`requestContext.identity.sourceIp`; `''` when absent). */
  sourceIp: string;
  /** The Lambda context of the invocation (remaining time for Powertools idempotency). */
  lambdaContext: Context | undefined;
}

/**
 * A JSON answer with a validator (RFC 9110 section 8.8.3): answered with `ETag: <etag>` and
 * `Cache-Control: private, no-cache` (any cache must ask again before reusing it); `body: null` answers
 * `304 Not Modified` without a body (the caller's `If-None-Match` matched). API Gateway REST passes the Lambda
 * proxy's status and headers through unchanged, as it passes the request's `If-None-Match` in `headers`
 * (https://docs.aws.amazon.com/apigateway/latest/developerguide/set-up-lambda-proxy-integrations.html, "Output
 * format of a Lambda function for proxy integration"); the local gateway does the same.
 */
export class CacheValidated<T> {
  constructor(
    readonly body: T | null,
    readonly etag: string,
  ) {}
}

/** What an operation returns: a JSON body of the row's responses, or a CSV download where the row offers one. */
export type OperationOutput<Op extends OperationId> =
  | OperationResponse<Op>
  | CacheValidated<OperationResponse<Op>>
  | (Extract<Responses<Op>, { csv: true }> extends never ? never : CsvDownload);

/** The operations of one Lambda, one per row whose `handler` is that Lambda. */
export type Operations<H extends HandlerName> = {
  [Op in OperationsOf<H>]: (input: OperationInput<Op>) => Promise<OperationOutput<Op>>;
};

/** Dependencies a test or the local stack may replace. */
export interface HandlerDeps {
  /** Storage; default `createRepository(config)` (DynamoDB). */
  repository?: Repository;
  /** Clock; default `new Date()`. */
  now?: () => Date;
}

export type ApiHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/** The request store of the Router: what the request middleware resolved. */
interface ApiEnv {
  store: { request: { caller: { identity: Identity; tenantId: string | null; valid: ValidRequest } } };
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
  return { sub: arn, email: '', groups: [], tenants: [], isAdmin: false, mfa: false };
}

/** Status of a Powertools `HttpError` → our error code. */
function codeForHttpStatus(status: number): ErrorCode {
  switch (status) {
    case 400: return 'VALIDATION_FAILED';
    case 401: return 'UNAUTHORIZED';
    case 403: return 'FORBIDDEN';
    case 404: return 'NOT_FOUND';
    // A method the Router does not serve on a known path (only when called outside API Gateway, which answers
    // it itself with MISSING_AUTHENTICATION_TOKEN → 404 NOT_FOUND): the same answer, no 405.
    case 405: return 'NOT_FOUND';
    case 413: return 'PAYLOAD_TOO_LARGE';
    default: return 'INTERNAL_ERROR';
  }
}

/** Any thrown value → the API error response (logs unexpected errors with their stack on `logger`). */
export function errorResponse(err: unknown, requestId: string, logger: Pick<Logger, 'error'>): Response {
  const e = err;
  let code: ErrorCode;
  let message: string;
  let details: unknown;
  if (e instanceof ApiError) {
    ({ code, message, details } = e);
  } else if (e instanceof URIError) {
    code = 'VALIDATION_FAILED';
    message = 'malformed percent-encoding in the path';
  } else if (e instanceof ParameterValidationError) {
    // Powertools refuses blank path parameters (e.g. `/incidents/%20`) before our schemas run.
    code = 'VALIDATION_FAILED';
    message = 'invalid path parameter';
  } else if (e instanceof HttpError && e.statusCode < 500) {
    code = codeForHttpStatus(e.statusCode);
    message = code === 'NOT_FOUND' ? 'no such route' : e.message;
  } else if (isStorageUnavailable(e)) {
    if (e instanceof Error) logger.error('storage unavailable', e);
    else logger.error('storage unavailable', { error: String(e) });
    code = 'SERVICE_UNAVAILABLE';
    message = 'the service is temporarily unavailable; retry later';
  } else {
    if (e instanceof Error) logger.error('unexpected error', e);
    else logger.error('unexpected error', { error: String(e) });
    code = 'INTERNAL_ERROR';
    message = 'internal error';
  }
  const body: ApiErrorBody = { code, message, requestId, ...(details !== undefined ? { details } : {}) };
  const res = json(ERROR_STATUS[code], body);
  if (code === 'SERVICE_UNAVAILABLE') res.headers.set('Retry-After', String(RETRY_AFTER_SECONDS));
  return res;
}

/** An RFC 9110 field name (`token`). */
const FIELD_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Whether `v` is a value the Fetch `Headers` accepts: ISO-8859-1 text without NUL, CR or LF. */
function isFieldValue(v: string): boolean {
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c > 0xff || c === 0 || c === 0x0a || c === 0x0d) return false;
  }
  return true;
}

/**
 * HTTP header fields are ISO-8859-1 bytes (RFC 9110 section 5.5) and the Fetch `Headers` the Router builds
 * refuses a name that is not a token or a value with NUL, CR, LF or a character above U+00FF (a lone
 * surrogate included) with a TypeError. Such a header, as API Gateway may pass it, is refused 400
 * VALIDATION_FAILED naming it, before routing, instead of a 500.
 * @throws ApiError VALIDATION_FAILED
 */
function assertHeaderFields(event: APIGatewayProxyEvent): void {
  const all: [string, string][] = [
    ...Object.entries(event.headers ?? {}).filter((e): e is [string, string] => typeof e[1] === 'string'),
    ...Object.entries(event.multiValueHeaders ?? {}).flatMap(([k, vs]) => (vs ?? []).map((v): [string, string] => [k, v])),
  ];
  for (const [name, value] of all) {
    if (!FIELD_NAME.test(name) || !isFieldValue(value)) {
      throw new ApiError('VALIDATION_FAILED', 'invalid request header', [{ path: `header.${name}`, message: 'must be an HTTP field: ISO-8859-1 text without NUL, CR or LF' }]);
    }
  }
}

/**
 * A path with a `.` or `..` segment (RFC 3986 section 5.2.4 dot segments) names no resource: the Router's
 * URL parsing would remove the segment and answer for another route (`GET /incidents/.` as the incident
 * list). Such a path is refused 404 NOT_FOUND "no such route" before routing, as an unknown path is.
 * No id this API issues is `.` or `..`. @throws ApiError NOT_FOUND
 */
function assertNoDotSegments(event: APIGatewayProxyEvent): void {
  const segments = (event.path ?? '').split('/');
  if (segments.some((s) => /^(?:\.|%2e){1,2}$/i.test(s))) throw new ApiError('NOT_FOUND', 'no such route');
}

const requestIdOf = (event: unknown): string => (event as APIGatewayProxyEvent).requestContext?.requestId ?? '';

/**
 * The request middleware of a row (step 2 of the module doc): resolves identity and tenant and validates
 * the request into the request store. @throws ApiError
 */
function requestMiddleware(route: RouteDef, repo: Repository, logger: Logger, audiences: readonly string[], tenantExists: (id: string) => Promise<boolean>, sessionActive: SessionGuard): Middleware<ApiEnv> {
  return async ({ reqCtx, next }) => {
    logger.appendKeys({ operationId: route.operationId });
    const event = reqCtx.event as APIGatewayProxyEvent;
    const claims = event.requestContext?.authorizer?.claims as Record<string, unknown> | undefined;
    let identity: Identity | null;
    if (route.auth === 'iam') {
      // Collector routes: API Gateway verified the SigV4 signature; the caller is an IAM principal.
      if (claims) throw new ApiError('FORBIDDEN', 'collector routes do not accept user tokens');
      identity = collectorIdentity(event);
      if (!identity) throw new ApiError('UNAUTHORIZED', 'missing IAM caller identity');
    } else {
      identity = identityFromClaims(claims, audiences);
      if (!identity) throw new ApiError('UNAUTHORIZED', 'missing or invalid identity');
      // A token issued before staff disabled the user or took a group from it → 401 SESSION_REVOKED (docs/api.md#session-revocation).
      await sessionActive(identity, claims);
    }
    logger.appendKeys({ sub: identity.sub });
    if (route.auth !== 'iam') assertRowAccess(identity, route);
    const rawQuery = queryRecord(event);
    let tenantId: string | null = null;
    if (route.tenantScoped) {
      const requested = rawQuery.tenant === undefined ? undefined : validate(TenantId, rawQuery.tenant, 'query');
      tenantId = await resolveTenant(identity, requested, tenantExists);
      logger.appendKeys({ tenantId });
    }
    const valid = validateRequest(route, event, reqCtx.params, rawQuery);
    // Collector calls name their tenant in the body: logged for the per-tenant heartbeat metric (docs/platform.md#alarms).
    const bodyTenant = route.auth === 'iam' ? (valid.body as { tenantId?: unknown } | null | undefined)?.tenantId : undefined;
    if (typeof bodyTenant === 'string') logger.appendKeys({ tenantId: bodyTenant });
    reqCtx.set('caller', { identity, tenantId, valid });
    await next();
  };
}

/** How long a container remembers that a tenant is registered, ms (tenants are registered, rarely removed). */
const TENANT_SEEN_MS = 60_000;

/**
 * Whether a tenant id is in the tenant registry (one GetItem), remembering registered ids for
 * `TENANT_SEEN_MS` so a tenant-scoped request does not pay the read each time. Unregistered ids are not
 * remembered (a tenant registered a moment ago acts at once).
 */
function registryCheck(repo: Repository): (id: string) => Promise<boolean> {
  const seen = new Map<string, number>();
  return async (id) => {
    const t = Date.now();
    const until = seen.get(id);
    if (until !== undefined && until > t) return true;
    const exists = (await repo.tenants.getTenant(id)) !== null;
    if (exists) seen.set(id, t + TENANT_SEEN_MS);
    return exists;
  };
}

/**
 * Builds the Lambda handler of `name` from its operations and an explicit configuration.
 * @throws Error at build time if the operations do not match the route table (a programming error).
 */
export function createApi<H extends HandlerName>(name: H, operations: Operations<H>, config: LambdaConfig, deps: HandlerDeps = {}): ApiHandler {
  const logger = createLogger(config);
  const repo = deps.repository ?? createRepository(config);
  const now = deps.now ?? (() => new Date());
  const tenantExists = registryCheck(repo);
  const sessionActive = sessionRevocationGuard(repo.sessions, { now });
  const app = new Router<ApiEnv>({ logger });
  // `ETag` is exposed so the portal's fetcher can read it cross-origin and send it back as `If-None-Match`.
  app.use(cors({ origin: config.allowedOrigins, allowHeaders: config.allowedHeaders, exposeHeaders: ['ETag'] }));

  for (const route of routesFor(name)) {
    const op = (operations as unknown as Record<string, ((input: OperationInput<OperationId>) => Promise<unknown>) | undefined>)[route.operationId];
    if (!op) throw new Error(`handler ${name}: no operation for ${route.operationId}`);
    const statuses = successStatuses(route);
    if (statuses.length !== 1 && !route.statusOf) throw new Error(`route ${route.operationId}: several success statuses need statusOf`);
    const statusOf = (route.statusOf as ((body: unknown) => number) | undefined) ?? (() => statuses[0]!);
    const validatedBy = route.validatedBy;
    if (validatedBy && (route.method !== 'GET' || !route.tenantScoped || !route.request.headers?.['If-None-Match'] || !statuses.every((s) => route.responses[s]!.etag))) {
      throw new Error(`route ${route.operationId}: validatedBy needs a tenant-scoped GET with If-None-Match and etag: true`);
    }
    const run = async (reqCtx: RequestContext<ApiEnv>): Promise<Response> => {
      const { identity, tenantId, valid } = reqCtx.get('caller')!;
      // A validated list (docs/api.md#conditional-requests): the tenant's list marker first (ONE GetItem), so what
      // the list reads after it is at least as new as the marker the ETag names; 304 when If-None-Match holds it.
      let listTag: string | null = null;
      if (validatedBy && tenantId !== null) {
        const key = listKey({ operationId: route.operationId, tenantId, query: valid.query, params: valid.params, sub: identity.sub, groups: identity.groups });
        const marker = await repo.reports.listMarker(tenantId, validatedBy);
        const ifNoneMatch = (valid.headers as Record<string, string | undefined> | undefined)?.['If-None-Match'];
        const current = ifNoneMatch ? listStillCurrent(ifNoneMatch, marker, key) : null;
        if (current) return new Response(null, { status: 304, headers: { ETag: current, 'Cache-Control': 'private, no-cache' } });
        listTag = listEtag(marker, key);
      }
      const answer = await op({
        params: valid.params,
        query: valid.query,
        body: valid.body,
        headers: valid.headers,
        identity,
        tenantId,
        repo,
        now: now(),
        requestId: requestIdOf(reqCtx.event),
        sourceIp: (reqCtx.event as APIGatewayProxyEvent).requestContext?.identity?.sourceIp ?? '',
        lambdaContext: reqCtx.context as Context | undefined,
      } as OperationInput<OperationId>);
      const result = listTag !== null && !(answer instanceof CsvDownload) && !(answer instanceof CacheValidated) ? new CacheValidated(answer, listTag) : answer;
      if (result instanceof CsvDownload) {
        return new Response(result.text, {
          status: 200,
          headers: { 'Content-Disposition': `attachment; filename="${result.filename}"`, 'Content-Type': CsvDownload.contentType },
        });
      }
      if (result instanceof CacheValidated) {
        const headers = { ETag: result.etag, 'Cache-Control': 'private, no-cache' };
        if (result.body === null) return new Response(null, { status: 304, headers });
        const res = json(statusOf(result.body), result.body);
        for (const [k, v] of Object.entries(headers)) res.headers.set(k, v);
        return res;
      }
      return json(statusOf(result), result);
    };
    app.route(run as never, {
      method: route.method,
      path: toColonPath(route.path) as `/${string}`,
      middleware: [requestMiddleware(route, repo, logger, config.userPoolClientIds, tenantExists, sessionActive) as Middleware],
    });
  }
  app.errorHandler(Error, async (err: Error, reqCtx: RequestContext) => errorResponse(err, requestIdOf(reqCtx.event), logger));

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
      assertHeaderFields(ev);
      assertNoDotSegments(ev);
      res = await app.resolve(ev, context);
    } catch (err) {
      // Failures before routing (an event the Router cannot turn into a request).
      const r = errorResponse(err, event.requestContext?.requestId ?? '', logger);
      res = { statusCode: r.status, headers: Object.fromEntries(r.headers.entries()), body: await r.text() };
    }
    if (res.statusCode === 304) res = withoutContent(res);
    logger.info('request', { method, status: res.statusCode, durationMs: Date.now() - started });
    return res;
  };
}

/** A 304 answer without body or `Content-Type` (the Router types an empty body as text/plain; RFC 9110 section 15.4.5). */
function withoutContent(res: APIGatewayProxyResult): APIGatewayProxyResult {
  const drop = <T>(h: Record<string, T> | undefined) => (h ? Object.fromEntries(Object.entries(h).filter(([k]) => k.toLowerCase() !== 'content-type')) : h);
  const out: APIGatewayProxyResult = { ...res, body: '' };
  if (res.headers) out.headers = drop(res.headers)!;
  if (res.multiValueHeaders) out.multiValueHeaders = drop(res.multiValueHeaders)!;
  return out;
}

/**
 * The Lambda entry of a handler module: builds the API from the function's environment
 * (`lambdaConfigFromEnv(process.env)`) on the FIRST invocation, then reuses it.
 * @throws LambdaConfigError on the first invocation when the environment is incomplete (a deployment mistake).
 */
export function handlerFromEnv(create: (config: LambdaConfig) => ApiHandler): ApiHandler {
  let api: ApiHandler | undefined;
  return (event, context) => (api ??= create(lambdaConfigFromEnv(process.env)))(event, context);
}
