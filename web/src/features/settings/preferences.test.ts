import { beforeEach, describe, expect, it } from 'vitest';
import { applyPreferences, DEFAULT_PREFERENCES, getPreferences, loadPreferences, PREFERENCES_KEY, resetPreferencesCache, updatePreferences } from './preferences';

describe('display preferences', () => {
  beforeEach(() => {
    localStorage.clear();
    resetPreferencesCache();
  });

  it('defaults to Spanish, light theme, no layout toggles; ignores unreadable or invalid values field by field', () => {
    expect(loadPreferences()).toEqual(DEFAULT_PREFERENCES);
    localStorage.setItem(PREFERENCES_KEY, '{not json');
    expect(loadPreferences()).toEqual(DEFAULT_PREFERENCES);
    localStorage.setItem(PREFERENCES_KEY, JSON.stringify({ theme: 'purple', language: 'en', boxedLayout: 'yes', fullWidth: true }));
    expect(loadPreferences()).toEqual({ ...DEFAULT_PREFERENCES, language: 'en', fullWidth: true });
  });

  it("reads the shell's older collapse key", () => {
    localStorage.setItem('vigia.sidebarCollapsed', '1');
    expect(loadPreferences().sidebarCollapsed).toBe(true);
  });

  it('persists updates and applies them to <html>', () => {
    updatePreferences({ theme: 'dark', boxedLayout: true, language: 'en' });
    expect(JSON.parse(localStorage.getItem(PREFERENCES_KEY)!)).toMatchObject({ theme: 'dark', boxedLayout: true, language: 'en' });
    resetPreferencesCache();
    expect(getPreferences()).toMatchObject({ theme: 'dark', boxedLayout: true, language: 'en', fixedFooter: false });
    const root = document.documentElement;
    expect(root.dataset.theme).toBe('dark');
    expect(root.lang).toBe('en');
    expect(root.dataset.layoutBoxed).toBe('true');
    applyPreferences(DEFAULT_PREFERENCES);
    expect(root.dataset.theme).toBe('light');
    expect(root.dataset.layoutFullWidth).toBe('false');
  });
});
