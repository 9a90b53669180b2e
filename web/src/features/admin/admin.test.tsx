import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { fakeApi, ME_STAFF as STAFF_ALL_TENANTS, renderSignedIn, STAFF_USER } from '../../shared/lib/test-utils';
import type { CallInput } from '../../shared/lib/api';
import type { Me, PoolUser, TenantIdentityProviderState } from '../../shared/lib/contract';
import { StaffPage, TenantAdminPage, TenantsPage, userStatusLabel } from './AdminPages';

/** Staff with acme as their only tenant. */
const ME_STAFF: Me = { ...STAFF_ALL_TENANTS, tenants: [{ id: 'acme', name: 'ACME' }] };
const INVITED: PoolUser = { username: 'u-2', email: 'nuevo@acme.test', status: 'FORCE_CHANGE_PASSWORD', enabled: true, mfa: false };
/** A stage without staff-configured providers: the identity provider card says so. */
const NO_IDP: TenantIdentityProviderState = { available: false, providerName: 'tenant-acme', redirectUrl: null, samlEntityId: null, provider: null, enabledOnAppClient: false, stageProvider: null };
const ANA: PoolUser = { username: 'u-1', email: 'ana@acme.test', status: 'CONFIRMED', enabled: true, mfa: true };

function pages() {
  return (
    <Routes>
      <Route path="/admin/tenants" element={<TenantsPage />} />
      <Route path="/admin/tenants/:tenantId" element={<TenantAdminPage />} />
    </Routes>
  );
}

describe('administration', () => {
  it('names Cognito user states in Spanish', () => {
    expect(userStatusLabel({ status: 'FORCE_CHANGE_PASSWORD', enabled: true })).toBe('Invitado (contraseña temporal)');
    expect(userStatusLabel({ status: 'CONFIRMED', enabled: true })).toBe('Activo');
    expect(userStatusLabel({ status: 'CONFIRMED', enabled: false })).toBe('Deshabilitado');
  });

  it('lists tenants with user and device counts and creates one (validating the id first)', async () => {
    const create = vi.fn(({ body }: CallInput<'createTenant'>) => ({ id: body.tenantId, name: body.name }));
    const api = fakeApi({ getMe: ME_STAFF, listTenantSummaries: { items: [{ id: 'acme', name: 'ACME', userCount: 3, deviceCount: 12 }], nextCursor: null }, createTenant: create });
    renderSignedIn(pages(), { path: '/admin/tenants', user: STAFF_USER, api });
    const row = (await screen.findByRole('link', { name: 'ACME' })).closest('tr')!;
    expect(within(row).getByText('3')).toBeTruthy();
    expect(within(row).getByText('12')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('ID (nombre del grupo)'), { target: { value: '-x' } });
    fireEvent.change(screen.getByLabelText('Nombre'), { target: { value: 'Initech' } });
    fireEvent.click(screen.getByRole('button', { name: 'Crear cliente' }));
    expect(await screen.findByText(/minúsculas, números y guiones/)).toBeTruthy();
    expect(create).not.toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText('ID (nombre del grupo)'), { target: { value: 'initech' } });
    fireEvent.click(screen.getByRole('button', { name: 'Crear cliente' }));
    await waitFor(() => expect(create).toHaveBeenCalledWith({ body: { tenantId: 'initech', name: 'Initech' } }));
    expect((await screen.findByRole('status')).textContent).toContain('Cliente Initech creado.');
  });

  it('pages the tenant list with the cursor ("Cargar más"), counts as stored, "—" for a count not kept yet', async () => {
    const list = vi.fn(({ query }: CallInput<'listTenantSummaries'>) =>
      query?.cursor === 'p2'
        ? { items: [{ id: 't-0050', name: 'Tenant 50', userCount: 1, deviceCount: 50 }], nextCursor: null }
        : { items: Array.from({ length: 3 }, (_, i) => ({ id: `t-${String(i).padStart(4, '0')}`, name: `Tenant ${i}`, ...(i === 0 ? {} : { userCount: 2, deviceCount: 7 }) })), nextCursor: 'p2' },
    );
    renderSignedIn(pages(), { path: '/admin/tenants', user: STAFF_USER, api: fakeApi({ getMe: ME_STAFF, listTenantSummaries: list }) });
    const first = (await screen.findByText('Tenant 0')).closest('tr')!;
    expect(within(first).getAllByText('—')).toHaveLength(2);
    expect(screen.getByText('3 clientes mostrados; «Cargar más» trae los siguientes.')).toBeTruthy();
    expect(screen.queryByText('Tenant 50')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Cargar más' }));
    const last = (await screen.findByText('Tenant 50')).closest('tr')!;
    expect(within(last).getByText('50')).toBeTruthy();
    expect(screen.getByText('4 clientes mostrados; «Cargar más» trae los siguientes.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Cargar más' })).toBeNull();
    expect(list).toHaveBeenCalledWith({ query: { limit: 50 } });
    expect(list).toHaveBeenCalledWith({ query: { limit: 50, cursor: 'p2' } });
  });

  it('edits the name, SLA targets and availability target of a tenant', async () => {
    const update = vi.fn(({ body }: CallInput<'updateTenant'>) => ({ id: 'acme', name: body.name ?? 'ACME' }));
    const api = fakeApi({ getMe: ME_STAFF, getTenant: { id: 'acme', name: 'ACME', slaTargets: { critical: { responseMinutes: 15, resolutionMinutes: 240 } } }, getTenantIdentityProvider: NO_IDP, updateTenant: update, listTenantUsers: { items: [] }, listStaff: { items: [] } });
    renderSignedIn(pages(), { path: '/admin/tenants/acme', user: STAFF_USER, api });
    expect(((await screen.findByLabelText('Respuesta Crítica (minutos)')) as HTMLInputElement).value).toBe('15');
    expect(await screen.findByText('Este cliente aún no tiene usuarios.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Respuesta Alta (minutos)'), { target: { value: '30' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar cambios' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Alta: indica respuesta y resolución');
    fireEvent.change(screen.getByLabelText('Resolución Alta (minutos)'), { target: { value: '480' } });
    fireEvent.change(screen.getByLabelText('Disponibilidad objetivo (%)'), { target: { value: '99,5' } });
    fireEvent.change(screen.getByLabelText('Nombre'), { target: { value: 'ACME S.A.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar cambios' }));
    await waitFor(() =>
      expect(update).toHaveBeenCalledWith({
        params: { tenantId: 'acme' },
        body: { name: 'ACME S.A.', slaTargets: { critical: { responseMinutes: 15, resolutionMinutes: 240 }, high: { responseMinutes: 30, resolutionMinutes: 480 } }, availabilityTargetPct: 99.5 },
      }),
    );
  });

  // Many steps through the real components: ~5 s on a loaded 2-core machine, over vitest's 5 s default.
  it('lists users with status and MFA and runs the per-user actions', { timeout: 20_000 }, async () => {
    const invite = vi.fn((_i: CallInput<'inviteUser'>) => INVITED);
    const resend = vi.fn((_i: CallInput<'resendInvitation'>) => INVITED);
    const enabled = vi.fn(({ body }: CallInput<'setUserEnabled'>) => ({ ...ANA, enabled: body.enabled }));
    const reset = vi.fn((_i: CallInput<'resetUserMfa'>) => ({ ...ANA, mfa: false }));
    const grant = vi.fn((_i: CallInput<'grantStaff'>) => ANA);
    const remove = vi.fn((_i: CallInput<'removeTenantUser'>) => ANA);
    const api = fakeApi({
      getMe: ME_STAFF,
      getTenant: { id: 'acme', name: 'ACME' },
      getTenantIdentityProvider: NO_IDP,
      listTenantUsers: { items: [ANA, INVITED] },
      listStaff: { items: [] },
      inviteUser: invite,
      resendInvitation: resend,
      setUserEnabled: enabled,
      resetUserMfa: reset,
      grantStaff: grant,
      removeTenantUser: remove,
    });
    renderSignedIn(pages(), { path: '/admin/tenants/acme', user: STAFF_USER, api });
    const anaRow = (await screen.findByText('ana@acme.test')).closest('tr')!;
    const invitedRow = screen.getByText('nuevo@acme.test').closest('tr')!;
    expect(within(anaRow).getByText('Activo')).toBeTruthy();
    expect(within(anaRow).getByText('Activada')).toBeTruthy();
    expect(within(invitedRow).getByText('Invitado (contraseña temporal)')).toBeTruthy();
    expect(within(invitedRow).getByText('No configurada')).toBeTruthy();
    expect(within(anaRow).queryByRole('button', { name: 'Reenviar invitación' })).toBeNull();

    fireEvent.click(within(invitedRow).getByRole('button', { name: 'Reenviar invitación' }));
    await waitFor(() => expect(resend).toHaveBeenCalledWith({ params: { username: 'u-2' } }));
    // Disable asks first in a dialog naming the user; "Cancelar" (focused) changes nothing.
    const disable = await within(anaRow).findByRole('button', { name: 'Deshabilitar' });
    disable.focus();
    fireEvent.click(disable);
    const dialog = await screen.findByRole('alertdialog', { name: '¿Deshabilitar a ana@acme.test?' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(dialog.textContent).toContain('ana@acme.test no podrá iniciar sesión');
    // The dialog takes the focus in its effect, which may run after it is in the DOM.
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancelar' })));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(document.activeElement).toBe(disable);
    expect(enabled).not.toHaveBeenCalled();
    // Escape closes it too; the confirm button runs the action.
    fireEvent.click(disable);
    fireEvent.keyDown(await screen.findByRole('alertdialog'), { key: 'Escape' });
    expect(screen.queryByRole('alertdialog')).toBeNull();
    const confirmIn = async (name: string, button: string) => fireEvent.click(within(await screen.findByRole('alertdialog', { name })).getByRole('button', { name: button }));
    fireEvent.click(disable);
    await confirmIn('¿Deshabilitar a ana@acme.test?', 'Deshabilitar');
    await waitFor(() => expect(enabled).toHaveBeenCalledWith({ params: { username: 'u-1' }, body: { enabled: false } }));
    expect(enabled).toHaveBeenCalledTimes(1);
    fireEvent.click(await within(anaRow).findByRole('button', { name: 'Restablecer MFA' }));
    expect(reset).not.toHaveBeenCalled();
    await confirmIn('¿Restablecer la MFA de ana@acme.test?', 'Restablecer MFA');
    await waitFor(() => expect(reset).toHaveBeenCalledWith({ params: { username: 'u-1' } }));
    // Granting staff needs no prompt.
    fireEvent.click(await within(anaRow).findByRole('button', { name: 'Dar acceso SOC' }));
    await waitFor(() => expect(grant).toHaveBeenCalledWith({ params: { username: 'u-1' } }));
    fireEvent.click(await within(anaRow).findByRole('button', { name: 'Quitar del cliente' }));
    expect(remove).not.toHaveBeenCalled();
    await confirmIn('¿Quitar a ana@acme.test del cliente ACME?', 'Quitar del cliente');
    await waitFor(() => expect(remove).toHaveBeenCalledWith({ params: { tenantId: 'acme', username: 'u-1' } }));

    fireEvent.change(screen.getByLabelText('Correo del nuevo usuario'), { target: { value: 'no-es-correo' } });
    fireEvent.click(screen.getByRole('button', { name: 'Invitar usuario' }));
    expect(await screen.findByText('Escribe un correo electrónico válido.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Correo del nuevo usuario'), { target: { value: 'luis@acme.test' } });
    fireEvent.click(screen.getByRole('button', { name: 'Invitar usuario' }));
    await waitFor(() => expect(invite).toHaveBeenCalledWith({ params: { tenantId: 'acme' }, body: { email: 'luis@acme.test' } }));
    expect((await screen.findByRole('status')).textContent).toContain('Invitación enviada a luis@acme.test');
  });

  it('asks before revoking staff, on the tenant page and on the staff page, naming the user', async () => {
    const revoke = vi.fn((_i: CallInput<'revokeStaff'>) => ANA);
    const api = fakeApi({ getMe: ME_STAFF, getTenant: { id: 'acme', name: 'ACME' }, getTenantIdentityProvider: NO_IDP, listTenantUsers: { items: [ANA] }, listStaff: { items: [ANA] }, revokeStaff: revoke });
    renderSignedIn(
      <Routes>
        <Route path="/admin/staff" element={<StaffPage />} />
      </Routes>,
      { path: '/admin/staff', user: STAFF_USER, api },
    );
    const row = (await screen.findByText('ana@acme.test')).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: 'Quitar acceso SOC' }));
    const dialog = await screen.findByRole('alertdialog', { name: '¿Quitar el acceso SOC a ana@acme.test?' });
    // Tab and Shift+Tab stay on the dialog's two buttons.
    const [cancel, confirm] = within(dialog).getAllByRole('button');
    confirm!.focus();
    fireEvent.keyDown(confirm!, { key: 'Tab' });
    expect(document.activeElement).toBe(cancel);
    fireEvent.keyDown(cancel!, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(confirm);
    expect(revoke).not.toHaveBeenCalled();
    fireEvent.click(confirm!);
    await waitFor(() => expect(revoke).toHaveBeenCalledWith({ params: { username: 'u-1' } }));
    expect((await screen.findByRole('status')).textContent).toContain('ana@acme.test ya no es personal SOC.');
  });

  it('tenant page: revoking staff from a user row asks first too', async () => {
    const revoke = vi.fn((_i: CallInput<'revokeStaff'>) => ANA);
    const api = fakeApi({ getMe: ME_STAFF, getTenant: { id: 'acme', name: 'ACME' }, getTenantIdentityProvider: NO_IDP, listTenantUsers: { items: [ANA] }, listStaff: { items: [ANA] }, revokeStaff: revoke });
    renderSignedIn(pages(), { path: '/admin/tenants/acme', user: STAFF_USER, api });
    const row = (await screen.findByText('ana@acme.test')).closest('tr')!;
    fireEvent.click(await within(row).findByRole('button', { name: 'Quitar acceso SOC' }));
    fireEvent.click(within(await screen.findByRole('alertdialog', { name: '¿Quitar el acceso SOC a ana@acme.test?' })).getByRole('button', { name: 'Quitar acceso SOC' }));
    await waitFor(() => expect(revoke).toHaveBeenCalledWith({ params: { username: 'u-1' } }));
  });
});
