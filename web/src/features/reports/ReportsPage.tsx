/**
 * `/reports/general` (docs/portal.md#screens): the tenant's report for a period (`GET /reports?from&to`): incidents by
 * severity and status, MTTA/MTTR, SLA compliance, availability per device against the SLA target and the
 * top alarms. The period's end follows "now" (`useReportSWR`: recomputed on each request, on focus, every
 * minute and with "Actualizar"). "Descargar CSV" exports the same figures; "Imprimir" opens the browser's
 * print dialog, and the print stylesheet (`screens.css`, `@media print`) leaves out the shell, controls and buttons.
 */
import { INCIDENT_STATUSES, SEVERITIES } from '../../shared/lib/contract';
import { formatDateTime, formatPercent, INCIDENT_STATUS_LABELS, SEVERITY_LABELS } from '../../shared/lib/format';
import { useTenant, useTenantQuery } from '../../shared/lib/tenant';
import { SeverityBadge } from '../../shared/ui/badges';
import { csvDialect, csvFilename, downloadCsv } from '../../shared/ui/csv';
import { CsvButtons } from '../../shared/ui/CsvButtons';
import { FiguresSummary, reportToCsv, useReportSWR, useUrlPeriod } from '../../shared/ui/report';
import { EmptyState, ErrorState, LoadingState, PageHeader } from '../../shared/ui/states';
import '../../shared/ui/screens.css';

export function ReportsPage() {
  const { spec, picker } = useUrlPeriod();
  const tenant = useTenantQuery();
  const { tenants, activeTenant } = useTenant();
  const tenantName = tenants.find((t) => t.id === activeTenant)?.name ?? activeTenant ?? '';
  // The period's end follows "now": recomputed on every request (docs/portal.md#report-periods).
  const report = useReportSWR('getReport', activeTenant ? tenant : null, spec);
  const r = report.data;
  const title = r ? `Informe ${tenantName} ${r.period.from.slice(0, 10)} – ${r.period.to.slice(0, 10)}` : '';

  return (
    <section className="report">
      <PageHeader title="Reportes generales">
        <CsvButtons
          label="Descargar CSV"
          disabled={!r}
          onDownload={(variant) => r && downloadCsv(csvFilename(`informe-${r.tenantId}-${r.period.from.slice(0, 10)}-${r.period.to.slice(0, 10)}`, variant), reportToCsv(r, title, csvDialect(variant)))}
        />
        <button type="button" className="btn" disabled={!r} onClick={() => window.print()}>
          Imprimir
        </button>
        <button type="button" className="btn" disabled={report.isValidating} onClick={() => void report.mutate()}>
          Actualizar
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
            {tenantName} · del {formatDateTime(r.period.from)} al {formatDateTime(r.period.to)} · generado el {formatDateTime(r.generatedAt)}
          </p>
          <FiguresSummary f={r} />
          <div className="report-tables">
            <section className="card" aria-labelledby="rep-sev">
              <h2 id="rep-sev">Incidentes por severidad y estado</h2>
              <table className="data-table">
                <caption className="visually-hidden">Incidentes por severidad</caption>
                <thead>
                  <tr>
                    <th scope="col">Severidad</th>
                    <th scope="col" className="num">Incidentes</th>
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
                <caption className="visually-hidden">Incidentes por estado</caption>
                <thead>
                  <tr>
                    <th scope="col">Estado</th>
                    <th scope="col" className="num">Incidentes</th>
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
              <h2 id="rep-alarms">Alarmas más frecuentes</h2>
              {r.topAlarms.length === 0 ? (
                <EmptyState>No hubo alarmas en el periodo.</EmptyState>
              ) : (
                <table className="data-table">
                  <caption className="visually-hidden">Alarmas más frecuentes</caption>
                  <thead>
                    <tr>
                      <th scope="col">Alarma</th>
                      <th scope="col" className="num">Veces</th>
                      <th scope="col">Severidad máxima</th>
                    </tr>
                  </thead>
                  <tbody>
                    {r.topAlarms.map((a) => (
                      <tr key={a.title}>
                        <td>{a.title}</td>
                        <td className="num">{a.count}</td>
                        <td>
                          <SeverityBadge severity={a.highestSeverity} />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </section>
          </div>
          <section className="card" aria-labelledby="rep-avail">
            <h2 id="rep-avail">Disponibilidad por dispositivo (objetivo {formatPercent(r.availability.slaTargetPct)})</h2>
            {r.availability.devices.length === 0 ? (
              <EmptyState>No hay dispositivos.</EmptyState>
            ) : (
              <div>
                <table className="data-table responsive">
                  <caption className="visually-hidden">Disponibilidad por dispositivo</caption>
                  <thead>
                    <tr>
                      <th scope="col">Dispositivo</th>
                      <th scope="col" className="num">Disponibilidad</th>
                      <th scope="col">SLA</th>
                    </tr>
                  </thead>
                  <tbody>
                    {r.availability.devices.map((d) => (
                      <tr key={d.deviceId}>
                        <td data-label="Dispositivo">{d.name}</td>
                        <td data-label="Disponibilidad" className="num">{formatPercent(d.availablePct)}</td>
                        <td data-label="SLA" className={d.meetsSla === false ? 'text-danger' : undefined}>{d.meetsSla === null ? 'Sin datos' : d.meetsSla ? 'Cumple' : 'No cumple'}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
        </>
      )}
    </section>
  );
}
