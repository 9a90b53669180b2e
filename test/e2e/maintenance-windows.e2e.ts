/**
 * Maintenance windows in real Chromium (docs/portal.md#maintenance-windows, docs/api.md#maintenance-windows; issue 32
 * point 4): Acme's customer admin (ana@acme.example) opens Dispositivos → Mantenimiento, is refused an end before the
 * start (the message under "Fin", nothing stored), declares a window for a device chosen by name, sees it listed with
 * the device's name, edits it, and deletes it after confirming. At 375 px the page holds its width and axe-core finds
 * nothing. Against the `npm start`-equivalent stack (real API, DynamoDB engine, local Cognito).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { DEMO_PASSWORD } from '../../scripts/local/demo-data.js';
import { axeSource, checkA11y, newPage, screenshot, settled, signIn, startE2e, VIEWPORTS, type E2eEnv } from '../support/e2e.js';

const run = randomUUID().slice(0, 6);
let env: E2eEnv;

/** `yyyy-mm-ddThh:mm` (a `datetime-local` value) of tomorrow at `hour`:00, in the browser's (= this process's) time zone. */
function tomorrowAt(hour: number): string {
  const d = new Date(Date.now() + 86_400_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(hour)}:00`;
}

describe('maintenance windows page', () => {
  before(async () => {
    env = await startE2e({ collector: false });
  });
  after(async () => {
    await env?.close();
  });

  it('ana declares a window for a device by name, is refused an end before the start, edits and deletes it (375 px, axe)', async () => {
    const { page, problems, context } = await newPage(env, VIEWPORTS.desktop);
    await signIn(page, env.web, 'ana@acme.example', DEMO_PASSWORD);
    const nav = page.getByRole('navigation', { name: 'Menú principal' });
    await nav.getByRole('button', { name: 'Dispositivos' }).click();
    await nav.getByRole('link', { name: 'Mantenimiento' }).click();
    await page.waitForURL('**/devices/maintenance');
    await page.getByRole('heading', { level: 1, name: 'Mantenimiento' }).waitFor();
    await settled(page);

    // A device by its name: the search box narrows the server's list, the name is picked from it.
    const form = page.locator('form.maintenance-form');
    const devices = form.getByRole('combobox', { name: 'Dispositivos', exact: true });
    await devices.locator('option').nth(1).waitFor({ state: 'attached' });
    const option = (await devices.locator('option').nth(1).textContent()) ?? '';
    const name = option.replace(/ \([^)]*\)$/, '');
    assert.ok(name.length > 0, 'the picker offers the tenant\u2019s devices by name');
    await form.getByLabel('Buscar dispositivo por nombre').fill(name);
    await devices.selectOption({ label: option });
    await form.getByRole('button', { name: 'Añadir dispositivo' }).click();
    await form.getByRole('list', { name: 'Dispositivos elegidos' }).getByText(name, { exact: true }).waitFor();

    const title = `Firmware ${run}`;
    await form.getByLabel('Trabajo').fill(title);
    await form.getByLabel('Inicio').fill(tomorrowAt(10));
    await form.getByLabel('Fin').fill(tomorrowAt(9));
    await form.getByRole('button', { name: 'Declarar ventana' }).click();
    await form.getByText('El fin debe ser posterior al inicio.').waitFor();
    assert.equal(await form.getByLabel('Fin').getAttribute('aria-invalid'), 'true');
    assert.equal(await page.getByRole('row', { name: new RegExp(title) }).count(), 0, 'nothing stored');

    await form.getByLabel('Fin').fill(tomorrowAt(12));
    await form.getByRole('button', { name: 'Declarar ventana' }).click();
    await page.getByText(`Ventana «${title}» declarada.`).waitFor();
    const row = page.getByRole('row', { name: new RegExp(title) });
    await row.getByText(name, { exact: true }).waitFor();
    assert.match((await row.textContent()) ?? '', /Próxima/);

    // Edit: the same form, filled with the window; saved at the version read.
    await row.getByRole('button', { name: `Editar ${title}` }).click();
    await page.getByRole('heading', { name: `Editar «${title}»` }).waitFor();
    assert.equal(await form.getByLabel('Inicio').inputValue(), tomorrowAt(10), 'start shown in the reader\u2019s time zone');
    await form.getByLabel('Trabajo').fill(`${title} (2)`);
    await form.getByLabel('Fin').fill(tomorrowAt(13));
    await form.getByRole('button', { name: 'Guardar ventana' }).click();
    await page.getByText(`Ventana «${title} (2)» guardada.`).waitFor();
    const edited = page.getByRole('row', { name: new RegExp(`${title} \\(2\\)`) });
    await edited.waitFor();

    await page.setViewportSize(VIEWPORTS.phone);
    await settled(page);
    assert.ok((await page.evaluate<number>('document.documentElement.scrollWidth')) <= VIEWPORTS.phone.width, '/devices/maintenance holds 375 px');
    if (axeSource()) {
      const violations = await checkA11y(page);
      assert.deepEqual(violations, [], violations.map((v) => `${v.id} (${v.impact}) ${v.targets.join(', ')}`).join('; '));
    }
    await screenshot(page, 'maintenance-windows-phone');

    await edited.getByRole('button', { name: `Eliminar ${title} (2)` }).click();
    await page.getByRole('alertdialog', { name: `¿Eliminar la ventana «${title} (2)»?` }).getByRole('button', { name: 'Eliminar' }).click();
    await page.getByText(`Ventana «${title} (2)» eliminada.`).waitFor();
    await edited.waitFor({ state: 'detached' });
    assert.deepEqual(problems, []);
    await context.close();
  });
});
