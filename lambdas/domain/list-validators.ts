/**
 * Validators of the tenant-scoped lists the dashboard polls (docs/api.md#conditional-requests): a list row of
 * the route table with `validatedBy` is answered with a weak ETag made of the tenant's list marker of its
 * records (`LIST_MARKERS`, lambdas/data/aggregates.ts: it moves with every write of such a record) and a
 * digest of what else decides the answer (operation, tenant, validated query and path, caller). The HTTP layer
 * (lambdas/http/api.ts) reads the marker BEFORE the list, so the list is at least as new as the marker the ETag
 * names, and answers `304 Not Modified` when `If-None-Match` still holds it — one read of the marker.
 * Entity tags: RFC 9110 section 8.8.3; weak comparison for `If-None-Match`: section 13.1.2.
 */
import { createHash } from 'node:crypto';

/** What identifies one list request's answer besides the records (canonical JSON of it, hashed). */
export interface ListRequestKey {
  operationId: string;
  tenantId: string;
  /** The query after the row's schema (defaults applied). */
  query: unknown;
  /** The path parameters after the row's schema. */
  params: unknown;
  /** The caller: subject and groups (what a caller may see can differ). */
  sub: string;
  groups: readonly string[];
}

/** JSON with object keys sorted at every level (the same value gives the same text). */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v)
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/** The request digest of a list ETag: 16 hex digits of SHA-256 over the canonical request key. */
export function listKey(k: ListRequestKey): string {
  const text = canonical({ op: k.operationId, t: k.tenantId, q: k.query ?? null, p: k.params ?? null, s: k.sub, g: [...k.groups].sort() });
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** The weak ETag of a list answer: `W/"l1.<list marker>.<listKey>"`. */
export function listEtag(marker: number, key: string): string {
  return `W/"l1.${marker}.${key}"`;
}

/**
 * Whether an `If-None-Match` value (one or more entity tags, weak or strong) names the list answer that is
 * current: the same request digest and the tenant's list marker unchanged. Returns the entity tag that matched,
 * or null. `*` does not match (a list always exists; a client that sends it wants it anyway).
 */
export function listStillCurrent(ifNoneMatch: string, marker: number, key: string): string | null {
  for (const raw of ifNoneMatch.split(',')) {
    const m = /^(?:W\/)?"l1\.(\d{1,15})\.([0-9a-f]{16})"$/.exec(raw.trim());
    if (m && Number(m[1]) === marker && m[2] === key) return raw.trim();
  }
  return null;
}
