import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { anAuditEntry, fakeApi, ME_ACME, ME_STAFF, renderSignedIn } from '../../shared/lib/test-utils';
import type { CallInput } from '../../shared/lib/api';
import { AuditLogPage } from './AuditLogPage';

const ENTRY = anAuditEntry({ before: { severity: 'critical' }, after: { severity: 'high' } });

function page() {
  return (
    <Routes>
      <Route path="/audit" element={<AuditLogPage />} />
    </Routes>
  );
}

describe('audit log', () => {
  it("a customer reads its tenant's log, without a tenant filter", async () => {
    const list = vi.fn((_i: CallInput<'listAuditLog'>) => ({ items: [ENTRY], nextCursor: null }));
    renderSignedIn(page(), { path: '/audit', api: fakeApi({ getMe: ME_ACME, listAuditLog: list }) });
    const table = await screen.findByRole('table');
    expect(within(table).getByText('Incidente clasificado')).toBeTruthy();
    expect(within(table).getByText('severity: critical → high')).toBeTruthy();
    expect(within(table).getByText('soc@vigia.test')).toBeTruthy();
    expect(screen.queryByLabelText('Cliente')).toBeNull();
    expect(list).toHaveBeenCalledWith({ query: { limit: 50, tenant: 'acme' } });
  });

  it('staff filter by tenant, action, actor and period, and export the server CSV with the same filters', async () => {
    const list = vi.fn((_i: CallInput<'listAuditLog'>) => ({ items: [ENTRY], nextCursor: null }));
    const api = fakeApi({ getMe: ME_STAFF, listAuditLog: list });
    api.csv.mockResolvedValue('at,action\n');
    const createObjectURL = vi.fn(() => 'blob:x');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    renderSignedIn(page(), { path: '/audit', user: { email: 'soc@vigia.test', groups: ['admin'] }, api });
    await screen.findByRole('table');
    expect(list).toHaveBeenCalledWith({ query: { limit: 50 } });
    fireEvent.change(screen.getByLabelText('Cliente'), { target: { value: 'globex' } });
    fireEvent.change(screen.getByLabelText('Acción'), { target: { value: 'user.invite' } });
    fireEvent.change(screen.getByLabelText('Usuario'), { target: { value: 'soc@vigia.test' } });
    fireEvent.change(screen.getByLabelText('Desde'), { target: { value: '2026-03-01' } });
    fireEvent.change(screen.getByLabelText('Hasta'), { target: { value: '2026-03-31' } });
    const query = { tenant: 'globex', action: 'user.invite', actor: 'soc@vigia.test', from: '2026-03-01T00:00:00.000Z', to: '2026-03-31T23:59:59.999Z' };
    await waitFor(() => expect(list).toHaveBeenLastCalledWith({ query: { limit: 50, ...query } }));
    fireEvent.click(screen.getByRole('button', { name: 'Exportar CSV' }));
    await waitFor(() => expect(api.csv).toHaveBeenCalledWith('listAuditLog', { query }));
    expect(await screen.findByText('CSV descargado.')).toBeTruthy();
  });

  it('refuses a period that ends before it starts', async () => {
    const list = vi.fn((_i: CallInput<'listAuditLog'>) => ({ items: [], nextCursor: null }));
    renderSignedIn(page(), { path: '/audit?from=2026-04-01&to=2026-03-01', user: { email: 'soc@vigia.test', groups: ['admin'] }, api: fakeApi({ getMe: ME_STAFF, listAuditLog: list }) });
    expect((await screen.findByRole('alert')).textContent).toContain('no puede ser posterior');
    expect(list).not.toHaveBeenCalled();
  });
});
