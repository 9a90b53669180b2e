/**
 * Device views at fleet scale, in real Chromium against a fresh `npm start`-equivalent stack (issue 28, point
 * 4): acme gets 1,200 more devices (seeded through the data layer, BatchWriteItem) and alarms on devices past
 * the portal's old 1,000-device read. ana
 * - opens "Disponibilidad de dispositivos", finds device "nodo 1150" with the device search and sees its
 *   availability;
 * - opens "Alarmas de dispositivos": every row shows its device's name (none the raw id), "Cargar más" reads
 *   the next page; the device filter (search "nodo 1199", choose it) leaves that device's alarms only.
 * Every `GET /devices` the two pages make is one page of 10 (no cursor walk over the fleet). Screenshots at
 * 375 and 1440 px (test-results/e2e/device-scale-*).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../scripts/local/demo-data.js';
import { putAlarm } from '../../lambdas/data/devices.js';
import { DeviceEntity, itemOf } from '../../lambdas/data/entities.js';
import { newPage, screenshot, signIn, startE2e, VIEWPORTS, type E2eEnv } from '../support/e2e.js';

const ANA = 'ana@acme.example';
const FLEET = 1_200;
let env: E2eEnv;

const num = (i: number) => String(i).padStart(4, '0');

/** The `GET /devices` queries the page sends from now on. */
function deviceQueries(page: Page): URLSearchParams[] {
  const seen: URLSearchParams[] = [];
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (r.method() === 'GET' && u.pathname.endsWith('/devices')) seen.push(u.searchParams);
  });
  return seen;
}

describe('device views at 1,200 more devices', () => {
  before(async () => {
    env = await startE2e();
    const table = env.stack.repositoryTable;
    const items = Array.from({ length: FLEET }, (_, k) => ({
      ...itemOf(DeviceEntity, { tenantId: 'acme', id: `nodo-${num(k + 1)}`, name: `nodo ${num(k + 1)}`, type: 'switch', site: `Sede ${(k % 9) + 1}`, ipAddress: '10.20.0.1', vendor: 'Cisco', model: 'C9200', lastHeartbeatAt: null }),
      openAlarms: 0,
    }));
    for (let i = 0; i < items.length; i += 25) {
      let req: Record<string, unknown> | undefined = { [table.tableName]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) };
      while (req && Object.keys(req).length) req = ((await table.doc.send('BatchWriteItem', { RequestItems: req } as never)) as { UnprocessedItems?: Record<string, unknown> }).UnprocessedItems;
    }
    // 30 alarms, the newest of the tenant, on devices #1,101..#1,199 (past the old 1,000-device read).
    const now = Date.now();
    for (let k = 0; k < 30; k++) {
      const deviceId = `nodo-${num(k === 0 ? 1_199 : 1_100 + k * 3)}`;
      await putAlarm({ id: `e2e-${k}`, tenantId: 'acme', deviceId, title: `Puerto caído ${k}`, severity: 'medium', state: 'active', raisedAt: new Date(now - k * 1000).toISOString() }, table);
    }
  });
  after(async () => {
    await env?.close();
  });

  for (const [label, viewport] of [['desktop', VIEWPORTS.desktop], ['phone', VIEWPORTS.phone]] as const) {
    it(`availability: the device search finds device #1,150 (${label})`, async () => {
      const { page, problems } = await newPage(env, viewport);
      const queries = deviceQueries(page);
      await signIn(page, env.web, ANA, DEMO_PASSWORD);
      await page.goto(`${env.web}/devices/availability`);
      await page.getByRole('heading', { level: 1, name: 'Disponibilidad de dispositivos' }).waitFor();
      await page.locator('.card h2').first().waitFor();
      await page.getByLabel('Buscar dispositivo por nombre').fill('Nodo 115');
      const select = page.locator('select#av-device');
      await select.locator('option', { hasText: 'nodo 1150 (' }).waitFor({ state: 'attached' });
      await select.selectOption({ value: 'nodo-1150' });
      await page.getByRole('heading', { level: 2, name: /nodo 1150/ }).waitFor();
      await page.getByText('Últimos 30 días').waitFor();
      assert.match(page.url(), /device=nodo-1150/);
      await screenshot(page, `device-scale-01-availability-${label}`);
      assert.ok(queries.length >= 2, 'the first page and the search');
      for (const q of queries) assert.equal(q.get('limit'), '10', `GET /devices?${q}`);
      assert.ok(queries.every((q) => !q.has('cursor')), 'no walk over the fleet');
      assert.deepEqual(problems, []);
      await page.context().close();
    });

    it(`alarms: names on every row, "Cargar más", and the device filter finds device #1,199 (${label})`, async () => {
      const { page, problems } = await newPage(env, viewport);
      const queries = deviceQueries(page);
      await signIn(page, env.web, ANA, DEMO_PASSWORD);
      await page.goto(`${env.web}/devices/alarms`);
      await page.getByRole('heading', { level: 1, name: 'Alarmas de dispositivos' }).waitFor();
      const rows = page.locator('table tbody tr');
      await rows.first().waitFor();
      await page.getByRole('link', { name: 'nodo 1199' }).first().waitFor();
      const first = await rows.count();
      // No row shows a device id where its name belongs.
      const deviceLinks = await page.locator('table tbody tr td a[href*="/devices/detail/"]').allTextContents();
      assert.ok(deviceLinks.length > 0);
      for (const t of deviceLinks) assert.doesNotMatch(t, /^nodo-\d{4}$/, `a raw device id on a row: ${t}`);
      await screenshot(page, `device-scale-02-alarms-${label}`);
      await page.getByRole('button', { name: 'Cargar más' }).click();
      await rows.nth(first).waitFor();

      await page.getByLabel('Buscar dispositivo por nombre').fill('nodo 1199');
      const select = page.locator('select#al-device');
      await select.locator('option', { hasText: 'nodo 1199 (' }).waitFor({ state: 'attached' });
      await select.selectOption({ value: 'nodo-1199' });
      await page.waitForURL(/device=nodo-1199/);
      await page.locator('td[data-label="Alarma"]', { hasText: 'Puerto caído 0' }).waitFor();
      // Only that device's alarm is left (the list re-read with `deviceId`).
      let links: string[] = [];
      for (let i = 0; i < 50; i++) {
        links = await page.locator('table tbody tr td a[href*="/devices/detail/"]').allTextContents();
        if (links.length === 1) break;
        await page.waitForTimeout(200);
      }
      assert.deepEqual(links, ['nodo 1199']);
      await screenshot(page, `device-scale-03-alarms-filtered-${label}`);
      for (const q of queries) assert.equal(q.get('limit'), '10', `GET /devices?${q}`);
      assert.ok(queries.every((q) => !q.has('cursor')), 'no walk over the fleet');
      assert.deepEqual(problems, []);
      await page.context().close();
    });
  }
});
