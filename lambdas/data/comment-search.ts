/**
 * The comment search index (docs/data-model.md#search; issue 32 point 8): every PUBLIC comment has one
 * `CommentToken` item per indexed word of its body (`commentTokens`: folded, stop words dropped, the first 64
 * distinct), in the partition of that word (`TENANT#<t>#CSEARCH#<token>`, SK `<createdAt>#<incidentId>#<commentId>`),
 * each carrying all the comment's indexed words. Written like an incident's title words: ONE BatchWriteItem
 * after the comment's transaction (`putCommentTokens`), completed from the comment's `incident.commented`
 * event by the outbox consumer when that write failed (`ensureCommentTokens`); comments are never edited, so
 * the index never holds a stale word.
 *
 * Internal notes (lambdas/domain/internal-notes.ts) are never indexed: `addIncidentNote` writes none, and the
 * read verifies every candidate with a BatchGetItem of its `keys.comment` key — the incident partition, where a
 * note never lives — so even a stray entry could not surface a note's text or existence.
 *
 * A search (`searchComments`) reads the partition of the query's longest word (newest first), the other words
 * as a FilterExpression on `tokens`, `COMMENT_SEARCH_READ` entries a Query, at most `COMMENT_SEARCH_MAX_QUERIES`
 * Queries until `limit` matches, then ONE BatchGetItem: ≤ 7 requests a page whatever the tenant's size.
 * Cursor: base64url of `{ p: "<createdAt>#<incidentId>#<commentId>" }`, the last entry looked at.
 */
import type { CommentHit } from '../contract/search.js';
import type { IncidentComment, Page } from '../contract/schemas.js';
import { commentMatches, commentTokens, searchTokens } from '../domain/search.js';
import { readWordIndexPage } from './word-index.js';
import type { AttributeMap, TableRef } from './table/client.js';
import { decodePositionCursor, encodePositionCursor } from './table/cursor.js';
import { batchGetAll, batchWriteAll, queryAll } from './table/dynamo-util.js';
import { CommentEntity, CommentTokenEntity, itemOf, recordOf } from './entities.js';
import { keys } from './table/keys.js';

/** Entries one comment-search Query reads at most (~0.5 KB each with 64 words: ≤ 7 RCU eventually consistent). */
export const COMMENT_SEARCH_READ = 100;
/** Queries a comment-search page sends at most (then ONE BatchGetItem: ≤ 7 requests a page). */
export const COMMENT_SEARCH_MAX_QUERIES = 6;

const POSITION = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z#INC-\d{1,12}#[A-Za-z0-9_-]{1,64}$/;

/** The parts of an entry's sort key `<createdAt>#<incidentId>#<commentId>`. */
function parsePosition(sk: string): { createdAt: string; incidentId: string; commentId: string } {
  const [createdAt, incidentId, commentId] = sk.split('#') as [string, string, string];
  return { createdAt, incidentId, commentId };
}

/**
 * The position of a cursor.
 * @throws ApiError VALIDATION_FAILED (`query.cursor`) for anything but a cursor this search wrote.
 */
function decodePosition(cursor: string): string {
  return decodePositionCursor(cursor, (p) => POSITION.test(p));
}

/** The CommentToken items of a public comment of `incidentId` (one per indexed word). */
export function commentTokenItems(tenantId: string, incidentId: string, comment: Pick<IncidentComment, 'id' | 'body' | 'createdAt'>): AttributeMap[] {
  const tokens = commentTokens(comment.body);
  return tokens.map((token) => itemOf(CommentTokenEntity, { tenantId, token, incidentId, commentId: comment.id, commentCreatedAt: comment.createdAt, tokens }));
}

/**
 * After a public comment's transaction (`addIncidentComment`), the seed or the upgrade: puts its word items
 * (`batchWriteAll`, 1 WCU per word, ≤ 64). Idempotent. Never call it for an internal note.
 * @throws Error when requests stay unprocessed (the caller leaves the repair to `ensureCommentTokens`).
 */
export async function putCommentTokens(table: TableRef, tenantId: string, incidentId: string, comment: IncidentComment): Promise<void> {
  if (comment.visibility === 'internal') return;
  await batchWriteAll(table, commentTokenItems(tenantId, incidentId, comment).map((Item) => ({ PutRequest: { Item } })));
}

/**
 * The backstop of a comment's word items, run by the outbox consumer for every `incident.commented` event:
 * ONE consistent Query of the incident's comments at the event's time (`COMMENT#<at>`, public comments only —
 * notes live elsewhere and have no event), then for each ONE BatchGetItem of its word keys and a BatchWriteItem
 * of the missing ones. Idempotent; nothing when the comment is gone. Without `at` (the upgrade,
 * `upgradeCommentSearch`): every comment of the incident (the partition's comments read whole).
 * @returns how many word items were written.
 */
export async function ensureCommentTokens(table: TableRef, tenantId: string, incidentId: string, at?: string): Promise<number> {
  const items = await queryAll(table, {
    KeyConditionExpression: 'PK = :p AND begins_with(SK, :s)',
    ExpressionAttributeValues: { ':p': keys.incidentPk(tenantId, incidentId), ':s': at === undefined ? 'COMMENT#' : `COMMENT#${at}#` },
    ConsistentRead: true,
  });
  let written = 0;
  for (const it of items) {
    const comment = recordOf(CommentEntity, it) as IncidentComment;
    if (comment.visibility === 'internal') continue;
    const items = commentTokenItems(tenantId, incidentId, comment);
    if (!items.length) continue;
    const present = new Set((await batchGetAll(table, items.map((i) => ({ PK: i.PK, SK: i.SK })), { projection: 'PK' })).map((i) => String(i.PK)));
    const missing = items.filter((i) => !present.has(String(i.PK)));
    await batchWriteAll(table, missing.map((Item) => ({ PutRequest: { Item } })));
    written += missing.length;
  }
  return written;
}

/**
 * One page of the tenant's public comments whose body has every word of `opts.q` (`commentMatches`), newest
 * first; see the module doc. ≤ `COMMENT_SEARCH_MAX_QUERIES` Queries of ≤ `COMMENT_SEARCH_READ` entries, then
 * ONE BatchGetItem of ≤ `limit` comments from the incident partitions (never the notes' partition).
 * @throws ApiError VALIDATION_FAILED for a cursor this search did not write.
 */
export async function searchComments(table: TableRef, tenantId: string, opts: { q: string; limit: number; cursor?: string | undefined }): Promise<Page<CommentHit>> {
  const tokens = searchTokens(opts.q);
  const from = opts.cursor ? decodePosition(opts.cursor) : undefined;
  if (tokens.length === 0) return { items: [], nextCursor: null };
  const { positions: page, next } = await readWordIndexPage(table, (w) => keys.commentTokenPk(tenantId, w), tokens, { limit: opts.limit, from, read: COMMENT_SEARCH_READ, maxQueries: COMMENT_SEARCH_MAX_QUERIES });
  const refs = page.map(parsePosition);
  const got = new Map<string, IncidentComment>();
  for (const it of await batchGetAll(table, refs.map((r) => keys.comment(tenantId, r.incidentId, r.createdAt, r.commentId)))) {
    got.set(`${String(it.PK)}|${String(it.SK)}`, recordOf(CommentEntity, it) as IncidentComment);
  }
  const items: CommentHit[] = [];
  for (const r of refs) {
    const k = keys.comment(tenantId, r.incidentId, r.createdAt, r.commentId);
    const c = got.get(`${k.PK}|${k.SK}`);
    // Only a public comment of the incident partition whose body still has every word is returned.
    if (!c || c.visibility !== 'public' || !commentMatches(c.body, tokens)) continue;
    items.push({ incidentId: r.incidentId, id: c.id, author: c.author, body: c.body, createdAt: c.createdAt });
  }
  return { items, nextCursor: next === undefined ? null : encodePositionCursor(next) };
}
