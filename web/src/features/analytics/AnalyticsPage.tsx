/**
 * `/analytics` (docs/portal.md#screens, `admin` only — the route guard and the API's `admin` group both enforce it):
 * figures across all tenants for a period (`GET /analytics?from&to`), one page of customers at a time (the
 * API's `nextCursor`; "Cargar más" asks for the next page of the same period): per customer the
 * incidents, MTTA/MTTR, SLA compliance, open incidents past SLA and fleet health (devices meeting the
 * availability SLA, mean availability). The totals across all customers come with the first page when it
 * holds every customer (the API sends them only then, docs/api.md#analytics); the CSV download reads the
 * pages not loaded yet first, so it always lists every customer.
 */
import useSWRInfinite from 'swr/infinite';
import type { ApiClient, ApiError, CallInput } from '../../shared/lib/api';
import { callOp, useApi } from '../../shared/lib/api-context';
import type { Analytics } from '../../shared/lib/contract';
import { formatDateTime } from '../../shared/lib/format';
import { csvDialect, csvFilename, downloadCsv, toCsv } from '../../shared/ui/csv';
import { CsvButtons } from '../../shared/ui/CsvButtons';
import { DataTable, LoadMore } from '../../shared/ui/lists';
import { FiguresSummary, periodQuery, useUrlPeriod, type PeriodSpec } from '../../shared/ui/report';
import { EmptyState, ErrorState, LoadingState, PageHeader } from '../../shared/ui/states';
import '../../shared/ui/screens.css';
import { dataColumnsOf } from '../../shared/ui/fields';
import { TENANT_FIGURES_CSV_COLUMNS, TENANT_FIGURES_LIST_FIELDS } from './analytics-fields';
import { t as msg } from '../../shared/lib/messages';

/** Pages the CSV download reads at most (`ANALYTICS_CSV_MAX_PAGES` of the API): past it the download fails rather than leave customers out. */
const MAX_PAGES = 2_000;

/** Key of page `index`: the first asks for `spec`'s period as of now, each next one for the first's period (`period`) after its cursor. */
type PageKey = readonly ['analytics', PeriodSpec] | readonly ['analytics', PeriodSpec, string, string, string];

function getPage(api: ApiClient, key: PageKey): Promise<Analytics> {
  const [, s, cursor, from, to] = key;
  const query = cursor ? { from, to, cursor } : periodQuery(s.days, s.fromDate, s.toDate, Date.now());
  return callOp(api, 'getAnalytics', { query } as CallInput<'getAnalytics'>) as Promise<Analytics>;
}

/** The analytics of `spec`'s period page by page (`loadMore`), and `allRows()`: every customer, the pages not loaded yet read first. */
function useAnalyticsPages(spec: PeriodSpec) {
  const api = useApi();
  const swr = useSWRInfinite<Analytics, ApiError, (i: number, prev: Analytics | null) => PageKey | null>(
    (index, prev) => (index === 0 ? ['analytics', spec] : prev?.nextCursor ? ['analytics', spec, prev.nextCursor, prev.period.from, prev.period.to] : null),
    (key) => getPage(api, key),
    { revalidateOnFocus: true },
  );
  const pages = swr.data ?? [];
  const last = pages[pages.length - 1];
  const rows = pages.flatMap((p) => p.tenants);
  const allRows = async (): Promise<Analytics['tenants']> => {
    const out = [...rows];
    for (let p = last, n = pages.length; p?.nextCursor; n++) {
      if (n >= MAX_PAGES) throw new Error('too many pages of customers');
      p = await getPage(api, ['analytics', spec, p.nextCursor, p.period.from, p.period.to]);
      out.push(...p.tenants);
    }
    return out;
  };
  return {
    first: pages[0],
    rows,
    error: swr.error,
    mutate: swr.mutate,
    hasMore: !!last?.nextCursor,
    isLoadingMore: swr.size > 0 && swr.data !== undefined && swr.data[swr.size - 1] === undefined,
    loadMore: () => swr.setSize(swr.size + 1),
    allRows,
  };
}

/** Figures across all customers for the URL's period, a page of customers at a time, with CSV. */
export function AnalyticsPage() {
  const { spec, picker } = useUrlPeriod();
  const analytics = useAnalyticsPages(spec);
  const a = analytics.first;
  const download = async (v: Parameters<typeof csvDialect>[0]) => {
    if (!a) return;
    const rows = await analytics.allRows();
    downloadCsv(csvFilename(`analitica-${a.period.from.slice(0, 10)}-${a.period.to.slice(0, 10)}`, v), toCsv(rows, TENANT_FIGURES_CSV_COLUMNS, csvDialect(v)));
  };

  return (
    <section>
      <PageHeader title={msg('menu.analytics')}>
        <CsvButtons label={msg('actions.downloadCsv')} disabled={!a} onDownload={(v) => void download(v)} />
      </PageHeader>
      {picker}
      {analytics.error && !a ? (
        <ErrorState error={analytics.error} onRetry={() => void analytics.mutate()} />
      ) : !a ? (
        <LoadingState rows={6} />
      ) : (
        <>
          <p className="muted">
            {msg('analytics.page.allCustomersFrom')} {formatDateTime(a.period.from)} {msg('analytics.page.to')} {formatDateTime(a.period.to)}
          </p>
          {a.totals ? <FiguresSummary f={a.totals} /> : <p className="muted">{msg('analytics.page.totalsOnePageOnly')}</p>}
          <section className="card" aria-labelledby="an-tenants">
            <h2 id="an-tenants">{msg('analytics.page.byCustomer')}</h2>
            {analytics.rows.length === 0 && !analytics.hasMore ? (
              <EmptyState>{msg('analytics.page.noCustomers')}</EmptyState>
            ) : (
              <DataTable caption={msg('analytics.page.figuresByCustomer')} rows={analytics.rows} rowKey={(t) => t.tenantId} columns={dataColumnsOf(TENANT_FIGURES_LIST_FIELDS)} />
            )}
            {analytics.error && <ErrorState error={analytics.error} onRetry={() => void analytics.mutate()} />}
            <LoadMore list={analytics} />
            {analytics.rows.length > 0 && <p className="muted">{msg('analytics.page.customersShown', { count: analytics.rows.length })}</p>}
          </section>
        </>
      )}
    </section>
  );
}
