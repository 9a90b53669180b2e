/**
 * What the portal's load-speed budgets rely on, in real Chromium (docs/portal.md#bundles,
 * docs/portal.md#sign-in-to-dashboard, docs/benchmarks.md#budgets):
 * - the sign-in page makes no request for its configuration: the server wrote it into index.html
 *   (docs/portal.md#configuration-in-indexhtml) and the start-up renders the form from it;
 * - a sign-in starts `GET /summary` (and `GET /me`) while the signed-in portal's chunk is still downloading:
 *   the chunk is held back here until the summary request has been sent, so a portal that asks for the summary
 *   only once that chunk has rendered never gets there; and the dashboard shows the prefetched summary
 *   without asking for it again;
 * - the summary request leaves as soon as the user pool has answered the sign-in with its tokens, before the
 *   device is confirmed (`ConfirmDevice` is held back here until a summary request was sent: a portal that starts
 *   it only on Amplify's `signedIn`, which follows ConfirmDevice, never gets there; docs/portal.md#sign-in-to-dashboard).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../scripts/local/demo-data.js';
import { checkA11y, newPage, screenshot, startE2e, VIEWPORTS, type E2eEnv } from '../support/e2e.js';

let env: E2eEnv;
/** The dashboard's figures (as the bench waits for them, scripts/bench/portal.ts `DASHBOARD_DATA`). */
const KPI = 'section[aria-labelledby="kpi-incidents"] .tile-value';

/**
 * Watches `page` for the dashboard's `GET …/summary` requests to the API: `summaries` collects their URLs as they
 * are sent; `summaryWithin15s()` resolves true once one has been sent, false when none has after 15 s.
 */
function watchSummaries(page: Page): { summaries: string[]; summaryWithin15s: () => Promise<boolean> } {
  const summaries: string[] = [];
  let summarySeen: () => void = () => undefined;
  const summaryRequested = new Promise<void>((resolve) => (summarySeen = resolve));
  page.on('request', (r) => {
    if (r.method() === 'GET' && new URL(r.url()).pathname.endsWith('/summary') && r.url().startsWith(env.stack.urls.api)) {
      summaries.push(r.url());
      summarySeen();
    }
  });
  const summaryWithin15s = () => Promise.race([summaryRequested.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 15_000))]);
  return { summaries, summaryWithin15s };
}

/** Signs ana (Acme) in through the sign-in page's form and waits for the dashboard's figures. */
async function signInToDashboard(page: Page): Promise<void> {
  await page.goto(`${env.web}/page/login`);
  await page.getByLabel('Correo electrónico').fill('ana@acme.example');
  await page.getByLabel('Contraseña', { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  await page.locator(KPI).first().waitFor({ timeout: 30_000 });
}

describe('portal load order: configuration in the page, dashboard data with the signed-in chunk', () => {
  before(async () => {
    env = await startE2e();
  });
  after(async () => {
    await env?.close();
  });

  it('shows the sign-in form from the configuration in index.html, with no configuration request', async () => {
    const { page, problems, context } = await newPage(env, VIEWPORTS.desktop);
    const requests: string[] = [];
    page.on('request', (r) => requests.push(`${r.resourceType()} ${new URL(r.url()).pathname}`));
    const response = await page.goto(`${env.web}/page/login`);
    const html = await response!.text();
    assert.match(html, /<script type="application\/json" id="vigia-config">/, 'the page carries its configuration');
    assert.doesNotMatch(html, /href="\/config\.json"/, 'and no preload of /config.json');
    await page.getByLabel('Correo electrónico').waitFor();
    // ...nor later: the idle-time loads after the form (docs/portal.md#bundles) have ended.
    await page.waitForLoadState('networkidle');
    assert.deepEqual(requests.filter((r) => r.endsWith('/config.json')), [], `no /config.json request: ${requests.join(', ')}`);
    assert.ok(requests.some((r) => /^script \/assets\/index-[\w-]+\.js$/.test(r)), `the entry script was loaded: ${requests.join(', ')}`);
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('a sign-in requests the summary while the signed-in chunk is still downloading, and the dashboard uses it', async () => {
    const { page, problems, context } = await newPage(env, VIEWPORTS.desktop);
    const { summaries, summaryWithin15s } = watchSummaries(page);
    // The signed-in portal's chunk is answered only once a summary request was sent (or after 15 s).
    let heldWhenSummaryRequested = false;
    await page.route(/\/assets\/SignedInApp-[\w-]+\.js$/, async (route) => {
      const seen = await summaryWithin15s();
      if (seen) heldWhenSummaryRequested = true;
      await route.continue();
    });
    await signInToDashboard(page);
    assert.ok(heldWhenSummaryRequested, 'GET /summary was requested while the signed-in chunk was still held back');
    assert.equal(summaries.length, 1, `the dashboard showed the prefetched summary without a second request: ${summaries.join(', ')}`);
    assert.match(summaries[0]!, /[?&]tenant=acme(&|$)/, "the customer's tenant");
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('a sign-in requests the summary before the user pool has confirmed the device, and the dashboard uses it', async () => {
    const { page, problems, context } = await newPage(env, VIEWPORTS.desktop);
    const { summaries, summaryWithin15s } = watchSummaries(page);
    // The user pool's ConfirmDevice (device tracking, sent before Amplify stores the tokens and fires
    // `signedIn`) is answered only once a summary request was sent (or after 15 s).
    const userPool = new URL(env.stack.urls.cognito).origin;
    let confirmDevices = 0;
    let heldWhenSummaryRequested = false;
    await page.route(
      (url) => url.origin === userPool,
      async (route) => {
        if (route.request().headers()['x-amz-target'] !== 'AWSCognitoIdentityProviderService.ConfirmDevice') return route.continue();
        confirmDevices++;
        const seen = await summaryWithin15s();
        if (seen) heldWhenSummaryRequested = true;
        await route.continue();
      },
    );
    await signInToDashboard(page);
    // The portal may show before Amplify's own steps (docs/portal.md#sign-in-to-dashboard): wait until the hidden
    // form's flow has ended (it confirms the device on the way), then count.
    await page.locator('[data-amplify-authenticator]').waitFor({ state: 'detached', timeout: 20_000 });
    assert.equal(confirmDevices, 1, 'device tracking still confirms the device once');
    assert.ok(heldWhenSummaryRequested, 'GET /summary was requested while ConfirmDevice was still held back');
    assert.equal(summaries.length, 1, `the dashboard showed the early summary without a second request: ${summaries.join(', ')}`);
    assert.match(summaries[0]!, /[?&]tenant=acme(&|$)/, "the customer's tenant");
    const violations = await checkA11y(page);
    assert.deepEqual(violations, [], violations.map((v) => `${v.id} (${v.impact}) ${v.targets.join(', ')}`).join('; '));
    await screenshot(page, 'signin-early-summary-desktop');
    await page.setViewportSize(VIEWPORTS.phone);
    await screenshot(page, 'signin-early-summary-phone');
    assert.deepEqual(problems, []);
    await context.close();
  });
});
