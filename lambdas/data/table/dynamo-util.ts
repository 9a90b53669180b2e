/**
 * The write and read helpers every repository uses (no business rules): the DynamoDB error predicates,
 * ONE conditional-write helper, ONE helper that retries a lost race (`withRetries`, short random waits:
 * `backoffMs`), a Query run to exhaustion, and ONE BatchGetItem / BatchWriteItem of any number of keys or
 * requests (`batchGetAll`, `batchWriteAll`), whose unprocessed keys and requests — throttling, not races —
 * wait with the clients' own exponential backoff (`backoffDelayMs` of THE retry policy, retry.ts).
 */
import type { AttributeMap, BatchWriteRequest, Operations, QueryInput, TableRef } from './client.js';
import { backoffDelayMs, DEFAULT_RETRY_POLICY } from './retry.js';

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

/** Keys of one BatchGetItem call (DynamoDB's limit). */
export const BATCH_GET_MAX_KEYS = 100;
/** Requests of one BatchWriteItem call (DynamoDB's limit). */
export const BATCH_WRITE_MAX_REQUESTS = 25;
/** Calls per chunk before a batch read or write with unprocessed keys or requests fails. */
export const BATCH_ATTEMPTS = DEFAULT_RETRY_POLICY.maxAttempts;

/**
 * The wait before call `attempt` (≥ 1) of a chunk with unprocessed keys or requests: exponential backoff
 * with full jitter, the clients' policy (retry.ts) — AWS: "If DynamoDB returns any unprocessed items, you
 * should retry the batch operation on those items. However, we strongly recommend that you use an
 * exponential backoff algorithm" (BatchGetItem / BatchWriteItem API reference).
 */
const unprocessedWait = (attempt: number): Promise<void> => new Promise((r) => setTimeout(r, backoffDelayMs(attempt, DEFAULT_RETRY_POLICY)));
/** Batch calls in flight at once (one container's bounded sockets, see `mapLimit`). */
const BATCH_CONCURRENCY = 8;

/**
 * The items of `keyList` (any number, of this table), read with BatchGetItem: calls of at most 100 keys
 * (`BATCH_GET_MAX_KEYS`), at most 8 in flight; the keys a call leaves unprocessed (throttling, the 16 MB
 * response limit) are asked again after `unprocessedWait`, at most `BATCH_ATTEMPTS` calls per chunk. Items come back
 * in no particular order; keys with no item are simply absent. `projection` / `names` / `consistent` are
 * BatchGetItem's `ProjectionExpression`, `ExpressionAttributeNames`, `ConsistentRead`
 * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchGetItem.html).
 * @throws Error `BatchGetItem: <n> keys still unprocessed after <BATCH_ATTEMPTS> calls` (nothing is returned half-read).
 */
export async function batchGetAll(
  table: TableRef,
  keyList: readonly AttributeMap[],
  opts: { projection?: string; names?: Record<string, string>; consistent?: boolean } = {},
): Promise<AttributeMap[]> {
  const chunks: AttributeMap[][] = [];
  for (let i = 0; i < keyList.length; i += BATCH_GET_MAX_KEYS) chunks.push(keyList.slice(i, i + BATCH_GET_MAX_KEYS));
  const shape = {
    ...(opts.projection ? { ProjectionExpression: opts.projection } : {}),
    ...(opts.names ? { ExpressionAttributeNames: opts.names } : {}),
    ...(opts.consistent ? { ConsistentRead: true } : {}),
  };
  const got = await mapLimit(chunks, BATCH_CONCURRENCY, async (chunk) => {
    const out: AttributeMap[] = [];
    let pending: AttributeMap[] = chunk;
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt === BATCH_ATTEMPTS) throw new Error(`BatchGetItem: ${pending.length} keys still unprocessed after ${BATCH_ATTEMPTS} calls`);
      if (attempt > 0) await unprocessedWait(attempt);
      const res = await table.doc.send('BatchGetItem', { RequestItems: { [table.tableName]: { Keys: pending, ...shape } } });
      out.push(...(res.Responses?.[table.tableName] ?? []));
      pending = res.UnprocessedKeys?.[table.tableName]?.Keys ?? [];
    }
    return out;
  });
  return got.flat();
}

/**
 * Sends `requests` (any number of PutRequest / DeleteRequest of this table) with BatchWriteItem: calls of at
 * most 25 (`BATCH_WRITE_MAX_REQUESTS`), one after the other; the requests a call leaves unprocessed are sent
 * again after `unprocessedWait`, at most `BATCH_ATTEMPTS` calls per chunk. Not atomic: a failure leaves the chunks
 * before it written (callers use it for idempotent writes only)
 * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchWriteItem.html).
 * @throws Error `BatchWriteItem: <n> requests still unprocessed after <BATCH_ATTEMPTS> calls`.
 */
export async function batchWriteAll(table: TableRef, requests: readonly BatchWriteRequest[]): Promise<void> {
  for (let i = 0; i < requests.length; i += BATCH_WRITE_MAX_REQUESTS) {
    let pending: BatchWriteRequest[] = requests.slice(i, i + BATCH_WRITE_MAX_REQUESTS);
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt === BATCH_ATTEMPTS) throw new Error(`BatchWriteItem: ${pending.length} requests still unprocessed after ${BATCH_ATTEMPTS} calls`);
      if (attempt > 0) await unprocessedWait(attempt);
      const res = await table.doc.send('BatchWriteItem', { RequestItems: { [table.tableName]: pending } });
      pending = res.UnprocessedItems?.[table.tableName] ?? [];
    }
  }
}
