import { describe, expect, it, vi } from 'vitest';
import { screen, fireEvent, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { aDevice, fakeApi, ME_ACME, renderSignedIn, anAlarm } from '../../shared/lib/test-utils';
import type { Device, DeviceAlarm } from '../../shared/lib/contract';
import { alarmQuery, DeviceAlarmsPage } from './DeviceAlarmsPage';
import { DeviceStatusPage } from './DeviceStatusPage';
import { DevicePage } from './DevicePage';
import { DEVICE_ALARM_FIELDS, DEVICE_PAGE_ALARM_KEYS } from './alarm-fields';
import type { CallInput } from '../../shared/lib/api';
import { lastDays } from './api';

const ALARM: DeviceAlarm = anAlarm();

const DEVICE: Device = aDevice({ openAlarms: 1 });

describe('device alarms', () => {
  it('maps URL filters to the GET /alarms query, dropping unknown values', () => {
    expect(alarmQuery(new URLSearchParams('state=active&severity=high&device=fw-01'))).toEqual({ state: 'active', severity: 'high', deviceId: 'fw-01' });
    expect(alarmQuery(new URLSearchParams('state=borrada&severity=&device=a b'))).toEqual({});
    expect(lastDays([1, 2, 3, 4], 2)).toEqual([3, 4]);
    expect(lastDays([1], 7)).toEqual([1]);
  });

  it('acknowledges an active alarm and reloads the list', async () => {
    let state: DeviceAlarm['state'] = 'active';
    const ack = (): DeviceAlarm => {
      state = 'acknowledged';
      return { ...ALARM, state };
    };
    const api = fakeApi({
      getMe: ME_ACME,
      listAlarms: () => ({ items: [{ ...ALARM, state, acknowledgedAt: state === 'active' ? null : '2026-03-01T11:00:00.000Z', acknowledgedBy: state === 'active' ? null : 'ana@acme.test' }], nextCursor: null }),
      listDevices: { items: [DEVICE], nextCursor: null },
      acknowledgeAlarm: ack,
    });
    renderSignedIn(
      <Routes>
        <Route path="/devices/alarms" element={<DeviceAlarmsPage />} />
      </Routes>,
      { path: '/devices/alarms', api },
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Reconocer alarma CPU alta de Cortafuegos' }));
    expect(await screen.findByText('Alarma «CPU alta» reconocida.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('button', { name: /Reconocer alarma/ })).toBeNull());
    expect(screen.getAllByText('Reconocida').length).toBeGreaterThan(0);
    expect(api.call).toHaveBeenCalledWith('acknowledgeAlarm', { params: { deviceId: 'fw-01', alarmId: 'al-1' }, query: { tenant: 'acme' } });
  });

  it('marks an alarm raised in a maintenance window "En mantenimiento" and no other', async () => {
    const api = fakeApi({
      getMe: ME_ACME,
      listAlarms: { items: [{ ...ALARM, id: 'al-mw', title: 'Enlace caído', inMaintenance: true, maintenanceWindowId: 'mw-abcdefgh12' }, ALARM], nextCursor: null },
      listDevices: { items: [DEVICE], nextCursor: null },
    });
    renderSignedIn(
      <Routes>
        <Route path="/devices/alarms" element={<DeviceAlarmsPage />} />
      </Routes>,
      { path: '/devices/alarms', api },
    );
    expect(await screen.findByText('En mantenimiento')).toBeTruthy();
    expect(screen.getAllByText('En mantenimiento')).toHaveLength(1);
  });

  it('shows the name each alarm carries and filters by a device found by a server-side name search (one page, no fleet read)', async () => {
    const far: Device = { ...DEVICE, id: 'dev-1150', name: 'equipo 1150', site: 'Sevilla' };
    const api = fakeApi({
      getMe: ME_ACME,
      listAlarms: (input: CallInput<'listAlarms'>) => ({ items: [{ ...ALARM, deviceId: input.query?.deviceId ?? 'dev-1150', deviceName: 'equipo 1150' }], nextCursor: null }),
      listDevices: (input: CallInput<'listDevices'>) => ({ items: input.query?.prefix ? [far] : [DEVICE], nextCursor: input.query?.prefix ? null : 'more' }),
    });
    renderSignedIn(
      <Routes>
        <Route path="/devices/alarms" element={<DeviceAlarmsPage />} />
      </Routes>,
      { path: '/devices/alarms', api },
    );
    expect(await screen.findByRole('link', { name: 'equipo 1150' })).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Buscar dispositivo por nombre'), { target: { value: 'Equipo 115' } });
    const select = screen.getByLabelText('Dispositivo', { selector: 'select' }) as HTMLSelectElement;
    await waitFor(() => expect(within(select).getByRole('option', { name: 'equipo 1150 (Sevilla)' })).toBeTruthy());
    fireEvent.change(select, { target: { value: 'dev-1150' } });
    await waitFor(() => expect(api.call).toHaveBeenCalledWith('listAlarms', expect.objectContaining({ query: expect.objectContaining({ deviceId: 'dev-1150' }) })));
    // Every device read is one page of 10 (the first by name, then the prefix): never the whole fleet.
    const deviceCalls = api.call.mock.calls.filter(([op]) => op === 'listDevices').map(([, input]) => (input as CallInput<'listDevices'>).query);
    expect(deviceCalls.every((q) => q?.limit === 10 && q.cursor === undefined)).toBe(true);
    expect(deviceCalls.some((q) => q?.prefix === 'Equipo 115')).toBe(true);
  });

  it('types the fake API by operation: an answer with half a Device does not compile', () => {
    // @ts-expect-error -- a Device needs every field of the contract (tenantId, status, availability30d, …)
    const api = fakeApi({ listDevices: { items: [{ id: 'fw-01', name: 'Cortafuegos' }], nextCursor: null } });
    // @ts-expect-error -- getDevice answers a DeviceDetail, not a page of devices
    fakeApi({ getDevice: { items: [DEVICE], nextCursor: null } });
    expect(api.call).not.toHaveBeenCalled();
  });
});

describe('device status list: filters and column order', () => {
  const devices: Device[] = [
    { ...DEVICE, id: 'd1', name: 'sw-10', type: 'switch', site: 'Madrid', status: 'online', availability30d: 99.5, openAlarms: 0 },
    { ...DEVICE, id: 'd2', name: 'fw-02', type: 'firewall', site: 'Bilbao', status: 'offline', availability30d: 80, openAlarms: 3 },
    { ...DEVICE, id: 'd3', name: 'sw-9', type: 'switch', site: 'Bilbao', status: 'degraded', availability30d: null, openAlarms: 1 },
  ];
  const render = (path: string) =>
    renderSignedIn(
      <Routes>
        <Route path="/devices/status" element={<DeviceStatusPage />} />
      </Routes>,
      { path, api: fakeApi({ getMe: ME_ACME, listDevices: { items: devices, nextCursor: null } }) },
    );
  const names = () => screen.getAllByRole('row').slice(1).map((r) => r.querySelector('td')?.textContent);

  it('filters by status, type and site (options from the devices), and says how many match', async () => {
    render('/devices/status');
    await screen.findByText('sw-10');
    expect(names()).toEqual(['sw-10', 'fw-02', 'sw-9']);
    fireEvent.change(screen.getByLabelText('Sede'), { target: { value: 'Bilbao' } });
    await waitFor(() => expect(names()).toEqual(['fw-02', 'sw-9']));
    fireEvent.change(screen.getByLabelText('Tipo'), { target: { value: 'switch' } });
    await waitFor(() => expect(names()).toEqual(['sw-9']));
    expect(screen.getByText(/Mostrando 1 de 3 dispositivos cargados/)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Estado'), { target: { value: 'online' } });
    expect(await screen.findByText('Ningún dispositivo coincide con los filtros.')).toBeTruthy();
  });

  it('sorts by name (natural order), availability (unknown last) and open alarms from the column headers', async () => {
    render('/devices/status?status=');
    await screen.findByText('sw-10');
    fireEvent.click(screen.getByRole('button', { name: /Nombre/ }));
    expect(names()).toEqual(['fw-02', 'sw-9', 'sw-10']);
    fireEvent.click(screen.getByRole('button', { name: /Disponibilidad 30 d/ }));
    expect(names()).toEqual(['fw-02', 'sw-10', 'sw-9']);
    fireEvent.click(screen.getByRole('button', { name: /Disponibilidad 30 d/ }));
    expect(names()).toEqual(['sw-10', 'fw-02', 'sw-9']);
    fireEvent.click(screen.getByRole('button', { name: /Alarmas abiertas/ }));
    expect(names()).toEqual(['sw-10', 'sw-9', 'fw-02']);
    expect(screen.getByRole('columnheader', { name: /Alarmas abiertas/ }).getAttribute('aria-sort')).toBe('ascending');
  });
});

describe('device page', () => {
  const detail = {
    ...DEVICE,
    slaTargetPct: 99.5,
    availability: {
      last7d: { days: 7, availablePct: 100, meetsSla: true },
      last30d: { days: 30, availablePct: 98.25, meetsSla: false },
      last90d: { days: 90, availablePct: null, meetsSla: null },
    },
    daily: [{ date: '2026-03-01', availablePct: 98, monitoredSeconds: 86_400 }],
    activeAlarms: [ALARM],
  };
  const routes = (
    <Routes>
      <Route path="/devices/detail/:id" element={<DevicePage />} />
    </Routes>
  );

  it('shows the device, its availability against the SLA, every alarm and the incidents naming it, in the tenant of the address', async () => {
    const getDevice = vi.fn((_input: CallInput<'getDevice'>) => detail);
    const listAlarms = vi.fn((_input: CallInput<'listAlarms'>) => ({ items: [{ ...ALARM, acknowledgedAt: '2026-03-01T11:00:00.000Z', acknowledgedBy: 'soc.lucia@vigia.example', state: 'acknowledged' as const }], nextCursor: null }));
    const listIncidents = vi.fn((_input: CallInput<'listIncidents'>) => ({ items: [], nextCursor: null }));
    renderSignedIn(routes, { path: '/devices/detail/fw-01?tenant=acme', api: fakeApi({ getMe: ME_ACME, getDevice, listAlarms, listIncidents }) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Cortafuegos' })).toBeTruthy();
    expect(getDevice).toHaveBeenCalledWith({ params: { id: 'fw-01' }, query: { tenant: 'acme' } });
    const windows = screen.getByRole('table', { name: 'Disponibilidad' });
    expect(within(windows).getAllByRole('row').map((r) => r.textContent)).toEqual(['PeriodoDisponibilidadSLA (99,5 %)', '7 días100 %Cumple', '30 días98,25 %No cumple', '90 días—Sin datos']);
    expect(await screen.findByText(/soc\.lucia@vigia\.example/)).toBeTruthy();
    expect(listAlarms.mock.calls[0]?.[0].query).toMatchObject({ tenant: 'acme', deviceId: 'fw-01' });
    expect(await screen.findByText('Ningún incidente menciona este dispositivo.')).toBeTruthy();
    expect(listIncidents.mock.calls[0]?.[0].query).toMatchObject({ tenant: 'acme', q: 'Cortafuegos' });
  });

  it('names the alarm columns as the alarm list does: both tables take their headers from the alarm registry', async () => {
    const listAlarms = { items: [ALARM], nextCursor: null };
    const headers = () => screen.getAllByRole('table').flatMap((t) => within(t).queryAllByRole('columnheader').map((h) => h.textContent));
    const page = renderSignedIn(routes, { path: '/devices/detail/fw-01?tenant=acme', api: fakeApi({ getMe: ME_ACME, getDevice: detail, listAlarms, listIncidents: { items: [], nextCursor: null } }) });
    const alarmTable = await screen.findByRole('table', { name: 'Alarmas del dispositivo' });
    const onDevicePage = within(alarmTable).getAllByRole('columnheader').map((h) => h.textContent);
    page.unmount();
    renderSignedIn(
      <Routes>
        <Route path="/devices/alarms" element={<DeviceAlarmsPage />} />
      </Routes>,
      { path: '/devices/alarms', api: fakeApi({ getMe: ME_ACME, listAlarms, listDevices: { items: [DEVICE], nextCursor: null } }) },
    );
    await screen.findByRole('table', { name: 'Lista de alarmas' });
    const byKey = new Map(DEVICE_ALARM_FIELDS.map((f) => [f.key, f.label()]));
    expect(onDevicePage).toEqual(DEVICE_PAGE_ALARM_KEYS.map((k) => byKey.get(k)));
    expect(onDevicePage).toEqual(['Alarma', 'Severidad', 'Estado', 'Detectada', 'Reconocida']);
    expect(headers()).toEqual(expect.arrayContaining(onDevicePage));
    expect(headers().slice(0, DEVICE_ALARM_FIELDS.length)).toEqual([...byKey.values()]);
  });

  it('a malformed device id shows "no encontrado" without asking the API', async () => {
    const getDevice = vi.fn(() => detail);
    renderSignedIn(routes, { path: '/devices/detail/fw%2001', api: fakeApi({ getMe: ME_ACME, getDevice }) });
    expect(await screen.findByText('Dispositivo no encontrado.')).toBeTruthy();
    expect(getDevice).not.toHaveBeenCalled();
  });

  it('the status list links each device to its page', async () => {
    renderSignedIn(
      <Routes>
        <Route path="/devices/status" element={<DeviceStatusPage />} />
      </Routes>,
      { path: '/devices/status', api: fakeApi({ getMe: ME_ACME, listDevices: { items: [DEVICE], nextCursor: null } }) },
    );
    expect((await screen.findByRole('link', { name: 'Cortafuegos' })).getAttribute('href')).toBe('/devices/detail/fw-01?tenant=acme');
  });
});
