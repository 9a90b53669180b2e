/**
 * Vite plugin: the sign-in form in `index.html`, so it is on the screen at the page's first paint instead of
 * after the entry script has run (issue 32 point 10; docs/portal.md#prerendered-sign-in,
 * docs/decisions/prerendered-sign-in.md).
 *
 * - `#signin-prerender`, before `#root`, holds the markup the portal's start-up renders on the sign-in page
 *   (`signin-prerender.json`, rendered by the real Authenticator and checked by
 *   `web/src/app/signin-prerender.test.tsx`) in its first variant (Spanish, self sign-up); the other variants
 *   follow as `<template id="signin-prerender-<key>">`. Its buttons wait for the portal: the submit button is
 *   `disabled` (no form post before the script has the fields) and the others `aria-disabled`.
 * - The first-paint script (`first-paint.ts`) is emitted as `assets/first-paint-<hash>.js` and loaded as a
 *   classic script in `<head>` (Content-Security-Policy `script-src 'self'`: no inline script); it chooses the
 *   variant, or none, before the body is parsed.
 * - `virtual:signin-prerender.css` (imported by `main.tsx`): which variant shows, `#root` hidden while the
 *   prerendered form is there, and the classes that replaced the markup's inline styles.
 * - The portal takes over in the layout effect that mounts its own form (`prerender-takeover.ts`): what the user
 *   typed and the focus move to the live form, and `#signin-prerender` is removed before the next paint.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { PORTAL_CONFIG_ELEMENT_ID } from '../../lambdas/contract/portal-config-html';
import { firstPaint, type FirstPaintOptions } from './first-paint';
import { PRERENDER_ELEMENT_ID, PRERENDER_FILE, prerenderKey, PRERENDER_VARIANTS, type PrerenderedSignIn } from './signin-prerender-variants';

const VIRTUAL_CSS = 'virtual:signin-prerender.css';
/** The configuration's preload in `web/index.html` (`lambdas/contract/portal-config-html.ts` replaces it). */
const CONFIG_PRELOAD = /<link\b[^>]*\bhref="\/config\.json"[^>]*>/i;
const RESOLVED_CSS = '\0signin-prerender.css';

/** The keys the first-paint script reads; the portal's modules that own them are checked against these by `signin-prerender.test.tsx`. */
export const FIRST_PAINT_KEYS = {
  preferencesKey: 'vigia.preferences',
  tabKeys: ['vigia:awaiting-access', 'vigia:session-revoked'],
  configElementId: PORTAL_CONFIG_ELEMENT_ID,
};

/** The file's variants, read once per build. */
export function readPrerendered(): PrerenderedSignIn {
  return JSON.parse(readFileSync(fileURLToPath(new URL(`./${PRERENDER_FILE}`, import.meta.url)), 'utf8')) as PrerenderedSignIn;
}

/** A variant's markup as shipped: buttons wait for the portal (see the module comment). */
export function inertButtons(markup: string): string {
  return markup.replace(/<button\b([^>]*)>/g, (_m, attrs: string) => (/\stype="submit"/.test(attrs) ? `<button${attrs} disabled="">` : `<button${attrs} aria-disabled="true">`));
}

/** The first-paint script's source: `firstPaint` called with this build's options. */
export function firstPaintSource(prerendered: PrerenderedSignIn): string {
  const keys = PRERENDER_VARIANTS.map(prerenderKey);
  const options: FirstPaintOptions = { ...FIRST_PAINT_KEYS, brand: prerendered.brand, keys, markupKey: keys[0]!, elementId: PRERENDER_ELEMENT_ID };
  return `(${firstPaint.toString()})(${JSON.stringify(options)});\n`;
}

/** The stylesheet of `virtual:signin-prerender.css` (see the module comment). */
export function prerenderCss(prerendered: PrerenderedSignIn): string {
  const keys = PRERENDER_VARIANTS.map(prerenderKey);
  const shown = keys.map((k) => `html[data-signin-prerender='${k}'] #${PRERENDER_ELEMENT_ID}[data-variant='${k}']`).join(',\n');
  return [
    '/* web/build/signin-prerender.ts: the prerendered sign-in form until the portal takes over. */',
    `html[data-signin-prerender] #${PRERENDER_ELEMENT_ID} { display: none; }`,
    `${shown} { display: block; }`,
    `html:not([data-signin-prerender='off']) #${PRERENDER_ELEMENT_ID} ~ #root { display: none; }`,
    prerendered.rules,
    '',
  ].join('\n');
}

/** The `index.html` body part: the first variant's markup, then the others as templates, then `#root`. */
export function prerenderMarkup(prerendered: PrerenderedSignIn): string {
  const [first, ...rest] = PRERENDER_VARIANTS.map(prerenderKey);
  const markup = (k: string) => {
    const m = prerendered.variants[k];
    if (!m) throw new Error(`web/build/${PRERENDER_FILE} has no variant ${k}: regenerate it (web/src/app/signin-prerender.test.tsx)`);
    return inertButtons(m);
  };
  return [
    `<div id="${PRERENDER_ELEMENT_ID}" data-variant="${first}">${markup(first!)}</div>`,
    ...rest.map((k) => `<template id="${PRERENDER_ELEMENT_ID}-${k}">${markup(k)}</template>`),
    '<div id="root"></div>',
  ].join('\n    ');
}

/** The plugin (see the module comment). */
export function signInPrerender(): Plugin {
  const prerendered = readPrerendered();
  const script = firstPaintSource(prerendered);
  const scriptPath = `assets/first-paint-${createHash('sha256').update(script).digest('base64url').slice(0, 8)}.js`;
  return {
    name: 'vigia:signin-prerender',
    resolveId: (id) => (id === VIRTUAL_CSS ? RESOLVED_CSS : null),
    load: (id) => (id === RESOLVED_CSS ? prerenderCss(prerendered) : null),
    configureServer(server) {
      server.middlewares.use(`/${scriptPath}`, (_req, res) => {
        res.setHeader('Content-Type', 'text/javascript');
        res.end(script);
      });
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: scriptPath, source: script });
    },
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        if (!html.includes('<div id="root"></div>')) throw new Error('web/index.html has no <div id="root"></div> for the prerendered sign-in form');
        // Right after the configuration block (the servers put it in the /config.json preload's place), before the
        // stylesheets' links: a classic script after a stylesheet would wait for it.
        const tag = `<script src="/${scriptPath}"></script>`;
        const withScript = CONFIG_PRELOAD.test(html) ? html.replace(CONFIG_PRELOAD, (link) => `${link}\n    ${tag}`) : html.replace(/<\/head>/i, () => `  ${tag}\n  </head>`);
        return withScript.replace('<div id="root"></div>', () => prerenderMarkup(prerendered));
      },
    },
  };
}
