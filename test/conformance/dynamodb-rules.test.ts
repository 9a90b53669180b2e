/**
 * The local DynamoDB rules layer (scripts/local/dynamodb-rules/, docs/local-emulation.md#dynamodb) seen by
 * clients this project did not write: the AWS SDK v3 (`@aws-sdk/client-dynamodb`, retries off so every
 * refusal is visible) and botocore (through `python3`; skipped with the reason where it is missing), against
 * `startDynamo` + `ensureTable` on random ports. Each rule is triggered and its error asserted as the SDK
 * parses it (exception class, message, `CancellationReasons`, throttling reasons), the engine's own limits
 * included, and the happy path is shown unaffected.
 */
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BatchGetItemCommand,
  BatchWriteItemCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  ThrottlingException,
  TransactionCanceledException,
  TransactionConflictException,
  TransactWriteItemsCommand,
  UpdateItemCommand,
  type AttributeValue,
  type TransactWriteItem,
} from '@aws-sdk/client-dynamodb';
import { ensureTable, startDynamo, type RunningDynamo } from '../../scripts/local/dynamodb.js';

const TABLE = 'rules-conformance';
const S = (s: string): AttributeValue => ({ S: s });
const key = (pk: string, sk: string) => ({ PK: S(pk), SK: S(sk) });

let dynamo: RunningDynamo;
let sdk: DynamoDBClient;

beforeAll(async () => {
  dynamo = await startDynamo({ port: 0 });
  await ensureTable(dynamo.endpoint, TABLE);
  sdk = new DynamoDBClient({ endpoint: dynamo.endpoint, region: 'eu-west-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts: 1 });
});

afterAll(async () => {
  sdk?.destroy();
  await dynamo?.stop();
});

/** The error a call rejects with (fails the test if it resolves). */
async function failure(p: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await p;
  } catch (e) {
    return e as Error & Record<string, unknown>;
  }
  throw new Error('expected the call to fail');
}

/** Puts ~100 KB items (100 WCU each) into partition `pk`, one after another, until one is throttled (≤ 3 s). */
async function putUntilThrottled(pk: string): Promise<{ error: Error & Record<string, unknown>; written: number }> {
  const big = 'x'.repeat(100 * 1024);
  const deadline = Date.now() + 3000;
  for (let i = 0; Date.now() < deadline; i++) {
    try {
      await sdk.send(new PutItemCommand({ TableName: TABLE, Item: { ...key(pk, `item-${i}`), v: S(big) } }));
    } catch (e) {
      return { error: e as Error & Record<string, unknown>, written: i };
    }
  }
  throw new Error(`partition ${pk} was never throttled`);
}

describe('happy path: the rules layer changes nothing a well-behaved client sees', () => {
  it('writes, reads, queries, batches and transactions answer as the engine does; ConsumedCapacity only when asked', async () => {
    const put = await sdk.send(new PutItemCommand({ TableName: TABLE, Item: { ...key('happy', '1'), n: { N: '1' } } }));
    expect(put.ConsumedCapacity).toBeUndefined();
    const total = await sdk.send(new PutItemCommand({ TableName: TABLE, Item: { ...key('happy', '2'), n: { N: '2' } }, ReturnConsumedCapacity: 'TOTAL' }));
    expect(total.ConsumedCapacity).toEqual({ TableName: TABLE, CapacityUnits: 1 });
    const indexes = await sdk.send(new PutItemCommand({ TableName: TABLE, Item: { ...key('happy', '3') }, ReturnConsumedCapacity: 'INDEXES' }));
    expect(indexes.ConsumedCapacity?.Table?.CapacityUnits).toBe(1);
    await sdk.send(
      new TransactWriteItemsCommand({
        TransactItems: [{ Update: { TableName: TABLE, Key: key('happy', '1'), UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': { N: '1' } } } }, { Put: { TableName: TABLE, Item: key('happy', '4') } }],
      }),
    );
    const got = await sdk.send(new GetItemCommand({ TableName: TABLE, Key: key('happy', '1'), ConsistentRead: true }));
    expect(got.Item?.n).toEqual({ N: '2' });
    expect(got.ConsumedCapacity).toBeUndefined();
    const q = await sdk.send(new QueryCommand({ TableName: TABLE, KeyConditionExpression: 'PK = :p', ExpressionAttributeValues: { ':p': S('happy') } }));
    expect(q.Count).toBe(4);
    const bw = await sdk.send(new BatchWriteItemCommand({ RequestItems: { [TABLE]: [{ PutRequest: { Item: key('happy', '5') } }, { DeleteRequest: { Key: key('happy', '4') } }] } }));
    expect(bw.UnprocessedItems ?? {}).toEqual({});
    const bg = await sdk.send(new BatchGetItemCommand({ RequestItems: { [TABLE]: { Keys: [key('happy', '5'), key('happy', '4')] } } }));
    expect(bg.Responses?.[TABLE]).toHaveLength(1);
    // A failed condition is still the engine's own cancellation.
    const cond = await failure(
      sdk.send(new TransactWriteItemsCommand({ TransactItems: [{ ConditionCheck: { TableName: TABLE, Key: key('happy', 'none'), ConditionExpression: 'attribute_exists(PK)' } }, { Put: { TableName: TABLE, Item: key('happy', '6') } }] })),
    );
    expect(cond).toBeInstanceOf(TransactionCanceledException);
    expect((cond as unknown as TransactionCanceledException).CancellationReasons?.map((r) => r.Code)).toEqual(['ConditionalCheckFailed', 'None']);
  });
});

describe('transaction conflicts (Developer Guide, "Transaction conflict handling")', () => {
  it('two TransactWriteItems on one item at once: one is cancelled with TransactionConflict, and the table holds exactly the applied ones', async () => {
    const counter = key('conflict', 'counter');
    const tx = (round: number, who: string): TransactWriteItem[] => [
      { Put: { TableName: TABLE, Item: key('conflict-log', `${round}-${who}`) } },
      { Update: { TableName: TABLE, Key: counter, UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': { N: '1' } } } },
    ];
    let applied = 0;
    const cancellations: TransactionCanceledException[] = [];
    const appliedLogs: string[] = [];
    for (let round = 0; round < 60 && cancellations.length < 3; round++) {
      const results = await Promise.allSettled(['a', 'b'].map((who) => sdk.send(new TransactWriteItemsCommand({ TransactItems: tx(round, who) }))));
      results.forEach((r, i) => {
        if (r.status === 'fulfilled') {
          applied++;
          appliedLogs.push(`${round}-${'ab'[i]}`);
        } else {
          expect(r.reason).toBeInstanceOf(TransactionCanceledException);
          cancellations.push(r.reason as TransactionCanceledException);
        }
      });
    }
    expect(cancellations.length).toBeGreaterThan(0);
    const c = cancellations[0]!;
    expect(c.CancellationReasons).toEqual([{ Code: 'None' }, { Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' }]);
    expect(c.message).toBe('Transaction cancelled, please refer cancellation reasons for specific reasons [None, TransactionConflict]');
    const n = await sdk.send(new GetItemCommand({ TableName: TABLE, Key: counter, ConsistentRead: true }));
    expect(Number(n.Item?.n?.N)).toBe(applied);
    const logs = await sdk.send(new QueryCommand({ TableName: TABLE, KeyConditionExpression: 'PK = :p', ExpressionAttributeValues: { ':p': S('conflict-log') }, ConsistentRead: true }));
    expect((logs.Items ?? []).map((i) => i.SK?.S).sort()).toEqual(appliedLogs.sort());
    expect(dynamo.rules!.report().counters.transactionConflicts).toBeGreaterThanOrEqual(cancellations.length);
  });

  it('a PutItem/UpdateItem/DeleteItem of an item a transaction in progress touches: TransactionConflictException', async () => {
    // A transaction with many large Puts keeps the engine busy for a while; the single write races it.
    const filler = 'f'.repeat(30 * 1024);
    let seen: Error | undefined;
    for (let round = 0; round < 40 && !seen; round++) {
      const items: TransactWriteItem[] = [
        { Update: { TableName: TABLE, Key: key('single', 'hot'), UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': { N: '1' } } } },
        ...Array.from({ length: 60 }, (_, i) => ({ Put: { TableName: TABLE, Item: { ...key(`single-fill-${i}`, String(round)), v: S(filler) } } })),
      ];
      const txp = sdk.send(new TransactWriteItemsCommand({ TransactItems: items }));
      await new Promise((r) => setTimeout(r, 2));
      const single = await sdk.send(new UpdateItemCommand({ TableName: TABLE, Key: key('single', 'hot'), UpdateExpression: 'ADD m :one', ExpressionAttributeValues: { ':one': { N: '1' } } })).catch((e: Error) => e);
      await txp;
      if (single instanceof Error) seen = single;
    }
    expect(seen).toBeInstanceOf(TransactionConflictException);
    expect(seen!.message).toBe('Transaction is ongoing for the item');
  });
});

describe('per-partition throughput: 1,000 WCU / 3,000 RCU per partition key value per second', () => {
  it('writes past 1,000 WCU in one second on one partition: ThrottlingException with its throttling reason; other partitions unaffected', async () => {
    const { error, written } = await putUntilThrottled('hot-write');
    expect(error).toBeInstanceOf(ThrottlingException);
    expect(error.message).toMatch(/^Throughput exceeds the current capacity of your table or index\./);
    expect((error as unknown as ThrottlingException).throttlingReasons).toEqual([{ reason: 'TableWriteKeyRangeThroughputExceeded', resource: `arn:aws:dynamodb:eu-west-1:000000000000:table/${TABLE}` }]);
    expect(written).toBeGreaterThanOrEqual(10);
    await sdk.send(new PutItemCommand({ TableName: TABLE, Item: key('cold', '1') }));
    // A BatchWriteItem spanning the hot partition and a cold one: the hot one's request comes back unprocessed.
    const again = await putUntilThrottled('hot-batch');
    expect(again.error).toBeInstanceOf(ThrottlingException);
    const bw = await sdk.send(new BatchWriteItemCommand({ RequestItems: { [TABLE]: [{ PutRequest: { Item: key('hot-batch', 'late') } }, { PutRequest: { Item: key('cold', '2') } }] } }));
    if (Object.keys(bw.UnprocessedItems ?? {}).length) {
      // (Unless the second turned between the two calls.)
      expect(bw.UnprocessedItems?.[TABLE]).toEqual([{ PutRequest: { Item: key('hot-batch', 'late') } }]);
    }
    expect((await sdk.send(new GetItemCommand({ TableName: TABLE, Key: key('cold', '2'), ConsistentRead: true }))).Item).toBeDefined();
    // A transaction on a throttled partition is cancelled with ThrottlingError.
    const third = await putUntilThrottled('hot-tx');
    expect(third.error).toBeInstanceOf(ThrottlingException);
    const tx = await sdk.send(new TransactWriteItemsCommand({ TransactItems: [{ Put: { TableName: TABLE, Item: key('cold', '3') } }, { Put: { TableName: TABLE, Item: key('hot-tx', 'late') } }] })).catch((e: Error) => e);
    if (tx instanceof Error) {
      expect(tx).toBeInstanceOf(TransactionCanceledException);
      expect((tx as TransactionCanceledException).CancellationReasons?.map((r) => r.Code)).toEqual(['None', 'ThrottlingError']);
    }
    const report = dynamo.rules!.report();
    expect(report.counters.throttledWrites).toBeGreaterThanOrEqual(3);
    expect(report.hottestPartitions[0]!.peakWriteUnitsPerSecond).toBeGreaterThanOrEqual(1000);
  });

  it('reads past the read limit in one second on one index partition: ThrottlingException, IndexReadKeyRangeThroughputExceeded', async () => {
    // dynoxide serves about 900 RCU/s of 1 MB Query pages on this kind of machine (measured), short of 3,000:
    // the read rule is shown on an engine whose read limit is lowered to 50 RCU (ten such queries a second,
    // reachable on a busy machine; the meter's arithmetic at the real limits: test/unit/dynamodb-rules.test.ts).
    const low = await startDynamo({ port: 0, rules: { limits: { read: 50, write: 1000 } } });
    const client = new DynamoDBClient({ endpoint: low.endpoint, region: 'eu-west-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts: 1 });
    try {
      await ensureTable(low.endpoint, TABLE);
      for (let i = 0; i < 4; i++) await client.send(new PutItemCommand({ TableName: TABLE, Item: { ...key(`idx-src-${i}`, 'x'), GSI1PK: S('hot-index'), GSI1SK: S(String(i)), v: S('r'.repeat(20 * 1024)) } }));
      const deadline = Date.now() + 4000;
      let error: Error | undefined;
      while (!error && Date.now() < deadline) {
        // One page of ~80 KB: 10 RCU, half of it for an eventually consistent read.
        error = await client.send(new QueryCommand({ TableName: TABLE, IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :p', ExpressionAttributeValues: { ':p': S('hot-index') } })).then(() => undefined, (e: Error) => e);
      }
      expect(error).toBeInstanceOf(ThrottlingException);
      expect((error as ThrottlingException).throttlingReasons?.[0]).toEqual({ reason: 'IndexReadKeyRangeThroughputExceeded', resource: `arn:aws:dynamodb:eu-west-1:000000000000:table/${TABLE}/index/GSI1` });
      expect(low.rules!.report().counters.throttledReads).toBeGreaterThanOrEqual(1);
    } finally {
      client.destroy();
      await low.stop();
    }
  });
});

describe("DynamoDB's size and count limits through the rules layer (the engine's own checks)", () => {
  it('item > 400 KB, transaction > 100 actions or > 4 MB, BatchWriteItem > 25, BatchGetItem > 100: ValidationException; Query pages stop at 1 MB', async () => {
    const tooBig = await failure(sdk.send(new PutItemCommand({ TableName: TABLE, Item: { ...key('a', 'b'), v: S('x'.repeat(409_594)) } })));
    expect([tooBig.name, tooBig.message]).toEqual(['ValidationException', 'Item size has exceeded the maximum allowed size']);
    const put = (pk: string, i: number, v = '') => ({ Put: { TableName: TABLE, Item: { ...key(pk, String(i)), ...(v ? { v: S(v) } : {}) } } });
    const many = await failure(sdk.send(new TransactWriteItemsCommand({ TransactItems: Array.from({ length: 101 }, (_, i) => put('tx-many', i)) })));
    expect(many.name).toBe('ValidationException');
    const heavy = await failure(sdk.send(new TransactWriteItemsCommand({ TransactItems: Array.from({ length: 11 }, (_, i) => put('tx-heavy', i, 'z'.repeat(390 * 1024))) })));
    expect([heavy.name, heavy.message]).toEqual(['ValidationException', expect.stringMatching(/4MB/)]);
    const bw = await failure(sdk.send(new BatchWriteItemCommand({ RequestItems: { [TABLE]: Array.from({ length: 26 }, (_, i) => ({ PutRequest: { Item: key('bw', String(i)) } })) } })));
    expect(bw.name).toBe('ValidationException');
    const bg = await failure(sdk.send(new BatchGetItemCommand({ RequestItems: { [TABLE]: { Keys: Array.from({ length: 101 }, (_, i) => key('bg', String(i))) } } })));
    expect(bg.name).toBe('ValidationException');
    for (let i = 0; i < 7; i++) {
      // 200 WCU each: a pause every 4 keeps the partition under 1,000 WCU per second.
      if (i === 4) await new Promise((r) => setTimeout(r, 1100));
      await sdk.send(new PutItemCommand({ TableName: TABLE, Item: { ...key('page', String(i)), v: S('p'.repeat(200 * 1024)) } }));
    }
    const page = await sdk.send(new QueryCommand({ TableName: TABLE, KeyConditionExpression: 'PK = :p', ExpressionAttributeValues: { ':p': S('page') } }));
    expect(page.Count).toBeLessThan(7);
    expect(page.LastEvaluatedKey).toBeDefined();
    expect(dynamo.rules!.report().counters.engineRefusals).toMatchObject({ itemSize: 1, transactionActions: 1, transactionSize: 1, batchWriteRequests: 1, batchGetKeys: 1 });
  });
});

/** botocore (python3): two threads racing transactions on one item, then puts until a partition is throttled. */
const BOTOCORE_SCRIPT = String.raw`
import json, sys, time
from concurrent.futures import ThreadPoolExecutor
import botocore.session
from botocore.config import Config
args = json.loads(sys.argv[1])
c = botocore.session.get_session().create_client('dynamodb', endpoint_url=args['endpoint'], region_name='eu-west-1',
    aws_access_key_id='local', aws_secret_access_key='local', config=Config(retries={'total_max_attempts': 1}, max_pool_connections=4))
T = args['table']
def tx(i, who):
    try:
        c.transact_write_items(TransactItems=[
            {'Put': {'TableName': T, 'Item': {'PK': {'S': 'boto-log'}, 'SK': {'S': '%d-%s' % (i, who)}}}},
            {'Update': {'TableName': T, 'Key': {'PK': {'S': 'boto'}, 'SK': {'S': 'counter'}}, 'UpdateExpression': 'ADD n :one', 'ExpressionAttributeValues': {':one': {'N': '1'}}}}])
        return 'applied'
    except c.exceptions.TransactionCanceledException as e:
        return {'code': e.response['Error']['Code'], 'message': e.response['Error']['Message'], 'reasons': [r['Code'] for r in e.response['CancellationReasons']]}
out = {'applied': 0, 'cancelled': []}
with ThreadPoolExecutor(max_workers=2) as pool:
    for i in range(80):
        for r in pool.map(lambda who: tx(i, who), ['a', 'b']):
            if r == 'applied': out['applied'] += 1
            else: out['cancelled'].append(r)
        if len(out['cancelled']) >= 2: break
out['counter'] = int(c.get_item(TableName=T, Key={'PK': {'S': 'boto'}, 'SK': {'S': 'counter'}}, ConsistentRead=True).get('Item', {}).get('n', {}).get('N', '0'))
big = 'x' * (100 * 1024)
deadline = time.time() + 3
i = 0
while time.time() < deadline:
    try:
        c.put_item(TableName=T, Item={'PK': {'S': 'boto-hot'}, 'SK': {'S': str(i)}, 'v': {'S': big}})
        i += 1
    except c.exceptions.ThrottlingException as e:
        out['throttled'] = {'code': e.response['Error']['Code'], 'reasons': e.response.get('throttlingReasons') or e.response.get('ThrottlingReasons')}
        break
print(json.dumps(out))
`;

function botocoreAvailable(): string | null {
  const probe = spawnSync('python3', ['-c', 'import botocore'], { encoding: 'utf8' });
  if (probe.error) return 'python3 is not installed';
  if (probe.status !== 0) return 'botocore is not installed for python3 (pip install boto3)';
  return null;
}

describe('botocore sees the same rules', () => {
  it('TransactionCanceledException with [None, TransactionConflict] from racing threads, exact counter, and ThrottlingException on a hot partition', async (ctx) => {
    const missing = botocoreAvailable();
    if (missing) return ctx.skip(missing);
    const { stdout } = await promisify(execFile)('python3', ['-c', BOTOCORE_SCRIPT, JSON.stringify({ endpoint: dynamo.endpoint, table: TABLE })], { encoding: 'utf8', timeout: 50_000 });
    const out = JSON.parse(stdout) as { applied: number; counter: number; cancelled: Array<{ code: string; message: string; reasons: string[] }>; throttled?: { code: string; reasons?: unknown } };
    expect(out.cancelled.length).toBeGreaterThan(0);
    expect(out.cancelled[0]).toEqual({
      code: 'TransactionCanceledException',
      message: 'Transaction cancelled, please refer cancellation reasons for specific reasons [None, TransactionConflict]',
      reasons: ['None', 'TransactionConflict'],
    });
    expect(out.counter).toBe(out.applied);
    expect(out.throttled?.code).toBe('ThrottlingException');
  }, 60_000);
});
