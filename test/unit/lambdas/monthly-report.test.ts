import { describe, expect, it } from 'vitest';
import type { ReportFigures } from '../../../lambdas/contract/schemas.js';
import { ApiError } from '../../../lambdas/domain/errors.js';
import { monthlyReport, monthPeriod, monthsEnding, renderMonthlyReportPdf, reportMonth, winAnsi, type MonthlyReport } from '../../../lambdas/domain/monthly-report.js';
import { dayCountersOf, openIncidentsOfDay } from '../../../lambdas/data/aggregates.js';
import { pdfText } from '../../support/pdf-text.js';

const figures = (over: Partial<{ total: number; compliance: number | null; fleet: number | null }> = {}): ReportFigures => ({
  period: monthPeriod('2026-10'),
  incidents: {
    total: over.total ?? 7,
    bySeverity: { critical: 2, high: 3, medium: 1, low: 1 },
    byStatus: { new: 1, in_progress: 1, on_hold: 0, resolved: 3, closed: 2 },
  },
  mttaMinutes: 12.5,
  mttrMinutes: 245,
  sla: { resolved: 5, resolvedWithinSla: 4, compliancePct: over.compliance === undefined ? 80 : over.compliance, openBreached: 1 },
  availability: { slaTargetPct: 99.5, fleetPct: over.fleet === undefined ? 99.87 : over.fleet, belowSla: [{ tenantId: 'acme', deviceId: 'dev-1', name: 'Cortafuegos Sevilla', availability30d: 97.25 }] },
  topAlarms: [
    { title: 'Intento de acceso SSH fallido', count: 41, highestSeverity: 'high' },
    { title: 'CPU alta en el cortafuegos', count: 9, highestSeverity: 'medium' },
  ],
});

const report: MonthlyReport = {
  tenantId: 'acme',
  tenantName: 'Acme Logística España',
  month: '2026-10',
  generatedAt: '2026-11-01T06:00:00.000Z',
  figures: figures(),
  slaBySeverity: {
    critical: { resolved: 2, met: 1, breached: 1, compliancePct: 50 },
    high: { resolved: 3, met: 3, breached: 0, compliancePct: 100 },
    medium: { resolved: 0, met: 0, breached: 0, compliancePct: null },
    low: { resolved: 3, met: 2, breached: 1, compliancePct: 66.67 },
  },
  trend: monthsEnding('2026-10', 6).map((month, i) => ({ month, figures: figures({ total: i * 3, compliance: i === 0 ? null : 70 + i * 2, fleet: 99 + i / 10 }) })).map((m, i, a) => (i === a.length - 1 ? { ...m, figures: figures() } : m)),
};

describe('renderMonthlyReportPdf', () => {
  it('renders every section in Spanish with accents, ñ, ¿ intact', async () => {
    const bytes = await renderMonthlyReportPdf(report, 'es');
    expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    const { pages, strings } = await pdfText(bytes);
    expect(pages).toBeGreaterThanOrEqual(1);
    const all = strings.join('\n');
    for (const s of [
      'Informe mensual de seguridad',
      'Cliente: Acme Logística España (acme)',
      'Resumen ejecutivo',
      'Incidentes por severidad',
      'crítica',
      'Cumplimiento del SLA',
      'Tiempos de respuesta',
      'Disponibilidad de la flota',
      'Cortafuegos Sevilla',
      'Alarmas más frecuentes',
      'Intento de acceso SSH fallido',
      'Evolución de los últimos meses',
      'mayo 2026',
      'octubre 2026',
    ]) expect(all).toContain(s);
    expect(all).toContain('¿Alertas');
    expect(all).toMatch(/80 %/);
    expect(all).toMatch(/12,5 min/);
    // The trend: six months, oldest first.
    // SLA per severity: severity, met, breached, % on one row each, in severity order.
    const at = strings.indexOf('Cumplimiento del SLA por severidad');
    expect(at).toBeGreaterThan(0);
    expect(strings.slice(at + 1, at + 21)).toEqual(['Severidad', 'Cumplidos', 'Incumplidos', '%', 'crítica', '1', '1', '50 %', 'alta', '3', '0', '100 %', 'media', '0', '0', 'sin datos', 'baja', '2', '1', '66,67 %']);
    const monthRows = strings.filter((s) => /^(mayo|junio|julio|agosto|septiembre|octubre) 2026$/.test(s));
    expect(monthRows).toEqual(['mayo 2026', 'junio 2026', 'julio 2026', 'agosto 2026', 'septiembre 2026', 'octubre 2026']);
  });

  it('renders the English texts for an English reader', async () => {
    const { strings } = await pdfText(await renderMonthlyReportPdf(report, 'en'));
    const all = strings.join('\n');
    for (const s of ['Monthly security report', 'Executive summary', 'Incidents by severity', 'critical', 'SLA compliance', 'MTTA (mean time to acknowledge)', 'Top alarms', 'SLA compliance by severity', 'Breached', 'Trend over the last months', 'October 2026', '12.5 min']) expect(all).toContain(s);
    expect(all).not.toContain('Resumen ejecutivo');
  });

  it('stays well under the 6 MB Lambda response limit and adds pages for long content', async () => {
    const long = { ...report, figures: { ...report.figures, topAlarms: Array.from({ length: 10 }, (_, i) => ({ title: `Alarma ${i} ${'x'.repeat(200)}`, count: 1000 - i, highestSeverity: 'low' as const })) } };
    const many = { ...long, figures: { ...long.figures, availability: { ...long.figures.availability, belowSla: Array.from({ length: 10 }, (_, i) => ({ tenantId: 'acme', deviceId: `d${i}`, name: `Dispositivo ${i}`, availability30d: 90 + i / 10 })) } } };
    const bytes = await renderMonthlyReportPdf(many, 'es');
    expect(bytes.byteLength).toBeLessThan(100_000);
    expect((await pdfText(bytes)).pages).toBe(2);
  });

  it('replaces characters the standard font cannot encode instead of failing', async () => {
    expect(winAnsi('Ñandú → ok ¡sí! € 中')).toBe('Ñandú ? ok ¡sí! € ?');
    const { strings } = await pdfText(await renderMonthlyReportPdf({ ...report, tenantName: 'Zürich → 東京' }, 'es'));
    expect(strings.join('\n')).toContain('Zürich ? ??');
  });
});

describe('report months', () => {
  const now = new Date('2026-11-28T12:00:00Z');
  it('accepts past months and the current one, refuses bad and future ones with VALIDATION_FAILED', () => {
    expect(reportMonth('2026-11', now)).toBe('2026-11');
    expect(reportMonth('2025-12', now)).toBe('2025-12');
    for (const m of ['2026-13', '2026-00', '2026-1', '2026-12', '2027-01', 'x']) {
      expect(() => reportMonth(m, now)).toThrow(ApiError);
      try {
        reportMonth(m, now);
      } catch (e) {
        expect((e as ApiError).code).toBe('VALIDATION_FAILED');
      }
    }
  });
  it('periods and month sequences cross years and leap Februaries', () => {
    expect(monthPeriod('2028-02')).toEqual({ from: '2028-02-01T00:00:00.000Z', to: '2028-02-29T23:59:59.999Z' });
    expect(monthsEnding('2026-02', 4)).toEqual(['2025-11', '2025-12', '2026-01', '2026-02']);
  });
  it('monthlyReport reads the months of the trend in ONE call, a period per month, and gives each month its own inputs', async () => {
    const calls: { from: string; to: string }[][] = [];
    const inputs = (from: string) => ({ tenantId: 'acme', wholeDays: [{ 'c#h': Number(from.slice(5, 7)) }], wholeHours: [], boundaryBreached: 0, partialIncidents: [], partialAlarms: [], availabilityDays: [], belowSla: [] });
    const port = { loadPeriodsAggregates: async (_t: string, periods: readonly { from: string; to: string }[]) => (calls.push([...periods]), periods.map((p) => inputs(p.from))) };
    const r = await monthlyReport(port, { id: 'acme', name: 'Acme' }, '2026-03', now);
    expect(r.trend.map((m) => m.month)).toEqual(['2025-10', '2025-11', '2025-12', '2026-01', '2026-02', '2026-03']);
    expect(calls).toHaveLength(1);
    expect(calls[0]![0]).toEqual({ from: '2025-10-01T00:00:00.000Z', to: '2025-10-31T23:59:59.999Z' });
    expect(calls[0]).toEqual(r.trend.map((m) => monthPeriod(m.month)));
    // Month n's figures from the n-th inputs: high incidents = the month's number.
    expect(r.trend.map((m) => m.figures.incidents.bySeverity.high)).toEqual([10, 11, 12, 1, 2, 3]);
    expect(r.figures.incidents.total).toBe(3);
  });
  it('monthlyReport sums the SLA per severity of whole days, whole hours and the partial hours\' incidents', async () => {
    const inc = (severity: 'critical' | 'low', resolvedAt: string, slaDueAt: string) =>
      ({ id: 'INC-000001', tenantId: 'acme', severity, status: 'resolved', createdAt: '2026-03-31T23:30:00.000Z', firstAcknowledgedAt: null, resolvedAt, slaDueAt, slaResult: null }) as never;
    const data = {
      tenantId: 'acme',
      wholeDays: [{ 'q#c': 3, 'k#c': 2, 'q#h': 1, 'k#h': 1 }, { 'q#c': 1 }],
      wholeHours: [{ 'q#l': 2, 'k#l': 2 }],
      boundaryBreached: 0,
      partialIncidents: [inc('low', '2026-03-31T23:50:00.000Z', '2026-04-01T00:00:00.000Z'), inc('critical', '2026-04-02T00:00:00.000Z', '2026-04-01T00:00:00.000Z')],
      partialAlarms: [],
      availabilityDays: [],
      belowSla: [],
    };
    const r = await monthlyReport({ loadPeriodsAggregates: async (_t, periods) => periods.map(() => data as never) }, { id: 'acme', name: 'Acme' }, '2026-03', now);
    expect(r.slaBySeverity).toEqual({
      critical: { resolved: 5, met: 2, breached: 3, compliancePct: 40 },
      high: { resolved: 1, met: 1, breached: 0, compliancePct: 100 },
      medium: { resolved: 0, met: 0, breached: 0, compliancePct: null },
      low: { resolved: 3, met: 3, breached: 0, compliancePct: 100 },
    });
  });
});

describe('the unresolved incidents a day item names (the boundary hours of the monthly report)', () => {
  it('reads each `o…` attribute as its incident id and SLA due hour — the hour `dayCountersOf` counts it in', () => {
    // INC-000123, due 23:00 on the item's day, in_progress (1); `X-9`, due 02:00 the next day, new (0); a counter and a key are not incidents.
    const item = { PK: 'TENANT#acme#DAYS', SK: 'DAY#2026-10-31', o123: 23 * 8 + 1, 'o#X-9': 26 * 8, ch: 2 };
    expect(openIncidentsOfDay(item, '2026-10-31')).toEqual([
      { id: 'INC-000123', date: '2026-10-31', hour: '2026-10-31T23' },
      { id: 'X-9', date: '2026-10-31', hour: '2026-11-01T02' },
    ]);
    const c = dayCountersOf(item, '2026-10-31');
    expect(c['d#26103123']).toBe(1);
    expect(c['d#26110102']).toBe(1);
    // An item of the layout before AGGREGATES_VERSION 4 counts its due hours without naming the incidents.
    expect(openIncidentsOfDay({ 'd#26103123': 2, sn: 2 }, '2026-10-31')).toEqual([]);
  });
});
