import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';

const auth = vi.hoisted(() => ({ fetchAuthSession: vi.fn(), signOut: vi.fn() }));
vi.mock('aws-amplify/auth', () => auth);

import { renderSignedIn } from '../shared/lib/test-utils';
import { AppRoutes } from './AppRoutes';

describe('route guard', () => {
  beforeEach(() => auth.signOut.mockReset().mockResolvedValue(undefined));

  it('sends a non-admin from /analytics to the error screen', async () => {
    renderSignedIn(<AppRoutes brandName="Vigía" />, { path: '/analytics', user: { email: 'ana@acme.test', groups: ['acme'] } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Página no encontrada' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Volver al inicio' }).getAttribute('href')).toBe('/');
    expect(screen.queryByRole('heading', { name: 'Analítica' })).toBeNull();
  });

  it('lets an admin open /analytics', async () => {
    renderSignedIn(<AppRoutes brandName="Vigía" />, { path: '/analytics', user: { email: 'root@vigia.test', groups: ['admin'] } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Analítica' })).toBeTruthy();
  });

  it('signs out globally, with a console error, a user in no group', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    renderSignedIn(<AppRoutes brandName="Vigía" />, { path: '/incidents/all', user: { email: 'x@y.test', groups: [] } });
    await waitFor(() => expect(auth.signOut).toHaveBeenCalledWith({ global: true }));
    expect(consoleError).toHaveBeenCalledWith(expect.stringContaining('no group'));
    expect(screen.queryByRole('heading', { name: 'Incidentes' })).toBeNull();
    consoleError.mockRestore();
  });

  it.each(['/no/such/page', '/email/inbox', '/pos/customer-order', '/ui/buttons', '/page/error'])(
    'shows the error screen at %s',
    async (path) => {
      renderSignedIn(<AppRoutes brandName="Vigía" />, { path });
      expect(await screen.findByRole('heading', { level: 1, name: 'Página no encontrada' })).toBeTruthy();
    },
  );

  it('/page/logout signs out globally', async () => {
    renderSignedIn(<AppRoutes brandName="Vigía" />, { path: '/page/logout' });
    await waitFor(() => expect(auth.signOut).toHaveBeenCalledWith({ global: true }));
    await waitFor(() => expect(window.location.pathname).toBe('/page/login'));
  });
});
