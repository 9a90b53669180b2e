/**
 * Portal figures: builds the portal (`web/vite.config.ts`) and the Authenticator-only reference
 * (`bench/reference/`) into temp folders in the same run, compares their initial assets, then times cold
 * loads and the sign-in → dashboard data flow in headless Chromium (playwright-core + Debian's
 * `/usr/bin/chromium` with the flags of `scripts/lib/chromium.ts`, see docs/decisions/headless-chromium.md).
 * What the figures mean and why the reference: docs/benchmarks.md#portal-the-authenticator-only-page.
 *
 * - "Initial" assets = the `<script src>` (the entry module, the portal's classic first-paint script) +
 *   `<link rel="modulepreload">` + stylesheets of
 *   the built index.html. Gzip sizes use zlib level 9.
 * - The portal is served as in AWS: its pages carry the configuration (`servePortalPage`,
 *   docs/portal.md#configuration-in-indexhtml), and `/config.json` is served too; the reference has its own in its script.
 * - Each load uses a fresh browser context (empty HTTP cache); portal and reference loads alternate.
 * - First paint = `first-paint` (or `first-contentful-paint`); "e-mail field visible" = first moment a
 *   MutationObserver/animation frame sees a visible `input[name="username"]`; both ms since navigation.
 * - The credentials are typed (`TYPING_DELAY_MS` a key) on both pages, then the form is submitted.
 * - Sign-in → data = from the form's submit event to the dashboard's two summary cards showing figures
 *   (`.tile-value` in `#kpi-incidents`/`#kpi-devices` cards), in page time. The reference's counterpart is
 *   submit → its signed-in line, on the same local user pool. A flow that does not get there within 20 s
 *   is not retried: `dashboard.error` says what it waited for and what the page showed, with a screenshot
 *   under `test-results/bench/`; the run records it as a portal error and `portal.dashboard` fails.
 *   (`test/e2e/screens-business.e2e.ts` checks that `DASHBOARD_DATA` finds the rendered dashboard's figures.)
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from 'playwright-core';
import sirv from 'sirv';
import type { DemoUser } from '../local/demo-data.js';
import { REPO_ROOT } from '../local/config.js';
import { servePortalPage } from '../local/portal-index.js';
import type { RunningLocalStack } from '../local/stack.js';
import { CHROMIUM_ARGS, chromiumPath } from '../lib/chromium.js';
import { median } from './stats.js';
import type { AssetSizes, LoadTimings, PortalResults } from './types.js';

/** `VIGIA_CHROMIUM` (kept for existing scripts) or the project default (`CHROMIUM_PATH`, /usr/bin/chromium). */
export const CHROMIUM_PATH = process.env.VIGIA_CHROMIUM ?? chromiumPath();
/** Selector of the dashboard's data: a figure in both summary cards. */
export const DASHBOARD_DATA = ['section[aria-labelledby="kpi-incidents"] .tile-value', 'section[aria-labelledby="kpi-devices"] .tile-value'];
const EMAIL_FIELD = 'input[name="username"]';
/**
 * Ms between two keys of the credentials in a sign-in flow: 20 ms (50 keys a second, a fast typist's burst) —
 * a person cannot submit the form in the first milliseconds after it appears, which an instant fill did.
 */
export const TYPING_DELAY_MS = 20;
/** Where a failed sign-in flow leaves its screenshot (git-ignored). */
const FAILURE_DIR = path.join(REPO_ROOT, 'test-results/bench');

/** Raw and gzip (level 9) size of one file, bytes. */
function sizes(file: string): { raw: number; gzip: number } {
  const buf = readFileSync(file);
  return { raw: buf.length, gzip: gzipSync(buf, { level: 9 }).length };
}

/** Value of attribute `name` in one HTML start tag, or null. */
function attr(tag: string, name: string): string | null {
  const m = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
  return m ? (m[1] ?? m[2] ?? m[3] ?? '') : null;
}

/**
 * The initial asset URLs of a built index.html (Vite's output): `js` = `<script src>` (module or classic) +
 * `<link rel="modulepreload" href>`, `css` = `<link rel="stylesheet" href>`, in document order, deduplicated.
 */
export function initialRefs(html: string): { js: string[]; css: string[] } {
  const js: string[] = [];
  const css: string[] = [];
  for (const [tag] of html.matchAll(/<(?:script|link)\b[^>]*>/gi)) {
    const isScript = /^<script/i.test(tag);
    const type = (attr(tag, 'type') ?? '').toLowerCase();
    // Module and classic scripts (the sign-in page's first-paint script is a classic one); not data blocks.
    if (isScript && attr(tag, 'src') && (type === '' || type === 'module' || type === 'text/javascript')) js.push(attr(tag, 'src')!);
    if (!isScript) {
      const rel = (attr(tag, 'rel') ?? '').toLowerCase().split(/\s+/);
      const href = attr(tag, 'href');
      if (href && rel.includes('modulepreload')) js.push(href);
      if (href && rel.includes('stylesheet')) css.push(href);
    }
  }
  return { js: [...new Set(js)], css: [...new Set(css)] };
}

/**
 * The initial assets referenced by `<dir>/index.html`: entry module script, modulepreloads, stylesheets.
 * @throws Error if index.html is missing.
 */
export function initialAssets(dir: string): AssetSizes {
  const { js, css } = initialRefs(readFileSync(path.join(dir, 'index.html'), 'utf8'));
  const out: AssetSizes = { jsBytes: 0, jsGzipBytes: 0, cssBytes: 0, cssGzipBytes: 0, files: [] };
  for (const [list, kind] of [[js, 'js'], [css, 'css']] as const)
    for (const href of new Set(list)) {
      const rel = href.replace(/^\//, '');
      const s = sizes(path.join(dir, rel));
      out.files.push(rel);
      if (kind === 'js') {
        out.jsBytes += s.raw;
        out.jsGzipBytes += s.gzip;
      } else {
        out.cssBytes += s.raw;
        out.cssGzipBytes += s.gzip;
      }
    }
  return out;
}

async function viteBuild(configFile: string, outDir: string): Promise<void> {
  const { build } = await import('vite');
  // VIGIA_BENCH_TRACE=profile: unminified, so the profile names functions (its timings are then not the bench's).
  const minify = process.env.VIGIA_BENCH_TRACE === 'profile' ? { minify: false } : {};
  await build({ configFile, logLevel: 'warn', mode: 'production', build: { outDir, emptyOutDir: true, ...minify } });
}

async function serve(dir: string, port: number, configJson?: string): Promise<{ url: string; stop(): Promise<void> }> {
  const assets = sirv(dir, { single: true, dev: false, etag: true });
  const server = http.createServer((req, res) => {
    if (configJson && req.url?.split('?')[0] === '/config.json') {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
      res.end(configJson);
      return;
    }
    // The portal's pages carry the configuration, as every server that delivers the portal writes it
    // (docs/portal.md#configuration-in-indexhtml); the reference has its own in its script.
    if (configJson && servePortalPage(req, res, dir, configJson)) return;
    assets(req, res, () => {
      res.writeHead(404);
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

/** In-page probe: records when the e-mail field first becomes visible and when a form is submitted. */
const PROBE = `(() => {
  const w = window;
  const check = () => {
    if (w.__emailAt) return;
    const el = document.querySelector(${JSON.stringify(EMAIL_FIELD)});
    if (el && el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden') w.__emailAt = performance.now();
  };
  // Milestones of a sign-in for the trace (VIGIA_BENCH_TRACE): the signed-in shell, the dashboard's first card, and
  // its first figure inserted (a DOM mutation; "data shown" is when the next animation frame finds every figure).
  const marks = { shell: '#main-content', dashboard: 'section[aria-labelledby="kpi-incidents"]', 'first figure': ${JSON.stringify(DASHBOARD_DATA[0])} };
  w.__marks = {};
  new MutationObserver(() => {
    for (const [k, sel] of Object.entries(marks)) if (!w.__marks[k] && document.querySelector(sel)) w.__marks[k] = performance.now();
  }).observe(document, { subtree: true, childList: true });
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true });
  const tick = () => { check(); if (!w.__emailAt) requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  document.addEventListener('submit', () => { w.__submitAt = performance.now(); }, true);
})();`;

async function newPage(browser: Browser, throttle: boolean, init?: string): Promise<Page> {
  const context = await browser.newContext();
  await context.addInitScript(PROBE);
  if (init) await context.addInitScript(init);
  const page = await context.newPage();
  if (throttle) {
    const cdp = await context.newCDPSession(page);
    // Slow 4G (DevTools preset) + 4× CPU slowdown.
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  }
  return page;
}

async function coldLoad(browser: Browser, url: string, throttle: boolean): Promise<LoadTimings> {
  const page = await newPage(browser, throttle);
  try {
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForFunction('window.__emailAt', null, { timeout: 30_000 });
    // The field may be in the DOM a frame before anything is painted: wait for the paint entry.
    await page.waitForFunction("performance.getEntriesByType('paint').length > 0", null, { timeout: 10_000 });
    return await page.evaluate<LoadTimings>(`(() => {
      const paints = performance.getEntriesByType('paint');
      const fp = paints.find((p) => p.name === 'first-paint') ?? paints.find((p) => p.name === 'first-contentful-paint');
      return { firstPaintMs: Math.round(fp ? fp.startTime : NaN), emailVisibleMs: Math.round(window.__emailAt) };
    })()`);
  } finally {
    await page.context().close();
  }
}

/** One request of a sign-in flow, ms after the submit event (page time): when it started and when its response ended. */
export interface TraceEntry {
  /** `<port> <path>`: Cognito's operations all POST `/` (the port tells the user pool from the API and the web server). */
  name: string;
  startMs: number;
  endMs: number;
}

/** In-page: the requests that ended after the submit (Resource Timing), plus `data` (the dashboard's figures shown). */
const TRACE = `(() => {
  const t0 = window.__submitAt;
  const rows = performance.getEntriesByType('resource').filter((e) => e.responseEnd > t0).map((e) => {
    const u = new URL(e.name);
    return { name: u.port + ' ' + u.pathname + (u.search ? '?' + u.searchParams.toString().slice(0, 40) : ''), startMs: Math.round(e.startTime - t0), endMs: Math.round(e.responseEnd - t0) };
  });
  rows.push({ name: 'data shown', startMs: Math.round(window.__dataAt - t0), endMs: Math.round(window.__dataAt - t0) });
  for (const [k, at] of Object.entries(window.__marks || {})) if (at > t0) rows.push({ name: k + ' in the DOM', startMs: Math.round(at - t0), endMs: Math.round(at - t0) });
  return rows.sort((a, b) => a.startMs - b.startMs);
})()`;

/** The part of a V8 CPU profile `profileTail` reads (Chrome DevTools Protocol, `Profiler.Profile`). */
interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>;
  startTime: number;
  endTime: number;
  samples: number[];
  /** µs between samples. */
  timeDeltas: number[];
}

/** How much of the end of a profiled flow `profileTail` summarises, ms (the render after the user pool's last answer). */
const PROFILE_TAIL_MS = 400;

/**
 * The 12 functions with the most self time in the last `PROFILE_TAIL_MS` of `profile` (its end is a few ms after
 * the data showed), as trace rows `self <ms> <function> <file>:<line>` (start/end = the row's self ms), plus
 * the idle and the total sampled.
 */
function profileTail(profile: CpuProfile): TraceEntry[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let t = profile.startTime;
  const from = profile.endTime - PROFILE_TAIL_MS * 1000;
  profile.samples.forEach((id, i) => {
    t += profile.timeDeltas[i] ?? 0;
    if (t < from) return;
    const f = byId.get(id)!.callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop() ?? ''}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i + 1] ?? 0) / 1000);
  });
  return [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 12)
    .map(([name, ms]) => ({ name: `self in the last ${PROFILE_TAIL_MS} ms: ${name}`, startMs: Math.round(ms), endMs: Math.round(ms) }));
}

/**
 * Signs in on `url` and returns (submit → `doneSelectors` all present) ms in page time, the JS URLs fetched and
 * the flow's requests after the submit (`trace`, for the breakdown `VIGIA_BENCH_TRACE=1` logs).
 */
async function signInFlow(browser: Browser, url: string, user: DemoUser, doneSelectors: string[], init?: string): Promise<{ ms: number; js: string[]; trace: TraceEntry[] }> {
  const page = await newPage(browser, false, init);
  const js: string[] = [];
  page.on('response', (r) => {
    if (r.request().resourceType() === 'script' || /\.m?js(\?|$)/.test(r.url())) js.push(new URL(r.url()).pathname);
  });
  try {
    await page.goto(url, { waitUntil: 'commit' });
    // Typed as a fast typist would (TYPING_DELAY_MS a key), on both pages: set in the first milliseconds the form
    // is there, the credentials were submitted while the page still loaded what it loads after the form.
    await page.locator(EMAIL_FIELD).pressSequentially(user.email, { timeout: 30_000, delay: TYPING_DELAY_MS });
    await page.locator('input[name="password"]').pressSequentially(user.password, { delay: TYPING_DELAY_MS });
    // VIGIA_BENCH_TRACE=profile: a CPU profile of the flow, its last `PROFILE_TAIL_MS` summarised by function.
    const cdp = process.env.VIGIA_BENCH_TRACE === 'profile' ? await page.context().newCDPSession(page) : null;
    if (cdp) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 250 });
      await cdp.send('Profiler.start');
    }
    await page.locator('button[type="submit"]').first().click();
    await page.waitForFunction(
      `(() => {
        if (${JSON.stringify(doneSelectors)}.every((s) => document.querySelector(s))) window.__dataAt ??= performance.now();
        return window.__dataAt;
      })()`,
      null,
      { timeout: 20_000, polling: 'raf' },
    );
    const ms = await page.evaluate<number>('Math.round(window.__dataAt - window.__submitAt)');
    if (!Number.isFinite(ms)) throw new Error('no submit event seen before the data (window.__submitAt unset)');
    const trace = await page.evaluate<TraceEntry[]>(TRACE);
    if (cdp) trace.push(...profileTail((await cdp.send('Profiler.stop')).profile as CpuProfile));
    return { ms, js, trace };
  } catch (e) {
    const shot = path.join(FAILURE_DIR, `sign-in-${new URL(url).port}-${Date.now()}.png`);
    mkdirSync(FAILURE_DIR, { recursive: true });
    await page.screenshot({ path: shot, fullPage: true }).catch(() => undefined);
    const where = await page.evaluate<string>("location.pathname + ': ' + document.body.innerText.replace(/\\s+/g, ' ').slice(0, 300)").catch(() => '?');
    const why = e instanceof Error ? e.message.split('\n')[0]! : String(e);
    throw new Error(`waiting for ${doneSelectors.join(' + ')}: ${why} — page ${where} — screenshot ${path.relative(REPO_ROOT, shot)}`, { cause: e });
  } finally {
    await page.context().close();
  }
}

/** `Chromium 1xx.x.x` from the binary, or null. */
async function chromiumVersion(browser: Browser): Promise<string> {
  return `Chromium ${browser.version()}`;
}

export interface PortalBenchOptions {
  stack: RunningLocalStack;
  /** Port the stack's API allows as CORS origin (the portal is served there). */
  webPort: number;
  user: DemoUser;
  runs: number;
  throttle: boolean;
  log?: (l: string) => void;
}

/**
 * Builds, serves and measures the portal and the reference. Temp folders and servers are removed.
 * @throws Error when Chromium is missing or a build fails.
 */
export async function measurePortal(o: PortalBenchOptions): Promise<{ results: PortalResults; chromium: string }> {
  const log = o.log ?? (() => undefined);
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`Chromium not found at ${CHROMIUM_PATH} (apt-get install -y chromium, or set VIGIA_CHROMIUM)`);
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'vigia-bench-web-'));
  const stops: Array<() => Promise<void>> = [];
  let browser: Browser | undefined;
  try {
    const portalDir = path.join(tmp, 'portal');
    const refDir = path.join(tmp, 'reference');
    let t = Date.now();
    await viteBuild(path.join(REPO_ROOT, 'web/vite.config.ts'), portalDir);
    await viteBuild(path.join(REPO_ROOT, 'bench/reference/vite.config.ts'), refDir);
    log(`portal + reference built (${Date.now() - t} ms)`);
    const initial = { portal: initialAssets(portalDir), reference: initialAssets(refDir) };

    const portal = await serve(portalDir, o.webPort, JSON.stringify(o.stack.config));
    stops.push(portal.stop);
    const ref = await serve(refDir, 0);
    stops.push(ref.stop);
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });

    t = Date.now();
    await coldLoad(browser, `${portal.url}/`, false); // warm-up: OS caches, browser process
    await coldLoad(browser, `${ref.url}/`, false);
    const p: LoadTimings[] = [];
    const r: LoadTimings[] = [];
    for (let i = 0; i < o.runs; i++) {
      p.push(await coldLoad(browser, `${portal.url}/`, o.throttle));
      r.push(await coldLoad(browser, `${ref.url}/`, o.throttle));
    }
    const med = (xs: LoadTimings[]): LoadTimings => ({ firstPaintMs: median(xs.map((x) => x.firstPaintMs)), emailVisibleMs: median(xs.map((x) => x.emailVisibleMs)) });
    log(`cold loads done (${Date.now() - t} ms)`);

    t = Date.now();
    const refInit = `window.__VIGIA_BENCH_CONFIG__ = ${JSON.stringify({ userPoolId: o.stack.config.userPoolId, userPoolClientId: o.stack.config.userPoolClientId, userPoolEndpoint: o.stack.config.userPoolEndpoint })};`;
    // A quarter as many sign-in flows as cold loads, at least 3: each is ~1–2 s of the user pool's SRP steps, and
    // the reference's figure moves by ±15 % between flows on these machines, so 3 alone decided the budget by chance.
    const signInRuns = Math.max(3, Math.round(o.runs / 4));
    const dash: number[] = [];
    const refSignIn: number[] = [];
    const jsFiles = new Set<string>();
    let dashError: string | null = null;
    for (let i = 0; i < signInRuns; i++) {
      if (!dashError)
        try {
          const d = await signInFlow(browser, `${portal.url}/`, o.user, DASHBOARD_DATA);
          dash.push(d.ms);
          d.js.forEach((f) => jsFiles.add(f));
          if (process.env.VIGIA_BENCH_TRACE) log(`portal sign-in ${i + 1}: ${d.ms} ms\n${d.trace.map((e) => `  ${String(e.startMs).padStart(5)} → ${String(e.endMs).padStart(5)}  ${e.name}`).join('\n')}`);
        } catch (e) {
          // Not retried: a broken dashboard would cost a timeout per run.
          dashError = e instanceof Error ? e.message.split('\n')[0]! : String(e);
        }
      const rf = await signInFlow(browser, `${ref.url}/`, o.user, ['[data-bench="signed-in"]'], refInit);
      refSignIn.push(rf.ms);
      if (process.env.VIGIA_BENCH_TRACE) log(`reference sign-in ${i + 1}: ${rf.ms} ms\n${rf.trace.map((e) => `  ${String(e.startMs).padStart(5)} → ${String(e.endMs).padStart(5)}  ${e.name}`).join('\n')}`);
    }
    if (dashError) log(`dashboard sign-in failed: ${dashError}`);
    let jsBytes = 0;
    let jsGzipBytes = 0;
    for (const f of jsFiles) {
      const file = path.join(portalDir, f.replace(/^\//, ''));
      if (!existsSync(file)) continue;
      const s = sizes(file);
      jsBytes += s.raw;
      jsGzipBytes += s.gzip;
    }
    log(`sign-in flows done (${Date.now() - t} ms)`);
    return {
      chromium: await chromiumVersion(browser),
      results: {
        initial,
        load: { runs: o.runs, throttled: o.throttle, portal: med(p), reference: med(r) },
        dashboard: {
          runs: dash.length,
          jsBytes,
          jsGzipBytes,
          signInToDataMs: dash.length ? median(dash) : null,
          referenceSignInMs: refSignIn.length ? median(refSignIn) : null,
          error: dashError,
        },
      },
    };
  } finally {
    await browser?.close().catch(() => undefined);
    for (const s of stops.reverse()) await s().catch(() => undefined);
    rmSync(tmp, { recursive: true, force: true });
  }
}
