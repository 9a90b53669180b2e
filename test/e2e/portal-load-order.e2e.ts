/**
 * What the portal's load-speed budgets rely on, in real Chromium (docs/portal.md#bundles,
 * docs/portal.md#sign-in-to-dashboard, docs/benchmarks.md#budgets):
 * - the sign-in page requests `/config.json` together with the entry script (the `<link rel="preload">` of
 *   index.html), and the start-up's fetch takes that response instead of a second request after the script;
 * - a sign-in starts `GET /summary` (and `GET /me`) while the signed-in portal's chunk is still downloading:
 *   the chunk is held back here until the summary request has been sent, so a portal that asks for the summary
 *   only once that chunk has rendered never gets there; and the dashboard shows the prefetched summary
 *   without asking for it again.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DEMO_PASSWORD } from '../../scripts/local/demo-data.js';
import { newPage, startE2e, VIEWPORTS, type E2eEnv } from '../support/e2e.js';

let env: E2eEnv;
/** The dashboard's figures (as the bench waits for them, scripts/bench/portal.ts `DASHBOARD_DATA`). */
const KPI = 'section[aria-labelledby="kpi-incidents"] .tile-value';

describe('portal load order: configuration with the script, dashboard data with the signed-in chunk', () => {
  before(async () => {
    env = await startE2e();
  });
  after(async () => {
    await env?.close();
  });

  it('requests /config.json with the entry script, once', async () => {
    const { page, problems, context } = await newPage(env, VIEWPORTS.desktop);
    await page.goto(`${env.web}/page/login`);
    await page.getByLabel('Correo electrónico').waitFor();
    const entries = await page.evaluate<Array<{ name: string; initiatorType: string; startTime: number; responseEnd: number }>>(
      `performance.getEntriesByType('resource').map((e) => ({ name: new URL(e.name).pathname, initiatorType: e.initiatorType, startTime: e.startTime, responseEnd: e.responseEnd }))`,
    );
    const config = entries.filter((e) => e.name === '/config.json');
    assert.equal(config.length, 1, `one /config.json request (the preload, taken by the start-up's fetch): ${JSON.stringify(config)}`);
    assert.equal(config[0]!.initiatorType, 'link', 'requested by the <link rel="preload"> of index.html, not after the script ran');
    const entry = entries.find((e) => /^\/assets\/index-[\w-]+\.js$/.test(e.name));
    assert.ok(entry, 'the entry script was loaded');
    assert.ok(config[0]!.startTime < entry.responseEnd, `config.json (${config[0]!.startTime} ms) requested before the entry script arrived (${entry.responseEnd} ms)`);
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('a sign-in requests the summary while the signed-in chunk is still downloading, and the dashboard uses it', async () => {
    const { page, problems, context } = await newPage(env, VIEWPORTS.desktop);
    const summaries: string[] = [];
    let summarySeen: () => void = () => undefined;
    const summaryRequested = new Promise<void>((resolve) => (summarySeen = resolve));
    page.on('request', (r) => {
      if (r.method() === 'GET' && new URL(r.url()).pathname.endsWith('/summary') && r.url().startsWith(env.stack.urls.api)) {
        summaries.push(r.url());
        summarySeen();
      }
    });
    // The signed-in portal's chunk is answered only once a summary request was sent (or after 15 s).
    let heldWhenSummaryRequested = false;
    await page.route(/\/assets\/SignedInApp-[\w-]+\.js$/, async (route) => {
      const seen = await Promise.race([summaryRequested.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 15_000))]);
      if (seen) heldWhenSummaryRequested = true;
      await route.continue();
    });
    await page.goto(`${env.web}/page/login`);
    await page.getByLabel('Correo electrónico').fill('ana@acme.example');
    await page.getByLabel('Contraseña', { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Iniciar sesión' }).click();
    await page.locator(KPI).first().waitFor({ timeout: 30_000 });
    assert.ok(heldWhenSummaryRequested, 'GET /summary was requested while the signed-in chunk was still held back');
    assert.equal(summaries.length, 1, `the dashboard showed the prefetched summary without a second request: ${summaries.join(', ')}`);
    assert.match(summaries[0]!, /[?&]tenant=acme(&|$)/, "the customer's tenant");
    assert.deepEqual(problems, []);
    await context.close();
  });
});
