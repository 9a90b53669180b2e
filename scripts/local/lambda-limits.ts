/**
 * The Lambda and API Gateway rules the local gateway applies around one in-process handler invocation,
 * from the declarations the CDK stack deploys (`lambdas/contract/platform-limits.ts`):
 *  - the function's timeout, and API Gateway's 29 s integration timeout;
 *  - Lambda's 6 MB synchronous payload quota, for the event (request) and the result (response);
 *  - the function's memory, as far as one process can tell (see {@link withFunctionLimits});
 * and what the deployed API answers when one of them stops an invocation ({@link lambdaFailureAnswer}).
 * Each rule, its AWS documentation and what is not emulated: docs/local-emulation.md#api-gateway.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import {
  API_GATEWAY_QUOTAS,
  LAMBDA_QUOTAS,
  gatewayAnswer,
  type FunctionLimits,
  type GatewayResponseType,
} from '../../lambdas/contract/platform-limits.js';
import type { ErrorCode } from '../../lambdas/contract/schemas.js';

/** A Lambda handler for REST API proxy events. */
type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/**
 * How many requests each rule of the local gateway refused, since the gateway started (plain data, for the
 * `npm run check:aws` report). Every field counts requests answered by the rule instead of by the handler.
 */
export interface GatewayRulesReport {
  /** Known path, method it does not define → MISSING_AUTHENTICATION_TOKEN (404 NOT_FOUND). */
  unknownMethod: number;
  /** No resource for the path → MISSING_AUTHENTICATION_TOKEN (404 NOT_FOUND). */
  unknownPath: number;
  /** Body over API Gateway's 10 MB → 413 (API Gateway's default response). */
  payloadOver10MB: number;
  /** Event over Lambda's 6 MB synchronous request payload → Lambda refuses the invoke → 500. */
  requestOver6MB: number;
  /** Result over Lambda's 6 MB synchronous response payload → function error → 502. */
  responseOver6MB: number;
  /** Invocation past its function's timeout → "Task timed out" function error → 502. */
  functionTimeout: number;
  /** No answer within API Gateway's integration timeout (29 s) → 504. */
  integrationTimeout: number;
  /** Memory growth of an invocation over its function's memory → out-of-memory function error → 502. */
  outOfMemory: number;
}

/** A report with every counter at zero. */
export function emptyRulesReport(): GatewayRulesReport {
  return {
    unknownMethod: 0,
    unknownPath: 0,
    payloadOver10MB: 0,
    requestOver6MB: 0,
    responseOver6MB: 0,
    functionTimeout: 0,
    integrationTimeout: 0,
    outOfMemory: 0,
  };
}

/** Why an invocation did not produce the handler's result. */
export type LambdaFailureKind = 'request-too-large' | 'response-too-large' | 'function-timeout' | 'integration-timeout' | 'out-of-memory';

/** An invocation stopped by a Lambda or API Gateway rule (thrown by the handler {@link withFunctionLimits} returns). */
export class LambdaFailure extends Error {
  override readonly name = 'LambdaFailure';
  constructor(
    readonly kind: LambdaFailureKind,
    message: string,
  ) {
    super(message);
  }
}

/** The counter of {@link GatewayRulesReport} each failure kind adds to. */
export const FAILURE_COUNTER: Record<LambdaFailureKind, keyof GatewayRulesReport> = {
  'request-too-large': 'requestOver6MB',
  'response-too-large': 'responseOver6MB',
  'function-timeout': 'functionTimeout',
  'integration-timeout': 'integrationTimeout',
  'out-of-memory': 'outOfMemory',
};

/** What the deployed API answers: status, the API's error code and the message API Gateway puts in it. */
export interface GatewayErrorAnswer {
  status: number;
  code: ErrorCode;
  message: string;
}

/**
 * What the deployed API answers when an invocation fails with `e` (a {@link LambdaFailure}, or anything a
 * handler throws). AWS, Lambda developer guide, "Handling Lambda errors with an API Gateway API"
 * (https://docs.aws.amazon.com/lambda/latest/dg/services-apigateway-errors.html): "If the Lambda API rejects
 * the invocation request, API Gateway returns a 500 error code. If the function runs but returns an error, or
 * returns a response in the wrong format, API Gateway returns a 502", with the message "Internal server
 * error". A timed-out function, a result over 6 MB and an out-of-memory exit are function errors (502); an
 * event over 6 MB is refused by the Invoke API (500). The integration timeout is API Gateway's
 * INTEGRATION_TIMEOUT, default status 504 ("Gateway response types for API Gateway",
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/supported-gateway-response-types.html).
 * None of these types has its own row in the stage's gateway responses, so DEFAULT_5XX applies: the API's
 * error code of that row, the status unchanged ({@link gatewayAnswer}).
 */
export function lambdaFailureAnswer(e: unknown): GatewayErrorAnswer {
  const [type, status, message]: [GatewayResponseType, number, string] =
    e instanceof LambdaFailure && e.kind === 'integration-timeout'
      ? ['INTEGRATION_TIMEOUT', 504, 'Endpoint request timed out']
      : e instanceof LambdaFailure && e.kind === 'request-too-large'
        ? ['DEFAULT_5XX', 500, 'Internal server error']
        : ['DEFAULT_5XX', 502, 'Internal server error'];
  const answer = gatewayAnswer(type, status);
  return { status: answer.status, code: answer.code, message };
}

/** Options of {@link withFunctionLimits}. */
export interface InvokeLimitsOptions {
  /** API Gateway's integration timeout, seconds (default {@link API_GATEWAY_QUOTAS}: 29). */
  integrationTimeoutSeconds?: number;
  /** Reads the process's memory in bytes (default: V8 heap used + array buffers); replaceable in tests. */
  memoryBytes?: () => number;
  /** Interval of memory samples while a single invocation runs, ms (default 20). */
  memorySampleMs?: number;
}

/** Invocations currently running in this process, and a generation bumped at every start and end. */
const running = { count: 0, generation: 0 };

function defaultMemoryBytes(): number {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

/**
 * Wraps `handler` so that each invocation obeys the rules Lambda applies to the function `limits` describes,
 * behind API Gateway's Lambda proxy integration; the wrapped handler throws {@link LambdaFailure} when one
 * stops the invocation (the handler's eventual result is then discarded):
 *  - the event, serialized as Lambda receives it, over 6 MB → `request-too-large`, the handler is not called
 *    ("Lambda quotas", invocation payload, https://docs.aws.amazon.com/lambda/latest/dg/gettingstarted-limits.html);
 *  - no result within the function's timeout → `function-timeout` ("Configure Lambda function timeout",
 *    https://docs.aws.amazon.com/lambda/latest/dg/configuration-timeout.html), or, if API Gateway's integration
 *    timeout is shorter, none within it → `integration-timeout` ("Amazon API Gateway quotas",
 *    https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-execution-service-limits-table.html);
 *  - the result, serialized, over 6 MB → `response-too-large` ("Lambda quotas");
 *  - memory: the growth of the process's JS memory (V8 heap used + array buffers) from the invocation's start,
 *    sampled while it runs and at its end, over the function's memory → `out-of-memory` ("Configure Lambda
 *    function memory", https://docs.aws.amazon.com/lambda/latest/dg/configuration-memory.html). Measured only
 *    while the invocation is the only one running in the process (another one's allocations would be counted
 *    otherwise); a lower bound of what Lambda counts (docs/local-emulation.md#api-gateway says what is missed).
 * The context's `getRemainingTimeInMillis` counts down from the function's timeout and `memoryLimitInMB` is
 * the function's memory, as Lambda's context object gives them.
 */
export function withFunctionLimits(handler: Handler, limits: FunctionLimits, opts: InvokeLimitsOptions = {}): Handler {
  const integrationMs = (opts.integrationTimeoutSeconds ?? API_GATEWAY_QUOTAS.integrationTimeoutSeconds) * 1000;
  const functionMs = limits.timeoutSeconds * 1000;
  const memoryBytes = opts.memoryBytes ?? defaultMemoryBytes;
  const memoryLimit = limits.memoryMB * 1024 * 1024;
  return async (event, context) => {
    if (Buffer.byteLength(JSON.stringify(event)) > LAMBDA_QUOTAS.syncRequestBytes) {
      throw new LambdaFailure('request-too-large', `event over Lambda's ${LAMBDA_QUOTAS.syncRequestBytes}-byte synchronous request payload`);
    }
    const started = Date.now();
    const ctx: Context = {
      ...context,
      memoryLimitInMB: String(limits.memoryMB),
      getRemainingTimeInMillis: () => Math.max(0, started + functionMs - Date.now()),
    };

    running.count += 1;
    running.generation += 1;
    const generation = running.generation;
    const alone = () => running.count === 1 && running.generation === generation;
    const base = memoryBytes();
    let peak = 0;
    const sample = () => {
      if (alone()) peak = Math.max(peak, memoryBytes() - base);
    };
    const sampler = setInterval(sample, opts.memorySampleMs ?? 20);
    sampler.unref();

    const timers: NodeJS.Timeout[] = [];
    const stopAfter = (ms: number, kind: LambdaFailureKind, message: string) =>
      new Promise<never>((_, reject) => timers.push(setTimeout(() => reject(new LambdaFailure(kind, message)), ms)));
    const work = handler(event, ctx);
    work.catch(() => undefined); // a handler still running after a timeout must not become an unhandled rejection
    let result: APIGatewayProxyResult;
    try {
      result = await Promise.race([
        work,
        functionMs <= integrationMs
          ? stopAfter(functionMs, 'function-timeout', `Task timed out after ${limits.timeoutSeconds} seconds`)
          : stopAfter(integrationMs, 'integration-timeout', `no answer within the ${integrationMs / 1000} s integration timeout`),
      ]);
      sample();
    } finally {
      clearInterval(sampler);
      for (const t of timers) clearTimeout(t);
      running.count -= 1;
      running.generation += 1;
    }
    if (peak > memoryLimit) {
      throw new LambdaFailure('out-of-memory', `memory grew ${Math.round(peak / 1048576)} MB, over the function's ${limits.memoryMB} MB`);
    }
    const size = Buffer.byteLength(JSON.stringify(result));
    if (size > LAMBDA_QUOTAS.syncResponseBytes) {
      throw new LambdaFailure('response-too-large', `result of ${size} bytes, over Lambda's ${LAMBDA_QUOTAS.syncResponseBytes}-byte synchronous response payload`);
    }
    return result;
  };
}
