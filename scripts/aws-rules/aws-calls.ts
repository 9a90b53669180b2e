/**
 * What IAM sees of one AWS request: the action(s), the resource ARN(s) and the condition keys, from the request
 * as the Lambda code sends it (the service, its `X-Amz-Target` or REST path, and the body).
 *
 * Rules, per service (AWS Service Authorization Reference, "Actions, resources, and condition keys for …"):
 *  - DynamoDB: the action is the operation (`dynamodb:Query`…) on the table ARN, or on
 *    `<table ARN>/index/<IndexName>` for a Query or Scan of an index. `TransactWriteItems` has no action of its
 *    own: each element is authorised as `PutItem`, `UpdateItem`, `DeleteItem` or `ConditionCheckItem` on its
 *    table (DynamoDB developer guide, "Using IAM with DynamoDB transactions"); `TransactGetItems` likewise as
 *    `GetItem`. `BatchWriteItem` / `BatchGetItem` are one action per table. Condition keys: `dynamodb:LeadingKeys`
 *    (see {@link leadingKeysOf}), `dynamodb:ReturnValues`, `dynamodb:ReturnConsumedCapacity` and `dynamodb:Select`
 *    when the request sets them (DynamoDB developer guide, "Using IAM policy conditions for fine-grained access
 *    control", https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/specifying-conditions.html).
 *  - Cognito user pools: `cognito-idp:<Operation>` on the user pool's ARN.
 *  - DynamoDB Streams and SQS: what Lambda calls with a stream consumer's role (its event source mapping reads the
 *    stream; its on-failure destination is a queue): `dynamodb:<Operation>` on the stream ARN (`ListStreams` on
 *    "*"), `sqs:<Operation>` on the queue ARN (Lambda developer guide, "Process DynamoDB records with Lambda":
 *    execution role permissions).
 *  - Secrets Manager: `secretsmanager:<Operation>` on the secret's ARN (the name followed by `-` and six
 *    characters), `secretsmanager:Name` for CreateSecret.
 *  - SES v2 `SendEmail` (`POST /v2/email/outbound-emails`): `ses:SendEmail` on the identity of the sender's
 *    address and of its domain (SES developer guide, "Controlling access to Amazon SES": the request must be
 *    allowed on the identity that sends), with the configuration set when one is named.
 */
import type { AwsCallMessage } from '../../lambdas/data/table/aws-lite.js';
import { GSIS, TABLE_DESIGN } from '../../lambdas/data/table/table-design.js';
import type { IamRequest } from './iam.js';

/** Where the names of the local stack's resources point in the evaluated stage (ARNs of the synthesized stage). */
export interface StageResourceMap {
  account: string;
  region: string;
  /** The stage's table ARN for a table name the code used (the local `vigia-local-main` → the stage's). */
  tableArn(name: string): string;
  /** The stage's user pool ARN (a stage has one pool). */
  userPoolArn: string;
  /** The stage table's stream ARN (a table has one stream). */
  tableStreamArn: string;
  /** A queue name the code used → the stage's queue ARN (`vigia-local-…` → `vigia-<stage>-…`). */
  queueArn(name: string): string;
  /** A secret name the code used → the name in the stage (`vigia/local/…` → `vigia/<stage>/…`). */
  secretName(name: string): string;
  /** A bucket name the code used (the local or a test attachments bucket) → the stage's bucket name. */
  bucketName(name: string): string;
}

/** One recorded call, reduced to its operation and the IAM requests it makes. */
export interface DescribedCall {
  service: string;
  operation: string;
  /** Every request must be allowed, except that of requests sharing an `anyOf` group one is enough. */
  requests: Array<IamRequest & { anyOf?: string }>;
}

type Json = Record<string, unknown>;

function parse(payload: unknown): Json {
  if (typeof payload === 'string') {
    try {
      return JSON.parse(payload) as Json;
    } catch {
      return {};
    }
  }
  return payload && typeof payload === 'object' ? (payload as Json) : {};
}

/** A DynamoDB JSON attribute value's string form (`{ "S": "x" }` → `x`), or undefined. */
function scalar(v: unknown): string | undefined {
  if (!v || typeof v !== 'object') return typeof v === 'string' ? v : undefined;
  const o = v as Json;
  if (typeof o.S === 'string') return o.S;
  if (typeof o.N === 'string') return o.N;
  return undefined;
}

/**
 * The partition key attribute of what a Query or Scan reads: the table's (`PK`), or, with `IndexName`, that
 * index's (`GSI2PK` for `GSI2`…), from `TABLE_DESIGN` (lambdas/data/table/table-design.ts).
 * @throws Error for an index the table does not have (its Query's leading key could not be told: never left
 *   unevaluated).
 */
export function partitionKeyOf(indexName: unknown): string {
  if (indexName === undefined || indexName === null || indexName === '') return TABLE_DESIGN.partitionKey;
  const gsi = GSIS.find((g) => g.indexName === indexName);
  if (!gsi) throw new Error(`aws-rules: the table has no index ${String(indexName)} (lambdas/data/table/table-design.ts), so the dynamodb:LeadingKeys of its Query is unknown`);
  return gsi.partitionKey;
}

/**
 * The partition key value a Query names: the equality on `partitionKey` in its KeyConditionExpression
 * (`GSI2PK = :q AND GSI2SK BETWEEN …`, attribute names resolved), or in the legacy `KeyConditions`
 * (`{ GSI2PK: { ComparisonOperator: 'EQ', AttributeValueList: [v] } }`); undefined when it names none (a
 * request DynamoDB refuses anyway).
 */
function queryPartition(input: Json, partitionKey: string): string | undefined {
  const expr = String(input.KeyConditionExpression ?? '');
  const names = (input.ExpressionAttributeNames ?? {}) as Record<string, string>;
  const values = (input.ExpressionAttributeValues ?? {}) as Json;
  for (const m of expr.matchAll(/(#?[A-Za-z0-9_]+)\s*=\s*(:[A-Za-z0-9_]+)/g)) {
    const name = m[1]!.startsWith('#') ? names[m[1]!] : m[1];
    if (name === partitionKey) return scalar(values[m[2]!]);
  }
  const legacy = ((input.KeyConditions ?? {}) as Record<string, { ComparisonOperator?: string; AttributeValueList?: unknown[] }>)[partitionKey];
  if (legacy?.ComparisonOperator === 'EQ') return scalar(legacy.AttributeValueList?.[0]);
  return undefined;
}

/**
 * The `dynamodb:LeadingKeys` values of one DynamoDB request, as DynamoDB sets them for IAM.
 *
 * AWS's rule: `dynamodb:LeadingKeys` "Represents the first key attribute of a table—in other words, the
 * partition key. The key name LeadingKeys is plural, even if the key is used with single-item actions. In
 * addition, you must use the ForAllValues modifier when using LeadingKeys in a condition." (DynamoDB developer
 * guide, "Using IAM policy conditions for fine-grained access control",
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/specifying-conditions.html). The Service
 * Authorization Reference lists the key for `Query` on both its resource types, `table` and `index`, and for
 * the item actions (`GetItem`, `PutItem`, `UpdateItem`, `DeleteItem`, `ConditionCheckItem`, `BatchGetItem`,
 * `BatchWriteItem`), but not for `Scan`
 * (https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazondynamodb.html); the developer
 * guide's example 1 leaves `Scan` out of a LeadingKeys-fenced role "because Scan returns all items regardless
 * of the leading keys", and its example 5 fences a table and its index (`…/index/TopScoreDateTimeIndex`) with
 * one LeadingKeys condition. So:
 *  - item actions: the partition key (`PK`) of each item the request names (one per key of a batch);
 *  - `Query`: the partition key value it names — on the table its `PK` equality; on an index (`IndexName`)
 *    the equality on THAT index's partition key (`GSI2PK = SOCQUEUE` is the leading key `SOCQUEUE`), a Query
 *    on an index having to name "the index partition key name and value as an EQ condition"
 *    (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/LegacyConditionalParameters.KeyConditions.html);
 *  - `Scan`: none. IAM's `ForAllValues` is true when the request has no value for the key, so a
 *    LeadingKeys-fenced statement that allowed `Scan` would allow every item: no role here grants `Scan`.
 * The pages do not say in so many words that an index Query's key is the index's partition key value; it is the
 * reading that gives the condition a meaning on an index resource, and for this project's Allow statements
 * (`ForAllValues:StringLike`) it can only make the check stricter than AWS. Before, the check set no leading
 * key for a Query on an index, so a role fenced to `TENANT#*` passed a Query of the cross-tenant `SOCQUEUE`
 * partition of GSI2 that AWS denies (docs/local-emulation.md#iam).
 * @param operation the DynamoDB operation (`Query`, `GetItem`…; a transaction's element as its action's name,
 *   `PutItem`, `ConditionCheckItem`…).
 * @param input the request (or transaction element) body as sent, in DynamoDB JSON; for a batch, its
 *   `RequestItems` (all tables' keys together: `dynamodbRequests` passes one table's at a time).
 * @returns the distinct partition key values (strings), empty when the request names none.
 * @throws Error for a Query or Scan of an index the table does not have ({@link partitionKeyOf}).
 */
export function leadingKeysOf(operation: string, input: Record<string, unknown>): string[] {
  const pkOf = (key: unknown) => scalar((key as Json | undefined)?.PK);
  const present = (keys: Array<string | undefined>) => [...new Set(keys.filter((k): k is string => k !== undefined))];
  switch (operation) {
    case 'GetItem':
    case 'DeleteItem':
    case 'UpdateItem':
    case 'ConditionCheckItem':
      return present([pkOf(input.Key)]);
    case 'PutItem':
      return present([pkOf(input.Item)]);
    case 'Query':
      return present([queryPartition(input, partitionKeyOf(input.IndexName))]);
    case 'Scan':
      partitionKeyOf(input.IndexName);
      return [];
    case 'BatchWriteItem':
      return present(Object.values((input.RequestItems ?? {}) as Record<string, Json[]>).flat().map((r) => pkOf((r.PutRequest as Json | undefined)?.Item ?? (r.DeleteRequest as Json | undefined)?.Key)));
    case 'BatchGetItem':
      return present(Object.values((input.RequestItems ?? {}) as Record<string, { Keys?: Json[] }>).flatMap((r) => (r.Keys ?? []).map(pkOf)));
    default:
      return [];
  }
}

function dynamoContext(input: Json, leadingKeys: string[]): Record<string, string | string[]> {
  const ctx: Record<string, string | string[]> = {};
  if (leadingKeys.length > 0) ctx['dynamodb:LeadingKeys'] = leadingKeys;
  for (const k of ['ReturnValues', 'ReturnConsumedCapacity', 'Select'] as const) {
    if (typeof input[k] === 'string') ctx[`dynamodb:${k}`] = input[k] as string;
  }
  return ctx;
}

function dynamodbRequests(operation: string, input: Json, map: StageResourceMap): IamRequest[] {
  const table = (name: unknown) => map.tableArn(String(name));
  switch (operation) {
    case 'GetItem':
    case 'DeleteItem':
    case 'UpdateItem':
    case 'PutItem':
      return [{ action: `dynamodb:${operation}`, resource: table(input.TableName), context: dynamoContext(input, leadingKeysOf(operation, input)) }];
    case 'Query':
    case 'Scan': {
      const base = table(input.TableName);
      const resource = input.IndexName ? `${base}/index/${String(input.IndexName)}` : base;
      return [{ action: `dynamodb:${operation}`, resource, context: dynamoContext(input, leadingKeysOf(operation, input)) }];
    }
    case 'TransactWriteItems':
    case 'TransactGetItems':
      return ((input.TransactItems as Json[] | undefined) ?? []).map((item) => {
        const [kind, body] = Object.entries(item)[0] as [string, Json];
        const action = { Put: 'PutItem', Update: 'UpdateItem', Delete: 'DeleteItem', ConditionCheck: 'ConditionCheckItem', Get: 'GetItem' }[kind] ?? kind;
        return { action: `dynamodb:${action}`, resource: table(body.TableName), context: dynamoContext({}, leadingKeysOf(action, body)) };
      });
    case 'BatchWriteItem':
    case 'BatchGetItem':
      // One request per table, with the leading keys of that table's items.
      return Object.entries((input.RequestItems ?? {}) as Record<string, unknown>).map(([name, items]) => ({
        action: `dynamodb:${operation}`,
        resource: table(name),
        context: dynamoContext(input, leadingKeysOf(operation, { RequestItems: { [name]: items } })),
      }));
    default:
      return [{ action: `dynamodb:${operation}`, resource: input.TableName ? table(input.TableName) : '*' }];
  }
}

/**
 * The operation and IAM requests of one published call (see module doc).
 * @throws Error for a service this module does not know (a new AWS client in the Lambda code must be added here).
 */
export function describeCall(message: AwsCallMessage, map: StageResourceMap): DescribedCall {
  const input = parse(message.payload);
  const operation = message.target ? message.target.slice(message.target.indexOf('.') + 1) : `${message.method ?? 'GET'} ${message.path ?? '/'}`;
  switch (message.service) {
    case 'dynamodb':
      return { service: 'dynamodb', operation, requests: dynamodbRequests(operation, input, map) };
    case 'dynamodbstreams':
      // DynamoDB Streams (`DynamoDBStreams_20120810.<Op>`): actions in the dynamodb namespace, on the stream ARN;
      // ListStreams names no resource ("*"). Lambda's event source mapping calls them with the function's role.
      return { service: 'dynamodbstreams', operation, requests: [{ action: `dynamodb:${operation}`, resource: operation === 'ListStreams' ? '*' : map.tableStreamArn }] };
    case 'sqs': {
      // SQS (`AmazonSQS.<Op>`, AWS JSON 1.0): the queue's ARN from its URL's last segment.
      const url = String(input.QueueUrl ?? '');
      return { service: 'sqs', operation, requests: [{ action: `sqs:${operation}`, resource: map.queueArn(url.slice(url.lastIndexOf('/') + 1)) }] };
    }
    case 'cognito-idp':
      return { service: 'cognito-idp', operation, requests: [{ action: `cognito-idp:${operation}`, resource: map.userPoolArn }] };
    case 'secretsmanager': {
      const name = map.secretName(String(input.SecretId ?? input.Name ?? ''));
      const resource = name.startsWith('arn:') ? name : `arn:aws:secretsmanager:${map.region}:${map.account}:secret:${name}-AbCdEf`;
      return { service: 'secretsmanager', operation, requests: [{ action: `secretsmanager:${operation}`, resource, ...(operation === 'CreateSecret' ? { context: { 'secretsmanager:Name': name } } : {}) }] };
    }
    case 'email': {
      if (message.method === 'POST' && message.path === '/v2/email/outbound-emails') {
        const from = String(input.FromEmailAddress ?? '');
        const address = /<([^>]+)>/.exec(from)?.[1] ?? from;
        const domain = address.split('@')[1] ?? address;
        const identity = (id: string) => `arn:aws:ses:${map.region}:${map.account}:identity/${id}`;
        const requests: DescribedCall['requests'] = [
          { action: 'ses:SendEmail', resource: identity(address), anyOf: 'identity' },
          { action: 'ses:SendEmail', resource: identity(domain), anyOf: 'identity' },
        ];
        if (typeof input.ConfigurationSetName === 'string') requests.push({ action: 'ses:SendEmail', resource: `arn:aws:ses:${map.region}:${map.account}:configuration-set/${input.ConfigurationSetName}` });
        // SES authorises a send on the identity it sends as: the address when verified, else its domain (either one).
        return { service: 'ses', operation: 'SendEmail', requests };
      }
      return { service: 'ses', operation, requests: [{ action: `ses:${operation}`, resource: '*' }] };
    }
    case 's3': {
      // S3 REST (attachments' HeadObject, lambdas/data/attachment-store.ts): `HEAD|GET /<bucket>/<key>` path-style
      // offline; HeadObject and GetObject are authorized by s3:GetObject on the object
      // (https://docs.aws.amazon.com/AmazonS3/latest/API/API_HeadObject.html, "Permissions").
      const [, bucket = '', ...key] = (message.path ?? '/').split('?')[0]!.split('/');
      const action = message.method === 'PUT' ? 's3:PutObject' : message.method === 'DELETE' ? 's3:DeleteObject' : 's3:GetObject';
      const operation = message.method === 'HEAD' ? 'HeadObject' : action.slice(3);
      return { service: 's3', operation, requests: [{ action, resource: `arn:aws:s3:::${map.bucketName(bucket)}/${key.map(decodeURIComponent).join('/')}` }] };
    }
    default:
      throw new Error(`aws-rules: no IAM mapping for service ${message.service} (${operation}); add it to scripts/aws-rules/aws-calls.ts`);
  }
}
