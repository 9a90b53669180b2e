/**
 * Spanish texts of the sign-in widget (Amplify UI `<Authenticator>`).
 *
 * Amplify UI ships a Spanish dictionary (`@aws-amplify/ui` `esDict`); it leaves some labels in English
 * or mixed ("Email", Cognito error messages, COPY). `ES_OVERRIDES` fills those gaps; `setUpSpanish()`
 * loads every bundled dictionary and then the overrides, and selects `es`.
 * The show/hide-password screen-reader texts are not dictionary keys: see `PASSWORD_FIELD_LABELS`.
 */
import { I18n } from 'aws-amplify/utils';
import { translations } from '@aws-amplify/ui-react';

/** Overrides and additions to Amplify UI's Spanish dictionary (keys are Amplify's English texts). */
export const ES_OVERRIDES: Record<string, string> = {
  Email: 'Correo electrónico',
  'Enter your Email': 'Escriba su correo electrónico',
  'Enter your email': 'Escriba su correo electrónico',
  'Enter your Password': 'Escriba su contraseña',
  'Sign In': 'Iniciar sesión',
  'Sign in': 'Iniciar sesión',
  'Sign Up': 'Crear cuenta',
  'Back to Sign In': 'Volver a iniciar sesión',
  'Enter your Confirmation Code': 'Escriba su código de confirmación',
  'Confirm MFA Code': 'Confirmar código MFA',
  'Reset your Password': 'Restablecer su contraseña',
  Continue: 'Continuar',
  COPY: 'COPIAR',
  Copy: 'Copiar',
  Copied: 'Copiado',
  'Email cannot be empty': 'El correo electrónico no puede estar vacío',
  'Password cannot be empty': 'La contraseña no puede estar vacía',
  'Confirmation code cannot be empty': 'El código de confirmación no puede estar vacío',
  'Password attempts exceeded': 'Se superó el número de intentos de contraseña',
  'Password is required': 'La contraseña es obligatoria',
  'Confirm Password is required': 'La confirmación de la contraseña es obligatoria',
  'User is not confirmed.': 'El usuario no está confirmado.',
  'User is already confirmed.': 'El usuario ya está confirmado.',
  'Incorrect username or password.': 'Correo electrónico o contraseña incorrectos.',
  'Username should be an email.': 'El nombre de usuario debe ser un correo electrónico.',
  'Invalid code or auth state for the user.': 'Código no válido o estado de autenticación incorrecto.',
  'Invalid verification code provided, please try again.': 'Código de verificación no válido, inténtelo de nuevo.',
  'Network error': 'Error de red',
  'Authentication Error': 'Error de autenticación',
  'Please use your credentials to sign in.': 'Use sus credenciales para iniciar sesión.',
  'Unable to send verification code. Please try again.': 'No se pudo enviar el código de verificación. Inténtelo de nuevo.',
  'Your verification code has expired. Please request a new code.': 'Su código de verificación ha caducado. Solicite uno nuevo.',
};

/** Spanish screen-reader texts of the show-password switch (props of Amplify UI's `PasswordField`). */
export const PASSWORD_FIELD_LABELS = {
  showPasswordButtonLabel: 'Mostrar contraseña',
  passwordIsHiddenLabel: 'La contraseña está oculta',
  passwordIsShownLabel: 'La contraseña está visible',
} as const;

/**
 * Amplify UI primitives whose screen-reader text is a hard-coded English default the Authenticator never
 * translates: CSS selector of the element → its `aria-label` dictionary key (translated with `I18n.get`).
 * Today: the remote-error alert's dismiss button (`Alert` `dismissButtonLabel` = 'Dismiss alert').
 */
export const UNTRANSLATED_ARIA_LABELS: Readonly<Record<string, string>> = {
  'button.amplify-alert__dismiss': 'Dismiss alert',
};

/**
 * Keeps the `UNTRANSLATED_ARIA_LABELS` of every element under `root` in the current I18n language, now and
 * whenever the Authenticator renders new ones (a `MutationObserver`). Returns the function that stops it.
 */
export function localizeAriaLabels(root: HTMLElement): () => void {
  const apply = (): void => {
    for (const [selector, key] of Object.entries(UNTRANSLATED_ARIA_LABELS)) {
      const text = I18n.get(key);
      root.querySelectorAll(selector).forEach((el) => {
        if (el.getAttribute('aria-label') !== text) el.setAttribute('aria-label', text);
      });
    }
  };
  apply();
  const observer = new MutationObserver(apply);
  observer.observe(root, { childList: true, subtree: true });
  return () => observer.disconnect();
}

/**
 * English texts of the portal chrome (header, sidebar menu, profile menu, skip link, footer), keyed by the Spanish
 * text shown by default; used when the user picks English in `/settings`. Page content stays in Spanish.
 */
export const EN_CHROME: Readonly<Record<string, string>> = {
  Dashboard: 'Dashboard',
  General: 'Overview',
  Reportes: 'Reports',
  Incidentes: 'Incidents',
  Ver: 'View',
  Agregar: 'Add',
  Dispositivos: 'Devices',
  Estado: 'Status',
  Disponibilidad: 'Availability',
  Alarmas: 'Alarms',
  Eventos: 'Events',
  Otros: 'Other',
  Recomendaciones: 'Recommendations',
  Analítica: 'Analytics',
  Perfil: 'Profile',
  Configuración: 'Settings',
  'Cambiar contraseña': 'Change password',
  'Cerrar sesión': 'Sign out',
  Cuenta: 'Account',
  Notificaciones: 'Notifications',
  Cliente: 'Customer',
  Buscar: 'Search',
  'Buscar…': 'Search…',
  'Abrir menú': 'Open menu',
  'Cerrar menú': 'Close menu',
  'Contraer menú lateral': 'Collapse sidebar',
  'Menú principal': 'Main menu',
  'Saltar al contenido': 'Skip to content',
};

/** `text` (Spanish) in `language`: itself for `es`, its `EN_CHROME` entry (or itself when missing) for `en`. */
export function translateChrome(text: string, language: string): string {
  return language === 'en' ? (EN_CHROME[text] ?? text) : text;
}

/**
 * Loads Amplify UI's dictionaries plus `ES_OVERRIDES` and switches Amplify's I18n to `language` (default Spanish;
 * `en` = Amplify's English defaults, chosen in `/settings`).
 */
export function setUpSpanish(language: 'es' | 'en' = 'es'): void {
  I18n.putVocabularies(translations);
  I18n.putVocabulariesForLanguage('es', ES_OVERRIDES);
  I18n.setLanguage(language);
}
