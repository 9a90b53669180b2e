/**
 * "Your session was ended by an administrator" (docs/portal.md#session-loss): the API answered 401
 * SESSION_REVOKED because staff disabled the account or took its access away (docs/api.md#session-revocation).
 * The API client marks it before it signs the session out; the sign-in page then says why, in the portal's
 * language (Amplify's `I18n`: the English text is the key, its Spanish in `ES_OVERRIDES` of ./i18n.ts), until the next
 * sign-in. Kept in `sessionStorage` (this tab only, `tab-store.ts`) and outside React state: the signed-in tree that saw the
 * answer is unmounted by the sign-out. Loaded by both the signed-in chunk and the sign-in page (no
 * dependency beyond React).
 */
import { createTabStore } from './tab-store';

/** The `sessionStorage` key of the mark (`'1'` while set). */
export const SESSION_REVOKED_KEY = 'vigia:session-revoked';

/** The sign-in page's text in English; also its dictionary key. */
export const SESSION_REVOKED_EN = 'Your session was ended: an administrator disabled your account or removed your access. Sign in again if you still have access.';

const mark = createTabStore<1>(SESSION_REVOKED_KEY, (v) => (v === 1 ? 1 : null));

/** Marks that the session was revoked (the API client, before it signs the session out). */
export function markSessionRevoked(): void {
  mark.set(1);
}

/** Forgets the mark (a new sign-in). */
export function clearSessionRevoked(): void {
  if (mark.get() !== null) mark.set(null);
}

/** Whether the last session was revoked; re-renders on change. */
export function useSessionRevoked(): boolean {
  return mark.use() !== null;
}
