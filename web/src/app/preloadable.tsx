/**
 * `React.lazy` that can be started early and skips the loading state when it has finished by the time the
 * component first renders (docs/portal.md#sign-in-to-dashboard).
 *
 * Why: a lazy component always suspends on its first render, even when its module is already in the browser,
 * and React (19) then holds the content back until ~300 ms after the fallback was shown (its fallback
 * throttle). After a sign-in that cost the dashboard two such waits in a row (the signed-in portal, then the
 * dashboard's route), ~600 ms of nothing. With `preload()` called while the user signs in, the first render
 * finds the component loaded and renders it at once; otherwise it behaves as `React.lazy` (the caller keeps
 * a `<Suspense>` around it).
 */
import { lazy, useState } from 'react';
import type { ComponentType, JSX } from 'react';

export interface PreloadableComponent<P extends object> {
  (props: P): JSX.Element;
  /**
   * Starts loading the module (once; again after a failure) and resolves with the component. Never needed
   * for correctness: an unloaded component loads when it first renders.
   */
  preload(): Promise<ComponentType<P>>;
}

/** Wraps `load` (e.g. `() => import('./X').then((m) => m.X)`) as a preloadable lazy component. */
export function preloadableLazy<P extends object>(load: () => Promise<ComponentType<P>>): PreloadableComponent<P> {
  let loaded: ComponentType<P> | undefined;
  let pending: Promise<ComponentType<P>> | undefined;
  const preload = () =>
    (pending ??= load().then(
      (component) => (loaded = component),
      (err: unknown) => {
        pending = undefined;
        throw err;
      },
    ));
  const Lazy = lazy(() => preload().then((component) => ({ default: component })));
  function Preloadable(props: P) {
    // Decided once per mount: switching from the lazy wrapper to the component later would remount it.
    const [Ready] = useState(() => loaded);
    const Component = (Ready ?? Lazy) as ComponentType<P>;
    return <Component {...props} />;
  }
  return Object.assign(Preloadable, { preload });
}
