/**
 * Spanish texts of the sign-in widget (Amplify UI `<Authenticator>`).
 *
 * Amplify UI ships a Spanish dictionary (`@aws-amplify/ui` `esDict`); it leaves some labels in English
 * or mixed ("Email", COPY) and most Cognito error messages untranslated. `ES_OVERRIDES` fills the label
 * gaps; `setUpSpanish()` loads every bundled dictionary and then the overrides and selects `es`;
 * `loadCognitoErrorTexts()` (called by the sign-in gate once the form is on the screen) adds the catalogue of
 * Cognito error texts (`cognito-errors.ts`, its own chunk) to the dictionary.
 * The show/hide-password screen-reader texts are not dictionary keys: see `PASSWORD_FIELD_LABELS`.
 */
import { I18n } from 'aws-amplify/utils';
import { translations } from '@aws-amplify/ui-react';
import { SESSION_REVOKED_EN } from './session-revoked';

/**
 * Overrides and additions to Amplify UI's Spanish dictionary (keys are Amplify UI's English texts). The
 * identity service's error messages are not here: they are in the one catalogue `cognito-errors.ts`.
 */
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
  'Password is required': 'La contraseña es obligatoria',
  // The show-password switch's screen-reader texts (see UNTRANSLATED_TEXTS).
  'Password is hidden': 'La contraseña está oculta',
  'Password is shown': 'La contraseña está visible',
  'Confirm Password is required': 'La confirmación de la contraseña es obligatoria',
  // Amplify UI's own texts for some Cognito errors (its remote-error alert shows these instead of the message).
  'The verification code you entered is incorrect. Please try again.': 'El código de verificación no es correcto. Inténtelo de nuevo.',
  'Unable to send verification code. Please try again.': 'No se pudo enviar el código de verificación. Inténtelo de nuevo.',
  'Your verification code has expired. Please request a new code.': 'Su código de verificación ha caducado. Solicite uno nuevo.',
  'Authentication Error': 'Error de autenticación',
  'Please use your credentials to sign in.': 'Use sus credenciales para iniciar sesión.',
  // The sign-in page's own texts (AuthGate, AwaitingAccessPage, LoadingScreen): part of the sign-in bundle, so
  // they use this dictionary, not the signed-in portal's catalogue (docs/portal.md#messages).
  CUSTOMER: 'CLIENTE',
  'Customer portal': 'Portal de clientes',
  'Loading…': 'Cargando…',
  'Account awaiting approval': 'Cuenta pendiente de aprobación',
  'Your account': 'Tu cuenta',
  'has been created but has no access to the portal yet.': 'está creada, pero todavía no tiene acceso al portal.',
  'Your account has been created but has no access to the portal yet.': 'Tu cuenta está creada, pero todavía no tiene acceso al portal.',
  'An administrator has to grant you access to your company; we have let them know. When they do, sign in again.':
    'Un administrador tiene que concederte acceso a tu empresa; ya le hemos avisado. Cuando lo haga, vuelve a iniciar sesión.',
  'We have signed you out.': 'Hemos cerrado la sesión.',
  'Signing you out…': 'Cerrando la sesión…',
  // Company sign-in (app/CompanySignIn.tsx, a lazy chunk on stages with a customer identity provider).
  'Sign in with your company account': 'Iniciar sesión con la cuenta de tu empresa',
  'Company e-mail': 'Correo de tu empresa',
  'Continue with your company': 'Continuar con tu empresa',
  'Enter the e-mail of your company account.': 'Escribe el correo de la cuenta de tu empresa.',
  'Your company could not be reached. Try again.': 'No se pudo contactar con tu empresa. Inténtalo de nuevo.',
  // The session ended by an administrator (shared/lib/session-revoked.ts, docs/portal.md#session-loss).
  [SESSION_REVOKED_EN]: 'Tu sesión se ha cerrado: un administrador ha deshabilitado tu cuenta o te ha retirado el acceso. Vuelve a iniciar sesión si aún tienes acceso.',
};

/** Spanish screen-reader texts of the show-password switch (props of Amplify UI's `PasswordField`). */
export const PASSWORD_FIELD_LABELS = {
  showPasswordButtonLabel: 'Mostrar contraseña',
  passwordIsHiddenLabel: 'La contraseña está oculta',
  passwordIsShownLabel: 'La contraseña está visible',
} as const;

/**
 * Amplify UI primitives whose screen-reader text is a hard-coded English default the Authenticator does not
 * always translate: CSS selector of the element → its `aria-label` dictionary key (translated with `I18n.get`).
 * The remote-error alert's dismiss button (`Alert` `dismissButtonLabel` = 'Dismiss alert'), and the
 * show-password switch, whose labels come from the form-field options only when the Authenticator received
 * them: a sign-out that happens before the Authenticator was ever shown (`/page/logout` opened directly)
 * leaves it without them (docs/portal.md#sign-in).
 */
export const UNTRANSLATED_ARIA_LABELS: Readonly<Record<string, string>> = {
  'button.amplify-alert__dismiss': 'Dismiss alert',
  'button.amplify-field__show-password': 'Show password',
};

/**
 * Amplify UI elements whose hidden screen-reader TEXT is an English default: CSS selector → the English texts
 * it may hold (dictionary keys, translated with `I18n.get`). The show-password switch announces
 * "Password is hidden" / "Password is shown".
 */
export const UNTRANSLATED_TEXTS: Readonly<Record<string, readonly string[]>> = {
  '.amplify-field__show-password .amplify-visually-hidden': ['Password is hidden', 'Password is shown'],
};

/**
 * Keeps the `UNTRANSLATED_ARIA_LABELS` and `UNTRANSLATED_TEXTS` of every element under `root` in the current
 * I18n language, now and whenever the Authenticator renders new ones or changes their text (a
 * `MutationObserver`). Returns the function that stops it.
 */
export function localizeAriaLabels(root: HTMLElement): () => void {
  const apply = (): void => {
    for (const [selector, key] of Object.entries(UNTRANSLATED_ARIA_LABELS)) {
      const text = I18n.get(key);
      root.querySelectorAll(selector).forEach((el) => {
        if (el.getAttribute('aria-label') !== text) el.setAttribute('aria-label', text);
      });
    }
    for (const [selector, keys] of Object.entries(UNTRANSLATED_TEXTS)) {
      root.querySelectorAll(selector).forEach((el) => {
        const current = el.textContent ?? '';
        if (!keys.includes(current)) return;
        const text = I18n.get(current);
        if (text !== current) el.textContent = text;
      });
    }
  };
  apply();
  const observer = new MutationObserver(apply);
  observer.observe(root, { childList: true, subtree: true, characterData: true });
  return () => observer.disconnect();
}

/**
 * Loads Amplify UI's dictionaries plus `ES_OVERRIDES` and switches Amplify's I18n to `language` (default Spanish;
 * `en` = Amplify's English defaults, chosen in `/settings`). The error texts come with `loadCognitoErrorTexts`.
 */
export function setUpSpanish(language: 'es' | 'en' = 'es'): void {
  I18n.putVocabularies(translations);
  I18n.putVocabulariesForLanguage('es', ES_OVERRIDES);
  I18n.setLanguage(language);
}

/**
 * Loads the Cognito error catalogue chunk and adds its texts to the Spanish dictionary. Resolves when done;
 * never rejects (a failed chunk load is logged: the alert then shows Cognito's English message).
 */
export function loadCognitoErrorTexts(): Promise<void> {
  return import('./cognito-errors').then(
    (m) => m.registerCognitoErrorTexts(),
    (err: unknown) => console.error('[vigia] could not load the Spanish texts of identity service errors', err),
  );
}
