/**
 * "Signed in, but in no group" — the account waits for an administrator to grant it access
 * (docs/portal.md#groups-and-tenants). The signed-in portal's guard marks it (then signs the user out
 * globally); the sign-in gate shows the waiting page instead of the sign-in form until the user leaves it.
 * Lives outside React state because the guard's tree is unmounted by the sign-out it starts, and is kept in
 * `sessionStorage` (this tab only) because the sign-out of a session begun through the hosted endpoints (a social
 * user in no tenant, docs/portal.md#company-sign-in) leaves the page for the user pool's `/logout` and comes back
 * to a fresh page: without it the user would land on the sign-in form with no word of why.
 */
import { useSyncExternalStore } from 'react';

/** The account that is waiting: its e-mail (`''` when the token had none). */
export interface AwaitingAccess {
  email: string;
}

/** The `sessionStorage` key of the waiting account (JSON `{ email }`). */
export const AWAITING_ACCESS_KEY = 'vigia:awaiting-access';

/** The stored waiting account, or null (absent, unreadable or malformed: the sign-in form shows). */
function stored(): AwaitingAccess | null {
  try {
    const value = JSON.parse(window.sessionStorage.getItem(AWAITING_ACCESS_KEY) ?? 'null') as unknown;
    return value && typeof value === 'object' && typeof (value as AwaitingAccess).email === 'string' ? { email: (value as AwaitingAccess).email } : null;
  } catch {
    return null;
  }
}

function store(value: AwaitingAccess | null): void {
  try {
    if (value) window.sessionStorage.setItem(AWAITING_ACCESS_KEY, JSON.stringify(value));
    else window.sessionStorage.removeItem(AWAITING_ACCESS_KEY);
  } catch {
    // Storage unavailable (private mode quotas): the page still shows for this page's life.
  }
}

let current: AwaitingAccess | null = typeof window === 'undefined' ? null : stored();
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((l) => l());

/** Marks `email`'s account as waiting for access (the guard, before it signs the user out). */
export function markAwaitingAccess(email: string): void {
  current = { email };
  store(current);
  notify();
}

/** Leaves the waiting page (back to the sign-in form). */
export function clearAwaitingAccess(): void {
  current = null;
  store(null);
  notify();
}

/** The waiting account, or null; re-renders on change. */
export function useAwaitingAccess(): AwaitingAccess | null {
  return useSyncExternalStore(
    (l) => (listeners.add(l), () => void listeners.delete(l)),
    () => current,
    () => null,
  );
}
