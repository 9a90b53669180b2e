/**
 * Portal start-up: read the configuration, configure Amplify, render the sign-in gate.
 *
 * The configuration comes from `index.html` when the server wrote it there (every server that delivers the
 * portal does: docs/portal.md#configuration-in-indexhtml), else from `/config.json`. A missing, unreadable or
 * invalid configuration renders exactly `CONFIG_ERROR_TEXT`
 * ('Configuration error (see console) – please contact the administrator', docs/portal.md#configuration-error) and logs the
 * reason with `console.error`.
 */
import { StrictMode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import type { Root } from 'react-dom/client';
import { CONFIG_ERROR_TEXT, loadPortalConfig, readInlinePortalConfig, type PortalConfig } from '../shared/lib/config';
import { configureAmplify } from '../shared/lib/amplify';
import { setUpSpanish } from '../shared/lib/i18n';
import { applyPreferences, getPreferences } from '../features/settings/preferences';
import { AuthGate } from './AuthGate';
import { takeOverPrerender } from './prerender-takeover';

/** Options for tests: where the config lives and which `fetch` reads it. */
export interface BootstrapOptions {
  configUrl?: string;
  fetchImpl?: typeof fetch;
}

/**
 * Starts the portal in `container`. Resolves with the React root once the first screen is rendered
 * (the config error screen or the sign-in gate); never rejects.
 *
 * With the configuration in `index.html` the first screen is rendered before this returns (same task as the
 * entry script; `flushSync`), without it after `/config.json` arrived (docs/portal.md#bundles).
 */
export async function bootstrap(container: HTMLElement, options: BootstrapOptions = {}): Promise<Root> {
  // The configuration in index.html, or else its request, sent first: the work that does not need it runs
  // while it is under way (docs/portal.md#bundles).
  let source: PortalConfig | Promise<PortalConfig>;
  try {
    source = readInlinePortalConfig(container.ownerDocument) ?? loadPortalConfig(options.configUrl, options.fetchImpl ?? fetch);
  } catch (err) {
    source = Promise.reject(err);
  }
  if (source instanceof Promise) source.catch(() => undefined);
  const root = createRoot(container);
  const preferences = getPreferences();
  applyPreferences(preferences);
  setUpSpanish(preferences.language);
  let config: PortalConfig;
  try {
    config = source instanceof Promise ? await source : source;
  } catch (err) {
    console.error('[vigia] portal configuration error:', err instanceof Error ? err.message : err);
    flushSync(() => root.render(<ConfigErrorScreen />));
    takeOverPrerender(null);
    return root;
  }
  configureAmplify(config);
  // Rendered now, not in a task the scheduler posts: the sign-in widget starts its session check in this
  // task and its form is on the screen ~10 ms sooner (docs/benchmarks.md#sign-in-page-where-the-portals-form-loses-time-against-the-reference).
  flushSync(() =>
    root.render(
      <StrictMode>
        <AuthGate config={config} />
      </StrictMode>,
    ),
  );
  // The texts of identity-service errors and the portal's chunks are loaded once the sign-in form is on the
  // screen (`AuthGate`, docs/portal.md#bundles), not in the idle time before it.
  return root;
}

/** The configuration error screen (docs/portal.md#configuration-error). */
export function ConfigErrorScreen() {
  return (
    <main className="config-error">
      <p role="alert">{CONFIG_ERROR_TEXT}</p>
    </main>
  );
}
