/**
 * Staff operations browser suite (docs/portal.md#soc-queue, #administration, #audit-log, #incident-detail): against a
 * fresh `npm start`-equivalent stack, in real Chromium,
 *  - a customer opens an incident; staff find it in the SOC queue, triage it (severity + reason), assign it
 *    from the picker, acknowledge it (En curso) and resolve it, while the customer sees the status change
 *    and confirms the resolution (Cerrado);
 *  - staff create a tenant, set its SLA targets and invite a user, who signs in with the temporary password
 *    the local stack writes to `<state folder>/invitations.log` and sets a new one;
 *  - the customer's audit log holds its tenant's entries only;
 *  - the staff screens, and the confirmation dialog of a user action (disable), hold 375 px without
 *    sideways scroll and axe-core finds no serious or critical violation on them (skipped part when
 *    axe-core is missing).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../scripts/local/demo-data.js';
import { invitationsLog } from '../../scripts/local/stack.js';
import { axeSource, checkA11y, newPage, screenshot, signIn, startE2e, VIEWPORTS, type E2eEnv, settled, signedInAs } from '../support/e2e.js';

const ANA = 'ana@acme.example';
const ADMIN = 'admin@vigia.example';
const run = Date.now().toString(36);
let env: E2eEnv;
/** The ticket address of the incident the customer opens in the first test. */
let ticketUrl = '';
let incidentId = '';


/** The incident's status badge in the details card. */
function statusBadge(page: Page) {
  return page.locator('.details dd[data-field="status"]');
}

describe('staff operations', () => {
  before(async () => {
    env = await startE2e();
  });
  after(async () => {
    await env?.close();
  });

  it('staff work an incident from the queue while the customer follows it and confirms the resolution', async () => {
    const customer = await newPage(env, VIEWPORTS.desktop);
    await signIn(customer.page, env.web, ANA, DEMO_PASSWORD);
    // The customer names whom the SOC calls (docs/portal.md#escalation-contacts): one 24x7 contact for critical and high.
    await customer.page.goto(`${env.web}/escalation-contacts`);
    await customer.page.getByRole('heading', { level: 1, name: 'Contactos de escalado' }).waitFor();
    await customer.page.getByRole('button', { name: 'Añadir contacto' }).click();
    // The new contact is the last group (its legend gains the name as it is typed, so not found by name).
    const contact = customer.page.locator('fieldset.contact').last();
    await contact.getByLabel('Nombre').fill(`Marta ${run}`);
    await contact.getByLabel('Teléfono').fill('+34 911 23 45 67');
    await contact.getByLabel('Correo electrónico').fill('marta@acme.example');
    await contact.getByRole('radio', { name: 'Siempre (24x7)' }).check();
    await customer.page.getByRole('button', { name: 'Guardar contactos' }).click();
    await customer.page.getByRole('status').filter({ hasText: 'Contactos guardados.' }).waitFor();
    await screenshot(customer.page, 'staff-00-escalation-contacts');
    await customer.page.goto(`${env.web}/incidents/new`);
    await customer.page.getByLabel('Título').fill(`Acceso sospechoso ${run}`);
    await customer.page.getByLabel('Descripción').fill('Inicio de sesión desde un país inusual');
    await customer.page.getByLabel('Severidad').selectOption('critical');
    await customer.page.getByRole('button', { name: 'Crear incidente' }).click();
    const heading = customer.page.getByRole('heading', { level: 1, name: new RegExp(`Acceso sospechoso ${run}`) });
    await heading.waitFor();
    incidentId = (await heading.textContent())!.split(' · ')[0]!;
    ticketUrl = customer.page.url();
    assert.equal(new URL(ticketUrl).searchParams.get('tenant'), 'acme', 'the ticket address names the tenant');
    // A customer has no staff controls.
    assert.equal(await customer.page.getByLabel('Cambiar estado').count(), 0);
    assert.equal(await customer.page.getByRole('button', { name: 'Solicitar cierre' }).count(), 1);

    const staff = await newPage(env, VIEWPORTS.desktop);
    await signIn(staff.page, env.web, ADMIN, DEMO_PASSWORD);
    await staff.page.goto(`${env.web}/soc/queue?tenant=acme`);
    await settled(staff.page);
    const link = staff.page.getByRole('link', { name: incidentId, exact: true });
    while (!(await link.count())) {
      const more = staff.page.getByRole('button', { name: 'Cargar más' });
      assert.ok(await more.count(), `${incidentId} is in the SOC queue`);
      await more.click();
      await staff.page.waitForLoadState('networkidle');
    }
    const row = staff.page.locator('tr', { has: link });
    assert.match((await row.textContent()) ?? '', /Acme/);
    assert.match((await row.textContent()) ?? '', /Sin asignar/);
    await screenshot(staff.page, 'staff-01-soc-queue');
    await link.click();
    await staff.page.getByRole('heading', { level: 2, name: 'Clasificar' }).waitFor();
    assert.equal(new URL(staff.page.url()).searchParams.get('tenant'), 'acme');

    // Triage: severity with a reason.
    await staff.page.getByLabel('Severidad').selectOption('high');
    await staff.page.getByLabel('Motivo').fill('Una sola cuenta afectada');
    await staff.page.getByRole('button', { name: 'Clasificar' }).click();
    await staff.page.getByRole('status').filter({ hasText: 'Incidente clasificado.' }).waitFor();
    // Staff see whom to call for this severity (high): the customer's 24x7 contact, available now, with its phone.
    const whoToCall = staff.page.getByRole('region', { name: 'A quién llamar' });
    await whoToCall.getByText(`Marta ${run}`, { exact: true }).waitFor();
    await whoToCall.getByText('Disponible ahora').first().waitFor();
    assert.equal(await whoToCall.getByRole('link', { name: `Llamar a Marta ${run}` }).getAttribute('href'), 'tel:+34911234567');
    await staff.page.getByText('Motivo: Una sola cuenta afectada').waitFor();

    // Assign from the picker and acknowledge (new → in progress).
    const assignee = staff.page.getByLabel('Asignado a');
    await staff.page.locator('#update-assignee option', { hasText: ADMIN }).waitFor({ state: 'attached' });
    await assignee.selectOption(ADMIN);
    await staff.page.getByLabel('Cambiar estado').selectOption('in_progress');
    await staff.page.getByRole('button', { name: 'Guardar cambios' }).click();
    await statusBadge(staff.page).getByText('En curso').waitFor();
    await staff.page.locator('.details').getByText(ADMIN).waitFor();

    // The customer sees the change.
    await customer.page.reload();
    await statusBadge(customer.page).getByText('En curso').waitFor();

    // Resolve.
    await staff.page.getByLabel('Cambiar estado').selectOption('resolved');
    await staff.page.getByRole('button', { name: 'Guardar cambios' }).click();
    await statusBadge(staff.page).getByText('Resuelto').waitFor();
    await screenshot(staff.page, 'staff-02-ticket-resolved');

    await customer.page.reload();
    await statusBadge(customer.page).getByText('Resuelto').waitFor();
    await customer.page.getByRole('button', { name: 'Confirmar resolución' }).click();
    await statusBadge(customer.page).getByText('Cerrado').waitFor();
    await customer.page.getByText('Resultado SLA').waitFor();
    await screenshot(customer.page, 'staff-03-customer-confirmed');

    // Switching the tenant picker on the ticket page never swaps the incident.
    await staff.page.goto(ticketUrl);
    await staff.page.getByRole('heading', { level: 1, name: new RegExp(incidentId) }).waitFor();
    await staff.page.getByLabel('Cliente').selectOption('globex');
    await staff.page.waitForLoadState('networkidle');
    assert.match((await staff.page.getByRole('heading', { level: 1 }).textContent()) ?? '', new RegExp(`${incidentId} · Acceso sospechoso ${run}`));

    assert.deepEqual(customer.problems, []);
    assert.deepEqual(staff.problems, []);
    await customer.context.close();
    await staff.context.close();
  });

  it('staff create a tenant, set its SLA targets and invite a user who signs in with the temporary password', async () => {
    const tenantId = `e2e-${run}`;
    const name = `Initech ${run}`;
    const email = `nuevo.${run}@initech.example`;
    const staff = await newPage(env, VIEWPORTS.desktop);
    await signIn(staff.page, env.web, ADMIN, DEMO_PASSWORD);
    await staff.page.goto(`${env.web}/admin/tenants`);
    await settled(staff.page);
    await staff.page.getByLabel('ID (nombre del grupo)').fill(tenantId);
    await staff.page.getByLabel('Nombre', { exact: true }).fill(name);
    await staff.page.getByRole('button', { name: 'Crear cliente' }).click();
    await staff.page.getByRole('status').filter({ hasText: `Cliente ${name} creado.` }).waitFor();
    await staff.page.getByRole('link', { name }).click();
    await staff.page.getByRole('heading', { level: 1, name: `Cliente: ${name}` }).waitFor();

    await staff.page.getByLabel('Respuesta Crítica (minutos)').fill('10');
    await staff.page.getByLabel('Resolución Crítica (minutos)').fill('120');
    await staff.page.getByLabel('Disponibilidad objetivo (%)').fill('99.9');
    await staff.page.getByRole('button', { name: 'Guardar cambios' }).click();
    await staff.page.getByRole('status').filter({ hasText: 'Cambios guardados' }).waitFor();

    await staff.page.getByLabel('Correo del nuevo usuario').fill(email);
    await staff.page.getByRole('button', { name: 'Invitar usuario' }).click();
    await staff.page.getByRole('status').filter({ hasText: `Invitación enviada a ${email}` }).waitFor();
    const row = staff.page.locator('tr', { hasText: email });
    await row.getByText('Invitado (contraseña temporal)').waitFor();
    await screenshot(staff.page, 'staff-04-tenant-admin');

    // The local stack writes the temporary password where `npm start` says (it e-mails nothing offline).
    const line = readFileSync(invitationsLog(env.dataDir), 'utf8')
      .split('\n')
      .filter((l) => l.includes(email))
      .pop();
    assert.ok(line, `invitations.log has a line for ${email}`);
    const temporary = line.split('temporary password ')[1]!.trim();

    const invited = await newPage(env, VIEWPORTS.desktop);
    await invited.page.goto(`${env.web}/page/login`);
    await invited.page.getByLabel('Correo electrónico').fill(email);
    await invited.page.getByLabel('Contraseña', { exact: true }).fill(temporary);
    await invited.page.getByRole('button', { name: 'Iniciar sesión' }).click();
    await invited.page.getByRole('heading', { name: 'Cambiar contraseña' }).waitFor();
    await invited.page.getByLabel('Contraseña', { exact: true }).fill('Nueva-Clave-2026!');
    await invited.page.getByLabel('Confirmar contraseña', { exact: true }).fill('Nueva-Clave-2026!');
    await invited.page.getByRole('button', { name: 'Cambiar contraseña' }).click();
    await signedInAs(invited.page, email);

    await staff.page.reload();
    await staff.page.locator('tr', { hasText: email }).getByText('Activo').waitFor();
    assert.deepEqual(staff.problems, []);
    assert.deepEqual(invited.problems, []);
    await staff.context.close();
    await invited.context.close();
  });

  it("a customer sees its tenant's audit log and no other tenant's", async () => {
    const { page, problems, context } = await newPage(env, VIEWPORTS.desktop);
    await signIn(page, env.web, ANA, DEMO_PASSWORD);
    const response = page.waitForResponse((r) => r.url().startsWith(env.stack.urls.api) && new URL(r.url()).pathname.endsWith('/audit') && r.request().method() === 'GET');
    await page.goto(`${env.web}/audit`);
    const body = (await (await response).json()) as { items: { tenantId: string; action: string; target: { id: string } }[] };
    await settled(page);
    assert.ok(body.items.length > 0, 'the customer has audit entries');
    assert.deepEqual([...new Set(body.items.map((e) => e.tenantId))], ['acme']);
    if (incidentId) assert.ok(body.items.some((e) => e.action === 'incident.create' && e.target.id === incidentId), 'its incident creation is logged');
    await page.getByRole('table').getByText('Incidente creado').first().waitFor();
    assert.equal(await page.locator('#a-tenant').count(), 0, 'no tenant filter for customers');
    await screenshot(page, 'staff-05-customer-audit');
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('phone (375 px): the staff screens and the audit log hold the width and pass axe-core', async () => {
    const { page, problems, context } = await newPage(env, VIEWPORTS.phone);
    await signIn(page, env.web, ADMIN, DEMO_PASSWORD);
    const screens = ['/soc/queue', '/escalation-contacts', '/admin/tenants', '/admin/tenants/acme', '/admin/staff', '/audit', ...(ticketUrl ? [new URL(ticketUrl).pathname + new URL(ticketUrl).search] : [])];
    for (const p of screens) {
      await page.goto(`${env.web}${p}`);
      await settled(page);
      const scrollWidth = await page.evaluate<number>('document.documentElement.scrollWidth');
      // On failure, name the elements that reach past the viewport (tag.class and right edge, px).
      const wide = await page.evaluate<string[]>(
        "[...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > 375.5).slice(-5).map((e) => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))",
      );
      assert.ok(scrollWidth <= VIEWPORTS.phone.width, `${p}: page is ${scrollWidth}px wide at 375 px: ${wide.join('; ')}`);
      if (axeSource()) {
        const violations = await checkA11y(page);
        assert.deepEqual(violations, [], `${p}: ${violations.map((v) => `${v.id} (${v.impact}) ${v.targets.join(', ')}`).join('; ')}`);
      }
    }
    await screenshot(page, 'staff-06-phone-audit');

    // The confirmation dialog of a user action: named, focused on "Cancelar", within 375 px, axe-clean, Escape closes it.
    await page.goto(`${env.web}/admin/tenants/acme`);
    await settled(page);
    const disable = page.getByRole('button', { name: 'Deshabilitar' }).first();
    await disable.click();
    const dialog = page.getByRole('alertdialog', { name: /^¿Deshabilitar a .+\?$/ });
    await dialog.waitFor();
    assert.equal(await page.evaluate<string | null>('document.activeElement && document.activeElement.textContent'), 'Cancelar');
    const box = (await dialog.boundingBox())!;
    assert.ok(box.x >= 0 && box.x + box.width <= VIEWPORTS.phone.width, `the dialog fits 375 px (${box.x}+${box.width})`);
    assert.ok((await page.evaluate<number>('document.documentElement.scrollWidth')) <= VIEWPORTS.phone.width);
    if (axeSource()) {
      const violations = await checkA11y(page);
      assert.deepEqual(violations, [], `confirmation dialog: ${violations.map((v) => `${v.id} (${v.impact}) ${v.targets.join(', ')}`).join('; ')}`);
    }
    await screenshot(page, 'staff-07-phone-confirm');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    assert.deepEqual(problems, []);
    await context.close();
  });
});
