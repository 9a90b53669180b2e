/**
 * A value that outlives the signed-in tree and a page reload in this browser tab: kept in memory and in
 * `sessionStorage` under `key` (JSON), read back at module load, and observable from React
 * (`useSyncExternalStore`). For the sign-in page's "why you are here" notes (awaiting-access.ts,
 * session-revoked.ts), which the signed-in tree sets just before the sign-out that unmounts it.
 * Storage that is unavailable or holds something `parse` rejects reads as null; a failed write keeps the value
 * for this page's life.
 */
import { useSyncExternalStore } from 'react';

/** The store of one `sessionStorage` key. */
export interface TabStore<T> {
  /** Sets (`null` removes) the value, and re-renders its readers. */
  set(value: T | null): void;
  /** The current value (or null). */
  get(): T | null;
  /** The current value in a component; re-renders on change. */
  use(): T | null;
}

/** A store of `key`; `parse` turns the stored JSON value into `T`, or null when malformed. */
export function createTabStore<T>(key: string, parse: (value: unknown) => T | null): TabStore<T> {
  const read = (): T | null => {
    try {
      return parse(JSON.parse(window.sessionStorage.getItem(key) ?? 'null') as unknown);
    } catch {
      return null;
    }
  };
  let current: T | null = typeof window === 'undefined' ? null : read();
  const listeners = new Set<() => void>();
  const subscribe = (l: () => void) => (listeners.add(l), () => void listeners.delete(l));
  return {
    set(value) {
      current = value;
      try {
        if (value === null) window.sessionStorage.removeItem(key);
        else window.sessionStorage.setItem(key, JSON.stringify(value));
      } catch {
        // Storage unavailable (private mode quotas): the value lives for this page only.
      }
      listeners.forEach((l) => l());
    },
    get: () => current,
    use: () => useSyncExternalStore(subscribe, () => current, () => null),
  };
}
