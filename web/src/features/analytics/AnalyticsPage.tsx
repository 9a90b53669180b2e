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
import { t as msg } from '../../shared/lib/messages';

type TenantRow = Analytics['tenants'][number];

/** Columns of the per-tenant CSV. */
const COLUMNS = [
  { get header() { return msg('analytics.page.customer'); }, value: (t: TenantRow) => t.tenantName },
  { get header() { return msg('analytics.page.id'); }, value: (t: TenantRow) => t.tenantId },
  { get header() { return msg('analytics.page.incidents'); }, value: (t: TenantRow) => t.incidents.total },
  { get header() { return msg('analytics.page.mttaMin'); }, value: (t: TenantRow) => (t.mttaMinutes === null ? null : Math.round(t.mttaMinutes)) },
  { get header() { return msg('analytics.page.mttrMin'); }, value: (t: TenantRow) => (t.mttrMinutes === null ? null : Math.round(t.mttrMinutes)) },
  { get header() { return msg('analytics.page.slaCompliance2'); }, value: (t: TenantRow) => t.sla.compliancePct },
  { get header() { return msg('analytics.page.openWithSlaBreached'); }, value: (t: TenantRow) => t.sla.openBreached },
  { get header() { return msg('analytics.page.fleetAvailabilityPct'); }, value: (t: TenantRow) => fleetHealth(t).pct },
  { get header() { return msg('analytics.page.devicesBelowTarget'); }, value: (t: TenantRow) => fleetHealth(t).below },
];

export function AnalyticsPage() {
  const { spec, picker } = useUrlPeriod();
  const analytics = useReportSWR('getAnalytics', {}, spec);
  const a = analytics.data;

  return (
    <section>
      <PageHeader title={msg('analytics.page.analytics')}>
        <CsvButtons label={msg('analytics.page.downloadCsv')} disabled={!a} onDownload={(v) => a && downloadCsv(csvFilename(`analitica-${a.totals.period.from.slice(0, 10)}-${a.totals.period.to.slice(0, 10)}`, v), toCsv(a.tenants, COLUMNS, csvDialect(v)))} />
      </PageHeader>
      {picker}
      {analytics.error && !a ? (
        <ErrorState error={analytics.error} onRetry={() => void analytics.mutate()} />
      ) : !a ? (
        <LoadingState rows={6} />
      ) : (
        <>
          <p className="muted">
            {msg('analytics.page.allCustomersFrom')} {formatDateTime(a.totals.period.from)} {msg('analytics.page.to')} {formatDateTime(a.totals.period.to)}
          </p>
          <FiguresSummary f={a.totals} />
          <section className="card" aria-labelledby="an-tenants">
            <h2 id="an-tenants">{msg('analytics.page.byCustomer')}</h2>
            {a.tenants.length === 0 ? (
              <EmptyState>{msg('analytics.page.noCustomers')}</EmptyState>
            ) : (
              <table className="data-table responsive">
                <caption className="visually-hidden">{msg('analytics.page.figuresByCustomer')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{msg('analytics.page.customer')}</th>
                    <th scope="col" className="num">{msg('analytics.page.incidents')}</th>
                    <th scope="col">{msg('analytics.page.mtta')}</th>
                    <th scope="col">{msg('analytics.page.mttr')}</th>
                    <th scope="col" className="num">{msg('analytics.page.slaCompliance')}</th>
                    <th scope="col" className="num">{msg('analytics.page.slaBreached')}</th>
                    <th scope="col">{msg('analytics.page.fleetHealth')}</th>
                  </tr>
                </thead>
                <tbody>
                  {a.tenants.map((t) => {
                    const fleet = fleetHealth(t);
                    return (
                      <tr key={t.tenantId}>
                        <td data-label={msg('analytics.page.customer')}>{t.tenantName}</td>
                        <td data-label={msg('analytics.page.incidents')} className="num">{t.incidents.total}</td>
                        <td data-label={msg('analytics.page.mtta')}>{formatDuration(t.mttaMinutes)}</td>
                        <td data-label={msg('analytics.page.mttr')}>{formatDuration(t.mttrMinutes)}</td>
                        <td data-label={msg('analytics.page.slaCompliance')} className="num">{formatPercent(t.sla.compliancePct)}</td>
                        <td data-label={msg('analytics.page.slaBreached')} className="num">{t.sla.openBreached}</td>
                        <td data-label={msg('analytics.page.fleetHealth')}>
                          {formatPercent(fleet.pct)} · {fleet.below}
                          {fleet.belowIsAtLeast ? '+' : ''} {msg('analytics.page.belowTargetShort')}
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
