/**
 * Account screens in real Chromium: `/page/passwordchange` (docs/portal.md#password-rules and Spanish messages, wrong
 * current password, success, then sign-in with the new password after `/page/logout`); `/settings` (dark theme,
 * layout toggles, English chrome and sign-in widget, persisted across reloads and sign-out); `/page/error`,
 * `/page/coming-soon` and a template leftover path.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { seedCognito } from '../../scripts/local/seed.js';
import type { Locator } from 'playwright-core';
import { axeSource, checkA11y, newPage, screenshot, settled, signIn, startE2e, VIEWPORTS, type E2eEnv } from '../support/e2e.js';

const run = randomUUID().slice(0, 8);
const PASSWORD = 'Vigia-Cuenta-2026';
const NEW_PASSWORD = 'Vigia-Cambiada-2026';
let env: E2eEnv;

/** A confirmed Acme user with a permanent password (the seed's own Cognito provisioning). */
async function createUser(email: string): Promise<void> {
  await seedCognito(env.stack.urls.cognito, env.stack.config.userPoolId, [{ email, password: PASSWORD, groups: ['acme'], description: 'e2e' }]);
}

/** A computed CSS property of the element (browser-side `getComputedStyle`). */
const css = (locator: Locator, property: string): Promise<string> =>
  locator.evaluate(
    (el, p) => (globalThis as unknown as { getComputedStyle(e: unknown): Record<string, string> }).getComputedStyle(el)[p]!,
    property,
  );

describe('account screens: password change, logout, settings, error and coming-soon pages', () => {
  before(async () => {
    env = await startE2e();
  });
  after(async () => {
    await env?.close();
  });

  it('/page/passwordchange validates in Spanish, refuses a wrong current password, changes it (phone width)', async () => {
    const email = `clave.${run}@acme.example`;
    await createUser(email);
    const { page, problems, context } = await newPage(env, VIEWPORTS.phone);
    await signIn(page, env.web, email, PASSWORD);
    await page.goto(`${env.web}/page/passwordchange`);
    await page.getByRole('heading', { name: 'Cambiar contraseña' }).waitFor();
    const current = page.getByLabel('Contraseña actual');
    const next = page.getByLabel('Nueva contraseña', { exact: true });
    const confirm = page.getByLabel('Confirmar nueva contraseña');
    // Both ≥ 6 characters and different: the match message shows without leaving the fields.
    await next.fill('abcdef');
    await confirm.fill('abcdex');
    await page.getByText('Las contraseñas deben coincidir').waitFor();
    await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
    await page.getByText('La contraseña debe tener al menos 8 caracteres').waitFor();
    await page.getByText('Este campo es obligatorio').waitFor();
    await screenshot(page, 'account-phone-01-password-rules');

    await current.fill('no-es-la-actual');
    await next.fill(NEW_PASSWORD);
    await confirm.fill(NEW_PASSWORD);
    assert.equal(await page.getByText('Las contraseñas deben coincidir').count(), 0);
    await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
    await page.getByRole('alert').getByText('La contraseña actual no es correcta.').waitFor();

    await current.fill(PASSWORD);
    await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
    await page.getByText('Contraseña actualizada.').waitFor();
    await screenshot(page, 'account-phone-02-password-changed');

    // /page/logout: global sign-out, then the sign-in form at /page/login; the new password works.
    await page.goto(`${env.web}/page/logout`);
    await page.waitForURL('**/page/login');
    await signIn(page, env.web, email, NEW_PASSWORD);
    assert.deepEqual(problems.filter((p) => !p.includes('status of 400')), [], 'only the wrong current password failed');
    await context.close();
  });

  it('/team: Acme\'s customer admin invites a colleague as a viewer, makes them an operator, disables and removes them (375 px, axe)', async () => {
    const { page, problems, context } = await newPage(env, VIEWPORTS.desktop);
    await signIn(page, env.web, 'ana@acme.example', 'Vigia-Demo-2026');
    await page.getByRole('navigation', { name: 'Menú principal' }).getByRole('button', { name: 'Usuarios' }).click();
    await page.getByRole('navigation', { name: 'Menú principal' }).getByRole('link', { name: 'Usuarios' }).last().click();
    await page.waitForURL('**/team');
    await page.getByRole('heading', { level: 1, name: 'Usuarios' }).waitFor();
    const email = `colega-${run}@acme.example`;
    await page.getByLabel('Correo electrónico').fill(email);
    await page.getByLabel('Nombre', { exact: true }).fill(`Colega ${run}`);
    await page.getByLabel('Rol', { exact: true }).selectOption('viewer');
    await page.getByRole('button', { name: 'Enviar invitación' }).click();
    await page.getByText(`Invitación enviada a ${email}`).waitFor();
    const row = page.getByRole('row', { name: new RegExp(`Colega ${run}`) });
    await row.waitFor();
    assert.match((await row.textContent()) ?? '', /Invitado/);
    // Raising a role needs no confirmation; disabling and removing ask first.
    await row.getByLabel(`Rol de Colega ${run}`).selectOption('operator');
    await row.getByRole('button', { name: 'Cambiar rol' }).click();
    await page.getByText(`Colega ${run} es ahora Operador.`).waitFor();
    await row.getByRole('button', { name: 'Deshabilitar' }).click();
    await page.getByRole('alertdialog', { name: `¿Deshabilitar a Colega ${run}?` }).getByRole('button', { name: 'Deshabilitar' }).click();
    await page.getByText(`Colega ${run} ya no puede entrar.`).waitFor();
    // The list is read again after the change: the row then offers "Habilitar" and says "Deshabilitado".
    await row.getByRole('button', { name: 'Habilitar', exact: true }).waitFor();
    assert.match((await row.textContent()) ?? '', /Deshabilitado/);
    await page.setViewportSize(VIEWPORTS.phone);
    await settled(page);
    assert.ok((await page.evaluate<number>('document.documentElement.scrollWidth')) <= VIEWPORTS.phone.width, '/team holds 375 px');
    if (axeSource()) {
      const violations = await checkA11y(page);
      assert.deepEqual(violations, [], violations.map((v) => `${v.id} (${v.impact}) ${v.targets.join(', ')}`).join('; '));
    }
    await screenshot(page, 'account-team-phone');
    await row.getByRole('button', { name: 'Quitar' }).click();
    await page.getByRole('alertdialog', { name: `¿Quitar a Colega ${run}?` }).getByRole('button', { name: 'Quitar' }).click();
    await page.getByText(`Colega ${run} ya no está en el cliente.`).waitFor();
    await row.waitFor({ state: 'detached' });
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('/settings: theme, layout toggles and language apply at once and persist in the browser', async () => {
    const { page, problems, context } = await newPage(env, VIEWPORTS.desktop);
    await signIn(page, env.web, 'ana@acme.example', 'Vigia-Demo-2026');
    await page.goto(`${env.web}/settings`);
    await page.getByRole('heading', { name: 'Configuración' }).waitFor();
    const html = page.locator('html');
    assert.equal(await html.getAttribute('data-theme'), 'light');
    const background = () => page.evaluate<string>("getComputedStyle(document.querySelector('.app-main').closest('.app') || document.body).backgroundColor + '|' + getComputedStyle(document.body).backgroundColor");
    const lightBg = await background();
    await page.getByLabel('Oscuro').check();
    assert.equal(await html.getAttribute('data-theme'), 'dark');
    assert.notEqual(await background(), lightBg, 'the dark theme changes the colours');

    await page.getByLabel('Diseño en caja').check();
    assert.equal(await css(page.locator('.app'), 'maxWidth'), '1200px');
    await page.getByLabel('Pie de página fijo').check();
    assert.equal(await css(page.locator('.app-footer'), 'position'), 'sticky');
    await page.getByLabel('Altura completa').check();
    assert.equal(await css(page.locator('.app'), 'display'), 'flex');
    assert.equal(await css(page.locator('.app-main'), 'maxWidth'), '1360px');
    await page.getByLabel('Ancho completo').check();
    assert.equal(await css(page.locator('.app-main'), 'maxWidth'), 'none');
    await page.getByLabel('Menú lateral contraído').check();
    assert.match((await page.locator('.app').getAttribute('class')) ?? '', /sidebar-collapsed/);
    await screenshot(page, 'account-desktop-04-settings-dark');

    await page.getByLabel('Idioma / Language').selectOption('en');
    assert.equal(await html.getAttribute('lang'), 'en');
    // (The collapsed sidebar hides its labels visually, so read its text.)
    await page.getByRole('navigation', { name: 'Main menu', includeHidden: true }).waitFor({ state: 'attached' });
    assert.match((await page.locator('#sidebar').textContent()) ?? '', /Incidents.*Devices/);
    // The page content switches too, at once (docs/portal.md#messages).
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();

    // Persisted in this browser: a reload keeps everything.
    await page.reload();
    await page.getByRole('navigation', { name: 'Main menu', includeHidden: true }).waitFor({ state: 'attached' });
    assert.equal(await html.getAttribute('data-theme'), 'dark');
    assert.equal(await page.getByLabel('Boxed layout').isChecked(), true);
    assert.match((await page.locator('.app').getAttribute('class')) ?? '', /sidebar-collapsed/);
    await screenshot(page, 'account-desktop-05-settings-english');

    // The sign-in widget follows the language.
    await page.goto(`${env.web}/page/logout`);
    await page.waitForURL('**/page/login');
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    await screenshot(page, 'account-desktop-06-sign-in-english');
    // Back to Spanish for the rest.
    await page.evaluate("localStorage.removeItem('vigia.preferences')");
    await page.reload();
    await page.getByRole('button', { name: 'Iniciar sesión' }).waitFor();
    assert.equal(await html.getAttribute('lang'), 'es');
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('/page/error, /page/coming-soon and template leftovers', async () => {
    const { page, problems, context } = await newPage(env, VIEWPORTS.phone);
    await signIn(page, env.web, 'ana@acme.example', 'Vigia-Demo-2026');
    await page.goto(`${env.web}/page/error`);
    await page.getByRole('heading', { name: 'Página no encontrada' }).waitFor();
    await page.goto(`${env.web}/page/coming-soon`);
    await page.getByText('Esta sección estará disponible en una próxima versión del portal.').waitFor();
    await screenshot(page, 'account-phone-03-coming-soon');
    for (const leftover of ['/email/inbox', '/pos/checkout', '/widgets']) {
      await page.goto(`${env.web}${leftover}`);
      await page.getByRole('heading', { name: 'Página no encontrada' }).waitFor();
    }
    await page.getByRole('link', { name: 'Volver al inicio' }).click();
    await page.waitForURL(`${env.web}/`);
    assert.deepEqual(problems, []);
    await context.close();
  });
});
