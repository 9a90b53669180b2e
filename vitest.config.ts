/**
 * Vitest projects (one `npm test` runs them all; docs/testing.md says what each covers and how to run parts):
 *  - unit:        pure functions and handlers with fakes at the edges, in-process only: no subprocess,
 *                 no server, no engine (test/unit)
 *  - infra:       the synthesized CDK stacks (template assertions, cdk-nag) and the esbuild handler
 *                 bundles (test/infra)
 *  - integration: real local engines and processes: dynoxide, cognito-local + compatibility layer, the
 *                 local gateway, the whole local stack, command-line subprocesses (test/integration);
 *                 files run one at a time (they start servers on random ports and use the CPU fully)
 *  - web:         portal components in jsdom (web/src/**\/*.test.tsx); the files that mock a module run
 *                 as 'web-mocks' (run both with `--project 'web*'`)
 *  - conformance: the local stack (or a deployed stage, VIGIA_TARGET) driven by clients this project did
 *                 not write; files run one at a time (test/conformance)
 * Chromium tests are the browser suite (`npm run test:e2e`, node:test, test/e2e), not a Vitest project.
 * Helpers shared by several test files live in test/support/.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import react from '@vitejs/plugin-react';

const ROOT = path.dirname(fileURLToPath(import.meta.url));
const WEB_TESTS = /\.test\.tsx?$/;

/**
 * Portal test files that replace a module with `vi.mock`/`vi.doMock` (repository-relative paths). A mocked
 * module must not leak into other files, so these run in a project with per-file isolation ('web-mocks');
 * every other portal test shares one module graph and one jsdom ('web'), which cuts the portal tests'
 * time by about three quarters (most of it was a fresh jsdom and React per file).
 */
function webTestsWithModuleMocks(): string[] {
  return readdirSync(path.join(ROOT, 'web/src'), { recursive: true, encoding: 'utf8' })
    .filter((f) => WEB_TESTS.test(f))
    .map((f) => path.posix.join('web/src', f.split(path.sep).join('/')))
    .filter((f) => /\bvi\.(?:do)?[mM]ock\(/.test(readFileSync(path.join(ROOT, f), 'utf8')));
}

const webMocks = webTestsWithModuleMocks();
const web = (name: string, files: { include: string[]; exclude?: string[] }, isolate: boolean): TestProjectInlineConfiguration => ({
  plugins: [react()],
  test: { name, ...files, environment: 'jsdom', setupFiles: ['web/src/test-setup.ts'], isolate },
});

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
          // The files share one module graph (a third less time: each file no longer re-imports the
          // handlers, zod schemas and AWS clients). So a unit test that changes process-wide state — an
          // environment variable, a global, a prototype spy — restores it before it ends.
          isolate: false,
        },
      },
      {
        test: {
          name: 'infra',
          include: ['test/infra/**/*.test.ts'],
          environment: 'node',
          // One synthesis of all six stacks (with bundling) takes ~5 s on 2 cores; leave room for a busy machine.
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // The files share one module graph, so aws-cdk-lib loads once and test/support/synth.ts's memo
          // synthesizes each stage once for all files (halves the project's time). Infra tests only read
          // the synthesized templates; none changes process-wide state.
          isolate: false,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          environment: 'node',
          // IAM on every call: a file whose Lambda code made a call its role would be denied fails (docs/local-emulation.md#iam).
          setupFiles: ['test/support/aws-rules-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          // Clients this project did not write (amazon-cognito-identity-js, the AWS SDK's signer, botocore,
          // forged JWTs) against the local stack, or a deployed stage with VIGIA_TARGET (test/conformance).
          name: 'conformance',
          include: ['test/conformance/**/*.test.ts'],
          environment: 'node',
          // IAM on every call: a file whose Lambda code made a call its role would be denied fails (docs/local-emulation.md#iam).
          setupFiles: ['test/support/aws-rules-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      // A portal test restores what it changes on window/globalThis (test-setup.ts unmounts and clears
      // localStorage after each test), since the 'web' files share one jsdom.
      web('web', { include: ['web/src/**/*.test.{ts,tsx}'], exclude: webMocks }, false),
      ...(webMocks.length > 0 ? [web('web-mocks', { include: webMocks }, true)] : []),
    ],
  },
});
