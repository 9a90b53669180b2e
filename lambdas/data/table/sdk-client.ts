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
 * Transaction conflicts and throttling are retried with the policy of `retry.ts` (on top of the SDK's own
 * retries), a TransactWriteItems keeping one `ClientRequestToken` across them.
 */
import { randomUUID } from 'node:crypto';
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
import { withDynamoRetries } from './retry.js';

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
      // lib-dynamodb marshals the input again on each send: give a transaction its token once, so every
      // retry carries the same one.
      const request = operation === 'TransactWriteItems' ? { ...(input as object), ClientRequestToken: (input as { ClientRequestToken?: string }).ClientRequestToken ?? randomUUID() } : input;
      // The SDK's own retry strategy retries throttling and 5xx; retry.ts adds transaction conflicts (and
      // throttling that outlasts the SDK's attempts) with the same policy as the handlers' client.
      const out = await withDynamoRetries(async () => {
        try {
          return (await doc.send(new Command(request as never) as never)) as Record<string, unknown>;
        } catch (e) {
          throw normaliseError(e);
        }
      });
      delete out.$metadata;
      if (operation === 'Query') out.Items ??= [];
      return out as never;
    },
    destroy() {
      doc.destroy();
    },
  };
}
