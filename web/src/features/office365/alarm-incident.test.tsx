/**
 * The "Incidente" column of the Office 365 alerts (docs/portal.md#linked-alarms): "Abrir incidente" names the alert
 * and its affected user for the new-incident form; a linked alert links its incident.
 */
import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { fakeApi, ME_ACME, renderSignedIn } from '../../shared/lib/test-utils';
import type { Office365Alarm } from '../../shared/lib/contract';
import { alarmPrefillOf } from '../../shared/lib/alarm-incident';
import { Office365AlarmsPage } from './Office365Pages';

const ALERT: Office365Alarm = {
  id: 'o-1',
  tenantId: 'acme',
  title: 'Reenvío sospechoso',
  severity: 'medium',
  category: 'ThreatManagement',
  status: 'active',
  affectedUser: 'luis@acme.test',
  detectedAt: '2026-03-01T10:00:00.000Z',
  updatedAt: '2026-03-01T10:00:00.000Z',
};

describe('Office 365 alerts and their incidents', () => {
  it('offers "Abrir incidente" on an alert without one, and links the incident of a linked one', async () => {
    renderSignedIn(
      <Routes>
        <Route path="/office365/alarms" element={<Office365AlarmsPage />} />
      </Routes>,
      { path: '/office365/alarms', api: fakeApi({ getMe: ME_ACME, listOffice365Alarms: { items: [ALERT, { ...ALERT, id: 'o-2', title: 'Inicio de sesión anómalo', incidentId: 'INC-000007' }], nextCursor: null } }) },
    );
    const open = await screen.findByRole('link', { name: 'Abrir incidente para la alarma Reenvío sospechoso de luis@acme.test' });
    expect(alarmPrefillOf(new URLSearchParams(open.getAttribute('href')!.split('?')[1]))).toMatchObject({ kind: 'office365', id: 'o-1', deviceId: undefined, name: 'luis@acme.test', severity: 'medium' });
    const row = screen.getByText('Inicio de sesión anómalo').closest('tr')!;
    expect(within(row).getByRole('link', { name: 'Incidente INC-000007 de la alarma Inicio de sesión anómalo' }).getAttribute('href')).toBe('/ticket/update/INC-000007?tenant=acme');
  });
});
