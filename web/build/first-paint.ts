/**
 * The sign-in page's first-paint script (docs/portal.md#prerendered-sign-in): a small classic script in
 * `<head>`, after the configuration block, that runs before the body is parsed and picks what the first paint
 * shows. `signin-prerender.ts` ships `firstPaint`'s own source, called with {@link FirstPaintOptions}; the
 * portal's tests call the function directly.
 *
 * It puts the reader's language and theme on `<html>` (`lang`, `data-theme`, as `applyPreferences` does later)
 * and sets `data-signin-prerender` to the variant key to show (`es-signup`, `en-nosignup`, …;
 * `signin-prerender-variants.ts`), or `off` when the prerendered form must not be shown because the start-up
 * will not show that form: no configuration in the page, another brand, company or social sign-in, a stored
 * session (the portal opens), `/page/register`, the awaiting-access page, an administrator-ended session (its
 * notice), or a hosted sign-in's return (`?code=`). The stylesheet shows `#signin-prerender` only when its
 * `data-variant` is the chosen key; a key other than the markup's is put in from its `<template>` when the
 * parser has finished (`readystatechange`, before the deferred entry script runs). Never throws: storage that
 * cannot be read counts as empty.
 *
 * Written for every browser the portal supports without a build step (no syntax newer than the page's).
 */

export interface FirstPaintOptions {
  /** `localStorage` key of the display preferences (`PREFERENCES_KEY`, `features/settings/preferences.ts`). */
  preferencesKey: string;
  /** `sessionStorage` keys whose presence means the start-up shows something else than the form. */
  tabKeys: string[];
  /** `id` of the configuration data block (`PORTAL_CONFIG_ELEMENT_ID`). */
  configElementId: string;
  /** Brand the variants were rendered with. */
  brand: string;
  /** Every variant key; `markupKey` is the one in the page's markup, the others are `<template id="signin-prerender-<key>">`. */
  keys: string[];
  markupKey: string;
  /** `id` of the prerendered form's element (`PRERENDER_ELEMENT_ID`). */
  elementId: string;
}

/** See the module comment. Must stay self-contained: it is shipped as its source text. */
export function firstPaint(o: FirstPaintOptions): void {
  const doc = document;
  const html = doc.documentElement;
  const read = (store: () => Storage, key: string): string | null => {
    try {
      return store().getItem(key);
    } catch {
      return null;
    }
  };
  let prefs: { language?: unknown; theme?: unknown };
  try {
    prefs = JSON.parse(read(() => localStorage, o.preferencesKey) ?? '{}') ?? {};
  } catch {
    prefs = {};
  }
  const language = prefs.language === 'en' ? 'en' : 'es';
  html.lang = language;
  html.setAttribute('data-theme', prefs.theme === 'dark' ? 'dark' : 'light');

  let config: { brandName?: unknown; allowSignUp?: unknown; userPoolClientId?: unknown; oauth?: { enterprise?: unknown; socialProviders?: unknown[] } } | null;
  try {
    config = JSON.parse(doc.getElementById(o.configElementId)?.textContent ?? 'null');
  } catch {
    config = null;
  }
  const key = `${language}-${config?.allowSignUp ? 'signup' : 'nosignup'}`;
  const off =
    !config ||
    config.brandName !== o.brand ||
    !!config.oauth?.enterprise ||
    (config.oauth?.socialProviders ?? []).length > 0 ||
    read(() => localStorage, `CognitoIdentityServiceProvider.${String(config.userPoolClientId)}.LastAuthUser`) !== null ||
    location.pathname === '/page/register' ||
    /[?&]code=/.test(location.search) ||
    o.tabKeys.some((k) => read(() => sessionStorage, k) !== null) ||
    o.keys.indexOf(key) < 0;
  html.setAttribute('data-signin-prerender', off ? 'off' : key);
  if (off || key === o.markupKey) return;
  const swap = () => {
    if (doc.readyState === 'loading') return;
    doc.removeEventListener('readystatechange', swap);
    const target = doc.getElementById(o.elementId);
    const template = doc.getElementById(`${o.elementId}-${key}`) as HTMLTemplateElement | null;
    if (!target || !template) return;
    target.replaceChildren(template.content.cloneNode(true));
    target.setAttribute('data-variant', key);
  };
  if (doc.readyState === 'loading') doc.addEventListener('readystatechange', swap);
  else swap();
}
