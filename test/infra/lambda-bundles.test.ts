/**
 * The API handler bundles, built with the deployed esbuild options (`infra/handler-bundling.ts`): every
 * dependency is inside the bundle (nothing left to the Lambda runtime but Node built-ins), and no handler
 * carries the AWS SDK v3 DynamoDB clients or Smithy runtime — the cold-start cost `lambdas/data/table/client.ts`
 * exists to avoid. Only `@aws-sdk/util-dynamodb` (marshalling) is allowed from `@aws-sdk`.
 */
import path from 'node:path';
import { builtinModules } from 'node:module';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { handlerEsbuildOptions } from '../../infra/handler-bundling.js';
import { HANDLER_NAMES } from '../../lambdas/contract/routes.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

const metafiles = new Map<string, Promise<Metafile>>();

/** esbuild's metafile of one handler bundle, built once per handler for this file's tests. */
function metafileOf(name: string): Promise<Metafile> {
  let meta = metafiles.get(name);
  if (!meta) {
    meta = bundle(name);
    metafiles.set(name, meta);
  }
  return meta;
}

async function bundle(name: string): Promise<Metafile> {
  const res = await build({
    ...handlerEsbuildOptions(),
    entryPoints: [path.join(ROOT, 'lambdas/handlers', `${name}.ts`)],
    outfile: path.join(ROOT, '.bench-tmp', name, 'index.mjs'),
    absWorkingDir: ROOT,
    write: false,
    metafile: true,
  });
  return res.metafile;
}

/** Package names (`@scope/name` or `name`) of the bundle's inputs under node_modules. */
function packagesOf(meta: Metafile): Set<string> {
  const out = new Set<string>();
  for (const input of Object.keys(meta.inputs)) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
    if (m) out.add(m[1]!);
  }
  return out;
}

describe.each(HANDLER_NAMES)('%s handler bundle', (name) => {
  it('bundles every dependency and imports only Node built-ins at run time', async () => {
    const meta = await metafileOf(name);
    const external = Object.values(meta.outputs)
      .flatMap((o) => o.imports)
      .filter((i) => i.external)
      .map((i) => i.path);
    const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
    expect(external.filter((p) => !builtins.has(p))).toEqual([]);
  });

  it('contains no AWS SDK v3 client or Smithy runtime (only @aws-sdk/util-dynamodb)', async () => {
    const pkgs = [...packagesOf(await metafileOf(name))];
    expect(pkgs.filter((p) => (p.startsWith('@aws-sdk/') && p !== '@aws-sdk/util-dynamodb') || p.startsWith('@smithy/'))).toEqual([]);
    expect(pkgs).toContain('@aws-lite/client');
  });
});
