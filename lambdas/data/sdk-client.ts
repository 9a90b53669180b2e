/**
 * The data layer's `DocumentClient` over the AWS SDK v3 (`@aws-sdk/lib-dynamodb`), for operator scripts
 * (`scripts/platform/*`) that run on engineers' machines and CI with the SDK's full credential chain
 * (SSO, assumed roles, profiles). The Lambda handlers use the lighter aws-lite client of `client.ts`
 * (cold start); never import this module from a handler — `test/infra/lambda-bundles.test.ts` fails if a
 * handler bundle contains the SDK's DynamoDB client.
 *
 * Same operations, inputs, outputs and error names as `client.ts` (the SDK's error classes carry the
 * DynamoDB error code in `name`; `Item`s of failed conditions are unmarshalled here, as lib-dynamodb
 * leaves them in attribute-value form). `test/integration/data-client.test.ts` runs one contract on both.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { normaliseError, type DocumentClient, type Operation } from './client.js';

const COMMANDS: Record<Operation, new (input: never) => unknown> = {
  GetItem: GetCommand,
  PutItem: PutCommand,
  UpdateItem: UpdateCommand,
  DeleteItem: DeleteCommand,
  Query: QueryCommand,
  TransactWriteItems: TransactWriteCommand,
  BatchWriteItem: BatchWriteCommand,
  BatchGetItem: BatchGetCommand,
};

/** Wraps `client` (its region, endpoint and credentials) as a `DocumentClient`; `destroy()` destroys it. */
export function sdkDocumentClient(client: DynamoDBClient): DocumentClient {
  const doc = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
  return {
    async send(operation, input) {
      const Command = COMMANDS[operation];
      let out: Record<string, unknown>;
      try {
        out = (await doc.send(new Command(input as never) as never)) as Record<string, unknown>;
      } catch (e) {
        throw normaliseError(e);
      }
      delete out.$metadata;
      if (operation === 'Query') out.Items ??= [];
      return out as never;
    },
    destroy() {
      doc.destroy();
    },
  };
}
