/**
 * Accessibility of the sign-in page and the account/shell screens (docs/portal.md#accessibility): axe-core finds no serious
 * or critical violation at 375 px and 1440 px; signing in and moving through the sidebar menu work with the
 * keyboard only. Needs axe-core (devDependency, or AXE_CORE_PATH); skipped with that reason when it is missing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../scripts/local/demo-data.js';
import { axeSource, checkA11y, newPage, screenshot, signIn, startE2e, VIEWPORTS, type E2eEnv, signedInAs } from '../support/e2e.js';

const SCREENS = ['/profile', '/settings', '/page/passwordchange', '/page/error', '/page/coming-soon'] as const;
const skip = axeSource() ? false : 'axe-core is not installed (npm i -E -D axe-core@4.14.1, or set AXE_CORE_PATH)';
let env: E2eEnv;

async function assertNoSeriousViolations(page: Page, where: string): Promise<void> {
  const violations = await checkA11y(page);
  assert.deepEqual(violations, [], `${where}: ${violations.map((v) => `${v.id} (${v.impact}) ${v.targets.join(', ')}`).join('; ')}`);
}

describe('accessibility: axe-core and keyboard', { skip }, () => {
  before(async () => {
    env = await startE2e();
  });
  after(async () => {
    await env?.close();
  });

  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    for (const theme of ['light', 'dark'] as const) {
      it(`${name} (${viewport.width} px), ${theme} theme: sign-in page, account screens and shell have no serious or critical violation`, async () => {
        const { page, context } = await newPage(env, viewport);
        // The display preference (localStorage `vigia.preferences`, web/src/features/settings/preferences.ts)
        // is set before every load, so the sign-in page and each screen open in this theme.
        await page.addInitScript({
          content: `(() => { const k = 'vigia.preferences'; const p = JSON.parse(localStorage.getItem(k) ?? '{}'); localStorage.setItem(k, JSON.stringify({ ...p, theme: ${JSON.stringify(theme)} })); })()`,
        });
        await page.goto(`${env.web}/page/login`);
        await page.getByLabel('Correo electrónico').waitFor();
        await assertNoSeriousViolations(page, 'sign-in');
        // The remote-error alert too.
        await page.getByLabel('Correo electrónico').fill('ana@acme.example');
        await page.getByLabel('Contraseña', { exact: true }).fill('no-es-la-clave');
        await page.getByRole('button', { name: 'Iniciar sesión' }).click();
        await page.getByRole('button', { name: 'Descartar alerta' }).waitFor();
        // Let Amplify's button finish its colour transition out of the pending state (axe reads computed colours).
        await page.waitForTimeout(500);
        await assertNoSeriousViolations(page, 'sign-in error');
        await page.goto(`${env.web}/page/register`);
        await page.getByLabel('Confirmar contraseña', { exact: true }).waitFor();
        await assertNoSeriousViolations(page, 'create account');

        await signIn(page, env.web, 'ana@acme.example', DEMO_PASSWORD);
        for (const screen of SCREENS) {
          await page.goto(`${env.web}${screen}`);
          await page.getByRole('heading', { level: 1 }).first().waitFor();
          await page.waitForLoadState('networkidle');
          await assertNoSeriousViolations(page, screen);
        }
        assert.equal(await page.evaluate<string | undefined>('document.documentElement.dataset.theme'), theme, 'the screens were checked in this theme');
        await context.close();
      });
    }
  }

  it('keyboard only: sign in, open a submenu and follow a link', async () => {
    const { page, problems, context } = await newPage(env, VIEWPORTS.desktop);
    await page.goto(`${env.web}/page/login`);
    await page.getByLabel('Correo electrónico').waitFor();
    // Tab from the top of the page into the e-mail field.
    const focused = () => page.evaluate<string>("(document.activeElement && (document.activeElement.getAttribute('name') || document.activeElement.textContent || '')).trim()");
    for (let i = 0; i < 10 && (await focused()) !== 'username'; i++) await page.keyboard.press('Tab');
    assert.equal(await focused(), 'username', 'Tab reaches the e-mail field');
    await page.keyboard.type('ana@acme.example');
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'password');
    await page.keyboard.type(DEMO_PASSWORD);
    await page.keyboard.press('Enter');
    await signedInAs(page, 'ana@acme.example');

    // Skip link first, then on to the "Incidentes" group of the menu.
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'Saltar al contenido');
    for (let i = 0; i < 40 && (await focused()) !== 'Incidentes'; i++) await page.keyboard.press('Tab');
    assert.equal(await focused(), 'Incidentes', 'Tab reaches the menu');
    await page.keyboard.press('Enter');
    const nav = page.getByRole('navigation', { name: 'Menú principal' });
    assert.equal(await nav.getByRole('button', { name: 'Incidentes' }).getAttribute('aria-expanded'), 'true');
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'Ver');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/incidents/all');
    await page.getByRole('table', { name: 'Lista de incidentes' }).getByRole('row').nth(1).waitFor();
    await screenshot(page, 'a11y-desktop-01-keyboard');
    assert.deepEqual(problems, []);
    await context.close();
  });
});
