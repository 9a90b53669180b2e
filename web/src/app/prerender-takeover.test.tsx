/**
 * The prerendered sign-in form's two scripts in jsdom (docs/portal.md#prerendered-sign-in): the first-paint
 * script's choice (language, theme, variant or none) and the portal's take-over (typed values reach the live
 * form's React handlers, focus and caret move, the prerendered form is removed).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render } from '@testing-library/react';
import { firstPaint } from '../../build/first-paint';
import { FIRST_PAINT_KEYS, firstPaintSource, inertButtons } from '../../build/signin-prerender';
import { PRERENDER_ELEMENT_ID, PRERENDER_VARIANTS, prerenderKey } from '../../build/signin-prerender-variants';
import { PREFERENCES_KEY } from '../features/settings/preferences';
import { AWAITING_ACCESS_KEY } from '../shared/lib/awaiting-access';
import { SESSION_REVOKED_KEY } from '../shared/lib/session-revoked';
import { PORTAL_CONFIG_ELEMENT_ID } from '../../../lambdas/contract/portal-config-html';
import { takeOverPrerender } from './prerender-takeover';

const KEYS = PRERENDER_VARIANTS.map(prerenderKey);
const OPTIONS = { ...FIRST_PAINT_KEYS, brand: 'Vigía', keys: KEYS, markupKey: KEYS[0]!, elementId: PRERENDER_ELEMENT_ID };
const CONFIG = { brandName: 'Vigía', allowSignUp: true, userPoolClientId: 'client123' };

function page(config: object | null) {
  document.head.innerHTML = config ? `<script type="application/json" id="vigia-config">${JSON.stringify(config)}</script>` : '';
  document.body.innerHTML = `<div id="${PRERENDER_ELEMENT_ID}" data-variant="es-signup"><label>Correo electrónico</label></div>
    <template id="${PRERENDER_ELEMENT_ID}-en-signup"><label>Email</label></template><div id="root"></div>`;
}
const chosen = () => document.documentElement.dataset.signinPrerender;

afterEach(() => {
  document.head.innerHTML = '';
  document.body.innerHTML = '';
  localStorage.clear();
  sessionStorage.clear();
  window.history.replaceState(null, '', '/');
});

describe('first-paint script', () => {
  it('reads the keys the portal writes', () => {
    expect(FIRST_PAINT_KEYS).toEqual({ preferencesKey: PREFERENCES_KEY, tabKeys: [AWAITING_ACCESS_KEY, SESSION_REVOKED_KEY], configElementId: PORTAL_CONFIG_ELEMENT_ID });
    expect(firstPaintSource({ brand: 'Vigía', variants: {}, rules: '' })).toMatch(/^\(function firstPaint\(o\) \{[\s\S]*\}\)\(\{"preferencesKey":"vigia.preferences"/);
  });

  it('keeps the Spanish markup for a new reader, on the light theme', () => {
    page(CONFIG);
    firstPaint(OPTIONS);
    expect([chosen(), document.documentElement.lang, document.documentElement.dataset.theme]).toEqual(['es-signup', 'es', 'light']);
    expect(document.getElementById(PRERENDER_ELEMENT_ID)!.textContent).toBe('Correo electrónico');
  });

  it("puts in the English variant for a reader who chose English, and the reader's theme", () => {
    localStorage.setItem(PREFERENCES_KEY, JSON.stringify({ language: 'en', theme: 'dark' }));
    page(CONFIG);
    firstPaint(OPTIONS);
    expect([chosen(), document.documentElement.lang, document.documentElement.dataset.theme]).toEqual(['en-signup', 'en', 'dark']);
    const el = document.getElementById(PRERENDER_ELEMENT_ID)!;
    expect([el.textContent, el.dataset.variant]).toEqual(['Email', 'en-signup']);
  });

  it('picks the variant without self sign-up from the configuration', () => {
    page({ ...CONFIG, allowSignUp: false });
    firstPaint(OPTIONS);
    expect(chosen()).toBe('es-nosignup');
  });

  it.each([
    ['no configuration in the page', () => page(null)],
    ['another brand', () => page({ ...CONFIG, brandName: 'Otra' })],
    ['company sign-in', () => page({ ...CONFIG, oauth: { enterprise: true, socialProviders: [] } })],
    ['social sign-in', () => page({ ...CONFIG, oauth: { socialProviders: ['Google'] } })],
    ['a stored session', () => (page(CONFIG), localStorage.setItem('CognitoIdentityServiceProvider.client123.LastAuthUser', 'ana'))],
    ['the register address', () => (page(CONFIG), window.history.replaceState(null, '', '/page/register'))],
    ["a hosted sign-in's return", () => (page(CONFIG), window.history.replaceState(null, '', '/?code=abc&state=x'))],
    ['the awaiting-access page', () => (page(CONFIG), sessionStorage.setItem(AWAITING_ACCESS_KEY, '{"email":"a@b.c"}'))],
    ['an administrator-ended session', () => (page(CONFIG), sessionStorage.setItem(SESSION_REVOKED_KEY, '1'))],
  ])('shows no prerendered form with %s', (_name, arrange) => {
    arrange();
    firstPaint(OPTIONS);
    expect(chosen()).toBe('off');
  });

  it('the shipped markup posts nothing before the portal runs', () => {
    expect(inertButtons('<button type="submit">A</button><button type="button">B</button>')).toBe(
      '<button type="submit" disabled="">A</button><button type="button" aria-disabled="true">B</button>',
    );
  });
});

describe('take-over', () => {
  it("moves the typed values through the live form's handlers, the focus and the caret, and removes the prerendered form", () => {
    document.body.innerHTML = `<div id="${PRERENDER_ELEMENT_ID}"><input name="username" type="email"><input name="password" type="password"></div>`;
    const prerendered = document.getElementById(PRERENDER_ELEMENT_ID)!;
    prerendered.querySelector<HTMLInputElement>('[name=username]')!.value = 'ana@acme.example';
    const password = prerendered.querySelector<HTMLInputElement>('[name=password]')!;
    password.value = 'secret';
    password.focus();
    password.setSelectionRange(2, 4);
    const changes = vi.fn();
    const live = render(
      <form
        onChange={(e) => {
          const input = e.target as unknown as HTMLInputElement;
          changes(input.name, input.value);
        }}
      >
        <input name="username" type="email" />
        <input name="password" type="password" />
      </form>,
    );
    takeOverPrerender(live.container);
    expect(document.getElementById(PRERENDER_ELEMENT_ID)).toBeNull();
    expect(changes.mock.calls).toEqual([
      ['username', 'ana@acme.example'],
      ['password', 'secret'],
    ]);
    const focused = document.activeElement as HTMLInputElement;
    expect([focused.name, focused.selectionStart, focused.selectionEnd, live.container.contains(focused)]).toEqual(['password', 2, 4, true]);
  });

  it('only removes the prerendered form when another screen comes first, and does nothing without one', () => {
    document.body.innerHTML = `<div id="${PRERENDER_ELEMENT_ID}"><input name="username" value="x"></div><div id="root"></div>`;
    takeOverPrerender(null);
    expect(document.getElementById(PRERENDER_ELEMENT_ID)).toBeNull();
    expect(() => takeOverPrerender(document.getElementById('root'))).not.toThrow();
  });
});
