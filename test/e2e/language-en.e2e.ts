/**
 * English mode translates the page content, not only the shell (docs/portal.md#messages): a customer and a
 * staff member who chose English in `/settings` see no Spanish text of the message catalogue on any screen —
 * neither as the whole text of an element nor in an `aria-label`, `title` or `placeholder` — and the sign-in
 * page is in English too. Data (incident titles, device names) stays as stored, so only texts that are
 * exactly a catalogue value (placeholders matching anything) count. Each screen is saved as
 * `test-results/e2e/language-en-<role>-<screen>.png`.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../scripts/local/demo-data.js';
import { REPO_ROOT } from '../../scripts/local/config.js';
import { newPage, screenshot, signIn, startE2e, VIEWPORTS, type E2eEnv } from '../support/e2e.js';
import { SCREENS, STAFF_SCREENS } from '../support/e2e-screens.js';

let env: E2eEnv;

/** `[key, value]` of every string of a catalogue, keys dotted. */
function flatten(node: unknown, prefix = ''): [string, string][] {
  if (typeof node === 'string') return [[prefix, node]];
  return Object.entries(node as Record<string, unknown>).flatMap(([k, v]) => flatten(v, prefix ? `${prefix}.${k}` : k));
}

/** The portal's catalogue of `language` (loaded at run time: it is web code, outside this project's tsconfig). */
async function catalogue(language: 'es' | 'en'): Promise<unknown> {
  const file = path.join(REPO_ROOT, 'web/src/shared/lib/messages', language, 'index.ts');
  return ((await import(pathToFileURL(file).href)) as Record<string, unknown>)[language];
}
const english = new Map(flatten(await catalogue('en')));
/**
 * A matcher per Spanish text that differs from its English version: the whole (trimmed) text, `{{x}}`
 * placeholders matching anything. Texts shorter than 4 letters are left out (they collide with data and units).
 */
const SPANISH = flatten(await catalogue('es'))
  .filter(([key, value]) => english.get(key) !== value && value.replace(/\{\{\w+\}\}/g, '').replace(/[^\p{L}]/gu, '').length >= 4)
  .map(([key, value]) => ({
    key,
    re: new RegExp(`^${value.split(/\{\{\w+\}\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.+?')}$`, 's'),
  }));

/** The texts of the page a user sees or hears: each element's own text, and its aria-label/title/placeholder. */
async function pageTexts(page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const out = [];
    for (const el of document.querySelectorAll('body *')) {
      if (el.closest('script, style')) continue;
      let own = '';
      for (const n of el.childNodes) if (n.nodeType === 3) own += n.textContent;
      if (own.trim()) out.push(own.trim());
      for (const a of ['aria-label', 'title', 'placeholder']) { const v = el.getAttribute(a); if (v && v.trim()) out.push(v.trim()); }
    }
    return out;
  })()`);
}

async function useEnglish(page: Page): Promise<void> {
  // The portal keeps its preferences in localStorage under `vigia.preferences` (docs/portal.md#screens, Settings).
  await page.evaluate(`(() => {
    const prefs = JSON.parse(localStorage.getItem('vigia.preferences') ?? '{}');
    localStorage.setItem('vigia.preferences', JSON.stringify({ ...prefs, language: 'en' }));
  })()`);
}

function shotName(path: string): string {
  return path.replace(/^\//, '').replace(/[^a-z0-9]+/gi, '-').replace(/-+$/, '') || 'home';
}

describe('English mode: page content in English', () => {
  before(async () => {
    env = await startE2e();
  });
  after(async () => {
    await env?.close();
  });

  it('the matcher finds Spanish catalogue texts (so the check below can fail)', () => {
    const hit = (text: string) => SPANISH.filter((s) => s.re.test(text)).map((s) => s.key);
    assert.ok(hit('No hay registros').includes('common.noRecords'));
    assert.ok(hit('Referencia: req-123').includes('ui.states.reference'));
    assert.deepEqual(hit('No records'), []);
    assert.deepEqual(hit('Intento de acceso desde una IP desconocida'), []);
  });

  for (const [role, email, screens] of [
    ['customer', 'ana@acme.example', SCREENS],
    ['staff', 'admin@vigia.example', STAFF_SCREENS],
  ] as const) {
    it(`${role}: no Spanish catalogue text on any screen in English`, async () => {
      const { page, problems, context } = await newPage(env, VIEWPORTS.desktop);
      await signIn(page, env.web, email, DEMO_PASSWORD);
      await useEnglish(page);
      const found: string[] = [];
      for (const path of screens) {
        await page.goto(`${env.web}${path}`);
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        await page.locator('.skeleton').first().waitFor({ state: 'detached', timeout: 20_000 });
        assert.equal(await page.evaluate('document.documentElement.lang'), 'en');
        for (const text of await pageTexts(page)) {
          for (const s of SPANISH) if (s.re.test(text)) found.push(`${role} ${path}: "${text}" (${s.key})`);
        }
        await screenshot(page, `language-en-${role}-${shotName(path)}`);
      }
      assert.deepEqual([...new Set(found)], []);
      // The shell is English too (a sanity check that the preference took effect).
      await page.getByRole('button', { name: 'Notifications' }).waitFor();
      assert.deepEqual(problems, []);
      await context.close();
    });
  }

  it('the sign-in page follows the English preference', async () => {
    const { page, problems, context } = await newPage(env, VIEWPORTS.desktop);
    await page.goto(`${env.web}/page/login`);
    await useEnglish(page);
    await page.reload();
    await page.getByLabel('Email').waitFor();
    await page.getByText('Customer portal').waitFor();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    assert.deepEqual(problems, []);
    await context.close();
  });
});
