import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { fakeApi, ME_STAFF, renderSignedIn, STAFF_USER } from '../../shared/lib/test-utils';
import { ApiError, type CallInput } from '../../shared/lib/api';
import type { AlarmConsoleItem } from '../../shared/lib/contract';
import { AlarmConsolePage } from './AlarmConsolePage';
import { consoleQuery } from './console-filters';

function row(over: Partial<AlarmConsoleItem>): AlarmConsoleItem {
  return {
    kind: 'device', tenantId: 'globex', id: 'al-1', deviceId: 'fw-1', deviceName: 'Cortafuegos central', affectedUser: null, title: 'CPU alta', severity: 'high',
    state: 'open', sourceState: 'active', raisedAt: '2026-03-01T10:00:00.000Z', acknowledgedAt: null, acknowledgedBy: null, clearedAt: null, ...over,
  };
}

function page() {
  return (
    <Routes>
      <Route path="/soc/alarms" element={<AlarmConsolePage />} />
    </Routes>
  );
}

describe('alarm console', () => {
  it('keeps its filters in the URL and drops unknown values', () => {
    expect(consoleQuery(new URLSearchParams('tenant=globex&severity=high&state=open&kind=device'))).toEqual({ limit: 25, tenant: 'globex', severity: 'high', state: 'open', kind: 'device' });
    expect(consoleQuery(new URLSearchParams('tenant=A%20B&severity=alta&state=active&kind=pc'))).toEqual({ limit: 25 });
  });

  it("lists every customer's device alarms and Office 365 alerts, sends the URL's filters, and pages with the cursor", async () => {
    const list = vi.fn(({ query }: CallInput<'listAlarmConsole'>) =>
      query?.cursor === 'next'
        ? { items: [row({ id: 'al-9', tenantId: 'acme', title: 'Disco lleno', state: 'cleared', sourceState: 'cleared' })], nextCursor: null }
        : {
            items: [
              row({}),
              row({ kind: 'office365', id: 'o-1', tenantId: 'acme', deviceId: null, deviceName: null, affectedUser: 'ana@acme.test', title: 'Regla de reenvío', severity: 'critical', state: 'acknowledged', sourceState: 'investigating' }),
            ],
            nextCursor: 'next',
          },
    );
    renderSignedIn(page(), { path: '/soc/alarms?severity=high&kind=device', user: STAFF_USER, api: fakeApi({ getMe: ME_STAFF, listAlarmConsole: list }) });
    const table = await screen.findByRole('table', { name: /todos los clientes/ });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(within(rows[0]!).getByText('Globex')).toBeTruthy();
    expect(within(rows[0]!).getByRole('link', { name: 'Cortafuegos central' }).getAttribute('href')).toBe('/devices/detail/fw-1?tenant=globex');
    expect(within(rows[0]!).getByText('Abierta')).toBeTruthy();
    expect(within(rows[1]!).getByText('ana@acme.test')).toBeTruthy();
    expect(within(rows[1]!).getByText('Reconocida')).toBeTruthy();
    // Acknowledged in Microsoft 365 (investigating) and not by Vigía: nothing to acknowledge, nobody named.
    expect(within(rows[1]!).queryByRole('button')).toBeNull();
    expect(within(rows[1]!).queryByText(/Reconocida por/)).toBeNull();
    expect(list).toHaveBeenCalledWith({ query: { limit: 25, severity: 'high', kind: 'device' } });
    expect((screen.getByLabelText('Tipo') as HTMLSelectElement).value).toBe('device');
    fireEvent.click(screen.getByRole('button', { name: 'Cargar más' }));
    expect(await within(table).findByText('Disco lleno')).toBeTruthy();
    expect(list).toHaveBeenLastCalledWith({ query: { limit: 25, severity: 'high', kind: 'device', cursor: 'next' } });
  });

  it("acknowledges an open device alarm through the tenant's route and the row shows its new state", async () => {
    let state: AlarmConsoleItem['state'] = 'open';
    const api = fakeApi({
      getMe: ME_STAFF,
      listAlarmConsole: () => ({ items: [row({ state, sourceState: state === 'open' ? 'active' : 'acknowledged' })], nextCursor: null }),
      acknowledgeAlarm: () => {
        state = 'acknowledged';
        return { id: 'al-1', tenantId: 'globex', deviceId: 'fw-1', deviceName: 'Cortafuegos central', title: 'CPU alta', severity: 'high', state: 'acknowledged', raisedAt: '2026-03-01T10:00:00.000Z', acknowledgedAt: '2026-03-01T11:00:00.000Z', acknowledgedBy: 'soc@vigia.test', clearedAt: null };
      },
    });
    renderSignedIn(page(), { path: '/soc/alarms', user: STAFF_USER, api });
    fireEvent.click(await screen.findByRole('button', { name: 'Reconocer «CPU alta» de Cortafuegos central (Globex)' }));
    expect(await screen.findByText('Alarma «CPU alta» reconocida.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('button', { name: /^Reconocer/ })).toBeNull());
    expect(within(screen.getByRole('table')).getByText('Reconocida')).toBeTruthy();
    expect(api.call).toHaveBeenCalledWith('acknowledgeAlarm', { params: { deviceId: 'fw-1', alarmId: 'al-1' }, query: { tenant: 'globex' } });
  });

  it("acknowledges an open Office 365 alert through the tenant's own route, then names who acknowledged it", async () => {
    let acked = false;
    const alertRow = () =>
      row({
        kind: 'office365', id: 'o-7', tenantId: 'globex', deviceId: null, deviceName: null, affectedUser: 'bruno@globex.test', title: 'Reenvío externo', severity: 'critical',
        state: acked ? 'acknowledged' : 'open', sourceState: 'active', acknowledgedAt: acked ? '2026-03-01T11:00:00.000Z' : null, acknowledgedBy: acked ? 'soc@vigia.test' : null,
      });
    const api = fakeApi({
      getMe: ME_STAFF,
      listAlarmConsole: () => ({ items: [alertRow()], nextCursor: null }),
      acknowledgeOffice365Alarm: () => {
        acked = true;
        return { id: 'o-7', tenantId: 'globex', title: 'Reenvío externo', severity: 'critical', category: 'exchange', status: 'active', affectedUser: 'bruno@globex.test', detectedAt: '2026-03-01T10:00:00.000Z', updatedAt: '2026-03-01T10:00:00.000Z', acknowledgedAt: '2026-03-01T11:00:00.000Z', acknowledgedBy: 'soc@vigia.test' };
      },
    });
    renderSignedIn(page(), { path: '/soc/alarms', user: STAFF_USER, api });
    fireEvent.click(await screen.findByRole('button', { name: 'Reconocer «Reenvío externo» de bruno@globex.test (Globex)' }));
    expect(await screen.findByText('Alarma «Reenvío externo» reconocida.')).toBeTruthy();
    expect(await screen.findByText('Reconocida por soc@vigia.test')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Reconocer/ })).toBeNull();
    expect(api.call).toHaveBeenCalledWith('acknowledgeOffice365Alarm', { params: { alarmId: 'o-7' }, query: { tenant: 'globex' } });
    expect(api.call).not.toHaveBeenCalledWith('acknowledgeAlarm', expect.anything());
  });

  it('shows a failed page with "Reintentar", then says when nothing matches', async () => {
    let fail = true;
    const list = vi.fn(() => {
      if (fail) throw new ApiError({ kind: 'server', status: 500, code: 'INTERNAL_ERROR', requestId: 'req-7', message: 'boom' });
      return { items: [], nextCursor: null };
    });
    renderSignedIn(page(), { path: '/soc/alarms?state=open', user: STAFF_USER, api: fakeApi({ getMe: ME_STAFF, listAlarmConsole: list }) });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('req-7');
    fail = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByText('Ninguna alarma coincide con los filtros.')).toBeTruthy();
  });
});
