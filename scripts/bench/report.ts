/**
 * Renders `BenchResults` (+ budget outcomes) as the Markdown table of `bench/results/latest.md`.
 * Pure: same input, same text. Ratios are "measured ÷ same-run reference".
 */
import { summariseBudgets, type BudgetOutcome } from './budgets.js';
import { ratio } from './stats.js';
import { SECTIONS, type BenchResults, type FleetResults, type ColdStartBundle, type ScaleCall, type ScalePageView, type ScaleResults, type Section } from './types.js';

const kb = (b: number) => `${(b / 1024).toFixed(1)} KB`;
const ms = (v: number | null) => (v == null ? '–' : `${v.toFixed(v < 10 ? 1 : 0)} ms`);
const r = (v: number | null) => (v == null ? '–' : `**${v.toFixed(2)} ×**`);
/** A ratio without emphasis (diagnostic figures). */
const plain = (v: number | null) => (v == null ? '–' : `${v.toFixed(2)} ×`);

/** The whole report: machine line, one table per section, the budget list and any section errors. */
export function renderMarkdown(res: BenchResults, budgets: BudgetOutcome[]): string {
  const m = res.machine;
  const when = SECTIONS.filter((s) => res.measuredAt[s] !== undefined).map((s) => [s, res.measuredAt[s]!] as const);
  const mixed = new Set(when.map(([, t]) => t)).size > 1;
  /** "_Measured …_" under a section heading, only when sections come from different runs. */
  const measured = (s: Section): string[] => (mixed && res.measuredAt[s] ? [`_Measured ${res.measuredAt[s]}._`, ''] : []);
  const lines: string[] = [
    `# Vigía benchmark — ${res.startedAt}`,
    '',
    `Machine: ${m.cpuModel}, ${m.cores} cores, ${m.memoryGb} GB RAM, ${m.os}, Node ${m.node}${m.chromium ? `, ${m.chromium}` : ''}. ` +
      `${mixed ? `Last run (${when.filter(([, t]) => t === res.startedAt).map(([s]) => s).join(', ')})` : 'Run'} took ${(res.durationMs / 1000).toFixed(0)} s. Ratios are measured ÷ a reference measured in the same run.`,
    '',
    ...(mixed ? [`Sections come from different runs (same machine): ${when.map(([s, t]) => `${s} ${t}`).join(', ')}.`, ''] : []),
  ];

  const p = res.portal;
  if (p) {
    const { portal: a, reference: b } = p.initial;
    const dashOk = !p.dashboard.error && p.dashboard.runs > 0 && p.dashboard.signInToDataMs != null;
    lines.push(
      '## Portal load',
      '',
      ...measured('portal'),
      '| figure | portal | reference (Authenticator only) | ratio |',
      '|---|---:|---:|---:|',
      `| initial JS raw | ${kb(a.jsBytes)} | ${kb(b.jsBytes)} | ${r(ratio(a.jsBytes, b.jsBytes))} |`,
      `| initial JS gzip | ${kb(a.jsGzipBytes)} | ${kb(b.jsGzipBytes)} | ${r(ratio(a.jsGzipBytes, b.jsGzipBytes))} |`,
      `| initial CSS raw | ${kb(a.cssBytes)} | ${kb(b.cssBytes)} | ${r(ratio(a.cssBytes, b.cssBytes))} |`,
      `| initial CSS gzip | ${kb(a.cssGzipBytes)} | ${kb(b.cssGzipBytes)} | ${r(ratio(a.cssGzipBytes, b.cssGzipBytes))} |`,
      `| first paint (median of ${p.load.runs} cold loads${p.load.throttled ? ', throttled' : ''}) | ${ms(p.load.portal.firstPaintMs)} | ${ms(p.load.reference.firstPaintMs)} | ${r(ratio(p.load.portal.firstPaintMs, p.load.reference.firstPaintMs))} |`,
      `| e-mail field visible | ${ms(p.load.portal.emailVisibleMs)} | ${ms(p.load.reference.emailVisibleMs)} | ${r(ratio(p.load.portal.emailVisibleMs, p.load.reference.emailVisibleMs))} |`,
      ...(dashOk
        ? [
            `| signed-in dashboard, all JS gzip (vs reference initial JS gzip) | ${kb(p.dashboard.jsGzipBytes)} | ${kb(b.jsGzipBytes)} | ${r(ratio(p.dashboard.jsGzipBytes, b.jsGzipBytes))} |`,
            `| submit credentials → dashboard data (vs → signed in on the reference; median of ${p.dashboard.runs}) | ${ms(p.dashboard.signInToDataMs)} | ${ms(p.dashboard.referenceSignInMs)} | ${r(ratio(p.dashboard.signInToDataMs, p.dashboard.referenceSignInMs))} |`,
          ]
        : [
            `| signed-in dashboard, all JS gzip | **not measured** | ${kb(b.jsGzipBytes)} | – |`,
            `| submit credentials → dashboard data | **not measured** | ${ms(p.dashboard.referenceSignInMs)} | – |`,
          ]),
      ...(dashOk ? [] : ['', `**Signed-in dashboard flow failed** (its figures are missing; \`portal.dashboard\` fails): ${p.dashboard.error ?? 'no dashboard data seen'}`]),
      '',
    );
  }

  if (res.api && res.api.length) {
    lines.push(
      '## API (local gateway vs the same Query on the engine)',
      '',
      ...measured('api'),
      'Reference (budgeted): the route\'s first Query sent straight to the engine from one Node process with the AWS SDK v3 document client — ' +
        'the standard client, as the engine ceiling in docs/benchmarks.md was measured; it does not move when the handlers\' own client changes.',
      '',
      '| route | c | gateway req/s | engine req/s | throughput ratio | gateway p50 / p99 | engine p50 / p99 | p99 ratio |',
      '|---|---:|---:|---:|---:|---:|---:|---:|',
    );
    for (const a of res.api) {
      const e = a.engine;
      lines.push(
        `| ${a.method} ${a.path} (${a.kind}) | ${a.concurrency} | ${a.gateway.rps.toFixed(0)}${a.gateway.errors ? ` (${a.gateway.errors} errors)` : ''} | ${e ? e.rps.toFixed(0) : '–'} | ${r(ratio(a.gateway.rps, e?.rps))} | ${ms(a.gateway.p50Ms)} / ${ms(a.gateway.p99Ms)} | ${e ? `${ms(e.p50Ms)} / ${ms(e.p99Ms)}` : '–'} | ${r(ratio(a.gateway.p99Ms, e?.p99Ms))} |`,
      );
    }
    lines.push('');
    const diag = res.api.filter((a) => a.engineHandlersClient);
    if (diag.length) {
      lines.push(
        'Diagnostic (not budgeted): the same Query with the handlers\' own client (aws-lite) — what the gateway, the Powertools router and the handler add per request on top of one client call.',
        '',
        '| route | c | engine req/s (handlers\' client) | gateway ÷ it | engine p99 | gateway p99 ÷ it |',
        '|---|---:|---:|---:|---:|---:|',
        ...diag.map((a) => {
          const h = a.engineHandlersClient!;
          return `| ${a.method} ${a.path} (${a.kind}) | ${a.concurrency} | ${h.rps.toFixed(0)} | ${plain(ratio(a.gateway.rps, h.rps))} | ${ms(h.p99Ms)} | ${plain(ratio(a.gateway.p99Ms, h.p99Ms))} |`;
        }),
        '',
      );
    }
  }

  const c = res.coldStart;
  if (c) {
    const row = (label: string, h: ColdStartBundle) =>
      `| ${label} | ${kb(h.bytes)} | ${ms(h.coldStartMs)} | ${h === c.empty ? '1.00 ×' : r(ratio(h.coldStartMs, c.empty.coldStartMs))} | ${ms(h.importMs)} | ${h === c.empty ? '1.00 ×' : plain(ratio(h.importMs, c.empty.importMs))} |`;
    lines.push(
      '## Lambda cold-start proxy (esbuild bundle as NodejsFunction, fresh Node process per run)',
      '',
      ...measured('lambda'),
      `Budgeted: **cold start**, the wall time from spawning \`node\` until the handler is imported — like Lambda's Init duration it includes the runtime's boot, which the handler cannot avoid. ` +
        `**Import only** (\`await import()\` timed inside that process) is a diagnostic: its reference is only the ESM loader's fixed cost, so its ratios are much larger. Medians of ${c.empty.runs} interleaved runs.`,
      '',
      '| bundle | size | cold start (median) | ratio | import only (median) | ratio |',
      '|---|---:|---:|---:|---:|---:|',
      row('empty handler (reference)', c.empty),
      ...c.diagnostics.map((h) => row(`(diagnostic, not budgeted) ${h.description ?? h.name}`, h)),
      ...c.handlers.map((h) => row(h.name, h)),
      '',
    );
  }

  const d = res.cost;
  if (d) {
    lines.push(
      '## DynamoDB cost per typical call (ReturnConsumedCapacity)',
      '',
      ...measured('api'),
      '| route | HTTP | RCU | WCU | operations | response |',
      '|---|---:|---:|---:|---|---:|',
      ...d.routes.map(
        (x) =>
          `| ${x.method} ${x.path} | ${x.status} | ${x.readUnits} | ${x.writeUnits} | ${summarize(x.commands)} | ${kb(x.responseBytes)}${x.pageItems != null ? `, ${x.pageItems} items` : ''} |`,
      ),
      '',
    );
  }

  if (res.scale && res.scale.runs.length) lines.push(...renderScale(res.scale, measured('scale')), '');
  if (res.fleet) lines.push(...renderFleet(res.fleet, measured('fleet')), '');

  lines.push('## Budgets', '', '| budget | result | detail |', '|---|---|---|');
  for (const b of budgets) lines.push(`| ${b.id} — ${b.rule} | ${b.pass ? 'pass' : '**FAIL**'} | ${b.detail} |`);
  lines.push('');
  const errs = Object.entries(res.errors);
  if (errs.length) lines.push('## Sections that failed (in whole or in part)', '', ...errs.map(([k, v]) => `- ${k}: ${v}`), '');
  return lines.join('\n');
}

/** The fleet section (issue 28): the simulated fleet, units per heartbeat, item classes, hottest keys, rules and drift. */
export function renderFleet(f: FleetResults, measuredLine: string[] = []): string[] {
  const p = f.perHeartbeat;
  return [
    '## Fleet (heartbeats at fleet scale under the DynamoDB rules)',
    '',
    ...measuredLine,
    `${f.devices.toLocaleString('en')} devices in ${f.tenants} tenants (largest ${f.largestTenantDevices.toLocaleString('en')}; scale ${f.scale} of 100,000 / 1,000 / 50,000), one heartbeat a minute in batches of ${f.batchSize}, ${f.minutes} simulated minutes after a warm-up minute, through the ingest handler on the engine behind the rules proxy (\`scripts/bench/fleet.ts\`; docs/benchmarks.md#fleet). ${f.heartbeatsPerWallSecond} heartbeats per wall-clock second.`,
    '',
    `Per heartbeat (each opens a new UTC minute): ${p.requests} DynamoDB requests (${Object.entries(p.byOperation).map(([k, v]) => `${v} ${k}`).join(', ')}), ${p.readUnits} RCU, ${p.writeUnits} WCU (${p.indexWriteUnits} of them index writes).`,
    `Sent ${f.sent}, applied ${f.applied}, replayed ${f.replayed}, lost ${f.lost}, in error ${f.errored}, resent ${f.resent}, stored mismatches ${f.storedMismatch}. Rules proxy: ${f.rules.transactionConflicts} transaction conflicts, ${f.rules.singleItemTransactionConflicts} single-item conflicts, ${f.rules.throttledWrites} throttled writes, ${f.rules.throttledReads} throttled reads. Drift: ${f.drift.entries} entries in ${f.drift.tenantsWithDrift} of ${f.drift.tenantsChecked} tenants.`,
    '',
    '| item class | writes / heartbeat | table WCU / heartbeat |',
    '|---|---:|---:|',
    ...f.itemClasses.map((c) => `| \`${c.itemClass}\` | ${c.writesPerHeartbeat} | ${c.wcuPerHeartbeat} |`),
    '',
    '| hottest keys | scope | peak / simulated s | projected to the full fleet |',
    '|---|---|---:|---:|',
    ...f.hottestPartitions.slice(0, 5).map((h) => `| partition \`${h.key}\` | ${h.scope} | ${h.peakWcuPerSecond} WCU | ${h.projectedWcuPerSecond} WCU/s |`),
    ...f.hottestItems.slice(0, 5).map((h) => `| item \`${h.key.replace(' | ', ' · ')}\` | ${h.scope} | ${h.peakWritesPerSecond} writes | ${h.projectedWritesPerSecond} writes/s |`),
  ];
}

const n2 = (v: number) => String(Math.round(v * 100) / 100);
const secs = (msv: number) => (msv >= 1000 ? `${(msv / 1000).toFixed(1)} s` : `${Math.round(msv)} ms`);
/** One call or page view in a scale table cell: `54 req, 179.5 RCU, 379 ms, 6.2 KB` (+ the HTTP status when not 2xx). */
const scaleCell = (c: Pick<ScaleCall, 'requests' | 'readUnits' | 'wallMs' | 'responseBytes'> & { status?: number; ok?: boolean; truncated?: boolean }) =>
  `${c.requests} req, ${n2(c.readUnits)} RCU, ${secs(c.wallMs)}, ${kb(c.responseBytes)}` +
  (c.status !== undefined && (c.status < 200 || c.status > 299) ? ` (HTTP ${c.status})` : '') +
  (c.ok === false ? ' (a call failed)' : '') +
  (c.truncated ? ' (capped at 1,000 items)' : '');

/** Ids in order of first appearance over the runs. */
function unionIds<T>(lists: T[][], key: (t: T) => string): string[] {
  const seen = new Set<string>();
  for (const l of lists) for (const t of l) seen.add(key(t));
  return [...seen];
}

/** The scale section's tables: the data per factor, every route call, the page views and the writes. */
export function renderScale(s: ScaleResults, measuredLine: string[] = []): string[] {
  const runs = [...s.runs].sort((a, b) => a.factor - b.factor);
  const head = `| ${runs.map((r) => `×${r.factor}`).join(' | ')} |`;
  const rule = `${runs.map(() => '---:').join('|')}|`;
  const row = <T>(label: string, find: (run: (typeof runs)[number]) => T | undefined, cell: (t: T) => string) =>
    `| ${label} | ${runs.map((run) => {
      const t = find(run);
      return t === undefined ? '–' : cell(t);
    }).join(' | ')} |`;
  const base = s.writeBaseline?.wcu ?? {};
  return [
    '## Scale (one tenant at ×1 / ×10 / ×100 the demo size)',
    '',
    ...measuredLine,
    'A tenant of 50 × factor devices (90 days of daily availability each), 10 incidents per device over 365 days, alarms, Office 365 alerts and events and recommendations in proportion, written beside the demo data on a fresh local stack (`scripts/bench/scale-data.ts`). ' +
      'Each cell: DynamoDB requests, consumed RCU, wall time through the local gateway and response size of one call (docs/benchmarks.md#scale).',
    '',
    `| data ${head}`,
    `|---|${rule}`,
    row('devices', (r) => r.data, (d) => d.devices.toLocaleString('en')),
    row('incidents', (r) => r.data, (d) => d.incidents.toLocaleString('en')),
    row('items written', (r) => r.data, (d) => d.items.toLocaleString('en')),
    row('generation (BatchWriteItem)', (r) => r.data, (d) => `${secs(d.generateMs)} (${d.itemsPerSecond.toLocaleString('en')} items/s)`),
    row('afterGenerate (aggregates rebuild)', (r) => r.data, (d) => secs(d.afterGenerateMs)),
    '',
    `| route ${head}`,
    `|---|${rule}`,
    ...unionIds(runs.map((r) => r.routes), (c) => c.id).map((id) => row(`\`${id}\``, (r) => r.routes.find((c) => c.id === id), scaleCell)),
    '',
    `| page view (sum of its calls) ${head}`,
    `|---|${rule}`,
    ...unionIds(runs.map((r) => r.pages), (p: ScalePageView) => p.page).map((page) => row(page, (r) => r.pages.find((p) => p.page === page), (p) => `${p.calls} calls, ${scaleCell(p)}`)),
    '',
    `| write ${head} WCU at ×1 before the aggregates |`,
    `|---|${rule}---:|`,
    ...unionIds(runs.map((r) => r.writes), (c) => c.id).map(
      (id) =>
        `${row(`\`${id}\``, (r) => r.writes.find((c) => c.id === id), (c) => `${c.requests} req, ${n2(c.readUnits)} RCU, ${n2(c.writeUnits)} WCU${c.status >= 200 && c.status < 300 ? '' : ` (HTTP ${c.status})`}`)} ${base[id] ?? '–'} |`,
    ),
  ];
}

/** `['QueryCommand','QueryCommand','GetCommand']` → `2 Query, 1 Get`. */
export function summarize(commands: string[]): string {
  const counts = new Map<string, number>();
  for (const c of commands) counts.set(c.replace(/Command$/, ''), (counts.get(c.replace(/Command$/, '')) ?? 0) + 1);
  return [...counts].map(([k, n]) => `${n} ${k}`).join(', ') || '–';
}

/** Markers around the block `npm run bench` keeps up to date in README.md ("Performance"). */
export const README_MARKERS = { start: '<!-- bench:summary:start (written by npm run bench; do not edit) -->', end: '<!-- bench:summary:end -->' } as const;

/**
 * The README's summary of a results file: when and where it ran, one row per budget (how many of its
 * routes/handlers pass, the worst case), and the portal's headline load figures. Pure.
 */
export function renderReadmeSummary(res: BenchResults, budgets: BudgetOutcome[]): string {
  const m = res.machine;
  const p = res.portal;
  const lines = [
    `Latest run: ${res.startedAt.slice(0, 16).replace('T', ' ')} UTC on ${m.cpuModel}, ${m.cores} cores, ${m.memoryGb} GB RAM, ${m.os}, Node ${m.node}${m.chromium ? `, ${m.chromium}` : ''}. ` +
      `Every figure: \`bench/results/latest.md\`.`,
    '',
    '| budget | passing | worst case | result |',
    '|---|---:|---|---|',
    ...summariseBudgets(budgets).map((b) => `| ${b.rule} | ${b.passed} / ${b.total} | ${b.worst.id.includes(':') ? `${b.worst.id.split(':')[1]}: ` : ''}${b.worst.detail} | ${b.passed === b.total ? 'pass' : '**FAIL**'} |`),
  ];
  if (p) {
    lines.push(
      '',
      '| portal figure | portal | reference (Authenticator only) | ratio |',
      '|---|---:|---:|---:|',
      `| first paint (median of ${p.load.runs} cold loads) | ${ms(p.load.portal.firstPaintMs)} | ${ms(p.load.reference.firstPaintMs)} | ${plain(ratio(p.load.portal.firstPaintMs, p.load.reference.firstPaintMs))} |`,
      `| e-mail field visible | ${ms(p.load.portal.emailVisibleMs)} | ${ms(p.load.reference.emailVisibleMs)} | ${plain(ratio(p.load.portal.emailVisibleMs, p.load.reference.emailVisibleMs))} |`,
      `| submit credentials → dashboard data (reference: → signed in) | ${ms(p.dashboard.signInToDataMs)} | ${ms(p.dashboard.referenceSignInMs)} | ${plain(ratio(p.dashboard.signInToDataMs, p.dashboard.referenceSignInMs))} |`,
    );
  }
  const sc = res.scale;
  if (sc && sc.runs.length) {
    const runs = [...sc.runs].sort((a, b) => a.factor - b.factor);
    lines.push(
      '',
      `| page view (DynamoDB requests, RCU, wall time) | ${runs.map((r) => `×${r.factor} (${r.data.devices.toLocaleString('en')} devices)`).join(' | ')} |`,
      `|---|${runs.map(() => '---:').join('|')}|`,
      ...unionIds(runs.map((r) => r.pages), (p) => p.page).map(
        (page) =>
          `| ${page} | ${runs
            .map((r) => {
              const p = r.pages.find((x) => x.page === page);
              return p ? `${p.requests} req, ${n2(p.readUnits)} RCU, ${secs(p.wallMs)}${p.ok ? '' : ' (failed)'}${p.truncated ? ' (capped)' : ''}` : '–';
            })
            .join(' | ')} |`,
      ),
    );
  }
  return lines.join('\n');
}

/**
 * `readme` with the text between `README_MARKERS` replaced by `block`; null when the markers are missing
 * or out of order (the caller leaves the README alone and says so).
 */
export function replaceReadmeSummary(readme: string, block: string): string | null {
  const a = readme.indexOf(README_MARKERS.start);
  const b = readme.indexOf(README_MARKERS.end);
  if (a < 0 || b < a) return null;
  return `${readme.slice(0, a + README_MARKERS.start.length)}\n${block}\n${readme.slice(b)}`;
}
