/**
 * `npm run bench` — the performance suite (docs/benchmarks.md). Writes `bench/results/latest.json` and
 * `bench/results/latest.md` and prints the table. Every figure comes with a reference measured in the
 * same run (the machines are shared and noisy).
 *
 * Options:
 *  --check            evaluate the budgets (`budgets.ts`) of the sections measured (all of a `--from` file); exit 1
 *                     when one fails
 *  --from <file>      skip measuring; read results from a JSON file (with --check: check that file)
 *  --only a,b         sections to run: portal, api, lambda, scale, fleet (default all but fleet; cost runs with api). A subset
 *                     is merged into the existing latest.json (same schema and machine): the other sections
 *                     keep their figures and their own measuredAt
 *  --scales 1,10,100  scale factors of the scale section (default all three; docs/benchmarks.md#scale)
 *  --fleet-scale <f>  size of the fleet section's simulated fleet, 0 < f ≤ 1 (default 1: 100,000 devices in 1,000
 *                     tenants; 0.01 = 1,000 devices in 10 tenants); also VIGIA_FLEET_SCALE
 *  --fleet-minutes <n>  measured simulated minutes of the fleet section (default 10)
 *  --save-write-baseline  write bench/reference/write-wcu.json from the ×1 writes of this run (the scale
 *                     section's write budget reference; run once, before the write-time aggregates)
 *  --runs <n>         cold loads per figure (default 5), sign-in flows (n / 4, at least 3) and Node processes per
 *                     bundle (n + 2); minimum 5
 *  --seconds <n>      duration of each load run (default 4)
 *  --throttle         throttle page loads (CDP: slow 4G network + 4× CPU slowdown)
 *
 * Exit codes: 0 ok, 1 a budget failed (with --check), 2 usage or run error.
 */
import { existsSync, readFileSync, readdirSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEMO_USERS } from '../local/demo-data.js';
import { REPO_ROOT } from '../local/config.js';
import { freePort, startLocalStack } from '../local/stack.js';
import { checkBudgets, outcomesOfSections, type BudgetOutcome } from './budgets.js';
import { renderMarkdown, renderReadmeSummary, replaceReadmeSummary } from './report.js';
import { DEFAULT_SECTIONS, mergeResults, parseResults, RESULTS_SCHEMA, SECTIONS, type BenchResults, type MachineInfo, type Section } from './types.js';

/** Files under `lambdas/` that use a DynamoDB Scan (`file:line`), found by source search. */
export function findStaticScans(root = path.join(REPO_ROOT, 'lambdas')): string[] {
  const hits: string[] = [];
  const visit = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) visit(p);
      else if (/\.ts$/.test(e.name))
        readFileSync(p, 'utf8')
          .split('\n')
          .forEach((line, i) => {
            if (/\b(Parallel)?ScanCommand\b|\bpaginateScan\b|\.scan\(/.test(line)) hits.push(`${path.relative(REPO_ROOT, p)}:${i + 1}`);
          });
    }
  };
  visit(root);
  return hits;
}

function machine(chromium: string | null): MachineInfo {
  return {
    cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown',
    cores: os.cpus().length,
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    chromium,
  };
}

/** Prints the budget outcomes and returns whether all passed. */
function report(outcomes: BudgetOutcome[]): boolean {
  for (const o of outcomes) console.log(`${o.pass ? 'PASS' : 'FAIL'}  ${o.id}: ${o.detail}`);
  return outcomes.every((o) => o.pass);
}

const log = (l: string) => console.error(`[bench] ${l}`);

async function measure(opts: {
  only: ReadonlySet<Section>;
  runs: number;
  seconds: number;
  throttle: boolean;
  scales: number[];
  saveWriteBaseline: boolean;
  fleet: { scale: number; minutes: number };
}): Promise<BenchResults> {
  const t0 = Date.now();
  const startedAt = new Date().toISOString();
  const res: BenchResults = {
    schema: RESULTS_SCHEMA,
    startedAt,
    durationMs: 0,
    machine: machine(null),
    measuredAt: Object.fromEntries([...opts.only].map((s) => [s, startedAt])),
    portal: null,
    api: null,
    coldStart: null,
    cost: null,
    scale: null,
    fleet: null,
    errors: {},
  };
  const guard = async (name: Section, fn: () => Promise<void>) => {
    try {
      await fn();
    } catch (e) {
      res.errors[name] = e instanceof Error ? e.message.split('\n')[0]! : String(e);
      log(`${name} failed: ${res.errors[name]}`);
    }
  };

  if (opts.only.has('lambda'))
    await guard('lambda', async () => {
      const { measureColdStart } = await import('./coldstart.js');
      res.coldStart = await measureColdStart(REPO_ROOT, Math.max(5, opts.runs + 2), log);
    });

  if (opts.only.has('scale'))
    await guard('scale', async () => {
      const { measureScale, readWriteBaseline, saveWriteBaseline } = await import('./scale.js');
      res.scale = await measureScale({ factors: opts.scales, log });
      if (opts.saveWriteBaseline) {
        const x1 = res.scale.runs.find((r) => r.factor === 1);
        if (!x1) throw new Error('--save-write-baseline needs the ×1 scale (--scales 1,…)');
        saveWriteBaseline(x1);
        res.scale.writeBaseline = readWriteBaseline();
        log('bench/reference/write-wcu.json written from the ×1 writes');
      }
    });

  if (opts.only.has('fleet'))
    await guard('fleet', async () => {
      const { measureFleet, formatHotKeys } = await import('./fleet.js');
      res.fleet = await measureFleet({ ...opts.fleet, log });
      for (const l of formatHotKeys(res.fleet)) log(l);
    });

  if (!opts.only.has('api') && !opts.only.has('portal')) {
    res.durationMs = Date.now() - t0;
    return res;
  }

  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vigia-bench-stack-'));
  const webPort = await freePort();
  const stack = await startLocalStack({ dataDir, persist: false, serveWeb: false, collector: false, logLevel: 'ERROR', ports: { dynamodb: 0, cognito: 0, cognitoInternal: 0, api: 0, web: webPort }, log });
  try {
    const customer = DEMO_USERS.find((u) => !u.groups.includes('admin'))!;
    const admin = DEMO_USERS.find((u) => u.groups.includes('admin'))!;
    if (opts.only.has('api'))
      await guard('api', async () => {
        const api = await import('./api.js');
        const ctx = { stack, customerToken: await api.idTokenFor(stack, customer.email, customer.password), adminToken: await api.idTokenFor(stack, admin.email, admin.password) };
        const { costs, calls, queries } = await api.measureCosts(ctx, log);
        res.cost = { routes: costs, staticScans: findStaticScans() };
        res.api = await api.measureLoad(ctx, calls, queries, { seconds: opts.seconds, log });
      });
    if (opts.only.has('portal'))
      await guard('portal', async () => {
        const { measurePortal } = await import('./portal.js');
        const out = await measurePortal({ stack, webPort, user: customer, runs: opts.runs, throttle: opts.throttle, log });
        res.portal = out.results;
        res.machine.chromium = out.chromium;
        // Part of the section failed: say so next to the section errors and in --check (portal.dashboard).
        if (out.results.dashboard.error) {
          res.errors.portal = `signed-in dashboard flow failed: ${out.results.dashboard.error}`;
          log(res.errors.portal);
        }
      });
  } finally {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  res.durationMs = Date.now() - t0;
  return res;
}

/** A mistake in the command line or its input file: printed without a stack trace, exit 2. */
class UsageError extends Error {}

/** `--only` value → sections. @throws UsageError on an unknown or empty list. */
function parseOnly(value: string): Set<Section> {
  const names = value.split(',').map((x) => x.trim()).filter(Boolean);
  const bad = names.filter((n) => !(SECTIONS as readonly string[]).includes(n));
  if (bad.length || names.length === 0) throw new UsageError(`--only takes a comma-separated subset of ${SECTIONS.join(', ')} (got ${JSON.stringify(value)})`);
  return new Set(names as Section[]);
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      check: { type: 'boolean', default: false },
      from: { type: 'string' },
      only: { type: 'string', default: DEFAULT_SECTIONS.join(',') },
      runs: { type: 'string', default: '5' },
      seconds: { type: 'string', default: '4' },
      throttle: { type: 'boolean', default: false },
      scales: { type: 'string', default: '1,10,100' },
      'save-write-baseline': { type: 'boolean', default: false },
      'fleet-scale': { type: 'string', default: process.env.VIGIA_FLEET_SCALE ?? '1' },
      'fleet-minutes': { type: 'string', default: '10' },
    },
  });
  let results: BenchResults;
  if (values.from) {
    try {
      results = parseResults(JSON.parse(readFileSync(values.from, 'utf8')), values.from);
    } catch (e) {
      throw new UsageError(e instanceof Error ? e.message : String(e), { cause: e });
    }
  } else {
    const only = parseOnly(values.only);
    const scales = values.scales.split(',').map(Number);
    if (scales.some((f) => !(f > 0))) throw new UsageError(`--scales takes a comma-separated list of positive factors (got ${JSON.stringify(values.scales)})`);
    const fleet = { scale: Number(values['fleet-scale']), minutes: Number(values['fleet-minutes']) };
    if (!(fleet.scale > 0 && fleet.scale <= 1)) throw new UsageError(`--fleet-scale takes a number in (0, 1] (got ${JSON.stringify(values['fleet-scale'])})`);
    if (!(Number.isInteger(fleet.minutes) && fleet.minutes >= 1)) throw new UsageError(`--fleet-minutes takes a whole number ≥ 1 (got ${JSON.stringify(values['fleet-minutes'])})`);
    results = await measure({ only, runs: Math.max(5, Number(values.runs)), seconds: Number(values.seconds), throttle: values.throttle, scales, saveWriteBaseline: values['save-write-baseline'], fleet });
    const dir = path.join(REPO_ROOT, 'bench/results');
    const latest = path.join(dir, 'latest.json');
    if (only.size < SECTIONS.length && existsSync(latest)) {
      let previous: BenchResults | null = null;
      try {
        previous = parseResults(JSON.parse(readFileSync(latest, 'utf8')), path.relative(REPO_ROOT, latest));
      } catch (e) {
        log(`not merging into the previous results: ${e instanceof Error ? e.message : String(e)}`);
      }
      const merged = mergeResults(previous, results, only);
      if (merged.note) log(merged.note);
      if (merged.kept.length) log(`kept from ${path.relative(REPO_ROOT, latest)}: ${merged.kept.map((k) => `${k} (${merged.results.measuredAt[k]})`).join(', ')}`);
      results = merged.results;
    }
    if (only.has('fleet') && results.fleet) {
      const { renderCostReport } = await import('./cost.js');
      writeFileSync(path.join(REPO_ROOT, 'docs/cost.md'), renderCostReport(results));
      log('docs/cost.md regenerated from the fleet and scale figures');
    }
    const outcomes = checkBudgets(results);
    mkdirSync(dir, { recursive: true });
    writeFileSync(latest, JSON.stringify(results, null, 2) + '\n');
    const md = renderMarkdown(results, outcomes);
    writeFileSync(path.join(dir, 'latest.md'), md);
    console.log(md);
    const readmePath = path.join(REPO_ROOT, 'README.md');
    const readme = replaceReadmeSummary(readFileSync(readmePath, 'utf8'), renderReadmeSummary(results, outcomes));
    if (readme === null) log('README.md has no bench summary markers; not updated');
    else {
      writeFileSync(readmePath, readme);
      log('README.md "Performance" summary updated');
    }
  }
  if (!values.check) return 0;
  if (values.from) return report(checkBudgets(results)) ? 0 : 1;
  const only = parseOnly(values.only);
  if (only.size < SECTIONS.length) log(`--check: the budgets of ${[...only].join(', ')} (the sections this run measured)`);
  return report(outcomesOfSections(checkBudgets(results), only)) ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e instanceof UsageError ? `bench: ${e.message}` : e instanceof Error ? e.stack : e);
    process.exit(2);
  },
);
