/**
 * Alarms linked to incidents in the incidents screens (docs/portal.md#linked-alarms): the new-incident form opened
 * from an alarm's address starts prefilled (title, severity, a description naming the device and the alarm's time)
 * and creates the incident with `alarms`; the incident detail lists its linked alarms with a link to each alarm
 * list; staff resolving it get "Borrar las alarmas vinculadas" (on by default), sent as `clearLinkedAlarms`.
 */
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { anIncident, fakeApi, ME_ACME, ME_STAFF, renderSignedIn } from '../../shared/lib/test-utils';
import type { CallInput } from '../../shared/lib/api';
import type { IncidentDetail } from '../../shared/lib/contract';
import { newIncidentFromAlarmPath } from '../../shared/lib/alarm-incident';
import { NewIncidentPage } from './NewIncidentPage';
import { IncidentDetailPage } from './IncidentDetailPage';

const RAISED = '2026-03-01T10:05:00.000Z';
const routes = () => (
  <Routes>
    <Route path="/incidents/new" element={<NewIncidentPage />} />
    <Route path="/ticket/update/:id" element={<IncidentDetailPage />} />
  </Routes>
);
const DETAIL: IncidentDetail = {
  ...anIncident({ id: 'INC-000042', title: 'CPU alta', status: 'in_progress', version: 3, triagedAt: RAISED, alarms: [{ kind: 'device', id: 'al-1', deviceId: 'fw-01' }, { kind: 'office365', id: 'o-1' }] }),
  comments: [],
  history: [],
  linkedAlarms: [
    { kind: 'device', id: 'al-1', deviceId: 'fw-01', name: 'Cortafuegos Madrid', title: 'CPU alta', severity: 'high', state: 'acknowledged', at: RAISED, incidentId: 'INC-000042' },
    { kind: 'office365', id: 'o-1', name: 'luis@acme.test', title: 'Reenvío sospechoso', severity: 'medium', state: 'investigating', at: RAISED, incidentId: 'INC-000042' },
  ],
};

describe('linked alarms in the incidents screens', () => {
  it('opens the form prefilled from a device alarm and creates the incident linked to it', async () => {
    const create = vi.fn((i: CallInput<'createIncident'>) => ({ ...anIncident({ id: 'INC-000050', title: String(i.body?.title) }), alarms: i.body?.alarms }));
    const path = newIncidentFromAlarmPath({ kind: 'device', id: 'al-1', deviceId: 'fw-01', tenantId: 'acme', title: 'CPU alta', severity: 'critical', name: 'Cortafuegos Madrid', at: RAISED });
    renderSignedIn(routes(), { path, api: fakeApi({ getMe: ME_ACME, createIncident: create, getIncident: { ...DETAIL, id: 'INC-000050' } }) });
    expect((await screen.findByRole('status')).textContent).toContain('Incidente abierto desde la alarma «CPU alta» de Cortafuegos Madrid');
    expect((screen.getByLabelText('Título') as HTMLInputElement).value).toBe('CPU alta');
    expect((screen.getByLabelText('Severidad') as HTMLSelectElement).value).toBe('critical');
    const description = (screen.getByLabelText('Descripción') as HTMLTextAreaElement).value;
    expect(description).toContain('Cortafuegos Madrid');
    expect(description).toContain('2026-03-01 10:05');
    fireEvent.click(screen.getByRole('button', { name: 'Crear incidente' }));
    await waitFor(() =>
      expect(create).toHaveBeenCalledWith(
        expect.objectContaining({ query: { tenant: 'acme' }, body: expect.objectContaining({ title: 'CPU alta', severity: 'critical', alarms: [{ kind: 'device', id: 'al-1', deviceId: 'fw-01' }] }) }),
      ),
    );
  });

  it('an address without an alarm opens the empty form and creates an incident without alarms', async () => {
    const create = vi.fn((i: CallInput<'createIncident'>) => anIncident({ id: 'INC-000051', title: String(i.body?.title) }));
    renderSignedIn(routes(), { path: '/incidents/new?alarmKind=device&alarmId=al-1', api: fakeApi({ getMe: ME_ACME, createIncident: create, getIncident: { ...DETAIL, id: 'INC-000051' } }) });
    expect((await screen.findByLabelText('Título') as HTMLInputElement).value).toBe('');
    expect(screen.queryByText(/Incidente abierto desde la alarma/)).toBeNull();
  });

  it('lists the linked alarms on the detail, and staff resolving it choose whether to clear them', async () => {
    const update = vi.fn((i: CallInput<'updateIncident'>) => ({ ...DETAIL, status: 'resolved' as const, version: Number(i.body?.version) + 1 }));
    renderSignedIn(routes(), {
      path: '/ticket/update/INC-000042?tenant=acme',
      api: fakeApi({ getMe: ME_STAFF, getIncident: DETAIL, listAssignees: { items: [] }, getEscalationContacts: { tenantId: 'acme', contacts: [], version: 0, updatedAt: null, updatedBy: null }, updateIncident: update }),
    });
    const section = (await screen.findByRole('heading', { name: 'Alarmas vinculadas' })).closest('section')!;
    const rows = within(section).getAllByRole('row');
    expect(rows[1]!.textContent).toContain('Cortafuegos Madrid');
    expect(rows[1]!.textContent).toContain('Reconocida');
    expect(rows[2]!.textContent).toContain('luis@acme.test');
    expect(rows[2]!.textContent).toContain('En investigación');
    expect(within(section).getByRole('link', { name: 'Ver la alarma CPU alta de Cortafuegos Madrid' }).getAttribute('href')).toBe('/devices/alarms?tenant=acme&device=fw-01');

    expect(screen.queryByLabelText('Borrar las alarmas vinculadas')).toBeNull();
    fireEvent.change(screen.getByLabelText('Cambiar estado'), { target: { value: 'resolved' } });
    const clear = screen.getByLabelText('Borrar las alarmas vinculadas') as HTMLInputElement;
    expect(clear.checked).toBe(true);
    fireEvent.click(clear);
    fireEvent.click(screen.getByRole('button', { name: 'Guardar cambios' }));
    await waitFor(() => expect(update).toHaveBeenCalledWith(expect.objectContaining({ body: { version: 3, status: 'resolved', clearLinkedAlarms: false } })));
  });
});
