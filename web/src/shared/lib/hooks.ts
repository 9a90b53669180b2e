/**
 * Small state hooks shared by the shell and the screens.
 */
import { useState } from 'react';
import type { Dispatch, SetStateAction } from 'react';

/**
 * `useState` whose value goes back to `reset(key)` whenever `key` changes (compared with `Object.is`).
 * This is React's "adjust state when a prop changes" pattern: the reset happens during the render that
 * sees the new key (React re-renders at once, before painting), with no effect and no flash of the old value.
 * Used to close the mobile sidebar and the header dropdowns on navigation (docs/portal.md#shell).
 */
export function useStateResetOn<T, K>(key: K, reset: (key: K) => T): [T, Dispatch<SetStateAction<T>>] {
  const [value, setValue] = useState(() => reset(key));
  const [seenKey, setSeenKey] = useState(key);
  if (!Object.is(seenKey, key)) {
    setSeenKey(key);
    setValue(reset(key));
  }
  return [value, setValue];
}

/**
 * The wall-clock time (ms since the epoch) at which `key` last changed: read once per change and kept in
 * state, so every re-render with the same `key` returns the same number. Screens whose query holds a
 * relative time range ("last 7 days") use it so the query — and its SWR cache key and API cursor — stays
 * stable while the user pages, and moves only when the filters change.
 */
export function useTimeOfChange(key: string): number {
  const [at] = useStateResetOn(key, () => Date.now());
  return at;
}
