/**
 * `/analytics` one page of customers at a time (docs/api.md#analytics): "Cargar más" asks for the next page
 * of the first page's period with its cursor; the totals are shown only when the API sends them (every
 * customer on one page); with more pages the screen says so; no customer at all is the empty state.
 */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { CallInput } from '../../shared/lib/api';
import type { Analytics, ReportFigures } from '../../shared/lib/contract';
import { fakeApi, renderSignedIn } from '../../shared/lib/test-utils';
import { AnalyticsPage } from './AnalyticsPage';

const ADMIN_ME = { sub: 'a-1', email: 'admin@vigia.test', groups: ['admin'], isAdmin: true, tenants: [{ id: 'acme', name: 'ACME' }] };
const PERIOD = { from: '2026-03-02T00:00:00.000Z', to: '2026-03-31T23:59:59.999Z' };
const figures = (incidents: number): ReportFigures => ({
  period: PERIOD,
  incidents: { total: incidents, bySeverity: { critical: incidents, high: 0, medium: 0, low: 0 }, byStatus: { new: incidents, in_progress: 0, on_hold: 0, resolved: 0, closed: 0 } },
  mttaMinutes: null,
  mttrMinutes: null,
  sla: { resolved: 0, resolvedWithinSla: 0, compliancePct: null, openBreached: 0 },
  availability: { slaTargetPct: 99.5, fleetPct: 99.9, belowSla: [] },
  topAlarms: [],
});
const row = (n: number) => ({ tenantId: `t-${n}`, tenantName: `Cliente ${n}`, ...figures(n) });
const page = (rows: number[], nextCursor: string | null, totals: boolean): Analytics => ({
  generatedAt: '2026-03-31T10:20:00.000Z',
  period: PERIOD,
  totals: totals ? figures(rows.reduce((a, b) => a + b, 0)) : null,
  tenants: rows.map(row),
  nextCursor,
});

describe('analytics pages', () => {
  it('"Cargar más" shows the next customers of the same period; no totals over several pages', async () => {
    const getAnalytics = vi.fn(({ query }: CallInput<'getAnalytics'>) => ((query as { cursor?: string }).cursor === 'c2' ? page([3, 4], null, false) : page([1, 2], 'c2', false)));
    renderSignedIn(<AnalyticsPage />, { path: '/analytics?days=30', user: { email: 'admin@vigia.test', groups: ['admin'] }, api: fakeApi({ getMe: ADMIN_ME, getAnalytics }) });
    expect(await screen.findByText('Cliente 2')).toBeTruthy();
    expect(screen.queryByText('Cliente 3')).toBeNull();
    expect(screen.getByText(/Los totales de todos los clientes se muestran cuando caben en una página/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cargar más' }));
    expect(await screen.findByText('Cliente 4')).toBeTruthy();
    expect(getAnalytics).toHaveBeenLastCalledWith({ query: { ...PERIOD, cursor: 'c2' } });
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Cargar más' })).toBeNull());
    expect(screen.getByText('4 clientes mostrados')).toBeTruthy();
  });

  it('shows the totals when every customer is on the first page, and the empty state without customers', async () => {
    renderSignedIn(<AnalyticsPage />, { path: '/analytics', user: { email: 'admin@vigia.test', groups: ['admin'] }, api: fakeApi({ getMe: ADMIN_ME, getAnalytics: page([1, 2], null, true) }) });
    expect(await screen.findByText('Cliente 1')).toBeTruthy();
    expect(screen.queryByText(/Los totales de todos los clientes se muestran/)).toBeNull();
  });

  it('says there are no customers', async () => {
    renderSignedIn(<AnalyticsPage />, { path: '/analytics', user: { email: 'admin@vigia.test', groups: ['admin'] }, api: fakeApi({ getMe: ADMIN_ME, getAnalytics: page([], null, true) }) });
    expect(await screen.findByText('No hay clientes.')).toBeTruthy();
  });
});
