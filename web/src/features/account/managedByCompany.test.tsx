/**
 * A federated user (`GET /me` `federated: true`, docs/api.md#me) is offered neither a password change nor a
 * TOTP set-up: the profile and the password page say their company manages the account, naming the provider;
 * a native user keeps both.
 */
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { fakeApi, ME_ACME, renderSignedIn } from '../../shared/lib/test-utils';
import { PasswordChangePage } from './PasswordChangePage';
import { ProfilePage } from './ProfilePage';

const ME_CARLA = { ...ME_ACME, sub: 'u-carla', email: 'carla@acme.test', federated: true, identityProvider: 'AcmeEntraID' };
const routes = () => (
  <Routes>
    <Route path="/profile" element={<ProfilePage />} />
    <Route path="/page/passwordchange" element={<PasswordChangePage />} />
  </Routes>
);
const MANAGED = 'Tu cuenta la gestiona tu empresa (AcmeEntraID): la contraseña y la verificación en dos pasos se cambian allí, no en Vigía.';

describe('federated users', { timeout: 20_000 }, () => {
  it('profile: the managed-by-company notice with the provider, no password link, no TOTP set-up', async () => {
    renderSignedIn(routes(), { path: '/profile', user: { email: 'carla@acme.test', groups: ['acme'] }, api: fakeApi({ getMe: ME_CARLA }) });
    expect(await screen.findByText(MANAGED)).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Cambiar contraseña' })).toBeNull();
    expect(screen.queryByRole('heading', { name: /verificación en dos pasos/i })).toBeNull();
    expect(screen.getByRole('link', { name: 'Cerrar sesión' })).toBeTruthy();
  });

  it('password page: the notice instead of the form', async () => {
    renderSignedIn(routes(), { path: '/page/passwordchange', user: { email: 'carla@acme.test', groups: ['acme'] }, api: fakeApi({ getMe: ME_CARLA }) });
    expect(await screen.findByText(MANAGED)).toBeTruthy();
    expect(screen.queryByLabelText('Contraseña actual')).toBeNull();
  });

  it('a native user keeps the password link and the TOTP set-up', async () => {
    renderSignedIn(routes(), { path: '/profile', api: fakeApi({ getMe: { ...ME_ACME, federated: false } }) });
    expect(await screen.findByRole('link', { name: 'Cambiar contraseña' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Verificación en dos pasos (MFA)' })).toBeTruthy();
    expect(screen.queryByText(/Tu cuenta la gestiona tu empresa/)).toBeNull();
  });
});
