import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { anIncident, fakeApi, ME_ACME, renderSignedIn } from '../../shared/lib/test-utils';
import type { Incident, Summary } from '../../shared/lib/contract';
import { CalendarPage, MONTH_PAGE } from './CalendarPage';

const zero = { critical: 0, high: 0, medium: 0, low: 0 };
const incident = (n: number): Incident =>
  anIncident({
    id: `INC-${String(n).padStart(6, '0')}`,
    title: `Incidente ${n}`,
    description: 'd',
    category: 'general',
    reporterSub: 'u-1',
    createdAt: '2026-03-10T10:00:00.000Z',
    updatedAt: '2026-03-10T10:00:00.000Z',
    slaDueAt: '2026-03-10T18:00:00.000Z',
  });

describe('calendar of a big tenant', () => {
  it("counts every event of a day from the summary and reads one page of the month's items", async () => {
    const summary = (input: { query?: { from?: string; to?: string } }): Summary => ({
      tenantId: 'acme',
      generatedAt: '2026-03-31T00:00:00.000Z',
      incidents: { open: 0, openBySeverity: zero, byStatus: { new: 0, in_progress: 0, on_hold: 0, resolved: 0, closed: 0 } },
      alarms: { open: 0, openBySeverity: zero, active: 0, acknowledged: 0 },
      office365: { alarmsByStatus: { active: 0, investigating: 0, resolved: 0 } },
      devices: { total: 0, byStatus: { online: 0, degraded: 0, offline: 0, unknown: 0 } },
      availability: { pct30d: null, slaTargetPct: 99.5, belowSla: [] },
      days: [
        { date: input.query!.from!, incidentsCreated: zero, alarmsRaised: zero },
        { date: '2026-03-10', incidentsCreated: { ...zero, high: 240 }, alarmsRaised: { ...zero, low: 10 } },
      ],
    });
    const api = fakeApi({
      getMe: ME_ACME,
      getSummary: summary,
      listIncidents: { items: [incident(1), incident(2), incident(3), incident(4)], nextCursor: 'eyJzIjoieCJ9' },
      listAlarms: { items: [], nextCursor: null },
    });
    renderSignedIn(
      <Routes>
        <Route path="/calendar" element={<CalendarPage />} />
      </Routes>,
      { path: '/calendar?month=2026-03', api },
    );
    const cell = within((await screen.findByText('250 eventos')).closest('td')!);
    // Three items named, the rest counted.
    expect(cell.getAllByRole('link')).toHaveLength(3);
    expect(cell.getByText('+247 más')).toBeTruthy();
    expect(screen.getByTestId('calendar-more').textContent).toContain(`Se muestran los primeros ${MONTH_PAGE} incidentes`);
    // The summary is asked for March's days; the grid's February and April days show nothing.
    expect(api.call).toHaveBeenCalledWith('getSummary', { query: { tenant: 'acme', from: '2026-03-01', to: '2026-03-31' } });
    expect(screen.getAllByText(/eventos?$/)).toHaveLength(1);
    expect(api.call.mock.calls.filter(([op]) => op === 'listIncidents')).toHaveLength(1);
  });
});
