/**
 * Staff without TOTP (docs/api.md#staff-accounts-and-totp): when the API answers 403 MFA_REQUIRED, the
 * screen says in Spanish to set up two-step verification and links to /profile, where TOTP is set up.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/lib/api';
import { fakeApi, renderSignedIn } from '../../shared/lib/test-utils';
import { AnalyticsPage } from './AnalyticsPage';

const ADMIN_ME = { sub: 'a-1', email: 'admin@vigia.test', groups: ['admin'], isAdmin: true, tenants: [{ id: 'acme', name: 'ACME' }] };

describe('an admin without TOTP', () => {
  it('is told to set up two-step verification, with a link to the profile', async () => {
    const api = fakeApi({
      getMe: ADMIN_ME,
      getAnalytics: () => {
        throw new ApiError({ kind: 'client', status: 403, code: 'MFA_REQUIRED', requestId: 'req-mfa', message: 'staff accounts must set up an authenticator app (TOTP) first' });
      },
    });
    renderSignedIn(<AnalyticsPage />, { path: '/analytics', user: { email: 'admin@vigia.test', groups: ['admin'] }, api });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('necesitas la verificación en dos pasos');
    const link = screen.getByRole('link', { name: 'Configurar la verificación en dos pasos' });
    expect(link.getAttribute('href')).toBe('/profile');
  });

  it('shows no such link for other errors', async () => {
    const api = fakeApi({
      getMe: ADMIN_ME,
      getAnalytics: () => {
        throw new ApiError({ kind: 'client', status: 403, code: 'FORBIDDEN', message: 'no' });
      },
    });
    renderSignedIn(<AnalyticsPage />, { path: '/analytics', user: { email: 'admin@vigia.test', groups: ['admin'] }, api });
    await screen.findByRole('alert');
    expect(screen.queryByRole('link', { name: 'Configurar la verificación en dos pasos' })).toBeNull();
  });
});
