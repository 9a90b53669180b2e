/**
 * Shared set-up of the in-process API suites (test/integration/api-*.test.ts): the REAL Lambda handlers
 * called as functions, over a real DynamoDB engine (dynoxide, in memory, random port). No process
 * environment is read or written: the handlers get an explicit configuration through `createHandler`.
 *
 *  - `startInProcessApi({ table, config })` starts dynoxide on port 0, creates the application table with
 *    `ensureTable`, and builds the Lambda configuration (`parseLambdaConfig`: stage `test`, region
 *    eu-west-1, the engine as DynamoDB endpoint, logs silenced, plus `config`), a repository on the engine
 *    (static local credentials) and the data layer's write functions bound to the table (`tableWriters`).
 *  - `api.handler(name, { now })`: the handler of `lambdas/handlers/<name>.ts` from `createHandler(config,
 *    { repository, now })`, wrapped so that EVERY response it gives is checked against the generated
 *    OpenAPI document (`openapi-validator.ts`); a mismatch rejects the call, failing the test. It runs as its
 *    function (`runAsFunction`): every AWS call it makes is evaluated against that function's IAM role
 *    (scripts/aws-rules/recorder.ts).
 *  - `stop()` stops the engine. Safe to call when the start failed half-way.
 *  - `call(handler, spec)`: one API Gateway-shaped event (string claims) through a handler.
 *  - `collectorEvent(path, body, identity)`: a POST as API Gateway sends it for an IAM-authorised method
 *    (no claims; the caller's IAM identity, e.g. `userArn`, in `requestContext.identity`).
 *
 * Errors: whatever `startDynamo`/`ensureTable` raise (missing binary, engine not answering in 10 s).
 */
import type { AttachmentStore } from '../../lambdas/data/attachment-store.js';
import { memoryAttachmentStore } from './memory-attachment-store.js';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ensureTable, startDynamo, type RunningDynamo } from '../../scripts/local/dynamodb.js';
import type { ApiHandler, HandlerDeps } from '../../lambdas/http/api.js';
import { createDocumentClient, dynamoRepository, tableWriters, type Repository, type TableWriters } from '../../lambdas/data/index.js';
import type { DocumentClientOptions } from '../../lambdas/data/table/client.js';
import { parseLambdaConfig, type LambdaConfig, type LambdaConfigInput } from '../../lambdas/config.js';
import type { HandlerName } from '../../lambdas/contract/routes.js';
import * as account from '../../lambdas/handlers/account.js';
import * as admin from '../../lambdas/handlers/admin.js';
import type { AdminHandlerDeps } from '../../lambdas/handlers/admin.js';
import type { UsersPort } from '../../lambdas/domain/ports.js';
import * as devices from '../../lambdas/handlers/devices.js';
import * as incidents from '../../lambdas/handlers/incidents.js';
import * as ingest from '../../lambdas/handlers/ingest.js';
import * as office365 from '../../lambdas/handlers/office365.js';
import * as recommendations from '../../lambdas/handlers/recommendations.js';
import * as reports from '../../lambdas/handlers/reports.js';
import * as notifications from '../../lambdas/handlers/notifications.js';
import { apiEvent, headerOf, lambdaContext, type EventSpec } from './events.js';
import { createResponseValidator } from './openapi-validator.js';
import { memoryUsers } from './memory-users.js';
import { memoryIdentityProviders } from './memory-identity-providers.js';
import { identityProviderStore } from '../../lambdas/data/identity-providers.js';
import { acquireRuntimeIamCheck, runAsFunction } from '../../scripts/aws-rules/recorder.js';

const HANDLERS: Record<HandlerName, { createHandler(config: LambdaConfig, deps?: HandlerDeps & { users?: UsersPort; identityProviders?: AdminHandlerDeps['identityProviders']; attachments?: AttachmentStore }): ApiHandler }> = {
  account,
  admin,
  devices,
  incidents,
  ingest,
  office365,
  recommendations,
  reports,
  notifications,
};

/** The data layer's write functions bound to the engine's table (`tableWriters`). */
export type DataModule = TableWriters;

export interface InProcessApiOptions {
  /** Name of the application table to create in the fresh engine. */
  table: string;
  /** Settings laid over the defaults of the configuration (e.g. `allowedOrigins`, `retention`). */
  config?: Partial<Omit<LambdaConfigInput, 'tableName' | 'dynamodbEndpoint'>>;
  /** The user pool of the admin handler (e.g. an in-memory pool, or the local pool). */
  users?: UsersPort;
}

export interface InProcessApi {
  /** `http://127.0.0.1:<port>` of the engine. */
  endpoint: string;
  /** The configuration every handler gets. */
  config: LambdaConfig;
  /** The handlers' repository on the engine. */
  repository: Repository;
  /** The write functions bound to the engine's table. */
  data: DataModule;
  /** The handler of `lambdas/handlers/<name>.ts`, every response checked against the OpenAPI document. */
  handler(name: HandlerName, deps?: Pick<HandlerDeps, 'now'> & { attachments?: AttachmentStore }): ApiHandler;
  /** A low-level client on the engine (dummy credentials); the caller destroys it. */
  rawClient(): DynamoDBClient;
  /** Options for the data layer's `createDocumentClient` on the same engine. */
  documentClientOptions(): DocumentClientOptions;
  stop(): Promise<void>;
}

const validator = createResponseValidator();

/** `handler` with every response checked against the OpenAPI document (rejects with `OpenApiMismatch`). */
export function validatingHandler(handler: ApiHandler): ApiHandler {
  return async (event, context) => {
    const res = await handler(event, context);
    validator.checkResponse({
      method: event.httpMethod,
      path: event.path,
      status: res.statusCode,
      contentType: headerOf(res, 'content-type'),
      body: res.body,
    });
    return res;
  };
}

/** Starts the engine and builds configuration, repository and writers; see the module docstring. */
export async function startInProcessApi(opts: InProcessApiOptions): Promise<InProcessApi> {
  let dynamo: RunningDynamo | undefined;
  // IAM on every call: each handler's AWS calls are evaluated against its function's role (a deny fails the
  // call as on AWS and the file, test/support/aws-rules-setup.ts).
  const iam = await acquireRuntimeIamCheck();
  const stop = async (): Promise<void> => {
    iam.release();
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
  const config = parseLambdaConfig({
    stage: 'test',
    region: 'eu-west-1',
    logLevel: 'SILENT',
    // Staff-configured identity providers offered (their Cognito and Secrets Manager calls are in memory).
    identityProviders: { secretPrefix: 'vigia/test/identity-providers/', oauthDomain: 'vigia-test.auth.eu-west-1.amazoncognito.com' },
    ...opts.config,
    tableName: opts.table,
    dynamodbEndpoint: endpoint,
  });
  const clientOptions = { endpoint, region: config.region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } };
  const table = { doc: createDocumentClient(clientOptions), tableName: opts.table };
  const repository = dynamoRepository(table, { retention: config.retention });
  const data = tableWriters(table, { retention: config.retention });
  return {
    endpoint,
    config,
    repository,
    data,
    // The admin handler gets `opts.users`, or a fresh in-memory pool (route-example suites walk every row).
    // …and in-memory Cognito provider / Secrets Manager calls with the provider items on this table.
    handler: (name, deps = {}) => {
      const handler = validatingHandler(
        HANDLERS[name].createHandler(config, {
          repository,
          users: opts.users ?? memoryUsers(),
          identityProviders: { ...memoryIdentityProviders(), store: identityProviderStore(table, config.retention) },
          attachments: memoryAttachmentStore(),
          ...deps,
        }),
      );
      return (event, context) => runAsFunction(name, () => handler(event, context));
    },
    rawClient: () => new DynamoDBClient({ ...clientOptions }),
    documentClientOptions: () => ({ ...clientOptions }),
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
