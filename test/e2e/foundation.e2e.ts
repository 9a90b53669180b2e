/**
 * Foundation browser suite: against a fresh `npm start`-equivalent stack, in real Chromium,
 * a seeded customer signs in through the Amplify Authenticator (SRP), sees only its tenant's incidents,
 * creates one, updates it (status + comment), signs out globally; the other tenant never sees it; the
 * incident survives a restart of the stack. Desktop (1440 px) and phone (375 px) widths.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createIncident } from '../../lambdas/data/index.js';
import { newIncident } from '../../lambdas/domain/incidents.js';
import { localTable } from '../../scripts/local/config.js';
import { DEMO_PASSWORD } from '../../scripts/local/demo-data.js';
import { newPage, screenshot, signIn, startE2e, VIEWPORTS, type E2eEnv } from '../support/e2e.js';

const ANA = 'ana@acme.example';
const BRUNO = 'bruno@globex.example';
const run = randomUUID().slice(0, 8);
const GLOBEX_ONLY = `Exclusivo de Globex ${run}`;
const ACME_NEW = `E2E acceso sospechoso ${run}`;

let env: E2eEnv;
let createdId = '';

describe('foundation: sign in, tenant isolation, create and update an incident, sign out', () => {
  before(async () => {
    env = await startE2e();
    // The newest incident of the OTHER tenant: if tenant isolation leaked, it would top Ana's list.
    const table = localTable(env.stack.urls.dynamodb, env.stack.tableName);
    await createIncident('globex', (seq) =>
      newIncident('globex', seq, { title: GLOBEX_ONLY, description: 'Solo visible para Globex', severity: 'critical', category: 'red' }, BRUNO, new Date().toISOString()),
    table);
    table.doc.destroy();
  });

  after(async () => {
    await env?.close();
  });

  it('desktop: Ana sees only Acme incidents, creates one, updates it and signs out', async () => {
    const { page, problems, context } = await newPage(env, VIEWPORTS.desktop);
    await page.goto(env.web);
    // The Authenticator in Spanish, with our fixes to Amplify's gaps.
    await page.getByLabel('Correo electrónico').waitFor();
    await screenshot(page, 'desktop-01-sign-in');
    await signIn(page, env.web, ANA, DEMO_PASSWORD);
    assert.equal(new URL(page.url()).pathname, '/');
    await screenshot(page, 'desktop-02-dashboard');

    // Sidebar (docs/portal.md#screens) → Incidentes → Ver
    const nav = page.getByRole('navigation', { name: 'Menú principal' });
    await nav.getByRole('button', { name: 'Incidentes' }).click();
    await nav.getByRole('link', { name: 'Ver' }).click();
    await page.waitForURL('**/incidents/all');
    const table = page.getByRole('table', { name: 'Lista de incidentes' });
    await table.getByRole('row').nth(1).waitFor();
    const rows = await table.getByRole('row').count();
    assert.equal(rows, 21, 'a first page of 20 incidents plus the header row');
    assert.equal(await page.getByText(GLOBEX_ONLY).count(), 0, "another tenant's incident must never show");
    await screenshot(page, 'desktop-03-incidents');

    // Create
    await nav.getByRole('link', { name: 'Agregar' }).click();
    await page.waitForURL('**/incidents/new');
    await page.getByRole('button', { name: 'Crear incidente' }).click();
    assert.ok(await page.locator('.field-error').count() > 0, 'the empty form shows validation messages');
    await page.getByLabel('Título').fill(ACME_NEW);
    await page.getByLabel('Descripción').fill('Accesos VPN fuera de horario desde una IP desconocida.');
    await page.getByLabel('Severidad').selectOption('high');
    await screenshot(page, 'desktop-04-new-incident');
    await page.getByRole('button', { name: 'Crear incidente' }).click();
    await page.waitForURL(/\/ticket\/update\/INC-\d{6}(\?tenant=acme)?$/);
    createdId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    await page.getByRole('heading', { name: ACME_NEW }).waitFor();

    // Update: a comment (statuses, severity and assignee are the SOC's: docs/api.md#incident-roles)
    const comment = `Aislado el equipo afectado (${run})`;
    await page.getByLabel('Comentario').fill(comment);
    await page.getByRole('button', { name: 'Comentar' }).click();
    await page.getByText(comment).waitFor();
    await screenshot(page, 'desktop-05-incident-updated');

    // The new incident tops the list
    await page.goto(`${env.web}/incidents/all`);
    const first = page.getByRole('table', { name: 'Lista de incidentes' }).getByRole('row').nth(1);
    await first.getByText(ACME_NEW).waitFor();
    assert.match((await first.textContent()) ?? '', /Nuevo/);

    // Sign out through the profile menu (global sign-out) → /page/login
    await page.getByRole('banner').getByRole('button', { name: ANA }).click();
    await page.getByRole('link', { name: 'Cerrar sesión' }).click();
    await page.waitForURL('**/page/login');
    await page.getByRole('button', { name: 'Iniciar sesión' }).waitFor();
    await screenshot(page, 'desktop-06-signed-out');
    // A protected page now shows the sign-in form, not data.
    await page.goto(`${env.web}/incidents/all`);
    await page.getByRole('button', { name: 'Iniciar sesión' }).waitFor();

    assert.deepEqual(problems, []);
    await context.close();
  });

  it('phone: Bruno sees Globex incidents only, through the mobile menu', async () => {
    assert.ok(createdId, 'runs after the desktop test');
    const { page, problems, context } = await newPage(env, VIEWPORTS.phone);
    await signIn(page, env.web, BRUNO, DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Abrir menú' }).click();
    const nav = page.getByRole('navigation', { name: 'Menú principal' });
    await nav.getByRole('button', { name: 'Incidentes' }).click();
    await screenshot(page, 'phone-01-menu');
    await nav.getByRole('link', { name: 'Ver' }).click();
    await page.waitForURL('**/incidents/all');
    await page.getByText(GLOBEX_ONLY).first().waitFor();
    assert.equal(await page.getByText(ACME_NEW).count(), 0, "Acme's new incident must not show to Globex");
    await screenshot(page, 'phone-02-incidents');

    // Acme's incident id exists in Globex too (ids are per tenant), but it is Globex's own record.
    await page.goto(`${env.web}/ticket/update/${createdId}`);
    await page.waitForLoadState('networkidle');
    assert.equal(await page.getByText(ACME_NEW).count(), 0);

    await page.goto(`${env.web}/devices/status`);
    await page.getByRole('table', { name: 'Estado de los dispositivos' }).getByRole('row').nth(1).waitFor();
    await screenshot(page, 'phone-03-devices');
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('the created incident survives a restart of the stack', async () => {
    assert.ok(createdId);
    await env.restart();
    const { page, problems, context } = await newPage(env, VIEWPORTS.desktop);
    await signIn(page, env.web, ANA, DEMO_PASSWORD);
    await page.goto(`${env.web}/ticket/update/${createdId}`);
    await page.getByRole('heading', { name: ACME_NEW }).waitFor();
    await page.getByText(/Aislado el equipo afectado \(/).first().waitFor();
    await screenshot(page, 'desktop-07-after-restart');
    assert.deepEqual(problems, []);
    await context.close();
  });
});
