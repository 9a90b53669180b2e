/** "Usuarios" (docs/portal.md#team): a customer admin's colleagues, invitation, role change, disable and removal, and the errors in words. */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ApiError } from '../../shared/lib/api';
import { aTeamMember, fakeApi, ME_ACME_ADMIN, renderSignedIn } from '../../shared/lib/test-utils';
import { SIDEBAR_MENU, menuFor } from '../../app/menu';
import { TeamPage } from './TeamPage';

const ANA = aTeamMember({ username: 'ana@acme.test', email: 'ana@acme.test', name: 'Ana Pérez', role: 'admin' });
const LUIS = aTeamMember();
const admin = { email: 'ana@acme.test', groups: ['acme', 'customer-admin'] };

describe('team page', { timeout: 20_000 }, () => {
  it('lists colleagues with role and status; ana cannot act on her own row', async () => {
    const api = fakeApi({ getMe: ME_ACME_ADMIN, listTeam: { items: [ANA, LUIS, aTeamMember({ username: 'eva@acme.test', email: 'eva@acme.test', name: 'Eva', role: 'viewer', status: 'FORCE_CHANGE_PASSWORD' })], nextCursor: null } });
    renderSignedIn(<TeamPage />, { path: '/team', api, user: admin });
    expect(await screen.findByRole('heading', { level: 1, name: 'Usuarios' })).toBeTruthy();
    const rows = await screen.findAllByRole('row');
    expect(rows).toHaveLength(4);
    expect(within(rows[1]!).getByText('(tú)')).toBeTruthy();
    expect(within(rows[1]!).queryByRole('button')).toBeNull();
    expect(within(rows[2]!).getByText('Activo')).toBeTruthy();
    expect((within(rows[3]!).getByLabelText('Rol de Eva') as HTMLSelectElement).value).toBe('viewer');
    expect(within(rows[3]!).getByText('Invitado (contraseña temporal)')).toBeTruthy();
  });

  it('invites a colleague with a role; a known e-mail is shown in words and the form keeps its values', async () => {
    let n = 0;
    const api = fakeApi({
      getMe: ME_ACME_ADMIN,
      listTeam: { items: [ANA], nextCursor: null },
      inviteTeamMember: () => {
        if (n++ > 0) throw new ApiError({ kind: 'client', status: 409, code: 'USER_EXISTS', message: 'exists', requestId: 'req-9' });
        return aTeamMember({ username: 'vera@acme.test', email: 'vera@acme.test', name: 'Vera', role: 'viewer', status: 'FORCE_CHANGE_PASSWORD' });
      },
    });
    renderSignedIn(<TeamPage />, { path: '/team', api, user: admin });
    await screen.findByText('Ana Pérez');
    fireEvent.click(screen.getByRole('button', { name: 'Enviar invitación' }));
    expect(await screen.findByText('Escribe un correo electrónico válido.')).toBeTruthy();
    expect(api.call).not.toHaveBeenCalledWith('inviteTeamMember', expect.anything());
    fireEvent.change(screen.getByLabelText('Correo electrónico'), { target: { value: 'vera@acme.test' } });
    fireEvent.change(screen.getByLabelText('Nombre'), { target: { value: 'Vera' } });
    fireEvent.change(screen.getByLabelText('Rol'), { target: { value: 'viewer' } });
    fireEvent.click(screen.getByRole('button', { name: 'Enviar invitación' }));
    expect(await screen.findByText(/Invitación enviada a vera@acme.test/)).toBeTruthy();
    expect(api.call).toHaveBeenCalledWith('inviteTeamMember', { query: { tenant: 'acme' }, body: { email: 'vera@acme.test', name: 'Vera', role: 'viewer' } });
    // The form clears once the list is reloaded.
    await waitFor(() => expect((screen.getByLabelText('Correo electrónico') as HTMLInputElement).value).toBe(''));
    fireEvent.change(screen.getByLabelText('Correo electrónico'), { target: { value: 'vera@acme.test' } });
    fireEvent.change(screen.getByLabelText('Nombre'), { target: { value: 'Vera' } });
    fireEvent.click(await screen.findByRole('button', { name: 'Enviar invitación' }));
    expect(await screen.findByText('Ya existe una cuenta con ese correo electrónico. (referencia req-9)')).toBeTruthy();
    expect((screen.getByLabelText('Correo electrónico') as HTMLInputElement).value).toBe('vera@acme.test');
  });

  it('changes a role, disables after confirming, and shows LAST_ADMIN in words', async () => {
    const api = fakeApi({
      getMe: ME_ACME_ADMIN,
      listTeam: { items: [ANA, LUIS], nextCursor: null },
      updateTeamMember: (i) => {
        if (i.body.enabled === false) throw new ApiError({ kind: 'client', status: 409, code: 'LAST_ADMIN', message: 'last' });
        return { ...LUIS, role: i.body.role ?? LUIS.role };
      },
      removeTeamMember: LUIS,
    });
    renderSignedIn(<TeamPage />, { path: '/team', api, user: admin });
    const row = (await screen.findByText('Luis Gil')).closest('tr')!;
    fireEvent.change(within(row).getByLabelText('Rol de Luis Gil'), { target: { value: 'admin' } });
    fireEvent.click(within(row).getByRole('button', { name: 'Cambiar rol' }));
    expect(await screen.findByText('Luis Gil es ahora Administrador.')).toBeTruthy();
    expect(api.call).toHaveBeenCalledWith('updateTeamMember', { params: { username: 'luis@acme.test' }, query: { tenant: 'acme' }, body: { role: 'admin' } });

    fireEvent.click(within(screen.getByText('Luis Gil').closest('tr')!).getByRole('button', { name: 'Deshabilitar' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText('¿Deshabilitar a Luis Gil?')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Deshabilitar' }));
    expect(await screen.findByText(/al menos un administrador habilitado/)).toBeTruthy();

    fireEvent.click(within(screen.getByText('Luis Gil').closest('tr')!).getByRole('button', { name: 'Quitar' }));
    const confirm = await screen.findByRole('alertdialog');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(api.call).not.toHaveBeenCalledWith('removeTeamMember', expect.anything());
    fireEvent.click(within(screen.getByText('Luis Gil').closest('tr')!).getByRole('button', { name: 'Quitar' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Quitar' }));
    expect(await screen.findByText('Luis Gil ya no está en el cliente.')).toBeTruthy();
  });

  it('shows the empty state, and the menu entry only to customer admins', async () => {
    const api = fakeApi({ getMe: ME_ACME_ADMIN, listTeam: { items: [], nextCursor: null } });
    renderSignedIn(<TeamPage />, { path: '/team', api, user: admin });
    expect(await screen.findByText('Todavía no hay usuarios en este cliente.')).toBeTruthy();
    const has = (groups: string[]) => menuFor(groups).some((g) => g.entries.some((e) => e.to === '/team'));
    expect(has(['acme', 'customer-admin'])).toBe(true);
    expect(has(['acme', 'customer-operator'])).toBe(false);
    expect(has(['acme', 'customer-viewer'])).toBe(false);
    expect(has(['acme'])).toBe(false);
    expect(has(['admin'])).toBe(false);
    expect(SIDEBAR_MENU.some((g) => g.id === 'team')).toBe(true);
  });
});
