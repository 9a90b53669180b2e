/**
 * The DynamoDB document client of the data layer and the table a Lambda container uses.
 *
 * `DocumentClient.send(operation, input)` runs one of the six DynamoDB API operations the repositories
 * use — GetItem, PutItem, UpdateItem, DeleteItem, Query, TransactWriteItems — with plain JavaScript values
 * in and out (no `{ S: … }` attribute values), parameter names as in the DynamoDB API reference. Marshalling
 * drops `undefined` fields (as lib-dynamodb's `removeUndefinedValues: true`); numbers come back as JS numbers.
 *
 * Errors reject with an `Error` whose `name` is the DynamoDB error code, as the AWS SDK does
 * (`ConditionalCheckFailedException`, `TransactionCanceledException` with `CancellationReasons`,
 * `ValidationException`, …); an item returned with a failed condition (`ReturnValuesOnConditionCheckFailure:
 * 'ALL_OLD'`) is on `err.Item` / `CancellationReasons[i].Item`, unmarshalled. Throttling, 5xx and connection
 * errors are retried with exponential backoff before they reject.
 *
 * Implementation: `@aws-lite/client` + `@aws-lite/dynamodb`, not the AWS SDK v3, because a handler's cold
 * start was dominated by loading its DynamoDB client (`npm run bench`, "Lambda cold-start proxy", fresh Node
 * process until the handler is imported): SDK-based handlers took 4.6–4.8 × an empty handler (SDK external,
 * as the Lambda runtime provides it), the SDK's DynamoDB clients alone bundled ~2 ×, and whole handlers on
 * aws-lite take ~2.1 ×. Operator scripts, which need the SDK's full credential chain (SSO, assumed roles), wrap an SDK
 * client instead: `sdkDocumentClient` in `sdk-client.ts` — same interface, same repository code.
 *
 * Region, credentials and endpoint come from the standard AWS environment: `AWS_REGION`,
 * `AWS_ACCESS_KEY_ID` / `AWS_SECRET_ACCESS_KEY` / `AWS_SESSION_TOKEN` (set by Lambda), and
 * `AWS_ENDPOINT_URL_DYNAMODB` (the SDK's service-specific endpoint variable; the local stack points it at
 * dynoxide). The table name comes from `TABLE_NAME`.
 */
import awsLite from '@aws-lite/client';
import dynamodbPlugin from '@aws-lite/dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';

/** An item, key or expression-value map with plain JavaScript values. */
export type AttributeMap = Record<string, unknown>;

/** Capacity consumed by one operation (returned when `ReturnConsumedCapacity` is `TOTAL`). */
export interface ConsumedCapacity {
  TableName?: string;
  /** Read + write capacity units (RCU/WCU). */
  CapacityUnits?: number;
  ReadCapacityUnits?: number;
  WriteCapacityUnits?: number;
}

interface CapacityOption {
  ReturnConsumedCapacity?: 'TOTAL' | 'INDEXES' | 'NONE';
}

interface Expressions {
  ConditionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: AttributeMap;
}

type ReturnValues = 'NONE' | 'ALL_OLD' | 'UPDATED_OLD' | 'ALL_NEW' | 'UPDATED_NEW';

export interface GetItemInput extends CapacityOption {
  TableName: string;
  Key: AttributeMap;
  ConsistentRead?: boolean;
  ProjectionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
}
export interface PutItemInput extends CapacityOption, Expressions {
  TableName: string;
  Item: AttributeMap;
  ReturnValues?: 'NONE' | 'ALL_OLD';
  ReturnValuesOnConditionCheckFailure?: 'NONE' | 'ALL_OLD';
}
export interface UpdateItemInput extends CapacityOption, Expressions {
  TableName: string;
  Key: AttributeMap;
  UpdateExpression: string;
  ReturnValues?: ReturnValues;
  ReturnValuesOnConditionCheckFailure?: 'NONE' | 'ALL_OLD';
}
export interface DeleteItemInput extends CapacityOption, Expressions {
  TableName: string;
  Key: AttributeMap;
  ReturnValues?: 'NONE' | 'ALL_OLD';
  ReturnValuesOnConditionCheckFailure?: 'NONE' | 'ALL_OLD';
}
export interface QueryInput extends CapacityOption {
  TableName: string;
  IndexName?: string;
  KeyConditionExpression: string;
  FilterExpression?: string;
  ProjectionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: AttributeMap;
  ScanIndexForward?: boolean;
  /** Items evaluated per call (before the filter), ≥ 1. */
  Limit?: number;
  ExclusiveStartKey?: AttributeMap | undefined;
  ConsistentRead?: boolean;
  Select?: 'ALL_ATTRIBUTES' | 'ALL_PROJECTED_ATTRIBUTES' | 'SPECIFIC_ATTRIBUTES' | 'COUNT';
}
/** One action of a TransactWriteItems call. */
export type TransactWriteItem =
  | { Put: Omit<PutItemInput, 'ReturnValues' | 'ReturnConsumedCapacity'> }
  | { Update: Omit<UpdateItemInput, 'ReturnValues' | 'ReturnConsumedCapacity'> }
  | { Delete: Omit<DeleteItemInput, 'ReturnValues' | 'ReturnConsumedCapacity'> }
  | { ConditionCheck: Expressions & { TableName: string; Key: AttributeMap; ConditionExpression: string; ReturnValuesOnConditionCheckFailure?: 'NONE' | 'ALL_OLD' } };
export interface TransactWriteItemsInput extends CapacityOption {
  /** 1–100 actions, all or nothing. */
  TransactItems: TransactWriteItem[];
  ClientRequestToken?: string;
}

/** Input and output of each supported operation (DynamoDB API reference names). */
export interface Operations {
  GetItem: { input: GetItemInput; output: { Item?: AttributeMap; ConsumedCapacity?: ConsumedCapacity } };
  PutItem: { input: PutItemInput; output: { Attributes?: AttributeMap; ConsumedCapacity?: ConsumedCapacity } };
  UpdateItem: { input: UpdateItemInput; output: { Attributes?: AttributeMap; ConsumedCapacity?: ConsumedCapacity } };
  DeleteItem: { input: DeleteItemInput; output: { Attributes?: AttributeMap; ConsumedCapacity?: ConsumedCapacity } };
  Query: {
    input: QueryInput;
    output: { Items: AttributeMap[]; Count: number; ScannedCount: number; LastEvaluatedKey?: AttributeMap; ConsumedCapacity?: ConsumedCapacity };
  };
  TransactWriteItems: { input: TransactWriteItemsInput; output: { ConsumedCapacity?: ConsumedCapacity[] } };
}
export type Operation = keyof Operations;
export const OPERATIONS = ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'Query', 'TransactWriteItems'] as const satisfies readonly Operation[];

/** The data layer's view of DynamoDB; see the module doc. */
export interface DocumentClient {
  /**
   * Runs `operation` with `input` (not modified).
   * @throws Error named after the DynamoDB error code (see module doc).
   */
  send<O extends Operation>(operation: O, input: Operations[O]['input']): Promise<Operations[O]['output']>;
  /** Releases connections (SDK adapter); idle keep-alive sockets of aws-lite never hold the process open. */
  destroy(): void;
}

/** Where a repository reads and writes: a document client and the physical table name. */
export interface TableRef {
  doc: DocumentClient;
  tableName: string;
}

/** Options of `createDocumentClient`; each defaults to the AWS environment described in the module doc. */
export interface DocumentClientOptions {
  region?: string;
  /** e.g. `http://127.0.0.1:8000` for the local engine; default `AWS_ENDPOINT_URL_DYNAMODB`, else AWS. */
  endpoint?: string;
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** Retries after the first attempt for throttling, 5xx and connection errors (default 3). */
  retries?: number;
}

/** The part of an aws-lite client this module calls (the DynamoDB plugin's methods). */
type AwsLiteDynamoDB = Record<Operation, (input: unknown) => Promise<Record<string, unknown>>>;

const unmarshallItem = (m: unknown): AttributeMap => unmarshall(m as Parameters<typeof unmarshall>[0]) as AttributeMap;

/**
 * Unmarshalls, in place, the items a DynamoDB error carries (`Item` of a failed condition,
 * `CancellationReasons[i].Item`); neither aws-lite nor lib-dynamodb does. Returns `err`.
 */
export function normaliseError(err: unknown): unknown {
  if (!(err instanceof Error)) return err;
  const e = err as Error & { Item?: unknown; CancellationReasons?: { Item?: unknown }[] };
  if (e.Item && typeof e.Item === 'object') e.Item = unmarshallItem(e.Item);
  if (Array.isArray(e.CancellationReasons)) {
    e.CancellationReasons = e.CancellationReasons.map((r) => (r?.Item ? { ...r, Item: unmarshallItem(r.Item) } : r));
  }
  return err;
}

/**
 * A document client over aws-lite (see module doc). The underlying client is created on the first call
 * (aws-lite's factory is async) and shared by later calls; a failed creation is retried on the next call.
 */
export function createDocumentClient(opts: DocumentClientOptions = {}): DocumentClient {
  let client: Promise<AwsLiteDynamoDB> | undefined;
  const connect = (): Promise<AwsLiteDynamoDB> => {
    client ??= awsLite({
      region: opts.region ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION,
      ...(opts.endpoint ?? process.env.AWS_ENDPOINT_URL_DYNAMODB ? { endpoint: opts.endpoint ?? process.env.AWS_ENDPOINT_URL_DYNAMODB } : {}),
      ...(opts.credentials ?? {}),
      plugins: [dynamodbPlugin],
      autoloadPlugins: false,
      keepAlive: true,
      retries: opts.retries ?? 3,
      awsjsonMarshall: { removeUndefinedValues: true },
    } as Parameters<typeof awsLite>[0]).then(
      (c) => (c as unknown as { DynamoDB: AwsLiteDynamoDB }).DynamoDB,
      (e: unknown) => {
        client = undefined;
        throw e;
      },
    );
    return client;
  };
  return {
    async send(operation, input) {
      const ddb = await connect();
      // aws-lite marshals some inputs in place (TransactItems); the caller's objects must stay untouched
      // (retry loops resend them). It leaves ExclusiveStartKey / LastEvaluatedKey marshalled: do those here.
      // Optional parameters given as `undefined` are dropped, as the SDK does.
      const payload = structuredClone(input) as unknown as Record<string, unknown>;
      for (const k of Object.keys(payload)) if (payload[k] === undefined) delete payload[k];
      if (payload.ExclusiveStartKey) payload.ExclusiveStartKey = marshall(payload.ExclusiveStartKey as AttributeMap, { removeUndefinedValues: true });
      let out: Record<string, unknown>;
      try {
        out = await ddb[operation](payload);
      } catch (e) {
        throw normaliseError(e);
      }
      if (operation === 'Query') {
        out.Items ??= [];
        if (out.LastEvaluatedKey) out.LastEvaluatedKey = unmarshallItem(out.LastEvaluatedKey);
      }
      return out as never;
    },
    destroy() {
      // aws-lite keeps one keep-alive agent per process; its idle sockets are unref'd by Node.
    },
  };
}

let shared: TableRef | undefined;

/**
 * The container-wide table reference, created on first use from the environment.
 * @throws Error if `TABLE_NAME` is not set (a deployment mistake).
 */
export function defaultTable(): TableRef {
  if (!shared) {
    const tableName = process.env.TABLE_NAME;
    if (!tableName) throw new Error('TABLE_NAME is not set');
    shared = { doc: createDocumentClient(), tableName };
  }
  return shared;
}

/**
 * Replaces the shared reference's client with `wrap(current)` (e.g. the benchmark's consumed-capacity
 * recorder) and returns a function that restores the original.
 */
export function wrapDefaultTable(wrap: (doc: DocumentClient) => DocumentClient): () => void {
  const table = defaultTable();
  const original = table.doc;
  table.doc = wrap(original);
  return () => {
    table.doc = original;
  };
}

/** Forgets the shared reference (tests that change the environment between suites). */
export function resetDefaultTable(): void {
  shared?.doc.destroy();
  shared = undefined;
}
