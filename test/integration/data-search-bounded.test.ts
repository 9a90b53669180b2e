/**
 * A multi-word text search reads a bounded number of requests per page whatever the words' frequencies, newest
 * matches first, complete across pages (`searchIncidents` in lambdas/data/incident-search.ts,
 * docs/data-model.md#search, issue 28): on dynoxide, every request counted with its consumed capacity.
 *  - a common long word with a rare short one: the first page is full (the 20 newest matches) in ≤ 10
 *    requests; reading the long word's partition alone (as before) left it with 16 matches after 8 Queries;
 *  - two common words whose intersection is rare: every page ≤ 10 requests and ≤ 50 RCU, and following the
 *    cursor returns exactly every match, newest first (never an older one ahead of a newer one).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTable, startDynamo, type RunningDynamo } from '../../scripts/local/dynamodb.js';
import { createDocumentClient, type TableRef } from '../../lambdas/data/table/client.js';
import { captureCapacity, type CapturedRequest } from '../support/capacity-capture.js';
import { IncidentEntity, itemOf } from '../../lambdas/data/entities.js';
import { searchIncidents, searchTokenItems } from '../../lambdas/data/incident-search.js';
import { newIncident } from '../../lambdas/domain/incidents.js';
import type { Incident } from '../../lambdas/contract/schemas.js';

let dynamo: RunningDynamo;
let table: TableRef;
const NAME = 'vigia-search-bounded';
const NOW = Date.parse('2026-06-01T12:00:00.000Z');
const HOUR = 3_600_000;
/** Every request of the table: operation, RCU. */
const calls: CapturedRequest[] = [];
const incidents: Incident[] = [];

async function put(items: Record<string, unknown>[]): Promise<void> {
  for (let k = 0; k < items.length; k += 25) {
    await table.doc.send('BatchWriteItem', { RequestItems: { [NAME]: items.slice(k, k + 25).map((Item) => ({ PutRequest: { Item } })) } });
  }
}

beforeAll(async () => {
  dynamo = await startDynamo({ port: 0 });
  await ensureTable(dynamo.endpoint, NAME);
  table = { doc: createDocumentClient({ endpoint: dynamo.endpoint, region: 'eu-west-1', credentials: { accessKeyId: 'l', secretAccessKey: 'l' } }), tableName: NAME };
  // 2,000 incidents over ~83 days, one an hour; every 100th (20 in all, spread evenly) also has the word "vpn",
  // every 4th of the others alternates between "remoto" and "caido" (the second scenario's common words).
  const items: Record<string, unknown>[] = [];
  for (let n = 1; n <= 2000; n++) {
    const rare = n % 100 === 50;
    const title = rare ? 'Controlador VPN remoto caído' : n % 2 ? 'Controlador remoto' : 'Controlador caído';
    const inc = newIncident('acme', n, { title, description: 'x', severity: 'high', category: 'general' }, 'r', new Date(NOW - n * HOUR).toISOString());
    incidents.push(inc);
    items.push(itemOf(IncidentEntity, inc), ...searchTokenItems(inc));
  }
  await put(items);
  captureCapacity(table, calls);
}, 180_000);
afterAll(async () => {
  table?.doc.destroy();
  await dynamo?.stop();
});

/** Follows the cursor of search `q` to its end; each page's requests and RCU. */
async function follow(q: string, limit: number): Promise<{ ids: string[]; pages: { n: number; requests: number; rcu: number }[] }> {
  const ids: string[] = [];
  const pages: { n: number; requests: number; rcu: number }[] = [];
  let cursor: string | undefined;
  do {
    calls.length = 0;
    const page = await searchIncidents(table, 'acme', { q, limit, cursor });
    pages.push({ n: page.items.length, requests: calls.length, rcu: calls.reduce((s, c) => s + c.rcu, 0) });
    ids.push(...page.items.map((i) => i.id));
    cursor = page.nextCursor ?? undefined;
  } while (cursor && pages.length < 200);
  return { ids, pages };
}

describe('multi-word search, bounded per page', () => {
  it('a common long word with a rare short one: the first page holds the 20 newest matches in ≤ 10 requests', async () => {
    const want = incidents.filter((i) => i.title.includes('VPN')).map((i) => i.id);
    expect(want).toHaveLength(20);
    calls.length = 0;
    const page = await searchIncidents(table, 'acme', { q: 'controlador vpn', limit: 20 });
    expect(calls.length).toBeLessThanOrEqual(10);
    expect(calls.reduce((s, c) => s + c.rcu, 0)).toBeLessThanOrEqual(50);
    expect(page.items.map((i) => i.id)).toEqual(want);
    expect(page.nextCursor).toBeNull();
  });

  it('two common words whose intersection is rare: ≤ 10 requests and ≤ 50 RCU a page, every match newest first', async () => {
    const want = incidents.filter((i) => i.title.includes('remoto') && i.title.includes('caído')).map((i) => i.id);
    expect(want).toHaveLength(20);
    const { ids, pages } = await follow('remoto caido', 7);
    expect(ids).toEqual(want);
    for (const p of pages) {
      expect(p.requests).toBeLessThanOrEqual(10);
      expect(p.rcu).toBeLessThanOrEqual(50);
    }
  }, 60_000);
});
