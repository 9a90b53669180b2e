/**
 * The monthly report (issue 32 point 5): the report figures of one UTC calendar month and of the months
 * before it (the trend), and their rendering as a PDF in the reader's language (`renderMonthlyReportPdf`).
 * The figures are those of `GET /reports` (`reportFromAggregates`, lambdas/domain/reports.ts) for each month,
 * read from the tenant's day aggregates for all the months together (`monthlyFigures`: ONE
 * `loadPeriodsAggregates`), so the report costs the same bounded requests whatever the tenant's size
 * (docs/data-model.md#reports-from-the-aggregates, docs/api.md#monthly-report).
 *
 * PDF: pdf-lib (MIT, no native dependencies, https://pdf-lib.js.org) with the standard font Helvetica, whose
 * WinAnsi encoding covers Spanish (á é í ó ú ü ñ ¿ ¡ « »); characters outside it are replaced by `?`
 * (`winAnsi`) rather than failing the whole document.
 */
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { SLA_HISTORY_MONTHS, type MonthlyReportFile, type SlaHistory } from '../contract/monthly-report.js';
import type { ReportFigures, Severity } from '../contract/schemas.js';
import { agg, incidentDay, slaBySeverity, sumInto, type Counters, type SeveritySla } from './aggregates.js';
import { SEVERITIES } from '../contract/schemas.js';
import { ApiError } from './errors.js';
import { MESSAGES, type Language } from './messages.js';
import { MONTHLY_REPORT_TEXTS } from './monthly-report-messages.js';
import type { MaintenanceWindowsPort, ReportAggregates, ReportsPort, TenantsPort } from './ports.js';
import { maintenanceOfPeriod } from './maintenance-availability.js';
import { reportFromAggregates } from './reports.js';

/** Months of the trend the PDF shows, the report's month included. */
export const MONTHLY_TREND_MONTHS = 6;

/** A month's report: the figures of `month` and of the `MONTHLY_TREND_MONTHS − 1` months before it. */
export interface MonthlyReport {
  tenantId: string;
  tenantName: string;
  /** `yyyy-mm` (UTC). */
  month: string;
  generatedAt: string;
  figures: ReportFigures;
  /** Resolution-SLA compliance of the month per severity (`slaBySeverity`, every severity present). */
  slaBySeverity: Record<Severity, SeveritySla>;
  /** Oldest first, ending with `month` itself. */
  trend: { month: string; figures: ReportFigures }[];
  /** The month's maintenance windows excluded from availability (`maintenanceOfPeriod`); absent: not read (no line printed). */
  maintenance?: { windows: number; minutes: number };
}

/** `[from, to]` of UTC month `yyyy-mm`: its first millisecond to its last (ISO-8601). */
export function monthPeriod(month: string): { from: string; to: string } {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const end = new Date(Date.UTC(y, m, 1) - 1);
  return { from: `${month}-01T00:00:00.000Z`, to: end.toISOString() };
}

/** The `n` months ending with `month` (`yyyy-mm`), oldest first. */
export function monthsEnding(month: string, n: number): string[] {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return Array.from({ length: n }, (_, i) => new Date(Date.UTC(y, m - 1 - (n - 1 - i), 1)).toISOString().slice(0, 7));
}

/**
 * Checks a report month: `yyyy-mm`, a calendar month (01–12), not after the current UTC month at `now`.
 * @throws ApiError VALIDATION_FAILED (`path.month`)
 */
export function reportMonth(month: string, now: Date): string {
  const bad = (message: string) => new ApiError('VALIDATION_FAILED', 'invalid request path', [{ path: 'path.month', message }]);
  const m = /^(\d{4})-(\d{2})$/.exec(month);
  if (!m || Number(m[2]) < 1 || Number(m[2]) > 12 || Number(m[1]) < 2000) throw bad('a month yyyy-mm');
  if (month > now.toISOString().slice(0, 7)) throw bad('the month has not started yet');
  return month;
}

/**
 * The per-severity SLA counters of one period's aggregates, summed the way `reportFromAggregates` sums the
 * incident counters: whole days, whole hours and the partial hours' incidents (`incidentDay`).
 */
export function periodSlaBySeverity(data: readonly ReportAggregates[]): Record<Severity, SeveritySla> {
  const c: Counters = {};
  for (const d of data) {
    for (const counters of [...d.wholeDays, ...d.wholeHours]) sumInto(c, counters);
    for (const i of d.partialIncidents) sumInto(c, incidentDay(i));
  }
  return slaBySeverity(c);
}

/** One month's figures and its SLA compliance per severity. */
export interface MonthFigures {
  month: string;
  figures: ReportFigures;
  slaBySeverity: Record<Severity, SeveritySla>;
}

/**
 * The figures of `months` (UTC `yyyy-mm`, oldest first) for one tenant at `now`, each the figures `GET /reports`
 * gives for that month alone (`reportFromAggregates` of its `loadAggregates`), read by ONE
 * `loadPeriodsAggregates` of the months' periods (`monthPeriod`): the tenant's day items of all the months in
 * one Query, the devices below the SLA target and the open outages once (they are as of `now`, whatever the
 * month), and the incidents due in the months' boundary hours by BatchGetItem (none usually; 100 a call) — so the six
 * months of the monthly report cost what one month does, whatever the tenant's size
 * (docs/api.md#monthly-report).
 */
export async function monthlyFigures(port: Pick<ReportsPort, 'loadPeriodsAggregates'>, tenantId: string, months: readonly string[], now: Date): Promise<MonthFigures[]> {
  const periods = months.map(monthPeriod);
  const data = await port.loadPeriodsAggregates(tenantId, periods, now);
  return months.map((month, i) => ({ month, figures: reportFromAggregates([data[i]!], periods[i]!, now), slaBySeverity: periodSlaBySeverity([data[i]!]) }));
}

/** The monthly report of tenant `tenantId` for `month` (validated by `reportMonth`) at `now`. */
export async function monthlyReport(port: Pick<ReportsPort, 'loadPeriodsAggregates'>, tenant: { id: string; name: string }, month: string, now: Date): Promise<MonthlyReport> {
  const trend = await monthlyFigures(port, tenant.id, monthsEnding(reportMonth(month, now), MONTHLY_TREND_MONTHS), now);
  const last = trend[trend.length - 1]!;
  return { tenantId: tenant.id, tenantName: tenant.name, month, generatedAt: now.toISOString(), figures: last.figures, slaBySeverity: last.slaBySeverity, trend: trend.map(({ month: m, figures }) => ({ month: m, figures })) };
}

/** File name of a monthly report: `vigia-<tenant>-<yyyy-mm>.pdf`. */
export const monthlyReportFileName = (tenantId: string, month: string) => `vigia-${tenantId}-${month}.pdf`;

// WinAnsi (Windows-1252) beyond Latin-1 that pdf-lib's standard fonts encode.
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/** `s` with every character the standard fonts cannot encode replaced by `?` (control characters by a space). */
export function winAnsi(s: string): string {
  let out = '';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    out += c < 0x20 ? ' ' : (c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xff) || WIN_ANSI_EXTRA.has(ch) ? ch : '?';
  }
  return out;
}

const fill = (t: string, p: Record<string, string | number>) => t.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(p[k] ?? ''));

/**
 * The monthly report as a PDF (A4 portrait, 595 × 842 pt; Helvetica), texts in `language`
 * (`MONTHLY_REPORT_TEXTS`): executive summary, incidents by severity, SLA compliance (resolved, within the
 * SLA, %, open past the SLA; and per severity: met, breached, %), MTTA/MTTR (minutes), availability (fleet %, target %, devices below the
 * target), top alarms, and the trend (incidents, SLA %, availability % and a bar per month). Deterministic
 * for a given report (creation date = `generatedAt`). Pages are added as the content needs them.
 */
export async function renderMonthlyReportPdf(report: MonthlyReport, language: Language): Promise<Uint8Array> {
  const t = MONTHLY_REPORT_TEXTS[language];
  const sev = MESSAGES[language].severity;
  const doc = await PDFDocument.create();
  doc.setTitle(winAnsi(`${t.title} — ${report.tenantName} — ${report.month}`));
  doc.setProducer('Vigía');
  doc.setCreator('Vigía');
  doc.setLanguage(language);
  doc.setCreationDate(new Date(report.generatedAt));
  doc.setModificationDate(new Date(report.generatedAt));
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const W = 595.28;
  const H = 841.89;
  const M = 50;
  let page: PDFPage = doc.addPage([W, H]);
  let y = H - M;
  const ensure = (h: number) => {
    if (y - h < M) {
      page = doc.addPage([W, H]);
      y = H - M;
    }
  };
  const text = (s: string, x: number, size = 10, f: PDFFont = font, color = rgb(0.1, 0.1, 0.1)) => page.drawText(winAnsi(s), { x, y, size, font: f, color });
  const wrap = (s: string, width: number, size: number, f: PDFFont) => {
    const lines: string[] = [];
    let line = '';
    for (const word of winAnsi(s).split(' ')) {
      const candidate = line ? `${line} ${word}` : word;
      if (line && f.widthOfTextAtSize(candidate, size) > width) {
        lines.push(line);
        line = word;
      } else line = candidate;
    }
    if (line) lines.push(line);
    return lines;
  };
  const paragraph = (s: string, size = 10) => {
    for (const line of wrap(s, W - 2 * M, size, font)) {
      ensure(size + 4);
      text(line, M, size);
      y -= size + 4;
    }
  };
  const heading = (s: string) => {
    ensure(40);
    y -= 10;
    text(s, M, 13, bold, rgb(0.05, 0.2, 0.45));
    y -= 18;
  };
  const row = (cells: (string | number)[], xs: number[], f: PDFFont = font) => {
    ensure(14);
    cells.forEach((c, i) => text(String(c), xs[i]!, 10, f));
    y -= 14;
  };
  const pct = (v: number | null) => (v === null ? t.noData : `${v.toLocaleString(language, { maximumFractionDigits: 2 })} %`);
  const mins = (v: number | null) => (v === null ? t.noData : `${v.toLocaleString(language, { maximumFractionDigits: 1 })} ${t.minutes}`);
  const monthName = (m: string) => `${t.monthNames[Number(m.slice(5, 7)) - 1]} ${m.slice(0, 4)}`;
  const f = report.figures;

  text(t.title, M, 20, bold, rgb(0.05, 0.2, 0.45));
  y -= 26;
  text(`${t.tenant}: ${report.tenantName} (${report.tenantId})`, M, 10);
  y -= 14;
  text(`${t.month}: ${monthName(report.month)}  ·  ${t.generatedAt}: ${report.generatedAt.slice(0, 16).replace('T', ' ')} UTC`, M, 10);
  y -= 8;

  heading(t.summaryHeading);
  paragraph(
    fill(t.summary, {
      month: monthName(report.month),
      total: f.incidents.total,
      critical: f.incidents.bySeverity.critical ?? 0,
      compliance: f.sla.compliancePct === null ? t.noResolved : pct(f.sla.compliancePct),
      availability: pct(f.availability.fleetPct),
      target: f.availability.slaTargetPct,
      topAlarm: f.topAlarms[0] ? `${f.topAlarms[0].title} (${f.topAlarms[0].count})` : t.noData,
    }),
  );

  heading(t.severityHeading);
  row([t.severity, t.incidents], [M, M + 200], bold);
  for (const s of SEVERITIES) row([sev[s as Severity], f.incidents.bySeverity[s] ?? 0], [M, M + 200]);
  row([t.total, f.incidents.total], [M, M + 200], bold);

  heading(t.slaHeading);
  const kv = (k: string, v: string | number) => row([k, v], [M, M + 300]);
  kv(t.slaResolved, f.sla.resolved);
  kv(t.slaWithin, f.sla.resolvedWithinSla);
  kv(t.slaCompliance, pct(f.sla.compliancePct));
  kv(t.slaOpenBreached, f.sla.openBreached);

  heading(t.slaBySeverityHeading);
  const sc = [M, M + 150, M + 250, M + 350];
  row([t.severity, t.slaMet, t.slaBreached, '%'], sc, bold);
  for (const s of SEVERITIES) {
    const v = report.slaBySeverity[s as Severity];
    row([sev[s as Severity], v.met, v.breached, pct(v.compliancePct)], sc);
  }

  heading(t.timesHeading);
  kv(t.mtta, mins(f.mttaMinutes));
  kv(t.mttr, mins(f.mttrMinutes));

  heading(t.availabilityHeading);
  kv(t.fleet, pct(f.availability.fleetPct));
  kv(t.target, `${f.availability.slaTargetPct} %`);
  if (report.maintenance) paragraph(fill(report.maintenance.windows === 1 ? t.maintenanceExcludedOne : t.maintenanceExcluded, report.maintenance));
  if (f.availability.belowSla.length === 0) paragraph(t.noneBelowTarget);
  else {
    paragraph(`${t.belowTarget}:`);
    for (const d of f.availability.belowSla) row([d.name, pct(d.availability30d)], [M + 10, M + 300]);
  }

  heading(t.topAlarmsHeading);
  if (f.topAlarms.length === 0) paragraph(t.noAlarms);
  else {
    row([t.alarm, t.severity, t.count], [M, M + 330, M + 420], bold);
    for (const a of f.topAlarms) {
      const title = wrap(a.title, 320, 10, font)[0] ?? '';
      row([title, sev[a.highestSeverity], a.count], [M, M + 330, M + 420]);
    }
  }

  heading(t.trendHeading);
  const cols = [M, M + 130, M + 210, M + 290];
  row([t.month, t.incidents, 'SLA', t.availability], cols, bold);
  const maxIncidents = Math.max(1, ...report.trend.map((m) => m.figures.incidents.total));
  for (const m of report.trend) {
    ensure(14);
    row([monthName(m.month), m.figures.incidents.total, pct(m.figures.sla.compliancePct), pct(m.figures.availability.fleetPct)], cols);
    // A bar of the month's incidents, scaled to the busiest month of the trend.
    const width = (m.figures.incidents.total / maxIncidents) * 110;
    if (width > 0) page.drawRectangle({ x: M + 385, y: y + 14, width, height: 8, color: rgb(0.2, 0.4, 0.75) });
  }
  return doc.save();
}

/**
 * Resolution-SLA compliance per UTC month over the `SLA_HISTORY_MONTHS` months ending with the current one
 * at `now`, oldest first: the tenant's day aggregates of those months summed per month (`met` / `trN`, the
 * counters `reportFromAggregates` reads) — ONE paged Query of at most 366 day items whatever the number of
 * incidents (docs/data-model.md#reports-from-the-aggregates).
 */
export async function slaHistory(port: Pick<ReportsPort, 'aggregateDays'>, tenantId: string, now: Date): Promise<SlaHistory> {
  const months = monthsEnding(now.toISOString().slice(0, 7), SLA_HISTORY_MONTHS);
  const days = await port.aggregateDays(tenantId, `${months[0]}-01`, now.toISOString().slice(0, 10));
  const sums = new Map<string, { resolved: number; within: number }>(months.map((m) => [m, { resolved: 0, within: 0 }]));
  for (const [date, c] of days as Map<string, Counters>) {
    const s = sums.get(date.slice(0, 7));
    if (!s) continue;
    s.resolved += c[agg.ttrCount] ?? 0;
    s.within += c[agg.slaMet] ?? 0;
  }
  return {
    months: months.map((month) => {
      const s = sums.get(month)!;
      return { month, resolved: s.resolved, resolvedWithinSla: s.within, compliancePct: s.resolved ? Math.round((s.within / s.resolved) * 10_000) / 100 : null };
    }),
  };
}

/**
 * `monthlyReport` with the month's maintenance windows (ONE Query, `maintenanceOfPeriod`): the report the route
 * and the e-mail job (`monthly-report-mail.ts`) render, so both PDFs print "N ventanas de mantenimiento
 * excluidas (M min)". @throws storage errors
 */
export async function monthlyReportWithMaintenance(
  ports: { reports: Pick<ReportsPort, 'loadPeriodsAggregates'>; maintenanceWindows: Pick<MaintenanceWindowsPort, 'overlapping'> },
  tenant: { id: string; name: string },
  month: string,
  now: Date,
): Promise<MonthlyReport & Required<Pick<MonthlyReport, 'maintenance'>>> {
  const period = monthPeriod(month);
  const [figures, windows] = await Promise.all([monthlyReport(ports.reports, tenant, month, now), ports.maintenanceWindows.overlapping(tenant.id, period.from, period.to)]);
  return { ...figures, maintenance: maintenanceOfPeriod(windows, period) };
}

/**
 * `GET /reports/monthly/{month}`: the tenant's monthly report as a PDF in `language`, answered as JSON with the
 * bytes in base64 (docs/api.md#monthly-report). Reads the tenant (1 GetItem), `MONTHLY_TREND_MONTHS`
 * months of aggregates together (`monthlyReport`, `monthlyFigures`: 3–6 requests) and the month's maintenance
 * windows (ONE Query, `maintenanceOfPeriod`: the line "N ventanas de mantenimiento excluidas (M min)" and `maintenance`).
 * @throws ApiError VALIDATION_FAILED (bad or future month), NOT_FOUND (no such tenant)
 */
export async function monthlyReportFile(
  ports: { reports: Pick<ReportsPort, 'loadPeriodsAggregates'>; tenants: Pick<TenantsPort, 'getTenant'>; maintenanceWindows: Pick<MaintenanceWindowsPort, 'overlapping'> },
  tenantId: string,
  month: string,
  language: Language,
  now: Date,
): Promise<MonthlyReportFile> {
  reportMonth(month, now);
  const tenant = await ports.tenants.getTenant(tenantId);
  if (!tenant) throw new ApiError('NOT_FOUND', 'tenant not found');
  const report = await monthlyReportWithMaintenance(ports, tenant, month, now);
  const pdf = await renderMonthlyReportPdf(report, language);
  return { fileName: monthlyReportFileName(tenantId, month), contentType: 'application/pdf', base64: Buffer.from(pdf).toString('base64'), size: pdf.byteLength, slaBySeverity: report.slaBySeverity, maintenance: report.maintenance };
}
