import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { bootstrap } from './bootstrap';
import { TEST_CONFIG } from '../shared/lib/test-utils';
import type { Root } from 'react-dom/client';

const VALID = { ...TEST_CONFIG, userPoolEndpoint: 'http://127.0.0.1:9229' };
const CONFIG_ERROR = 'Configuration error (see console) – please contact the administrator';

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  document.body.innerHTML = '';
  vi.restoreAllMocks();
});

async function start(fetchImpl: typeof fetch) {
  const container = document.createElement('div');
  document.body.appendChild(container);
  await act(async () => {
    root = await bootstrap(container, { fetchImpl });
  });
  return container;
}

describe('portal start-up', () => {
  it.each([
    ['missing (404)', async () => new Response('not found', { status: 404 }), /HTTP 404/],
    ['unreachable', async () => Promise.reject(new TypeError('Failed to fetch')), /cannot fetch/],
    ['not JSON (SPA fallback HTML)', async () => new Response('<!doctype html><html></html>', { status: 200 }), /not valid JSON/],
    ['invalid shape', async () => Response.json({ ...VALID, apiUrl: 'not a url', userPoolId: '' }), /apiUrl.*userPoolId|userPoolId.*apiUrl/],
  ])('shows the configuration error screen when config.json is %s', async (_name, fetchImpl, reason) => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const container = await start(fetchImpl as typeof fetch);
    expect(container.textContent).toBe(CONFIG_ERROR);
    expect(consoleError).toHaveBeenCalledWith(expect.stringContaining('configuration error'), expect.stringMatching(reason));
  });

  it('renders the Spanish sign-in form (e-mail login) when config.json is valid and nobody is signed in', async () => {
    const fetchImpl = vi.fn(async () => Response.json(VALID));
    window.history.replaceState(null, '', '/incidents/all');
    await start(fetchImpl as unknown as typeof fetch);
    expect(fetchImpl).toHaveBeenCalledWith('/config.json', expect.anything());
    expect(await screen.findByLabelText('Correo electrónico')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Iniciar sesión' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Crear cuenta' })).toBeTruthy();
    expect(screen.getByRole('switch', { name: 'Mostrar contraseña' })).toBeTruthy();
    expect(screen.queryByText(CONFIG_ERROR)).toBeNull();
    // signed out on a product route → the address becomes /page/login
    await waitFor(() => expect(window.location.pathname).toBe('/page/login'));
  });

  it('opens on "Crear cuenta" at /page/register and hides it when sign-up is off', async () => {
    window.history.replaceState(null, '', '/page/register');
    await start((async () => Response.json(VALID)) as typeof fetch);
    expect(await screen.findByLabelText('Confirmar contraseña')).toBeTruthy();
    act(() => root?.unmount());
    document.body.innerHTML = '';

    window.history.replaceState(null, '', '/page/register');
    await start((async () => Response.json({ ...VALID, allowSignUp: false })) as typeof fetch);
    expect(await screen.findByLabelText('Correo electrónico')).toBeTruthy();
    expect(screen.queryByRole('tab', { name: 'Crear cuenta' })).toBeNull();
    expect(window.location.pathname).toBe('/page/login');
  });
});

describe('portal start-up with the configuration in index.html (docs/portal.md#configuration-in-indexhtml)', () => {
  /** Puts `text` in the page as the server does: a JSON data block before the portal's container. */
  function inlineBlock(text: string) {
    const el = document.createElement('script');
    el.type = 'application/json';
    el.id = 'vigia-config';
    el.textContent = text;
    document.body.appendChild(el);
  }

  it('renders the sign-in page from the block without requesting config.json, before bootstrap returns', async () => {
    inlineBlock(JSON.stringify({ ...VALID, brandName: 'Vigía </script> Test' }).replace(/</g, '\\u003c'));
    const fetchImpl = vi.fn(async () => Response.json(VALID));
    window.history.replaceState(null, '', '/page/login');
    const container = document.createElement('div');
    document.body.appendChild(container);
    let pending: Promise<Root> | undefined;
    act(() => {
      pending = bootstrap(container, { fetchImpl: fetchImpl as unknown as typeof fetch });
      // The first screen is in the DOM in the same task (flushSync), not after a scheduled render.
      expect(container.querySelector('.signin-page')).not.toBeNull();
    });
    await act(async () => {
      root = await pending;
    });
    expect(await screen.findByLabelText('Correo electrónico')).toBeTruthy();
    expect(screen.getByText(/Vigía <\/script> Test/)).toBeTruthy();
    expect(fetchImpl).not.toHaveBeenCalled();
  });

  it.each([
    ['not JSON', '{"region": ', /index\.html #vigia-config is not valid JSON/],
    ['invalid shape', JSON.stringify({ ...VALID, userPoolClientId: '' }), /index\.html #vigia-config is invalid: userPoolClientId/],
  ])('shows the configuration error screen when the block is %s (and does not fall back to config.json)', async (_name, text, reason) => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    inlineBlock(text);
    const fetchImpl = vi.fn(async () => Response.json(VALID));
    const container = await start(fetchImpl as unknown as typeof fetch);
    expect(container.textContent).toBe(CONFIG_ERROR);
    expect(consoleError).toHaveBeenCalledWith(expect.stringContaining('configuration error'), expect.stringMatching(reason));
    expect(fetchImpl).not.toHaveBeenCalled();
  });
});
