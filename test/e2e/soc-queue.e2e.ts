/**
 * SOC queue browser suite (issue 31 point 1; docs/sla.md#soc-queue, docs/portal.md#soc-queue): on a fresh
 * `npm start`-equivalent stack, in real Chromium, a customer files a new critical incident ("ransomware");
 * staff sign in and see it on the first page of the queue's default tab "Abiertos", among the untriaged/new
 * incidents that lead it (before every triaged and resolved one of the seed), switch to "Resueltos" (only resolved incidents waiting for the customer; the
 * tabs carry their counts), back to "Abiertos" and filter "Sin asignar" (kept in the URL). Screenshots at 1440
 * and 375 px (no sideways scroll at 375). The alarm console (issue 31 point 4, docs/portal.md#alarm-console): staff
 * filter by a customer, acknowledge one of its open device alarms and one of its open Office 365 alerts and see
 * each row change; axe-clean, 1440/375 px.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../scripts/local/demo-data.js';
import { axeSource, checkA11y, newPage, noSidewaysScroll, screenshot, settled, signIn, startE2e, VIEWPORTS, type E2eEnv } from '../support/e2e.js';

const ANA = 'ana@acme.example';
const ADMIN = 'admin@vigia.example';
const run = Date.now().toString(36);
let env: E2eEnv;


/** The incident ids of the queue's rows, in order (the first cell is the row's bulk checkbox). */
async function rowIds(page: Page): Promise<string[]> {
  return page.locator('tbody tr td:nth-child(2) a').allTextContents();
}

describe('SOC queue', () => {
  before(async () => {
    env = await startE2e();
  });
  after(async () => {
    await env?.close();
  });

  it('a new critical incident is on page 1 with the untriaged work; tabs with counts; "Sin asignar" filters', async () => {
    const customer = await newPage(env, VIEWPORTS.desktop);
    await signIn(customer.page, env.web, ANA, DEMO_PASSWORD);
    await customer.page.goto(`${env.web}/incidents/new`);
    await customer.page.getByLabel('Título').fill(`Ransomware ${run}`);
    await customer.page.getByLabel('Descripción').fill('Archivos cifrados en el servidor de ficheros');
    await customer.page.getByLabel('Severidad').selectOption('critical');
    await customer.page.getByRole('button', { name: 'Crear incidente' }).click();
    const heading = customer.page.getByRole('heading', { level: 1, name: new RegExp(`Ransomware ${run}`) });
    await heading.waitFor();
    const incidentId = (await heading.textContent())!.split(' · ')[0]!;

    for (const viewport of [VIEWPORTS.desktop, VIEWPORTS.phone]) {
      const staff = await newPage(env, viewport);
      const tag = viewport.width;
      await signIn(staff.page, env.web, ADMIN, DEMO_PASSWORD);
      await staff.page.goto(`${env.web}/soc/queue`);
      await settled(staff.page);
      // Default tab "Abiertos": the new critical (untriaged, new) leads the queue of every tenant.
      const open = staff.page.getByRole('tab', { name: /^Abiertos \(\d+\)$/ });
      await open.waitFor();
      assert.equal(await open.getAttribute('aria-selected'), 'true');
      const ids = await rowIds(staff.page);
      assert.ok(ids.length > 1, 'the seeded open work is listed');
      // On page 1, among the untriaged/new incidents that lead the queue (the seed's older untriaged ones,
      // breached days ago, come before it by due time); no triaged or resolved row before it.
      const at = ids.indexOf(incidentId);
      assert.ok(at >= 0, `${incidentId} is on the first page`);
      const before = await staff.page.locator('tbody tr').allTextContents();
      for (const r of before.slice(0, at + 1)) assert.match(r, /sin triaje|Nuevo/);
      assert.ok(!before.some((r) => /Resuelto/.test(r)), 'no resolved row in the open tab');
      assert.equal(await staff.page.evaluate('document.documentElement.scrollWidth <= window.innerWidth + 1'), true, `no sideways scroll at ${tag} px`);
      await screenshot(staff.page, `soc-queue-01-open-${tag}`);

      // "Resueltos": only resolved incidents waiting for the customer.
      await staff.page.getByRole('tab', { name: /^Resueltos \(\d+\)$/ }).click();
      await staff.page.waitForURL(/tab=resolved/);
      await settled(staff.page);
      assert.equal(await staff.page.getByRole('tab', { name: /^Resueltos/ }).getAttribute('aria-selected'), 'true');
      assert.ok(!(await rowIds(staff.page)).includes(incidentId));
      const statuses = await staff.page.locator('tbody tr td:nth-child(5)').allTextContents();
      for (const s of statuses) assert.match(s, /Resuelto/);
      await screenshot(staff.page, `soc-queue-02-resolved-${tag}`);

      // Back to "Abiertos", "Sin asignar": only unassigned rows, the new critical still first.
      await staff.page.getByRole('tab', { name: /^Abiertos/ }).click();
      await settled(staff.page);
      await staff.page.getByLabel('Sin asignar').click();
      await staff.page.waitForURL(/unassigned=true/);
      await settled(staff.page);
      assert.ok((await rowIds(staff.page)).includes(incidentId));
      const assignees = await staff.page.locator('tbody tr td:nth-child(6)').allTextContents();
      for (const a of assignees) assert.equal(a.trim(), 'Sin asignar');
      await screenshot(staff.page, `soc-queue-03-unassigned-${tag}`);
      await staff.context.close();
    }
  });

  it('bulk work: two rows selected, a status change asked first; the untriaged row fails with its message and stays selected, the triaged one goes on hold', async () => {
    for (const viewport of [VIEWPORTS.desktop, VIEWPORTS.phone]) {
      const tag = viewport.width;
      const staff = await newPage(env, viewport);
      await signIn(staff.page, env.web, ADMIN, DEMO_PASSWORD);
      await staff.page.goto(`${env.web}/soc/queue?sort=due`);
      await settled(staff.page);
      // An untriaged incident and a triaged one in progress, loading more of the queue until both are listed.
      const find = async () => {
        const texts = await staff.page.locator('tbody tr').allTextContents();
        return { untriaged: texts.findIndex((r) => /sin triaje/.test(r)), triaged: texts.findIndex((r) => /En curso/.test(r) && !/sin triaje/.test(r)) };
      };
      let at = await find();
      while (at.untriaged < 0 || at.triaged < 0) {
        const more = staff.page.getByRole('button', { name: 'Cargar más' });
        assert.ok(await more.count(), 'the seed has untriaged incidents and triaged ones in progress');
        await more.click();
        await staff.page.waitForLoadState('networkidle');
        at = await find();
      }
      // Incident ids are per tenant: a row is its id and its customer, as the checkbox's name says.
      const ids = await rowIds(staff.page);
      const customers = await staff.page.locator('tbody tr td:nth-child(3)').allTextContents();
      const [bad, good] = [ids[at.untriaged]!, ids[at.triaged]!];
      const badBox = staff.page.getByLabel(`Seleccionar ${bad} (${customers[at.untriaged]!.trim()})`, { exact: true });
      const goodBox = staff.page.getByLabel(`Seleccionar ${good} (${customers[at.triaged]!.trim()})`, { exact: true });
      await badBox.check();
      await goodBox.check();
      await staff.page.getByText('2 seleccionados').waitFor();
      await staff.page.getByLabel('Nuevo estado').selectOption('on_hold');
      await staff.page.getByRole('button', { name: 'Cambiar estado' }).click();
      const dialog = staff.page.getByRole('alertdialog', { name: '¿Pasar 2 incidentes a «En espera»?' });
      await dialog.waitFor();
      await screenshot(staff.page, `soc-queue-04-bulk-confirm-${tag}`);
      await dialog.getByRole('button', { name: 'Aplicar a 2' }).click();
      const alert = staff.page.getByRole('alert');
      await alert.getByText('1 incidente cambiado.').waitFor();
      assert.match((await alert.textContent()) ?? '', new RegExp(`${bad} \\(.+\\): .+`));
      await settled(staff.page);
      // The triaged one is on hold now; the failed one is unchanged and still selected.
      const goodRow = staff.page.locator('tr', { has: goodBox });
      assert.match((await goodRow.textContent()) ?? '', /En espera/);
      assert.equal(await badBox.isChecked(), true);
      assert.equal(await goodBox.isChecked(), false);
      await noSidewaysScroll(staff.page);
      await screenshot(staff.page, `soc-queue-05-bulk-result-${tag}`);
      await staff.context.close();
    }
  });

  it('alarm console: staff filter by a customer and acknowledge one of its open device alarms and one of its Office 365 alerts; each row shows "Reconocida"', async () => {
    for (const viewport of [VIEWPORTS.desktop, VIEWPORTS.phone]) {
      const tag = viewport.width;
      const staff = await newPage(env, viewport);
      await signIn(staff.page, env.web, ADMIN, DEMO_PASSWORD);
      await staff.page.goto(`${env.web}/soc/alarms`);
      await settled(staff.page);
      // Every customer's alarms and alerts: both kinds of the seed are listed.
      const table = staff.page.getByRole('table', { name: /todos los clientes/ });
      await table.waitFor();
      const kinds = await table.locator('tbody tr td:nth-child(2)').allTextContents();
      assert.ok(kinds.length > 0, 'the seeded alarms are listed');
      // Filter by one customer (kept in the URL): only its rows.
      await staff.page.getByRole('search', { name: 'Filtrar la consola' }).getByLabel('Cliente').selectOption('globex');
      await staff.page.waitForURL(/tenant=globex/);
      await settled(staff.page);
      const customers = await table.locator('tbody tr td:nth-child(1)').allTextContents();
      assert.ok(customers.length > 0, 'Globex has alarms');
      for (const c of customers) assert.equal(c.trim(), 'Globex Salud');
      assert.equal(await staff.page.evaluate('document.documentElement.scrollWidth <= window.innerWidth + 1'), true, `no sideways scroll at ${tag} px`);
      if (tag === VIEWPORTS.desktop.width) {
        // Acknowledge its first open device alarm, then its first open Office 365 alert (Vigía's
        // acknowledgement beside Microsoft's status): each row changes state and names who, the button goes.
        for (const [kind, kindLabel] of [['device', 'Dispositivo'], ['office365', 'Office 365']] as const) {
          await staff.page.getByRole('search', { name: 'Filtrar la consola' }).getByLabel('Tipo').selectOption(kind);
          await staff.page.waitForURL(new RegExp(`kind=${kind}`));
          await settled(staff.page);
          const ack = staff.page.getByRole('button', { name: /^Reconocer «.+» de .+ \(Globex Salud\)$/ }).first();
          const label = (await ack.getAttribute('aria-label'))!;
          const title = /^Reconocer «(.+)» de /.exec(label)![1]!;
          // Its row's place: acknowledging changes no row's place (newest raised first).
          const rows = table.locator('tbody tr');
          let at = 0;
          while ((await rows.nth(at).getByRole('button', { name: label, exact: true }).count()) === 0) at++;
          const before = (await rows.nth(at).textContent()) ?? '';
          assert.match(before, /Abierta/);
          assert.ok(before.includes(kindLabel), `a ${kindLabel} row`);
          await ack.click();
          await staff.page.getByRole('status').getByText(`Alarma «${title}» reconocida.`).waitFor();
          await settled(staff.page);
          assert.equal(await staff.page.getByRole('button', { name: label, exact: true }).count(), 0);
          const after = (await rows.nth(at).textContent()) ?? '';
          assert.ok(after.includes(title), `row ${at} is still «${title}»`);
          assert.match(after, /Reconocida/);
          assert.match(after, new RegExp(`Reconocida por ${ADMIN.replace('.', '\\.')}`));
        }
      }
      // No serious or critical axe-core violation (when axe-core is installed, as in CI).
      if (axeSource()) assert.deepEqual((await checkA11y(staff.page)).map((v) => `${v.id} ${v.targets.join(', ')}`), [], `axe at ${tag} px`);
      await screenshot(staff.page, `soc-alarm-console-${tag}`);
      await staff.context.close();
    }
  });
});
