/**
 * The offline stack is a package with a boundary (issue 30 point 4; scripts/local/README.md):
 *  - outside `scripts/local`, a module of it is imported only through an entry point its `package.json`
 *    `exports` lists — but by the package's own tests (`vigia.ownTests`), which may reach private modules;
 *  - it stays within its size budget (`vigia.sizeBudget`: lines in all and in `cognito/`);
 *  - the root `package.json` lists it as a workspace.
 * Static imports, `export … from` and dynamic `import()` with a literal path are read from the source text.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const PKG_DIR = path.join(ROOT, 'scripts/local');

interface LocalPackage {
  name: string;
  exports: Record<string, string>;
  vigia: { ownTests: string[]; sizeBudget: { lines: number; cognitoLines: number } };
}
const pkg = JSON.parse(readFileSync(path.join(PKG_DIR, 'package.json'), 'utf8')) as LocalPackage;

/** `.ts`/`.tsx` files below `dir` (repository-relative, `/`-separated), without node_modules and build output. */
function sources(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(path.join(ROOT, dir))) {
    if (e === 'node_modules' || e === 'dist' || e.startsWith('.')) continue;
    const rel = `${dir}/${e}`;
    if (statSync(path.join(ROOT, rel)).isDirectory()) sources(rel, out);
    else if (/\.tsx?$/.test(e)) out.push(rel);
  }
  return out;
}

/** The module paths a source text imports (static, re-export, dynamic with a literal). */
export function importedPaths(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm)) out.push(m[1]!);
  return out;
}

/** The package-relative file (`cognito/srp.ts`) an import of `spec` from `file` resolves to, or null outside the package. */
function inPackage(file: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const abs = path.resolve(ROOT, path.dirname(file), spec).replace(/\.js$/, '.ts');
  const rel = path.relative(PKG_DIR, abs);
  return rel.startsWith('..') || path.isAbsolute(rel) ? null : rel.split(path.sep).join('/');
}

const entryFiles = new Set(Object.values(pkg.exports).map((p) => p.replace(/^\.\//, '')));
const ownTest = (file: string) => pkg.vigia.ownTests.some((prefix) => file.startsWith(prefix));

describe('the offline stack package (scripts/local)', () => {
  it('is imported from outside only through its entry points, but by its own tests', () => {
    const consumers = ['bin', 'infra', 'lambdas', 'scripts', 'test', 'web'].flatMap((d) => sources(d)).filter((f) => !f.startsWith('scripts/local/'));
    const violations: string[] = [];
    let checked = 0;
    for (const file of consumers) {
      for (const spec of importedPaths(readFileSync(path.join(ROOT, file), 'utf8'))) {
        const target = inPackage(file, spec);
        if (target === null) continue;
        checked += 1;
        if (!entryFiles.has(target) && !ownTest(file)) violations.push(`${file} imports scripts/local/${target}`);
      }
    }
    expect(checked).toBeGreaterThan(100);
    expect(violations).toEqual([]);
  });

  it('lists only entry points that exist, and keeps its Cognito internals private', () => {
    for (const f of entryFiles) expect(statSync(path.join(PKG_DIR, f)).isFile(), f).toBe(true);
    const cognito = sources('scripts/local/cognito').map((f) => f.slice('scripts/local/'.length));
    expect(cognito.filter((f) => entryFiles.has(f)).sort()).toEqual(['cognito/index.ts', 'cognito/sign-in.ts']);
    expect(cognito.length).toBeGreaterThan(2);
  });

  it('stays within its size budget', () => {
    const lines = (files: string[]) => files.reduce((n, f) => n + readFileSync(path.join(ROOT, f), 'utf8').split('\n').length, 0);
    const all = lines(sources('scripts/local'));
    const cognito = lines(sources('scripts/local/cognito'));
    expect(all, `scripts/local has ${all} lines (budget ${pkg.vigia.sizeBudget.lines})`).toBeLessThanOrEqual(pkg.vigia.sizeBudget.lines);
    expect(cognito, `scripts/local/cognito has ${cognito} lines (budget ${pkg.vigia.sizeBudget.cognitoLines})`).toBeLessThanOrEqual(pkg.vigia.sizeBudget.cognitoLines);
  });

  it('is a workspace of the repository', () => {
    const root = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { workspaces?: string[] };
    expect(root.workspaces).toContain('scripts/local');
    const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { name?: string }> };
    expect(lock.packages['scripts/local']?.name).toBe(pkg.name);
  });

  it('reads every kind of import the boundary check relies on', () => {
    expect(importedPaths("import { a } from '../x.js';\nexport { b } from './y.js';\nconst m = await import('../../z.js');\nimport './side.js';")).toEqual(['../x.js', './y.js', '../../z.js', './side.js']);
  });
});
