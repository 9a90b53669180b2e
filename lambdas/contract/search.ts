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

/**
 * `GET /search/alarms` query (docs/api.md#alarm-search): `q` 2–100 characters; every word of it must be in the
 * device alarm's title (words of one letter and stop words are left out, as in the comment search).
 */
export const SearchAlarmsQuery = SearchCommentsQuery;
export type SearchAlarmsQuery = z.infer<typeof SearchAlarmsQuery>;

/**
 * `GET /search/office365-users` query (docs/api.md#office-365-user-search): `q` 2–100 characters, words separated
 * by spaces; a user matches when a part of their UPN starts with the longest word and the UPN contains the others.
 */
export const SearchOffice365UsersQuery = SearchCommentsQuery;
export type SearchOffice365UsersQuery = z.infer<typeof SearchOffice365UsersQuery>;

/**
 * An Office 365 user of the tenant, as the alerts named them (`affectedUser`): the UPN and the alert most recently
 * received about them (the link goes to the Office 365 page filtered by the user).
 */
export const Office365UserHit = z.object({
  upn: z.string(),
  /** `detectedAt` of the alert most recently received that named the user (ISO-8601 UTC). */
  lastAlertAt: z.iso.datetime(),
  lastAlertId: z.string(),
});
export type Office365UserHit = z.infer<typeof Office365UserHit>;
