/**
 * `runIdempotent` on the DocumentClient persistence layer (`lambdas/data/idempotency-store.ts`), on
 * dynoxide: the record lifecycle Powertools' own DynamoDB layer implements — first call runs and stores,
 * a retry replays, a call during another's run is refused, an in-progress record whose Lambda ran out of
 * time is taken over, a failed run leaves no record — and the request body of TransactWriteItems.
 */
import type { Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTable, startDynamo, type RunningDynamo } from '../../scripts/local/dynamodb.js';
import { createDocumentClient, dynamodbEndpoint, requestBody, type TableRef, type TransactWriteItemsInput } from '../../lambdas/data/table/client.js';
import { runIdempotent } from '../../lambdas/data/idempotency.js';
import { keys } from '../../lambdas/data/table/keys.js';
import { ApiError } from '../../lambdas/domain/errors.js';

let dynamo: RunningDynamo;
let table: TableRef;

beforeAll(async () => {
  dynamo = await startDynamo({ port: 0 });
  await ensureTable(dynamo.endpoint, 'vigia-idem-main');
  table = { doc: createDocumentClient({ endpoint: dynamo.endpoint, region: 'eu-west-1', credentials: { accessKeyId: 'l', secretAccessKey: 'l' } }), tableName: 'vigia-idem-main' };
});
afterAll(async () => {
  await dynamo?.stop();
});

/** A Lambda context with `ms` of remaining time (the in-progress record expires with it). */
const lambdaContext = (ms: number) => ({ getRemainingTimeInMillis: () => ms, awsRequestId: 'r', functionName: 'f' }) as unknown as Context;

/** The idempotency records of a tenant (the test reads the table directly). */
async function records(tenantId: string) {
  const res = await table.doc.send('Query', { TableName: table.tableName, KeyConditionExpression: 'PK = :p', ExpressionAttributeValues: { ':p': keys.idempotencyPk(tenantId) }, ConsistentRead: true });
  return res.Items;
}

describe('runIdempotent on the DocumentClient persistence layer', () => {
  it('runs once, replays the stored result, and refuses the same key with another payload', async () => {
    let runs = 0;
    const req = { operation: 'createIncident', tenantId: 'acme', key: 'k-1', payload: { title: 'a' }, lambdaContext: lambdaContext(5_000) };
    const first = await runIdempotent(req, async () => ({ id: `INC-${++runs}` }), table);
    const again = await runIdempotent(req, async () => ({ id: `INC-${++runs}` }), table);
    expect([first, again, runs]).toEqual([{ id: 'INC-1' }, { id: 'INC-1' }, 1]);
    const [rec] = await records('acme');
    expect(rec).toMatchObject({ status: 'COMPLETED', data: { id: 'INC-1' } });
    expect(rec!.expiresAt).toBeGreaterThan(Date.now() / 1000 + 23 * 3600);
    await expect(runIdempotent({ ...req, payload: { title: 'b' } }, async () => ({ id: 'x' }), table)).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
  });

  it('refuses a call while another runs, and takes over once that run has outlived its Lambda', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const req = { operation: 'createIncident', tenantId: 'globex', key: 'k-2', payload: { title: 'a' }, lambdaContext: lambdaContext(60_000) };
    const slow = runIdempotent(req, async () => (await gate, { id: 'slow' }), table);
    await expect.poll(async () => (await records('globex')).map((r) => r.status)).toEqual(['INPROGRESS']);
    const busy = await runIdempotent(req, async () => ({ id: 'second' }), table).catch((e: unknown) => e);
    expect(busy).toBeInstanceOf(ApiError);
    expect((busy as ApiError).code).toBe('IDEMPOTENCY_IN_PROGRESS');

    // The first invocation's Lambda "timed out": its in-progress expiry (ms since epoch) is in the past.
    const [rec] = await records('globex');
    expect(rec!.in_progress_expiration).toBeGreaterThan(Date.now());
    await table.doc.send('UpdateItem', { TableName: table.tableName, Key: { PK: rec!.PK, SK: rec!.SK }, UpdateExpression: 'SET in_progress_expiration = :past', ExpressionAttributeValues: { ':past': Date.now() - 1 } });
    expect(await runIdempotent(req, async () => ({ id: 'takeover' }), table)).toEqual({ id: 'takeover' });
    release();
    await slow.catch(() => undefined);
  });

  it('deletes the record when the run fails, so the client may retry with the same key', async () => {
    const req = { operation: 'createIncident', tenantId: 'initech', key: 'k-3', payload: {}, lambdaContext: lambdaContext(5_000) };
    await expect(runIdempotent(req, async () => Promise.reject(new Error('boom')), table)).rejects.toThrow('boom');
    expect(await records('initech')).toEqual([]);
    expect(await runIdempotent(req, async () => ({ ok: true }), table)).toEqual({ ok: true });
  });
});

describe('DynamoDB request body', () => {
  it('gives each TransactWriteItems call a ClientRequestToken, keeps a given one, and never touches the input', () => {
    const input: TransactWriteItemsInput = { TransactItems: [{ Put: { TableName: 't', Item: { PK: 'a', SK: 'b', n: 1, gone: undefined } } }] };
    const snapshot = structuredClone(input);
    const a = requestBody('TransactWriteItems', input);
    const b = requestBody('TransactWriteItems', input);
    expect(a.ClientRequestToken).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.ClientRequestToken).not.toBe(a.ClientRequestToken);
    expect(a.TransactItems).toEqual([{ Put: { TableName: 't', Item: { PK: { S: 'a' }, SK: { S: 'b' }, n: { N: '1' } } } }]);
    expect(requestBody('TransactWriteItems', { ...input, ClientRequestToken: 'mine' }).ClientRequestToken).toBe('mine');
    expect(requestBody('PutItem', { TableName: 't', Item: { PK: 'a' } })).not.toHaveProperty('ClientRequestToken');
    expect(input).toEqual(snapshot);
  });

  it('applies a transaction resent with the same token once (what a retry after a lost reply does)', async () => {
    await table.doc.send('PutItem', { TableName: table.tableName, Item: { PK: 'T#tok', SK: 'COUNTER', n: 0 } });
    const input: TransactWriteItemsInput = {
      ClientRequestToken: 'retry-1',
      TransactItems: [{ Update: { TableName: table.tableName, Key: { PK: 'T#tok', SK: 'COUNTER' }, UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': 1 } } }],
    };
    await table.doc.send('TransactWriteItems', input);
    await table.doc.send('TransactWriteItems', input);
    expect((await table.doc.send('GetItem', { TableName: table.tableName, Key: { PK: 'T#tok', SK: 'COUNTER' }, ConsistentRead: true })).Item).toMatchObject({ n: 1 });
  });

  it('addresses every region by its endpoint (aws-lite only knows a dated region list)', () => {
    expect(dynamodbEndpoint('mx-central-1')).toBe('https://dynamodb.mx-central-1.amazonaws.com');
    expect(dynamodbEndpoint('cn-northwest-1')).toBe('https://dynamodb.cn-northwest-1.amazonaws.com.cn');
  });
});
