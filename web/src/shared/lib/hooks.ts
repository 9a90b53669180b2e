/**
 * Small state hooks shared by the shell and the screens.
 */
import { startTransition, useEffect, useState } from 'react';
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

/**
 * `value`, but only once a frame has been painted since it changed (`initial` until the first time): the
 * render that uses it waits for the screen to show what the render that changed `value` committed, and then
 * runs as a transition (interruptible). For heavy parts drawn from the same data as light ones, e.g. the
 * dashboard's charts after its figures: `useDeferredValue` alone renders them in 5 ms slices right after the
 * figures' commit, and Chromium paints no frame between those slices until its ~100 ms starvation limit, so
 * the figures were on the screen 25–120 ms after their commit (docs/portal.md#sign-in-to-dashboard).
 * Without `requestAnimationFrame` (a hidden page, tests) it waits for one task instead.
 */
export function useValueAfterPaint<T, I>(value: T, initial: I): T | I {
  const [shown, setShown] = useState<{ value: T } | null>(null);
  useEffect(() => onNextPaint(() => startTransition(() => setShown({ value }))), [value]);
  return shown ? shown.value : initial;
}

/**
 * Runs `run` once the next frame has been painted (a task after its animation frame); after one task when no
 * frame comes (a hidden page, or no `requestAnimationFrame`: tests). Returns a function that cancels it.
 */
export function onNextPaint(run: () => void): () => void {
  let frame = 0;
  let task: ReturnType<typeof setTimeout> | undefined;
  const later = () => {
    task = setTimeout(run, 0);
  };
  if (typeof window.requestAnimationFrame === 'function' && document.visibilityState !== 'hidden') frame = window.requestAnimationFrame(later);
  else later();
  return () => {
    if (frame) window.cancelAnimationFrame(frame);
    clearTimeout(task);
  };
}
