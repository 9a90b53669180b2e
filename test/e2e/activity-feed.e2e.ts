/**
 * Activity feed browser test (docs/notifications.md, docs/portal.md#notifications): against a fresh
 * `npm start`-equivalent stack, in real Chromium, ana marks everything as read, staff change the status of
 * one of her OLD incidents (not among the newest), ana's bell shows one unread event, the feed page lists it
 * as "Nuevo", and "Marcar todo como leído" brings the count back to zero.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { DEMO_PASSWORD, DEMO_TENANTS, demoIncidents } from '../../scripts/local/demo-data.js';
import { formatIncidentId } from '../../lambdas/domain/incidents.js';
import { newPage, screenshot, signIn, startE2e, VIEWPORTS, type E2eEnv } from '../support/e2e.js';

const ANA = 'ana@acme.example';
const ADMIN = 'admin@vigia.example';
let env: E2eEnv;

const bell = (page: Page) => page.locator('header').getByRole('button', { name: /^Notificaciones/ });

describe('activity feed', () => {
  before(async () => {
    env = await startE2e();
  });
  after(async () => {
    await env?.close();
  });

  it('ana sees the unread count rise when staff change her old incident, opens the feed and marks all as read', async () => {
    // The oldest demo incident of acme that staff can move between "En curso" and "En espera".
    const old = demoIncidents(DEMO_TENANTS.find((t) => t.id === 'acme')!, ANA, Date.now()).find((d) => d.status === 'in_progress' || d.status === 'on_hold');
    assert.ok(old, 'an open demo incident');
    const id = formatIncidentId(old.seq);
    const target = old.status === 'in_progress' ? 'on_hold' : 'in_progress';

    const ana = await newPage(env, VIEWPORTS.desktop);
    await signIn(ana.page, env.web, ANA, DEMO_PASSWORD);
    await bell(ana.page).click();
    const panel = ana.page.locator('.notifications');
    await panel.getByRole('link', { name: 'Ver todas' }).waitFor();
    const markAll = panel.getByRole('button', { name: 'Marcar todo como leído' });
    if (await markAll.isEnabled()) {
      await markAll.click();
      await panel.getByText('Todo marcado como leído.').waitFor();
    }
    await ana.page.locator('header').getByRole('button', { name: 'Notificaciones', exact: true }).waitFor();
    await ana.page.keyboard.press('Escape');

    const staff = await newPage(env, VIEWPORTS.desktop);
    await signIn(staff.page, env.web, ADMIN, DEMO_PASSWORD);
    await staff.page.goto(`${env.web}/ticket/update/${id}?tenant=acme`);
    await staff.page.getByLabel('Cambiar estado').selectOption(target);
    await staff.page.getByRole('button', { name: 'Guardar cambios' }).click();
    await staff.page.locator('.details dd').nth(1).getByText(target === 'on_hold' ? 'En espera' : 'En curso').waitFor();

    // The bell refreshes every 30 s and on focus; a reload asks at once.
    await ana.page.reload();
    await ana.page.locator('header').getByRole('button', { name: 'Notificaciones, 1 sin leer' }).waitFor({ timeout: 40_000 });
    assert.equal(await ana.page.getByTestId('bell-count').textContent(), '1');
    await bell(ana.page).click();
    const latest = panel.getByRole('list', { name: 'Últimas notificaciones' }).getByRole('listitem').first();
    await latest.waitFor();
    assert.match((await latest.textContent()) ?? '', new RegExp(`Nuevo.*|${id}`));
    assert.match((await latest.getByRole('link').textContent()) ?? '', new RegExp(`^${id}: estado «`));
    await screenshot(ana.page, 'activity-01-bell');

    await panel.getByRole('link', { name: 'Ver todas' }).click();
    await ana.page.waitForURL('**/notifications');
    await ana.page.getByRole('heading', { level: 1, name: 'Actividad' }).waitFor();
    const row = ana.page.locator('tbody tr').first();
    await row.waitFor();
    assert.match((await row.textContent()) ?? '', new RegExp(`Nuevo · ${id}: estado`));
    await screenshot(ana.page, 'activity-02-feed');

    await ana.page.getByRole('button', { name: 'Marcar todo como leído' }).click();
    await ana.page.getByText('Todo marcado como leído.').waitFor();
    await ana.page.locator('header').getByRole('button', { name: 'Notificaciones', exact: true }).waitFor();
    assert.equal(await ana.page.getByTestId('bell-count').count(), 0);
    assert.doesNotMatch((await row.textContent()) ?? '', /Nuevo/);

    assert.deepEqual(ana.problems, []);
    assert.deepEqual(staff.problems, []);
    await ana.context.close();
    await staff.context.close();
  });
});
