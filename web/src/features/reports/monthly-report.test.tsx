/** The monthly report panel on "Informes": the 12-month SLA table and "Descargar PDF" saving the server's PDF. */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fakeApi, ME_ACME, renderSignedIn } from '../../shared/lib/test-utils';
import { MonthlyReportPanel } from './MonthlyReportPanel';

const months = Array.from({ length: 12 }, (_, i) => ({ month: `2026-${String(i + 1).padStart(2, '0')}`, resolved: i, resolvedWithinSla: i, compliancePct: i === 0 ? null : 100 }));

describe('MonthlyReportPanel', () => {
  it('shows 12 months of SLA compliance and downloads the PDF of the chosen month', async () => {
    const getMonthlyReport = vi.fn(async () => ({ fileName: 'vigia-acme-2026-10.pdf', contentType: 'application/pdf' as const, base64: btoa('%PDF-1.7'), size: 8, slaBySeverity: Object.fromEntries(['critical', 'high', 'medium', 'low'].map((s) => [s, { resolved: 0, met: 0, breached: 0, compliancePct: null }])) as never, maintenance: { windows: 2, minutes: 120 } }));
    const getSlaHistory = vi.fn(async () => ({ months }));
    const createObjectURL = vi.fn(() => 'blob:x');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    renderSignedIn(<MonthlyReportPanel tenant="acme" />, { api: fakeApi({ getMe: ME_ACME, getSlaHistory, getMonthlyReport }) });
    expect(await screen.findByText('2026-12')).toBeTruthy();
    expect(screen.getAllByRole('row')).toHaveLength(13);
    // At 375 px the table scrolls inside its own focusable region, not the page.
    expect(screen.getByRole('region', { name: /SLA/ }).querySelector('table')).toBeTruthy();
    expect(screen.getByText('Sin resueltos')).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/Mes/), { target: { value: '2026-10' } });
    fireEvent.click(screen.getByRole('button', { name: 'Descargar PDF' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(getMonthlyReport).toHaveBeenCalledWith({ params: { month: '2026-10' }, query: { tenant: 'acme', lang: 'es' } });
    const blob = (createObjectURL.mock.calls[0] as unknown as [Blob])[0];
    expect(blob.type).toBe('application/pdf');
    expect(blob.size).toBe(8);
    // The maintenance line the PDF prints (docs/sla.md#maintenance-windows).
    expect(await screen.findByText('2 ventanas de mantenimiento excluidas (120 min)')).toBeTruthy();
    click.mockRestore();
  });
});
