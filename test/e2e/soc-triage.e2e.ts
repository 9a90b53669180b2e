/**
 * Triage first in the portal (docs/sla.md#triage-first, docs/portal.md#incident-detail): against a fresh
 * `npm start`-equivalent stack, in real Chromium, a customer opens an incident; staff open it untriaged, pick
 * "En curso" and are asked for the triage inline (severity and reason, Spanish); without a reason the form
 * says so and sends nothing; with it, one save triages and acknowledges the incident: "En curso", the
 * severity chosen, no "sin clasificar" mark, the reason in the history. Screenshots at 375 and 1440 px of the
 * inline triage.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DEMO_PASSWORD } from '../../scripts/local/demo-data.js';
import { newPage, screenshot, signIn, startE2e, VIEWPORTS, type E2eEnv } from '../support/e2e.js';

const ANA = 'ana@acme.example';
const ADMIN = 'admin@vigia.example';
const run = Date.now().toString(36);
let env: E2eEnv;

describe('triage first in the incident detail', () => {
  before(async () => {
    env = await startE2e();
  });
  after(async () => {
    await env?.close();
  });

  it('staff picking a provider status on an untriaged incident are asked for the triage, and one save does both', async () => {
    const customer = await newPage(env, VIEWPORTS.desktop);
    await signIn(customer.page, env.web, ANA, DEMO_PASSWORD);
    await customer.page.goto(`${env.web}/incidents/new`);
    await customer.page.getByLabel('Título').fill(`Ransomware en servidor ${run}`);
    await customer.page.getByLabel('Descripción').fill('Archivos cifrados en el servidor de ficheros');
    await customer.page.getByLabel('Severidad').selectOption('medium');
    await customer.page.getByRole('button', { name: 'Crear incidente' }).click();
    const heading = customer.page.getByRole('heading', { level: 1, name: new RegExp(`Ransomware en servidor ${run}`) });
    await heading.waitFor();
    const ticketUrl = customer.page.url();

    const staff = await newPage(env, VIEWPORTS.desktop);
    await signIn(staff.page, env.web, ADMIN, DEMO_PASSWORD);
    await staff.page.goto(ticketUrl);
    await staff.page.getByRole('heading', { level: 1, name: new RegExp(run) }).waitFor();
    await staff.page.getByText('· sin clasificar').waitFor();
    // No triage asked before a provider status is picked.
    assert.equal(await staff.page.getByLabel('Motivo de la clasificación').count(), 0);

    await staff.page.getByLabel('Cambiar estado').selectOption('in_progress');
    const notice = staff.page.getByText('El incidente no está clasificado: clasifícalo para pasarlo a «En curso»');
    await notice.waitFor();
    await staff.page.getByLabel('Severidad clasificada').selectOption('critical');
    await screenshot(staff.page, 'soc-triage-1440-inline');
    await staff.page.setViewportSize(VIEWPORTS.phone);
    await notice.scrollIntoViewIfNeeded();
    assert.ok(await staff.page.evaluate('document.documentElement.scrollWidth <= window.innerWidth'), 'no sideways scroll at 375 px');
    await screenshot(staff.page, 'soc-triage-375-inline');
    await staff.page.setViewportSize(VIEWPORTS.desktop);

    // Without a reason: said on the form, nothing sent.
    const save = staff.page.getByRole('button', { name: 'Guardar cambios' });
    await save.click();
    await staff.page.getByRole('alert').filter({ hasText: 'Indica el motivo (entre 3 y 500 caracteres).' }).waitFor();
    assert.equal(await staff.page.getByText('· sin clasificar').count(), 1);

    await staff.page.getByLabel('Motivo de la clasificación').fill('Cifrado activo en un servidor de producción');
    await save.click();
    const status = staff.page.locator('.details dd[data-field="status"]');
    await status.getByText('En curso').waitFor();
    await staff.page.getByText('· sin clasificar').waitFor({ state: 'detached' });
    await staff.page.locator('.details').getByText('Crítica').first().waitFor();
    await staff.page.getByText('Motivo: Cifrado activo en un servidor de producción').waitFor();
    assert.equal(await staff.page.getByLabel('Motivo de la clasificación').count(), 0, 'the inline triage is gone once triaged');
    await screenshot(staff.page, 'soc-triage-1440-done');

    // The customer sees it triaged and in progress.
    await customer.page.reload();
    await customer.page.locator('.details dd[data-field="status"]').getByText('En curso').waitFor();
    assert.equal(await customer.page.getByText('· sin clasificar').count(), 0);

    assert.deepEqual(customer.problems, []);
    assert.deepEqual(staff.problems, []);
    await customer.context.close();
    await staff.context.close();
  });
});
