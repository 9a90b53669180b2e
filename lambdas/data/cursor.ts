/**
 * Opaque pagination cursors: base64url(JSON `{ s, k }`) where `k` is DynamoDB's LastEvaluatedKey and `s`
 * the partition the list was read from (e.g. `TENANT#acme#INCIDENTS`).
 *
 * Decoding is strict: wrong alphabet, bad JSON, unknown fields, non-string key values, a scope other than
 * the list being read, or any key not inside the tenant's key space → `ApiError('VALIDATION_FAILED')`
 * (400), so a forged cursor can neither crash the handler nor read another tenant's items.
 */
import * as z from 'zod';
import { ApiError } from '../domain/errors.js';
import { KEY_ATTRIBUTES } from './keys.js';

const KeyValue = z.string().min(1).max(1024);
const CursorPayload = z.strictObject({
  s: z.string().min(1).max(512),
  k: z.partialRecord(z.enum(KEY_ATTRIBUTES), KeyValue),
});

/** Encodes the LastEvaluatedKey of a query on partition `scope`; `undefined` → null (last page). */
export function encodeCursor(scope: string, lastEvaluatedKey: Record<string, unknown> | undefined): string | null {
  if (!lastEvaluatedKey) return null;
  return Buffer.from(JSON.stringify({ s: scope, k: lastEvaluatedKey }), 'utf8').toString('base64url');
}

function invalid(): never {
  throw new ApiError('VALIDATION_FAILED', 'invalid cursor', [{ path: 'query.cursor', message: 'invalid cursor' }]);
}

/**
 * Decodes a cursor for a query on partition `scope` whose item keys must all start with `tenantPrefix`.
 * Returns the ExclusiveStartKey. @throws ApiError VALIDATION_FAILED
 */
export function decodeCursor(cursor: string, scope: string, tenantPrefix: string): Record<string, string> {
  if (!/^[A-Za-z0-9_-]{1,2048}$/.test(cursor)) invalid();
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    invalid();
  }
  const parsed = CursorPayload.safeParse(json);
  if (!parsed.success || parsed.data.s !== scope) invalid();
  const k = parsed.data.k;
  const entries = Object.entries(k) as [string, string][];
  if (!k.PK || !k.SK || (k.GSI1PK === undefined) !== (k.GSI1SK === undefined)) invalid();
  for (const [name, value] of entries) {
    if (name === 'GSI1PK' ? value !== scope : name === 'PK' && !value.startsWith(tenantPrefix)) invalid();
  }
  // A base-table query's partition is the scope itself; a GSI1 query's partition is GSI1PK.
  if (k.GSI1PK === undefined && k.PK !== scope) invalid();
  return Object.fromEntries(entries);
}
