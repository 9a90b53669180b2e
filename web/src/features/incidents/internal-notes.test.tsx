/**
 * Internal notes in the incident detail (docs/api.md#internal-notes): staff get the "Nota interna" toggle, which
 * sends `visibility: 'internal'`, and see a note marked "Nota interna · solo SOC"; customers get no toggle and
 * send public comments.
 */
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { anIncident, fakeApi, ME_ACME, ME_STAFF, renderSignedIn } from '../../shared/lib/test-utils';
import type { CallInput } from '../../shared/lib/api';
import type { IncidentDetail } from '../../shared/lib/contract';
import { IncidentDetailPage } from './IncidentDetailPage';

const AT = '2026-03-01T10:05:00.000Z';
const INCIDENT: IncidentDetail = {
  ...anIncident({ id: 'INC-000042', title: 'Ransomware', version: 2 }),
  comments: [
    { id: 'c1', author: 'soc@vigia.test', body: 'Aislando el equipo', createdAt: AT, visibility: 'public' },
    { id: 'n1', author: 'soc@vigia.test', body: 'Posible empleado implicado', createdAt: '2026-03-01T10:06:00.000Z', visibility: 'internal' },
  ],
  history: [],
};
const ASSIGNEES = { items: [{ username: 's-1', email: 'soc@vigia.test', staff: true }] };
const routes = () => (
  <Routes>
    <Route path="/ticket/update/:id" element={<IncidentDetailPage />} />
  </Routes>
);

describe('internal notes in the incident detail', () => {
  it('staff: the note is marked, and the toggle sends visibility internal', async () => {
    const add = vi.fn((i: CallInput<'addIncidentComment'>) => ({ id: 'n2', author: 'soc@vigia.test', body: String(i.body?.body), createdAt: AT, visibility: i.body?.visibility ?? 'public' }));
    renderSignedIn(routes(), { path: '/ticket/update/INC-000042?tenant=acme', api: fakeApi({ getMe: ME_STAFF, getIncident: INCIDENT, listAssignees: ASSIGNEES, addIncidentComment: add }) });
    const note = (await screen.findByText('Posible empleado implicado')).closest('li')!;
    expect(note.className).toContain('timeline-internal');
    expect(note.textContent).toContain('Nota interna · solo SOC');
    expect(screen.getByText('Aislando el equipo').closest('li')!.textContent).not.toContain('Nota interna');

    fireEvent.click(screen.getByLabelText('Nota interna'));
    expect(screen.getByRole('heading', { name: 'Agregar nota interna' })).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Nota interna (solo SOC)'), { target: { value: 'Revisar con RR. HH.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar nota interna' }));
    await waitFor(() => expect(add).toHaveBeenCalledWith({ params: { id: 'INC-000042' }, body: { body: 'Revisar con RR. HH.', visibility: 'internal' }, query: { tenant: 'acme' } }));
    await screen.findByText('Nota interna añadida. El cliente no la ve.');
  });

  it('customer: no toggle; a comment is public', async () => {
    const add = vi.fn((i: CallInput<'addIncidentComment'>) => ({ id: 'c2', author: 'ana@acme.test', body: String(i.body?.body), createdAt: AT, visibility: 'public' as const }));
    const publicOnly = { ...INCIDENT, comments: INCIDENT.comments.filter((c) => c.visibility === 'public') };
    renderSignedIn(routes(), { path: '/ticket/update/INC-000042?tenant=acme', api: fakeApi({ getMe: ME_ACME, getIncident: publicOnly, addIncidentComment: add }) });
    await screen.findByText('Aislando el equipo');
    expect(screen.queryByLabelText('Nota interna')).toBeNull();
    fireEvent.change(screen.getByLabelText('Comentario'), { target: { value: 'Gracias' } });
    fireEvent.click(screen.getByRole('button', { name: 'Comentar' }));
    await waitFor(() => expect(add).toHaveBeenCalledWith({ params: { id: 'INC-000042' }, body: { body: 'Gracias', visibility: 'public' }, query: { tenant: 'acme' } }));
  });
});
