/** "Mantenimiento" (docs/portal.md#maintenance-windows): the list, the form's checks and the API's codes, edit and delete, and who sees the write controls. */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ApiError, type CallInput } from '../../shared/lib/api';
import type { MaintenanceWindow, Me } from '../../shared/lib/contract';
import { aDevice, fakeApi, ME_ACME, ME_ACME_ADMIN, ME_STAFF, renderSignedIn, STAFF_USER } from '../../shared/lib/test-utils';
import { menuFor } from '../../app/menu';
import { apiWindowErrors, blankWindow, draftOfWindow, instantOf, localInput, windowBodyOf, windowDraftErrors } from './maintenance-draft';
import { MaintenancePage } from './MaintenancePage';

const H = 3_600_000;
const start = new Date(Date.now() + 24 * H);
start.setUTCMinutes(0, 0, 0);
const WINDOW: MaintenanceWindow = {
  windowId: 'mw-abcdefgh12',
  tenantId: 'acme',
  title: 'Cambio de firmware',
  scope: { deviceIds: ['fw-01'], sites: ['Madrid'] },
  startAt: start.toISOString(),
  endAt: new Date(start.getTime() + 2 * H).toISOString(),
  createdAt: '2026-03-01T10:00:00.000Z',
  createdBy: 'ana@acme.test',
  updatedAt: '2026-03-01T10:00:00.000Z',
  version: 1,
};
const FW = aDevice({ id: 'fw-01', name: 'Cortafuegos Madrid', site: 'Madrid' });
const SW = aDevice({ id: 'sw-02', name: 'Switch Sevilla', site: 'Sevilla' });
const admin = { email: 'ana@acme.test', groups: ['acme', 'customer-admin'] };
const devicesApi = {
  listDevices: { items: [FW, SW], nextCursor: null },
  getDevice: (i: CallInput<'getDevice'>) => ({ ...(i.params.id === 'sw-02' ? SW : FW), slaTargetPct: 99.5, availability: {}, daily: [], activeAlarms: [] }) as never,
};

describe('maintenance window drafts', () => {
  it('round-trip local date and time (the reader\u2019s zone) and UTC instants', () => {
    expect(instantOf(localInput(WINDOW.startAt))).toBe(WINDOW.startAt);
    expect(windowBodyOf(draftOfWindow(WINDOW))).toEqual({ title: WINDOW.title, scope: WINDOW.scope, startAt: WINDOW.startAt, endAt: WINDOW.endAt });
    expect(instantOf('mañana')).toBeNull();
    const blank = blankWindow(new Date('2026-05-01T10:20:00Z'));
    expect(Date.parse(instantOf(blank.end)!) - Date.parse(instantOf(blank.start)!)).toBe(2 * H);
  });

  it('are checked with the API\u2019s rules, and the API\u2019s codes land under the same fields', () => {
    const d = { ...draftOfWindow(WINDOW), title: ' ', deviceIds: [], sites: ' , ', end: draftOfWindow(WINDOW).start };
    expect(windowDraftErrors(d)).toEqual({ title: expect.any(String), scope: 'Elige al menos un dispositivo o un sitio.', endAt: 'El fin debe ser posterior al inicio.' });
    const long = { ...draftOfWindow(WINDOW), end: localInput(new Date(start.getTime() + 32 * 24 * H).toISOString()) };
    expect(windowDraftErrors(long).endAt).toBe('Una ventana de mantenimiento dura como mucho 31 días.');
    const api = (code: string, details?: unknown) => new ApiError({ kind: 'client', status: 400, code, message: 'x', details });
    expect(apiWindowErrors(api('WINDOW_ENDS_BEFORE_START'))).toEqual({ endAt: 'El fin debe ser posterior al inicio.' });
    expect(apiWindowErrors(api('WINDOW_TOO_LONG'))).toEqual({ endAt: 'Una ventana de mantenimiento dura como mucho 31 días.' });
    expect(apiWindowErrors(api('UNKNOWN_DEVICE'))).toEqual({ scope: 'Algún dispositivo elegido ya no existe en el cliente.' });
    expect(apiWindowErrors(api('VALIDATION_FAILED', [{ path: 'body.startAt', message: 'a maintenance window cannot start in the past' }]))).toEqual({ startAt: 'Una ventana no puede empezar en el pasado.' });
  });
});

describe('maintenance page', { timeout: 20_000 }, () => {
  it('lists the windows with devices by name; an admin declares one, refused first for an end before its start', async () => {
    const create = (i: CallInput<'createMaintenanceWindow'>) => ({ ...WINDOW, windowId: 'mw-newwindow01', ...i.body, scope: { deviceIds: i.body.scope.deviceIds ?? [], sites: i.body.scope.sites ?? [] } });
    const api = fakeApi({ getMe: ME_ACME_ADMIN, listMaintenanceWindows: { items: [WINDOW], nextCursor: null }, createMaintenanceWindow: create, ...devicesApi });
    renderSignedIn(<MaintenancePage />, { path: '/devices/maintenance', api, user: admin });
    expect(await screen.findByRole('heading', { level: 1, name: 'Mantenimiento' })).toBeTruthy();
    const row = (await screen.findByText('Cambio de firmware')).closest('tr')!;
    await waitFor(() => expect(within(row).getByText('Cortafuegos Madrid')).toBeTruthy());
    expect(within(row).getByText('Sitio Madrid')).toBeTruthy();
    expect(within(row).getByText('Próxima')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Trabajo'), { target: { value: 'Sustitución del switch' } });
    fireEvent.change(await screen.findByRole('combobox', { name: 'Dispositivos' }), { target: { value: 'sw-02' } });
    fireEvent.click(screen.getByRole('button', { name: 'Añadir dispositivo' }));
    const chosen = screen.getByRole('list', { name: 'Dispositivos elegidos' });
    await waitFor(() => expect(within(chosen).getByText('Switch Sevilla')).toBeTruthy());
    const startField = screen.getByLabelText('Inicio') as HTMLInputElement;
    fireEvent.change(screen.getByLabelText('Fin'), { target: { value: startField.value } });
    fireEvent.click(screen.getByRole('button', { name: 'Declarar ventana' }));
    expect(await screen.findByText('El fin debe ser posterior al inicio.')).toBeTruthy();
    expect(screen.getByLabelText('Fin').getAttribute('aria-invalid')).toBe('true');
    expect(api.call).not.toHaveBeenCalledWith('createMaintenanceWindow', expect.anything());

    fireEvent.change(screen.getByLabelText('Fin'), { target: { value: localInput(new Date(Date.parse(instantOf(startField.value)!) + 3 * H).toISOString()) } });
    fireEvent.click(screen.getByRole('button', { name: 'Declarar ventana' }));
    expect(await screen.findByText('Ventana «Sustitución del switch» declarada.')).toBeTruthy();
    const sent = (api.call.mock.calls.find((c) => c[0] === 'createMaintenanceWindow')![1] as CallInput<'createMaintenanceWindow'>).body;
    expect(sent.scope).toEqual({ deviceIds: ['sw-02'], sites: [] });
    expect(sent.startAt).toMatch(/Z$/);
    expect(Date.parse(sent.endAt) - Date.parse(sent.startAt)).toBe(3 * H);
  });

  it('edits at the version read (409 says so and reloads), shows the API\u2019s code under its field, and deletes after confirming', async () => {
    let conflict = true;
    const api = fakeApi({
      getMe: ME_ACME_ADMIN,
      listMaintenanceWindows: { items: [WINDOW], nextCursor: null },
      updateMaintenanceWindow: (i) => {
        if (i.body.title === 'Demasiado') throw new ApiError({ kind: 'client', status: 400, code: 'WINDOW_TOO_LONG', message: 'too long' });
        if (conflict) {
          conflict = false;
          throw new ApiError({ kind: 'client', status: 409, code: 'VERSION_CONFLICT', message: 'stale' });
        }
        return { ...WINDOW, ...i.body, version: 2 } as MaintenanceWindow;
      },
      deleteMaintenanceWindow: WINDOW,
      ...devicesApi,
    });
    renderSignedIn(<MaintenancePage />, { path: '/devices/maintenance', api, user: admin });
    fireEvent.click(await screen.findByRole('button', { name: 'Editar Cambio de firmware' }));
    expect(await screen.findByRole('heading', { name: 'Editar «Cambio de firmware»' })).toBeTruthy();
    expect((screen.getByLabelText('Sitios (separados por comas)') as HTMLInputElement).value).toBe('Madrid');
    fireEvent.change(screen.getByLabelText('Trabajo'), { target: { value: 'Demasiado' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar ventana' }));
    expect(await screen.findByText('Una ventana de mantenimiento dura como mucho 31 días.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Trabajo'), { target: { value: 'Firmware 2.1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar ventana' }));
    expect(await screen.findByText(/Otra persona cambió esta ventana/)).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Declarar una ventana' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Editar Cambio de firmware' }));
    fireEvent.change(await screen.findByLabelText('Trabajo'), { target: { value: 'Firmware 2.1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar ventana' }));
    expect(await screen.findByText('Ventana «Firmware 2.1» guardada.')).toBeTruthy();
    const put = api.call.mock.calls.filter((c) => c[0] === 'updateMaintenanceWindow').at(-1)![1] as CallInput<'updateMaintenanceWindow'>;
    expect(put).toMatchObject({ params: { windowId: WINDOW.windowId }, query: { tenant: 'acme' }, body: { title: 'Firmware 2.1', version: 1 } });

    fireEvent.click(screen.getByRole('button', { name: 'Eliminar Cambio de firmware' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText('¿Eliminar la ventana «Cambio de firmware»?')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Eliminar' }));
    expect(await screen.findByText('Ventana «Cambio de firmware» eliminada.')).toBeTruthy();
    expect(api.call).toHaveBeenCalledWith('deleteMaintenanceWindow', { params: { windowId: WINDOW.windowId }, query: { tenant: 'acme' } });
  });

  it('viewers and operators read only; the empty and error states; staff write for the tenant picked', async () => {
    const viewer: Me = { ...ME_ACME, groups: ['acme', 'customer-viewer'], role: 'viewer' };
    for (const me of [viewer, { ...ME_ACME, role: 'operator' as const }]) {
      const r = renderSignedIn(<MaintenancePage />, { path: '/devices/maintenance', api: fakeApi({ getMe: me, listMaintenanceWindows: { items: [WINDOW], nextCursor: null }, ...devicesApi }) });
      expect(await screen.findByText('Cambio de firmware')).toBeTruthy();
      expect(screen.queryByRole('button', { name: /Editar|Eliminar|Declarar/ })).toBeNull();
      expect(screen.getByText(/Solo los administradores del cliente y el SOC/)).toBeTruthy();
      r.unmount();
    }
    const empty = renderSignedIn(<MaintenancePage />, { path: '/devices/maintenance', api: fakeApi({ getMe: ME_ACME_ADMIN, listMaintenanceWindows: { items: [], nextCursor: null }, ...devicesApi }), user: admin });
    expect(await screen.findByText('No hay ventanas de mantenimiento.')).toBeTruthy();
    empty.unmount();
    const failing = renderSignedIn(<MaintenancePage />, {
      path: '/devices/maintenance',
      api: fakeApi({ getMe: ME_ACME_ADMIN, listMaintenanceWindows: () => { throw new ApiError({ kind: 'server', status: 500, code: 'INTERNAL', message: 'x' }); }, ...devicesApi }),
      user: admin,
    });
    expect(await screen.findByRole('button', { name: 'Reintentar' })).toBeTruthy();
    failing.unmount();
    const staff = fakeApi({ getMe: ME_STAFF, listMaintenanceWindows: { items: [WINDOW], nextCursor: null }, ...devicesApi });
    renderSignedIn(<MaintenancePage />, { path: '/devices/maintenance', api: staff, user: STAFF_USER });
    expect(await screen.findByRole('button', { name: 'Editar Cambio de firmware' })).toBeTruthy();
    expect(staff.call).toHaveBeenCalledWith('listMaintenanceWindows', { query: expect.objectContaining({ tenant: expect.any(String) }) });
    expect(menuFor(['acme', 'customer-viewer']).some((g) => g.entries.some((e) => e.to === '/devices/maintenance'))).toBe(true);
    expect(menuFor(['admin']).some((g) => g.entries.some((e) => e.to === '/devices/maintenance'))).toBe(true);
  });
});
