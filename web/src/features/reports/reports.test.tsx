/**
 * `/reports/general` (docs/portal.md#report-periods): a preset period ends at "now" on every request — a
 * report left open shows what changed after "Actualizar", after the window regains focus, or on its own
 * every minute — and a custom range whose "Desde" is after its "Hasta" is refused with a message, as in the
 * incident list and the audit log.
 */
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CallInput } from '../../shared/lib/api';
import type { Report } from '../../shared/lib/contract';
import { fakeApi, ME_ACME, renderSignedIn } from '../../shared/lib/test-utils';
import { dateRangeMessage } from '../../shared/ui/DateRange';
import { ReportsPage } from './ReportsPage';

const T1 = Date.parse('2026-03-31T10:20:30.000Z');
const MIN = 60_000;

/** A report whose figures count the incidents created up to `to`: one before T1 + 2 min, two after. */
function answer(input: CallInput<'getReport'>): Report {
  const { from, to } = input.query as { from: string; to: string };
  const total = Date.parse(to) >= T1 + 2 * MIN ? 2 : 1;
  return {
    tenantId: 'acme',
    generatedAt: to,
    period: { from, to },
    incidents: { total, bySeverity: { critical: total, high: 0, medium: 0, low: 0 }, byStatus: { new: total, in_progress: 0, on_hold: 0, resolved: 0, closed: 0 } },
    mttaMinutes: null,
    mttrMinutes: null,
    sla: { resolved: 0, resolvedWithinSla: 0, compliancePct: null, openBreached: 0 },
    availability: { slaTargetPct: 99.5, fleetPct: null, belowSla: [] },
    topAlarms: [],
  };
}

function setup(path = '/reports/general?days=30') {
  const getReport = vi.fn(answer);
  renderSignedIn(<ReportsPage />, { path, api: fakeApi({ getMe: ME_ACME, getReport, getSlaHistory: async () => ({ months: [] }) }) });
  return getReport;
}

const incidentsKpi = () => screen.getByText('Incidentes', { selector: '.kpi-row span' }).nextElementSibling?.textContent;

afterEach(() => vi.restoreAllMocks());

describe('report period follows now', () => {
  it('"Actualizar" asks again with the end moved to the current minute and shows the new figures', async () => {
    const now = vi.spyOn(Date, 'now').mockReturnValue(T1);
    const getReport = setup();
    await waitFor(() => expect(incidentsKpi()).toBe('1'));
    expect(getReport).toHaveBeenLastCalledWith({ query: { tenant: 'acme', from: '2026-03-02T00:00:00.000Z', to: '2026-03-31T10:20:00.000Z' } });

    // An incident arrives at T1 + 2 min; the user clicks "Actualizar" at T1 + 5 min.
    now.mockReturnValue(T1 + 5 * MIN);
    fireEvent.click(screen.getByRole('button', { name: 'Actualizar' }));
    await waitFor(() => expect(incidentsKpi()).toBe('2'));
    expect(getReport).toHaveBeenLastCalledWith({ query: { tenant: 'acme', from: '2026-03-02T00:00:00.000Z', to: '2026-03-31T10:25:00.000Z' } });
  });

  it('revalidates with a new end when the window regains focus', async () => {
    const now = vi.spyOn(Date, 'now').mockReturnValue(T1);
    const getReport = setup('/reports/general?days=7');
    await waitFor(() => expect(incidentsKpi()).toBe('1'));
    now.mockReturnValue(T1 + 10 * MIN);
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    await waitFor(() => expect(incidentsKpi()).toBe('2'));
    expect(getReport).toHaveBeenLastCalledWith({ query: { tenant: 'acme', from: '2026-03-25T00:00:00.000Z', to: '2026-03-31T10:30:00.000Z' } });
  });
});

describe('presets are whole UTC days ending today', () => {
  it('"7 días" asks from 00:00 UTC of today − 6 (7 calendar days, the days the API counts) to now', async () => {
    vi.spyOn(Date, 'now').mockReturnValue(T1);
    const getReport = setup();
    await waitFor(() => expect(getReport).toHaveBeenCalledTimes(1));
    fireEvent.click(screen.getByRole('button', { name: '7 días' }));
    await waitFor(() => expect(getReport).toHaveBeenCalledTimes(2));
    expect(getReport).toHaveBeenLastCalledWith({ query: { tenant: 'acme', from: '2026-03-25T00:00:00.000Z', to: '2026-03-31T10:20:00.000Z' } });
  });
});

describe('custom range', () => {
  it('refuses "Desde" after "Hasta" with a message and keeps the period; a valid range is applied', async () => {
    vi.spyOn(Date, 'now').mockReturnValue(T1);
    const getReport = setup();
    await waitFor(() => expect(getReport).toHaveBeenCalledTimes(1));
    fireEvent.change(screen.getByLabelText('Desde'), { target: { value: '2026-03-10' } });
    fireEvent.change(screen.getByLabelText('Hasta'), { target: { value: '2026-03-01' } });
    expect(screen.getByRole('alert').textContent).toBe(dateRangeMessage());
    expect(screen.getByLabelText('Desde').getAttribute('aria-invalid')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Aplicar fechas' }));
    expect(screen.getByRole('alert').textContent).toBe(dateRangeMessage());
    expect(screen.getByRole('button', { name: '30 días' }).getAttribute('aria-pressed')).toBe('true');
    expect(getReport).toHaveBeenCalledTimes(1);

    fireEvent.change(screen.getByLabelText('Hasta'), { target: { value: '2026-03-12' } });
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Aplicar fechas' }));
    await waitFor(() => expect(getReport).toHaveBeenCalledTimes(2));
    expect(getReport).toHaveBeenLastCalledWith({ query: { tenant: 'acme', from: new Date(2026, 2, 10).toISOString(), to: new Date(2026, 2, 12, 23, 59, 59, 999).toISOString() } });
    expect(screen.getByRole('button', { name: '30 días' }).getAttribute('aria-pressed')).toBe('false');
  });

  it('asks for both dates when one is empty', () => {
    setup();
    fireEvent.change(screen.getByLabelText('Desde'), { target: { value: '2026-03-10' } });
    fireEvent.click(screen.getByRole('button', { name: 'Aplicar fechas' }));
    expect(screen.getByRole('alert').textContent).toContain('Indica las dos fechas');
  });
});

/** Clicks `button` and returns the bytes and name of the file `downloadCsv` offered. */
async function download(name: string): Promise<{ filename: string; bytes: Uint8Array }> {
  let blob: Blob | null = null;
  Object.assign(URL, { createObjectURL: vi.fn((b: Blob) => ((blob = b), 'blob:x')), revokeObjectURL: vi.fn() });
  let filename = '';
  const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    filename = this.download;
  });
  fireEvent.click(screen.getByRole('button', { name }));
  click.mockRestore();
  expect(blob).not.toBeNull();
  const buf = await new Promise<ArrayBuffer>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(blob!);
  });
  return { filename, bytes: new Uint8Array(buf) };
}

const utf8 = (s: string) => new TextEncoder().encode(s);
const startsWith = (bytes: Uint8Array, prefix: Uint8Array) => prefix.every((b, i) => bytes[i] === b);
const textOf = (bytes: Uint8Array) => new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);

describe('CSV for Spanish Excel', () => {
  const withDevices = (input: CallInput<'getReport'>): Report => ({
    ...answer(input),
    mttaMinutes: 42.4,
    availability: { slaTargetPct: 99.5, fleetPct: 99.12, belowSla: [{ tenantId: 'acme', deviceId: 'fw-1', name: 'FW; sede', availability30d: 95.31 }] },
  });

  afterEach(() => {
    document.documentElement.lang = '';
  });

  it('"CSV (Excel)" in Spanish: UTF-8 BOM, ";" separator, decimal comma; "Descargar CSV" stays RFC 4180', async () => {
    vi.spyOn(Date, 'now').mockReturnValue(T1);
    document.documentElement.lang = 'es';
    renderSignedIn(<ReportsPage />, { path: '/reports/general?days=30', api: fakeApi({ getMe: ME_ACME, getReport: withDevices }) });
    await waitFor(() => expect((screen.getByRole('button', { name: 'CSV (Excel)' }) as HTMLButtonElement).disabled).toBe(false));

    const excel = await download('CSV (Excel)');
    expect(excel.filename).toBe('informe-acme-2026-03-02-2026-03-31-excel.csv');
    expect(startsWith(excel.bytes, new Uint8Array([0xef, 0xbb, 0xbf]))).toBe(true);
    expect(startsWith(excel.bytes.subarray(3), utf8('Indicador;Valor\r\nInforme;Informe ACME 2026-03-02 – 2026-03-31\r\n'))).toBe(true);
    const text = textOf(excel.bytes.subarray(3));
    expect(text).toContain('\r\nObjetivo de disponibilidad (%);99,5');
    expect(text).toContain('Dispositivo;ID;Disponibilidad 30 días (%)\r\n"FW; sede";fw-1;95,31');
    expect(text).toContain('\r\nMTTA (min);42\r\n');
    expect(text).not.toMatch(/(^|;)-?\d+\.\d+(;|\r|$)/m); // no number with a decimal point

    const standard = await download('Descargar CSV');
    expect(standard.filename).toBe('informe-acme-2026-03-02-2026-03-31.csv');
    expect(startsWith(standard.bytes, new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('Indicador,Valor\r\n')]))).toBe(true);
    expect(textOf(standard.bytes.subarray(3))).toContain('Dispositivo,ID,Disponibilidad 30 días (%)\r\nFW; sede,fw-1,95.31');
  });

  it('in English the Excel variant uses the comma and decimal point that English Excel expects', async () => {
    vi.spyOn(Date, 'now').mockReturnValue(T1);
    document.documentElement.lang = 'en';
    renderSignedIn(<ReportsPage />, { path: '/reports/general?days=30', api: fakeApi({ getMe: ME_ACME, getReport: withDevices }) });
    await waitFor(() => expect((screen.getByRole('button', { name: 'CSV (Excel)' }) as HTMLButtonElement).disabled).toBe(false));
    const excel = await download('CSV (Excel)');
    expect(startsWith(excel.bytes, new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('Indicador,Valor\r\n')]))).toBe(true);
    expect(textOf(excel.bytes.subarray(3))).toContain('\r\nFW; sede,fw-1,95.31');
  });
});

describe('availability section', () => {
  it("shows the fleet's availability in the period and the devices below the target, each linked to its page", async () => {
    const report = (input: CallInput<'getReport'>): Report => ({
      ...answer(input),
      availability: { slaTargetPct: 99.5, fleetPct: 99.12, belowSla: [{ tenantId: 'acme', deviceId: 'fw-1', name: 'FW sede', availability30d: 95.31 }] },
    });
    renderSignedIn(<ReportsPage />, { path: '/reports/general?days=30', api: fakeApi({ getMe: ME_ACME, getReport: report }) });
    expect((await screen.findByTestId('report-fleet-availability')).textContent).toBe('99,12 %');
    expect(screen.getByRole('heading', { name: 'Disponibilidad (objetivo 99,5 %)' })).toBeTruthy();
    const link = screen.getByRole('link', { name: 'FW sede' });
    expect(link.getAttribute('href')).toBe('/devices/detail/fw-1?tenant=acme');
    expect(screen.getByText('95,31 %')).toBeTruthy();
  });
});
