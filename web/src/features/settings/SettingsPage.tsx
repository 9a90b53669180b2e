/**
 * `/settings` (docs/portal.md#screens): theme (light/dark), layout toggles (collapsed sidebar, boxed layout, fixed footer,
 * full height, full width) and language (Español default, English). Changes apply at once and persist in this
 * browser (`preferences.ts`). The language also switches the sign-in widget (Amplify I18n) and the shell's texts.
 */
import { I18n } from 'aws-amplify/utils';
import { PageHeader } from '../../shared/ui/states';
import { updatePreferences, usePreferences } from './preferences';
import type { Language, Preferences, Theme } from './preferences';

type Flag = 'sidebarCollapsed' | 'boxedLayout' | 'fixedFooter' | 'fullHeight' | 'fullWidth';

const TOGGLES: readonly { flag: Flag; label: string }[] = [
  { flag: 'sidebarCollapsed', label: 'Menú lateral contraído' },
  { flag: 'boxedLayout', label: 'Diseño en caja' },
  { flag: 'fixedFooter', label: 'Pie de página fijo' },
  { flag: 'fullHeight', label: 'Altura completa' },
  { flag: 'fullWidth', label: 'Ancho completo' },
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
      <PageHeader title="Configuración" />
      <form className="card form settings-form" onSubmit={(e) => e.preventDefault()}>
        <fieldset>
          <legend>Tema</legend>
          {(['light', 'dark'] as Theme[]).map((theme) => (
            <label key={theme} className="choice">
              <input type="radio" name="theme" value={theme} checked={prefs.theme === theme} onChange={() => updatePreferences({ theme })} />{' '}
              {theme === 'light' ? 'Claro' : 'Oscuro'}
            </label>
          ))}
        </fieldset>
        <fieldset>
          <legend>Diseño</legend>
          {TOGGLES.map(({ flag, label }) => (
            <label key={flag} className="choice">
              <input type="checkbox" checked={prefs[flag]} onChange={(e) => updatePreferences({ [flag]: e.target.checked })} /> {label}
            </label>
          ))}
        </fieldset>
        <div className="field">
          <label htmlFor="settings-language">Idioma / Language</label>
          <select id="settings-language" value={prefs.language} onChange={(e) => changeLanguage(e.target.value as Language)}>
            <option value="es">Español</option>
            <option value="en">English</option>
          </select>
        </div>
        <p className="muted small">Las preferencias se guardan en este navegador.</p>
      </form>
    </section>
  );
}
