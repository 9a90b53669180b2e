/**
 * Test helpers: API Gateway REST (v1 proxy) events shaped like the Cognito user-pool authorizer delivers
 * them (every claim a string, `cognito:groups` flattened), and a minimal Lambda context.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';

export interface CallerSpec {
  sub: string;
  email?: string;
  groups: string[];
  /** `email_verified` claim; default true (as for every user the portal's sign-up confirmed). */
  emailVerified?: boolean;
  /** `aud` claim (the app client id); absent by default. */
  aud?: string;
  /** How `cognito:groups` is flattened; default comma. */
  groupsForm?: 'comma' | 'space' | 'bracket';
  /**
   * `vigia:mfa` = `totp` (TOTP set up; docs/api.md#staff-accounts-and-totp); default true for members of
   * `admin` (staff must have it), false otherwise.
   */
  mfa?: boolean;
  /** `iat` claim (issued at, epoch seconds; docs/api.md#session-revocation); absent by default. */
  iat?: number;
  /** Cognito's `identities` claim as API Gateway passes it (JSON text) for a federated user; absent by default. */
  identities?: string;
}

/** Authorizer claims for a caller, all values strings (as API Gateway passes them). */
export function claimsFor(c: CallerSpec): Record<string, string> {
  const form = c.groupsForm ?? 'comma';
  const groups = form === 'comma' ? c.groups.join(',') : form === 'space' ? c.groups.join(' ') : `[${c.groups.join(' ')}]`;
  return {
    sub: c.sub,
    email: c.email ?? `${c.sub}@example.com`,
    email_verified: c.emailVerified === false ? 'false' : 'true',
    ...(c.aud !== undefined ? { aud: c.aud } : {}),
    'cognito:groups': groups,
    ...((c.mfa ?? c.groups.includes('admin')) ? { 'vigia:mfa': 'totp' } : {}),
    token_use: 'id',
    auth_time: '1700000000',
    exp: '4102444800',
    ...(c.iat !== undefined ? { iat: String(c.iat) } : {}),
    ...(c.identities !== undefined ? { identities: c.identities } : {}),
  };
}

let counter = 0;

export interface EventSpec {
  method: string;
  /** Concrete path, e.g. `/incidents/INC-000001`. */
  path: string;
  query?: Record<string, string | string[]>;
  /** Object → JSON with `Content-Type: application/json` unless `headers` says otherwise; string → as is. */
  body?: unknown;
  headers?: Record<string, string>;
  /** `null` → no authorizer claims at all. */
  caller: CallerSpec | null;
  requestId?: string;
}

/** Builds an APIGatewayProxyEvent. */
export function apiEvent(s: EventSpec): APIGatewayProxyEvent {
  const requestId = s.requestId ?? `req-${++counter}`;
  const headers: Record<string, string> = { Host: 'api.example.com', ...(s.headers ?? {}) };
  let body: string | null = null;
  if (s.body !== undefined) {
    if (typeof s.body === 'string') body = s.body;
    else {
      body = JSON.stringify(s.body);
      if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['Content-Type'] = 'application/json';
    }
  }
  const single: Record<string, string> = {};
  const multi: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(s.query ?? {})) {
    const arr = Array.isArray(v) ? v : [v];
    single[k] = arr[arr.length - 1]!;
    multi[k] = arr;
  }
  const hasQuery = Object.keys(single).length > 0;
  return {
    httpMethod: s.method,
    path: s.path,
    resource: s.path.replace(/INC-\d+/, '{id}'),
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])),
    queryStringParameters: hasQuery ? single : null,
    multiValueQueryStringParameters: hasQuery ? multi : null,
    pathParameters: null,
    stageVariables: null,
    isBase64Encoded: false,
    body,
    requestContext: {
      accountId: '123456789012',
      apiId: 'local',
      authorizer: s.caller ? { claims: claimsFor(s.caller) } : null,
      domainName: 'api.example.com',
      httpMethod: s.method,
      identity: {} as APIGatewayProxyEvent['requestContext']['identity'],
      path: `/local${s.path}`,
      protocol: 'HTTP/1.1',
      requestId,
      requestTimeEpoch: Date.now(),
      resourceId: 'x',
      resourcePath: s.path,
      stage: 'local',
    },
  };
}

/** A minimal Lambda context. */
export const lambdaContext = {
  callbackWaitsForEmptyEventLoop: false,
  functionName: 'vigia-local-api',
  functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:eu-west-1:123456789012:function:vigia-local-api',
  memoryLimitInMB: '256',
  awsRequestId: 'lambda-req',
  logGroupName: '/aws/lambda/vigia-local-api',
  logStreamName: 'stream',
  getRemainingTimeInMillis: () => 10_000,
  done: () => undefined,
  fail: () => undefined,
  succeed: () => undefined,
} as Context;

/** Parsed JSON body of a result (throws if not JSON). */
export function bodyOf<T = Record<string, unknown>>(r: APIGatewayProxyResult): T {
  return JSON.parse(r.body) as T;
}

/** Case-insensitive header value of a result. */
export function headerOf(r: APIGatewayProxyResult, name: string): string | undefined {
  for (const [k, v] of Object.entries(r.headers ?? {})) if (k.toLowerCase() === name.toLowerCase()) return String(v);
  return undefined;
}
