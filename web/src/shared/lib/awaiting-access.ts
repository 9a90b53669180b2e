/**
 * "Signed in, but in no group" — the account waits for an administrator to grant it access
 * (docs/portal.md#groups-and-tenants). The signed-in portal's guard marks it (then signs the user out
 * globally); the sign-in gate shows the waiting page instead of the sign-in form until the user leaves it.
 * Lives outside React state because the guard's tree is unmounted by the sign-out it starts, and is kept in
 * `sessionStorage` (this tab only) because the sign-out of a session begun through the hosted endpoints (a social
 * user in no tenant, docs/portal.md#company-sign-in) leaves the page for the user pool's `/logout` and comes back
 * to a fresh page: without it the user would land on the sign-in form with no word of why.
 */
import { createTabStore } from './tab-store';

/** The account that is waiting: its e-mail (`''` when the token had none). */
export interface AwaitingAccess {
  email: string;
}

/** The `sessionStorage` key of the waiting account (JSON `{ email }`). */
export const AWAITING_ACCESS_KEY = 'vigia:awaiting-access';

/** The waiting account of a stored value, or null (absent or malformed: the sign-in form shows). */
const parse = (value: unknown): AwaitingAccess | null =>
  value && typeof value === 'object' && typeof (value as AwaitingAccess).email === 'string' ? { email: (value as AwaitingAccess).email } : null;

const waiting = createTabStore<AwaitingAccess>(AWAITING_ACCESS_KEY, parse);

/** Marks `email`'s account as waiting for access (the guard, before it signs the user out). */
export function markAwaitingAccess(email: string): void {
  waiting.set({ email });
}

/** Leaves the waiting page (back to the sign-in form). */
export function clearAwaitingAccess(): void {
  waiting.set(null);
}

/** The waiting account, or null; re-renders on change. */
export function useAwaitingAccess(): AwaitingAccess | null {
  return waiting.use();
}
