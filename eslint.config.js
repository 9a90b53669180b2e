/**
 * ESLint flat config (`npm run lint` = `eslint .`).
 *
 * - typescript-eslint's recommended rules everywhere; Node globals, plus browser globals for the portal.
 * - React hooks (`eslint-plugin-react-hooks`, its recommended flat preset) for the portal.
 * - Import boundaries (`import-x/no-restricted-paths`; imports are resolved to files, so relative paths
 *   and `.js` specifiers of `.ts` sources are both caught). The layering, drawn in `docs/portal.md#code-layout`:
 *     web  ──►  lambdas/contract  ◄──  lambdas
 *   - the portal (`web/`) imports from `lambdas/` only its `contract/` (never data, domain, http, handlers);
 *   - nothing under `lambdas/` imports the portal, and `lambdas/contract` imports nothing else of `lambdas/`;
 *   - a feature (`web/src/features/<name>`) never imports another feature: what two features share lives
 *     in `web/src/shared`;
 *   - `web/src/shared` never imports a feature or `web/src/app` (the shell, routes and start-up).
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';

const repoRoot = fileURLToPath(new URL('.', import.meta.url));

/** The portal's feature folders (`web/src/features/<name>`), read when the config loads. */
const FEATURES = readdirSync(new URL('web/src/features/', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

/** Zones of `import-x/no-restricted-paths`: files under `target` may not import files under `from`. */
const BOUNDARIES = [
  {
    target: 'web',
    from: 'lambdas',
    except: ['./contract'],
    message: 'The portal may import only lambdas/contract from the back end (docs/portal.md#code-layout).',
  },
  { target: 'lambdas', from: 'web', message: 'The back end never imports the portal.' },
  {
    target: 'lambdas/contract',
    from: 'lambdas',
    except: ['./contract'],
    message: 'The contract is shared by the portal and the back end: it imports nothing else of lambdas/.',
  },
  {
    target: 'web/src/shared',
    from: ['web/src/features', 'web/src/app'],
    message: 'web/src/shared never imports a feature or the app shell (docs/portal.md#code-layout).',
  },
  ...FEATURES.map((name) => ({
    target: `web/src/features/${name}`,
    from: 'web/src/features',
    except: [`./${name}`],
    message: 'A feature never imports another feature: move what both need into web/src/shared (docs/portal.md#code-layout).',
  })),
];

export default tseslint.config(
  { ignores: ['node_modules', 'cdk.out', 'web/dist', '.local', 'test-results', 'bench/results'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js}'],
    languageOptions: { globals: { ...globals.node } },
    plugins: { 'import-x': importX },
    settings: {
      // Node resolution with TypeScript's rules: `./x.js` may name `./x.ts`; extensionless `./x` may be `.ts`/`.tsx`.
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
          extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
        }),
      ],
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'import-x/no-restricted-paths': ['error', { basePath: repoRoot, zones: BOUNDARIES }],
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
    languageOptions: { globals: { ...globals.browser } },
  },
);
