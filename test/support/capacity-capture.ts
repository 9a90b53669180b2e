/**
 * Request and capacity capture on a test's table client: every request the data layer sends through `table`
 * asks DynamoDB for `ReturnConsumedCapacity: 'TOTAL'` and is recorded with the RCU and WCU the engine
 * reports for it (read and write units; a total without the split is counted as read units for the read
 * operations and as write units otherwise), so a test can assert "one Query, ≤ N RCU" per page. Capacity
 * units as DynamoDB defines them:
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/read-write-operations.html
 */
import { wrapTableClient, type ConsumedCapacity, type DocumentClient, type TableRef } from '../../lambdas/data/client.js';

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
