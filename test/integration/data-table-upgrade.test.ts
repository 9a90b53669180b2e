/**
 * The local table upgrade: `ensureTable` adds the `GSI2` (SOC queue, audit of all tenants), `GSI3` (incidents
 * by status) and `GSI4` (a tenant's SOC queue) indexes to a table created before they existed, so an old `.local/` state keeps working, and items written earlier with
 * GSI2 keys become queryable on it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, PutItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import { ensureTable, startDynamo, type RunningDynamo } from '../../scripts/local/dynamodb.js';
import { createTableInput, TABLE_DESIGN } from '../../lambdas/data/table/table-design.js';

let dynamo: RunningDynamo;
let client: DynamoDBClient;
const TABLE = 'vigia-old-main';

beforeAll(async () => {
  dynamo = await startDynamo({ port: 0 });
  client = new DynamoDBClient({ endpoint: dynamo.endpoint, region: 'eu-west-1', credentials: { accessKeyId: 'l', secretAccessKey: 'l' } });
  const input = createTableInput(TABLE);
  // The table as it was before GSI2, GSI3 and GSI4: GSI1 only.
  await client.send(
    new CreateTableCommand({
      ...input,
      AttributeDefinitions: input.AttributeDefinitions.filter((a) => !['GSI2', 'GSI3', 'GSI4'].some((g) => a.AttributeName.startsWith(g))),
      GlobalSecondaryIndexes: input.GlobalSecondaryIndexes.filter((g) => g.IndexName === TABLE_DESIGN.gsi1.indexName),
    }),
  );
  await client.send(
    new PutItemCommand({
      TableName: TABLE,
      Item: { PK: { S: 'TENANT#acme#INCIDENT#1' }, SK: { S: 'META' }, GSI2PK: { S: 'SOCQUEUE' }, GSI2SK: { S: '2026-01-01T00:00:00.000Z#acme#1' }, GSI4PK: { S: 'TENANT#acme#SOCQUEUE' } },
    }),
  );
});
afterAll(async () => {
  client?.destroy();
  await dynamo?.stop();
});

describe('ensureTable on a table made before GSI2, GSI3 and GSI4', () => {
  it('adds GSI2, GSI3 and GSI4 with UpdateTable, keeps the data and backfills the index', async () => {
    expect(await ensureTable(dynamo.endpoint, TABLE)).toBe(false);
    const d = await client.send(new DescribeTableCommand({ TableName: TABLE }));
    expect((d.Table?.GlobalSecondaryIndexes ?? []).map((g) => g.IndexName).sort()).toEqual(['GSI1', 'GSI2', 'GSI3', 'GSI4']);
    const q = await client.send(
      new QueryCommand({ TableName: TABLE, IndexName: 'GSI2', KeyConditionExpression: 'GSI2PK = :p', ExpressionAttributeValues: { ':p': { S: 'SOCQUEUE' } } }),
    );
    expect(q.Items?.map((i) => i.PK?.S)).toEqual(['TENANT#acme#INCIDENT#1']);
    // GSI4 shares GSI2's sort key: the item written before it is in its tenant's queue.
    const q4 = await client.send(
      new QueryCommand({ TableName: TABLE, IndexName: 'GSI4', KeyConditionExpression: 'GSI4PK = :p', ExpressionAttributeValues: { ':p': { S: 'TENANT#acme#SOCQUEUE' } } }),
    );
    expect(q4.Items?.map((i) => i.GSI2SK?.S)).toEqual(['2026-01-01T00:00:00.000Z#acme#1']);
    // Idempotent: a second start changes nothing.
    expect(await ensureTable(dynamo.endpoint, TABLE)).toBe(false);
  });
});
