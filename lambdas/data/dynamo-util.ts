/** Small helpers over the document client (`client.ts`) shared by the repositories (no business rules). */
import type { QueryInput, TableRef } from './client.js';
import { KEY_ATTRIBUTES } from './keys.js';

/**
 * Whether `err` is a cancelled TransactWriteItems whose action at `index` failed its condition
 * (any index when omitted).
 */
export function isConditionFailureInTransaction(err: unknown, index?: number): boolean {
  const e = err as { name?: string; CancellationReasons?: { Code?: string }[] } | null;
  const reasons = e?.name === 'TransactionCanceledException' ? (e.CancellationReasons ?? []) : null;
  if (!reasons) return false;
  if (index === undefined) return reasons.some((r) => r.Code === 'ConditionalCheckFailed');
  return reasons[index]?.Code === 'ConditionalCheckFailed';
}

/** Whether `err` is a transaction cancelled because another transaction touched the same item. */
export function isTransactionConflict(err: unknown): boolean {
  const e = err as { name?: string; CancellationReasons?: { Code?: string }[] } | null;
  return (
    e?.name === 'TransactionConflictException' ||
    (e?.name === 'TransactionCanceledException' && (e.CancellationReasons ?? []).some((r) => r.Code === 'TransactionConflict'))
  );
}

/** Whether `err` is a failed ConditionExpression of a single-item write. */
export function isConditionFailure(err: unknown): boolean {
  return (err as { name?: string } | null)?.name === 'ConditionalCheckFailedException';
}

/** Runs a Query to exhaustion (following LastEvaluatedKey) and returns all items. */
export async function queryAll(table: TableRef, input: Omit<QueryInput, 'TableName' | 'ExclusiveStartKey'>): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res = await table.doc.send('Query', { ...input, TableName: table.tableName, ExclusiveStartKey: start });
    out.push(...(res.Items ?? []));
    start = res.LastEvaluatedKey;
  } while (start);
  return out;
}

/** Copy of `item` without table keys, the `entity` marker and the TTL attribute. */
export function stripKeys<T>(item: Record<string, unknown>): T {
  const copy: Record<string, unknown> = { ...item };
  for (const k of [...KEY_ATTRIBUTES, 'entity', 'expiresAt']) delete copy[k];
  return copy as T;
}
