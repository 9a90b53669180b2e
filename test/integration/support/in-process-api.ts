/**
 * Shared set-up of the in-process API suites (test/integration/api-*.test.ts): the REAL Lambda handlers
 * called as functions, over a real DynamoDB engine (dynoxide, in memory, random port).
 *
 *  - `startInProcessApi({ table, env })` starts dynoxide on port 0, creates the application table with
 *    `ensureTable`, points the AWS SDK at it through the environment (`AWS_ENDPOINT_URL_DYNAMODB`, region
 *    eu-west-1, static local credentials, `TABLE_NAME`, Powertools logs silenced, plus `env`) and returns the
 *    data layer's write functions bound to that table (`tableWriters`) to seed with. Import handler
 *    modules only AFTER it resolves: they read the environment when first invoked.
 *  - `stop()` restores `process.env` as it was before the start, stops the
 *    engine. Safe to call when the start failed half-way.
 *  - `call(handler, spec)`: one API Gateway-shaped event (string claims) through a handler.
 *  - `collectorEvent(path, body, identity)`: a POST as API Gateway sends it for an IAM-authorised method
 *    (no claims; the caller's IAM identity, e.g. `userArn`, in `requestContext.identity`).
 *
 * Errors: whatever `startDynamo`/`ensureTable` raise (missing binary, engine not answering in 10 s).
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ensureTable, startDynamo, type RunningDynamo } from '../../../scripts/local/dynamodb.js';
import type { ApiHandler } from '../../../lambdas/http/api.js';
import { createDocumentClient, tableWriters, type TableWriters } from '../../../lambdas/data/index.js';
import type { DocumentClientOptions } from '../../../lambdas/data/client.js';
import { apiEvent, lambdaContext, type EventSpec } from '../../unit/lambdas/events.js';

/** The data layer's write functions bound to the engine's table (`tableWriters`). */
export type DataModule = TableWriters;

export interface InProcessApiOptions {
  /** Name of the application table to create in the fresh engine. */
  table: string;
  /** Extra environment for the handlers (e.g. `ALLOWED_ORIGINS`, `O365_EVENT_RETENTION_DAYS`). */
  env?: Record<string, string>;
}

export interface InProcessApi {
  /** `http://127.0.0.1:<port>` of the engine. */
  endpoint: string;
  /** The repository module, table client reset to the new engine. */
  data: DataModule;
  /** A low-level client on the engine (dummy credentials); the caller destroys it. */
  rawClient(): DynamoDBClient;
  /** Options for the data layer's `createDocumentClient` on the same engine. */
  documentClientOptions(): DocumentClientOptions;
  stop(): Promise<void>;
}

/** Starts the engine and sets the environment; see the module docstring. */
export async function startInProcessApi(opts: InProcessApiOptions): Promise<InProcessApi> {
  const envBackup = { ...process.env };
  let dynamo: RunningDynamo | undefined;
  const stop = async (): Promise<void> => {
    process.env = envBackup;
    await dynamo?.stop();
  };
  try {
    dynamo = await startDynamo({ port: 0 });
    await ensureTable(dynamo.endpoint, opts.table);
  } catch (e) {
    await stop();
    throw e;
  }
  const endpoint = dynamo.endpoint;
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_DYNAMODB: endpoint,
    AWS_REGION: 'eu-west-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    TABLE_NAME: opts.table,
    POWERTOOLS_LOG_LEVEL: 'SILENT',
    ...opts.env,
  });
  const retention = {
    availabilityDays: Number(opts.env?.AVAILABILITY_RETENTION_DAYS ?? 400),
    o365EventDays: Number(opts.env?.O365_EVENT_RETENTION_DAYS ?? 90),
  };
  const data = tableWriters(
    { doc: createDocumentClient({ endpoint, region: 'eu-west-1', credentials: { accessKeyId: 'l', secretAccessKey: 'l' } }), tableName: opts.table },
    { retention },
  );
  return {
    endpoint,
    data,
    rawClient: () => new DynamoDBClient({ endpoint, region: 'eu-west-1', credentials: { accessKeyId: 'l', secretAccessKey: 'l' } }),
    documentClientOptions: () => ({ endpoint, region: 'eu-west-1', credentials: { accessKeyId: 'l', secretAccessKey: 'l' } }),
    stop,
  };
}

/** Sends one API Gateway-shaped event (see `apiEvent`) through `handler`. */
export function call(handler: ApiHandler, spec: EventSpec): Promise<APIGatewayProxyResult> {
  return handler(apiEvent(spec), lambdaContext);
}

/**
 * A POST as API Gateway sends it for an IAM-authorised method (collector routes): no claims, and the
 * given fields (`userArn`, optionally `accessKey`) laid over `requestContext.identity`.
 */
export function collectorEvent(
  path: string,
  body: unknown,
  identity: Partial<APIGatewayProxyEvent['requestContext']['identity']>,
): APIGatewayProxyEvent {
  const e = apiEvent({ method: 'POST', path, caller: null, body });
  e.requestContext.identity = { ...e.requestContext.identity, ...identity };
  return e;
}
