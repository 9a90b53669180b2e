/**
 * "Signed in, but in no group" — the account waits for an administrator to grant it access
 * (docs/portal.md#groups-and-tenants). The signed-in portal's guard marks it (then signs the user out
 * globally); the sign-in gate shows the waiting page instead of the sign-in form until the user leaves it.
 * Lives outside React state because the guard's tree is unmounted by the sign-out it starts.
 */
import { useSyncExternalStore } from 'react';

/** The account that is waiting: its e-mail (`''` when the token had none). */
export interface AwaitingAccess {
  email: string;
}

let current: AwaitingAccess | null = null;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((l) => l());

/** Marks `email`'s account as waiting for access (the guard, before it signs the user out). */
export function markAwaitingAccess(email: string): void {
  current = { email };
  notify();
}

/** Leaves the waiting page (back to the sign-in form). */
export function clearAwaitingAccess(): void {
  current = null;
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
