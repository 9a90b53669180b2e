/**
 * Vite plugin: the portal's build keeps only the Amplify UI dictionaries of the languages the portal offers
 * (Spanish and English, docs/portal.md#messages) instead of all twenty.
 *
 * `@aws-amplify/ui`'s `translations` object imports every language's Authenticator dictionary from one
 * module (`dist/esm/i18n/dictionaries/index.mjs`); the portal hands that object to Amplify's I18n and only
 * ever selects `es` or `en`, so the other eighteen (~90 KB of JavaScript before compression, a tenth of the
 * sign-in page's) were parsed before the form for nothing. This plugin serves that module with the same
 * exports: `enDict`, `esDict` and `defaultTexts` from Amplify UI's own files, every other `<xx>Dict` an empty
 * dictionary (docs/portal.md#bundles). The list of exports is read from the real module, so a language
 * added by an Amplify UI upgrade is exported (empty) too and the build keeps working.
 */
import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';

/** The module the plugin replaces (a path inside `@aws-amplify/ui`). */
export const DICTIONARIES_MODULE = /[\\/]@aws-amplify[\\/]ui[\\/]dist[\\/]esm[\\/]i18n[\\/]dictionaries[\\/]index\.mjs$/;

/** Languages whose dictionaries are kept (the portal's `language` preference: 'es' | 'en'). */
export const PORTAL_LANGUAGES = ['es', 'en'] as const;

/**
 * The replacement source for `dictionaries/index.mjs`, given the original's source: the kept languages and
 * `defaultTexts` from `./authenticator/<lang>.mjs`, every other exported name `{}`.
 * @throws Error when the original no longer exports `defaultTexts` or a kept language's dictionary (an
 *   Amplify UI layout change the plugin must be updated for).
 */
export function onlyPortalLanguagesSource(original: string): string {
  const exported = /export\s*\{([^}]*)\}/.exec(original)?.[1]?.split(',').map((s) => s.trim()).filter(Boolean) ?? [];
  const kept = [...PORTAL_LANGUAGES.map((l) => `${l}Dict`), 'defaultTexts'];
  for (const name of kept) if (!exported.includes(name)) throw new Error(`@aws-amplify/ui dictionaries no longer export ${name} (web/build/amplify-languages.ts)`);
  const lines = [
    ...PORTAL_LANGUAGES.map((l) => `import { ${l}Dict as ${l}Source } from './authenticator/${l}.mjs';`),
    "import { defaultTexts as defaultSource } from './authenticator/defaultTexts.mjs';",
    ...PORTAL_LANGUAGES.map((l) => `export const ${l}Dict = { ...${l}Source };`),
    'export const defaultTexts = { ...defaultSource };',
    ...exported.filter((n) => !kept.includes(n)).map((n) => `export const ${n} = {};`),
  ];
  return `${lines.join('\n')}\n`;
}

/** The plugin (`web/vite.config.ts`); build and dev server alike. */
export function onlyPortalLanguages(): Plugin {
  return {
    name: 'vigia-amplify-ui-languages',
    enforce: 'pre',
    load(id) {
      const file = id.split('?')[0]!;
      return DICTIONARIES_MODULE.test(file) ? onlyPortalLanguagesSource(readFileSync(file, 'utf8')) : null;
    },
  };
}
