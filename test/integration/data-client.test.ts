/**
 * The data layer's `DocumentClient` contract (`lambdas/data/table/client.ts`), on dynoxide: the handlers'
 * aws-lite client and the AWS SDK v3 adapter of the operator scripts must behave the same — plain values in
 * and out (cursors included), SDK error names, failed-condition items unmarshalled, inputs never modified.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ensureTable, startDynamo, type RunningDynamo } from '../../scripts/local/dynamodb.js';
import { createDocumentClient, type DocumentClient, type TransactWriteItemsInput } from '../../lambdas/data/table/client.js';
import { sdkDocumentClient } from '../../lambdas/data/table/sdk-client.js';

let dynamo: RunningDynamo;
const clients: Record<string, DocumentClient> = {};
const credentials = { accessKeyId: 'l', secretAccessKey: 'l' };

beforeAll(async () => {
  dynamo = await startDynamo({ port: 0 });
  clients['aws-lite'] = createDocumentClient({ endpoint: dynamo.endpoint, region: 'eu-west-1', credentials });
  clients['AWS SDK v3'] = sdkDocumentClient(new DynamoDBClient({ endpoint: dynamo.endpoint, region: 'eu-west-1', credentials }));
});
afterAll(async () => {
  for (const c of Object.values(clients)) c.destroy();
  await dynamo?.stop();
});

/** Returns an Error's `name` and selected fields, or fails the test when `p` resolves. */
async function rejection(p: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await p;
  } catch (e) {
    return e as Error & Record<string, unknown>;
  }
  throw new Error('expected a rejection');
}

describe.each(['aws-lite', 'AWS SDK v3'])('DocumentClient (%s)', (name) => {
  let doc: DocumentClient;
  const TableName = `vigia-client-${name === 'aws-lite' ? 'lite' : 'sdk'}`;
  beforeAll(async () => {
    doc = clients[name]!;
    await ensureTable(dynamo.endpoint, TableName);
  });

  it('writes and reads plain values; undefined fields are dropped, numbers stay numbers', async () => {
    await doc.send('PutItem', {
      TableName,
      Item: { PK: 'T#a', SK: 'I#1', n: 1.5, big: 12_345_678_901, flag: true, none: null, gone: undefined, nested: { list: [1, 'x', null], skip: undefined } },
    });
    const { Item } = await doc.send('GetItem', { TableName, Key: { PK: 'T#a', SK: 'I#1' }, ConsistentRead: true });
    expect(Item).toEqual({ PK: 'T#a', SK: 'I#1', n: 1.5, big: 12_345_678_901, flag: true, none: null, nested: { list: [1, 'x', null] } });
    expect((await doc.send('GetItem', { TableName, Key: { PK: 'T#a', SK: 'missing' } })).Item).toBeUndefined();
  });

  it('pages a Query with plain LastEvaluatedKey cursors that are accepted back', async () => {
    for (let i = 1; i <= 5; i++) await doc.send('PutItem', { TableName, Item: { PK: 'T#page', SK: `I#${i}`, i } });
    const seen: number[] = [];
    let start: Record<string, unknown> | undefined;
    let calls = 0;
    do {
      const res = await doc.send('Query', { TableName, KeyConditionExpression: 'PK = :p', ExpressionAttributeValues: { ':p': 'T#page' }, Limit: 2, ExclusiveStartKey: start });
      seen.push(...res.Items.map((it) => it.i as number));
      if (res.LastEvaluatedKey) expect(res.LastEvaluatedKey).toEqual({ PK: 'T#page', SK: `I#${seen.at(-1)}` });
      start = res.LastEvaluatedKey;
      calls++;
    } while (start);
    expect(seen).toEqual([1, 2, 3, 4, 5]);
    expect(calls).toBe(3);
    const empty = await doc.send('Query', { TableName, KeyConditionExpression: 'PK = :p', ExpressionAttributeValues: { ':p': 'T#none' } });
    expect(empty).toMatchObject({ Items: [], Count: 0 });
  });

  it('names a failed condition like the SDK and returns the existing item unmarshalled (ALL_OLD)', async () => {
    const e = await rejection(
      doc.send('PutItem', { TableName, Item: { PK: 'T#a', SK: 'I#1' }, ConditionExpression: 'attribute_not_exists(PK)', ReturnValuesOnConditionCheckFailure: 'ALL_OLD' }),
    );
    expect(e.name).toBe('ConditionalCheckFailedException');
    expect(e.Item).toMatchObject({ PK: 'T#a', SK: 'I#1', n: 1.5 });
  });

  it('updates and deletes with ReturnValues, reporting consumed capacity when asked', async () => {
    const up = await doc.send('UpdateItem', {
      TableName,
      Key: { PK: 'T#a', SK: 'I#1' },
      UpdateExpression: 'SET n = n + :one',
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'ALL_NEW',
      ReturnConsumedCapacity: 'TOTAL',
    });
    expect(up.Attributes).toMatchObject({ n: 2.5 });
    expect(up.ConsumedCapacity?.CapacityUnits).toBeGreaterThan(0);
    const del = await doc.send('DeleteItem', { TableName, Key: { PK: 'T#a', SK: 'I#1' }, ReturnValues: 'ALL_OLD' });
    expect(del.Attributes).toMatchObject({ n: 2.5 });
  });

  it('cancels a transaction with per-action reasons and leaves the input untouched for a retry', async () => {
    await doc.send('PutItem', { TableName, Item: { PK: 'T#tx', SK: 'COUNTER', seq: 1 } });
    const input: TransactWriteItemsInput = {
      TransactItems: [
        { Put: { TableName, Item: { PK: 'T#tx', SK: 'I#2', title: 'dos' }, ConditionExpression: 'attribute_not_exists(PK)' } },
        { Update: { TableName, Key: { PK: 'T#tx', SK: 'COUNTER' }, UpdateExpression: 'SET seq = :next', ConditionExpression: 'seq = :prev', ExpressionAttributeValues: { ':prev': 2, ':next': 3 } } },
      ],
    };
    const snapshot = structuredClone(input);
    const e = await rejection(doc.send('TransactWriteItems', input));
    expect(e.name).toBe('TransactionCanceledException');
    expect((e.CancellationReasons as { Code?: string }[]).map((r) => r.Code)).toEqual(['None', 'ConditionalCheckFailed']);
    expect(input).toEqual(snapshot);
    // Same objects, condition now true: the retry must send the same plain values again.
    await doc.send('UpdateItem', { TableName, Key: { PK: 'T#tx', SK: 'COUNTER' }, UpdateExpression: 'SET seq = :s', ExpressionAttributeValues: { ':s': 2 } });
    await doc.send('TransactWriteItems', input);
    expect((await doc.send('GetItem', { TableName, Key: { PK: 'T#tx', SK: 'COUNTER' } })).Item).toMatchObject({ seq: 3 });
    expect((await doc.send('GetItem', { TableName, Key: { PK: 'T#tx', SK: 'I#2' } })).Item).toMatchObject({ title: 'dos' });
  });

  it('rejects an invalid request with the engine\'s error name', async () => {
    const e = await rejection(doc.send('Query', { TableName, KeyConditionExpression: 'PK = :missing' }));
    expect(e.name).toBe('ValidationException');
  });
});
