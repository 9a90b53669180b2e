/**
 * `batchGetAll` / `batchWriteAll` (lambdas/data/dynamo-util.ts): the one BatchGetItem / BatchWriteItem of any
 * number of keys or requests — chunked to DynamoDB's limits (100 keys, 25 requests), unprocessed keys and
 * requests sent again (AWS: retry them with exponential backoff; the rules proxy returns them for a throttled
 * partition, test/conformance/dynamodb-rules.test.ts), and a clear failure instead of a silent partial read.
 * The client is scripted here so every branch is exercised deterministically.
 */
import { describe, expect, it } from 'vitest';
import type { TableRef } from '../../lambdas/data/client.js';
import { BATCH_ATTEMPTS, batchGetAll, batchWriteAll } from '../../lambdas/data/dynamo-util.js';

// The scripted answers read the request loosely (its shape is what the helpers build).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;
type Call = { op: string; input: Loose };

/** A table whose client answers each call with `answer(call, n)` and records the calls. */
function scripted(answer: (c: Call, n: number) => unknown): { table: TableRef; calls: Call[] } {
  const calls: Call[] = [];
  const doc = { send: async (op: string, input: Loose) => { const c = { op, input }; calls.push(c); return answer(c, calls.length); }, destroy() {} };
  return { table: { doc: doc as unknown as TableRef['doc'], tableName: 't' }, calls };
}
const key = (i: number) => ({ PK: `P#${i}`, SK: 'S' });

describe('batchGetAll', () => {
  it('reads any number of keys in calls of at most 100, passing projection and consistency', async () => {
    const { table, calls } = scripted((c) => ({ Responses: { t: c.input.RequestItems.t.Keys.map((k: object) => ({ ...k, v: 1 })) } }));
    const items = await batchGetAll(table, Array.from({ length: 250 }, (_, i) => key(i)), { projection: 'PK, #d', names: { '#d': 'devices' }, consistent: true });
    expect(items).toHaveLength(250);
    expect(calls.map((c) => c.input.RequestItems.t.Keys.length).sort((a, b) => a - b)).toEqual([50, 100, 100]);
    expect(calls[0]!.input.RequestItems.t).toMatchObject({ ProjectionExpression: 'PK, #d', ExpressionAttributeNames: { '#d': 'devices' }, ConsistentRead: true });
  });

  it('asks again for the keys a call left unprocessed, and returns every item once', async () => {
    const { table, calls } = scripted((c, n) => {
      const ks = c.input.RequestItems.t.Keys as { PK: string }[];
      // The first call serves half and leaves the rest unprocessed (a throttled partition).
      return n === 1 ? { Responses: { t: ks.slice(0, 5) }, UnprocessedKeys: { t: { Keys: ks.slice(5) } } } : { Responses: { t: ks } };
    });
    const items = await batchGetAll(table, Array.from({ length: 10 }, (_, i) => key(i)));
    expect(items.map((i) => i.PK).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `P#${i}`).sort());
    expect(calls.map((c) => c.input.RequestItems.t.Keys.length)).toEqual([10, 5]);
  });

  it(`fails after ${BATCH_ATTEMPTS} calls with keys still unprocessed (never a silent partial read)`, async () => {
    const { table, calls } = scripted((c) => ({ Responses: { t: [] }, UnprocessedKeys: { t: { Keys: c.input.RequestItems.t.Keys } } }));
    await expect(batchGetAll(table, [key(1), key(2)])).rejects.toThrow(`BatchGetItem: 2 keys still unprocessed after ${BATCH_ATTEMPTS} calls`);
    expect(calls).toHaveLength(BATCH_ATTEMPTS);
  }, 30_000);

  it('sends nothing for no keys', async () => {
    const { table, calls } = scripted(() => ({}));
    expect(await batchGetAll(table, [])).toEqual([]);
    expect(calls).toHaveLength(0);
  });
});

describe('batchWriteAll', () => {
  it('writes in calls of at most 25 and sends unprocessed requests again until all are written', async () => {
    const written: string[] = [];
    const { table, calls } = scripted((c, n) => {
      const rs = c.input.RequestItems.t as { PutRequest: { Item: { PK: string } } }[];
      const done = n === 2 ? rs.slice(0, 3) : rs; // the second call leaves all but 3 unprocessed
      written.push(...done.map((r) => r.PutRequest.Item.PK));
      return n === 2 ? { UnprocessedItems: { t: rs.slice(3) } } : {};
    });
    const requests = Array.from({ length: 60 }, (_, i) => ({ PutRequest: { Item: key(i) } }));
    await batchWriteAll(table, requests);
    expect(written.sort()).toEqual(requests.map((r) => r.PutRequest.Item.PK).sort());
    expect(calls.map((c) => c.input.RequestItems.t.length)).toEqual([25, 25, 22, 10]);
  });

  it(`fails after ${BATCH_ATTEMPTS} calls with requests still unprocessed`, async () => {
    const { table } = scripted((c) => ({ UnprocessedItems: { t: c.input.RequestItems.t } }));
    await expect(batchWriteAll(table, [{ DeleteRequest: { Key: key(1) } }])).rejects.toThrow(`BatchWriteItem: 1 requests still unprocessed after ${BATCH_ATTEMPTS} calls`);
  }, 30_000);
});
