/**
 * Session revocation in the browser (docs/api.md#session-revocation, docs/portal.md#session-loss): against a
 * fresh `npm start`-equivalent stack, in real Chromium, ana has the portal open in one browser context while
 * staff disable her in another ("Deshabilitar" on the tenant's users, confirmed). Ana's next requests are
 * refused 401 SESSION_REVOKED within the window (the API containers re-read the marker after 30 s: her page
 * reloads every 2 s, as any navigation would) and the portal signs her out to the sign-in page with the
 * Spanish message. The time from the confirmation to the sign-in page is measured and must stay under 60 s.
 * Its own stack: disabling ana would break the other suites' sign-ins.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DEMO_PASSWORD } from '../../scripts/local/demo-data.js';
import { REVOCATION_WINDOW_MS } from '../../lambdas/domain/session-revocation.js';
import { newPage, screenshot, signIn, startE2e, VIEWPORTS, type E2eEnv } from '../support/e2e.js';

const ANA = 'ana@acme.example';
const ADMIN = 'admin@vigia.example';
/** What the sign-in page says (web/src/shared/lib/i18n.ts `ES_OVERRIDES`). */
const MESSAGE = 'Tu sesión se ha cerrado: un administrador ha deshabilitado tu cuenta o te ha retirado el acceso. Vuelve a iniciar sesión si aún tienes acceso.';
let env: E2eEnv;

describe('session revocation', () => {
  before(async () => {
    env = await startE2e();
  });
  after(async () => {
    await env?.close();
  });

  it('staff disable ana while her session is open: within the window her next request signs her out to the sign-in page, with the message in Spanish', async () => {
    const ana = await newPage(env, VIEWPORTS.desktop);
    await signIn(ana.page, env.web, ANA, DEMO_PASSWORD);
    await ana.page.goto(`${env.web}/incidents`);
    await ana.page.getByRole('heading', { level: 1 }).first().waitFor();

    const staff = await newPage(env, VIEWPORTS.desktop);
    await signIn(staff.page, env.web, ADMIN, DEMO_PASSWORD);
    await staff.page.goto(`${env.web}/admin/tenants/acme`);
    const row = staff.page.locator('tr', { hasText: ANA });
    await row.getByRole('button', { name: 'Deshabilitar' }).click();
    const dialog = staff.page.getByRole('alertdialog', { name: /^¿Deshabilitar a .+\?$/ });
    await dialog.getByRole('button', { name: 'Deshabilitar' }).click();
    await dialog.waitFor({ state: 'detached' });
    await row.getByText('Deshabilitado').waitFor();
    const disabledAt = Date.now();

    // Ana keeps using the portal: each reload sends her (still unexpired) ID token again.
    const notice = ana.page.getByTestId('session-revoked');
    const refused: number[] = [];
    ana.page.on('response', (r) => {
      if (r.url().startsWith(env.stack.urls.api) && r.status() === 401) refused.push(r.status());
    });
    while (!(await notice.count())) {
      assert.ok(Date.now() - disabledAt < REVOCATION_WINDOW_MS, `ana is still signed in ${Date.now() - disabledAt} ms after being disabled`);
      await ana.page.waitForTimeout(2_000);
      if (await notice.count()) break;
      await ana.page.reload();
      await ana.page.waitForLoadState('networkidle');
    }
    const signedOutAfter = Date.now() - disabledAt;
    console.log(`  ana signed out ${signedOutAfter} ms after the disable (window ${REVOCATION_WINDOW_MS} ms)`);
    assert.ok(signedOutAfter < REVOCATION_WINDOW_MS);
    assert.ok(refused.length > 0, 'the API refused her token with 401');
    await ana.page.waitForURL((u) => u.pathname === '/page/login');
    assert.equal((await notice.textContent())?.trim(), MESSAGE);
    await ana.page.getByRole('button', { name: 'Iniciar sesión' }).waitFor();
    await screenshot(ana.page, 'session-revoked-01-signin');
    // The same notice at the phone width (375 px), above the form.
    await ana.page.setViewportSize(VIEWPORTS.phone);
    assert.ok(await notice.isVisible());
    await screenshot(ana.page, 'session-revoked-02-signin-phone');

    // Her account is disabled: signing in again is refused by the user pool.
    await ana.page.getByLabel('Correo electrónico').fill(ANA);
    await ana.page.getByLabel('Contraseña', { exact: true }).fill(DEMO_PASSWORD);
    await ana.page.getByRole('button', { name: 'Iniciar sesión' }).click();
    await ana.page.getByRole('alert').filter({ hasNotText: MESSAGE }).first().waitFor();
    assert.equal(new URL(ana.page.url()).pathname, '/page/login');

    assert.deepEqual(staff.problems, []);
    await ana.context.close();
    await staff.context.close();
  });
});
