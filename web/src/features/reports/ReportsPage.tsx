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
import { cellClassOf, headerClassOf } from '../../shared/ui/fields';
import { EmptyState, ErrorState, LoadingState, PageHeader } from '../../shared/ui/states';
import '../../shared/ui/screens.css';
import { t as msg } from '../../shared/lib/messages';
import { Link } from 'react-router-dom';
import { MonthlyReportPanel } from './MonthlyReportPanel';

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
              <table className="data-table">
                <caption className="visually-hidden">{msg('reports.page.incidentsBySeverity')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{msg('reports.page.severity')}</th>
                    <th scope="col" className="num">{msg('reports.page.incidents')}</th>
                  </tr>
                </thead>
                <tbody>
                  {SEVERITIES.map((s) => (
                    <tr key={s}>
                      <td>{SEVERITY_LABELS[s]}</td>
                      <td className="num">{r.incidents.bySeverity[s] ?? 0}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <table className="data-table">
                <caption className="visually-hidden">{msg('reports.page.incidentsByStatus')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{msg('reports.page.status')}</th>
                    <th scope="col" className="num">{msg('reports.page.incidents')}</th>
                  </tr>
                </thead>
                <tbody>
                  {INCIDENT_STATUSES.map((s) => (
                    <tr key={s}>
                      <td>{INCIDENT_STATUS_LABELS[s]}</td>
                      <td className="num">{r.incidents.byStatus[s] ?? 0}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
            <section className="card" aria-labelledby="rep-alarms">
              <h2 id="rep-alarms">{msg('reports.page.mostFrequentAlarms')}</h2>
              {r.topAlarms.length === 0 ? (
                <EmptyState>{msg('reports.page.noAlarmsInPeriod')}</EmptyState>
              ) : (
                <table className="data-table">
                  <caption className="visually-hidden">{msg('reports.page.mostFrequentAlarms')}</caption>
                  <thead>
                    <tr>
                      {TOP_ALARM_LIST_FIELDS.map((f) => (
                        <th key={f.key} scope="col" className={headerClassOf(f)}>
                          {f.label()}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {r.topAlarms.map((a) => (
                      <tr key={a.title}>
                        {TOP_ALARM_LIST_FIELDS.map((f) => (
                          <td key={f.key} className={cellClassOf(f)}>
                            {f.cell!(a)}
                          </td>
                        ))}
                      </tr>
                    ))}
                  </tbody>
                </table>
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
              <table className="data-table responsive" aria-labelledby="rep-below">
                <thead>
                  <tr>
                    {DEVICE_BELOW_TARGET_LIST_FIELDS.map((f) => (
                      <th key={f.key} scope="col" className={headerClassOf(f)}>
                        {f.label()}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {r.availability.belowSla.map((d) => (
                    <tr key={d.deviceId}>
                      {DEVICE_BELOW_TARGET_LIST_FIELDS.map((f) => (
                        <td key={f.key} data-label={f.label()} className={cellClassOf(f)}>
                          {f.cell!(d)}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
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
