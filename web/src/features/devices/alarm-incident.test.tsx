/**
 * The "Incidente" column of the device alarm list (docs/portal.md#linked-alarms): an alarm without an incident offers
 * "Abrir incidente" (the new-incident form's address naming the alarm), a linked one links its incident.
 */
import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { fakeApi, ME_ACME, renderSignedIn, anAlarm } from '../../shared/lib/test-utils';
import type { DeviceAlarm } from '../../shared/lib/contract';
import { alarmPrefillOf } from '../../shared/lib/alarm-incident';
import { DeviceAlarmsPage } from './DeviceAlarmsPage';

const ALARM: DeviceAlarm = anAlarm({ deviceName: 'Cortafuegos Madrid' });

describe('device alarms and their incidents', () => {
  it('offers "Abrir incidente" on an alarm without one, and links the incident of a linked one', async () => {
    const linked: DeviceAlarm = { ...ALARM, id: 'al-2', title: 'Enlace caído', incidentId: 'INC-000123' };
    renderSignedIn(
      <Routes>
        <Route path="/devices/alarms" element={<DeviceAlarmsPage />} />
      </Routes>,
      { path: '/devices/alarms', api: fakeApi({ getMe: ME_ACME, listAlarms: { items: [ALARM, linked], nextCursor: null } }) },
    );
    const open = await screen.findByRole('link', { name: 'Abrir incidente para la alarma CPU alta de Cortafuegos Madrid' });
    const href = open.getAttribute('href')!;
    expect(href.startsWith('/incidents/new?')).toBe(true);
    expect(alarmPrefillOf(new URLSearchParams(href.split('?')[1]))).toEqual({
      kind: 'device', id: 'al-1', deviceId: 'fw-01', tenantId: 'acme', title: 'CPU alta', severity: 'high', name: 'Cortafuegos Madrid', at: '2026-03-01T10:00:00.000Z',
    });
    const row = screen.getByText('Enlace caído').closest('tr')!;
    expect(within(row).queryByText('Abrir incidente')).toBeNull();
    expect(within(row).getByRole('link', { name: 'Incidente INC-000123 de la alarma Enlace caído' }).getAttribute('href')).toBe('/ticket/update/INC-000123?tenant=acme');
  });
});
