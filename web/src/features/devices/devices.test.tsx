import { describe, expect, it } from 'vitest';
import { screen, fireEvent, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { fakeApi, ME_ACME, renderSignedIn } from '../../shared/lib/test-utils';
import type { Device, DeviceAlarm } from '../../shared/lib/contract';
import { alarmQuery, DeviceAlarmsPage } from './DeviceAlarmsPage';
import { lastDays } from './api';

const ALARM: DeviceAlarm = {
  id: 'al-1',
  tenantId: 'acme',
  deviceId: 'fw-01',
  title: 'CPU alta',
  severity: 'high',
  state: 'active',
  raisedAt: '2026-03-01T10:00:00.000Z',
  acknowledgedAt: null,
  acknowledgedBy: null,
  clearedAt: null,
};

const DEVICE: Device = {
  id: 'fw-01',
  tenantId: 'acme',
  name: 'Cortafuegos',
  type: 'firewall',
  site: 'Madrid',
  ipAddress: '10.0.0.1',
  vendor: 'Fortinet',
  model: 'FortiGate 60F',
  status: 'online',
  lastHeartbeatAt: '2026-03-01T10:00:00.000Z',
  availability30d: 99.9,
  openAlarms: 1,
};

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

  it('types the fake API by operation: an answer with half a Device does not compile', () => {
    // @ts-expect-error -- a Device needs every field of the contract (tenantId, status, availability30d, …)
    const api = fakeApi({ listDevices: { items: [{ id: 'fw-01', name: 'Cortafuegos' }], nextCursor: null } });
    // @ts-expect-error -- getDevice answers a DeviceDetail, not a page of devices
    fakeApi({ getDevice: { items: [DEVICE], nextCursor: null } });
    expect(api.call).not.toHaveBeenCalled();
  });
});
