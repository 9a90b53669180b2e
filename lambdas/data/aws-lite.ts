/**
 * One lazily-created `@aws-lite/client` instance per caller: the DynamoDB document client (`client.ts`)
 * and the Cognito users port (`cognito-users.ts`) both connect on first use and share this memoisation.
 */
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
      (c) => c as unknown as AwsLiteClient,
      (e: unknown) => {
        client = undefined;
        throw e;
      },
    ));
}
