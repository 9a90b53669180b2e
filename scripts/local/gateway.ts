/**
 * Local API gateway: serves the route table (`lambdas/contract/routes.ts`) over HTTP and invokes the
 * SAME Lambda handler modules that are deployed (`lambdas/handlers/<name>.ts`), in process.
 *
 * It mirrors what the deployed REST API does in front of the Lambdas:
 *  - Cognito user-pool authorizer semantics: the raw ID token in the `Authorization` header, verified
 *    for RS256 signature (JWKS of the pool), issuer, audience (the app client id), `token_use: "id"` and
 *    expiry. Any failure is a 401 before the handler runs (AWS: "Use Amazon Cognito user pools as
 *    authorizer for a REST API", API Gateway developer guide).
 *  - Claims reach the handler under `event.requestContext.authorizer.claims` with every value a STRING;
 *    arrays such as `cognito:groups` are flattened to a comma-separated string, numbers are stringified
 *    (docs/local-emulation.md#api-gateway).
 *  - REST API v1 proxy events (`APIGatewayProxyEvent`) and results, with `{param}` path parameters.
 *  - CORS preflight answered by the gateway (as the RestApi's `defaultCorsPreflightOptions` does), for the
 *    configured origins only, allowing `CORS_ALLOW_HEADERS` (lambdas/config.ts, the list the deployed API
 *    uses); gateway errors carry the API's JSON error shape `{ code, message, requestId }`.
 *  - A 10 MB payload limit like API Gateway (handlers enforce the API's own, smaller limit).
 *  - An unknown path, or a method its path does not define, is API Gateway's MISSING_AUTHENTICATION_TOKEN,
 *    answered as the stage's gateway response (404 NOT_FOUND "Missing Authentication Token").
 *  - Each function's timeout and memory (`FUNCTION_LIMITS`, the values the stack deploys), API Gateway's 29 s
 *    integration timeout and Lambda's 6 MB payloads, answered as the deployed API does (`./lambda-limits.ts`);
 *    how many requests each rule refused: `RunningGateway.rulesReport()`.
 *  - Each handler is built once per gateway with `createHandler(lambda.config, { repository })`, as a
 *    Lambda container builds its API from its environment on the first invocation; nothing reads or
 *    writes `process.env`.
 * What differs from API Gateway is listed in docs/local-emulation.md#api-gateway.
 */
import type { AttachmentStore } from '../../lambdas/data/attachment-store.js';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { createRemoteJWKSet, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { CORS_ALLOW_HEADERS, type LambdaConfig } from '../../lambdas/config.js';
import { ROUTES, type HandlerName, type RouteDef } from '../../lambdas/contract/routes.js';
import {
  API_GATEWAY_QUOTAS,
  CORS_MAX_AGE_SECONDS,
  FUNCTION_LIMITS,
  gatewayAnswer,
  type FunctionLimits,
} from '../../lambdas/contract/platform-limits.js';
import type { Repository } from '../../lambdas/data/index.js';
import type { UsersPort } from '../../lambdas/domain/ports.js';
import type { AdminHandlerDeps } from '../../lambdas/handlers/admin.js';
import { SignatureRejected, verifyCollectorSignature, type CollectorCredential } from './collector-auth.js';
import {
  emptyRulesReport,
  FAILURE_COUNTER,
  LambdaFailure,
  lambdaFailureAnswer,
  withFunctionLimits,
  type GatewayRulesReport,
} from './lambda-limits.js';
import { runAsFunction } from '../aws-rules/recorder.js';

/** A Lambda handler for REST API proxy events, as exported by `lambdas/handlers/*.ts`. */
export type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/** What the handlers of the gateway are built with (`createHandler(config, { repository })`). */
export interface GatewayLambdas {
  config: LambdaConfig;
  /** The table access the handlers use (the local stack's, with local credentials). */
  repository?: Repository;
  /** The user pool the admin handler administers (the local pool, signed with the local operator key). */
  users?: UsersPort;
  /** The admin handler's identity provider ports (local pool, local Secrets Manager, the local table). */
  identityProviders?: AdminHandlerDeps['identityProviders'];
  /** The incidents handler's attachment store (the local S3, signed with its key). */
  attachments?: AttachmentStore;
}

/** One request the gateway answered (for the request log and the terminal summary). */
export interface GatewayRequest {
  method: string;
  /** Path and query string as received, e.g. `/incidents?limit=20`. */
  url: string;
  status: number;
  /** Time from the request's arrival to the response, ms. */
  ms: number;
  /** `iam` for collector (ingest) routes, `cognito` for the portal's; absent when no route matched. */
  auth?: 'iam' | 'cognito';
  /** Why the gateway refused the request itself (token or signature check), when it did. */
  reason?: string;
}

/** One log line for a request: `GET /incidents?limit=20 → 200 12 ms` (plus `: <reason>` for refusals). */
export function formatGatewayRequest(r: GatewayRequest): string {
  return `${r.method} ${r.url} → ${r.status} ${r.ms} ms${r.reason ? `: ${r.reason}` : ''}`;
}

export interface GatewayOptions {
  /** TCP port; 0 picks a free one. */
  port: number;
  host?: string;
  /** Stage name, echoed in `requestContext.stage` (e.g. `local`). */
  stage: string;
  /** Expected `iss` of ID tokens: `<user-pool endpoint>/<userPoolId>`. */
  issuer: string;
  /** JWKS of the user pool (`<endpoint>/<userPoolId>/.well-known/jwks.json`). */
  jwksUri: string;
  /** Expected `aud`: the portal's app client id. */
  audience: string;
  /** Browser origins allowed by CORS, e.g. `http://127.0.0.1:5173`. */
  allowedOrigins: string[];
  /**
   * Configuration for the deployed handler modules (`lambdas/handlers/<name>.ts`, imported on first use);
   * required unless `handlers` covers every route called.
   */
  lambda?: GatewayLambdas;
  /** A handler per Lambda name instead of the deployed module (tests). */
  handlers?: Partial<Record<HandlerName, ProxyHandler>>;
  /** Called once per answered request (see {@link formatGatewayRequest}); defaults to nothing. */
  onRequest?: (request: GatewayRequest) => void;
  /**
   * Access keys accepted on collector routes (`auth: 'iam'`), verified as SigV4 like API Gateway's IAM
   * authorization (`./collector-auth.ts`); none = every collector request is refused (403).
   */
  collectorCredentials?: readonly CollectorCredential[];
  /** Serves this JSON document at `GET /openapi.json` (no auth), e.g. `openApiDocument()`. */
  openApi?: unknown;
  /**
   * Stage throttling as API Gateway applies it: a token bucket of `burstLimit` requests refilled at
   * `rateLimit` requests per second; a request finding it empty is answered 429 `THROTTLED` "Too Many
   * Requests" (the stage's gateway response). Absent (the default of the local stack): no throttling.
   */
  throttling?: { rateLimit: number; burstLimit: number };
  /**
   * Replaces a function's timeout or memory of `FUNCTION_LIMITS` (tests: a slow handler against a short
   * timeout). Default: the declaration the stack deploys.
   */
  functionLimits?: Partial<Record<HandlerName, Partial<FunctionLimits>>>;
  /** API Gateway's integration timeout, seconds (default 29, `API_GATEWAY_QUOTAS`); tests shorten it. */
  integrationTimeoutSeconds?: number;
  /**
   * Evaluates a signed collector request's `execute-api:Invoke` against the caller's IAM policies (the local
   * stack passes the runtime IAM check's, scripts/aws-rules/recorder.ts); answers the deny, or undefined.
   */
  authorizeInvoke?: (method: string, path: string) => Promise<{ message: string } | undefined>;
}

/**
 * A token bucket: `burst` tokens, refilled continuously at `rate` per second.
 * `take(now)` spends one token and answers true, or answers false when none is left (ms clock).
 */
export function tokenBucket(rate: number, burst: number, start = Date.now()): { take(now?: number): boolean } {
  let tokens = burst;
  let last = start;
  return {
    take(now = Date.now()) {
      tokens = Math.min(burst, tokens + ((now - last) / 1000) * rate);
      last = now;
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
  };
}

export interface RunningGateway {
  /** Base URL without trailing slash, e.g. `http://127.0.0.1:3001`. */
  url: string;
  stop(): Promise<void>;
  /** How many requests each Lambda / API Gateway rule refused since the start (a copy; plain data). */
  rulesReport(): GatewayRulesReport;
}

/** API Gateway's payload limit for REST APIs, bytes. */
const MAX_PAYLOAD_BYTES = API_GATEWAY_QUOTAS.payloadBytes;
const CORS_ALLOW_METHODS = 'GET,POST,PUT,PATCH,DELETE,OPTIONS';

interface CompiledRoute {
  route: RouteDef;
  regex: RegExp;
  params: string[];
}

/** Compiles `/incidents/{id}` into a matcher; path parameters match one non-empty segment. */
export function compileRoutes(routes: readonly RouteDef[]): CompiledRoute[] {
  return routes.map((route) => {
    const params: string[] = [];
    const pattern = route.path
      .split('/')
      .map((seg) => {
        const m = /^\{([^}]+)\}$/.exec(seg);
        if (!m) return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        params.push(m[1]!);
        return '([^/]+)';
      })
      .join('/');
    return { route, regex: new RegExp(`^${pattern}/?$`), params };
  });
}

/**
 * Finds the route for a method and path. Returns `{ route, pathParameters }`, `'unknown-method'` when the
 * path exists with other methods only, or `undefined` when no route's path matches. API Gateway answers both
 * misses with its MISSING_AUTHENTICATION_TOKEN gateway response ("Gateway response types for API Gateway",
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/supported-gateway-response-types.html).
 */
export function matchRoute(
  compiled: CompiledRoute[],
  method: string,
  path: string,
): { route: RouteDef; pathParameters: Record<string, string> } | 'unknown-method' | undefined {
  let pathMatched = false;
  for (const c of compiled) {
    const m = c.regex.exec(path);
    if (!m) continue;
    pathMatched = true;
    if (c.route.method !== method) continue;
    const pathParameters: Record<string, string> = {};
    c.params.forEach((p, i) => {
      pathParameters[p] = decodeURIComponent(m[i + 1]!);
    });
    return { route: c.route, pathParameters };
  }
  return pathMatched ? 'unknown-method' : undefined;
}

/**
 * Matchers of every resource of the deployed REST API: each route's path and each of its ancestors down to
 * `/` (`resourceForPath` creates them all). With `defaultCorsPreflightOptions` every one of them has an
 * OPTIONS method, also a resource with no method of its own such as `/soc` under `/soc/queue` (CDK
 * `RestApi`, "defaultCorsPreflightOptions": added to this resource and all its children).
 */
export function resourceMatchers(routes: readonly RouteDef[]): RegExp[] {
  const paths = new Set<string>(['/']);
  for (const r of routes) {
    const segments = r.path.split('/').filter(Boolean);
    for (let i = 1; i <= segments.length; i++) paths.add(`/${segments.slice(0, i).join('/')}`);
  }
  return compileRoutes([...paths].map((path) => ({ path }) as RouteDef)).map((c) => c.regex);
}

/**
 * Flattens verified JWT claims the way API Gateway's Cognito authorizer hands them to a REST API Lambda:
 * every value becomes a string (arrays comma-joined, objects JSON-encoded).
 */
export function flattenClaims(payload: JWTPayload): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(payload)) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) out[k] = v.map(String).join(',');
    else if (typeof v === 'object') out[k] = JSON.stringify(v);
    else out[k] = String(v);
  }
  return out;
}

/** Why a token was refused; used in logs only (the client always gets a plain 401 like API Gateway). */
export class TokenRejected extends Error {}

/**
 * Verifies an ID token as the Cognito user-pool authorizer does.
 * @returns the verified payload.
 * @throws TokenRejected on a missing token, bad signature, wrong issuer/audience, `token_use` other than `id`,
 *   or expiry (`exp` compared in seconds against now, no clock tolerance).
 */
export async function verifyIdToken(
  token: string | undefined,
  jwks: JWTVerifyGetKey,
  expected: { issuer: string; audience: string },
): Promise<JWTPayload> {
  if (!token) throw new TokenRejected('missing Authorization header');
  // API Gateway's Cognito authorizer takes the raw token and also a `Bearer ` prefix
  // (docs/local-emulation.md#api-gateway).
  const raw = /^Bearer /i.test(token) ? token.slice(7).trim() : token;
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(raw, jwks, {
      issuer: expected.issuer,
      audience: expected.audience,
      algorithms: ['RS256'],
      requiredClaims: ['exp', 'iat', 'sub'],
    }));
  } catch (e) {
    throw new TokenRejected((e as Error).message);
  }
  if (payload['token_use'] !== 'id') throw new TokenRejected(`token_use is ${String(payload['token_use'])}, not id`);
  return payload;
}

/** What `restProxyEvent` builds an event from (single- and multi-value maps as API Gateway passes them). */
export interface RestProxyEventSpec {
  /** The route's resource path, e.g. `/incidents/{id}`. */
  resourcePath: string;
  /** The concrete request path, e.g. `/incidents/INC-000001`. */
  path: string;
  method: string;
  headers: { single: Record<string, string>; multi: Record<string, string[]> };
  /** null: no query string (API Gateway passes null, not `{}`). */
  query: { single: Record<string, string>; multi: Record<string, string[]> } | null;
  pathParameters: Record<string, string> | null;
  body: string | null;
  /** The Cognito user-pool authorizer's claims (all strings), or null for none. */
  claims: Record<string, string> | null;
  /** The SigV4 caller of an IAM-authorised route (`requestContext.identity`), or null. */
  collector: { accessKeyId: string; userArn: string } | null;
  sourceIp: string;
  userAgent: string | null;
  stage: string;
  requestId: string;
  /** Epoch ms. */
  requestTimeEpoch: number;
}

/**
 * An API Gateway REST (v1 Lambda proxy) event as API Gateway delivers it to the integration (AWS docs,
 * "Input format of a Lambda function for proxy integration"): the one builder of the local gateway, also used
 * by the fleet bench to call the ingest handler without HTTP.
 */
export function restProxyEvent(s: RestProxyEventSpec): APIGatewayProxyEvent {
  return {
    resource: s.resourcePath,
    path: s.path,
    httpMethod: s.method,
    headers: s.headers.single,
    multiValueHeaders: s.headers.multi,
    queryStringParameters: s.query ? s.query.single : null,
    multiValueQueryStringParameters: s.query ? s.query.multi : null,
    pathParameters: s.pathParameters,
    stageVariables: null,
    body: s.body,
    isBase64Encoded: false,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      authorizer: s.claims ? { claims: s.claims } : null,
      protocol: 'HTTP/1.1',
      httpMethod: s.method,
      identity: {
        accessKey: s.collector?.accessKeyId ?? null,
        accountId: s.collector ? '000000000000' : null,
        apiKey: null,
        apiKeyId: null,
        caller: null,
        clientCert: null,
        cognitoAuthenticationProvider: null,
        cognitoAuthenticationType: null,
        cognitoIdentityId: null,
        cognitoIdentityPoolId: null,
        principalOrgId: null,
        sourceIp: s.sourceIp,
        user: null,
        userAgent: s.userAgent,
        userArn: s.collector?.userArn ?? null,
      },
      path: `/${s.stage}${s.path}`,
      stage: s.stage,
      requestId: s.requestId,
      requestTimeEpoch: s.requestTimeEpoch,
      resourceId: 'local',
      resourcePath: s.resourcePath,
    },
  };
}

/**
 * The context a handler receives for `functionName` and one request (as the Node.js runtime passes it); the
 * function's memory and timeout are set by `withFunctionLimits`.
 */
export function lambdaContext(functionName: string, awsRequestId: string): Context {
  const deadline = Date.now() + API_GATEWAY_QUOTAS.integrationTimeoutSeconds * 1000;
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

async function readBody(req: http.IncomingMessage): Promise<Buffer | 'too-large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_PAYLOAD_BYTES) return 'too-large';
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function singleAndMulti(entries: Iterable<[string, string]>) {
  const single: Record<string, string> = {};
  const multi: Record<string, string[]> = {};
  for (const [k, v] of entries) {
    single[k] = v;
    (multi[k] ??= []).push(v);
  }
  return { single, multi };
}

/** What the gateway uses of a handler module: `createHandler(config, deps)` (the Lambda entry `handler` reads the environment). */
interface HandlerModule {
  createHandler: (config: LambdaConfig, deps?: { repository?: Repository; users?: UsersPort; identityProviders?: AdminHandlerDeps['identityProviders']; attachments?: AttachmentStore }) => ProxyHandler;
}

/**
 * The deployed handler modules, imported lazily by name. Static specifiers (not a template string) so
 * bundlers/Vite (vitest) resolve them too; `Record<HandlerName, …>` makes a new handler fail typecheck here.
 */
const HANDLER_MODULES: Record<HandlerName, () => Promise<HandlerModule>> = {
  incidents: () => import('../../lambdas/handlers/incidents.js'),
  devices: () => import('../../lambdas/handlers/devices.js'),
  account: () => import('../../lambdas/handlers/account.js'),
  ingest: () => import('../../lambdas/handlers/ingest.js'),
  office365: () => import('../../lambdas/handlers/office365.js'),
  recommendations: () => import('../../lambdas/handlers/recommendations.js'),
  reports: () => import('../../lambdas/handlers/reports.js'),
  admin: () => import('../../lambdas/handlers/admin.js'),
  notifications: () => import('../../lambdas/handlers/notifications.js'),
};

/** Imports the module of `name` and builds its handler for `lambda` (see {@link GatewayLambdas}). */
async function loadHandler(name: HandlerName, lambda: GatewayLambdas | undefined): Promise<ProxyHandler> {
  if (!lambda) throw new Error(`gateway: no Lambda configuration for the ${name} handler (pass \`lambda\`)`);
  const mod = await HANDLER_MODULES[name]();
  return mod.createHandler(lambda.config, {
    ...(lambda.repository ? { repository: lambda.repository } : {}),
    ...(lambda.users ? { users: lambda.users } : {}),
    ...(lambda.identityProviders ? { identityProviders: lambda.identityProviders } : {}),
    ...(lambda.attachments ? { attachments: lambda.attachments } : {}),
  });
}

/** Starts the gateway. Rejects with a one-line Error when the port is busy. */
export async function startGateway(opts: GatewayOptions): Promise<RunningGateway> {
  const compiled = compileRoutes(ROUTES);
  const resources = resourceMatchers(ROUTES);
  const jwks = createRemoteJWKSet(new URL(opts.jwksUri), { cooldownDuration: 1_000 });
  const handlers = new Map<HandlerName, Promise<ProxyHandler>>();
  const report = emptyRulesReport();
  const limitsOf = (name: HandlerName): FunctionLimits => ({ ...FUNCTION_LIMITS[name], ...opts.functionLimits?.[name] });
  // Each handler runs under its function's timeout, memory and payload quotas (./lambda-limits.ts).
  const limited = (name: HandlerName, h: ProxyHandler): ProxyHandler =>
    withFunctionLimits(h, limitsOf(name), {
      ...(opts.integrationTimeoutSeconds !== undefined ? { integrationTimeoutSeconds: opts.integrationTimeoutSeconds } : {}),
    });
  const handlerFor = (name: HandlerName): Promise<ProxyHandler> => {
    let h = handlers.get(name);
    if (!h) {
      const given = opts.handlers?.[name];
      h = (given ? Promise.resolve(given) : loadHandler(name, opts.lambda)).then((x) => limited(name, x));
      handlers.set(name, h);
      h.catch(() => handlers.delete(name));
    }
    return h;
  };
  const onRequest = opts.onRequest ?? (() => undefined);
  const bucket = opts.throttling ? tokenBucket(opts.throttling.rateLimit, opts.throttling.burstLimit) : null;

  const server = http.createServer((req, res) => {
    const started = Date.now();
    const requestId = randomUUID();
    const origin = req.headers.origin;
    const corsHeaders: Record<string, string> =
      origin && opts.allowedOrigins.includes(origin)
        ? { 'Access-Control-Allow-Origin': origin, Vary: 'Origin', 'Access-Control-Expose-Headers': 'x-amzn-RequestId' }
        : {};
    let auth: GatewayRequest['auth'];
    const record = (status: number, reason?: string) =>
      onRequest({
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        status,
        ms: Date.now() - started,
        ...(auth ? { auth } : {}),
        ...(reason ? { reason } : {}),
      });
    const send = (status: number, body: string, headers: Record<string, string | number | boolean> = {}, reason?: string) => {
      res.writeHead(status, { 'x-amzn-RequestId': requestId, ...corsHeaders, ...stringifyHeaders(headers) });
      res.end(body);
      record(status, reason);
    };
    const sendError = (status: number, code: string, message: string, reason?: string) =>
      send(status, JSON.stringify({ code, message, requestId }), { 'Content-Type': 'application/json' }, reason);

    void (async () => {
      const url = new URL(req.url ?? '/', 'http://gateway.local');
      const method = (req.method ?? 'GET').toUpperCase();
      if (bucket && !bucket.take()) return sendError(429, 'THROTTLED', 'Too Many Requests', 'stage throttling');

      // API Gateway's MISSING_AUTHENTICATION_TOKEN (an unknown path, or a method the path does not define),
      // answered as the stage's gateway response (GATEWAY_RESPONSES: 404 NOT_FOUND), before authorisation.
      const missingAuthenticationToken = (counter: 'unknownPath' | 'unknownMethod') => {
        report[counter] += 1;
        const a = gatewayAnswer('MISSING_AUTHENTICATION_TOKEN');
        return sendError(a.status, a.code, 'Missing Authentication Token', counter === 'unknownPath' ? 'no such resource' : `no ${method} method on this resource`);
      };

      if (method === 'OPTIONS') {
        if (!resources.some((r) => r.test(url.pathname))) return missingAuthenticationToken('unknownPath');
        return send(204, '', {
          ...(corsHeaders['Access-Control-Allow-Origin']
            ? {
                'Access-Control-Allow-Methods': CORS_ALLOW_METHODS,
                'Access-Control-Allow-Headers': CORS_ALLOW_HEADERS.join(','),
                'Access-Control-Max-Age': String(CORS_MAX_AGE_SECONDS),
              }
            : {}),
        });
      }

      if (method === 'GET' && url.pathname === '/openapi.json' && opts.openApi !== undefined) {
        return send(200, JSON.stringify(opts.openApi), { 'Content-Type': 'application/json' });
      }

      // Malformed percent-encoding (`%E0%A4%A`, `%ZZ`; RFC 3986 section 2.1) is not a valid request-target:
      // refused 400 before routing and authorisation instead of failing the decode (docs/local-emulation.md).
      try {
        decodeURIComponent(url.pathname);
      } catch {
        return sendError(400, 'VALIDATION_FAILED', 'malformed percent-encoding in the path', 'bad path encoding');
      }
      const match = matchRoute(compiled, method, url.pathname);
      if (match === undefined) {
        // A resource of the API with no method of its own (e.g. `/soc`) is "a method the path does not define".
        return missingAuthenticationToken(resources.some((r) => r.test(url.pathname)) ? 'unknownMethod' : 'unknownPath');
      }
      if (match === 'unknown-method') return missingAuthenticationToken('unknownMethod');

      const iam = match.route.auth === 'iam';
      auth = iam ? 'iam' : 'cognito';
      let payload: JWTPayload | null = null;
      if (!iam) {
        try {
          const auth = req.headers.authorization;
          payload = await verifyIdToken(auth, jwks, { issuer: opts.issuer, audience: opts.audience });
        } catch (e) {
          return sendError(401, 'UNAUTHORIZED', 'Unauthorized', (e as Error).message);
        }
      }

      const body = await readBody(req);
      // The rest of the body is not read: the connection is closed after the answer (`Connection: close`),
      // so a client cannot reuse it (docs/local-emulation.md#api-gateway).
      // API Gateway ignores the stage's REQUEST_TOO_LARGE gateway response ("Amazon API Gateway important notes
      // for REST APIs": customizing 413 REQUEST_TOO_LARGE isn't supported): its own 413, without the API's
      // error shape or CORS headers (docs/local-emulation.md#api-gateway).
      if (body === 'too-large') {
        report.payloadOver10MB += 1;
        res.writeHead(413, { 'x-amzn-RequestId': requestId, 'Content-Type': 'text/plain', Connection: 'close' });
        res.end(`HTTP content length exceeded ${MAX_PAYLOAD_BYTES} bytes.`);
        record(413, 'over API Gateway\'s 10 MB payload');
        return;
      }

      // IAM authorization (collector routes): API Gateway answers 403 for a missing or invalid signature.
      let collector: CollectorCredential | null = null;
      if (iam) {
        try {
          collector = await verifyCollectorSignature(opts.collectorCredentials ?? [], {
            method,
            url,
            headers: req.headers,
            body: body.toString('utf8'),
          });
        } catch (e) {
          if (!(e instanceof SignatureRejected)) throw e;
          return sendError(403, 'FORBIDDEN', 'Missing or invalid request signature', e.message);
        }
        // A valid signature is not enough: the caller's IAM policies must allow execute-api:Invoke on the
        // method's ARN (API Gateway developer guide, "Control access to a REST API with IAM permissions"); a
        // deny is API Gateway's 403 AccessDeniedException, the ACCESS_DENIED gateway response.
        const denied = opts.authorizeInvoke ? await opts.authorizeInvoke(method, url.pathname) : undefined;
        if (denied) return sendError(403, 'FORBIDDEN', denied.message, 'IAM: execute-api:Invoke denied');
      }

      const headers = singleAndMulti(
        Object.entries(req.headers).flatMap(([k, v]) =>
          v === undefined ? [] : (Array.isArray(v) ? v : [v]).map((x): [string, string] => [k, x]),
        ),
      );
      const query = singleAndMulti(url.searchParams.entries());
      const hasQuery = url.searchParams.size > 0;
      const event = restProxyEvent({
        resourcePath: match.route.path,
        path: url.pathname,
        method,
        headers,
        query: hasQuery ? query : null,
        pathParameters: Object.keys(match.pathParameters).length ? match.pathParameters : null,
        body: body.length ? body.toString('utf8') : null,
        claims: payload ? flattenClaims(payload) : null,
        collector: collector ? { accessKeyId: collector.accessKeyId, userArn: collector.userArn } : null,
        sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        userAgent: req.headers['user-agent'] ?? null,
        stage: opts.stage,
        requestId,
        requestTimeEpoch: started,
      });

      let result: APIGatewayProxyResult;
      try {
        const handler = await handlerFor(match.route.handler);
        // Every AWS call the handler makes is evaluated against this function's role (scripts/aws-rules/recorder.ts).
        result = await runAsFunction(match.route.handler, () => handler(event, lambdaContext(`vigia-${opts.stage}-${match.route.handler}`, requestId)));
      } catch (e) {
        // The Lambda failed (an unhandled error, a malformed result, or a rule of ./lambda-limits.ts: timeout,
        // 6 MB payloads, memory): 500/502/504 through the stage's DEFAULT_5XX gateway response.
        const answer = lambdaFailureAnswer(e);
        if (e instanceof LambdaFailure) {
          report[FAILURE_COUNTER[e.kind]] += 1;
          console.error(`[gateway] ${match.route.handler}: ${e.message} → ${answer.status}`);
        } else {
          console.error(`[gateway] handler ${match.route.handler} failed:`, e);
        }
        return sendError(answer.status, answer.code, answer.message, e instanceof LambdaFailure ? e.message : undefined);
      }
      const outHeaders: Record<string, string> = { ...stringifyHeaders(result.headers ?? {}) };
      for (const [k, vs] of Object.entries(result.multiValueHeaders ?? {})) outHeaders[k] = vs.map(String).join(', ');
      const outBody = result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body;
      // As with a Lambda proxy integration in AWS, CORS headers of real responses are the handler's own;
      // the gateway adds them only to the responses it makes itself (preflight, 401, 404…).
      res.writeHead(result.statusCode, { 'x-amzn-RequestId': requestId, ...outHeaders });
      res.end(outBody);
      record(result.statusCode);
    })().catch((e: unknown) => {
      // A client that goes away while its body is read (e.g. a load generator stopping) is not an error.
      if ((e as NodeJS.ErrnoException).code === 'ECONNRESET' || req.destroyed) return;
      console.error('[gateway] unexpected error', e);
      if (!res.headersSent) sendError(500, 'INTERNAL_ERROR', 'Internal server error');
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(
        e.code === 'EADDRINUSE'
          ? new Error(`API gateway: port ${opts.port} is already in use (stop the other process or set another port)`)
          : e,
      ),
    );
    server.listen(opts.port, opts.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${opts.host ?? '127.0.0.1'}:${port}`,
    rulesReport: () => ({ ...report }),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function stringifyHeaders(h: Record<string, string | number | boolean>): Record<string, string> {
  return Object.fromEntries(Object.entries(h).map(([k, v]) => [k, String(v)]));
}
