/**
 * What a page of the SOC queue (`GET /soc/queue`, `listSocQueue` in lambdas/data/incidents.ts) consumes on the
 * real local engine, and why it does not grow with the tenant (docs/data-model.md#soc-queue, issue 14):
 *  - the unfiltered page is ONE Query of GSI2 `SOCQUEUE` with `Limit` = the page size, so it reads exactly the
 *    entries it returns (a consumed-capacity figure counts every entry read, returned or not);
 *  - a Query's RCU is the size of those entries summed and rounded up to 4 KB (0.5 RCU a unit, eventually
 *    consistent), so the page's cost depends only on how big its 20 incident items are. The bench's oldest-due
 *    open incidents (`scripts/bench/scale-data.ts`) made 16,334 bytes at ×1 and 16,412 at ×6 (16,500 at ×100):
 *    4 against 5 units, across the 16 KB boundary. Open incidents no longer store their null attributes
 *    (`omitNull` of `IncidentEntity`: no assignee, resolution, closure or SLA result yet), ~1 KB less a page,
 *    and both pages are 4 units.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTable, startDynamo, type RunningDynamo } from '../../scripts/local/dynamodb.js';
import { createDocumentClient, wrapTableClient, type ConsumedCapacity, type DocumentClient, type TableRef } from '../../lambdas/data/table/client.js';
import { IncidentEntity, itemOf, recordOf } from '../../lambdas/data/entities.js';
import { getIncident, listSocQueue } from '../../lambdas/data/incidents.js';
import { keys } from '../../lambdas/data/table/keys.js';
import { newIncident } from '../../lambdas/domain/incidents.js';
import { scaleItems, scaleSpec } from '../../scripts/bench/scale-data.js';

let dynamo: RunningDynamo;
const now = new Date('2026-11-26T05:00:00.000Z');
const PAGE = 20;
const clients: DocumentClient[] = [];

beforeAll(async () => {
  dynamo = await startDynamo({ port: 0 });
});
afterAll(async () => {
  for (const c of clients) c.destroy();
  await dynamo?.stop();
});

/** One read a page made: its operation, the index it read (none: the base table) and the RCU it consumed. */
interface Read { op: string; index?: string; rcu: number }

/** A fresh table whose client asks every request for its consumed capacity; `reads` lists every request's. */
async function capturingTable(name: string): Promise<{ table: TableRef; reads: Read[] }> {
  await ensureTable(dynamo.endpoint, name);
  const table: TableRef = { doc: createDocumentClient({ endpoint: dynamo.endpoint, region: 'eu-west-1', credentials: { accessKeyId: 'l', secretAccessKey: 'l' } }), tableName: name };
  const reads: Read[] = [];
  wrapTableClient(table, (inner): DocumentClient => ({
    async send(operation, input) {
      const out = await inner.send(operation, { ...input, ReturnConsumedCapacity: 'TOTAL' } as never);
      const c = (out as { ConsumedCapacity?: ConsumedCapacity }).ConsumedCapacity;
      const index = (input as { IndexName?: string }).IndexName;
      reads.push({ op: operation, ...(index ? { index } : {}), rcu: c?.ReadCapacityUnits ?? c?.CapacityUnits ?? NaN });
      return out;
    },
    destroy: () => inner.destroy(),
  }));
  clients.push(table.doc);
  return { table, reads };
}

/** The `n` oldest-due entries of the SOC queue of the bench's scale tenant of `factor` (generated, not written). */
function queueHead(factor: number, n: number): Record<string, unknown>[] {
  const open: Record<string, unknown>[] = [];
  for (const item of scaleItems(scaleSpec(factor), now)) if (item.GSI2PK === keys.SOCQUEUE_GSI2PK) open.push(item);
  return open.sort((a, b) => (String(a.GSI2SK) < String(b.GSI2SK) ? -1 : 1)).slice(0, n);
}

/**
 * The first unfiltered SOC queue page of `items` written to a fresh table, with the every-tenant tab counts in
 * their 8 shards: the RCU of its page Query, of its tab-counts read, the page's bytes and how many entries it held.
 */
async function firstPage(name: string, items: Record<string, unknown>[]): Promise<{ rcu: number; countsRcu: number; bytes: number; returned: number; reads: Read[] }> {
  const { table, reads } = await capturingTable(name);
  const shards = Array.from({ length: 8 }, (_, n) => ({ ...keys.socQueueCount(keys.SOCQUEUE_COUNT_PK, n), open: 3 + n, resolved: n }));
  const all = [...items, ...shards];
  for (let k = 0; k < all.length; k += 25) {
    await table.doc.send('BatchWriteItem', { RequestItems: { [name]: all.slice(k, k + 25).map((Item) => ({ PutRequest: { Item } })) } });
  }
  reads.length = 0;
  // The queue by due time reads these incident items; the ranked order reads their entries (copies, the same size).
  const page = await listSocQueue({ limit: PAGE, sort: 'due' }, table);
  expect(page.counts).toEqual({ open: 3 * 8 + 28, resolved: 28 });
  const onIndex = reads.filter((r) => r.index);
  const counts = reads.filter((r) => !r.index);
  expect(onIndex).toHaveLength(1);
  expect(counts).toHaveLength(1);
  return { rcu: onIndex[0]!.rcu, countsRcu: counts[0]!.rcu, bytes: Buffer.byteLength(JSON.stringify(page.items)), returned: page.items.length, reads: [...reads] };
}

describe('SOC queue page capacity (dynoxide)', () => {
  it('costs the same for the bench tenant at ×1 and ×6 (the same 20 entries read; items without their nulls)', async () => {
    // 5 entries past the page: the Query must stop at the page (Limit), not read them.
    const [small, big] = [queueHead(1, PAGE + 5), queueHead(6, PAGE + 5)];
    const [a, b] = [await firstPage('soc-x1', small), await firstPage('soc-x6', big)];
    expect(a.returned).toBe(PAGE);
    expect(b.returned).toBe(PAGE);
    // 4 KB units of 0.5 RCU: 20 open incidents of ~770 bytes are 4 units; with their null attributes stored
    // the ×6 page was 16,412 bytes, 5 units (2.5 RCU) against 2 at ×1.
    expect(a.rcu).toBe(2);
    expect(b.rcu).toBe(a.rcu);
  }, 120_000);

  it('reads the tab counts of every tenant (8 shards) for 0.5 RCU, so the page stays within its size in 4 KB units + 1 RCU', async () => {
    // The bench's list rule (docs/benchmarks.md, dynamodb.list-cost). The 8 shards share one partition: one Query
    // returning a few hundred bytes is one 4 KB unit (0.5 RCU); a BatchGetItem of the 8 keys was 0.5 RCU per key
    // (4 RCU), which made the page 6.5–7 RCU against a limit of 5.
    const p = await firstPage('soc-counts', queueHead(1, PAGE));
    expect(p.reads.map((r) => r.op).sort()).toEqual(['Query', 'Query']);
    expect(p.countsRcu).toBe(0.5);
    const total = p.reads.reduce((n, r) => n + r.rcu, 0);
    expect(total).toBeLessThanOrEqual(Math.ceil(p.bytes / 4096) + 1);
  }, 120_000);

  it('stores an open incident without its null attributes and reads it back with them null', async () => {
    const { table } = await capturingTable('soc-nulls');
    const incident = newIncident('acme', 1, { title: 'Acceso sospechoso', description: 'Detalle.', severity: 'high', category: 'general' }, 'ana@acme.example', now.toISOString());
    const item = itemOf(IncidentEntity, incident);
    for (const a of IncidentEntity.omitNull ?? []) expect(item, a).not.toHaveProperty(a);
    // closureRequested stays stored when false: the SLA upgrade finds the items without it (migrations.ts).
    expect(item.closureRequested).toBe(false);
    await table.doc.send('PutItem', { TableName: table.tableName, Item: item });
    expect(await getIncident('acme', incident.id, table)).toEqual(incident);
    expect(recordOf(IncidentEntity, item)).toEqual(incident);
  });
});
