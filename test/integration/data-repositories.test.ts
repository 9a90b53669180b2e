/**
 * Repository behaviour under concurrency and seeding, over dynoxide in memory — once with the handlers'
 * aws-lite document client and once with the AWS SDK v3 adapter the operator scripts use (same code path);
 * and the data layer's one retry helper and one filter builder.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ensureTable, startDynamo, type RunningDynamo } from '../../scripts/local/dynamodb.js';
import { createDocumentClient, dynamoRepository, putIncident, type TableRef } from '../../lambdas/data/index.js';
import { sdkDocumentClient } from '../../lambdas/data/table/sdk-client.js';
import { RETRY, withRetries } from '../../lambdas/data/table/dynamo-util.js';
import { filterExpression } from '../../lambdas/data/table/paging.js';
import { newIncident, planUpdate } from '../../lambdas/domain/incidents.js';
import { keys } from '../../lambdas/data/table/keys.js';
import { INCIDENT_SEQ, rebuildTenantAggregates } from '../../lambdas/data/aggregates.js';

let dynamo: RunningDynamo;
const tables: Record<string, TableRef> = {};
const credentials = { accessKeyId: 'l', secretAccessKey: 'l' };

beforeAll(async () => {
  dynamo = await startDynamo({ port: 0 });
  await ensureTable(dynamo.endpoint, 'vigia-data-main');
  expect(await ensureTable(dynamo.endpoint, 'vigia-data-main')).toBe(false);
  await ensureTable(dynamo.endpoint, 'vigia-sdk-main');
  tables['aws-lite'] = { doc: createDocumentClient({ endpoint: dynamo.endpoint, region: 'eu-west-1', credentials }), tableName: 'vigia-data-main' };
  tables['AWS SDK v3'] = { doc: sdkDocumentClient(new DynamoDBClient({ endpoint: dynamo.endpoint, region: 'eu-west-1', credentials })), tableName: 'vigia-sdk-main' };
});
afterAll(async () => {
  for (const t of Object.values(tables)) t.doc.destroy();
  await dynamo?.stop();
});

const body = { title: 'Brute force', description: 'ssh', severity: 'high' as const, category: 'general' };

describe.each(['aws-lite', 'AWS SDK v3'])('incident repository (%s document client)', (client) => {
  let table: TableRef;
  beforeAll(() => {
    table = tables[client]!;
  });

  it('allocates distinct consecutive ids under concurrent creates', async () => {
    const repo = dynamoRepository(table).incidents;
    const made = await Promise.all(
      Array.from({ length: 8 }, () => repo.createIncident('acme', (seq) => newIncident('acme', seq, body, 'x', new Date().toISOString()))),
    );
    expect(made.map((i) => i.id).sort()).toEqual(Array.from({ length: 8 }, (_, k) => `INC-00000${k + 1}`));
  });

  it('lets exactly one of two concurrent updates of the same version win', async () => {
    const repo = dynamoRepository(table).incidents;
    const cur = (await repo.getIncident('acme', 'INC-000001'))!;
    const a = planUpdate(cur, { version: cur.version, status: 'in_progress', triage: { severity: cur.severity, reason: 'confirmado' } }, 'a', new Date().toISOString());
    const b = planUpdate(cur, { version: cur.version, category: 'other', comment: 'b' }, 'b', new Date().toISOString());
    const results = await Promise.all([
      repo.saveUpdate('acme', a.incident, cur, a.change, a.comment),
      repo.saveUpdate('acme', b.incident, cur, b.change, b.comment),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
    const detail = (await repo.getIncidentDetail('acme', 'INC-000001'))!;
    expect(detail.version).toBe(2);
    expect(detail.history).toHaveLength(1);
    // the loser's comment was not written either (same transaction)
    expect(detail.comments.length).toBe(results[1] ? 1 : 0);
  });

  it('seeds fixed ids idempotently and moves the counter past them', async () => {
    const repo = dynamoRepository(table).incidents;
    const seeded = newIncident('globex', 41, body, 'seed', '2025-01-01T00:00:00.000Z');
    const comment = { id: 'c1', author: 'seed', body: 'hello', createdAt: '2025-01-01T00:01:00.000Z', visibility: 'public' as const };
    await putIncident(seeded, { comments: [comment] }, table);
    await putIncident(seeded, { comments: [comment] }, table);
    expect((await repo.getIncidentDetail('globex', 'INC-000041'))!.comments).toHaveLength(1);
    const next = await repo.createIncident('globex', (seq) => newIncident('globex', seq, body, 'x', new Date().toISOString()));
    expect(next.id).toBe('INC-000042');
  });

  it("keeps the counter in the tenant's stats item: an old counter item is read until the rebuild moves it there (never lowered, never below a stored number)", async () => {
    const repo = dynamoRepository(table).incidents;
    const get = async (Key: Record<string, string>) => (await table.doc.send('GetItem', { TableName: table.tableName, Key, ConsistentRead: true })).Item;
    // A tenant from before AGGREGATES_VERSION 3: its counter is the COUNTER#INCIDENT item.
    await table.doc.send('PutItem', { TableName: table.tableName, Item: { ...keys.incidentCounter('initech'), entity: 'Counter', tenantId: 'initech', seq: 7 } });
    const made = await Promise.all(
      Array.from({ length: 3 }, () => repo.createIncident('initech', (seq) => newIncident('initech', seq, body, 'x', new Date().toISOString()))),
    );
    expect(made.map((i) => i.id).sort()).toEqual(['INC-000008', 'INC-000009', 'INC-000010']);
    expect((await get(keys.stats('initech')))?.[INCIDENT_SEQ]).toBe(10);
    // The rebuild (npm start / platform:upgrade-data) keeps the larger value and deletes the old item.
    await table.doc.send('PutItem', { TableName: table.tableName, Item: { ...keys.incidentCounter('initech'), entity: 'Counter', tenantId: 'initech', seq: 12 } });
    await rebuildTenantAggregates(table, 'initech', { write: true });
    expect((await get(keys.stats('initech')))?.[INCIDENT_SEQ]).toBe(12);
    expect(await get(keys.incidentCounter('initech'))).toBeUndefined();
    await rebuildTenantAggregates(table, 'initech', { write: true });
    expect((await get(keys.stats('initech')))?.[INCIDENT_SEQ]).toBe(12);
    expect((await repo.createIncident('initech', (seq) => newIncident('initech', seq, body, 'x', new Date().toISOString()))).id).toBe('INC-000013');
    // A stats item rebuilt without a counter of any kind gets the highest stored number.
    await putIncident(newIncident('hooli', 5, body, 'seed', '2025-01-01T00:00:00.000Z'), undefined, table);
    await table.doc.send('PutItem', { TableName: table.tableName, Item: { ...keys.stats('hooli'), entity: 'TenantStats' } });
    await rebuildTenantAggregates(table, 'hooli', { write: true });
    expect((await get(keys.stats('hooli')))?.[INCIDENT_SEQ]).toBe(5);
  });

  it('refuses a comment on a missing incident', async () => {
    const repo = dynamoRepository(table).incidents;
    expect(await repo.addComment('acme', 'INC-999999', { id: 'z', author: 'a', body: 'b', createdAt: new Date().toISOString(), visibility: 'public' })).toBe(false);
  });
});

describe('startDynamo', () => {
  it('reports a busy port in one line', async () => {
    const port = Number(new URL(dynamo.endpoint).port);
    await expect(startDynamo({ port })).rejects.toThrow(/^cannot start dynoxide: port \d+ on 127\.0\.0\.1 is already in use$/);
  });
});

describe('withRetries (the one retry helper)', () => {
  const conflict = Object.assign(new Error('conflict'), { name: 'TransactionCanceledException', CancellationReasons: [{ Code: 'None' }, { Code: 'TransactionConflict' }] });

  it('retries RETRY and transaction conflicts, and returns the first other result', async () => {
    let calls = 0;
    const out = await withRetries('t', async () => {
      calls++;
      if (calls === 1) return RETRY;
      if (calls === 2) throw conflict;
      return 'done';
    });
    expect([out, calls]).toEqual(['done', 3]);
  });

  it('gives up after the attempts with the last conflict as cause, and lets other errors through at once', async () => {
    let calls = 0;
    const err = await withRetries('busy', async () => {
      calls++;
      throw conflict;
    }, 3).catch((e: unknown) => e as Error);
    expect([err.message, err.cause, calls]).toEqual(['busy: lost 3 races to concurrent writes', conflict, 3]);
    await expect(withRetries('x', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
  });
});

describe('filterExpression (the one filter builder)', () => {
  it('ANDs IN lists, single values and contains; skips empty filters', () => {
    expect(filterExpression({ in: { status: ['new', 'closed'], severity: [], deviceId: 'd1', user: undefined }, contains: { attribute: 'searchText', value: 'vpn' } })).toEqual({
      expression: '#f0 IN (:f0_0, :f0_1) AND #f2 IN (:f2_0) AND contains(#c, :c)',
      names: { '#f0': 'status', '#f2': 'deviceId', '#c': 'searchText' },
      values: { ':f0_0': 'new', ':f0_1': 'closed', ':f2_0': 'd1', ':c': 'vpn' },
    });
    expect(filterExpression({ in: { status: [] }, contains: { attribute: 'searchText', value: undefined } })).toBeUndefined();
  });
});
