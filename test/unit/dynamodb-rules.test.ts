/**
 * The parts of the local DynamoDB rules layer (scripts/local/dynamodb-rules/): DynamoDB's item size, the
 * per-partition throughput meter, the transaction lock table and what a request touches. The proxy itself,
 * with the engine behind it, is proved by test/conformance/dynamodb-rules.test.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  itemSize,
  MAX_ITEM_BYTES,
  numberSize,
  PartitionMeter,
  queryPartition,
  touchesOf,
  TransactionLocks,
  valueSize,
  writeUnits,
  type KeySchema,
} from '../../scripts/local/dynamodb-rules/index.js';

const SCHEMA: KeySchema = { hashKey: 'PK', rangeKey: 'SK', indexes: { GSI1: 'GSI1PK' } };

describe('item size (Developer Guide, "Item sizes and formats")', () => {
  it('counts names and values as DynamoDB does', () => {
    expect(itemSize({ PK: { S: 'a' }, SK: { S: 'b' } })).toBe(6);
    expect(valueSize({ S: 'ñ' })).toBe(2);
    expect(valueSize({ B: Buffer.from('abc').toString('base64') })).toBe(3);
    expect(valueSize({ BOOL: true })).toBe(1);
    expect(valueSize({ NULL: true })).toBe(1);
    expect(valueSize({ L: [{ S: 'ab' }, { N: '1' }] })).toBe(3 + 1 + 2 + 1 + 2);
    expect(valueSize({ M: { k: { S: 'v' } } })).toBe(3 + 1 + 1 + 1);
    expect(valueSize({ SS: ['a', 'bc'] })).toBe(3);
  });
  it('numbers: one byte per two significant digits plus one, zeros trimmed, one more if negative', () => {
    expect(numberSize('1')).toBe(2);
    expect(numberSize('12345')).toBe(4);
    expect(numberSize('0.0012300')).toBe(3);
    expect(numberSize('-12')).toBe(3);
    expect(numberSize('0')).toBe(2);
  });
  it('the 400 KB limit is 409,600 bytes (the engine refuses one byte more: measured) and 1 WCU per KB', () => {
    expect(MAX_ITEM_BYTES).toBe(409_600);
    expect(itemSize({ PK: { S: 'a' }, SK: { S: 'b' }, v: { S: 'x'.repeat(409_593) } })).toBe(409_600);
    expect([writeUnits(0), writeUnits(1024), writeUnits(1025)]).toEqual([1, 1, 2]);
  });
});

describe('partition meter (3,000 RCU / 1,000 WCU per partition per second)', () => {
  it('refuses a partition whose second is used up, and forgets it the next second', () => {
    const m = new PartitionMeter();
    const t = 1_000_000;
    m.record('p', 'write', 999, t);
    expect(m.isOver('p', 'write', t + 10)).toBe(false);
    m.record('p', 'write', 1, t + 20);
    expect(m.isOver('p', 'write', t + 30)).toBe(true);
    expect(m.isOver('p', 'read', t + 30)).toBe(false);
    expect(m.isOver('other', 'write', t + 30)).toBe(false);
    expect(m.isOver('p', 'write', t + 1000)).toBe(false);
    m.record('q', 'read', 3000, t);
    expect(m.isOver('q', 'read', t)).toBe(true);
    expect(m.hottest(1)[0]).toEqual({ partition: 'p', peakReadUnitsPerSecond: 0, peakWriteUnitsPerSecond: 1000 });
  });
});

describe('transaction lock table', () => {
  it('holds the items of a transaction in progress until released', () => {
    const l = new TransactionLocks();
    const release = l.acquire(['a', 'b', 'a']);
    expect(l.conflicts(['x', 'b'])).toEqual([false, true]);
    expect(() => l.acquire(['b'])).toThrow(/already in a transaction/);
    release();
    release();
    expect(l.isHeld('a')).toBe(false);
    expect(l.size).toBe(0);
  });
});

describe('what a request touches', () => {
  const schemaOf = (t: string) => (t === 'tbl' ? SCHEMA : undefined);
  it('single-item writes and reads: the item and its partition; a Put also its index partitions', () => {
    const put = touchesOf('PutItem', { TableName: 'tbl', Item: { PK: { S: 'p' }, SK: { S: 's' }, GSI1PK: { S: 'g' } } }, schemaOf);
    expect(put.kind).toBe('write');
    expect(put.touches[0]!.partition).toBe('tbl|{"S":"p"}');
    expect(put.touches[0]!.indexPartitions).toEqual([{ index: 'GSI1', partition: 'tbl/index/GSI1|{"S":"g"}' }]);
    const upd = touchesOf('UpdateItem', { TableName: 'tbl', Key: { SK: { S: 's' }, PK: { S: 'p' } } }, schemaOf);
    expect(upd.touches[0]!.item).toBe(put.touches[0]!.item);
    expect(touchesOf('GetItem', { TableName: 'tbl', Key: { PK: { S: 'p' }, SK: { S: 's' } } }, schemaOf).kind).toBe('read');
  });
  it('Query: the partition named by the hash-key equality, table or index, directly or through a name', () => {
    expect(queryPartition({ KeyConditionExpression: 'PK = :p AND begins_with(SK, :s)', ExpressionAttributeValues: { ':p': { S: 'x' } } }, 'tbl', SCHEMA)).toBe('tbl|{"S":"x"}');
    expect(
      queryPartition({ IndexName: 'GSI1', KeyConditionExpression: '#k = :v', ExpressionAttributeNames: { '#k': 'GSI1PK' }, ExpressionAttributeValues: { ':v': { S: 'y' } } }, 'tbl', SCHEMA),
    ).toBe('tbl/index/GSI1|{"S":"y"}');
    expect(queryPartition({ KeyConditionExpression: ':p = PK', ExpressionAttributeValues: { ':p': { S: 'z' } } }, 'tbl', SCHEMA)).toBe('tbl|{"S":"z"}');
  });
  it('batches and transactions keep one touch per request/action, unknown tables as placeholders', () => {
    const b = touchesOf(
      'BatchWriteItem',
      { RequestItems: { other: [{ DeleteRequest: { Key: { id: { S: '1' } } } }], tbl: [{ PutRequest: { Item: { PK: { S: 'a' }, SK: { S: '1' }, v: { S: 'x'.repeat(3000) } } } }] } },
      schemaOf,
    );
    expect(b.touches.map((t) => [t.partition, t.weight])).toEqual([['', 1], ['tbl|{"S":"a"}', 3]]);
    const tx = touchesOf('TransactWriteItems', { TransactItems: [{ ConditionCheck: { TableName: 'tbl', Key: { PK: { S: 'a' }, SK: { S: '1' } } } }, { Put: { TableName: 'nope', Item: {} } }] }, schemaOf);
    expect(tx.touches.map((t) => !!t.item)).toEqual([true, false]);
  });
});

describe("npm start's DynamoDB ports (scripts/local/config.ts)", () => {
  it('the engine sits on 8001 behind 8000 by default, on a free port when the public one moves, unless named', async () => {
    const { localSettingsFromEnv } = await import('../../scripts/local/config.js');
    expect(localSettingsFromEnv({}).ports).toMatchObject({ dynamodb: 8000, dynamodbInternal: 8001 });
    expect(localSettingsFromEnv({ VIGIA_PORT_DYNAMODB: '0' }).ports).toMatchObject({ dynamodb: 0, dynamodbInternal: 0 });
    expect(localSettingsFromEnv({ VIGIA_PORT_DYNAMODB: '9000' }).ports).toMatchObject({ dynamodb: 9000, dynamodbInternal: 0 });
    expect(localSettingsFromEnv({ VIGIA_PORT_DYNAMODB: '9000', VIGIA_PORT_DYNAMODB_INTERNAL: '9001' }).ports).toMatchObject({ dynamodbInternal: 9001 });
  });
});
