/**
 * What the deployed platform applies around the handlers, declared once for the CDK stack
 * (`infra/api-stack.ts`), the local gateway (`scripts/local/gateway.ts`) and the OpenAPI document
 * (`openapi.ts`):
 *  - each API function's timeout and memory ({@link FUNCTION_LIMITS});
 *  - the payload and time quotas of API Gateway (REST) and Lambda ({@link API_GATEWAY_QUOTAS},
 *    {@link LAMBDA_QUOTAS});
 *  - the stage's gateway responses: which error body and status the API answers when API Gateway itself
 *    refuses or fails a request ({@link GATEWAY_RESPONSES}, {@link gatewayAnswer}).
 * Plain data (no CDK import): the portal may import `lambdas/contract`. The rules are explained, with the AWS
 * documentation each comes from, in docs/local-emulation.md#api-gateway.
 */
import { HANDLER_NAMES, type HandlerName } from './routes.js';
import type { ErrorCode } from './schemas.js';

/** Timeout and memory of one Lambda function (`Timeout`, `MemorySize` of `AWS::Lambda::Function`). */
export interface FunctionLimits {
  /** Seconds Lambda lets one invocation run before stopping it (1–900). */
  readonly timeoutSeconds: number;
  /** Memory of the execution environment, MB (128–10,240). */
  readonly memoryMB: number;
}

/**
 * Timeout and memory of every API function, applied by the CDK stack and by the local gateway.
 *
 * AWS: "Configure Lambda function timeout" (1 to 900 s,
 * https://docs.aws.amazon.com/lambda/latest/dg/configuration-timeout.html) and "Configure Lambda function
 * memory" (128 to 10,240 MB, https://docs.aws.amazon.com/lambda/latest/dg/configuration-memory.html).
 */
export const FUNCTION_LIMITS: Readonly<Record<HandlerName, FunctionLimits>> = Object.fromEntries(
  HANDLER_NAMES.map((name) => [name, { timeoutSeconds: 10, memoryMB: 512 }]),
) as Record<HandlerName, FunctionLimits>;

/**
 * API Gateway (REST API) quotas the local gateway applies. AWS: "Amazon API Gateway quotas", quotas for
 * configuring and running a REST API
 * (https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-execution-service-limits-table.html):
 * payload size 10 MB (not increasable), integration timeout 50 ms – 29 s (the stack sets none, so 29 s).
 */
export const API_GATEWAY_QUOTAS = {
  payloadBytes: 10 * 1024 * 1024,
  integrationTimeoutSeconds: 29,
} as const;

/**
 * Lambda quotas the local gateway applies. AWS: "Lambda quotas"
 * (https://docs.aws.amazon.com/lambda/latest/dg/gettingstarted-limits.html): invocation payload of a
 * synchronous invocation 6 MB for the request and 6 MB for the response (read as 6 MiB, the figure Lambda's
 * own error messages give: "Request must be smaller than 6291456 bytes").
 */
export const LAMBDA_QUOTAS = {
  syncRequestBytes: 6 * 1024 * 1024,
  syncResponseBytes: 6 * 1024 * 1024,
} as const;

/**
 * How long browsers may cache the answer to a CORS pre-flight, seconds (`Access-Control-Max-Age` of the
 * stack's OPTIONS methods, `defaultCorsPreflightOptions.maxAge`, and of the local gateway's pre-flights).
 */
export const CORS_MAX_AGE_SECONDS = 3600;

/** The gateway response types this API customizes or relies on (AWS names, `ResponseType` in the CDK). */
export type GatewayResponseType =
  | 'UNAUTHORIZED'
  | 'EXPIRED_TOKEN'
  | 'ACCESS_DENIED'
  | 'MISSING_AUTHENTICATION_TOKEN'
  | 'RESOURCE_NOT_FOUND'
  | 'BAD_REQUEST_BODY'
  | 'BAD_REQUEST_PARAMETERS'
  | 'REQUEST_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'THROTTLED'
  | 'QUOTA_EXCEEDED'
  | 'INTEGRATION_FAILURE'
  | 'INTEGRATION_TIMEOUT'
  | 'DEFAULT_4XX'
  | 'DEFAULT_5XX';

/** One customized gateway response: the API's error `code`, and `statusCode` where it replaces AWS's. */
export interface GatewayResponseDef {
  readonly type: GatewayResponseType;
  readonly code: ErrorCode;
  /** Replaces API Gateway's own status (e.g. MISSING_AUTHENTICATION_TOKEN's 403 → 404); absent = AWS's kept. */
  readonly statusCode?: number;
}

/**
 * Gateway responses of the stage, rewritten into the API's error shape `{code,message,requestId}` with CORS
 * headers (infra/api-stack.ts adds one `AWS::ApiGateway::GatewayResponse` per row). A type without a row
 * falls back to `DEFAULT_4XX` / `DEFAULT_5XX`, whose status is left as API Gateway's.
 *
 * AWS: "Gateway response types for API Gateway"
 * (https://docs.aws.amazon.com/apigateway/latest/developerguide/supported-gateway-response-types.html).
 */
export const GATEWAY_RESPONSES: readonly GatewayResponseDef[] = [
  { type: 'UNAUTHORIZED', code: 'UNAUTHORIZED', statusCode: 401 },
  { type: 'EXPIRED_TOKEN', code: 'UNAUTHORIZED', statusCode: 401 },
  { type: 'ACCESS_DENIED', code: 'FORBIDDEN', statusCode: 403 },
  // An unknown path or a method the path does not define (API Gateway's 403 "Missing Authentication Token").
  { type: 'MISSING_AUTHENTICATION_TOKEN', code: 'NOT_FOUND', statusCode: 404 },
  { type: 'RESOURCE_NOT_FOUND', code: 'NOT_FOUND', statusCode: 404 },
  { type: 'BAD_REQUEST_BODY', code: 'VALIDATION_FAILED', statusCode: 400 },
  { type: 'BAD_REQUEST_PARAMETERS', code: 'VALIDATION_FAILED', statusCode: 400 },
  // Deployed, but not applied by API Gateway: see GATEWAY_RESPONSES_NOT_CUSTOMIZABLE.
  { type: 'REQUEST_TOO_LARGE', code: 'PAYLOAD_TOO_LARGE', statusCode: 413 },
  { type: 'UNSUPPORTED_MEDIA_TYPE', code: 'UNSUPPORTED_MEDIA_TYPE', statusCode: 415 },
  { type: 'THROTTLED', code: 'THROTTLED', statusCode: 429 },
  { type: 'QUOTA_EXCEEDED', code: 'THROTTLED', statusCode: 429 },
  { type: 'DEFAULT_4XX', code: 'VALIDATION_FAILED' },
  { type: 'DEFAULT_5XX', code: 'INTERNAL_ERROR' },
];

/**
 * Gateway response types whose customization API Gateway ignores. AWS: "Amazon API Gateway important notes
 * for REST APIs" ("Customizing the default gateway response for 413 REQUEST_TOO_LARGE isn't currently
 * supported", https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-known-issues.html).
 */
export const GATEWAY_RESPONSES_NOT_CUSTOMIZABLE: readonly GatewayResponseType[] = ['REQUEST_TOO_LARGE'];

/**
 * API Gateway's default status of each response type ("Gateway response types for API Gateway",
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/supported-gateway-response-types.html).
 * `DEFAULT_4XX`/`DEFAULT_5XX` have none (null there): the status of the response they stand in for is kept.
 */
const AWS_DEFAULT_STATUS: Record<Exclude<GatewayResponseType, 'DEFAULT_4XX' | 'DEFAULT_5XX'>, number> = {
  UNAUTHORIZED: 401,
  EXPIRED_TOKEN: 403,
  ACCESS_DENIED: 403,
  MISSING_AUTHENTICATION_TOKEN: 403,
  RESOURCE_NOT_FOUND: 404,
  BAD_REQUEST_BODY: 400,
  BAD_REQUEST_PARAMETERS: 400,
  REQUEST_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  THROTTLED: 429,
  QUOTA_EXCEEDED: 429,
  INTEGRATION_FAILURE: 504,
  INTEGRATION_TIMEOUT: 504,
};

/** What the deployed API answers for one gateway response: status, the API's error code, and whether customized. */
export interface GatewayAnswer {
  status: number;
  code: ErrorCode;
  /** The gateway response type whose row applied (the type itself, or DEFAULT_4XX/DEFAULT_5XX). */
  appliedType: GatewayResponseType;
}

/**
 * The status and error code the deployed API answers when API Gateway produces a response of `type` with
 * status `awsStatus` (default: the type's documented default status). Rules ("Gateway response types for
 * API Gateway", https://docs.aws.amazon.com/apigateway/latest/developerguide/supported-gateway-response-types.html):
 * a type with its own row in {@link GATEWAY_RESPONSES} uses that row; a type without one "defaults to the
 * DEFAULT_4XX / DEFAULT_5XX type", whose null status code leaves the original status unchanged.
 * @throws Error for a type in {@link GATEWAY_RESPONSES_NOT_CUSTOMIZABLE} (API Gateway answers its own default).
 */
export function gatewayAnswer(type: GatewayResponseType, awsStatus?: number): GatewayAnswer {
  if (GATEWAY_RESPONSES_NOT_CUSTOMIZABLE.includes(type)) throw new Error(`gateway response ${type} cannot be customized`);
  const status = awsStatus ?? (type === 'DEFAULT_4XX' || type === 'DEFAULT_5XX' ? undefined : AWS_DEFAULT_STATUS[type]);
  if (status === undefined) throw new Error(`gateway response ${type} needs the status it stands in for`);
  const own = GATEWAY_RESPONSES.find((r) => r.type === type);
  const row = own ?? GATEWAY_RESPONSES.find((r) => r.type === (status >= 500 ? 'DEFAULT_5XX' : 'DEFAULT_4XX'))!;
  return { status: row.statusCode ?? status, code: row.code, appliedType: row.type };
}

