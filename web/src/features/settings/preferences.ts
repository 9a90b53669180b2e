/**
 * Per-browser display preferences of the portal (docs/portal.md#screens, Settings): theme
 * (light/dark), the layout toggles (collapsed sidebar, boxed layout, fixed footer, full height, full width) and
 * the language (Spanish default, English available). Persisted in `localStorage` under `PREFERENCES_KEY` as
 * JSON; unreadable or partial values fall back field by field to `DEFAULT_PREFERENCES`.
 *
 * `applyPreferences` puts them on `<html>`: `lang`, `data-theme="light|dark"` and one `data-layout-*` attribute
 * per toggle, which `settings.css` styles. `usePreferences()` re-renders on every change (any tab of this
 * origin too, through the `storage` event).
 */
import { useSyncExternalStore } from 'react';

export type Theme = 'light' | 'dark';
export type Language = 'es' | 'en';

export interface Preferences {
  theme: Theme;
  language: Language;
  sidebarCollapsed: boolean;
  boxedLayout: boolean;
  fixedFooter: boolean;
  fullHeight: boolean;
  fullWidth: boolean;
}

export const PREFERENCES_KEY = 'vigia.preferences';
/** The Shell's older key for the collapse toggle (read once as a fallback). */
const LEGACY_COLLAPSED_KEY = 'vigia.sidebarCollapsed';

export const DEFAULT_PREFERENCES: Readonly<Preferences> = {
  theme: 'light',
  language: 'es',
  sidebarCollapsed: false,
  boxedLayout: false,
  fixedFooter: false,
  fullHeight: false,
  fullWidth: false,
};

const LAYOUT_FLAGS = ['sidebarCollapsed', 'boxedLayout', 'fixedFooter', 'fullHeight', 'fullWidth'] as const;

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // e.g. storage disabled by the browser
  }
}

/** Reads the stored preferences; never throws. */
export function loadPreferences(): Preferences {
  const store = storage();
  let raw: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(store?.getItem(PREFERENCES_KEY) ?? '{}');
    if (parsed && typeof parsed === 'object') raw = parsed as Record<string, unknown>;
  } catch {
    raw = {};
  }
  const prefs: Preferences = { ...DEFAULT_PREFERENCES };
  if (raw.theme === 'light' || raw.theme === 'dark') prefs.theme = raw.theme;
  if (raw.language === 'es' || raw.language === 'en') prefs.language = raw.language;
  for (const flag of LAYOUT_FLAGS) if (typeof raw[flag] === 'boolean') prefs[flag] = raw[flag];
  if (typeof raw.sidebarCollapsed !== 'boolean' && store?.getItem(LEGACY_COLLAPSED_KEY) === '1') prefs.sidebarCollapsed = true;
  return prefs;
}

let current: Preferences | null = null;
const listeners = new Set<() => void>();

/** The current preferences (cached snapshot). */
export function getPreferences(): Preferences {
  current ??= loadPreferences();
  return current;
}

/** Merges `change` into the preferences, stores them, applies them to the document and notifies subscribers. */
export function updatePreferences(change: Partial<Preferences>): Preferences {
  current = { ...getPreferences(), ...change };
  storage()?.setItem(PREFERENCES_KEY, JSON.stringify(current));
  applyPreferences(current);
  listeners.forEach((l) => l());
  return current;
}

/** Sets `lang`, `data-theme` and the `data-layout-*` attributes of `root` (default `<html>`). */
export function applyPreferences(prefs: Preferences, root: HTMLElement = document.documentElement): void {
  root.lang = prefs.language;
  root.dataset.theme = prefs.theme;
  root.dataset.layoutBoxed = String(prefs.boxedLayout);
  root.dataset.layoutFixedFooter = String(prefs.fixedFooter);
  root.dataset.layoutFullHeight = String(prefs.fullHeight);
  root.dataset.layoutFullWidth = String(prefs.fullWidth);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => {
    if (e.key !== PREFERENCES_KEY) return;
    current = loadPreferences();
    applyPreferences(current);
    listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** React hook: the current preferences, re-rendering on change. */
export function usePreferences(): Preferences {
  return useSyncExternalStore(subscribe, getPreferences, getPreferences);
}

/** Forgets the cached snapshot (tests). */
export function resetPreferencesCache(): void {
  current = null;
}
