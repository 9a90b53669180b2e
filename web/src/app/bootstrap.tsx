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
import { loadCognitoErrorTexts, setUpSpanish } from '../shared/lib/i18n';
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
  const root = createRoot(container);
  let config;
  try {
    config = await loadPortalConfig(options.configUrl, options.fetchImpl ?? fetch);
  } catch (err) {
    console.error('[vigia] portal configuration error:', err instanceof Error ? err.message : err);
    root.render(<ConfigErrorScreen />);
    return root;
  }
  const preferences = getPreferences();
  applyPreferences(preferences);
  setUpSpanish(preferences.language);
  configureAmplify(config);
  root.render(
    <StrictMode>
      <AuthGate config={config} />
    </StrictMode>,
  );
  // The Spanish texts of identity-service errors: once the browser is idle after the first screen, off the
  // sign-in page's critical path (an error can only come back from a request to the user pool;
  // docs/portal.md#bundles). Without requestIdleCallback (Safari), one second later.
  const load = () => void loadCognitoErrorTexts();
  if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(load, { timeout: 2000 });
  else setTimeout(load, 1000);
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
