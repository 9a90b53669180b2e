/**
 * `/analytics` shares the report period (`useReportSWR`, docs/portal.md#report-periods): a preset of N days
 * asks for exactly N UTC days ending today — from 00:00 UTC of today − (N − 1) to the current minute — the
 * whole UTC days the API counts.
 */
import { waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../shared/lib/api';
import { fakeApi, renderSignedIn } from '../../shared/lib/test-utils';
import { AnalyticsPage } from './AnalyticsPage';

const ADMIN_ME = { sub: 'a-1', email: 'admin@vigia.test', groups: ['admin'], isAdmin: true, tenants: [{ id: 'acme', name: 'ACME' }] };

afterEach(() => vi.restoreAllMocks());

describe('analytics presets', () => {
  it('"7 días" asks from 00:00 UTC of today − 6 to now', async () => {
    vi.spyOn(Date, 'now').mockReturnValue(Date.parse('2026-03-31T10:20:30.000Z'));
    const getAnalytics = vi.fn(() => {
      throw new ApiError({ kind: 'client', status: 403, code: 'FORBIDDEN', message: 'no' });
    });
    renderSignedIn(<AnalyticsPage />, { path: '/analytics?days=7', user: { email: 'admin@vigia.test', groups: ['admin'] }, api: fakeApi({ getMe: ADMIN_ME, getAnalytics }) });
    await waitFor(() => expect(getAnalytics).toHaveBeenCalled());
    expect(getAnalytics).toHaveBeenLastCalledWith({ query: { from: '2026-03-25T00:00:00.000Z', to: '2026-03-31T10:20:00.000Z' } });
  });
});
