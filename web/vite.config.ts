/**
 * Vite config of the portal (`npm run build:web` → `web/dist`, `npm run dev:web` → dev server on 5173).
 *
 * - root is `web/`; static files (e.g. a hand-written `config.json` offline) come from `web/public`.
 * - The API contract (`lambdas/contract`) is reached through one relative re-export,
 *   `web/src/shared/lib/contract.ts`, so the same import works in Vite, `tsc` and the vitest `web` project
 *   (whose config has no alias); `server.fs.allow` lets the dev server read it from outside `web/`.
 * - The port can be overridden on the command line (`npm run dev:web -- --port 5174`).
 * - The bare specifier `qrcode` resolves to `src/shared/lib/qrcode-on-demand.ts`, which loads the QR encoder
 *   only when a QR image is drawn (Amplify UI imports it statically; docs/portal.md#bundles).
 * - `onlyPortalLanguages` (`build/amplify-languages.ts`) keeps Amplify UI's Spanish and English dictionaries only.
 * - `signInPrerender` (`build/signin-prerender.ts`) puts the sign-in form into `index.html`, shown at first paint.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { onlyPortalLanguages } from './build/amplify-languages';
import { signInPrerender } from './build/signin-prerender';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  root: webRoot,
  publicDir: 'public',
  plugins: [react(), onlyPortalLanguages(), signInPrerender()],
  resolve: { alias: [{ find: /^qrcode$/, replacement: fileURLToPath(new URL('./src/shared/lib/qrcode-on-demand.ts', import.meta.url)) }] },
  server: { port: 5173, fs: { allow: [repoRoot] } },
  preview: { port: 5173 },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    // The Authenticator alone is ~800 KB raw (docs/portal.md#bundles); don't warn about the known-size entry.
    chunkSizeWarningLimit: 1000,
    // Everything the sign-in page loads statically is one chunk, merged into the entry (rolldown's
    // built-in `$initial` tag: modules in the entry's static import chain). Left to itself the bundler
    // splits the modules the sign-in page shares with the lazy chunks into small chunks, and each one is a
    // request before the form: with this group the page loads two scripts (entry + the bundler's runtime)
    // instead of five, as the Authenticator-only reference loads one (docs/portal.md#bundles).
    rolldownOptions: {
      output: { codeSplitting: { groups: [{ name: 'signin', tags: ['$initial'] }] } },
    },
  },
});
