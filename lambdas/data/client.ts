/**
 * The shared DynamoDB document client and table name of a Lambda container.
 *
 * Region, credentials and endpoint come from the standard AWS SDK environment (`AWS_REGION`,
 * `AWS_ACCESS_KEY_ID`…, and `AWS_ENDPOINT_URL_DYNAMODB` — the SDK's service-specific endpoint variable,
 * which the local stack points at dynoxide). The table name comes from `TABLE_NAME`.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** Where a repository reads and writes: a document client and the physical table name. */
export interface TableRef {
  doc: DynamoDBDocumentClient;
  tableName: string;
}

/** A document client with the marshalling options this code relies on (undefined fields dropped). */
export function createDocumentClient(client: DynamoDBClient = new DynamoDBClient({})): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true },
  });
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

/** Forgets the shared reference (tests that change the environment between suites). */
export function resetDefaultTable(): void {
  shared?.doc.destroy();
  shared = undefined;
}
