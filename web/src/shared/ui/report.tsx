/**
 * Report figures (`ReportFigures` of `GET /reports` and `GET /analytics`, figures defined in
 * `lambdas/domain/reports.ts`) rendered for `/reports/general` and `/analytics`: period presets, a
 * duration formatter for MTTA/MTTR, the summary KPI row, and the CSV export built from the same JSON
 * (sections separated by a blank line; RFC 4180 via `csv.ts`).
 */
import { useMemo, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { ReportFigures } from '../lib/contract';
import { formatPercent, INCIDENT_STATUS_LABELS, SEVERITY_LABELS } from '../lib/format';
import { useTimeOfChange } from '../lib/hooks';
import { toCsv } from './csv';

/** Period presets, days back from now. */
export const PERIODS = [7, 30, 90, 365] as const;

/**
 * The `[from, to]` of a report request: `days` back from now (UTC, `to` rounded down to the minute so
 * the SWR key stays stable), or local calendar dates `YYYY-MM-DD` (whole days) when both are given.
 */
export function periodQuery(days: number, fromDate: string, toDate: string, now: number): { from: string; to: string } {
  if (fromDate && toDate) {
    const [fy, fm, fd] = fromDate.split('-').map(Number) as [number, number, number];
    const [ty, tm, td] = toDate.split('-').map(Number) as [number, number, number];
    return { from: new Date(fy, fm - 1, fd).toISOString(), to: new Date(ty, tm - 1, td, 23, 59, 59, 999).toISOString() };
  }
  const to = Math.floor(now / 60_000) * 60_000;
  return { from: new Date(to - days * 86_400_000).toISOString(), to: new Date(to).toISOString() };
}

/** Minutes → "45 min", "3 h 20 min", "2 d 4 h"; '—' for null. */
export function formatDuration(minutes: number | null): string {
  if (minutes === null || !Number.isFinite(minutes)) return '—';
  const m = Math.round(minutes);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 24) return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
}

/** Devices meeting the availability SLA, of those with data; and the mean availability (%). */
export function fleetHealth(f: ReportFigures): { meeting: number; measured: number; meanPct: number | null } {
  const measured = f.availability.devices.filter((d) => d.availablePct !== null);
  const meeting = measured.filter((d) => d.meetsSla).length;
  const meanPct = measured.length ? Math.round((measured.reduce((a, d) => a + d.availablePct!, 0) / measured.length) * 100) / 100 : null;
  return { meeting, measured: measured.length, meanPct };
}

/** The report as CSV: summary, incidents by severity and status, availability per device, top alarms. */
export function reportToCsv(f: ReportFigures, title: string): string {
  const summary = toCsv(
    [
      ['Informe', title],
      ['Desde (UTC)', f.period.from],
      ['Hasta (UTC)', f.period.to],
      ['Incidentes', f.incidents.total],
      ['MTTA (min)', f.mttaMinutes === null ? '' : Math.round(f.mttaMinutes)],
      ['MTTR (min)', f.mttrMinutes === null ? '' : Math.round(f.mttrMinutes)],
      ['Resueltos', f.sla.resolved],
      ['Resueltos dentro del SLA', f.sla.resolvedWithinSla],
      ['Cumplimiento SLA (%)', f.sla.compliancePct ?? ''],
      ['Abiertos con SLA vencido', f.sla.openBreached],
      ['Objetivo de disponibilidad (%)', f.availability.slaTargetPct],
    ] as [string, string | number][],
    [
      { header: 'Indicador', value: (r) => r[0] },
      { header: 'Valor', value: (r) => r[1] },
    ],
  );
  const bySeverity = toCsv(Object.entries(f.incidents.bySeverity), [
    { header: 'Severidad', value: ([k]) => SEVERITY_LABELS[k as keyof typeof SEVERITY_LABELS] ?? k },
    { header: 'Incidentes', value: ([, v]) => v },
  ]);
  const byStatus = toCsv(Object.entries(f.incidents.byStatus), [
    { header: 'Estado', value: ([k]) => INCIDENT_STATUS_LABELS[k as keyof typeof INCIDENT_STATUS_LABELS] ?? k },
    { header: 'Incidentes', value: ([, v]) => v },
  ]);
  const devices = toCsv(f.availability.devices, [
    { header: 'Dispositivo', value: (d) => d.name },
    { header: 'ID', value: (d) => d.deviceId },
    { header: 'Disponibilidad (%)', value: (d) => d.availablePct },
    { header: 'Cumple SLA', value: (d) => (d.meetsSla === null ? '' : d.meetsSla ? 'Sí' : 'No') },
  ]);
  const alarms = toCsv(f.topAlarms, [
    { header: 'Alarma', value: (a) => a.title },
    { header: 'Veces', value: (a) => a.count },
    { header: 'Severidad máxima', value: (a) => SEVERITY_LABELS[a.highestSeverity] },
  ]);
  return [summary, bySeverity, byStatus, devices, alarms].join('\r\n\r\n');
}

/** The KPI row of a report: incidents, MTTA, MTTR, SLA compliance, open breached, fleet health. */
export function FiguresSummary({ f }: { f: ReportFigures }) {
  const fleet = fleetHealth(f);
  return (
    <ul className="kpi-row" aria-label="Resumen">
      <li>
        <span className="muted small">Incidentes</span>
        <strong>{f.incidents.total}</strong>
      </li>
      <li>
        <span className="muted small">MTTA (tiempo medio de reconocimiento)</span>
        <strong>{formatDuration(f.mttaMinutes)}</strong>
      </li>
      <li>
        <span className="muted small">MTTR (tiempo medio de resolución)</span>
        <strong>{formatDuration(f.mttrMinutes)}</strong>
      </li>
      <li>
        <span className="muted small">Cumplimiento SLA</span>
        <strong>{formatPercent(f.sla.compliancePct)}</strong>
        <span className="small">
          {f.sla.resolvedWithinSla} de {f.sla.resolved} resueltos a tiempo
        </span>
      </li>
      <li>
        <span className="muted small">Abiertos con SLA vencido</span>
        <strong>{f.sla.openBreached}</strong>
      </li>
      <li>
        <span className="muted small">Dispositivos que cumplen el SLA</span>
        <strong>
          {fleet.meeting} / {fleet.measured}
        </strong>
        <span className="small">Media {formatPercent(fleet.meanPct)}</span>
      </li>
    </ul>
  );
}

/** URL state of a report period: `?days=30` (preset) or `?from=YYYY-MM-DD&to=YYYY-MM-DD` (custom). */
export function periodFromParams(params: URLSearchParams): { days: number; fromDate: string; toDate: string } {
  const days = Number(params.get('days'));
  const date = (k: string) => (/^\d{4}-\d{2}-\d{2}$/.test(params.get(k) ?? '') ? params.get(k)! : '');
  const fromDate = date('from');
  const toDate = date('to');
  const custom = fromDate && toDate && fromDate <= toDate;
  return { days: (PERIODS as readonly number[]).includes(days) ? days : 30, fromDate: custom ? fromDate : '', toDate: custom ? toDate : '' };
}

/** Period controls: preset buttons and a custom date range (applied with "Aplicar"). */
export function PeriodPicker({ params, onChange }: { params: URLSearchParams; onChange: (next: URLSearchParams) => void }) {
  const p = periodFromParams(params);
  const custom = !!(p.fromDate && p.toDate);
  return (
    <form
      className="card filters no-print"
      aria-label="Periodo del informe"
      onSubmit={(e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        const from = String(data.get('from') ?? '');
        const to = String(data.get('to') ?? '');
        if (from && to) onChange(new URLSearchParams({ from, to }));
      }}
    >
      <div className="field field-wide">
        <span id="period-presets">Periodo</span>
        <div role="group" aria-labelledby="period-presets" className="segmented">
          {PERIODS.map((d) => (
            <button key={d} type="button" aria-pressed={!custom && d === p.days} onClick={() => onChange(new URLSearchParams({ days: String(d) }))}>
              {d} días
            </button>
          ))}
        </div>
      </div>
      <div className="field">
        <label htmlFor="period-from">Desde</label>
        <input id="period-from" name="from" type="date" defaultValue={p.fromDate} key={`f-${p.fromDate}`} />
      </div>
      <div className="field">
        <label htmlFor="period-to">Hasta</label>
        <input id="period-to" name="to" type="date" defaultValue={p.toDate} key={`t-${p.toDate}`} />
      </div>
      <div className="filters-actions">
        <button type="submit" className="btn">
          Aplicar fechas
        </button>
      </div>
    </form>
  );
}

/**
 * The report period kept in the page's URL (`?days=N` or `?from=YYYY-MM-DD&to=YYYY-MM-DD`, read by
 * `periodFromParams`): `period` is the `{ from, to }` query (ISO-8601 UTC, see `periodQuery`) of
 * `GET /reports` and `GET /analytics`, the same object while the URL's period is unchanged (stable SWR key);
 * `picker` is the `PeriodPicker` bound to the URL (a change replaces the history entry).
 */
export function useUrlPeriod(): { period: { from: string; to: string }; picker: ReactNode } {
  const [params, setParams] = useSearchParams();
  const { days, fromDate, toDate } = periodFromParams(params);
  const changedAt = useTimeOfChange(`${days}|${fromDate}|${toDate}`);
  const period = useMemo(() => periodQuery(days, fromDate, toDate, changedAt), [days, fromDate, toDate, changedAt]);
  return { period, picker: <PeriodPicker params={params} onChange={(p) => setParams(p, { replace: true })} /> };
}
