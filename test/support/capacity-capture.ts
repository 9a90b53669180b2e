/**
 * Request and capacity capture on a test's table client: every request the data layer sends through `table`
 * asks DynamoDB for `ReturnConsumedCapacity: 'TOTAL'` and is recorded with the RCU and WCU the engine
 * reports for it (read and write units; a total without the split is counted as read units for the read
 * operations and as write units otherwise), so a test can assert "one Query, ≤ N RCU" per page. Capacity
 * units as DynamoDB defines them:
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/read-write-operations.html
 */
import { expect } from 'vitest';
import { wrapTableClient, type ConsumedCapacity, type DocumentClient, type TableRef } from '../../lambdas/data/table/client.js';
import { batchWriteAll } from '../../lambdas/data/table/dynamo-util.js';

/** One request sent through a captured table client: operation name, RCU and WCU consumed. */
export interface CapturedRequest {
  op: string;
  /** The index a Query or Scan read (absent: the base table). */
  index?: string;
  rcu: number;
  wcu: number;
  /** When the request was sent and when its answer came back (`performance.now()`, ms). */
  startMs: number;
  endMs: number;
}

/**
 * Round trips on the way to an answer: the longest chain of `ops` in which each request was sent after the
 * one before it had its answer (requests sent together, e.g. in a `Promise.all`, count once). What an
 * answer's latency grows with, whatever the number of requests (0 for none).
 */
export function roundTrips(ops: readonly CapturedRequest[]): number {
  const sorted = [...ops].sort((a, b) => a.startMs - b.startMs);
  const depth: number[] = [];
  sorted.forEach((o, i) => {
    let before = 0;
    for (let j = 0; j < i; j++) if (sorted[j]!.endMs <= o.startMs) before = Math.max(before, depth[j]!);
    depth.push(before + 1);
  });
  return Math.max(0, ...depth);
}

const READS = new Set(['GetItem', 'Query', 'Scan', 'BatchGetItem', 'TransactGetItems']);

/** Wraps `table`'s client so every request it sends is appended to `into` (clear it with `into.length = 0`). */
export function captureCapacity(table: TableRef, into: CapturedRequest[]): void {
  wrapTableClient(table, (inner): DocumentClient => ({
    async send(operation, input) {
      const startMs = performance.now();
      const out = await inner.send(operation, { ...input, ReturnConsumedCapacity: 'TOTAL' } as never);
      const endMs = performance.now();
      const c = (out as { ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[] }).ConsumedCapacity;
      const caps = Array.isArray(c) ? c : c ? [c] : [];
      const read = READS.has(operation);
      const index = (input as { IndexName?: string }).IndexName;
      into.push({
        op: operation,
        ...(index ? { index } : {}),
        rcu: caps.reduce((a, x) => a + (x.ReadCapacityUnits ?? (read ? (x.CapacityUnits ?? 0) : 0)), 0),
        wcu: caps.reduce((a, x) => a + (x.WriteCapacityUnits ?? (read ? 0 : (x.CapacityUnits ?? 0))), 0),
        startMs,
        endMs,
      });
      return out;
    },
    destroy: () => inner.destroy(),
  }));
}

/**
 * `fn`'s result with the requests and RCU it consumed, as captured into `ops` by {@link captureCapacity}
 * (`ops` is cleared first, so only `fn`'s requests count).
 */
export async function measuredOn<T>(ops: CapturedRequest[], fn: () => Promise<T>): Promise<{ out: T; requests: number; rcu: number }> {
  ops.length = 0;
  const out = await fn();
  return { out, requests: ops.length, rcu: ops.reduce((a, o) => a + o.rcu, 0) };
}

/**
 * Writes `items` as they are (a test's bulk seed: thousands of devices or comments) with the data layer's own
 * BatchWriteItem loop (`batchWriteAll`: 25 a call, unprocessed items sent again with its backoff).
 */
export async function putItems(table: TableRef, items: readonly Record<string, unknown>[]): Promise<void> {
  await batchWriteAll(table, items.map((Item) => ({ PutRequest: { Item } })));
}

/** What one measured page held and cost: its item count, requests and RCU (see {@link measuredOn}). */
export interface MeasuredPage {
  n: number;
  requests: number;
  rcu: number;
}

/**
 * Pages through a cursor-paged read: `fetchPage(undefined)` first, then `fetchPage(cursor)` with each page's
 * `nextCursor` until a page has none or `maxPages` pages were read (each page measured, as by {@link measuredOn}).
 * @returns every item read, in page order, and what each page held and cost, in page order.
 */
export async function pageThrough<T>(
  fetchPage: (cursor: string | undefined) => Promise<{ out: { items: T[]; nextCursor?: string | null }; requests: number; rcu: number }>,
  maxPages: number,
): Promise<{ items: T[]; pages: MeasuredPage[] }> {
  const items: T[] = [];
  const pages: MeasuredPage[] = [];
  let cursor: string | undefined;
  do {
    const m = await fetchPage(cursor);
    pages.push({ n: m.out.items.length, requests: m.requests, rcu: m.rcu });
    items.push(...m.out.items);
    cursor = m.out.nextCursor ?? undefined;
  } while (cursor && pages.length < maxPages);
  return { items, pages };
}

/** Asserts that every page of `pages` took at most `maxRequests` requests and `maxRcu` read units (the page's index in the message). */
export function expectPagesWithin(pages: readonly MeasuredPage[], maxRequests: number, maxRcu: number): void {
  pages.forEach((p, i) => {
    expect(p.requests, `page ${i} requests`).toBeLessThanOrEqual(maxRequests);
    expect(p.rcu, `page ${i} RCU`).toBeLessThanOrEqual(maxRcu);
  });
}
