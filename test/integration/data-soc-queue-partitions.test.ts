/**
 * The SOC queue filtered by customer or by assignee reads that customer's or assignee's own partition
 * (`listSocQueue` in lambdas/data/incidents.ts, docs/sla.md#soc-queue, issue 28), on dynoxide behind the rules
 * proxy, every request counted with its consumed capacity:
 *  - a small tenant among large ones fills its first page in ONE Query (GSI4 `TENANT#<t>#SOCQUEUE`): through the
 *    queue of every tenant its entries were behind the large tenants' 900 and the first filtered page was empty;
 *  - a large tenant's queue is one Query a page, to its end, in queue order;
 *  - an assignee's page is ONE Query of their partition (GSI3 `SOCQUEUE#ASSIGNEE#<a>`, the incidents' queue
 *    entries), kept by the incident's own transactions (assign, reassign, close);
 *  - these are the views by SLA due time (`sort: 'due'`); the default ranked order and the resolved tab:
 *    test/integration/api-soc-queue.test.ts;
 *  - a severity filter on a partition stays bounded (≤ 4 Queries, ≤ 50 RCU a page) and complete across pages;
 *  - a cursor of another partition is refused; the upgrade puts stored open incidents in both partitions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTable, startDynamo, type RunningDynamo } from '../../scripts/local/dynamodb.js';
import { createDocumentClient, type TableRef } from '../../lambdas/data/table/client.js';
import { captureCapacity, type CapturedRequest } from '../support/capacity-capture.js';
import { IncidentEntity, itemOf } from '../../lambdas/data/entities.js';
import { dynamoRepository } from '../../lambdas/data/index.js';
import { listSocQueue } from '../../lambdas/data/incidents.js';
import { keys } from '../../lambdas/data/table/keys.js';
import { upgradeSocQueueIndexes } from '../../lambdas/data/migrations.js';
import { newIncident } from '../../lambdas/domain/incidents.js';
import type { Incident, Severity } from '../../lambdas/contract/schemas.js';
import type { SocQueueOptions } from '../../lambdas/domain/ports.js';

let dynamo: RunningDynamo;
let table: TableRef;
const NAME = 'vigia-socq-main';
const MIN = 60_000;
const BASE = Date.parse('2026-11-01T00:00:00.000Z');
const SEVERITIES: Severity[] = ['critical', 'high', 'medium', 'low'];
/** Every request: operation and RCU. */
const calls: CapturedRequest[] = [];
/** The stored open incidents, as the test knows them. */
const stored = new Map<string, Incident>();
const keyOf = (i: Incident) => `${i.tenantId}#${i.id}`;
/** Queue order: SLA due time, then tenant and id (the GSI2 sort key). */
const queueOrder = (a: Incident, b: Incident) => {
  const [x, y] = [`${a.slaDueAt}#${a.tenantId}#${a.id}`, `${b.slaDueAt}#${b.tenantId}#${b.id}`];
  return x < y ? -1 : x > y ? 1 : 0;
};

function incident(tenantId: string, seq: number, dueMinutes: number, severity: Severity): Incident {
  const inc = newIncident(tenantId, seq, { title: `Incidente ${seq}`, description: 'x', severity, category: 'general' }, 'r', new Date(BASE - 86_400_000).toISOString());
  return { ...inc, slaDueAt: new Date(BASE + dueMinutes * MIN).toISOString() };
}

beforeAll(async () => {
  dynamo = await startDynamo({ port: 0 });
  await ensureTable(dynamo.endpoint, NAME);
  table = { doc: createDocumentClient({ endpoint: dynamo.endpoint, region: 'eu-west-1', credentials: { accessKeyId: 'l', secretAccessKey: 'l' } }), tableName: NAME };
  // Three large tenants (300 open incidents each, due over the next 5 days, interleaved) and a small one whose
  // 3 open incidents fall due after all of them.
  const items: Record<string, unknown>[] = [];
  for (const [t, tenant] of ['big-1', 'big-2', 'big-3'].entries()) {
    for (let n = 1; n <= 300; n++) {
      const inc = incident(tenant, n, n * 24 + t, SEVERITIES[(n + t) % 4]!);
      stored.set(keyOf(inc), inc);
      items.push(itemOf(IncidentEntity, inc));
    }
  }
  for (let n = 1; n <= 3; n++) {
    const inc = incident('small', n, 10_000 + n, 'medium');
    stored.set(keyOf(inc), inc);
    items.push(itemOf(IncidentEntity, inc));
  }
  for (let k = 0; k < items.length; k += 25) {
    await table.doc.send('BatchWriteItem', { RequestItems: { [NAME]: items.slice(k, k + 25).map((Item) => ({ PutRequest: { Item } })) } });
  }
  captureCapacity(table, calls);
}, 120_000);
afterAll(async () => {
  table?.doc.destroy();
  await dynamo?.stop();
});

/** Follows the queue with `opts` to its end: ids in order and each page's Queries and RCU. */
async function follow(opts: Omit<SocQueueOptions, 'cursor'>): Promise<{ ids: string[]; pages: { n: number; queries: number; rcu: number }[] }> {
  const ids: string[] = [];
  const pages: { n: number; queries: number; rcu: number }[] = [];
  let cursor: string | undefined;
  do {
    calls.length = 0;
    const page = await listSocQueue({ sort: 'due', ...opts, cursor }, table);
    pages.push({ n: page.items.length, queries: calls.filter((c) => c.op === 'Query').length, rcu: calls.reduce((s, c) => s + c.rcu, 0) });
    ids.push(...page.items.map(keyOf));
    cursor = page.nextCursor ?? undefined;
  } while (cursor && pages.length < 300);
  return { ids, pages };
}

const want = (f: (i: Incident) => boolean) => [...stored.values()].filter((i) => i.status !== 'closed' && f(i)).sort(queueOrder).map(keyOf);

describe('SOC queue by customer (GSI4, the tenant\'s own partition)', () => {
  it('a small tenant among large ones: its first page is ONE Query holding all its open incidents', async () => {
    calls.length = 0;
    const page = await listSocQueue({ sort: 'due', tenantId: 'small', limit: 20 }, table);
    // One Query of the partition, and one GetItem of the scope's tab counts (docs/sla.md#soc-queue).
    expect(calls.map((c) => c.op).sort()).toEqual(['GetItem', 'Query']); // the two reads run concurrently: their order is not fixed
    expect(page.items.map(keyOf)).toEqual(want((i) => i.tenantId === 'small'));
    expect(page.items).toHaveLength(3);
    expect(page.nextCursor).toBeNull();
  });

  it('a large tenant: one Query of `limit` entries a page, to the end, in queue order', async () => {
    const { ids, pages } = await follow({ sort: 'due', tenantId: 'big-2', limit: 25 });
    expect(ids).toEqual(want((i) => i.tenantId === 'big-2'));
    expect(pages).toHaveLength(13);
    for (const p of pages) {
      expect(p.queries).toBe(1);
      expect(p.rcu).toBeLessThanOrEqual(50);
    }
  });

  it('with a severity filter: ≤ 4 Queries and ≤ 50 RCU a page, exactly the matches across pages', async () => {
    const { ids, pages } = await follow({ sort: 'due', tenantId: 'big-1', severity: ['critical'], limit: 20 });
    expect(ids).toEqual(want((i) => i.tenantId === 'big-1' && i.severity === 'critical'));
    for (const p of pages) {
      expect(p.queries).toBeLessThanOrEqual(4);
      expect(p.rcu).toBeLessThanOrEqual(50);
    }
    // Every tenant's queue with a severity filter is bounded the same way.
    const all = await follow({ sort: 'due', severity: ['low'], limit: 20 });
    expect(all.ids).toEqual(want((i) => i.severity === 'low'));
    for (const p of all.pages) expect(p.queries).toBeLessThanOrEqual(4);
  });
});

describe('SOC queue by assignee (GSI3, the assignee\'s own partition)', () => {
  it('is ONE Query a page, kept by the incident\'s transactions: assign, reassign, close', async () => {
    const repo = dynamoRepository(table).incidents;
    const update = async (tenantId: string, id: string, f: (i: Incident) => Incident) => {
      const cur = (await repo.getIncident(tenantId, id))!;
      const next = { ...f(cur), version: cur.version + 1, updatedAt: new Date(BASE).toISOString() };
      const change = { version: next.version, at: next.updatedAt, by: 'test', changes: [{ field: 'assignee', from: cur.assignee, to: next.assignee }] };
      expect(await repo.saveUpdate(tenantId, next, cur, change, null)).toBe(true);
      stored.set(keyOf(next), next);
    };
    const ana = 'ana@soc.example';
    const bob = 'bob@soc.example';
    for (const [t, n] of [['big-1', 290], ['big-3', 5], ['small', 2], ['big-2', 150], ['big-2', 151]] as const) {
      await update(t, `INC-${String(n).padStart(6, '0')}`, (i) => ({ ...i, assignee: ana, status: 'in_progress' }));
    }
    // Reassigned to bob; closed (leaves every queue).
    await update('big-2', 'INC-000150', (i) => ({ ...i, assignee: bob }));
    await update('big-2', 'INC-000151', (i) => ({ ...i, status: 'closed', closedAt: new Date(BASE).toISOString() }));

    calls.length = 0;
    const page = await listSocQueue({ sort: 'due', assignee: ana, limit: 20 }, table);
    // One Query of the partition, and one GetItem of the scope's tab counts (docs/sla.md#soc-queue).
    expect(calls.map((c) => c.op).sort()).toEqual(['GetItem', 'Query']); // the two reads run concurrently: their order is not fixed
    expect(page.items.map(keyOf)).toEqual(want((i) => i.assignee === ana));
    expect(page.items.map(keyOf)).toEqual(['big-3#INC-000005', 'big-1#INC-000290', 'small#INC-000002']);
    expect(page.items.every((i) => i.status === 'in_progress')).toBe(true);
    expect((await listSocQueue({ sort: 'due', assignee: bob, limit: 20 }, table)).items.map(keyOf)).toEqual(['big-2#INC-000150']);
    // Assignee and customer: the assignee's partition filtered to the customer.
    expect((await listSocQueue({ sort: 'due', assignee: ana, tenantId: 'small', limit: 20 }, table)).items.map(keyOf)).toEqual(['small#INC-000002']);
    // The closed one left the tenant's queue too.
    expect((await follow({ sort: 'due', tenantId: 'big-2', limit: 100 })).ids).not.toContain('big-2#INC-000151');
  });

  it('refuses a cursor of another partition', async () => {
    const first = await listSocQueue({ sort: 'due', tenantId: 'big-1', limit: 1 }, table);
    expect(first.nextCursor).not.toBeNull();
    await expect(listSocQueue({ sort: 'due', tenantId: 'big-3', limit: 1, cursor: first.nextCursor! }, table)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(listSocQueue({ sort: 'due', limit: 1, cursor: first.nextCursor! }, table)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(listSocQueue({ sort: 'due', assignee: 'x', limit: 1, cursor: first.nextCursor! }, table)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});

describe('upgrade of open incidents stored before the partitions', () => {
  it('puts them in their tenant\'s and assignee\'s queues, once', async () => {
    const old = { ...incident('legacy', 1, 50, 'high'), assignee: 'carla@soc.example' };
    const item = itemOf(IncidentEntity, old);
    delete item.GSI4PK;
    await table.doc.send('PutItem', { TableName: NAME, Item: item });
    expect((await listSocQueue({ sort: 'due', tenantId: 'legacy', limit: 5 }, table)).items).toEqual([]);
    // Every incident stored without its queue entry gets one (those raw-written above, and this one).
    const first = await upgradeSocQueueIndexes(table);
    expect(first).toMatchObject({ tenantQueue: 1, resolvedMoved: 0 });
    expect(first.queueEntries).toBeGreaterThan(800);
    expect((await listSocQueue({ sort: 'due', tenantId: 'legacy', limit: 5 }, table)).items.map((i) => i.id)).toEqual([old.id]);
    expect((await listSocQueue({ sort: 'due', assignee: 'carla@soc.example', limit: 5 }, table)).items.map((i) => i.id)).toEqual([old.id]);
    expect(await upgradeSocQueueIndexes(table)).toEqual({ tenantQueue: 0, queueEntries: 0, resolvedMoved: 0 });
    expect(keys.socQueueTenantGsi4Pk('legacy')).toBe('TENANT#legacy#SOCQUEUE');
  });
});
