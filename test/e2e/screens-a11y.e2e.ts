/**
 * Accessibility of the business screens (docs/portal.md#accessibility): axe-core finds no serious or critical violation
 * on the dashboard, incident list and detail, device screens, Office 365, recommendations, reports, calendar,
 * search results, the audit log, the open notifications dropdown and the staff screens (analytics, SOC queue,
 * administration, audit log, a staff ticket page) and the account screens, at 375 px and 1440 px, in the light
 * and the dark theme; at 375 px no screen scrolls sideways, for a customer or for staff. Every screen is saved
 * as `test-results/e2e/theme-<theme>-<width>-<role>-<screen>.png`. The incident
 * filters, an alarm acknowledgement and a recommendation change work with the keyboard only. Needs axe-core
 * (devDependency, or AXE_CORE_PATH); skipped with that reason when it is missing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../scripts/local/demo-data.js';
import { axeSource, checkA11y, newPage, screenshot, signIn, startE2e, VIEWPORTS, type E2eEnv } from '../support/e2e.js';
import { SCREENS, STAFF_SCREENS } from '../support/e2e-screens.js';

const THEMES = ['light', 'dark'] as const;
const skip = axeSource() ? false : 'axe-core is not installed (npm i -E -D axe-core@4.14.1, or set AXE_CORE_PATH)';
let env: E2eEnv;

async function settled(page: Page): Promise<void> {
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await page.locator('.skeleton').first().waitFor({ state: 'detached', timeout: 20_000 });
}

/** The serious and critical axe violations of the page, one line each (`where: rule (impact) targets`). */
async function violations(page: Page, where: string): Promise<string[]> {
  return (await checkA11y(page)).map((v) => `${where}: ${v.id} (${v.impact}) ${v.targets.join(', ')}`);
}

/** Switches the signed-in page's display preference to `theme` (as /settings does; applies on the next load). */
async function useTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  // The portal keeps its display preferences in localStorage under `vigia.preferences` (PREFERENCES_KEY in
  // web/src/features/settings/preferences.ts); the theme applies on the next page load.
  await page.evaluate(`(() => {
    const prefs = JSON.parse(localStorage.getItem('vigia.preferences') ?? '{}');
    localStorage.setItem('vigia.preferences', JSON.stringify({ ...prefs, theme: ${JSON.stringify(theme)} }));
  })()`);
}

/** A file-name-safe name of a screen path (`/admin/tenants/acme` → `admin-tenants-acme`). */
function shotName(path: string): string {
  return path.replace(/^\//, '').replace(/[^a-z0-9]+/gi, '-').replace(/-+$/, '') || 'home';
}

describe('business screens: axe-core and keyboard', { skip }, () => {
  before(async () => {
    env = await startE2e();
  });
  after(async () => {
    await env?.close();
  });

  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    for (const theme of THEMES) {
      it(`${name} (${viewport.width} px), ${theme} theme: no serious or critical violation on any screen, customer and staff${viewport.width <= 375 ? ', no sideways scroll' : ''}`, async () => {
        const failures: string[] = [];
        for (const [role, email, screens] of [
          ['customer', 'ana@acme.example', SCREENS],
          ['staff', 'admin@vigia.example', STAFF_SCREENS],
        ] as const) {
          const { page, problems, context } = await newPage(env, viewport);
          await signIn(page, env.web, email, DEMO_PASSWORD);
          await useTheme(page, theme);
          for (const path of screens) {
            await page.goto(`${env.web}${path}`);
            await settled(page);
            failures.push(...(await violations(page, `${role} ${path}`)));
            if (viewport.width <= 375) {
              const width = await page.evaluate<number>('document.documentElement.scrollWidth');
              if (width > viewport.width) failures.push(`${role} ${path}: page is ${width}px wide at ${viewport.width}px`);
            }
            await screenshot(page, `theme-${theme}-${viewport.width}-${role}-${shotName(path)}`);
          }
          if (role === 'customer') {
            await page.getByRole('button', { name: 'Notificaciones' }).click();
            await page.locator('.notifications').getByRole('link', { name: 'Ver todas' }).waitFor();
            await page.locator('.notifications .skeleton').first().waitFor({ state: 'detached' });
            failures.push(...(await violations(page, 'notifications')));
          }
          assert.deepEqual(problems, []);
          await context.close();
        }
        assert.deepEqual(failures, []);
      });
    }
  }

  it('keyboard only: filter incidents, acknowledge an alarm, dismiss a recommendation with a note', async () => {
    const { page, problems, context } = await newPage(env, VIEWPORTS.desktop);
    await signIn(page, env.web, 'ana@acme.example', DEMO_PASSWORD);

    await page.goto(`${env.web}/incidents/all`);
    await settled(page);
    await page.getByLabel('Severidad').focus();
    await page.keyboard.press('ArrowDown'); // Todas → Crítica
    await page.waitForURL(/severity=critical/);
    await page.getByLabel('Texto').focus();
    await page.keyboard.type('INC');
    await page.keyboard.press('Enter');
    await page.waitForURL(/q=INC/);

    await page.goto(`${env.web}/devices/alarms?state=active`);
    await settled(page);
    const ack = page.getByRole('button', { name: /^Reconocer alarma / }).first();
    const label = (await ack.getAttribute('aria-label'))!;
    await ack.focus();
    await page.keyboard.press('Enter');
    await page.getByText(/Alarma «.+» reconocida\./).waitFor();
    await page.getByRole('button', { name: label, exact: true }).first().waitFor({ state: 'detached' });

    await page.goto(`${env.web}/recommendations?status=open`);
    const dismiss = page.getByRole('button', { name: /^Descartar: / }).first();
    await dismiss.waitFor({ timeout: 30_000 });
    await dismiss.focus();
    await page.keyboard.press('Enter');
    await page.getByLabel('Nota para «Descartar»').focus();
    await page.keyboard.type('No aplica a nuestra red');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter'); // "Confirmar: Descartar"
    await page.getByText(/: descartada\.$/).waitFor();

    assert.deepEqual(problems, []);
    await context.close();
  });
});
