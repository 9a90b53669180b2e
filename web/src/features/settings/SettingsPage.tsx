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

/** The layout toggles, one per line with a hint of what each changes (docs/portal.md#screens). */
const TOGGLES: readonly { flag: Flag; label: string; hint: string }[] = [
  { flag: 'sidebarCollapsed', label: 'Menú lateral contraído', hint: 'En pantallas anchas el menú lateral se oculta; el botón de menú de la cabecera lo vuelve a mostrar.' },
  { flag: 'boxedLayout', label: 'Diseño en caja', hint: 'El portal ocupa una columna centrada de 1200 px como máximo.' },
  { flag: 'fixedFooter', label: 'Pie de página fijo', hint: 'El pie de página queda siempre visible al desplazarse.' },
  { flag: 'fullHeight', label: 'Altura completa', hint: 'El contenido llena la altura de la ventana aunque la página sea corta.' },
  { flag: 'fullWidth', label: 'Ancho completo', hint: 'El contenido usa todo el ancho de la ventana (sin el límite de 1360 px).' },
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
