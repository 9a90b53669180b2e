/**
 * The write and read helpers every repository uses (no business rules): the DynamoDB error predicates,
 * ONE conditional-write helper, ONE retry helper with ONE backoff policy, and a Query run to exhaustion.
 */
import type { Operations, QueryInput, TableRef } from './client.js';

type Reasons = { Code?: string }[];
const cancellationReasons = (err: unknown): Reasons | null => {
  const e = err as { name?: string; CancellationReasons?: Reasons } | null;
  return e?.name === 'TransactionCanceledException' ? (e.CancellationReasons ?? []) : null;
};

/**
 * Whether `err` is a cancelled TransactWriteItems whose action at `index` failed its condition
 * (any index when omitted).
 */
export function isConditionFailureInTransaction(err: unknown, index?: number): boolean {
  const reasons = cancellationReasons(err);
  if (!reasons) return false;
  if (index === undefined) return reasons.some((r) => r.Code === 'ConditionalCheckFailed');
  return reasons[index]?.Code === 'ConditionalCheckFailed';
}

/** Whether `err` is a transaction cancelled because another transaction touched the same item. */
export function isTransactionConflict(err: unknown): boolean {
  return (err as { name?: string } | null)?.name === 'TransactionConflictException' || (cancellationReasons(err) ?? []).some((r) => r.Code === 'TransactionConflict');
}

/** Whether `err` is a failed ConditionExpression of a single-item write. */
export function isConditionFailure(err: unknown): boolean {
  return (err as { name?: string } | null)?.name === 'ConditionalCheckFailedException';
}

/**
 * One conditional single-item write (PutItem or UpdateItem with a `ConditionExpression`): its output, or
 * null when the condition did not hold (nothing written). Other errors propagate.
 */
export async function writeIf<O extends 'PutItem' | 'UpdateItem'>(
  table: TableRef,
  operation: O,
  input: Omit<Operations[O]['input'], 'TableName'> & { ConditionExpression: string },
): Promise<Operations[O]['output'] | null> {
  try {
    return await table.doc.send(operation, { ...input, TableName: table.tableName } as Operations[O]['input']);
  } catch (e) {
    if (isConditionFailure(e)) return null;
    throw e;
  }
}

/** Returned by an attempt of `withRetries` that lost a race and should be tried again. */
export const RETRY = Symbol('retry');

/** Attempts `withRetries` makes by default. */
export const DEFAULT_ATTEMPTS = 8;

/**
 * The one backoff policy between attempts: a random wait in [0, 10 × attempt) ms (attempt = 1, 2, …),
 * so writers that collided spread out, and a short race costs a few milliseconds.
 */
export function backoffMs(attempt: number): number {
  return Math.random() * 10 * attempt;
}

/**
 * Runs `attempt` until it returns something other than `RETRY`, at most `attempts` times, waiting
 * `backoffMs` between tries. A `TransactionConflict` (another transaction on the same items) thrown by an
 * attempt counts as `RETRY`; any other error propagates at once.
 * @throws Error `<what>: lost <attempts> races to concurrent writes` (cause: the last conflict, if any).
 */
export async function withRetries<T>(what: string, attempt: (n: number) => Promise<T | typeof RETRY>, attempts: number = DEFAULT_ATTEMPTS): Promise<T> {
  let last: unknown;
  for (let n = 0; n < attempts; n++) {
    if (n > 0) await new Promise((r) => setTimeout(r, backoffMs(n)));
    try {
      const out = await attempt(n);
      if (out !== RETRY) return out;
    } catch (e) {
      if (!isTransactionConflict(e)) throw e;
      last = e;
    }
  }
  throw new Error(`${what}: lost ${attempts} races to concurrent writes`, { cause: last });
}

/**
 * Runs a Query to exhaustion (following LastEvaluatedKey) and returns all items; with `Select: 'COUNT'`
 * the items are empty and `count` sums the matches.
 */
export async function queryAll(table: TableRef, input: Omit<QueryInput, 'TableName' | 'ExclusiveStartKey'>): Promise<Record<string, unknown>[] & { count: number }> {
  const out = Object.assign([] as Record<string, unknown>[], { count: 0 });
  let start: Record<string, unknown> | undefined;
  do {
    const res = await table.doc.send('Query', { ...input, TableName: table.tableName, ExclusiveStartKey: start });
    out.push(...(res.Items ?? []));
    out.count += res.Count ?? 0;
    start = res.LastEvaluatedKey;
  } while (start);
  return out;
}

/**
 * A `SET #a0 = :a0, …` clause for `attrs` (attribute name → value, in insertion order), with the
 * `ExpressionAttributeNames`/`ExpressionAttributeValues` it needs. `set` is `''` when `attrs` is empty.
 */
export function setClause(attrs: Record<string, unknown>): {
  set: string;
  names: Record<string, string>;
  values: Record<string, unknown>;
} {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const parts = Object.entries(attrs).map(([k, v], i) => {
    names[`#a${i}`] = k;
    values[`:a${i}`] = v;
    return `#a${i} = :a${i}`;
  });
  return { set: parts.length ? `SET ${parts.join(', ')}` : '', names, values };
}

/**
 * Runs `fn` over `items` with at most `n` in flight, keeping order: the bound on concurrent requests of a
 * read that fans out per item (one Lambda container holds a bounded number of sockets; thousands at once
 * end in EMFILE / ECONNRESET).
 */
export async function mapLimit<T, R>(items: readonly T[], n: number, fn: (x: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!, i);
      }
    }),
  );
  return out;
}
