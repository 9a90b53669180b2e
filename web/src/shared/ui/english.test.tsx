/**
 * The shared components and the API client's messages in English (docs/portal.md#messages): with English
 * chosen, none of the `ui` section's Spanish texts is shown and dates/numbers use the English locale.
 */
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../lib/api';
import { formatPercent } from '../lib/format';
import { CATALOGUES, setMessagesLanguage } from '../lib/messages';
import { aReportFigures } from '../lib/test-utils';
import { DateRangeError, DateRangeFields } from './DateRange';
import { EmptyState, ErrorState, NotFoundState } from './states';
import { FiguresSummary, PeriodPicker, reportToCsv } from './report';

const F = aReportFigures({
  mttaMinutes: 42,
  availability: { slaTargetPct: 99.5, fleetPct: 99.8, belowSla: [{ tenantId: 'acme', deviceId: 'fw-1', name: 'FW', availability30d: 99.25 }] },
  topAlarms: [{ title: 'CPU', count: 4, highestSeverity: 'high' }],
});

/** Every string of a catalogue section, flattened. */
function values(node: unknown): string[] {
  return typeof node === 'string' ? [node] : Object.values(node as Record<string, unknown>).flatMap(values);
}

/** The Spanish texts of `ui` that differ from their English version (long enough not to match by chance). */
const SPANISH_ONLY = values(CATALOGUES.es.ui).filter((v, i) => v !== values(CATALOGUES.en.ui)[i] && v.replace(/\{\{\w+\}\}/g, '').trim().length >= 4);

afterEach(() => setMessagesLanguage('es'));

describe('shared components in English', () => {
  it('states, errors, date range, report summary and period picker show the English catalogue', () => {
    setMessagesLanguage('en');
    const { container } = render(
      <MemoryRouter>
        <EmptyState />
        <ErrorState error={new ApiError({ kind: 'client', status: 404, code: 'NOT_FOUND', message: 'x', requestId: 'req-1' })} onRetry={() => {}} />
        <ErrorState error={new ApiError({ kind: 'network', message: 'x' })} />
        <NotFoundState what="Incident" backTo="/incidents/all" backLabel="Back" />
        <DateRangeFields idPrefix="r" from="2026-03-02" to="2026-03-01" onChange={() => {}} />
        <DateRangeError from="2026-03-02" to="2026-03-01" />
        <FiguresSummary f={F} />
        <PeriodPicker params={new URLSearchParams('days=30')} onChange={() => {}} />
      </MemoryRouter>,
    );
    expect(screen.getByText('No records')).toBeTruthy();
    expect(screen.getByText('What you are looking for was not found.')).toBeTruthy();
    expect(screen.getByText('Reference: req-1')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
    expect(screen.getByText('Could not connect to the server. Check your connection and try again.')).toBeTruthy();
    expect(screen.getByText('Incident not found.')).toBeTruthy();
    expect(screen.getAllByLabelText('From')).toHaveLength(2);
    expect(screen.getByText('The "From" date cannot be after the "To" date.')).toBeTruthy();
    expect(screen.getByText('1 of 2 resolved in time')).toBeTruthy();
    expect(screen.getByRole('button', { name: '365 days' })).toBeTruthy();
    expect(screen.getByText('Fleet availability')).toBeTruthy();
    expect(screen.getByText('1 below target (30 days)')).toBeTruthy();
    expect(formatPercent(99.25)).toBe('99.25 %');
    const text = container.textContent ?? '';
    expect(SPANISH_ONLY.filter((v) => text.includes(v.replace(/\{\{\w+\}\}/g, '').trim()))).toEqual([]);
  });

  it('the report CSV has English headers in English and Spanish ones by default', () => {
    setMessagesLanguage('en');
    expect(reportToCsv(F, 'March').split('\r\n')[0]).toBe('Indicator,Value');
    expect(reportToCsv(F, 'March')).toContain('Device,ID,30-day availability (%)\r\nFW,fw-1,99.25');
    setMessagesLanguage('es');
    expect(reportToCsv(F, 'Marzo').split('\r\n')[0]).toBe('Indicador,Valor');
    expect(formatPercent(99.25)).toBe('99,25 %');
  });
});
