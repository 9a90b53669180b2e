/**
 * Test helpers for the vitest `web` project (not used by the portal itself): render a tree inside
 * the signed-in providers with a fake API client, a given session and an isolated SWR cache.
 */
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { SWRConfig } from 'swr';
import { vi } from 'vitest';
import type { ApiClient } from './api';
import { ApiProvider } from './api-context';
import type { Me } from './contract';
import { SessionProvider } from './session';
import type { SessionUser } from './session';
import { TenantProvider } from './tenant';

export const ME_ACME: Me = {
  sub: 'u-1',
  email: 'ana@acme.test',
  groups: ['acme'],
  isAdmin: false,
  tenants: [{ id: 'acme', name: 'ACME' }],
};

/**
 * A fake `ApiClient`: `routes` maps `METHOD path` (e.g. `GET /me`) to a value or a function of
 * (body, query); unknown routes reject. Every call is recorded by the vi.fn()s.
 */
export function fakeApi(routes: Record<string, unknown | ((body: unknown, query: unknown) => unknown)>) {
  const call = (method: string) =>
    vi.fn(async <T,>(path: string, a?: unknown, b?: unknown): Promise<T> => {
      const handler = routes[`${method} ${path}`];
      if (handler === undefined) throw new Error(`fakeApi: no route ${method} ${path}`);
      const [body, query] = method === 'GET' ? [undefined, a] : [a, b];
      return (typeof handler === 'function' ? (handler as (b: unknown, q: unknown) => unknown)(body, query) : handler) as T;
    });
  const client = { get: call('GET'), post: call('POST'), patch: call('PATCH') };
  // vi.fn() drops the generic `<T>` of ApiClient's methods; the runtime shape is the same.
  return client as typeof client & ApiClient;
}

export function renderSignedIn(
  ui: ReactElement,
  { path = '/', user = { email: 'ana@acme.test', groups: ['acme'] }, api = fakeApi({ 'GET /me': ME_ACME }) }: {
    path?: string;
    user?: SessionUser;
    api?: ApiClient;
  } = {},
) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0, shouldRetryOnError: false }}>
        <ApiProvider client={api}>
          <SessionProvider value={{ status: 'ready', user }}>
            <TenantProvider>{ui}</TenantProvider>
          </SessionProvider>
        </ApiProvider>
      </SWRConfig>
    </MemoryRouter>,
  );
}
