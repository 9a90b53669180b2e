/**
 * The variants of the prerendered sign-in page (docs/portal.md#prerendered-sign-in): one per portal language
 * and per self sign-up setting (`allowSignUp` adds the "Crear cuenta" tab), rendered with `PRERENDER_BRAND`.
 * Generated into `PRERENDER_FILE` by `web/src/app/signin-prerender.test.tsx`; inlined by `signin-prerender.ts`.
 * No imports: read by the Vite config and by the portal's tests.
 */

/** `id` of the element holding the prerendered form in `index.html` (the variants' templates: `<id>-<key>`). */
export const PRERENDER_ELEMENT_ID = 'signin-prerender';

/** File (in `web/build/`) holding the rendered variants. */
export const PRERENDER_FILE = 'signin-prerender.json';
/** The brand the variants are rendered with; a stage whose `brandName` differs gets no prerendered form. */
export const PRERENDER_BRAND = 'Vigía';

export interface PrerenderVariant {
  language: 'es' | 'en';
  signUp: boolean;
}

/** Every variant; the first is the one in the page's markup (no JavaScript needed to show it). */
export const PRERENDER_VARIANTS: readonly PrerenderVariant[] = [
  { language: 'es', signUp: true },
  { language: 'es', signUp: false },
  { language: 'en', signUp: true },
  { language: 'en', signUp: false },
];

/** `es-signup` / `es-nosignup` / …: the key of a variant in the file and in the page. */
export function prerenderKey(v: PrerenderVariant): string {
  return `${v.language}-${v.signUp ? 'signup' : 'nosignup'}`;
}

/**
 * A rendered sign-in page made fit to ship as HTML:
 * - React's generated ids (`useId`, e.g. `_r_l_`, numbered per page, so they depend on what rendered before)
 *   become `p1`, `p2`… in order of first appearance, the same in every attribute that refers to them;
 * - each inline `style="…"` (React sets them through the CSSOM, which the Content-Security-Policy allows; in
 *   markup `style-src 'self'` refuses them) becomes a class `signin-prerender-s<N>`, and `rules` the
 *   stylesheet that gives those classes the same declarations, shared by all variants through `classes`.
 */
export function shippableMarkup(html: string, classes: Map<string, string>): string {
  const ids = new Map<string, string>();
  const out = html.replace(/_r_[0-9a-z]+_/g, (id) => {
    if (!ids.has(id)) ids.set(id, `p${ids.size + 1}`);
    return ids.get(id)!;
  });
  return out.replace(/<([a-z][\w-]*)([^>]*?)\sstyle="([^"]*)"([^>]*)>/g, (_m, tag: string, before: string, style: string, after: string) => {
    if (!classes.has(style)) classes.set(style, `signin-prerender-s${classes.size}`);
    const cls = classes.get(style)!;
    const attrs = `${before}${after}`;
    if (/\sclass="/.test(attrs)) return `<${tag}${attrs.replace(/\sclass="([^"]*)"/, (_c, v: string) => ` class="${v} ${cls}"`)}>`;
    return `<${tag}${attrs} class="${cls}">`;
  });
}

/** The stylesheet of the classes `shippableMarkup` put in place of inline styles. */
export function shippableRules(classes: Map<string, string>): string {
  return [...classes].map(([style, cls]) => `.${cls} { ${style.trim()} }`).join('\n');
}

/** Shape of `PRERENDER_FILE`: the brand and each variant's markup (the inside of `#root`). */
export interface PrerenderedSignIn {
  brand: string;
  variants: Record<string, string>;
  /** The stylesheet of the inline styles turned into classes (`shippableRules`). */
  rules: string;
}
