/**
 * The one cursor codec of the data layer: every list's opaque pagination cursor is base64url(JSON) of one of
 * three payloads, encoded and decoded here only.
 *
 * - **Key cursors** `{ s, k }`: `k` is DynamoDB's LastEvaluatedKey (restricted to the list's key attributes)
 *   and `s` the list it belongs to (a partition such as `TENANT#acme#INCIDENTS`, or a list id naming index,
 *   partition and range). {@link encodeCursor}/{@link decodeCursor} for a tenant's lists (`paging.ts`'s
 *   `queryPage`, activity, attachments, maintenance windows) and the tenant registry (`PK = TENANTS`: the
 *   admin tenant list, analytics, and the digest and monthly report jobs' internal page cursor);
 *   {@link encodeKeyCursor}/{@link decodeKeyCursor} for other index lists (audit, SOC queue, incident lists,
 *   alarm console, access requests).
 * - **Position cursors** `{ p }` or `{ s, p }`: the sort-key position of the last item seen, for lists read
 *   by position rather than by ExclusiveStartKey (incident, comment, alarm and Office 365 user search, a
 *   device's alarms, devices by IP): {@link encodePositionCursor}/{@link decodePositionCursor}.
 *
 * Decoding is strict: wrong alphabet, over 2,048 characters, bad JSON, unknown fields, non-string key values, a
 * scope other than the list being read, any key not inside the tenant's key space, or a key or position the
 * list's own check refuses → `ApiError('VALIDATION_FAILED')` (400, message `invalid cursor`, detail
 * `{ path: 'query.cursor', message: 'invalid cursor' }`: {@link invalidCursor}), so a forged cursor can neither
 * crash the handler nor read another tenant's items. The cursors are not signed: a hand-made cursor that passes
 * these checks only starts the same list, of the same tenant, at another key.
 *
 * Not here: `GET /team`'s cursor (lambdas/domain/team.ts) wraps Cognito's NextToken, not a DynamoDB key.
 */
import * as z from 'zod';
import { ApiError } from '../../domain/errors.js';
import { KEY_ATTRIBUTES } from './keys.js';

const KeyValue = z.string().min(1).max(1024);
const CursorPayload = z.strictObject({
  s: z.string().min(1).max(512),
  k: z.partialRecord(z.enum(KEY_ATTRIBUTES), KeyValue),
});

/** Encodes the LastEvaluatedKey of a query on partition `scope`; `undefined` → null (last page). */
export function encodeCursor(scope: string, lastEvaluatedKey: Record<string, unknown> | undefined): string | null {
  if (!lastEvaluatedKey) return null;
  return encodePayload({ s: scope, k: lastEvaluatedKey });
}

/** The one refusal of a bad cursor: 400 VALIDATION_FAILED at `query.cursor`. @throws ApiError always */
export function invalidCursor(message = 'invalid cursor'): never {
  throw new ApiError('VALIDATION_FAILED', 'invalid cursor', [{ path: 'query.cursor', message }]);
}
const invalid = (): never => invalidCursor();

/** base64url(JSON) of a cursor payload. */
function encodePayload(payload: unknown): string {
  return Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
}

/** The payload of `cursor` in `schema`'s shape. @throws ApiError VALIDATION_FAILED on any malformation */
function decodePayload<T>(cursor: string, schema: z.ZodType<T>): T {
  if (!/^[A-Za-z0-9_-]{1,2048}$/.test(cursor)) invalid();
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    invalid();
  }
  const parsed = schema.safeParse(json);
  return parsed.success ? parsed.data : invalid();
}

const KeyCursorPayload = z.strictObject({ s: z.string().min(1).max(1024), k: z.record(z.string().min(1).max(16), KeyValue) });

/**
 * The key cursor of an index list `scope` after the item whose key is `key` (LastEvaluatedKey or the last item
 * of the page): only `keyNames` are kept. `undefined` → null (last page).
 */
export function encodeKeyCursor(scope: string, keyNames: readonly string[], key: Record<string, unknown> | undefined): string | null {
  if (!key) return null;
  return encodePayload({ s: scope, k: Object.fromEntries(keyNames.map((n) => [n, String(key[n])])) });
}

/** What a key cursor must match to be accepted (see {@link decodeKeyCursor}). */
export interface KeyCursorRule {
  /** The list the cursor was made for (`encodeKeyCursor`'s `scope`). */
  readonly scope: string;
  /** Exactly the key attributes the cursor carries. */
  readonly keyNames: readonly string[];
  /** The index's partition key attribute and the partition being read: `k[partitionKey]` must equal it. */
  readonly partitionKey: string;
  readonly partition: string;
  /** Every item of the list has a `PK` starting with this (e.g. `TENANT#`, `TENANT#acme#`). */
  readonly pkPrefix: string;
  /** Extra check of the decoded key (e.g. the sort key inside the list's from/to range). */
  readonly accept?: (k: Readonly<Record<string, string>>) => boolean;
}

/**
 * The ExclusiveStartKey of a key cursor made by {@link encodeKeyCursor} for the list `rule` describes.
 * @throws ApiError VALIDATION_FAILED for a malformed cursor or one of another list, partition or key space
 */
export function decodeKeyCursor(cursor: string, rule: KeyCursorRule): Record<string, string> {
  const { s, k } = decodePayload(cursor, KeyCursorPayload);
  const names = Object.keys(k).sort().join();
  if (s !== rule.scope || names !== [...new Set(rule.keyNames)].sort().join()) invalid();
  if (k[rule.partitionKey] !== rule.partition || !k.PK?.startsWith(rule.pkPrefix)) invalid();
  if (rule.accept && !rule.accept(k)) invalid();
  return k;
}

const PositionCursorPayload = z.strictObject({ s: z.string().min(1).max(1024).optional(), p: z.string().min(1).max(1024) });

/** The position cursor after sort-key position `position`, of list `scope` when the position alone does not name the list. */
export function encodePositionCursor(position: string, scope?: string): string {
  return encodePayload(scope === undefined ? { p: position } : { s: scope, p: position });
}

/**
 * The position of a cursor made by {@link encodePositionCursor} with the same `scope` (none = none), accepted
 * only when `accept(position)` holds (its shape, the list's range, the device it belongs to…).
 * @throws ApiError VALIDATION_FAILED otherwise
 */
export function decodePositionCursor(cursor: string, accept: (position: string) => boolean, scope?: string): string {
  const { s, p } = decodePayload(cursor, PositionCursorPayload);
  if (s !== scope || !accept(p)) invalid();
  return p;
}

/**
 * Decodes a cursor made by {@link encodeCursor} for a query on partition `scope` (the base table's `PK`, or a
 * GSI1 list's `GSI1PK`) whose item keys must all start with `tenantPrefix`, accepted only when `accept(key)`
 * holds as well (e.g. the sort key on the side of the key condition the list reads). Returns the
 * ExclusiveStartKey (`PK`, `SK`, and `GSI1PK`/`GSI1SK` for a GSI1 list).
 * @throws ApiError VALIDATION_FAILED for a malformed cursor, or one of another list, tenant or range
 */
export function decodeCursor(cursor: string, scope: string, tenantPrefix: string, accept?: (k: Readonly<Record<string, string>>) => boolean): Record<string, string> {
  const parsed = decodePayload(cursor, CursorPayload);
  if (parsed.s !== scope) invalid();
  const k = parsed.k;
  const entries = Object.entries(k) as [string, string][];
  if (!k.PK || !k.SK || (k.GSI1PK === undefined) !== (k.GSI1SK === undefined)) invalid();
  for (const [name, value] of entries) {
    if (name === 'GSI1PK' ? value !== scope : name === 'PK' && !value.startsWith(tenantPrefix)) invalid();
  }
  // A base-table query's partition is the scope itself; a GSI1 query's partition is GSI1PK.
  if (k.GSI1PK === undefined && k.PK !== scope) invalid();
  const start = Object.fromEntries(entries);
  if (accept && !accept(start)) invalid();
  return start;
}
