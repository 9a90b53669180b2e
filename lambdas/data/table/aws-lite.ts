/**
 * The `@aws-lite/client` request signer as the Lambdas use it instead of the AWS SDK: one lazily-created
 * client per caller (`lazyAwsLite`: the DynamoDB document client `client.ts`, the SES sender), and one caller
 * of the AWS JSON 1.1 protocol (`awsJson11`: the Cognito ports `cognito-users.ts` and
 * `cognito-identity-providers.ts`, Secrets Manager `secrets.ts`).
 */
import { channel } from 'node:diagnostics_channel';
import awsLite from '@aws-lite/client';

/** One aws-lite request (JSON protocol, body already serialised) and its parsed JSON response payload. */
export type AwsLiteClient = (request: {
  service: string;
  headers: Record<string, string>;
  payload: string;
  awsjson: false;
}) => Promise<{ statusCode: number; payload: unknown }>;

/**
 * Returns a connect function that creates the aws-lite client from `options` (region, endpoint,
 * credentials, retries…; plugins are never autoloaded, keep-alive is on) on its first call and returns
 * the same promise afterwards. A failed creation is forgotten, so the next call tries again.
 * @throws whatever `@aws-lite/client` rejects with (e.g. no credentials), on the returned promise.
 */
export function lazyAwsLite(options: Record<string, unknown>): () => Promise<AwsLiteClient> {
  let client: Promise<AwsLiteClient> | undefined;
  return () =>
    (client ??= awsLite({ autoloadPlugins: false, keepAlive: true, ...options } as Parameters<typeof awsLite>[0]).then(
      (c) => observed(c as unknown as AwsLiteClient),
      (e: unknown) => {
        client = undefined;
        throw e;
      },
    ));
}

/**
 * Name of the `node:diagnostics_channel` on which every AWS request of the Lambda code is published before it
 * is sent, as an {@link AwsCallMessage}. Nothing subscribes in AWS (publishing then costs one property read);
 * the offline stack and the test suites subscribe to evaluate each call against the calling function's IAM
 * role as synthesized (scripts/aws-rules/recorder.ts, docs/local-emulation.md#iam).
 */
export const AWS_CALL_CHANNEL = 'vigia:aws-call';

/**
 * One AWS request as published on {@link AWS_CALL_CHANNEL}: the aws-lite service name (`dynamodb`,
 * `cognito-idp`, `secretsmanager`, `email`), the `X-Amz-Target` header of JSON protocols, the method and path
 * of REST ones (SES v2), and the body as sent. A subscriber may set `verdict`: a promise of the error AWS
 * would answer (e.g. `AccessDeniedException`), or of undefined to let the request go.
 */
export interface AwsCallMessage {
  service: string;
  target?: string | undefined;
  method?: string | undefined;
  path?: string | undefined;
  payload: unknown;
  verdict?: Promise<Error | undefined>;
}

const awsCalls = channel(AWS_CALL_CHANNEL);

/** `client` publishing each request on {@link AWS_CALL_CHANNEL} first, and rejecting with a subscriber's verdict. */
function observed(client: AwsLiteClient): AwsLiteClient {
  return async (request) => {
    if (awsCalls.hasSubscribers) {
      const r = request as typeof request & { method?: string; path?: string };
      const headers = Object.fromEntries(Object.entries(r.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
      const message: AwsCallMessage = { service: r.service, target: headers['x-amz-target'], method: r.method, path: r.path, payload: r.payload };
      awsCalls.publish(message);
      const refused = await message.verdict;
      if (refused) throw refused;
    }
    return client(request);
  };
}

/** Credentials as aws-lite takes them (a function role's come from the `AWS_*` variables when none are given). */
export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/** A JSON object: an operation's request or response members, names as in the service's API reference. */
export type JsonObject = Record<string, unknown>;

/**
 * One operation call of an AWS JSON 1.1 service: the operation name as the API reference spells it
 * (`AdminGetUser`, `GetSecretValue`) and its request members; resolves to the response members (`{}` for an
 * empty response body).
 * @throws the aws-lite error, its `name` the AWS error code (see {@link awsErrorCode}).
 */
export type AwsJsonCall = (operation: string, input: JsonObject) => Promise<JsonObject>;

/** Options of {@link awsJson11}. */
export interface AwsJson11Options {
  /** The aws-lite service name, which is also the SigV4 signing name and the endpoint's host prefix: `cognito-idp`, `secretsmanager`. */
  service: string;
  /** The `X-Amz-Target` prefix before `.<Operation>`: `AWSCognitoIdentityProviderService`, `secretsmanager`. */
  targetPrefix: string;
  region: string;
  /** Endpoint override (a local emulator); default `https://<service>.<region>.amazonaws.com`. */
  endpoint?: string | undefined;
  credentials?: AwsCredentials | undefined;
  /** Members sent with every request (e.g. the Cognito `UserPoolId`); an operation's own input wins. */
  common?: JsonObject | undefined;
  /** The client to send with instead of one made from region, endpoint and credentials (tests). */
  connect?: (() => Promise<AwsLiteClient>) | undefined;
}

/**
 * The AWS error code of a rejected call, by the AWS JSON protocols' rule for the `__type` member: the part
 * before any `:` and after any `#` (`com.amazonaws.cognito#UserNotFoundException:http://…` →
 * `UserNotFoundException`). An error without `__type` keeps its `name`; a value that is no Error gives ''.
 */
export function awsErrorCode(err: unknown): string {
  if (!(err instanceof Error)) return '';
  const type = (err as Error & { __type?: unknown }).__type;
  if (typeof type !== 'string') return err.name;
  const beforeColon = type.split(':')[0] ?? type;
  return beforeColon.slice(beforeColon.lastIndexOf('#') + 1);
}

/**
 * A caller of one AWS service that speaks the AWS JSON 1.1 protocol (Amazon Cognito user pools, AWS Secrets
 * Manager…), signed with SigV4 by `@aws-lite/client` — the AWS SDK stays out of the Lambda bundles
 * (docs/decisions/aws-lite-dynamodb-client.md). Each call is one `POST /` with `Content-Type:
 * application/x-amz-json-1.1`, `X-Amz-Target: <targetPrefix>.<operation>` and the JSON request body;
 * the response body is parsed as JSON. Protocol: https://smithy.io/2.0/aws/protocols/aws-json-1_1-protocol.html
 * (AWS's Smithy specification of "AWS JSON 1.1").
 *
 * The client is created on the first call (`lazyAwsLite`: retries of throttling and 5xx answers,
 * keep-alive). Errors: every rejection is aws-lite's error with `name` set to {@link awsErrorCode}
 * (`ResourceNotFoundException`, `UserNotFoundException`, …); its other members (`message`, `statusCode`,
 * `__type`) are kept. A client that cannot be created (no credentials) rejects with aws-lite's error.
 */
export function awsJson11(opts: AwsJson11Options): AwsJsonCall {
  const connect =
    opts.connect ??
    lazyAwsLite({
      region: opts.region,
      endpoint: opts.endpoint ?? `https://${opts.service}.${opts.region}.amazonaws.com`,
      ...(opts.credentials ?? {}),
      responseContentType: 'application/json',
    });
  return async (operation, input) => {
    const aws = await connect();
    try {
      const res = await aws({
        service: opts.service,
        headers: { 'X-Amz-Target': `${opts.targetPrefix}.${operation}`, 'content-type': 'application/x-amz-json-1.1' },
        payload: JSON.stringify({ ...opts.common, ...input }),
        awsjson: false,
      });
      return (res.payload ?? {}) as JsonObject;
    } catch (e) {
      if (e instanceof Error) e.name = awsErrorCode(e);
      throw e;
    }
  };
}
