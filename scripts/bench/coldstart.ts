/**
 * Lambda cold-start proxy: bundles each API handler (`lambdas/handlers/<name>.ts`, names from the route
 * table's `HANDLER_NAMES`) and an empty handler with esbuild using the options of the CDK NodejsFunction
 * in `infra/api-stack.ts` (bundle, minify, ESM, `mainFields` module/main, the createRequire banner,
 * `@aws-sdk/*` external as on the Lambda Node.js runtime), then times `import()` of each bundle in a
 * fresh Node process. Runs are interleaved so machine noise hits every bundle alike.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { HANDLER_NAMES } from '../../lambdas/contract/routes.js';
import { median } from './stats.js';
import type { ColdStartBundle } from './types.js';

/** esbuild options equivalent to the NodejsFunction `bundling` block (infra/api-stack.ts). */
export const NODEJS_FUNCTION_ESBUILD = {
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  mainFields: ['module', 'main'],
  external: ['@aws-sdk/*'],
  sourcemap: 'external',
  sourcesContent: false,
  banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  logLevel: 'silent',
} as const;

const EMPTY_HANDLER = 'export const handler = async () => ({ statusCode: 200, body: "{}" });\n';
/** Diagnostic (not budgeted): an empty handler that only imports the DynamoDB clients the handlers use. */
const SDK_ONLY_HANDLER = "import '@aws-sdk/client-dynamodb'; import '@aws-sdk/lib-dynamodb';\n" + EMPTY_HANDLER;

/** Time (ms) to import `file` in a fresh Node process, measured inside that process. */
function importOnce(file: string): number {
  const code = `const t=performance.now();await import(${JSON.stringify(pathToFileURL(file).href)});process.stdout.write(String(performance.now()-t));`;
  const res = spawnSync(process.execPath, ['--input-type=module', '-e', code], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, AWS_REGION: 'us-east-1', TABLE_NAME: 'bench', POWERTOOLS_SERVICE_NAME: 'vigia-api', POWERTOOLS_LOG_LEVEL: 'WARN', NODE_OPTIONS: '' },
  });
  const v = Number(res.stdout);
  if (res.status !== 0 || !Number.isFinite(v)) throw new Error(`import of ${path.basename(file)} failed: ${res.stderr.slice(0, 400)}`);
  return v;
}

/**
 * Bundles and times every handler and the empty handler.
 * @param repoRoot the checkout (its `node_modules` is linked next to the bundles so the external
 *   `@aws-sdk/*` resolve as they would on the Lambda runtime).
 * @param runs imports per bundle (≥ 5).
 */
export async function measureColdStart(repoRoot: string, runs = 7, log: (l: string) => void = () => undefined): Promise<{ empty: ColdStartBundle; handlers: ColdStartBundle[]; sdkOnly: ColdStartBundle }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vigia-bench-lambda-'));
  try {
    symlinkSync(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    const emptySrc = path.join(dir, 'empty-src.mjs');
    writeFileSync(emptySrc, EMPTY_HANDLER);
    const sdkSrc = path.join(dir, 'sdk-src.mjs');
    writeFileSync(sdkSrc, SDK_ONLY_HANDLER);
    const entries = [{ name: 'empty', src: emptySrc }, { name: 'sdk-only', src: sdkSrc }, ...HANDLER_NAMES.map((n) => ({ name: n, src: path.join(repoRoot, 'lambdas/handlers', `${n}.ts`) }))];
    const outs: { name: string; file: string; bytes: number; times: number[] }[] = [];
    for (const e of entries) {
      const outDir = path.join(dir, e.name);
      mkdirSync(outDir);
      const file = path.join(outDir, 'index.mjs');
      await build({ ...NODEJS_FUNCTION_ESBUILD, mainFields: [...NODEJS_FUNCTION_ESBUILD.mainFields], external: [...NODEJS_FUNCTION_ESBUILD.external], entryPoints: [e.src], outfile: file, absWorkingDir: repoRoot });
      outs.push({ name: e.name, file, bytes: statSync(file).size, times: [] });
    }
    // One unmeasured import each warms the OS file cache; then interleaved measured runs.
    for (const o of outs) importOnce(o.file);
    for (let i = 0; i < runs; i++) for (const o of outs) o.times.push(importOnce(o.file));
    const toBundle = (o: (typeof outs)[number]): ColdStartBundle => ({ name: o.name, bytes: o.bytes, importMs: Math.round(median(o.times) * 10) / 10, runs: o.times.length });
    log(`cold start: ${outs.map((o) => `${o.name} ${median(o.times).toFixed(1)} ms`).join(', ')}`);
    return { empty: toBundle(outs[0]!), sdkOnly: toBundle(outs[1]!), handlers: outs.slice(2).map(toBundle) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
