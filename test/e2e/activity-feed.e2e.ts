/**
 * Activity feed browser test (docs/notifications.md, docs/portal.md#notifications): against a fresh
 * `npm start`-equivalent stack, in real Chromium, ana marks everything as read, staff change the status of
 * one of her OLD incidents (not among the newest), ana's bell shows one unread event, the feed page lists it
 * as "Nuevo", and "Marcar todo como leído" brings the count back to zero. The stack runs the notification
 * delivery as `npm start` does (SES emulator, outbox poller): the Spanish e-mail to ana about that change
 * appears on the emulator's mail page (docs/notifications.md#offline).
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
    // Without the collector simulator: an alarm it raises on one of acme's devices during the test is an activity
    // event for ana too, and made the bell say "2 sin leer" where the test waits for exactly one (CI, 2026-11-29).
    env = await startE2e({ notifications: true, collector: false });
  });
  after(async () => {
    await env?.close();
  });

  it('ana sees the unread count rise when staff change her old incident, opens the feed and marks all as read', async () => {
    // The oldest demo incident of acme that staff can move between "En curso" and "En espera", critical or high
    // (ana has no saved preferences: the defaults e-mail her high and critical events).
    const old = demoIncidents(DEMO_TENANTS.find((t) => t.id === 'acme')!, ANA, Date.now()).find(
      (d) => (d.status === 'in_progress' || d.status === 'on_hold') && (d.severity === 'critical' || d.severity === 'high'),
    );
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

    const changedAt = Math.floor(Date.now() / 1000);
    const staff = await newPage(env, VIEWPORTS.desktop);
    await signIn(staff.page, env.web, ADMIN, DEMO_PASSWORD);
    await staff.page.goto(`${env.web}/ticket/update/${id}?tenant=acme`);
    await staff.page.getByLabel('Cambiar estado').selectOption(target);
    await staff.page.getByRole('button', { name: 'Guardar cambios' }).click();
    await staff.page.locator('.details dd[data-field="status"]').getByText(target === 'on_hold' ? 'En espera' : 'En curso').waitFor();

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

    // The e-mail: the outbox poller (every 2 s) sends it to the SES emulator, whose page lists it (refreshing every second).
    const mailUrl = env.stack.urls.mail;
    assert.ok(mailUrl, 'the stack runs the SES emulator');
    const mail = await newPage(env, VIEWPORTS.desktop);
    await mail.page.goto(mailUrl);
    const label = (st: string) => (st === 'on_hold' ? 'En espera' : 'En curso');
    const change = `${id}: estado «${label(old.status)}» → «${label(target)}»`;
    // Newest first on the page: the first e-mail to ana with this change's title.
    const email = mail.page.locator('.email').filter({ hasText: change }).filter({ hasText: `To: ${ANA}` }).first();
    await email.waitFor({ timeout: 120_000 });
    const text = (await email.textContent()) ?? '';
    assert.match(text, new RegExp(`Subject: \\[Vigía\\] (Crítica|Alta) · ${change}`));
    assert.match(text, /From: Vigía <notificaciones@vigia\.example>/);
    // Exactly one such e-mail since the change (the emulator's JSON store, the page's source).
    const since = (await (await fetch(`${mailUrl}/store?since=${changedAt}`)).json()) as { emails: Array<{ subject: string; destination: { to: string[] } }> };
    assert.equal(since.emails.filter((e) => e.subject.includes(change) && e.destination.to.includes(ANA)).length, 1);
    await email.getByRole('button', { name: 'Toggle HTML view' }).click();
    const html = email.frameLocator('iframe').locator('body');
    await html.getByRole('heading', { level: 1, name: change }).waitFor();
    await html.getByRole('paragraph').getByText('Cambio de estado de un incidente').waitFor();
    assert.equal(await html.getByRole('link', { name: 'Ver en el portal' }).getAttribute('href'), `${env.web}/ticket/update/${id}?tenant=acme`);
    await email.getByRole('button', { name: 'Toggle text view' }).click();
    assert.match((await email.locator('.email-text').textContent()) ?? '', new RegExp(`Ver en el portal: ${env.web.replace(/[.]/g, '\\.')}/ticket/update/${id}\\?tenant=acme`));
    await email.scrollIntoViewIfNeeded();
    await screenshot(mail.page, 'activity-03-email');
    await mail.context.close();
  });
});
