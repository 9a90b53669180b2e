/**
 * Internal notes browser suite (docs/api.md#internal-notes, docs/portal.md#incident-detail): against a fresh
 * `npm start`-equivalent stack, in real Chromium,
 *  - a customer opens an incident; staff open it, write a public comment and, with "Nota interna" checked, an
 *    internal note: the note shows in the timeline with the label "Nota interna · solo SOC" and its own style;
 *  - the customer (another browser context) opens the same incident: the public comment is there, the note's
 *    text and label are not, and the customer's form has no "Nota interna" toggle;
 *  - both views at 375 and 1440 px (screenshots; no sideways scroll at 375 px);
 *  - attachments (docs/api.md#attachments) on the same incident: the customer uploads a small `.log` through the
 *    page (presigned POST straight to the local S3), sees it listed, downloads it (the same bytes, through the
 *    60 s presigned GET), is refused an `.html` with the words of ATTACHMENT_TYPE_NOT_ALLOWED, and at 375 px the
 *    "Adjuntos" section holds the width.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../scripts/local/demo-data.js';
import { newPage, screenshot, signIn, startE2e, VIEWPORTS, type E2eEnv } from '../support/e2e.js';

const ANA = 'ana@acme.example';
const ADMIN = 'admin@vigia.example';
const run = Date.now().toString(36);
const NOTE = `Posible empleado implicado; no avisar aún al cliente (${run})`;
const PUBLIC = `Estamos revisando los registros del cortafuegos (${run})`;
let env: E2eEnv;
/** The incident the first test opens (the attachments test uses it too). */
let ticketUrl = '';

/** The page has no sideways scroll. */
async function noSidewaysScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
  assert.ok(overflow <= 1, `no sideways scroll (overflow ${overflow} px)`);
}

describe('internal notes', () => {
  before(async () => {
    env = await startE2e();
  });
  after(async () => {
    await env?.close();
  });

  it('staff add an internal note that is marked; the customer never sees it', async () => {
    const customer = await newPage(env, VIEWPORTS.desktop);
    await signIn(customer.page, env.web, ANA, DEMO_PASSWORD);
    await customer.page.goto(`${env.web}/incidents/new`);
    await customer.page.getByLabel('Título').fill(`Correo sospechoso ${run}`);
    await customer.page.getByLabel('Descripción').fill('Un empleado recibió un enlace extraño');
    await customer.page.getByLabel('Severidad').selectOption('high');
    await customer.page.getByRole('button', { name: 'Crear incidente' }).click();
    const heading = customer.page.getByRole('heading', { level: 1, name: new RegExp(`Correo sospechoso ${run}`) });
    await heading.waitFor();
    ticketUrl = customer.page.url();
    // A customer's comment form has no internal-note toggle.
    await customer.page.getByRole('heading', { level: 2, name: 'Agregar comentario' }).waitFor();
    assert.equal(await customer.page.getByLabel('Nota interna').count(), 0);

    const staff = await newPage(env, VIEWPORTS.desktop);
    await signIn(staff.page, env.web, ADMIN, DEMO_PASSWORD);
    await staff.page.goto(ticketUrl);
    await staff.page.getByRole('heading', { level: 1, name: new RegExp(`Correo sospechoso ${run}`) }).waitFor();

    // A public comment first, then the internal note.
    await staff.page.getByLabel('Comentario', { exact: true }).fill(PUBLIC);
    await staff.page.getByRole('button', { name: 'Comentar' }).click();
    await staff.page.getByRole('status').filter({ hasText: 'Comentario añadido.' }).waitFor();
    await staff.page.getByText(PUBLIC).waitFor();

    await staff.page.getByLabel('Nota interna', { exact: true }).check();
    await staff.page.getByRole('heading', { level: 2, name: 'Agregar nota interna' }).waitFor();
    await staff.page.getByLabel('Nota interna (solo SOC)').fill(NOTE);
    await staff.page.getByRole('button', { name: 'Guardar nota interna' }).click();
    await staff.page.getByRole('status').filter({ hasText: 'Nota interna añadida. El cliente no la ve.' }).waitFor();
    const note = staff.page.locator('li.timeline-item', { hasText: NOTE });
    await note.waitFor();
    assert.match((await note.getAttribute('class')) ?? '', /timeline-internal/, 'the note has its own style');
    assert.match((await note.textContent()) ?? '', /Nota interna · solo SOC/, 'the note is labelled');
    const pub = staff.page.locator('li.timeline-item', { hasText: PUBLIC });
    assert.doesNotMatch((await pub.getAttribute('class')) ?? '', /timeline-internal/, 'a public comment is not marked');
    assert.doesNotMatch((await pub.textContent()) ?? '', /Nota interna/);
    await note.scrollIntoViewIfNeeded();
    await screenshot(staff.page, 'internal-notes-01-staff-1440');

    // The customer, in another browser context, opens the same incident.
    await customer.page.reload();
    await customer.page.getByText(PUBLIC).waitFor();
    assert.equal(await customer.page.getByText(NOTE).count(), 0, 'the note is not shown to the customer');
    assert.equal(await customer.page.getByText('Nota interna').count(), 0, 'no internal-note label or toggle');
    const html = await customer.page.content();
    assert.ok(!html.includes('no avisar aún'), 'the note text is nowhere in the page');
    await screenshot(customer.page, 'internal-notes-02-customer-1440');

    // 375 px: both views.
    for (const [who, email, name] of [
      ['staff', ADMIN, 'internal-notes-03-staff-375'],
      ['customer', ANA, 'internal-notes-04-customer-375'],
    ] as const) {
      const phone = await newPage(env, VIEWPORTS.phone);
      await signIn(phone.page, env.web, email, DEMO_PASSWORD);
      await phone.page.goto(ticketUrl);
      await phone.page.getByText(PUBLIC).waitFor();
      if (who === 'staff') {
        await phone.page.locator('li.timeline-internal', { hasText: NOTE }).getByText('Nota interna · solo SOC').waitFor();
        await phone.page.getByLabel('Nota interna', { exact: true }).check();
      } else {
        assert.equal(await phone.page.getByText(NOTE).count(), 0);
        assert.equal(await phone.page.getByLabel('Nota interna').count(), 0);
      }
      await noSidewaysScroll(phone.page);
      await screenshot(phone.page, name);
      await phone.context.close();
    }
    await staff.context.close();
    await customer.context.close();
  });

  it('the customer attaches a .log, sees it listed, downloads the same bytes; an .html is refused; 375 px holds', async () => {
    assert.ok(ticketUrl, 'the first test opened an incident');
    const bytes = `Nov 29 06:01 fw-1 DENY tcp 10.0.0.9:445 (${run})\n`;
    const { page, context } = await newPage(env, VIEWPORTS.desktop);
    await signIn(page, env.web, ANA, DEMO_PASSWORD);
    await page.goto(ticketUrl);
    const section = page.locator('section.attachments');
    await section.getByText('Este incidente no tiene adjuntos.').waitFor();
    const input = section.getByLabel('Adjuntar archivo');
    await input.setInputFiles({ name: 'fw-deny.log', mimeType: '', buffer: Buffer.from(bytes) });
    await section.getByRole('status').filter({ hasText: 'Archivo «fw-deny.log» adjuntado.' }).waitFor();
    const row = section.locator('tr', { hasText: 'fw-deny.log' });
    await row.waitFor();
    assert.match((await row.textContent()) ?? '', /text\/plain.*B.*ana@acme\.example/s, 'type, size and who');

    const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: 'Descargar fw-deny.log' }).click()]);
    assert.equal(download.suggestedFilename(), 'fw-deny.log');
    assert.equal(await readFile((await download.path())!, 'utf8'), bytes, 'the same bytes come back');

    await input.setInputFiles({ name: 'page.html', mimeType: 'text/html', buffer: Buffer.from('<b>x</b>') });
    assert.match((await section.getByRole('alert').textContent()) ?? '', /Ese tipo de archivo no se admite/);
    assert.equal(await section.locator('tr', { hasText: 'page.html' }).count(), 0, 'nothing listed');
    assert.equal(await section.getByText('Archivo «fw-deny.log» adjuntado.').count(), 0, "the previous file's notice does not stay above the refusal");
    await screenshot(page, 'internal-notes-05-attachments-1440');
    await context.close();

    const phone = await newPage(env, VIEWPORTS.phone);
    await signIn(phone.page, env.web, ANA, DEMO_PASSWORD);
    await phone.page.goto(ticketUrl);
    await phone.page.locator('section.attachments').getByText('fw-deny.log').waitFor();
    await phone.page.locator('section.attachments').scrollIntoViewIfNeeded();
    await noSidewaysScroll(phone.page);
    await screenshot(phone.page, 'internal-notes-06-attachments-375');
    await phone.context.close();
  });
});
