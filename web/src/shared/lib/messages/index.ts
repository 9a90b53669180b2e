/**
 * The signed-in portal's messages: one i18next instance with the Spanish (`es.ts`, default) and English
 * (`en.ts`) catalogues, bound to React with react-i18next. Loaded only by the signed-in chunk (the sign-in page
 * keeps Amplify's `I18n`, `../i18n.ts`). Keys are typed (`i18next.d.ts`): `t('chrome.search')` compiles,
 * a key missing from the catalogue does not. docs/portal.md#messages.
 *
 * - `useT()` — the `t` function of the current language; the component re-renders when it changes.
 * - `setMessagesLanguage(lang)` — switches every mounted `useT()` user (the app follows the `/settings`
 *   language preference; tests call it directly).
 * - `t` / `messagesLanguage()` — outside React (enum labels, CSV headers, date/number locale).
 */
import i18next from 'i18next';
import type { ParseKeys, TFunction } from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';
import { en } from './en';
import { es } from './es';

/** The languages with a catalogue (ISO 639-1). */
export type MessagesLanguage = 'es' | 'en';

/** The catalogues by language (one namespace, `translation`). */
export const CATALOGUES = { es, en } as const;

const messages = i18next.createInstance();
void messages.use(initReactI18next).init({
  resources: { es: { translation: es }, en: { translation: en } },
  lng: 'es',
  fallbackLng: 'es',
  supportedLngs: ['es', 'en'],
  initAsync: false,
  // React escapes what it renders; i18next must not escape it a second time.
  interpolation: { escapeValue: false },
});

/** The current language of the portal's messages (`es` until `setMessagesLanguage` says otherwise). */
export function messagesLanguage(): MessagesLanguage {
  return messages.language === 'en' ? 'en' : 'es';
}

/** Switches the messages to `language`; every component using `useT()` re-renders. Synchronous. */
export function setMessagesLanguage(language: MessagesLanguage): void {
  if (messages.language !== language) void messages.changeLanguage(language);
}

/** Translates `key` in the current language (outside React; in components use `useT()`). */
export const t = ((...args: unknown[]) => (messages.t as unknown as (...a: unknown[]) => string).apply(messages, args)) as unknown as typeof messages.t;

/** React hook: `t` of the current language; re-renders the component on a language change. */
export function useT(): TFunction<'translation'> {
  return useTranslation('translation', { i18n: messages }).t;
}

/** The i18next instance (tests and the provider-less `useTranslation` of react-i18next). */
export { messages as i18n };

/** Any key of the catalogue, e.g. `'menu.dashboard'` (for tables of labels kept outside components). */
export type MessageKey = ParseKeys<'translation'>;
