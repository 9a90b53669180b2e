/**
 * Shell behaviour in real Chromium (docs/portal.md#shell, #groups-and-tenants): each navigation closes the mobile sidebar,
 * scrolls to the top and resets submenus; `admin` switches tenant and the incident list changes; a customer of
 * two tenants picks the active one; a missing or
 * unreadable config.json shows the configuration error; API failures show Spanish messages by kind with a retry.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createIncident } from '../../lambdas/data/index.js';
import { newIncident } from '../../lambdas/domain/incidents.js';
import { DEMO_PASSWORD } from '../../scripts/local/demo-data.js';
import { localTable } from '../../scripts/local/config.js';
import { seedCognito } from '../../scripts/local/seed.js';
import type { Route } from 'playwright-core';
import { newPage, routeConfigBlock, screenshot, signIn, startE2e, VIEWPORTS, type E2eEnv } from '../support/e2e.js';

const GLOBEX_ONLY = `Solo Globex ${randomUUID().slice(0, 8)}`;
const CONFIG_ERROR = 'Configuration error (see console) – please contact the administrator';
let env: E2eEnv;

describe('shell: navigation, tenant switch, configuration and API errors', () => {
  before(async () => {
    env = await startE2e();
    const table = localTable(env.stack.urls.dynamodb, env.stack.tableName);
    await createIncident('globex', (seq) =>
      newIncident('globex', seq, { title: GLOBEX_ONLY, description: 'Para el cambio de cliente', severity: 'critical', category: 'red' }, 'bruno@globex.example', new Date().toISOString()),
    table);
    table.doc.destroy();
  });
  after(async () => {
    await env?.close();
  });

  it('phone: a navigation closes the sidebar, scrolls to the top and resets submenus', async () => {
    const { page, problems, context } = await newPage(env, VIEWPORTS.phone);
    await signIn(page, env.web, 'ana@acme.example', DEMO_PASSWORD);
    await page.goto(`${env.web}/incidents/all`);
    await page.getByRole('table', { name: 'Lista de incidentes' }).getByRole('row').nth(1).waitFor();
    await page.evaluate('window.scrollTo(0, document.body.scrollHeight)');
    assert.ok((await page.evaluate<number>('window.scrollY')) > 0, 'the list page scrolls');

    await page.getByRole('button', { name: 'Abrir menú' }).click();
    const nav = page.getByRole('navigation', { name: 'Menú principal' });
    await page.getByTestId('sidebar-backdrop').waitFor();
    // The current route's group is open; open another one too.
    assert.equal(await nav.getByRole('button', { name: 'Incidentes' }).getAttribute('aria-expanded'), 'true');
    await nav.getByRole('button', { name: 'Dispositivos' }).click();
    await nav.getByRole('button', { name: 'Otros' }).click();
    assert.equal(await nav.getByRole('button', { name: 'Otros' }).getAttribute('aria-expanded'), 'true');
    await screenshot(page, 'shell-phone-01-menu-open');
    await nav.getByRole('link', { name: 'Recomendaciones' }).click();
    await page.waitForURL('**/recommendations');

    await page.getByTestId('sidebar-backdrop').waitFor({ state: 'detached' });
    assert.doesNotMatch((await page.locator('#sidebar').getAttribute('class')) ?? '', /is-open/);
    // Back at the top (the stylesheet may animate the scroll: allow it to finish).
    const end = Date.now() + 3_000;
    while ((await page.evaluate<number>('window.scrollY')) !== 0 && Date.now() < end) await page.waitForTimeout(50);
    assert.equal(await page.evaluate<number>('window.scrollY'), 0);
    // Submenus reset: only the new route's group stays open.
    const expanded = await page.locator('#sidebar .menu-group-toggle[aria-expanded="true"]').allTextContents();
    assert.deepEqual(expanded, ['Otros']);
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('admin picks another tenant and the incident list changes', async () => {
    const { page, problems, context } = await newPage(env, VIEWPORTS.desktop);
    await signIn(page, env.web, 'admin@vigia.example', DEMO_PASSWORD);
    const picker = page.getByLabel('Cliente');
    await picker.selectOption('acme');
    await page.goto(`${env.web}/incidents/all`);
    const table = page.getByRole('table', { name: 'Lista de incidentes' });
    await table.getByRole('row').nth(1).waitFor();
    assert.equal(await page.getByText(GLOBEX_ONLY).count(), 0, 'acme shows no globex incident');
    await page.getByLabel('Cliente').selectOption('globex');
    await table.getByText(GLOBEX_ONLY).waitFor();
    await screenshot(page, 'shell-desktop-01-admin-globex');
    // The choice is kept across a reload.
    await page.reload();
    await page.getByRole('table', { name: 'Lista de incidentes' }).getByText(GLOBEX_ONLY).waitFor();
    assert.equal(await page.getByLabel('Cliente').inputValue(), 'globex');
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('a customer of two tenants picks the active one; a customer of one gets no picker', async () => {
    const email = `dos.${randomUUID().slice(0, 8)}@acme.example`;
    await seedCognito(env.stack.urls.cognito, env.stack.config.userPoolId, [
      { email, password: DEMO_PASSWORD, groups: ['acme', 'globex'], description: 'e2e' },
    ]);

    const { page, problems, context } = await newPage(env, VIEWPORTS.phone);
    await signIn(page, env.web, email, DEMO_PASSWORD);
    const picker = page.getByLabel('Cliente');
    assert.deepEqual((await picker.locator('option').allTextContents()).sort(), ['Acme Logística S.A.', 'Globex Salud']);
    await picker.selectOption('acme');
    await page.goto(`${env.web}/incidents/all`);
    await page.getByText('INC-', { exact: false }).first().waitFor();
    assert.equal(await page.getByText(GLOBEX_ONLY).count(), 0);
    await page.getByLabel('Cliente').selectOption('globex');
    await page.getByText(GLOBEX_ONLY).first().waitFor();
    await screenshot(page, 'shell-phone-03-two-tenants');
    await context.close();

    const single = await newPage(env, VIEWPORTS.phone);
    await signIn(single.page, env.web, 'ana@acme.example', DEMO_PASSWORD);
    assert.equal(await single.page.getByLabel('Cliente').count(), 0);
    await single.context.close();
    assert.deepEqual([...problems, ...single.problems], []);
  });

  it('a missing, unreadable or invalid configuration shows the configuration error', async () => {
    // The configuration block of index.html (docs/portal.md#configuration-in-indexhtml) unreadable or invalid,
    // or no block and /config.json missing, unreadable or invalid (the portal then fetches it).
    for (const [name, block, body, status] of [
      ['block unreadable', '{"region": ', null, 0],
      ['block invalid', '{"region": "eu-west-1"}', null, 0],
      ['config.json missing', null, 'Not Found', 404],
      ['config.json unreadable', null, '{"region": ', 200],
      ['config.json invalid', null, '{"region": "eu-west-1"}', 200],
    ] as const) {
      const { page, problems, context } = await newPage(env, VIEWPORTS.phone);
      await routeConfigBlock(context, block);
      const configRequests: string[] = [];
      page.on('request', (r) => {
        if (new URL(r.url()).pathname === '/config.json') configRequests.push(r.url());
      });
      if (body !== null) await context.route('**/config.json', (route) => route.fulfill({ status, contentType: 'application/json', body }));
      await page.goto(env.web);
      await page.getByRole('alert').getByText(CONFIG_ERROR).waitFor();
      assert.ok(problems.some((p) => p.includes('portal configuration error')), `${name}: the reason is logged to the console`);
      assert.equal(configRequests.length, block === null ? 1 : 0, `${name}: /config.json is requested only without a block`);
      if (name === 'config.json missing') await screenshot(page, 'shell-phone-02-config-error');
      await context.close();
    }
  });

  it('API failures show Spanish messages by kind, with a retry that recovers', async () => {
    const { page, context } = await newPage(env, VIEWPORTS.desktop);
    await signIn(page, env.web, 'ana@acme.example', DEMO_PASSWORD);
    const api = `${env.stack.urls.api}/**`;
    const cases = [
      { kind: 'network', fail: (r: Route) => r.abort('connectionrefused'), text: 'No se pudo conectar con el servidor.' },
      { kind: 'server', fail: (r: Route) => r.fulfill({ status: 503, contentType: 'application/json', body: '{"message":"down"}' }), text: 'Error del servidor.' },
      { kind: 'client', fail: (r: Route) => r.fulfill({ status: 404, contentType: 'application/json', body: '{"message":"nope"}' }), text: 'No se pudo completar la solicitud.' },
    ];
    for (const c of cases) {
      await context.route(api, (route) => (route.request().method() === 'OPTIONS' ? route.continue() : c.fail(route)));
      await page.goto(`${env.web}/incidents/all`);
      const alert = page.getByRole('alert').filter({ hasText: c.text });
      await alert.waitFor();
      if (c.kind === 'network') await screenshot(page, 'shell-desktop-02-api-unreachable');
      await context.unroute(api);
      await alert.getByRole('button', { name: 'Reintentar' }).click();
      await page.getByRole('table', { name: 'Lista de incidentes' }).getByRole('row').nth(1).waitFor();
      assert.equal(await page.getByText(c.text).count(), 0, `${c.kind}: the retry recovers`);
    }
    await context.close();
  });
});
