import { Profiler } from 'react';
import { unstable_serialize } from 'swr';
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { firstScreenShown, resetFirstScreen } from '../../shared/lib/first-screen';
import { anAlarm, fakeApi, ME_ACME, renderSignedIn } from '../../shared/lib/test-utils';
import type { Incident, Summary } from '../../shared/lib/contract';
import { DashboardPage } from './DashboardPage';
import { incidentTrend, latestUpdates, trendTotal } from './api';

const zero = { critical: 0, high: 0, medium: 0, low: 0 };

/** The summary of a big tenant: 5,000 devices and 1,234 open incidents (past the old 1,000-item page cap). */
const BIG: Summary = {
  tenantId: 'acme',
  generatedAt: '2026-03-30T15:00:00.000Z',
  incidents: { open: 1234, openBySeverity: { critical: 34, high: 200, medium: 500, low: 500 }, byStatus: { new: 1000, in_progress: 200, on_hold: 34, resolved: 40_000, closed: 8_000 } },
  alarms: { open: 1500, openBySeverity: { critical: 100, high: 400, medium: 500, low: 500 }, active: 1200, acknowledged: 300 },
  office365: { alarmsByStatus: { active: 1100, investigating: 3, resolved: 20 } },
  devices: { total: 5000, byStatus: { online: 4700, degraded: 150, offline: 100, unknown: 50 } },
  availability: { pct30d: 99.87, slaTargetPct: 99.5, belowSla: [{ deviceId: 'fw-9', name: 'fw-9', availability30d: 97.25 }] },
  days: [
    { date: '2026-03-29', incidentsCreated: { ...zero, high: 2 }, alarmsRaised: zero },
    { date: '2026-03-30', incidentsCreated: { ...zero, critical: 1 }, alarmsRaised: zero },
  ],
};

describe('dashboard', () => {
  it('shows the exact figures of a tenant of any size from one summary call', async () => {
    resetFirstScreen();
    let first = false;
    void firstScreenShown().then(() => (first = true));
    let answer = () => {};
    const getSummary = () => new Promise<Summary>((r) => (answer = () => r(BIG)));
    const api = fakeApi({ getMe: ME_ACME, getSummary, listAlarms: { items: [], nextCursor: null }, listIncidents: { items: [], nextCursor: null } });
    renderSignedIn(<DashboardPage />, { api });
    const devices = within((await screen.findByRole('heading', { name: 'Dispositivos por estado' })).closest('section')!);
    await new Promise((r) => setTimeout(r, 50));
    expect(first).toBe(false); // loading: nothing said yet
    answer();
    expect(await devices.findByText('4700')).toBeTruthy();
    // The figures are committed: a sign-in's held steps may go on (shared/lib/first-screen.ts).
    await waitFor(() => expect(first).toBe(true));
    expect(devices.getByText(/5000 dispositivos/)).toBeTruthy();
    const incidents = within(screen.getByRole('heading', { name: 'Incidentes abiertos por severidad' }).closest('section')!);
    expect(incidents.getByText(/1234 incidentes abiertos/)).toBeTruthy();
    expect(screen.getByTestId('kpi-alarms').textContent).toBe('1200');
    expect(screen.getByTestId('kpi-o365').textContent).toBe('1100');
    expect(screen.getByTestId('kpi-availability').textContent).toBe('99,87 %');
    // The dashboard never pages through a whole list: one summary, one page of alarms, one of incidents.
    const ops = api.call.mock.calls.map(([op]) => op).filter((op) => op !== 'getMe');
    expect(new Set(ops)).toEqual(new Set(['getSummary', 'listAlarms', 'listIncidents']));
    expect(api.call).toHaveBeenCalledWith('listAlarms', { query: { tenant: 'acme', state: 'active,acknowledged', limit: 5 } });
  });

  it('with the summary already cached (the sign-in prefetch), commits the figures first and draws the charts in a later pass', async () => {
    const api = fakeApi({ getMe: ME_ACME, getSummary: BIG, listAlarms: { items: [], nextCursor: null }, listIncidents: { items: [], nextCursor: null } });
    const commits: Array<{ figures: boolean; chart: boolean }> = [];
    const onRender = () => {
      const devices = document.querySelector('section[aria-labelledby="kpi-devices"]');
      commits.push({ figures: !!devices?.textContent?.includes('4700'), chart: !!document.querySelector('section[aria-labelledby="chart-trend"] figure') });
    };
    renderSignedIn(
      <Profiler id="dashboard" onRender={onRender}>
        <DashboardPage />
      </Profiler>,
      { api, cached: { [unstable_serialize(['getMe', {}])]: ME_ACME, [unstable_serialize(['getSummary', { query: { tenant: 'acme' } }])]: BIG } },
    );
    await waitFor(() => expect(document.querySelector('section[aria-labelledby="chart-trend"] figure')).not.toBeNull());
    expect(commits[0]).toEqual({ figures: true, chart: false });
    expect(commits.some((c) => c.chart)).toBe(true);
  });

  it('names the device of each latest alarm by its name (its id only for an alarm stored before names were copied)', async () => {
    const { deviceName: _none, ...withoutName } = anAlarm({ id: 'a-2', deviceId: 'dev-008' });
    const items = [anAlarm({ id: 'a-1', deviceId: 'dev-007', deviceName: 'Firewall Madrid' }), withoutName];
    const api = fakeApi({ getMe: ME_ACME, getSummary: BIG, listAlarms: { items, nextCursor: null }, listIncidents: { items: [], nextCursor: null } });
    renderSignedIn(<DashboardPage />, { api });
    expect((await screen.findByRole('link', { name: 'Firewall Madrid' })).getAttribute('href')).toMatch(/dev-007/);
    expect(screen.queryByRole('link', { name: 'dev-007' })).toBeNull();
    expect(screen.getByRole('link', { name: 'dev-008' })).toBeTruthy();
  });

  it('says every device meets the availability target when none is below it', async () => {
    const api = fakeApi({
      getMe: ME_ACME,
      getSummary: { ...BIG, availability: { ...BIG.availability, belowSla: [] } },
      listAlarms: { items: [], nextCursor: null },
      listIncidents: { items: [], nextCursor: null },
    });
    renderSignedIn(<DashboardPage />, { api });
    expect(await screen.findByText('Todos los dispositivos cumplen el objetivo de disponibilidad (99,5 %) a 30 días.')).toBeTruthy();
  });

  it('turns the summary series into trend points and totals', () => {
    expect(incidentTrend(BIG.days)).toEqual([
      { date: '2026-03-29', critical: 0, high: 2, medium: 0, low: 0 },
      { date: '2026-03-30', critical: 1, high: 0, medium: 0, low: 0 },
    ]);
    expect(trendTotal(BIG.days)).toBe(3);
  });

  it('lists the latest updated incidents once each', () => {
    const inc = (id: string, updatedAt: string) => ({ id, updatedAt }) as Incident;
    const latest = latestUpdates([[inc('A', '2026-03-02T00:00:00Z'), inc('B', '2026-03-05T00:00:00Z')], [inc('A', '2026-03-02T00:00:00Z'), inc('C', '2026-03-01T00:00:00Z')]], 2);
    expect(latest.map((i) => i.id)).toEqual(['B', 'A']);
  });
});
