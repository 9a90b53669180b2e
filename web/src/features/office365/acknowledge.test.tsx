/**
 * "Reconocer" on the customer's Office 365 alerts (docs/portal.md#screens, docs/api.md#acknowledging-office-365-alerts):
 * offered only on an active alert nobody acknowledged; sends the alert's own route; the row then shows when and who;
 * a refusal (409, someone was faster) is said in the API's words and the list reloads.
 */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { fakeApi, ME_ACME, renderSignedIn } from '../../shared/lib/test-utils';
import { ApiError } from '../../shared/lib/api';
import type { Office365Alarm } from '../../shared/lib/contract';
import { Office365AlarmsPage } from './Office365Pages';

const alert = (over: Partial<Office365Alarm>): Office365Alarm => ({
  id: 'o-1', tenantId: 'acme', title: 'Reenvío sospechoso', severity: 'high', category: 'ThreatManagement', status: 'active', affectedUser: 'luis@acme.test',
  detectedAt: '2026-03-01T10:00:00.000Z', updatedAt: '2026-03-01T10:00:00.000Z', ...over,
});
const render = (api: ReturnType<typeof fakeApi>) =>
  renderSignedIn(
    <Routes>
      <Route path="/office365/alarms" element={<Office365AlarmsPage />} />
    </Routes>,
    { path: '/office365/alarms', api },
  );

describe('acknowledging Office 365 alerts', () => {
  it('acknowledges an active alert and then shows who did; resolved or already acknowledged ones offer nothing', async () => {
    let acked = false;
    const api = fakeApi({
      getMe: ME_ACME,
      listOffice365Alarms: () => ({
        items: [
          acked ? alert({ acknowledgedAt: '2026-03-01T11:00:00.000Z', acknowledgedBy: 'ana@acme.test' }) : alert({}),
          alert({ id: 'o-2', title: 'Buzón comprometido', status: 'resolved' }),
          alert({ id: 'o-3', title: 'Inicio anómalo', acknowledgedAt: '2026-03-01T09:00:00.000Z', acknowledgedBy: 'soc@vigia.test' }),
        ],
        nextCursor: null,
      }),
      acknowledgeOffice365Alarm: () => {
        acked = true;
        return alert({ acknowledgedAt: '2026-03-01T11:00:00.000Z', acknowledgedBy: 'ana@acme.test' });
      },
    });
    render(api);
    const button = await screen.findByRole('button', { name: 'Reconocer la alerta «Reenvío sospechoso»' });
    expect(screen.getAllByRole('button', { name: /^Reconocer/ })).toHaveLength(1);
    expect(within(screen.getByText('Inicio anómalo').closest('tr')!).getByText(/soc@vigia\.test/)).toBeTruthy();
    fireEvent.click(button);
    expect(await screen.findByText('Alerta «Reenvío sospechoso» reconocida. Su estado en Microsoft 365 no cambia.')).toBeTruthy();
    expect(await within(screen.getByText('Reenvío sospechoso').closest('tr')!).findByText(/ana@acme\.test/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Reconocer/ })).toBeNull();
    expect(api.call).toHaveBeenCalledWith('acknowledgeOffice365Alarm', { params: { alarmId: 'o-1' }, query: { tenant: 'acme' } });
  });

  it("says the API's refusal and reloads the list", async () => {
    let calls = 0;
    const api = fakeApi({
      getMe: ME_ACME,
      listOffice365Alarms: () => {
        calls++;
        return { items: [alert({})], nextCursor: null };
      },
      acknowledgeOffice365Alarm: () => {
        throw new ApiError({ kind: 'client', status: 409, code: 'INVALID_TRANSITION', requestId: 'req-9', message: 'only active alerts not yet acknowledged can be acknowledged' });
      },
    });
    render(api);
    fireEvent.click(await screen.findByRole('button', { name: 'Reconocer la alerta «Reenvío sospechoso»' }));
    expect((await screen.findByRole('alert')).textContent).toBeTruthy();
    expect(calls).toBeGreaterThan(1);
  });
});
