/**
 * `/analytics` (docs/portal.md#screens, `admin` only — the route guard and the API's `admin` group both enforce it):
 * figures across all tenants for a period (`GET /analytics?from&to`): totals, then per tenant the
 * incidents, MTTA/MTTR, SLA compliance, open incidents past SLA and fleet health (devices meeting the
 * availability SLA, mean availability).
 */
import type { Analytics } from '../../shared/lib/contract';
import { formatDateTime, formatPercent } from '../../shared/lib/format';
import { csvDialect, csvFilename, downloadCsv, toCsv } from '../../shared/ui/csv';
import { CsvButtons } from '../../shared/ui/CsvButtons';
import { FiguresSummary, fleetHealth, formatDuration, useReportSWR, useUrlPeriod } from '../../shared/ui/report';
import { EmptyState, ErrorState, LoadingState, PageHeader } from '../../shared/ui/states';
import '../../shared/ui/screens.css';

type TenantRow = Analytics['tenants'][number];

/** Columns of the per-tenant CSV. */
const COLUMNS = [
  { header: 'Cliente', value: (t: TenantRow) => t.tenantName },
  { header: 'ID', value: (t: TenantRow) => t.tenantId },
  { header: 'Incidentes', value: (t: TenantRow) => t.incidents.total },
  { header: 'MTTA (min)', value: (t: TenantRow) => (t.mttaMinutes === null ? null : Math.round(t.mttaMinutes)) },
  { header: 'MTTR (min)', value: (t: TenantRow) => (t.mttrMinutes === null ? null : Math.round(t.mttrMinutes)) },
  { header: 'Cumplimiento SLA (%)', value: (t: TenantRow) => t.sla.compliancePct },
  { header: 'Abiertos con SLA vencido', value: (t: TenantRow) => t.sla.openBreached },
  { header: 'Dispositivos que cumplen SLA', value: (t: TenantRow) => fleetHealth(t).meeting },
  { header: 'Dispositivos medidos', value: (t: TenantRow) => fleetHealth(t).measured },
  { header: 'Disponibilidad media (%)', value: (t: TenantRow) => fleetHealth(t).meanPct },
];

export function AnalyticsPage() {
  const { spec, picker } = useUrlPeriod();
  const analytics = useReportSWR('getAnalytics', {}, spec);
  const a = analytics.data;

  return (
    <section>
      <PageHeader title="Analítica">
        <CsvButtons label="Descargar CSV" disabled={!a} onDownload={(v) => a && downloadCsv(csvFilename(`analitica-${a.totals.period.from.slice(0, 10)}-${a.totals.period.to.slice(0, 10)}`, v), toCsv(a.tenants, COLUMNS, csvDialect(v)))} />
      </PageHeader>
      {picker}
      {analytics.error && !a ? (
        <ErrorState error={analytics.error} onRetry={() => void analytics.mutate()} />
      ) : !a ? (
        <LoadingState rows={6} />
      ) : (
        <>
          <p className="muted">
            Todos los clientes · del {formatDateTime(a.totals.period.from)} al {formatDateTime(a.totals.period.to)}
          </p>
          <FiguresSummary f={a.totals} />
          <section className="card" aria-labelledby="an-tenants">
            <h2 id="an-tenants">Por cliente</h2>
            {a.tenants.length === 0 ? (
              <EmptyState>No hay clientes.</EmptyState>
            ) : (
              <table className="data-table responsive">
                <caption className="visually-hidden">Indicadores por cliente</caption>
                <thead>
                  <tr>
                    <th scope="col">Cliente</th>
                    <th scope="col" className="num">Incidentes</th>
                    <th scope="col">MTTA</th>
                    <th scope="col">MTTR</th>
                    <th scope="col" className="num">Cumplimiento SLA</th>
                    <th scope="col" className="num">SLA vencido</th>
                    <th scope="col">Salud de la flota</th>
                  </tr>
                </thead>
                <tbody>
                  {a.tenants.map((t) => {
                    const fleet = fleetHealth(t);
                    return (
                      <tr key={t.tenantId}>
                        <td data-label="Cliente">{t.tenantName}</td>
                        <td data-label="Incidentes" className="num">{t.incidents.total}</td>
                        <td data-label="MTTA">{formatDuration(t.mttaMinutes)}</td>
                        <td data-label="MTTR">{formatDuration(t.mttrMinutes)}</td>
                        <td data-label="Cumplimiento SLA" className="num">{formatPercent(t.sla.compliancePct)}</td>
                        <td data-label="SLA vencido" className="num">{t.sla.openBreached}</td>
                        <td data-label="Salud de la flota">
                          {fleet.meeting}/{fleet.measured} cumplen · media {formatPercent(fleet.meanPct)}
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            )}
          </section>
        </>
      )}
    </section>
  );
}
