/**
 * Portal start-up: load `/config.json`, configure Amplify, render the sign-in gate.
 *
 * A missing, unreadable or invalid configuration renders exactly `CONFIG_ERROR_TEXT`
 * ('Configuration error (see console) – please contact the administrator', docs/portal.md#configuration-error) and logs the
 * reason with `console.error`.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { Root } from 'react-dom/client';
import { CONFIG_ERROR_TEXT, loadPortalConfig } from '../shared/lib/config';
import { configureAmplify } from '../shared/lib/amplify';
import { setUpSpanish } from '../shared/lib/i18n';
import { applyPreferences, getPreferences } from '../features/settings/preferences';
import { AuthGate } from './AuthGate';

/** Options for tests: where the config lives and which `fetch` reads it. */
export interface BootstrapOptions {
  configUrl?: string;
  fetchImpl?: typeof fetch;
}

/**
 * Starts the portal in `container`. Resolves with the React root once the first screen is rendered
 * (the config error screen or the sign-in gate); never rejects.
 */
export async function bootstrap(container: HTMLElement, options: BootstrapOptions = {}): Promise<Root> {
  // The configuration request goes first; the work that does not need it runs while it is under way
  // (docs/portal.md#bundles).
  const pending = loadPortalConfig(options.configUrl, options.fetchImpl ?? fetch);
  pending.catch(() => undefined);
  const root = createRoot(container);
  const preferences = getPreferences();
  applyPreferences(preferences);
  setUpSpanish(preferences.language);
  let config;
  try {
    config = await pending;
  } catch (err) {
    console.error('[vigia] portal configuration error:', err instanceof Error ? err.message : err);
    root.render(<ConfigErrorScreen />);
    return root;
  }
  configureAmplify(config);
  root.render(
    <StrictMode>
      <AuthGate config={config} />
    </StrictMode>,
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
