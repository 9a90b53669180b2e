import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { ApiError } from '../../shared/lib/api';
import { fakeApi, ME_ACME, renderSignedIn } from '../../shared/lib/test-utils';
import type { Incident, IncidentDetail } from '../../shared/lib/contract';
import type { CallInput } from '../../shared/lib/api';
import { NewIncidentPage } from './NewIncidentPage';
import { IncidentDetailPage } from './IncidentDetailPage';
import { IncidentListPage } from './IncidentListPage';
import { validateIncidentForm } from './validation';

const INCIDENT: IncidentDetail = {
  id: 'INC-000042',
  tenantId: 'acme',
  title: 'Ransomware en servidor de archivos',
  description: 'Cifrado masivo detectado',
  severity: 'critical',
  status: 'new',
  category: 'malware',
  source: 'portal',
  reporter: 'ana@acme.test',
  assignee: null,
  createdAt: '2026-03-01T10:00:00.000Z',
  updatedAt: '2026-03-01T10:00:00.000Z',
  resolvedAt: null,
  slaDueAt: '2026-03-01T14:00:00.000Z',
  version: 2,
  comments: [{ id: 'c1', author: 'soc@vigia.test', body: 'Aislando el equipo', createdAt: '2026-03-01T10:05:00.000Z' }],
  history: [{ version: 2, at: '2026-03-01T10:03:00.000Z', by: 'soc@vigia.test', changes: [{ field: 'severity', from: 'high', to: 'critical' }] }],
};

/** The incident as lists and writes return it (no comments, no history). */
const { comments: _comments, history: _history, ...INCIDENT_ROW } = INCIDENT;
const INCIDENT_SUMMARY: Incident = INCIDENT_ROW;

function routes() {
  return (
    <Routes>
      <Route path="/incidents/new" element={<NewIncidentPage />} />
      <Route path="/incidents/all" element={<IncidentListPage />} />
      <Route path="/ticket/update/:id" element={<IncidentDetailPage />} />
    </Routes>
  );
}

describe('new incident form', () => {
  it('validates with Spanish messages (title 3–120, description, severity)', () => {
    expect(validateIncidentForm({ title: 'ab', description: ' ', severity: '', category: '' })).toEqual({
      ok: false,
      errors: {
        title: 'El título debe tener al menos 3 caracteres.',
        description: 'Describe el incidente.',
        severity: 'Selecciona una severidad.',
      },
    });
    const long = validateIncidentForm({ title: 'x'.repeat(121), description: 'd', severity: 'low', category: 'c'.repeat(61) });
    expect(long).toEqual({
      ok: false,
      errors: { title: 'El título no puede superar los 120 caracteres.', category: 'La categoría no puede superar los 60 caracteres.' },
    });
    expect(validateIncidentForm({ title: '  Phishing  ', description: 'Correo sospechoso', severity: 'high', category: '' })).toEqual({
      ok: true,
      body: { title: 'Phishing', description: 'Correo sospechoso', severity: 'high', category: 'general' },
    });
  });

  it('shows the messages on submit without calling the API, then creates and opens the incident', async () => {
    const create = vi.fn((_input: CallInput<'createIncident'>) => INCIDENT_SUMMARY);
    const getIncident = vi.fn((_input: CallInput<'getIncident'>) => INCIDENT);
    const api = fakeApi({ getMe: ME_ACME, createIncident: create, getIncident });
    renderSignedIn(routes(), { path: '/incidents/new', api });

    fireEvent.click(await screen.findByRole('button', { name: 'Crear incidente' }));
    expect(screen.getByText('El título debe tener al menos 3 caracteres.')).toBeTruthy();
    expect(screen.getByText('Describe el incidente.')).toBeTruthy();
    expect(screen.getByText('Selecciona una severidad.')).toBeTruthy();
    expect(screen.getByLabelText('Título').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(screen.getByLabelText('Título'));
    expect(create).not.toHaveBeenCalled();

    fireEvent.change(screen.getByLabelText('Título'), { target: { value: 'Ransomware en servidor de archivos' } });
    expect(screen.queryByText('El título debe tener al menos 3 caracteres.')).toBeNull();
    fireEvent.change(screen.getByLabelText('Descripción'), { target: { value: 'Cifrado masivo detectado' } });
    fireEvent.change(screen.getByLabelText('Severidad'), { target: { value: 'critical' } });
    fireEvent.click(screen.getByRole('button', { name: 'Crear incidente' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'INC-000042 · Ransomware en servidor de archivos' })).toBeTruthy();
    expect(create).toHaveBeenCalledWith({
      body: { title: 'Ransomware en servidor de archivos', description: 'Cifrado masivo detectado', severity: 'critical', category: 'general' },
      query: { tenant: 'acme' },
    });
    expect(getIncident).toHaveBeenCalledWith({ params: { id: 'INC-000042' }, query: { tenant: 'acme' } });
  });
});

describe('incident screens', () => {
  it('lists incidents with Spanish badges and loads the next page with the cursor', async () => {
    const list = vi.fn(({ query }: CallInput<'listIncidents'>) =>
      query?.cursor === 'abc'
        ? { items: [{ ...INCIDENT_SUMMARY, id: 'INC-000041', title: 'Segundo', severity: 'low' as const, status: 'closed' as const }], nextCursor: null }
        : { items: [INCIDENT_SUMMARY], nextCursor: 'abc' },
    );
    renderSignedIn(routes(), { path: '/incidents/all', api: fakeApi({ getMe: ME_ACME, listIncidents: list }) });
    const table = await screen.findByRole('table');
    expect(within(table).getByRole('link', { name: 'INC-000042' }).getAttribute('href')).toBe('/ticket/update/INC-000042');
    expect(within(table).getByText('Crítica')).toBeTruthy();
    expect(within(table).getByText('Nuevo')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cargar más' }));
    expect(await within(table).findByText('Segundo')).toBeTruthy();
    expect(within(table).getByText('Cerrado')).toBeTruthy();
    expect(list).toHaveBeenLastCalledWith({ query: { tenant: 'acme', limit: 20, cursor: 'abc' } });
    expect(screen.queryByRole('button', { name: 'Cargar más' })).toBeNull();
  });

  it('shows the error with "Reintentar" and recovers', async () => {
    let fail = true;
    const list = vi.fn(() => {
      if (fail) throw new ApiError({ kind: 'server', status: 500, code: 'INTERNAL_ERROR', requestId: 'req-9', message: 'boom' });
      return { items: [], nextCursor: null };
    });
    renderSignedIn(routes(), { path: '/incidents/all', api: fakeApi({ getMe: ME_ACME, listIncidents: list }) });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Error del servidor');
    expect(alert.textContent).toContain('req-9');
    fail = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByText('No hay incidentes registrados.')).toBeTruthy();
  });

  it('sends the version with a status change and reloads on 409 VERSION_CONFLICT', async () => {
    let current = INCIDENT;
    const patch = vi.fn((_input: CallInput<'updateIncident'>): Incident => {
      current = { ...INCIDENT, status: 'in_progress', version: 3 };
      throw new ApiError({ kind: 'client', status: 409, code: 'VERSION_CONFLICT', message: 'stale' });
    });
    const api = fakeApi({ getMe: ME_ACME, getIncident: () => current, updateIncident: patch });
    renderSignedIn(routes(), { path: '/ticket/update/INC-000042', api });

    const status = (await screen.findByLabelText('Cambiar estado')) as HTMLSelectElement;
    expect([...status.options].map((o) => o.textContent)).toEqual(['Mantener (Nuevo)', 'En curso']);
    expect(screen.getByText('Aislando el equipo')).toBeTruthy();
    expect(screen.getByText('Severidad: Alta → Crítica')).toBeTruthy();

    fireEvent.change(status, { target: { value: 'in_progress' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar cambios' }));
    expect((await screen.findByRole('alert')).textContent).toContain('El incidente cambió mientras lo editabas');
    expect(patch).toHaveBeenCalledWith({ params: { id: 'INC-000042' }, body: { version: 2, status: 'in_progress' }, query: { tenant: 'acme' } });
    await waitFor(() =>
      expect([...(screen.getByLabelText('Cambiar estado') as HTMLSelectElement).options].map((o) => o.textContent)).toEqual([
        'Mantener (En curso)',
        'En espera',
        'Resuelto',
      ]),
    );
  });

  it('changes category and assignee (empty unassigns), validating the contract limits first', async () => {
    const patch = vi.fn(({ body }: CallInput<'updateIncident'>): Incident => ({ ...INCIDENT_SUMMARY, category: body.category ?? INCIDENT.category, assignee: body.assignee ?? null, version: 3 }));
    const api = fakeApi({ getMe: ME_ACME, getIncident: { ...INCIDENT, assignee: 'soc@vigia.example' }, updateIncident: patch });
    renderSignedIn(routes(), { path: '/ticket/update/INC-000042', api });
    const assignee = (await screen.findByLabelText('Asignado a')) as HTMLInputElement;
    expect(assignee.value).toBe('soc@vigia.example');
    fireEvent.change(assignee, { target: { value: 'ab' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar cambios' }));
    expect((await screen.findByRole('alert')).textContent).toContain('entre 3 y 254 caracteres');
    expect(patch).not.toHaveBeenCalled();
    fireEvent.change(assignee, { target: { value: '' } });
    fireEvent.change(screen.getByLabelText('Categoría'), { target: { value: ' phishing ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar cambios' }));
    await waitFor(() => expect(patch).toHaveBeenCalledWith({ params: { id: 'INC-000042' }, body: { version: 2, category: 'phishing', assignee: null }, query: { tenant: 'acme' } }));
  });
});
