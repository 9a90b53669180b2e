/**
 * The portal's configuration carried in its `index.html`, so the sign-in page needs no request for it
 * (docs/portal.md#configuration-in-indexhtml).
 *
 * The servers that deliver the portal write the same object they serve as `/config.json` (shape:
 * `PortalConfig`, `portal-config.ts`) into `index.html` as a JSON data block,
 * `<script type="application/json" id="vigia-config">…</script>`: the PortalDeployment stack in AWS
 * (`infra/portal-deployment-stack.ts`, deploy-time values resolved by the deployment), the local stack
 * (`scripts/local/stack.ts`) and the benchmark's server (`scripts/bench/portal.ts`). The portal reads the block
 * at start-up (`web/src/shared/lib/config.ts`) and fetches `/config.json` only when there is none (the Vite dev
 * server, an `index.html` served as built).
 *
 * A data block is not run (HTML Living Standard, "data block": a `<script>` whose `type` is not a JavaScript
 * MIME type), so the page's Content-Security-Policy `script-src` needs no hash for it.
 *
 * No imports: the portal's sign-in bundle imports {@link PORTAL_CONFIG_ELEMENT_ID} from here (zod stays out of it).
 */

/** `id` of the `<script type="application/json">` element holding the configuration. */
export const PORTAL_CONFIG_ELEMENT_ID = 'vigia-config';

/** The configuration's preload in the built `index.html` (`web/index.html`): the data block takes its place. */
const CONFIG_PRELOAD = /<link\b[^>]*\bhref="\/config\.json"[^>]*>/i;

/**
 * `html` with `configJson` (a JSON object's text, e.g. `JSON.stringify(config)`; it may hold CDK token
 * placeholders) as the configuration data block. The block replaces the `<link rel="preload" href="/config.json">`
 * (the request is no longer needed); without one it goes right before `</head>`, or else right after the
 * doctype (where the parser opens the head).
 * Every `<` of the JSON is written `\u003c` (same value for `JSON.parse`), so no value can end the element
 * (`</script>`) or open a comment.
 *
 * @throws Error if `html` already carries a configuration block (it would be ambiguous which one counts).
 */
export function withInlinePortalConfig(html: string, configJson: string): string {
  if (html.includes(`id="${PORTAL_CONFIG_ELEMENT_ID}"`)) throw new Error(`index.html already carries a configuration block (#${PORTAL_CONFIG_ELEMENT_ID})`);
  const block = `<script type="application/json" id="${PORTAL_CONFIG_ELEMENT_ID}">${configJson.replace(/</g, '\\u003c')}</script>`;
  if (CONFIG_PRELOAD.test(html)) return html.replace(CONFIG_PRELOAD, () => block);
  const head = html.search(/<\/head\s*>/i);
  if (head >= 0) return `${html.slice(0, head)}  ${block}\n  ${html.slice(head)}`;
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html);
  const at = doctype ? doctype[0].length : 0;
  return `${html.slice(0, at)}${block}${html.slice(at)}`;
}
