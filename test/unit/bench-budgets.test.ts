/**
 * The benchmark's budget check: `checkBudgets` is a pure function of the results JSON. The command line
 * (`npm run bench -- --check --from <file>` and its exit status) is tested in
 * test/integration/bench-check.test.ts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fillParams } from '../../scripts/bench/api.js';
import { budgetSection, checkBudgets, LIMITS, outcomesOfSections } from '../../scripts/bench/budgets.js';
import { initialRefs } from '../../scripts/bench/portal.js';
import { renderMarkdown, summarize } from '../../scripts/bench/report.js';
import { median, percentile, ratio } from '../../scripts/bench/stats.js';
import type { BenchResults } from '../../scripts/bench/types.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const fixture = (name: string) => JSON.parse(readFileSync(path.join(root, 'bench/fixtures', name), 'utf8')) as BenchResults;
const failing = (r: BenchResults) => checkBudgets(r).filter((o) => !o.pass).map((o) => o.id);

describe('checkBudgets', () => {
  it('passes every budget of the passing fixture', () => {
    expect(failing(fixture('passing.json'))).toEqual([]);
  });

  it('fails exactly the sign-in JS budget of the broken fixture (1.20 × the reference)', () => {
    const out = checkBudgets(fixture('broken.json'));
    expect(out.filter((o) => !o.pass).map((o) => o.id)).toEqual(['portal.signin-js']);
    expect(out.find((o) => o.id === 'portal.signin-js')!.detail).toMatch(/^1\.20 ×/);
  });

  it('--only judges the measured sections: a kept failing portal figure does not fail --only scale', () => {
    const out = checkBudgets(fixture('broken.json'));
    expect(outcomesOfSections(out, new Set(['scale'])).every((o) => o.pass && o.id.startsWith('scale.'))).toBe(true);
    expect(outcomesOfSections(out, new Set(['portal'])).filter((o) => !o.pass).map((o) => o.id)).toEqual(['portal.signin-js']);
    expect(outcomesOfSections(out, new Set(['portal', 'api', 'lambda', 'scale']))).toEqual(out);
    const scaleBroken = checkBudgets(fixture('broken-scale.json'));
    expect(outcomesOfSections(scaleBroken, new Set(['scale'])).some((o) => !o.pass)).toBe(true);
  });

  it('maps every budget id to its section (dynamodb.* is measured with api)', () => {
    const ids = checkBudgets(fixture('passing.json')).map((o) => o.id);
    expect(new Set(ids.map(budgetSection))).toEqual(new Set(['portal', 'api', 'lambda', 'scale']));
    expect(budgetSection('dynamodb.no-scan')).toBe('api');
    expect(() => budgetSection('unknown.x')).toThrow(/no bench section/);
  });

  it('treats missing sections as failed ("not measured")', () => {
    const r = { ...fixture('passing.json'), portal: null, api: null, coldStart: null, cost: null, scale: null };
    const out = checkBudgets(r);
    expect(out.every((o) => !o.pass && o.detail.startsWith('not measured'))).toBe(true);
    expect(out.map((o) => o.id)).toEqual([
      'portal.signin-js',
      'portal.signin-email-visible',
      'portal.signin-to-data',
      'portal.dashboard',
      'api.list-throughput',
      'api.list-p99',
      'lambda.cold-start',
      'dynamodb.no-scan',
      'dynamodb.list-cost',
      'scale.route-requests',
      'scale.route-growth',
      'scale.page-requests',
      'scale.page-growth',
      'scale.report-time',
      'scale.write-requests',
      'scale.write-wcu',
      'scale.poll-unchanged',
      'scale.quiet-heartbeat-wcu',
      'scale.tenants-views',
    ]);
    // A file written before the scale section existed has no `scale` at all: the same.
    const { scale: _omitted, ...older } = fixture('passing.json');
    const olderScale = checkBudgets(older).filter((o) => o.id.startsWith('scale.'));
    expect(olderScale.filter((o) => o.id !== 'scale.tenants-views').every((o) => !o.pass && o.detail === 'not measured (no ×100 run)')).toBe(true);
    expect(olderScale.find((o) => o.id === 'scale.tenants-views')).toMatchObject({ pass: false, detail: 'not measured (no 1,000-tenants point)' });
  });

  it('applies the limits at their boundaries', () => {
    const r = fixture('passing.json');
    const c16 = r.api!.find((a) => a.kind === 'list' && a.concurrency === 16)!;
    c16.engine = { ...c16.engine!, rps: 1000, p99Ms: 100 };
    c16.gateway = { ...c16.gateway, rps: 1000 * LIMITS.listThroughput, p99Ms: 100 * LIMITS.listP99 };
    r.portal!.initial.portal.jsGzipBytes = r.portal!.initial.reference.jsGzipBytes * LIMITS.signInJsGzip;
    r.portal!.load.portal.emailVisibleMs = r.portal!.load.reference.emailVisibleMs * LIMITS.signInEmailVisible;
    r.portal!.dashboard.signInToDataMs = r.portal!.dashboard.referenceSignInMs! * LIMITS.signInToData;
    r.coldStart!.handlers[0]!.coldStartMs = r.coldStart!.empty.coldStartMs * LIMITS.handlerColdStart;
    const list = r.cost!.routes.find((c) => c.list)!;
    list.responseBytes = 4096;
    list.readUnits = 2; // ceil(4096 / 4096) + 1
    expect(failing(r)).toEqual([]);

    c16.gateway.rps -= 1;
    c16.gateway.p99Ms += 1;
    r.portal!.initial.portal.jsGzipBytes += 1;
    r.portal!.load.portal.emailVisibleMs += 1;
    r.portal!.dashboard.signInToDataMs += 1;
    r.coldStart!.handlers[0]!.coldStartMs += 0.1;
    list.readUnits = 2.5;
    expect(failing(r)).toEqual([
      'portal.signin-js',
      'portal.signin-email-visible',
      'portal.signin-to-data',
      'api.list-throughput:listIncidents',
      'api.list-p99:listIncidents',
      'lambda.cold-start:incidents',
      'dynamodb.list-cost:listIncidents',
    ]);
  });

  it('budgets the process cold start, not the import-only diagnostic', () => {
    const r = fixture('passing.json');
    const c = r.coldStart!;
    for (const h of c.handlers) h.importMs = c.empty.importMs * 20; // far past 3 × on the diagnostic figure
    expect(failing(r)).toEqual([]);
    expect(checkBudgets(r).find((o) => o.id === 'lambda.cold-start:account')!.detail).toBe('2.40 × (60.0 / 25.0 ms; import only 20.00 ×, not budgeted)');
    c.handlers[1]!.coldStartMs = c.empty.coldStartMs * 8; // e.g. a handler that loads the whole AWS SDK
    expect(failing(r)).toEqual(['lambda.cold-start:account']);
    expect(checkBudgets(r).find((o) => o.id === 'lambda.cold-start:account')!.detail).toMatch(/^8\.00 × \(200\.0 \/ 25\.0 ms/);
    c.empty.coldStartMs = 0;
    expect(checkBudgets(r).find((o) => o.id.startsWith('lambda.'))).toMatchObject({ id: 'lambda.cold-start', pass: false, detail: 'not measured' });
  });

  it('fails the e-mail field figure measured before the prerendered form (issue 32 point 10: 0.79 ×)', () => {
    const r = fixture('passing.json');
    Object.assign(r.portal!.load, { portal: { firstPaintMs: 180, emailVisibleMs: 530 }, reference: { firstPaintMs: 700, emailVisibleMs: 668 } });
    expect(failing(r)).toEqual(['portal.signin-email-visible']);
  });

  it('fails exactly portal.signin-to-data at 2.08 × (the sign-in → dashboard figure before the prefetch at sign-in)', () => {
    const r = fixture('passing.json');
    r.portal!.dashboard.signInToDataMs = 1513;
    r.portal!.dashboard.referenceSignInMs = 727;
    expect(failing(r)).toEqual(['portal.signin-to-data']);
    expect(checkBudgets(r).find((o) => o.id === 'portal.signin-to-data')!.detail).toBe('2.08 × (1513 / 727 ms, 3 runs)');
  });

  it('fails portal.dashboard when the signed-in dashboard flow did not complete', () => {
    const r = fixture('passing.json');
    Object.assign(r.portal!.dashboard, { runs: 0, jsBytes: 0, jsGzipBytes: 0, signInToDataMs: null, error: 'page.waitForFunction: Timeout 20000ms exceeded' });
    const out = checkBudgets(r);
    expect(failing(r)).toEqual(['portal.signin-to-data', 'portal.dashboard']);
    expect(out.find((o) => o.id === 'portal.signin-to-data')!.detail).toBe('not measured (flow failed)');
    expect(out.find((o) => o.id === 'portal.dashboard')!.detail).toBe('flow failed: page.waitForFunction: Timeout 20000ms exceeded');
    const md = renderMarkdown(r, out);
    expect(md).toContain('| signed-in dashboard, all JS gzip | **not measured** | 210.0 KB | – |');
    expect(md).toContain('**Signed-in dashboard flow failed**');
    expect(md).not.toMatch(/\| 0\.0 KB \|/);
  });

  it('fails a list route with errors, without an engine reference, or not answering 200', () => {
    const r = fixture('passing.json');
    const c16 = r.api!.find((a) => a.kind === 'list' && a.concurrency === 16)!;
    c16.gateway.errors = 3;
    expect(failing(r)).toEqual(['api.list-throughput:listIncidents', 'api.list-p99:listIncidents']);
    c16.gateway.errors = 0;
    c16.engine = null;
    expect(failing(r)).toEqual(['api.list-throughput:listIncidents', 'api.list-p99:listIncidents']);
    const r2 = fixture('passing.json');
    r2.cost!.routes[0]!.status = 500;
    expect(failing(r2)).toEqual(['dynamodb.list-cost:listIncidents']);
  });

  it('fails on a Scan issued by a route or found in the source', () => {
    const r = fixture('passing.json');
    r.cost!.routes[1]!.commands.push('ScanCommand');
    expect(checkBudgets(r).find((o) => o.id === 'dynamodb.no-scan')).toMatchObject({ pass: false, detail: 'Scan in route getIncident' });
    const r2 = fixture('passing.json');
    r2.cost!.staticScans = ['lambdas/data/x.ts:3'];
    expect(failing(r2)).toEqual(['dynamodb.no-scan']);
  });

  it('ignores detail routes and concurrency 1 for the API budgets', () => {
    const r = fixture('passing.json');
    for (const a of r.api!) if (a.kind === 'detail' || a.concurrency === 1) a.gateway.rps = 1;
    expect(failing(r)).toEqual([]);
  });
});

describe('scale budgets', () => {
  const big = (r: BenchResults) => r.scale!.runs.find((x) => x.factor === 100)!;
  const outcome = (r: BenchResults, id: string) => checkBudgets(r).find((o) => o.id === id)!;

  it('fails the broken-scale fixture on the 365-day report at ×100, by name: requests/RCU, growth and time', () => {
    expect(failing(fixture('broken-scale.json'))).toEqual(['scale.route-requests:getReport 365d', 'scale.route-growth:getReport 365d', 'scale.report-time:getReport 365d', 'scale.poll-unchanged:getSummary poll unchanged (If-None-Match)', 'scale.poll-unchanged:getSummary poll unchanged while devices beat (If-None-Match)', 'scale.quiet-heartbeat-wcu:ingestHeartbeat same minute']);
    expect(outcome(fixture('broken-scale.json'), 'scale.route-requests:getReport 365d').detail).toBe('5056 requests, 16760 RCU (limits 10, 50)');
  });

  it('applies the absolute limits at ×100 only, at their boundaries', () => {
    const r = fixture('passing.json');
    const c = big(r).routes[0]!;
    Object.assign(c, { requests: 10, readUnits: 50 });
    r.scale!.runs[0]!.routes[0]!.requests = 10; // keep the growth budget (vs ×1) out of it
    r.scale!.runs[0]!.routes[0]!.readUnits = 50;
    expect(failing(r)).toEqual([]);
    c.readUnits = 50.5; // 1.01 × the ×1 figure: only the absolute limit fails
    expect(failing(r)).toEqual(['scale.route-requests:listIncidents']);
    c.readUnits = 50;
    c.requests = 11;
    expect(failing(r)).toEqual(['scale.route-requests:listIncidents']);
    const r2 = fixture('passing.json');
    r2.scale!.runs[0]!.routes[0]!.requests = 500; // ×1 has no absolute limit (it is only the growth base)
    expect(failing(r2)).toEqual([]);
  });

  it('fails growth past 1.2 × the ×1 figure, of requests or of RCU (issue 14; docs/benchmarks.md#growth-budgets)', () => {
    const r = fixture('passing.json');
    const p = big(r).pages.find((x) => x.page === 'dashboard')!;
    p.readUnits = 4 * 1.2; // ×1: 2 requests, 4 RCU
    expect(failing(r)).toEqual([]);
    p.readUnits = 4 * 1.25;
    expect(failing(r)).toEqual(['scale.page-growth:dashboard']);
    expect(outcome(r, 'scale.page-growth:dashboard').detail).toBe('vs ×1: requests 1.00 × (2 / 2), RCU 1.25 × (5 / 4)');
    p.readUnits = 4;
    p.requests = 3;
    expect(failing(r)).toEqual(['scale.page-growth:dashboard']);
  });

  it('judges growth against ×1 even when a ×10 run is there (a page within 1.2 × its ×10 figure still fails)', () => {
    const r = fixture('passing.json');
    const p = big(r).pages.find((x) => x.page === 'dashboard')!;
    p.readUnits = 4.2 * 1.19; // within 1.2 × the ×10 figure (4.2), 1.25 × the ×1 figure (4)
    expect(failing(r)).toEqual(['scale.page-growth:dashboard']);
    // Without a ×1 run, growth is not measured: it fails as such.
    const r2 = fixture('passing.json');
    r2.scale!.runs = r2.scale!.runs.filter((x) => x.factor !== 1);
    expect(outcome(r2, 'scale.page-growth:dashboard')).toMatchObject({ pass: false, detail: 'not measured at ×1' });
    // One Query per device (100 × from ×1 to ×100) fails both budgets.
    const r3 = fixture('passing.json');
    const rep1 = r3.scale!.runs.find((x) => x.factor === 1)!.pages.find((x) => x.page === 'reports-365d')!;
    Object.assign(big(r3).pages.find((x) => x.page === 'reports-365d')!, { requests: rep1.requests * 100, readUnits: rep1.readUnits });
    expect(failing(r3)).toEqual(['scale.page-requests:reports-365d', 'scale.page-growth:reports-365d']);
  });

  it('fails a call that did not answer, a page whose call failed, and a route missing at ×100', () => {
    const r = fixture('passing.json');
    big(r).routes[1]!.status = 500;
    big(r).pages[0]!.ok = false;
    expect(failing(r)).toEqual(['scale.route-requests:listIncidents status=on_hold', 'scale.page-requests:dashboard']);
    const r2 = fixture('passing.json');
    big(r2).routes.splice(0, 1);
    expect(outcome(r2, 'scale.route-requests:listIncidents')).toMatchObject({ pass: false, detail: 'not measured at ×100' });
  });

  it('fails the 365-day report or analytics at ×100 from 1 s or above 200 KB', () => {
    const r = fixture('passing.json');
    const a = big(r).routes.find((c) => c.id === 'getAnalytics 365d')!;
    Object.assign(a, { wallMs: 999, responseBytes: 200 * 1024 });
    expect(failing(r)).toEqual([]);
    a.wallMs = 1000;
    expect(failing(r)).toEqual(['scale.report-time:getAnalytics 365d']);
    Object.assign(a, { wallMs: 10, responseBytes: 200 * 1024 + 1 });
    expect(outcome(r, 'scale.report-time:getAnalytics 365d')).toMatchObject({ pass: false, detail: '10 ms, 200.0 KB' });
  });

  it('fails a write above 2 × its baseline WCU, or without a baseline', () => {
    const r = fixture('passing.json');
    const w = big(r).writes.find((c) => c.id === 'createIncident')!;
    w.writeUnits = 20;
    expect(failing(r)).toEqual([]);
    w.writeUnits = 21;
    expect(failing(r)).toEqual(['scale.write-wcu:createIncident']);
    expect(outcome(r, 'scale.write-wcu:createIncident').detail).toBe('2.10 × (21 / 10 WCU)');
    w.writeUnits = 10;
    // A write that wrote nothing (a heartbeat older than the device's last: a no-op) is not a measurement.
    const hb = big(r).writes.find((c) => c.id === 'ingestHeartbeat')!;
    hb.writeUnits = 0;
    expect(failing(r)).toEqual(['scale.write-wcu:ingestHeartbeat']);
    expect(outcome(r, 'scale.write-wcu:ingestHeartbeat').detail).toMatch(/wrote nothing: not a measurement$/);
    r.scale!.writeBaseline = null;
    expect(outcome(r, 'scale.write-wcu:ingestHeartbeat')).toMatchObject({ pass: false, detail: 'no baseline (bench/reference/write-wcu.json)' });
  });

  it('renders the scale tables with one column per factor', () => {
    const r = fixture('broken-scale.json');
    const md = renderMarkdown(r, checkBudgets(r));
    expect(md).toContain('| route | ×1 | ×10 | ×100 |');
    expect(md).toContain('| `getReport 365d` | 6 req, 8 RCU, 300 ms, 6.2 KB | 6 req, 8.4 RCU, 315 ms, 6.2 KB | 5056 req, 16760 RCU, 26.0 s, 6.2 KB |');
    expect(md).toContain('| `createIncident` | 4 req, 1.5 RCU, 16 WCU | 4 req, 1.5 RCU, 16 WCU | 4 req, 1.5 RCU, 16 WCU | 10 |');
    expect(md).toMatch(/scale\.route-requests:getReport 365d .* \| \*\*FAIL\*\* \|/);
  });
});

describe('helpers', () => {
  it('finds the initial assets of a Vite index.html', () => {
    const html = `<head><script type="module" crossorigin src="/assets/index-a.js"></script>
      <link rel="modulepreload" crossorigin href="/assets/vendor-b.js"><link rel='stylesheet' href=/assets/index-c.css>
      <link rel="icon" href="/favicon.svg"><script src="/assets/first-paint-d.js"></script><link rel="modulepreload" href="/assets/vendor-b.js">
      <script type="application/json" id="vigia-config" src="/not-a-script.json"></script></head>`;
    // Classic scripts are initial JS too (the sign-in page's first-paint script); data blocks are not.
    expect(initialRefs(html)).toEqual({ js: ['/assets/index-a.js', '/assets/vendor-b.js', '/assets/first-paint-d.js'], css: ['/assets/index-c.css'] });
  });

  it('fills detail-route parameters from the first item of a list route, parent path first', () => {
    const items = new Map<string, Record<string, unknown>>([
      ['/alarms', { id: 'ALM-1', deviceId: 'DEV-9' }],
      ['/devices', { id: 'DEV-1' }],
    ]);
    expect(fillParams('/devices/{id}', items)).toEqual({ params: { id: 'DEV-1' }, item: { id: 'DEV-1' } });
    expect(fillParams('/devices/{deviceId}/alarms/{alarmId}/acknowledge', items)?.params).toEqual({ deviceId: 'DEV-9', alarmId: 'ALM-1' });
    expect(fillParams('/reports/{reportId}/{x}', new Map([['/reports', { name: 'r' }]]))).toBeNull();
  });

  it('computes medians, nearest-rank percentiles and ratios', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
    expect(percentile([5, 1, 4, 2, 3], 50)).toBe(3);
    expect(percentile(Array.from({ length: 100 }, (_, i) => i + 1), 99)).toBe(99);
    expect(() => median([])).toThrow(RangeError);
    expect(ratio(3, 2)).toBe(1.5);
    expect(ratio(1, 0)).toBeNull();
    expect(ratio(null, 2)).toBeNull();
  });

  it('renders the table with ratios and marks failed budgets', () => {
    const r = fixture('broken.json');
    const md = renderMarkdown(r, checkBudgets(r));
    expect(md).toContain('| initial JS gzip | 252.0 KB | 210.0 KB | **1.20 ×** |');
    expect(md).toMatch(/portal\.signin-js .* \| \*\*FAIL\*\* \|/);
    expect(summarize(['QueryCommand', 'GetCommand', 'QueryCommand'])).toBe('2 Query, 1 Get');
  });

  it('renders the Lambda table with both figures and their ratios, and says which is budgeted', () => {
    const r = fixture('passing.json');
    const md = renderMarkdown(r, checkBudgets(r));
    expect(md).toContain('| bundle | size | cold start (median) | ratio | import only (median) | ratio |');
    expect(md).toContain('| empty handler (reference) | 0.2 KB | 25 ms | 1.00 × | 10 ms | 1.00 × |');
    expect(md).toContain('| incidents | 488.3 KB | 55 ms | **2.20 ×** | 25 ms | 2.50 × |');
    expect(md).toContain('| (diagnostic, not budgeted) empty handler + AWS SDK v3 DynamoDB clients');
    expect(md).toMatch(/Budgeted: \*\*cold start\*\*, the wall time from spawning `node` until the handler is imported/);
    expect(md).not.toContain('_Measured'); // one run: no per-section times
    expect(md).toContain('Run took 200 s.');
  });
});
