import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { anIncident, fakeApi, ME_STAFF, renderSignedIn, STAFF_USER } from '../../shared/lib/test-utils';
import type { CallInput } from '../../shared/lib/api';
import type { SocQueueItem } from '../../shared/lib/contract';
import { breachLabel, SocQueuePage, queueSla } from './SocQueuePage';


function item(id: string, tenantId: string, minutesToBreach: number, extra: Partial<SocQueueItem> = {}): SocQueueItem {
  return { ...anIncident({ id, tenantId, title: `Incidente ${id}`, description: 'd', category: 'general' }), minutesToBreach, atRisk: false, ...extra };
}

const COUNTS = { open: 61, resolved: 30 };

function page() {
  return (
    <Routes>
      <Route path="/soc/queue" element={<SocQueuePage />} />
    </Routes>
  );
}

describe('SOC queue', () => {
  it('formats the time to breach in Spanish', () => {
    expect(breachLabel(-125)).toBe('Incumplido hace 2 h 5 min');
    expect(breachLabel(45)).toBe('Vence en 45 min');
    expect(breachLabel(0)).toBe('Vence en 0 min');
    expect(breachLabel(1500)).toBe('Vence en 1 d 1 h');
  });

  it('a resolved incident awaiting the customer shows whether it was resolved within the SLA, not a countdown', () => {
    const due = '2026-03-01T12:00:00.000Z';
    expect(queueSla({ resolvedAt: '2026-03-01T11:00:00.000Z', slaDueAt: due, minutesToBreach: -80_000 })).toEqual({ label: 'Resuelto dentro del SLA', breached: false });
    expect(queueSla({ resolvedAt: '2026-03-01T13:00:00.000Z', slaDueAt: due, minutesToBreach: -80_000 })).toEqual({ label: 'Resuelto fuera del SLA', breached: true });
    expect(queueSla({ resolvedAt: null, slaDueAt: due, minutesToBreach: -125 })).toEqual({ label: 'Incumplido hace 2 h 5 min', breached: true });
    expect(queueSla({ resolvedAt: null, slaDueAt: due, minutesToBreach: 45 })).toEqual({ label: 'Vence en 45 min', breached: false });
  });

  it("lists every tenant's open incidents in the API's order (breached first) with tenant-carrying links, and pages with the cursor", async () => {
    const list = vi.fn(({ query }: CallInput<'listSocQueue'>) =>
      query?.cursor === 'next'
        ? { items: [item('INC-000003', 'acme', 300)], nextCursor: null, counts: COUNTS }
        : { items: [item('INC-000001', 'globex', -30, { assignee: 'soc@vigia.test', severity: 'critical', atRisk: true }), item('INC-000002', 'acme', 60)], nextCursor: 'next', counts: COUNTS },
    );
    renderSignedIn(page(), { path: '/soc/queue', user: STAFF_USER, api: fakeApi({ getMe: ME_STAFF, listSocQueue: list }) });
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getByRole('link').textContent)).toEqual(['INC-000001', 'INC-000002']);
    expect(within(rows[0]!).getByRole('link').getAttribute('href')).toBe('/ticket/update/INC-000001?tenant=globex');
    expect(within(rows[0]!).getByText('Globex')).toBeTruthy();
    expect(within(rows[0]!).getByText('Incumplido hace 30 min')).toBeTruthy();
    expect(within(rows[0]!).getByText('soc@vigia.test')).toBeTruthy();
    expect(within(rows[1]!).getByText('Sin asignar')).toBeTruthy();
    expect(list).toHaveBeenCalledWith({ query: { limit: 25 } });
    fireEvent.click(screen.getByRole('button', { name: 'Cargar más' }));
    expect(await within(table).findByText('INC-000003')).toBeTruthy();
    expect(list).toHaveBeenLastCalledWith({ query: { limit: 25, cursor: 'next' } });
  });

  it('filters by tenant, severity, status and "Asignados a mí" through the API query', async () => {
    const list = vi.fn((_input: CallInput<'listSocQueue'>) => ({ items: [], nextCursor: null, counts: { open: 0, resolved: 0 } }));
    renderSignedIn(page(), { path: '/soc/queue', user: STAFF_USER, api: fakeApi({ getMe: ME_STAFF, listSocQueue: list }) });
    expect(await screen.findByText('No hay incidentes abiertos.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Cliente'), { target: { value: 'acme' } });
    fireEvent.change(screen.getByLabelText('Severidad'), { target: { value: 'critical' } });
    fireEvent.change(screen.getByLabelText('Estado'), { target: { value: 'in_progress' } });
    fireEvent.click(screen.getByLabelText('Asignados a mí'));
    await waitFor(() => expect(list).toHaveBeenLastCalledWith({ query: { limit: 25, tenant: 'acme', severity: 'critical', status: 'in_progress', mine: 'true' } }));
    expect(await screen.findByText('Ningún incidente abierto coincide con los filtros.')).toBeTruthy();
    expect((screen.getByLabelText('Asignado a') as HTMLInputElement).disabled).toBe(true);
  });

  it('tabs "Abiertos" and "Resueltos" with their counts; "Sin asignar" and the order go to the API query, kept in the URL', async () => {
    const list = vi.fn(({ query }: CallInput<'listSocQueue'>) => ({
      items: query?.tab === 'resolved' ? [item('INC-000009', 'acme', -9000, { status: 'resolved', resolvedAt: '2026-03-01T11:00:00.000Z', slaDueAt: '2026-03-01T12:00:00.000Z' })] : [item('INC-000010', 'acme', 240, { status: 'new', triagedAt: null })],
      nextCursor: null,
      counts: COUNTS,
    }));
    renderSignedIn(page(), { path: '/soc/queue', user: STAFF_USER, api: fakeApi({ getMe: ME_STAFF, listSocQueue: list }) });
    expect(await screen.findByText('· sin triaje')).toBeTruthy();
    const open = screen.getByRole('tab', { name: 'Abiertos (61)' });
    expect(open.getAttribute('aria-selected')).toBe('true');
    fireEvent.click(screen.getByRole('tab', { name: 'Resueltos (30)' }));
    await waitFor(() => expect(list).toHaveBeenLastCalledWith({ query: { limit: 25, tab: 'resolved' } }));
    expect(await screen.findByText('Resuelto dentro del SLA')).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Resueltos (30)' }).getAttribute('aria-selected')).toBe('true');
    fireEvent.click(screen.getByRole('tab', { name: 'Abiertos (61)' }));
    fireEvent.change(await screen.findByLabelText('Orden'), { target: { value: 'due' } });
    await waitFor(() => expect(list).toHaveBeenLastCalledWith({ query: { limit: 25, sort: 'due' } }));
    fireEvent.click(screen.getByLabelText('Asignados a mí'));
    await waitFor(() => expect(list).toHaveBeenLastCalledWith({ query: { limit: 25, sort: 'due', mine: 'true' } }));
    // "Sin asignar" replaces "Asignados a mí" (the API refuses both).
    fireEvent.click(screen.getByLabelText('Sin asignar'));
    await waitFor(() => expect(list).toHaveBeenLastCalledWith({ query: { limit: 25, sort: 'due', unassigned: 'true' } }));
    expect((screen.getByLabelText('Asignados a mí') as HTMLInputElement).checked).toBe(false);
    expect((screen.getByLabelText('Asignado a') as HTMLInputElement).disabled).toBe(true);
  });

  it('marks an incident at risk that is not breached yet', async () => {
    const list = vi.fn(() => ({ items: [item('INC-000011', 'acme', 20, { atRisk: true })], nextCursor: null, counts: COUNTS }));
    renderSignedIn(page(), { path: '/soc/queue', user: STAFF_USER, api: fakeApi({ getMe: ME_STAFF, listSocQueue: list }) });
    expect(await screen.findByText('· en riesgo')).toBeTruthy();
    expect(screen.getByText('Vence en 20 min')).toBeTruthy();
  });

  it('bulk: selects rows, asks first, sends one POST /soc/bulk with each row\'s version, shows the failed row and keeps it selected', async () => {
    const rows = [item('INC-000021', 'acme', 120, { version: 3 }), item('INC-000022', 'globex', 240, { version: 5 }), item('INC-000023', 'acme', 300)];
    const list = vi.fn(() => ({ items: rows, nextCursor: null, counts: COUNTS }));
    const bulk = vi.fn((_input: CallInput<'bulkUpdateSocQueue'>) => ({
      applied: 1,
      failed: 1,
      results: [
        { tenantId: 'acme', id: 'INC-000021', ok: true as const, version: 4 },
        { tenantId: 'globex', id: 'INC-000022', ok: false as const, code: 'VERSION_CONFLICT', message: 'the incident was changed by someone else; reload it' },
      ],
    }));
    renderSignedIn(page(), { path: '/soc/queue', user: STAFF_USER, api: fakeApi({ getMe: ME_STAFF, listSocQueue: list, bulkUpdateSocQueue: bulk }) });
    fireEvent.click(await screen.findByLabelText('Seleccionar INC-000021 (ACME)'));
    fireEvent.click(screen.getByLabelText('Seleccionar INC-000022 (Globex)'));
    expect(screen.getByText('2 seleccionados')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Asignarme' }));
    // Asks first: cancelling sends nothing.
    const dialog = await screen.findByRole('alertdialog', { name: '¿Asignarte 2 incidentes?' });
    expect(within(dialog).getByText(/INC-000021, INC-000022/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    expect(bulk).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Asignarme' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Aplicar a 2' }));
    await waitFor(() =>
      expect(bulk).toHaveBeenCalledWith({
        body: { action: 'assign', assignee: 'soc@vigia.test', items: [{ tenantId: 'acme', id: 'INC-000021', version: 3 }, { tenantId: 'globex', id: 'INC-000022', version: 5 }] },
      }),
    );
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('1 incidente cambiado.')).toBeTruthy();
    expect(within(alert).getByText('INC-000022 (Globex): El incidente cambió mientras lo editabas.')).toBeTruthy();
    // The failed row stays selected, the applied one does not.
    expect((screen.getByLabelText('Seleccionar INC-000022 (Globex)') as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText('Seleccionar INC-000021 (ACME)') as HTMLInputElement).checked).toBe(false);
    expect(screen.getByText('1 seleccionado')).toBeTruthy();
    // "Seleccionar toda la página" selects every loaded row; another tab starts with none.
    fireEvent.click(screen.getByLabelText('Seleccionar toda la página (3)'));
    expect(screen.getByText('3 seleccionados')).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Resueltos (30)' }));
    expect(await screen.findByText('0 seleccionados')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Cerrar resueltos' })).toBeNull();
  });
});
