/**
 * Business screens browser suite (docs/portal.md#screens): against a fresh `npm start`-equivalent stack (seed + collector
 * simulator), in real Chromium, a seeded customer walks the dashboard, incident list (filters, CSV export),
 * incident detail, device availability and alarms (acknowledge), Office 365 alarms and events,
 * recommendations (accept with a note), calendar, header search and notifications, at 1440 px and 375 px,
 * asserting seeded data and Spanish text and saving screenshots (`test-results/e2e/screens-*.png`). The
 * customer opens an incident from a device alarm and sees them linked both ways (docs/portal.md#linked-alarms).
 * The admin sees "Analítica" in the menu; template leftovers show the error screen.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { putAlarm, putTenant, upsertO365Alarm } from '../../lambdas/data/index.js';
import { DASHBOARD_DATA } from '../../scripts/bench/portal.js';
import { DEMO_PASSWORD, DEMO_TENANTS, demoDevices } from '../../scripts/local/demo-data.js';
import { localTable } from '../../scripts/local/config.js';
import { checkA11y, newPage, screenshot, signIn, startE2e, VIEWPORTS, type E2eEnv } from '../support/e2e.js';
import { addIncidentComment } from '../../lambdas/data/incidents.js';

const ANA = 'ana@acme.example';
const ADMIN = 'admin@vigia.example';

let env: E2eEnv;

/** Waits for the screen (its h1, rendered once its lazy chunk is in) and until no "Cargando…" skeleton is left. */
async function settled(page: Page): Promise<void> {
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  // The fetch for the new URL may not have started yet: wait for the network to go quiet (500 ms), then
  // for any loading skeleton to go away.
  await page.waitForLoadState('networkidle');
  await page.locator('.skeleton').first().waitFor({ state: 'detached', timeout: 20_000 });
}

/** The page never scrolls sideways (phone layout holds at the viewport width). */
async function assertNoHorizontalScroll(page: Page, width: number, where: string): Promise<void> {
  const scrollWidth = await page.evaluate<number>('document.documentElement.scrollWidth');
  assert.ok(scrollWidth <= width, `${where}: page is ${scrollWidth}px wide at a ${width}px viewport`);
}

describe('business screens on seeded data', () => {
  before(async () => {
    env = await startE2e();
    // The collector simulator raises Office 365 alerts only by chance (a few % per tick): put one for Acme
    // through the repository, as the ingest route would.
    const table = localTable(env.stack.urls.dynamodb, env.stack.tableName);
    const at = new Date(Date.now() - 3_600_000).toISOString();
    await upsertO365Alarm(
      { id: 'e2e-o365-1', tenantId: 'acme', title: 'Regla de reenvío externo creada (e2e)', severity: 'high', category: 'exchange', status: 'active', affectedUser: 'laura@acme.example', detectedAt: at, updatedAt: at },
      table,
    );
    table.doc.destroy();
  });

  after(async () => {
    await env?.close();
  });

  it('desktop: dashboard, incidents (filters, CSV), detail, devices, alarms, Office 365, recommendations, report (CSV, print), calendar, search, notifications', async () => {
    const { page, problems, context } = await newPage(env, VIEWPORTS.desktop);
    await signIn(page, env.web, ANA, DEMO_PASSWORD);

    // Dashboard: KPIs, both charts, latest alarms and incident updates.
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await settled(page);
    for (const h of ['Incidentes abiertos por severidad', 'Dispositivos por estado', 'Disponibilidad y alarmas', 'Tendencia de incidentes', 'Disponibilidad por dispositivo', 'Últimas alarmas', 'Últimas actualizaciones de incidentes']) {
      await page.getByRole('heading', { level: 2, name: h }).waitFor();
    }
    assert.match((await page.getByTestId('kpi-availability').textContent()) ?? '', /^\d{1,3}(,\d{1,2})? %$/, '30-day availability as a Spanish percentage');
    assert.match((await page.getByTestId('kpi-alarms').textContent()) ?? '', /^\d+$/);
    assert.ok(Number(await page.getByTestId('kpi-o365').textContent()) >= 1, 'the active Office 365 alert put in before() is counted');
    await page.locator('.recharts-wrapper').nth(1).waitFor();
    assert.ok((await page.locator('.recharts-bar-rectangle').count()) > 0, 'the charts draw bars from seeded data');
    assert.ok((await page.locator('section[aria-labelledby="latest-updates"] .feed li').count()) > 0, 'latest incident updates listed');
    // The portal bench times the sign-in until these selectors show a figure: they must match the dashboard.
    for (const selector of DASHBOARD_DATA) assert.ok((await page.locator(selector).count()) > 0, `bench selector ${selector} finds the dashboard's data`);
    await screenshot(page, 'screens-desktop-01-dashboard');

    // A severity tile opens the incident list filtered to open incidents of that severity.
    await page.locator('a.tile-sev-high').click();
    await page.waitForURL(/\/incidents\/all\?status=new%2Cin_progress%2Con_hold&severity=high/);
    const table = page.getByRole('table', { name: 'Lista de incidentes' });
    await table.getByRole('row').nth(1).waitFor();
    const sevCells = await table.locator('td[data-label="Severidad"]').allTextContents();
    assert.ok(sevCells.length > 0 && sevCells.every((t) => t === 'Alta'), `only "Alta": ${sevCells.join(',')}`);
    const statusCells = await table.locator('td[data-label="Estado"]').allTextContents();
    assert.ok(statusCells.every((t) => ['Nuevo', 'En curso', 'En espera'].includes(t)), `only open: ${statusCells.join(',')}`);

    // Clear, then filter by critical and export CSV.
    await page.getByRole('button', { name: 'Limpiar filtros' }).click();
    await page.waitForURL(/\/incidents\/all$/);
    await page.getByLabel('Severidad').selectOption('critical');
    await page.waitForURL(/severity=critical/);
    await settled(page);
    await table.getByRole('row').nth(1).waitFor();
    const crit = await table.locator('td[data-label="Severidad"]').allTextContents();
    assert.ok(crit.length > 0 && crit.every((t) => t === 'Crítica'));
    await page.getByLabel('Orden').selectOption('oldest');
    await page.waitForURL(/sort=oldest/);
    await settled(page);
    const created = await table.locator('td[data-label="Creado"] time').evaluateAll((els) => els.map((e) => e.getAttribute('datetime') ?? ''));
    assert.deepEqual(created, [...created].sort(), 'oldest first');
    await screenshot(page, 'screens-desktop-02-incidents-filtered');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Exportar CSV' }).click()]);
    assert.match(download.suggestedFilename(), /^incidentes-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '');
    const lines = csv.split('\r\n');
    assert.equal(lines[0], 'ID,Título,Severidad,Estado,Categoría,Origen,Reportado por,Asignado a,Creado (UTC),Actualizado (UTC),Vence SLA (UTC),Resuelto (UTC)');
    assert.ok(lines.length > 1 && lines.slice(1).every((l) => /^INC-\d{6},.*,Crítica,/.test(l)), 'every exported row is a critical incident');
    await page.getByText(/CSV descargado \(\d+ incidentes\)/).waitFor();

    // Text search narrows to the incidents containing the text (id of the first row).
    const firstId = (await table.locator('td[data-label="ID"]').first().textContent())!;
    await page.getByLabel('Texto').fill(firstId);
    await page.getByRole('search', { name: 'Filtrar incidentes' }).getByRole('button', { name: 'Buscar' }).click();
    await page.waitForURL(new RegExp(`q=${firstId}`));
    await table.locator('td[data-label="ID"]', { hasText: firstId }).first().waitFor();
    await settled(page);
    assert.deepEqual(await table.locator('td[data-label="ID"]').allTextContents(), [firstId]);

    // Detail: new fields.
    await table.getByRole('link', { name: firstId }).click();
    await page.waitForURL(new RegExp(`/ticket/update/${firstId}(\\?tenant=acme)?$`));
    // (Ana is a customer: assigning is the SOC's, docs/api.md#incident-roles.)
    for (const dt of ['Categoría', 'Origen', 'Asignado a', 'Vence SLA']) await page.locator('dt', { hasText: dt }).first().waitFor();
    await screenshot(page, 'screens-desktop-03-incident-detail');

    // Device availability: 90-day window with the SLA line.
    await page.goto(`${env.web}/devices/availability`);
    await settled(page);
    await page.getByRole('button', { name: '90 días' }).click();
    await page.waitForURL(/days=90/);
    await page.getByText('Objetivo SLA').first().waitFor();
    await page.locator('figcaption', { hasText: /Disponibilidad diaria de .+ en los últimos 90 días/ }).waitFor();
    await page.locator('.chart-box').getByText(/^SLA 99,5 %$/).waitFor(); // the SLA reference line's label
    await page.getByText(/Cumple el SLA|No cumple el SLA/).first().waitFor();
    await screenshot(page, 'screens-desktop-04-availability');

    // Device alarms: active only, acknowledge the first.
    await page.goto(`${env.web}/devices/alarms?state=active`);
    const alarms = page.getByRole('table', { name: 'Lista de alarmas' });
    await alarms.getByRole('row').nth(1).waitFor();
    assert.ok((await alarms.locator('td[data-label="Estado"]').allTextContents()).every((t) => t === 'Activa'));
    const ack = alarms.getByRole('button', { name: /^Reconocer alarma / }).first();
    const ackName = (await ack.getAttribute('aria-label'))!;
    await ack.click();
    await page.getByText(/Alarma «.+» reconocida\./).waitFor();
    // The list reloads: the acknowledged alarm leaves the active list.
    await page.getByRole('button', { name: ackName, exact: true }).first().waitFor({ state: 'detached', timeout: 10_000 });
    await screenshot(page, 'screens-desktop-05-alarms');

    // Office 365 (the collector simulator feeds alerts and audit events).
    await page.goto(`${env.web}/office365/alarms?range=all`);
    await page.getByRole('table', { name: 'Alarmas de Office 365' }).getByRole('row', { name: /Regla de reenvío externo creada \(e2e\)/ }).waitFor();
    await page.getByLabel('Severidad').selectOption('low');
    await page.waitForURL(/severity=low/);
    await settled(page);
    assert.equal(await page.getByText('Regla de reenvío externo creada (e2e)').count(), 0, 'the severity filter applies');
    await page.getByLabel('Severidad').selectOption('high');
    await page.getByText('Regla de reenvío externo creada (e2e)').waitFor();
    await screenshot(page, 'screens-desktop-06-o365-alarms');
    await page.goto(`${env.web}/office365/events?range=all`);
    const events = page.getByRole('table', { name: 'Eventos de Office 365' });
    await events.getByRole('row').nth(1).waitFor({ timeout: 30_000 });
    await page.getByLabel('Servicio').selectOption('Exchange');
    await page.waitForURL(/workload=Exchange/);
    await settled(page);
    const workloads = await events.locator('td[data-label="Servicio"]').allTextContents();
    assert.ok(workloads.every((w) => w === 'Exchange'), `only Exchange: ${workloads.join(',')}`);
    await screenshot(page, 'screens-desktop-07-o365-events');

    // Recommendations: accept one with a note.
    await page.goto(`${env.web}/recommendations?status=open`);
    const accept = page.getByRole('button', { name: /^Aceptar: / }).first();
    await accept.waitFor({ timeout: 30_000 });
    const recTitle = ((await accept.getAttribute('aria-label')) ?? '').replace(/^Aceptar: /, '');
    await accept.click();
    await page.getByLabel('Nota para «Aceptar»').fill('Lo aplicamos esta semana (e2e)');
    await page.getByRole('button', { name: 'Confirmar: Aceptar' }).click();
    await page.getByText(`Recomendación «${recTitle}»: aceptada.`).waitFor();
    await page.goto(`${env.web}/recommendations?status=accepted`);
    await page.getByRole('heading', { name: recTitle }).waitFor();
    await page.getByText(/Aceptada por ana@acme\.example .*«Lo aplicamos esta semana \(e2e\)»/).waitFor();
    await screenshot(page, 'screens-desktop-08-recommendations');

    // Reports: 90-day period, summary figures, CSV download, print view.
    await page.goto(`${env.web}/reports/general`);
    await page.getByRole('heading', { level: 1, name: 'Reportes generales' }).waitFor();
    await page.getByRole('button', { name: '90 días' }).click();
    await page.waitForURL(/days=90/);
    await settled(page);
    const summary = page.getByRole('list', { name: 'Resumen' });
    for (const k of ['Incidentes', 'MTTA (tiempo medio de reconocimiento)', 'MTTR (tiempo medio de resolución)', 'Cumplimiento SLA']) await summary.getByText(k, { exact: true }).waitFor();
    assert.ok(Number(await summary.locator('li').first().locator('strong').textContent()) > 0, 'seeded incidents in the last 90 days');
    assert.match((await page.getByTestId('report-fleet-availability').textContent()) ?? '', /^\d{1,3}(,\d{1,2})? %$/, 'the fleet availability of the period');
    assert.ok((await page.getByRole('table', { name: /Dispositivos por debajo del objetivo/ }).getByRole('row').count()) > 1, 'the demo devices below the target listed');
    await page.getByRole('table', { name: 'Alarmas más frecuentes' }).getByRole('row').nth(1).waitFor();
    const [report] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Descargar CSV' }).click()]);
    assert.match(report.suggestedFilename(), /^informe-acme-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
    const reportCsv = readFileSync((await report.path())!, 'utf8');
    assert.match(reportCsv, /^\uFEFFIndicador,Valor\r\nInforme,Informe Acme/);
    assert.match(reportCsv, /Alarma,Veces,Severidad máxima/);
    // The monthly report (docs/api.md#monthly-report): last month's PDF, and SLA compliance month by month over 12 months.
    const [pdf] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Descargar PDF' }).click()]);
    assert.match(pdf.suggestedFilename(), /\.pdf$/);
    assert.equal(readFileSync((await pdf.path())!).subarray(0, 5).toString('latin1'), '%PDF-');
    const slaHistory = page.getByRole('region', { name: 'Cumplimiento del SLA en los últimos 12 meses' });
    await slaHistory.locator('tbody tr').first().waitFor();
    assert.equal(await slaHistory.locator('tbody tr').count(), 12);
    assert.match((await slaHistory.locator('tbody').textContent()) ?? '', /\d{1,3}(,\d{1,2})? %/, 'a month with resolved incidents shows its compliance');
    await screenshot(page, 'screens-desktop-09-report');
    await page.emulateMedia({ media: 'print' });
    assert.equal(await page.locator('.app-header').isVisible(), false, 'print view hides the header');
    assert.equal(await page.locator('#sidebar').isVisible(), false, 'print view hides the sidebar');
    assert.equal(await page.getByRole('button', { name: 'Descargar CSV' }).isVisible(), false, 'print view hides the actions');
    assert.ok(await summary.isVisible());
    await screenshot(page, 'screens-desktop-10-report-print');
    await page.emulateMedia({ media: 'screen' });

    // Calendar: this month holds seeded incidents.
    await page.goto(`${env.web}/calendar`);
    await page.getByRole('heading', { name: 'Eventos del mes' }).waitFor();
    assert.ok((await page.locator('table.calendar a').count()) > 0, 'incidents on the month calendar');
    await page.getByRole('heading', { name: 'Eventos del mes' }).waitFor();
    await screenshot(page, 'screens-desktop-11-calendar');

    // Header search → /page/search-results with incidents and devices.
    await page.goto(`${env.web}/devices/status`);
    const deviceName = (await page.getByRole('table', { name: 'Estado de los dispositivos' }).locator('td[data-label="Nombre"]').first().textContent())!;
    await page.getByRole('search').first().getByLabel('Buscar').fill(deviceName);
    await page.keyboard.press('Enter');
    await page.waitForURL('**/page/search-results?q=*');
    await page.getByRole('heading', { level: 1, name: 'Resultados de búsqueda' }).waitFor();
    await settled(page);
    await page.locator('section[aria-labelledby="sr-devices"]').getByRole('link', { name: new RegExp(deviceName) }).waitFor();
    await screenshot(page, 'screens-desktop-12-search');

    // Notifications from real data, with "Ver todas".
    await page.getByRole('button', { name: 'Notificaciones' }).click();
    const panel = page.locator('.notifications');
    await panel.getByRole('link', { name: 'Ver todas' }).waitFor();
    await settled(page);
    assert.ok((await panel.locator('.feed li').count()) > 0, 'latest activity events');
    await screenshot(page, 'screens-desktop-13-notifications');
    await panel.getByRole('link', { name: 'Ver todas' }).click();
    await page.waitForURL('**/notifications');

    assert.deepEqual(problems, []);
    await context.close();
  });

  it('phone (375 px): dashboard, incidents, availability, alarms, Office 365, recommendations, calendar, report, search hold the width', async () => {
    const { page, problems, context } = await newPage(env, VIEWPORTS.phone);
    await signIn(page, env.web, ANA, DEMO_PASSWORD);
    const screens: Array<[string, string, string]> = [
      ['/', 'Dashboard', 'screens-phone-01-dashboard'],
      ['/incidents/all', 'Incidentes', 'screens-phone-02-incidents'],
      ['/devices/availability', 'Disponibilidad de dispositivos', 'screens-phone-03-availability'],
      ['/devices/alarms', 'Alarmas de dispositivos', 'screens-phone-04-alarms'],
      ['/office365/events?range=all', 'Eventos de Office 365', 'screens-phone-05-o365-events'],
      ['/recommendations', 'Recomendaciones', 'screens-phone-06-recommendations'],
      ['/calendar', 'Calendario', 'screens-phone-07-calendar'],
      ['/reports/general', 'Reportes generales', 'screens-phone-08-report'],
      ['/page/search-results?q=VPN', 'Resultados de búsqueda', 'screens-phone-09-search'],
    ];
    for (const [path, title, shot] of screens) {
      await page.goto(`${env.web}${path}`);
      await page.getByRole('heading', { level: 1, name: title }).waitFor();
      await settled(page);
      assert.equal(await page.locator('.error-state').count(), 0, `${path}: no error state`);
      await assertNoHorizontalScroll(page, VIEWPORTS.phone.width, path);
      await screenshot(page, shot);
    }
    // Header search on a phone: hidden behind the "Abrir búsqueda" toggle, which opens it; a search goes to the results.
    await page.goto(`${env.web}/`);
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    const field = page.locator('#header-search-input');
    assert.equal(await field.isVisible(), false, 'the header search field is folded at 375 px');
    const toggle = page.getByRole('banner').getByRole('button', { name: 'Abrir búsqueda' });
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    await toggle.click();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    assert.equal(await field.isVisible(), true, 'the toggle opens the search field');
    await assertNoHorizontalScroll(page, VIEWPORTS.phone.width, 'header search open');
    await screenshot(page, 'screens-phone-10-header-search-open');
    await page.keyboard.type('VPN');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/page/search-results?q=VPN');
    await page.getByRole('heading', { level: 1, name: 'Resultados de búsqueda' }).waitFor();
    assert.equal(await field.isVisible(), false, 'the field folds again after a search');
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('search: a word of a comment, of an alarm title and of an Office 365 user\'s e-mail, and a device IP find the comment (linked to its incident), the alarm (its device), the user (their alerts) and the device, at 1440 and 375 px, axe clean', async () => {
    // A public comment written by the data layer as the API writes it (its search words after the transaction).
    const table = localTable(env.stack.urls.dynamodb, env.stack.tableName);
    const word = `ornitorrinco${Date.now() % 100_000}`;
    const stored = await addIncidentComment('acme', 'INC-000001', { id: `e2e-search-${Date.now()}`, author: ANA, body: `Revisado el enlace: ${word} en el rack`, createdAt: new Date().toISOString(), visibility: 'public' }, table);
    assert.equal(stored, true, 'INC-000001 exists in the demo data');
    const ip = demoDevices(DEMO_TENANTS.find((t) => t.id === 'acme')!, Date.now())[0]!.ipAddress;
    const { page, problems, context } = await newPage(env, VIEWPORTS.desktop);
    await signIn(page, env.web, ANA, DEMO_PASSWORD);
    await page.goto(`${env.web}/page/search-results?q=${word}`);
    const link = page.locator('section[aria-labelledby="sr-comments"]').getByRole('link', { name: new RegExp(word) });
    await link.waitFor();
    assert.match((await link.getAttribute('href')) ?? '', /\/ticket\/update\/INC-000001\?tenant=acme/);
    await settled(page);
    await screenshot(page, 'screens-desktop-14-search-comment');
    // A device alarm whose title has a word, and an Office 365 alert naming a user whose e-mail starts with it
    // (docs/api.md#alarm-search, #office-365-user-search): both sections answer it, each linked to its page.
    const device = demoDevices(DEMO_TENANTS.find((t) => t.id === 'acme')!, Date.now())[0]!;
    const other = `quetzal${Date.now() % 100_000}`;
    const now = new Date().toISOString();
    const writes = localTable(env.stack.urls.dynamodb, env.stack.tableName);
    await putAlarm({ tenantId: 'acme', deviceId: device.id, id: `e2e-search-${other}`, title: `Ventilador ${other} detenido`, severity: 'medium', state: 'active', raisedAt: now }, writes);
    await upsertO365Alarm({ id: `e2e-search-${other}`, tenantId: 'acme', title: 'Inicio de sesión inusual (e2e)', severity: 'medium', category: 'identity', status: 'active', affectedUser: `${other}.perez@acme.example`, detectedAt: now, updatedAt: now }, writes);
    writes.doc.destroy();
    await page.goto(`${env.web}/page/search-results?q=${other}`);
    const alarmLink = page.locator('section[aria-labelledby="sr-alarms"]').getByRole('link', { name: new RegExp(`Ventilador ${other} detenido`) });
    await alarmLink.waitFor();
    assert.equal(await alarmLink.getAttribute('href'), `/devices/detail/${encodeURIComponent(device.id)}?tenant=acme`);
    const userLink = page.locator('section[aria-labelledby="sr-o365-users"]').getByRole('link', { name: `${other}.perez@acme.example` });
    await userLink.waitFor();
    assert.equal(await userLink.getAttribute('href'), `/office365/alarms?user=${encodeURIComponent(`${other}.perez@acme.example`)}`);
    await page.goto(`${env.web}/page/search-results?q=${encodeURIComponent(ip)}`);
    await page.locator('section[aria-labelledby="sr-device-ips"]').getByRole('link', { name: new RegExp(ip.replace(/\./g, '\\.')) }).waitFor();
    await settled(page);
    assert.deepEqual(await checkA11y(page), []);
    await page.setViewportSize({ width: VIEWPORTS.phone.width, height: VIEWPORTS.phone.height });
    await assertNoHorizontalScroll(page, VIEWPORTS.phone.width, 'search by IP');
    await screenshot(page, 'screens-phone-11-search-ip');
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('linked alarms: ana opens an incident from a device alarm (prefilled), sees the alarm on the incident and the incident on the alarm row', async () => {
    // A fresh active alarm on a seeded Acme device (as the ingest route would raise it), so the row has no incident yet.
    const device = demoDevices(DEMO_TENANTS.find((t) => t.id === 'acme')!, Date.now())[0]!;
    const title = 'Uso de CPU sostenido e2e vinculo';
    const esc = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const table = localTable(env.stack.urls.dynamodb, env.stack.tableName);
    await putAlarm({ tenantId: 'acme', deviceId: device.id, id: 'e2e-link-1', title, severity: 'high', state: 'active', raisedAt: new Date(Date.now() - 600_000).toISOString() }, table);
    table.doc.destroy();
    const { page, problems, context } = await newPage(env, VIEWPORTS.desktop);
    await signIn(page, env.web, ANA, DEMO_PASSWORD);
    const alarmsOfDevice = `${env.web}/devices/alarms?device=${encodeURIComponent(device.id)}`;
    await page.goto(alarmsOfDevice);
    await page.getByRole('heading', { level: 1, name: 'Alarmas de dispositivos' }).waitFor();
    await settled(page);
    await page.getByRole('link', { name: `Abrir incidente para la alarma ${title} de ${device.name}` }).click();

    // The form, prefilled from the alarm.
    await page.waitForURL(/\/incidents\/new\?/);
    await page.getByText(`Incidente abierto desde la alarma «${title}» de ${device.name}`).waitFor();
    assert.equal(await page.getByLabel('Título').inputValue(), title);
    assert.equal(await page.getByLabel('Severidad').inputValue(), 'high');
    assert.match(await page.getByLabel('Descripción').inputValue(), new RegExp(`dispositivo ${esc(device.name)}.*activada el \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}`));
    await screenshot(page, 'screens-desktop-16-incident-from-alarm');
    await page.getByRole('button', { name: 'Crear incidente' }).click();

    // The incident lists the alarm…
    await page.waitForURL(/\/ticket\/update\/INC-\d{6}/);
    const incidentId = /INC-\d{6}/.exec(page.url())![0];
    const linked = page.locator('section[aria-labelledby="linked-alarms-title"]');
    await linked.getByRole('row', { name: new RegExp(title) }).waitFor();
    assert.match((await linked.getByRole('row', { name: new RegExp(title) }).textContent()) ?? '', new RegExp(`${esc(device.name)}.*Alta.*Activa`));
    await screenshot(page, 'screens-desktop-17-incident-linked-alarms');
    await page.setViewportSize(VIEWPORTS.phone);
    await linked.scrollIntoViewIfNeeded();
    await assertNoHorizontalScroll(page, VIEWPORTS.phone.width, 'incident with linked alarms');
    await screenshot(page, 'screens-phone-11-incident-linked-alarms');

    // …and the alarm row its incident.
    await page.goto(alarmsOfDevice);
    await page.getByRole('heading', { level: 1, name: 'Alarmas de dispositivos' }).waitFor();
    await settled(page);
    const row = page.getByRole('row', { name: new RegExp(title) });
    await row.getByRole('link', { name: `Incidente ${incidentId} de la alarma ${title}` }).waitFor();
    assert.equal(await row.getByRole('link', { name: /Abrir incidente/ }).count(), 0);
    await assertNoHorizontalScroll(page, VIEWPORTS.phone.width, 'alarms with their incident');
    await screenshot(page, 'screens-phone-12-alarm-row-incident');
    await page.setViewportSize(VIEWPORTS.desktop);
    await screenshot(page, 'screens-desktop-18-alarm-row-incident');
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('admin: "Analítica" across tenants, paged on the server; template leftovers show the error screen', async () => {
    // Two more customers, so the registry holds more than one analytics page (analyticsPageSize: 3 tenants).
    const table = localTable(env.stack.urls.dynamodb, env.stack.tableName);
    for (const t of [{ id: 'zeta-e2e', name: 'Zeta Paging (e2e)' }, { id: 'zulu-e2e', name: 'Zulu Paging (e2e)' }]) await putTenant(t, table);
    table.doc.destroy();
    const { page, problems, context } = await newPage(env, VIEWPORTS.desktop);
    await signIn(page, env.web, ADMIN, DEMO_PASSWORD);
    const nav = page.getByRole('navigation', { name: 'Menú principal' });
    await nav.getByRole('button', { name: 'Analítica' }).click();
    await nav.getByRole('link', { name: 'General' }).last().click();
    await page.waitForURL('**/analytics');
    await page.getByRole('heading', { level: 1, name: 'Analítica' }).waitFor();
    const perTenant = page.getByRole('table', { name: 'Indicadores por cliente' });
    await perTenant.getByRole('row', { name: /Acme/ }).waitFor();
    await perTenant.getByRole('row', { name: /Globex/ }).waitFor();
    assert.match((await perTenant.getByRole('row', { name: /Acme/ }).textContent()) ?? '', /\d{1,3}(,\d{1,2})? % · \d+\+? bajo el objetivo/);
    // The first page holds 3 customers; "Cargar más" reads the next page of the same period, and every
    // customer appears once.
    assert.equal(await perTenant.locator('tbody tr').count(), 3);
    await page.getByRole('button', { name: 'Cargar más' }).click();
    await perTenant.getByRole('row', { name: /Zulu Paging/ }).waitFor();
    assert.equal(await perTenant.locator('tbody tr').count(), 4);
    assert.equal(await page.getByRole('button', { name: 'Cargar más' }).count(), 0, 'no more pages after the last customer');
    await screenshot(page, 'screens-desktop-14-analytics');
    for (const path of [
      '/pos/customer-order', '/pos/menu-stock', '/ui/buttons', '/ui/modal-notifications', '/form/wizards', '/table/plugins', '/chart/chart-js',
      '/chart/chart-apex', '/map', '/layout/boxed-layout', '/page/scrum-board', '/page/product', '/page/product-details', '/page/order',
      '/page/order-details', '/page/gallery', '/page/messenger', '/page/data-management', '/email/inbox', '/email/compose', '/email/detail/7',
      '/helper', '/widgets', '/extra/search',
    ]) {
      await page.goto(`${env.web}${path}`);
      await page
        .getByRole('heading', { level: 1, name: 'Página no encontrada' })
        .waitFor({ timeout: 10_000 })
        .catch((e: unknown) => assert.fail(`${path}: no error screen (${String(e)})`));
    }
    await screenshot(page, 'screens-desktop-15-leftover-error');
    assert.deepEqual(problems, []);
    await context.close();
  });
});
