/** Small helpers over lib-dynamodb shared by the repositories (no business rules). */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { TableRef } from './client.js';
import { KEY_ATTRIBUTES } from './keys.js';

/**
 * Whether `err` is a cancelled TransactWriteItems whose action at `index` failed its condition
 * (any index when omitted).
 */
export function isConditionFailureInTransaction(err: unknown, index?: number): boolean {
  const reasons =
    err instanceof TransactionCanceledException || (err as { name?: string } | null)?.name === 'TransactionCanceledException'
      ? ((err as TransactionCanceledException).CancellationReasons ?? [])
      : null;
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
export async function queryAll(table: TableRef, input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res = await table.doc.send(new QueryCommand({ ...input, TableName: table.tableName, ExclusiveStartKey: start }));
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
