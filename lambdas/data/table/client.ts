/**
 * The DynamoDB document client of the data layer and the table a Lambda container uses.
 *
 * `DocumentClient.send(operation, input)` runs one of the DynamoDB API operations the data layer uses —
 * GetItem, PutItem, UpdateItem, DeleteItem, Query, TransactWriteItems, BatchGetItem (the incidents a search
 * found), and BatchWriteItem (search tokens, bulk loads) — with plain JavaScript values
 * in and out (no `{ S: … }` attribute values), parameter names as in the DynamoDB API reference. Marshalling
 * is AWS's own `@aws-sdk/util-dynamodb` with `removeUndefinedValues` (as lib-dynamodb); numbers come back as
 * JS numbers. Binary attributes are not supported (none are stored).
 *
 * Errors: a DynamoDB error rejects with an `Error` whose `name` is the DynamoDB error code, as the AWS SDK
 * does (`ConditionalCheckFailedException`, `TransactionCanceledException` with `CancellationReasons`,
 * `ValidationException`, …); an item returned with a failed condition (`ReturnValuesOnConditionCheckFailure:
 * 'ALL_OLD'`) is on `err.Item` / `CancellationReasons[i].Item`, unmarshalled. Throttling, transaction
 * conflicts (`TransactionConflictException`, a `TransactionCanceledException` cancelled only by
 * `TransactionConflict`/`ThrottlingError`), 5xx and connection errors are retried by the ONE policy of
 * `retry.ts` (full-jitter exponential backoff, bounded attempts and time; aws-lite's own retries are off)
 * before they reject with the last error. TransactWriteItems carries a `ClientRequestToken`, the same on
 * every retry of one call, so a retried transaction is applied once.
 *
 * Implementation: the `@aws-lite/client` request signer (SigV4, credentials, retries, keep-alive) sending
 * the DynamoDB JSON 1.0 protocol, not the AWS SDK v3, because the SDK dominated a handler's cold start
 * (figures and alternatives: docs/decisions/aws-lite-dynamodb-client.md). Operator scripts, which need the
 * SDK's full credential chain (SSO, assumed roles), wrap an SDK client instead: `sdkDocumentClient` in
 * `sdk-client.ts` — same interface, same repository code.
 *
 * Region and endpoint are given by the caller (`createRepository` takes them from the Lambda configuration,
 * `lambdas/config.ts`); credentials, unless given, are read by aws-lite from the standard AWS variables
 * (`AWS_ACCESS_KEY_ID` / `AWS_SECRET_ACCESS_KEY` / `AWS_SESSION_TOKEN`, set by Lambda).
 */
import { randomUUID } from 'node:crypto';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { type AwsLiteClient, lazyAwsLite } from './aws-lite.js';
import { DEFAULT_RETRY_POLICY, withDynamoRetries } from './retry.js';

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
/** One request of a BatchWriteItem call: put an item or delete a key. */
export type BatchWriteRequest = { PutRequest: { Item: AttributeMap } } | { DeleteRequest: { Key: AttributeMap } };
/** BatchWriteItem: up to 25 requests over one or more tables, no conditions, not atomic (bulk loads). */
export interface BatchWriteItemInput extends CapacityOption {
  /** Table name → its requests (at most 25 in all). */
  RequestItems: Record<string, BatchWriteRequest[]>;
}
/** BatchGetItem: up to 100 keys over one or more tables, eventually consistent unless `ConsistentRead`. */
export interface BatchGetItemInput extends CapacityOption {
  RequestItems: Record<string, { Keys: AttributeMap[]; ConsistentRead?: boolean; ProjectionExpression?: string; ExpressionAttributeNames?: Record<string, string> }>;
}
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
  /** Requests DynamoDB did not apply (throttling) come back in `UnprocessedItems`: send them again. */
  BatchWriteItem: { input: BatchWriteItemInput; output: { UnprocessedItems?: Record<string, BatchWriteRequest[]>; ConsumedCapacity?: ConsumedCapacity[] } };
  /** Items come back in any order; keys DynamoDB did not read (throttling) come back in `UnprocessedKeys`. */
  BatchGetItem: { input: BatchGetItemInput; output: { Responses?: Record<string, AttributeMap[]>; UnprocessedKeys?: BatchGetItemInput['RequestItems']; ConsumedCapacity?: ConsumedCapacity[] } };
}
export type Operation = keyof Operations;

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

/** Options of `createDocumentClient`. */
export interface DocumentClientOptions {
  /** AWS region of the table, e.g. `eu-west-1`. */
  region: string;
  /** e.g. `http://127.0.0.1:8000` for the local engine; default: the regional endpoint (`dynamodbEndpoint`). */
  endpoint?: string | undefined;
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /**
   * Retries after the first attempt of the errors `retry.ts` retries (default: its policy's, 9); `0` sends
   * each request once (benchmarks measuring raw calls).
   */
  retries?: number;
}

type Marshallable = Parameters<typeof marshall>[0];
const toAttributes = (m: AttributeMap): unknown => marshall(m as Marshallable, { removeUndefinedValues: true });
const fromAttributes = (m: unknown): AttributeMap => unmarshall(m as Parameters<typeof unmarshall>[0]) as AttributeMap;

/** Parameters that hold attribute maps (marshalled to `{ S: … }` form). */
const ATTRIBUTE_MAPS = new Set(['Key', 'Item', 'ExpressionAttributeValues', 'ExclusiveStartKey']);

/** A copy of one request (or transaction action) without `undefined` parameters, its attribute maps marshalled. */
function marshalRequest(r: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(r)) {
    if (v !== undefined) out[k] = ATTRIBUTE_MAPS.has(k) && v !== null && typeof v === 'object' ? toAttributes(v as AttributeMap) : v;
  }
  return out;
}

/**
 * The DynamoDB JSON request body of `operation`: a copy of `input` (the caller's objects are never touched;
 * retry loops resend them) without `undefined` parameters, attribute maps marshalled, and a
 * `ClientRequestToken` on TransactWriteItems so a resend after a lost reply is a no-op for DynamoDB (as the
 * SDK does; DynamoDB API reference, TransactWriteItems "ClientRequestToken").
 */
export function requestBody(operation: Operation, input: object): Record<string, unknown> {
  const body = marshalRequest(input);
  if (operation === 'BatchWriteItem') body.RequestItems = mapBatchRequests(body.RequestItems as Record<string, BatchWriteRequest[]>, toAttributes);
  if (operation === 'BatchGetItem') body.RequestItems = mapBatchKeys(body.RequestItems as BatchGetItemInput['RequestItems'], toAttributes);
  if (operation === 'TransactWriteItems') {
    body.ClientRequestToken ??= randomUUID();
    body.TransactItems = (body.TransactItems as Record<string, object>[]).map((action) =>
      Object.fromEntries(Object.entries(action).map(([kind, r]) => [kind, marshalRequest(r)])),
    );
  }
  return body;
}

/** BatchWriteItem's `RequestItems`/`UnprocessedItems` with every `Item`/`Key` passed through `convert`. */
function mapBatchRequests(requests: Record<string, BatchWriteRequest[]>, convert: (m: AttributeMap) => unknown): Record<string, unknown[]> {
  return Object.fromEntries(
    Object.entries(requests).map(([tableName, rs]) => [
      tableName,
      rs.map((r) => ('PutRequest' in r ? { PutRequest: { Item: convert(r.PutRequest.Item) } } : { DeleteRequest: { Key: convert(r.DeleteRequest.Key) } })),
    ]),
  );
}

/** BatchGetItem's `RequestItems`/`UnprocessedKeys` with every key passed through `convert`. */
function mapBatchKeys(requests: BatchGetItemInput['RequestItems'], convert: (m: AttributeMap) => unknown): Record<string, unknown> {
  return Object.fromEntries(Object.entries(requests).map(([tableName, r]) => [tableName, { ...r, Keys: r.Keys.map(convert) }]));
}

/** The plain-value response of a DynamoDB JSON response body (see module doc). */
function responseOf(operation: Operation, payload: unknown): Record<string, unknown> {
  const out = { ...((payload ?? {}) as Record<string, unknown>) };
  if (out.Item) out.Item = fromAttributes(out.Item);
  if (out.Attributes) out.Attributes = fromAttributes(out.Attributes);
  if (out.LastEvaluatedKey) out.LastEvaluatedKey = fromAttributes(out.LastEvaluatedKey);
  if (operation === 'Query') out.Items = ((out.Items as unknown[] | undefined) ?? []).map(fromAttributes);
  if (operation === 'BatchGetItem') {
    const responses = (out.Responses ?? {}) as Record<string, unknown[]>;
    out.Responses = Object.fromEntries(Object.entries(responses).map(([t, items]) => [t, items.map(fromAttributes)]));
    if (out.UnprocessedKeys) out.UnprocessedKeys = mapBatchKeys(out.UnprocessedKeys as BatchGetItemInput['RequestItems'], fromAttributes);
  }
  if (operation === 'BatchWriteItem' && out.UnprocessedItems) out.UnprocessedItems = mapBatchRequests(out.UnprocessedItems as Record<string, BatchWriteRequest[]>, fromAttributes);
  return out;
}

/**
 * Brings a DynamoDB error to the SDK's shape, in place: `name` is the error code without the
 * `com.amazonaws.dynamodb.v20120810#` prefix, and the items it carries (`Item` of a failed condition,
 * `CancellationReasons[i].Item`) are unmarshalled — neither aws-lite nor lib-dynamodb does that. Returns `err`.
 */
export function normaliseError(err: unknown): unknown {
  if (!(err instanceof Error)) return err;
  const e = err as Error & { Item?: unknown; CancellationReasons?: { Item?: unknown }[]; __type?: unknown };
  const code = typeof e.__type === 'string' ? e.__type : e.name;
  if (code.includes('#')) e.name = code.slice(code.lastIndexOf('#') + 1);
  if (e.Item && typeof e.Item === 'object') e.Item = fromAttributes(e.Item);
  if (Array.isArray(e.CancellationReasons)) {
    e.CancellationReasons = e.CancellationReasons.map((r) => (r?.Item ? { ...r, Item: fromAttributes(r.Item) } : r));
  }
  return err;
}

/**
 * The regional DynamoDB endpoint, given explicitly so aws-lite does not check `region` against its own
 * (dated) region list; China regions end in `.amazonaws.com.cn` (AWS General Reference, "Service endpoints").
 */
export function dynamodbEndpoint(region: string): string {
  return `https://dynamodb.${region}.amazonaws.com${region.startsWith('cn-') ? '.cn' : ''}`;
}

/**
 * A document client over aws-lite (see module doc). The underlying client is created on the first call
 * (aws-lite's factory is async) and shared by later calls; a failed creation is retried on the next call.
 * @throws Error (on `send`) when `region` is empty.
 */
export function createDocumentClient(opts: DocumentClientOptions): DocumentClient {
  let connectAws: (() => Promise<AwsLiteClient>) | undefined;
  const connect = (): Promise<AwsLiteClient> => {
    const region = opts.region;
    if (!region) return Promise.reject(new Error('no AWS region given to createDocumentClient'));
    connectAws ??= lazyAwsLite({
      region,
      endpoint: opts.endpoint ?? dynamodbEndpoint(region),
      ...(opts.credentials ?? {}),
      // Retries are retry.ts's (one policy for throttling, conflicts, 5xx and connection errors), not aws-lite's.
      retries: 0,
      // Parse responses as plain JSON; this module unmarshals exactly the fields DynamoDB returns as items.
      responseContentType: 'application/json',
    });
    return connectAws();
  };
  const policy = { ...DEFAULT_RETRY_POLICY, ...(opts.retries !== undefined ? { maxAttempts: Math.max(0, opts.retries) + 1 } : {}) };
  return {
    async send(operation, input) {
      const aws = await connect();
      // Built once: every retry resends the same body, hence the same ClientRequestToken.
      const payload = JSON.stringify(requestBody(operation, input));
      const res = await withDynamoRetries(async () => {
        try {
          return await aws({
            service: 'dynamodb',
            headers: { 'X-Amz-Target': `DynamoDB_20120810.${operation}`, 'content-type': 'application/x-amz-json-1.0' },
            payload,
            awsjson: false,
          });
        } catch (e) {
          throw normaliseError(e);
        }
      }, { policy });
      return responseOf(operation, res.payload) as never;
    },
    destroy() {
      // aws-lite keeps one keep-alive agent per process; its idle sockets are unref'd by Node.
    },
  };
}

/**
 * Replaces `table.doc` with `wrap(table.doc)` (e.g. the benchmark's consumed-capacity recorder; the
 * repositories read `table.doc` on every call) and returns a function that restores the original.
 */
export function wrapTableClient(table: TableRef, wrap: (doc: DocumentClient) => DocumentClient): () => void {
  const original = table.doc;
  table.doc = wrap(original);
  return () => {
    table.doc = original;
  };
}
