/**
 * Contract of the searches beyond the incident title (`GET /search/comments`; docs/api.md#comment-search; issue 32
 * point 8): the words of public comments, answered a page at a time with a cursor, within the scale budgets
 * (≤ 10 DynamoDB requests a page, whatever the tenant's size). Internal notes are never indexed nor returned.
 */
import * as z from 'zod';
import { Cursor, Limit, TenantQuery } from './schemas.js';

/** `GET /search/comments` query: `q` 2–100 characters (every word of it must be in the comment). */
export const SearchCommentsQuery = TenantQuery.extend({
  q: z.string().trim().min(2).max(100),
  limit: Limit,
  cursor: Cursor.optional(),
});
export type SearchCommentsQuery = z.infer<typeof SearchCommentsQuery>;

/** A public comment whose body has every word of the search, with the incident it belongs to (the link). */
export const CommentHit = z.object({
  incidentId: z.string(),
  id: z.string(),
  author: z.string(),
  body: z.string(),
  createdAt: z.iso.datetime(),
});
export type CommentHit = z.infer<typeof CommentHit>;
