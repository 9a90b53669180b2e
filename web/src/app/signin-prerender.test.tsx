/**
 * The sign-in page's prerendered markup (`web/build/signin-prerender.json`, docs/portal.md#prerendered-sign-in)
 * is what the portal's own start-up renders: each variant (language × self sign-up) is rendered here by
 * `bootstrap` with the real Amplify UI Authenticator, and must equal the committed file. When the sign-in page
 * changes, regenerate it: `UPDATE_SIGNIN_PRERENDER=1 npx vitest run --project web web/src/app/signin-prerender.test.tsx`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { act, screen } from '@testing-library/react';
import type { Root } from 'react-dom/client';
import { bootstrap } from './bootstrap';
import { TEST_CONFIG } from '../shared/lib/test-utils';
import { updatePreferences } from '../features/settings/preferences';
import { PRERENDER_BRAND, PRERENDER_FILE, prerenderKey, PRERENDER_VARIANTS, shippableMarkup, shippableRules, type PrerenderedSignIn } from '../../build/signin-prerender-variants';

const CONFIG = { ...TEST_CONFIG, brandName: PRERENDER_BRAND };

const file = path.resolve(__dirname, '../../build', PRERENDER_FILE);
const committed = JSON.parse(readFileSync(file, 'utf8')) as PrerenderedSignIn;
const rendered: PrerenderedSignIn = { brand: PRERENDER_BRAND, variants: {}, rules: '' };
const classes = new Map<string, string>();
let root: Root | undefined;

afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  document.body.innerHTML = '';
});
afterAll(() => {
  updatePreferences({ language: 'es' });
  if (process.env.UPDATE_SIGNIN_PRERENDER) writeFileSync(file, `${JSON.stringify(rendered, null, 2)}\n`);
});

describe('prerendered sign-in page', () => {
  it.each(PRERENDER_VARIANTS)('equals what the start-up renders: %o', async (variant) => {
    updatePreferences({ language: variant.language });
    window.history.replaceState(null, '', '/page/login');
    const container = document.createElement('div');
    document.body.appendChild(container);
    const fetchImpl = async () => Response.json({ ...CONFIG, allowSignUp: variant.signUp });
    await act(async () => {
      root = await bootstrap(container, { fetchImpl: fetchImpl as unknown as typeof fetch });
    });
    await screen.findByLabelText(variant.language === 'es' ? 'Correo electrónico' : 'Email');
    // The sign-in page's effects (the Spanish screen-reader labels) have run.
    await act(async () => new Promise((r) => setTimeout(r, 0)));
    const html = shippableMarkup(container.innerHTML, classes);
    // Nothing the page's Content-Security-Policy (style-src 'self') would refuse.
    expect(html).not.toMatch(/\sstyle="/);
    rendered.variants[prerenderKey(variant)] = html;
    rendered.rules = shippableRules(classes);
    if (!process.env.UPDATE_SIGNIN_PRERENDER) expect(html, 'web/build/signin-prerender.json is stale: see this file\'s comment').toBe(committed.variants[prerenderKey(variant)]);
  });

  it('carries the stylesheet of the inline styles it replaced', () => {
    if (!process.env.UPDATE_SIGNIN_PRERENDER) expect(committed.rules).toBe(rendered.rules);
  });
});
