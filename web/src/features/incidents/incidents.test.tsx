import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { ApiError } from '../../shared/lib/api';
import { anIncident, fakeApi, ME_ACME, ME_STAFF, renderSignedIn, STAFF_USER } from '../../shared/lib/test-utils';
import type { Incident, IncidentDetail } from '../../shared/lib/contract';
import type { CallInput } from '../../shared/lib/api';
import { NewIncidentPage } from './NewIncidentPage';
import { IncidentDetailPage } from './IncidentDetailPage';
import { valueLabel } from './incident-labels';
import { IncidentListPage } from './IncidentListPage';
import { validateIncidentForm } from './validation';

/** The tenant's escalation contacts as the staff panel reads them: none saved. */
const NO_CONTACTS = { tenantId: 'acme', version: 0, contacts: [], updatedAt: null, updatedBy: null };

const INCIDENT: IncidentDetail = {
  ...anIncident({
    id: 'INC-000042',
    title: 'Ransomware en servidor de archivos',
    description: 'Cifrado masivo detectado',
    severity: 'critical',
    category: 'malware',
    slaDueAt: '2026-03-01T14:00:00.000Z',
    version: 2,
  }),
  comments: [{ id: 'c1', author: 'soc@vigia.test', body: 'Aislando el equipo', createdAt: '2026-03-01T10:05:00.000Z', visibility: 'public' }],
  history: [{ version: 2, at: '2026-03-01T10:03:00.000Z', by: 'soc@vigia.test', changes: [{ field: 'severity', from: 'high', to: 'critical' }] }],
};

/** The incident as lists and writes return it (no comments, no history). */
const { comments: _comments, history: _history, ...INCIDENT_ROW } = INCIDENT;
const INCIDENT_SUMMARY: Incident = INCIDENT_ROW;

const ASSIGNEES = {
  items: [
    { username: 's-1', email: 'soc@vigia.test', staff: true },
    { username: 'u-1', email: 'ana@acme.test', staff: false },
  ],
};

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
    expect(within(table).getByRole('link', { name: 'INC-000042' }).getAttribute('href')).toBe('/ticket/update/INC-000042?tenant=acme');
    expect(within(table).getByText('Crítica')).toBeTruthy();
    expect(within(table).getByText('Nuevo')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cargar más' }));
    expect(await within(table).findByText('Segundo')).toBeTruthy();
    expect(within(table).getByText('Cerrado')).toBeTruthy();
    expect(list).toHaveBeenLastCalledWith({ query: { tenant: 'acme', limit: 20, cursor: 'abc' } });
    expect(screen.queryByRole('button', { name: 'Cargar más' })).toBeNull();
  });

  it('sorts the loaded rows by severity and by SLA due time from the column headers (aria-sort)', async () => {
    const rows: Incident[] = [
      { ...INCIDENT, id: 'INC-000001', severity: 'low', slaDueAt: '2026-01-03T00:00:00.000Z' },
      { ...INCIDENT, id: 'INC-000002', severity: 'critical', slaDueAt: '2026-01-05T00:00:00.000Z' },
      { ...INCIDENT, id: 'INC-000003', severity: 'medium', slaDueAt: '2026-01-01T00:00:00.000Z' },
    ];
    renderSignedIn(routes(), { path: '/incidents/all', api: fakeApi({ getMe: ME_ACME, listIncidents: { items: rows, nextCursor: null } }) });
    await screen.findByText('INC-000001');
    const ids = () => screen.getAllByRole('link', { name: /^INC-/ }).map((a) => a.textContent);
    expect(ids()).toEqual(['INC-000001', 'INC-000002', 'INC-000003']);
    fireEvent.click(screen.getByRole('button', { name: /Severidad/ }));
    expect(ids()).toEqual(['INC-000002', 'INC-000003', 'INC-000001']);
    expect(screen.getByRole('columnheader', { name: /Severidad/ }).getAttribute('aria-sort')).toBe('ascending');
    fireEvent.click(screen.getByRole('button', { name: /Severidad/ }));
    expect(ids()).toEqual(['INC-000001', 'INC-000003', 'INC-000002']);
    fireEvent.click(screen.getByRole('button', { name: /^SLA/ }));
    expect(ids()).toEqual(['INC-000003', 'INC-000001', 'INC-000002']);
    expect(screen.getByRole('columnheader', { name: /Severidad/ }).getAttribute('aria-sort')).toBe('none');
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

  it('staff: sends the version with a status change and reloads on 409 VERSION_CONFLICT', async () => {
    // Triaged already (the SOC's severity change above), so the move needs no triage (docs/sla.md#triage-first).
    const TRIAGED: IncidentDetail = { ...INCIDENT, triagedAt: '2026-03-01T10:03:00.000Z' };
    let current = TRIAGED;
    const patch = vi.fn((_input: CallInput<'updateIncident'>): Incident => {
      current = { ...TRIAGED, status: 'in_progress', version: 3 };
      throw new ApiError({ kind: 'client', status: 409, code: 'VERSION_CONFLICT', message: 'stale' });
    });
    const api = fakeApi({ getMe: ME_STAFF, getEscalationContacts: NO_CONTACTS, getIncident: () => current, updateIncident: patch, listAssignees: ASSIGNEES, listIncidentAttachments: { items: [], nextCursor: null } });
    renderSignedIn(routes(), { path: '/ticket/update/INC-000042?tenant=acme', api, user: STAFF_USER });

    const status = (await screen.findByLabelText('Cambiar estado')) as HTMLSelectElement;
    expect([...status.options].map((o) => o.textContent)).toEqual(['Mantener (Nuevo)', 'En curso']);
    expect(screen.getByText('Aislando el equipo')).toBeTruthy();
    expect(screen.getByText('Severidad: Alta → Crítica')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Solicitar cierre' })).toBeNull();

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

  it('staff: assigns from the assignee list (not free text) and triages with a reason', async () => {
    const patch = vi.fn(({ body }: CallInput<'updateIncident'>): Incident => ({ ...INCIDENT_SUMMARY, assignee: body.assignee ?? null, version: 3 }));
    const triage = vi.fn(({ body }: CallInput<'triageIncident'>): Incident => ({ ...INCIDENT_SUMMARY, severity: body.severity, version: 3 }));
    const api = fakeApi({ getMe: ME_STAFF, getEscalationContacts: NO_CONTACTS, getIncident: INCIDENT, updateIncident: patch, triageIncident: triage, listAssignees: ASSIGNEES });
    renderSignedIn(routes(), { path: '/ticket/update/INC-000042?tenant=acme', api, user: STAFF_USER });
    const assignee = (await screen.findByLabelText('Asignado a')) as HTMLSelectElement;
    expect(assignee.tagName).toBe('SELECT');
    await waitFor(() => expect([...assignee.options].map((o) => o.textContent)).toEqual(['Sin asignar', 'soc@vigia.test (SOC)', 'ana@acme.test']));
    fireEvent.change(assignee, { target: { value: 'soc@vigia.test' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar cambios' }));
    await waitFor(() => expect(patch).toHaveBeenCalledWith({ params: { id: 'INC-000042' }, body: { version: 2, assignee: 'soc@vigia.test' }, query: { tenant: 'acme' } }));
    expect(api.call).toHaveBeenCalledWith('listAssignees', { query: { tenant: 'acme' } });

    fireEvent.change(screen.getByLabelText('Severidad'), { target: { value: 'high' } });
    fireEvent.click(screen.getByRole('button', { name: 'Clasificar' }));
    expect(await screen.findByText('Indica el motivo (entre 3 y 500 caracteres).')).toBeTruthy();
    expect(triage).not.toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText('Motivo'), { target: { value: 'Un solo equipo afectado' } });
    fireEvent.click(screen.getByRole('button', { name: 'Clasificar' }));
    await waitFor(() =>
      expect(triage).toHaveBeenCalledWith({ params: { id: 'INC-000042' }, body: { version: 2, severity: 'high', reason: 'Un solo equipo afectado' }, query: { tenant: 'acme' } }),
    );
  });

  it('customer: no staff controls; requests closure with a note', async () => {
    const closure = vi.fn((_input: CallInput<'requestIncidentClosure'>): Incident => ({ ...INCIDENT_SUMMARY, closureRequested: true, version: 3 }));
    const api = fakeApi({ getMe: ME_ACME, getIncident: INCIDENT, requestIncidentClosure: closure });
    renderSignedIn(routes(), { path: '/ticket/update/INC-000042?tenant=acme', api });
    expect(await screen.findByRole('button', { name: 'Solicitar cierre' })).toBeTruthy();
    expect(screen.queryByLabelText('Cambiar estado')).toBeNull();
    expect(screen.queryByLabelText('Motivo')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Confirmar resolución' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Reabrir' })).toBeNull();
    fireEvent.change(screen.getByLabelText('Nota para el SOC'), { target: { value: 'Ya está resuelto por nuestra parte' } });
    fireEvent.click(screen.getByRole('button', { name: 'Solicitar cierre' }));
    await waitFor(() => expect(closure).toHaveBeenCalledWith({ params: { id: 'INC-000042' }, body: { note: 'Ya está resuelto por nuestra parte' }, query: { tenant: 'acme' } }));
    expect((await screen.findByRole('status')).textContent).toContain('Cierre solicitado.');
  });

  it('customer: a resolved incident offers "Confirmar resolución" and "Reabrir" within the grace period', async () => {
    const resolvedAt = new Date(Date.now() - 86_400_000).toISOString();
    const resolved: IncidentDetail = { ...INCIDENT, status: 'resolved', resolvedAt };
    const confirm = vi.fn((_input: CallInput<'confirmIncidentResolution'>): Incident => ({ ...INCIDENT_SUMMARY, status: 'closed', version: 3 }));
    const reopen = vi.fn((_input: CallInput<'reopenIncident'>): Incident => ({ ...INCIDENT_SUMMARY, status: 'in_progress', version: 3 }));
    const api = fakeApi({ getMe: ME_ACME, getIncident: resolved, confirmIncidentResolution: confirm, reopenIncident: reopen });
    renderSignedIn(routes(), { path: '/ticket/update/INC-000042?tenant=acme', api });
    fireEvent.click(await screen.findByRole('button', { name: 'Confirmar resolución' }));
    await waitFor(() => expect(confirm).toHaveBeenCalledWith({ params: { id: 'INC-000042' }, body: {}, query: { tenant: 'acme' } }));
    fireEvent.change(screen.getByLabelText(/Motivo para reabrir/), { target: { value: 'Ha vuelto a ocurrir' } });
    fireEvent.click(screen.getByRole('button', { name: 'Reabrir' }));
    await waitFor(() => expect(reopen).toHaveBeenCalledWith({ params: { id: 'INC-000042' }, body: { reason: 'Ha vuelto a ocurrir' }, query: { tenant: 'acme' } }));
  });

  it('customer: past the grace period a closed incident cannot be reopened', async () => {
    const old = new Date(Date.now() - 30 * 86_400_000).toISOString();
    const api = fakeApi({ getMe: ME_ACME, getIncident: { ...INCIDENT, status: 'closed', resolvedAt: old, closedAt: old, slaResult: 'met' } });
    renderSignedIn(routes(), { path: '/ticket/update/INC-000042?tenant=acme', api });
    expect(await screen.findByText('El incidente está cerrado.')).toBeTruthy();
    expect(screen.getByText('Cumplido')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Reabrir' })).toBeNull();
  });

  it('a malformed ticket id shows "no encontrado" without asking the API, and no "Reintentar"', async () => {
    const getIncident = vi.fn(() => INCIDENT);
    renderSignedIn(routes(), { path: '/ticket/update/INC-0001', api: fakeApi({ getMe: ME_ACME, getIncident }) });
    expect(await screen.findByText('Incidente no encontrado.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Ver todos los incidentes' }).getAttribute('href')).toBe('/incidents/all');
    expect(screen.queryByRole('button', { name: 'Reintentar' })).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(getIncident).not.toHaveBeenCalled();
  });

  it('an incident the API does not find (404 NOT_FOUND) shows "no encontrado", not an error to retry', async () => {
    const getIncident = vi.fn((): IncidentDetail => {
      throw new ApiError({ kind: 'client', status: 404, code: 'NOT_FOUND', requestId: 'req-4', message: 'incident not found' });
    });
    renderSignedIn(routes(), { path: '/ticket/update/INC-999999?tenant=acme', api: fakeApi({ getMe: ME_ACME, getIncident }) });
    expect(await screen.findByText('Incidente no encontrado.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Reintentar' })).toBeNull();
    expect(getIncident).toHaveBeenCalledWith({ params: { id: 'INC-999999' }, query: { tenant: 'acme' } });
  });

  it("the ticket address's tenant wins over the active tenant (the picker never swaps the incident)", async () => {
    localStorage.setItem('vigia.activeTenant', 'acme');
    const getIncident = vi.fn(({ query }: CallInput<'getIncident'>): IncidentDetail => ({ ...INCIDENT, tenantId: query?.tenant ?? 'acme', title: `de ${query?.tenant}` }));
    const api = fakeApi({ getMe: ME_STAFF, getEscalationContacts: NO_CONTACTS, getIncident, listAssignees: ASSIGNEES });
    renderSignedIn(routes(), { path: '/ticket/update/INC-000042?tenant=globex', api, user: STAFF_USER });
    expect(await screen.findByRole('heading', { level: 1, name: 'INC-000042 · de globex' })).toBeTruthy();
    expect(getIncident).toHaveBeenCalledWith({ params: { id: 'INC-000042' }, query: { tenant: 'globex' } });
    expect(getIncident).not.toHaveBeenCalledWith({ params: { id: 'INC-000042' }, query: { tenant: 'acme' } });
    localStorage.clear();
  });

  it('staff "Agregar incidente" requires the customer and files it there', async () => {
    const create = vi.fn(({ query }: CallInput<'createIncident'>): Incident => ({ ...INCIDENT_SUMMARY, tenantId: query?.tenant ?? '' }));
    const api = fakeApi({ getMe: ME_STAFF, getEscalationContacts: NO_CONTACTS, createIncident: create, getIncident: { ...INCIDENT, tenantId: 'globex' }, listAssignees: ASSIGNEES });
    renderSignedIn(routes(), { path: '/incidents/new', api, user: STAFF_USER });
    fireEvent.change(await screen.findByLabelText('Título'), { target: { value: 'Phishing dirigido' } });
    fireEvent.change(screen.getByLabelText('Descripción'), { target: { value: 'Correo sospechoso' } });
    fireEvent.change(screen.getByLabelText('Severidad'), { target: { value: 'high' } });
    fireEvent.click(screen.getByRole('button', { name: 'Crear incidente' }));
    expect(await screen.findByText('Selecciona el cliente.')).toBeTruthy();
    expect(create).not.toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText('Cliente'), { target: { value: 'globex' } });
    fireEvent.click(screen.getByRole('button', { name: 'Crear incidente' }));
    await waitFor(() => expect(create).toHaveBeenCalledWith(expect.objectContaining({ query: { tenant: 'globex' } })));
    expect(await screen.findByText('Globex')).toBeTruthy();
  });
});

describe('incident history values', () => {
  it('shows the SLA changes the API records in Spanish (targets, due time, result)', () => {
    expect(valueLabel('slaTargets', 'response 60 min, resolution 480 min')).toBe('respuesta 1 h · resolución 8 h');
    expect(valueLabel('slaTargets', 'response 90 min, resolution 4320 min')).toBe('respuesta 1 h 30 min · resolución 3 d');
    expect(valueLabel('slaDueAt', '2026-11-24T04:42:07.584Z')).not.toContain('T04');
    expect(valueLabel('slaDueAt', '2026-11-24T04:42:07.584Z')).toMatch(/24 nov 2026/);
    expect(valueLabel('slaResult', 'breached')).toBe('Incumplido');
    expect(valueLabel('status', 'in_progress')).toBe('En curso');
    expect(valueLabel('slaTargets', null)).toBe('—');
  });
});
