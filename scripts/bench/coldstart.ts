/**
 * Lambda cold-start proxy (docs/benchmarks.md#lambda-the-empty-handler): bundles each API handler (`lambdas/handlers/<name>.ts`, names from
 * the route table's `HANDLER_NAMES`) and an empty handler with the esbuild options the CDK NodejsFunction
 * derives from the project's handler bundling (`infra/handler-bundling.ts`, used by `infra/api-stack.ts`:
 * everything bundled, minified ESM, `mainFields` module/main, the createRequire banner), then starts a
 * fresh `node` process per bundle and run that imports the bundle and exits. Two figures per bundle,
 * medians over interleaved runs (every bundle once per round, so machine noise hits all bundles alike):
 *
 *  - **cold start** (budgeted): wall time, measured by this process, from spawning `node` until the child
 *    reports that the bundle has been imported. Like Lambda's Init duration it holds the runtime boot
 *    (Node's own start-up, ~20 ms here) plus the handler's module evaluation, so "≤ 3 × the empty handler"
 *    is a bound on the whole cold start rather than on the import alone.
 *  - **import only** (diagnostic, not budgeted): the `await import()` of the bundle timed inside the same
 *    child with `performance.now()`; it excludes Node's boot, so its reference (the empty handler) is
 *    only the ESM loader's fixed cost (~5 ms) and its ratios are much larger.
 *
 * One more diagnostic row, when `@aws-sdk/client-dynamodb` and `@aws-sdk/lib-dynamodb` resolve from the
 * checkout: the empty handler importing both, bundled the same way — what the AWS SDK v3 DynamoDB clients
 * alone cost a cold start (the handlers use aws-lite instead, `lambdas/data/table/client.ts`).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type BuildOptions } from 'esbuild';
import { HANDLER_NODE_OPTIONS, handlerEsbuildOptions } from '../../infra/handler-bundling.js';
import { HANDLER_NAMES } from '../../lambdas/contract/routes.js';
import { median } from './stats.js';
import type { ColdStartBundle, ColdStartResults } from './types.js';

/** esbuild options equivalent to the NodejsFunction `bundling` of every handler (`infra/handler-bundling.ts`). */
export const NODEJS_FUNCTION_ESBUILD: Readonly<BuildOptions> = handlerEsbuildOptions();

const EMPTY_HANDLER = 'export const handler = async () => ({ statusCode: 200, body: "{}" });\n';
/** Diagnostic (not budgeted): the empty handler plus the AWS SDK v3 DynamoDB clients. */
const SDK_DYNAMODB_HANDLER = "import '@aws-sdk/client-dynamodb'; import '@aws-sdk/lib-dynamodb';\n" + EMPTY_HANDLER;
/** Name and description of that diagnostic bundle. */
export const SDK_DYNAMODB_DIAGNOSTIC = { name: 'aws-sdk-v3-dynamodb', description: 'empty handler + AWS SDK v3 DynamoDB clients (@aws-sdk/client-dynamodb, lib-dynamodb), bundled the same way' } as const;

/**
 * The child's program (`argv[2]` = bundle file URL): imports the bundle, writes the in-process import time
 * (ms, decimal) to stdout and exits at once, so nothing after the import is timed.
 */
const RUNNER = 'const t = performance.now();\nawait import(process.argv[2]);\nprocess.stdout.write(String(performance.now() - t));\nprocess.exit(0);\n';

/**
 * The environment of a Lambda-like child: what the handlers read at import time, and the deployed
 * functions' `NODE_OPTIONS` (`HANDLER_NODE_OPTIONS`) in place of the parent's (no inherited tsx loader).
 */
const CHILD_ENV = {
  PATH: process.env.PATH ?? '',
  AWS_REGION: 'us-east-1',
  TABLE_NAME: 'bench',
  POWERTOOLS_SERVICE_NAME: 'vigia-api',
  POWERTOOLS_LOG_LEVEL: 'WARN',
  NODE_OPTIONS: HANDLER_NODE_OPTIONS,
};

/** One run of one bundle, both in ms. */
export interface ColdStartSample {
  /** Spawn → the child's report that the import finished, measured by the parent (wall clock). */
  coldStartMs: number;
  /** `await import()` inside the child. */
  importMs: number;
}

/**
 * Starts `node runner bundle` and times it.
 * @throws Error when the child fails or does not report a number (its stderr is quoted).
 */
function runOnce(runner: string, file: string): Promise<ColdStartSample> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let t1: number | null = null;
    let out = '';
    let err = '';
    const child = spawn(process.execPath, [runner, pathToFileURL(file).href], { env: CHILD_ENV, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => {
      t1 ??= performance.now();
      out += d;
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const importMs = Number(out);
      if (code !== 0 || t1 === null || out === '' || !Number.isFinite(importMs))
        reject(new Error(`import of ${path.basename(path.dirname(file))} failed (exit ${code}): ${err.slice(0, 400)}`));
      else resolve({ coldStartMs: t1 - t0, importMs });
    });
  });
}

const round1 = (v: number) => Math.round(v * 10) / 10;

/** Median figures of one bundle's samples. @throws RangeError when `samples` is empty. */
export function summarizeBundle(name: string, bytes: number, samples: readonly ColdStartSample[], description?: string): ColdStartBundle {
  return {
    name,
    ...(description ? { description } : {}),
    bytes,
    coldStartMs: round1(median(samples.map((s) => s.coldStartMs))),
    importMs: round1(median(samples.map((s) => s.importMs))),
    runs: samples.length,
  };
}

/** Whether the AWS SDK v3 DynamoDB clients resolve from the checkout (the diagnostic row needs them). */
function sdkDynamoDbAvailable(repoRoot: string): boolean {
  const req = createRequire(path.join(repoRoot, 'package.json'));
  try {
    req.resolve('@aws-sdk/client-dynamodb');
    req.resolve('@aws-sdk/lib-dynamodb');
    return true;
  } catch {
    return false;
  }
}

/**
 * Bundles every handler, the empty handler and (when available) the SDK diagnostic, and measures each
 * `runs` times, interleaved, after one unmeasured warm-up round (OS file cache).
 * @param repoRoot the checkout (its `node_modules` is linked next to the bundles, so a package the bundling
 *   options ever leave external resolves as it would from the function's own folder).
 * @param runs measured runs per bundle (≥ 5; default 7).
 * @throws Error when a bundle fails to build or to import.
 */
export async function measureColdStart(repoRoot: string, runs = 7, log: (l: string) => void = () => undefined): Promise<ColdStartResults> {
  if (runs < 5) throw new RangeError(`runs must be ≥ 5 (got ${runs})`);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vigia-bench-lambda-'));
  try {
    symlinkSync(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    const runner = path.join(dir, 'runner.mjs');
    writeFileSync(runner, RUNNER);
    const src = (name: string, code: string) => {
      const file = path.join(dir, `${name}-src.mjs`);
      writeFileSync(file, code);
      return file;
    };
    const withSdk = sdkDynamoDbAvailable(repoRoot);
    if (!withSdk) log('cold start: @aws-sdk/client-dynamodb or lib-dynamodb not installed; no SDK diagnostic row');
    const entries = [
      { name: 'empty', src: src('empty', EMPTY_HANDLER), kind: 'empty' as const },
      ...(withSdk ? [{ name: SDK_DYNAMODB_DIAGNOSTIC.name, src: src('sdk', SDK_DYNAMODB_HANDLER), kind: 'diagnostic' as const }] : []),
      ...HANDLER_NAMES.map((n) => ({ name: n, src: path.join(repoRoot, 'lambdas/handlers', `${n}.ts`), kind: 'handler' as const })),
    ];
    const outs: { name: string; kind: 'empty' | 'diagnostic' | 'handler'; file: string; bytes: number; samples: ColdStartSample[] }[] = [];
    for (const e of entries) {
      const outDir = path.join(dir, e.name);
      mkdirSync(outDir);
      const file = path.join(outDir, 'index.mjs');
      await build({ ...NODEJS_FUNCTION_ESBUILD, entryPoints: [e.src], outfile: file, absWorkingDir: repoRoot });
      outs.push({ name: e.name, kind: e.kind, file, bytes: statSync(file).size, samples: [] });
    }
    for (const o of outs) await runOnce(runner, o.file);
    for (let i = 0; i < runs; i++) for (const o of outs) o.samples.push(await runOnce(runner, o.file));
    const toBundle = (o: (typeof outs)[number]) => summarizeBundle(o.name, o.bytes, o.samples, o.kind === 'diagnostic' ? SDK_DYNAMODB_DIAGNOSTIC.description : undefined);
    const result: ColdStartResults = {
      empty: toBundle(outs.find((o) => o.kind === 'empty')!),
      handlers: outs.filter((o) => o.kind === 'handler').map(toBundle),
      diagnostics: outs.filter((o) => o.kind === 'diagnostic').map(toBundle),
    };
    for (const b of [result.empty, ...result.diagnostics, ...result.handlers]) log(`cold start: ${b.name} ${b.coldStartMs} ms (import only ${b.importMs} ms)`);
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
