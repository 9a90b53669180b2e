/**
 * "Nothing written" for tests: a SHA-256 (hex) of every item of a table, read with a test-only Scan (request
 * paths never Scan) through the AWS SDK's own client, so two snapshots are equal exactly when no item was
 * added, removed or changed. Items are sorted, and map members sorted at every depth: a DynamoDB map (M) has
 * no order, and the local engine answers its members in any.
 */
import { createHash } from 'node:crypto';
import { ScanCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';

/** JSON of `v` with every object's keys sorted. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

/** Hash of every item of `table` (all Scan pages, consistent reads); see the module doc. */
export async function tableSnapshot(raw: DynamoDBClient, table: string): Promise<string> {
  const items: string[] = [];
  let start: Record<string, never> | undefined;
  do {
    const r = await raw.send(new ScanCommand({ TableName: table, ConsistentRead: true, ExclusiveStartKey: start }));
    for (const it of r.Items ?? []) items.push(canonicalJson(it));
    start = r.LastEvaluatedKey as Record<string, never> | undefined;
  } while (start);
  return createHash('sha256').update(items.sort().join('\n')).digest('hex');
}
