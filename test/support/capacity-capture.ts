/**
 * Request and capacity capture on a test's table client: every request the data layer sends through `table`
 * asks DynamoDB for `ReturnConsumedCapacity: 'TOTAL'` and is recorded with the RCU and WCU the engine
 * reports for it (read and write units; a total without the split is counted as read units for the read
 * operations and as write units otherwise), so a test can assert "one Query, ≤ N RCU" per page. Capacity
 * units as DynamoDB defines them:
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/read-write-operations.html
 */
import { wrapTableClient, type ConsumedCapacity, type DocumentClient, type TableRef } from '../../lambdas/data/table/client.js';
import { batchWriteAll } from '../../lambdas/data/table/dynamo-util.js';

/** One request sent through a captured table client: operation name, RCU and WCU consumed. */
export interface CapturedRequest {
  op: string;
  /** The index a Query or Scan read (absent: the base table). */
  index?: string;
  rcu: number;
  wcu: number;
}

const READS = new Set(['GetItem', 'Query', 'Scan', 'BatchGetItem', 'TransactGetItems']);

/** Wraps `table`'s client so every request it sends is appended to `into` (clear it with `into.length = 0`). */
export function captureCapacity(table: TableRef, into: CapturedRequest[]): void {
  wrapTableClient(table, (inner): DocumentClient => ({
    async send(operation, input) {
      const out = await inner.send(operation, { ...input, ReturnConsumedCapacity: 'TOTAL' } as never);
      const c = (out as { ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[] }).ConsumedCapacity;
      const caps = Array.isArray(c) ? c : c ? [c] : [];
      const read = READS.has(operation);
      const index = (input as { IndexName?: string }).IndexName;
      into.push({
        op: operation,
        ...(index ? { index } : {}),
        rcu: caps.reduce((a, x) => a + (x.ReadCapacityUnits ?? (read ? (x.CapacityUnits ?? 0) : 0)), 0),
        wcu: caps.reduce((a, x) => a + (x.WriteCapacityUnits ?? (read ? 0 : (x.CapacityUnits ?? 0))), 0),
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
