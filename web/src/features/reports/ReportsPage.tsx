/**
 * `/reports/general` (docs/portal.md#screens): the tenant's report for a period (`GET /reports?from&to`): incidents by
 * severity and status, MTTA/MTTR, SLA compliance, the fleet's availability in the period and the devices below the
 * availability target now (30 days), and the top alarms. The period's end follows "now" (`useReportSWR`: recomputed on each request, on focus, every
 * minute and with "Actualizar"). "Descargar CSV" exports the same figures; "Imprimir" opens the browser's
 * print dialog, and the print stylesheet (`screens.css`, `@media print`) leaves out the shell, controls and buttons.
 */
import { INCIDENT_STATUSES, SEVERITIES } from '../../shared/lib/contract';
import { formatDateTime, formatPercent, INCIDENT_STATUS_LABELS, SEVERITY_LABELS } from '../../shared/lib/format';
import { useTenant, useTenantQuery } from '../../shared/lib/tenant';
import { csvDialect, csvFilename, downloadCsv } from '../../shared/ui/csv';
import { CsvButtons } from '../../shared/ui/CsvButtons';
import { FiguresSummary, reportToCsv, useReportSWR, useUrlPeriod } from '../../shared/ui/report';
import { DEVICE_BELOW_TARGET_LIST_FIELDS, TOP_ALARM_LIST_FIELDS } from '../../shared/ui/report-fields';
import { dataColumnsOf } from '../../shared/ui/fields';
import { DataTable } from '../../shared/ui/lists';
import { EmptyState, ErrorState, LoadingState, PageHeader } from '../../shared/ui/states';
import '../../shared/ui/screens.css';
import { t as msg } from '../../shared/lib/messages';
import { Link } from 'react-router-dom';
import { MonthlyReportPanel } from './MonthlyReportPanel';

/** A two-column table of incident counts: one row per key (`names`' label), its count (0 when absent). */
function countTable<K extends string>(caption: string, label: string, keys: readonly K[], names: Record<K, string>, counts: Partial<Record<K, number>>) {
  const columns = [
    { label, cell: (k: K) => names[k] },
    { label: msg('reports.page.incidents'), headerClass: 'num', cellClass: () => 'num', cell: (k: K) => counts[k] ?? 0 },
  ];
  return <DataTable responsive={false} caption={caption} rows={keys} rowKey={(k) => k} columns={columns} />;
}

/** The tenant's general report for the URL's period, with CSV, print and the monthly report. */
export function ReportsPage() {
  const { spec, picker } = useUrlPeriod();
  const tenant = useTenantQuery();
  const { tenants, activeTenant } = useTenant();
  const tenantName = tenants.find((t) => t.id === activeTenant)?.name ?? activeTenant ?? '';
  // The period's end follows "now": recomputed on every request (docs/portal.md#report-periods).
  const report = useReportSWR('getReport', activeTenant ? tenant : null, spec);
  const r = report.data;
  const title = r ? msg('reports.page.report', { tenantName, from: r.period.from.slice(0, 10), to: r.period.to.slice(0, 10) }) : '';

  return (
    <section className="report">
      <PageHeader title={msg('reports.page.generalReports')}>
        <CsvButtons
          label={msg('actions.downloadCsv')}
          disabled={!r}
          onDownload={(variant) => r && downloadCsv(csvFilename(`informe-${r.tenantId}-${r.period.from.slice(0, 10)}-${r.period.to.slice(0, 10)}`, variant), reportToCsv(r, title, csvDialect(variant)))}
        />
        <button type="button" className="btn" disabled={!r} onClick={() => window.print()}>
          {msg('reports.page.print')}
        </button>
        <button type="button" className="btn" disabled={report.isValidating} onClick={() => void report.mutate()}>
          {msg('actions.refresh')}
        </button>
      </PageHeader>
      {picker}
      {report.error && !r ? (
        <ErrorState error={report.error} onRetry={() => void report.mutate()} />
      ) : !r ? (
        <LoadingState rows={6} />
      ) : (
        <>
          <p className="muted">
            {tenantName} {msg('reports.page.from')} {formatDateTime(r.period.from)} {msg('reports.page.to')} {formatDateTime(r.period.to)} {msg('reports.page.generatedOn')} {formatDateTime(r.generatedAt)}
          </p>
          <FiguresSummary f={r} />
          <div className="report-tables">
            <section className="card" aria-labelledby="rep-sev">
              <h2 id="rep-sev">{msg('reports.page.incidentsBySeverityAndStatus')}</h2>
              {countTable(msg('reports.page.incidentsBySeverity'), msg('reports.page.severity'), SEVERITIES, SEVERITY_LABELS, r.incidents.bySeverity)}
              {countTable(msg('reports.page.incidentsByStatus'), msg('reports.page.status'), INCIDENT_STATUSES, INCIDENT_STATUS_LABELS, r.incidents.byStatus)}
            </section>
            <section className="card" aria-labelledby="rep-alarms">
              <h2 id="rep-alarms">{msg('reports.page.mostFrequentAlarms')}</h2>
              {r.topAlarms.length === 0 ? (
                <EmptyState>{msg('reports.page.noAlarmsInPeriod')}</EmptyState>
              ) : (
                <DataTable responsive={false} caption={msg('reports.page.mostFrequentAlarms')} rows={r.topAlarms} rowKey={(a) => a.title} columns={dataColumnsOf(TOP_ALARM_LIST_FIELDS)} />
              )}
            </section>
          </div>
          <section className="card" aria-labelledby="rep-avail">
            <h2 id="rep-avail">{msg('reports.page.availabilityTarget', { target: formatPercent(r.availability.slaTargetPct) })}</h2>
            <p>
              {msg('reports.page.fleetAvailability')} <strong data-testid="report-fleet-availability">{formatPercent(r.availability.fleetPct)}</strong>
            </p>
            <h3 id="rep-below">{msg('reports.page.belowSlaDevices')}</h3>
            {r.availability.belowSla.length === 0 ? (
              <EmptyState>{msg('reports.page.noneBelowSla')}</EmptyState>
            ) : (
              <DataTable headingId="rep-below" rows={r.availability.belowSla} rowKey={(d) => d.deviceId} columns={dataColumnsOf(DEVICE_BELOW_TARGET_LIST_FIELDS)} />
            )}
            <p className="small">
              <Link to="/devices/availability">{msg('reports.page.viewAvailabilityByDevice')}</Link>
            </p>
          </section>
        </>
      )}
      {activeTenant && <MonthlyReportPanel tenant={activeTenant} />}
    </section>
  );
}
