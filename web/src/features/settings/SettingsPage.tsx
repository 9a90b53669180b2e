/**
 * `/settings` (docs/portal.md#screens): theme (light/dark), layout toggles (collapsed sidebar, boxed layout, fixed footer,
 * full height, full width) and language (Español default, English). Changes apply at once and persist in this
 * browser (`preferences.ts`). The language also switches the sign-in widget (Amplify I18n) and the shell's texts.
 * A card links to the notification screens (`/notifications/preferences`, `/notifications/webhooks`).
 */
import { I18n } from 'aws-amplify/utils';
import { Link } from 'react-router-dom';
import { PageHeader } from '../../shared/ui/states';
import { updatePreferences, usePreferences } from './preferences';
import type { Language, Preferences, Theme } from './preferences';
import { t as msg } from '../../shared/lib/messages';

type Flag = 'sidebarCollapsed' | 'boxedLayout' | 'fixedFooter' | 'fullHeight' | 'fullWidth';

/** The layout toggles, one per line with a hint of what each changes (docs/portal.md#screens). */
const TOGGLES: readonly { flag: Flag; label: string; hint: string }[] = [
  { flag: 'sidebarCollapsed', get label() { return msg('settings.page.collapsedSidebar'); }, get hint() { return msg('settings.page.sidebarHiddenHint'); } },
  { flag: 'boxedLayout', get label() { return msg('settings.page.boxedLayout'); }, get hint() { return msg('settings.page.centredHint'); } },
  { flag: 'fixedFooter', get label() { return msg('settings.page.fixedFooter'); }, get hint() { return msg('settings.page.stickyFooterHint'); } },
  { flag: 'fullHeight', get label() { return msg('settings.page.fullHeight'); }, get hint() { return msg('settings.page.fullHeightHint'); } },
  { flag: 'fullWidth', get label() { return msg('settings.page.fullWidth'); }, get hint() { return msg('settings.page.fullWidthHint'); } },
];

/** Applies a language change to Amplify's I18n too (the Authenticator after a sign-out). */
export function changeLanguage(language: Language): Preferences {
  I18n.setLanguage(language);
  return updatePreferences({ language });
}

export function SettingsPage() {
  const prefs = usePreferences();
  return (
    <section>
      <PageHeader title={msg('chrome.settings')} />
      <form className="card form settings-form" onSubmit={(e) => e.preventDefault()}>
        <fieldset>
          <legend>{msg('settings.page.theme')}</legend>
          {(['light', 'dark'] as Theme[]).map((theme) => (
            <label key={theme} className="choice">
              <input type="radio" name="theme" value={theme} checked={prefs.theme === theme} onChange={() => updatePreferences({ theme })} />{' '}
              {theme === 'light' ? msg('settings.page.light') : msg('settings.page.dark')}
            </label>
          ))}
        </fieldset>
        <fieldset>
          <legend>{msg('settings.page.layout')}</legend>
          <ul className="toggle-list">
            {TOGGLES.map(({ flag, label, hint }) => (
              <li key={flag} className="toggle-row">
                <input
                  id={`settings-${flag}`}
                  type="checkbox"
                  aria-describedby={`settings-${flag}-hint`}
                  checked={prefs[flag]}
                  onChange={(e) => updatePreferences({ [flag]: e.target.checked })}
                />
                <label htmlFor={`settings-${flag}`}>{label}</label>
                <p id={`settings-${flag}-hint`} className="muted small toggle-hint">
                  {hint}
                </p>
              </li>
            ))}
          </ul>
        </fieldset>
        <div className="field">
          <label htmlFor="settings-language">{msg('settings.page.idiomaLanguage')}</label>
          <select id="settings-language" value={prefs.language} onChange={(e) => changeLanguage(e.target.value as Language)}>
            <option value="es">{msg('settings.page.espanol')}</option>
            <option value="en">{msg('settings.page.english')}</option>
          </select>
        </div>
        <p className="muted small">{msg('settings.page.storedLocally')}</p>
      </form>
      <section className="card" aria-labelledby="settings-notifications">
        <h2 id="settings-notifications">{msg('notifications.links.settingsTitle')}</h2>
        <p>{msg('notifications.links.settingsText')}</p>
        <ul>
          <li>
            <Link to="/notifications/preferences">{msg('notifications.preferences.title')}</Link>
          </li>
          <li>
            <Link to="/notifications/webhooks">{msg('notifications.webhooks.title')}</Link>
          </li>
        </ul>
      </section>
    </section>
  );
}
