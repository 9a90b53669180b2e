/**
 * `/page/search-results?q=…` (docs/portal.md#screens, the header's search form): the user's incidents whose id, title,
 * description or category contain the text (`GET /incidents?q=`, first page of 20), and the tenant's
 * devices whose name, id, site, IP, vendor or model contain it (case-insensitive, over every device).
 * The API needs 2–100 characters; shorter text shows a hint instead of a request.
 */
import { Link, useSearchParams } from 'react-router-dom';
import type { Device } from '../../shared/lib/contract';
import { useApiSWR } from '../../shared/lib/api-context';
import { formatDateTime } from '../../shared/lib/format';
import { useTenantQuery } from '../../shared/lib/tenant';
import { DeviceStatusBadge, IncidentStatusBadge, SeverityBadge } from '../../shared/ui/badges';
import { EmptyState, ErrorState, LoadingState, PageHeader } from '../../shared/ui/states';
import { useAllPages } from '../../shared/ui/useAllPages';
import '../../shared/ui/screens.css';
import { ticketPath } from '../../shared/lib/links';
import { t as msg } from '../../shared/lib/messages';

/** Whether device `d` matches the search text `q` (case- and accent-insensitive substring). */
export function deviceMatches(d: Pick<Device, 'id' | 'name' | 'site' | 'ipAddress' | 'vendor' | 'model' | 'type'>, q: string): boolean {
  const norm = (s: string) => s.normalize('NFD').replace(/\p{Diacritic}/gu, '').toLowerCase();
  const needle = norm(q.trim());
  return [d.id, d.name, d.site, d.ipAddress, d.vendor, d.model, d.type].some((f) => norm(f).includes(needle));
}

export function SearchResultsPage() {
  const [params] = useSearchParams();
  const q = (params.get('q') ?? '').trim().slice(0, 100);
  const tenant = useTenantQuery();
  const valid = q.length >= 2;
  const incidents = useApiSWR('listIncidents', valid ? { query: { ...tenant, q, limit: 20 } } : null);
  const devices = useAllPages('listDevices', valid ? { query: tenant } : null);
  const matched = (devices.data?.items ?? []).filter((d) => deviceMatches(d, q));

  return (
    <section>
      <PageHeader title={msg('search.results.searchResults')} />
      {!valid ? (
        <EmptyState>{msg('search.results.typeAtLeast2')}</EmptyState>
      ) : (
        <>
          <p className="muted">
            {msg('search.results.resultsFor')}<strong>{q}</strong>»
          </p>
          <section className="card" aria-labelledby="sr-incidents">
            <h2 id="sr-incidents">{msg('search.results.incidents')}</h2>
            {incidents.error && !incidents.data ? (
              <ErrorState error={incidents.error} onRetry={() => void incidents.mutate()} />
            ) : !incidents.data ? (
              <LoadingState rows={3} />
            ) : incidents.data.items.length === 0 ? (
              <EmptyState>{msg('search.results.noIncidentMatches')}</EmptyState>
            ) : (
              <>
                <ul className="feed">
                  {incidents.data.items.map((i) => (
                    <li key={i.id}>
                      <Link to={ticketPath(i.id, i.tenantId)}>
                        {i.id} · {i.title}
                      </Link>
                      <span className="feed-meta">
                        <SeverityBadge severity={i.severity} /> <IncidentStatusBadge status={i.status} />{' '}
                        <time dateTime={i.createdAt}>{formatDateTime(i.createdAt)}</time>
                      </span>
                    </li>
                  ))}
                </ul>
                <p className="small">
                  <Link to={`/incidents/all?q=${encodeURIComponent(q)}`}>{msg('search.results.viewAllInThe')}</Link>
                </p>
              </>
            )}
          </section>
          <section className="card" aria-labelledby="sr-devices">
            <h2 id="sr-devices">{msg('search.results.devices')}</h2>
            {devices.error && !devices.data ? (
              <ErrorState error={devices.error} onRetry={() => void devices.mutate()} />
            ) : !devices.data ? (
              <LoadingState rows={3} />
            ) : matched.length === 0 ? (
              <EmptyState>{msg('search.results.noDeviceMatches')}</EmptyState>
            ) : (
              <ul className="feed">
                {matched.map((d) => (
                  <li key={d.id}>
                    <Link to={`/devices/availability?device=${encodeURIComponent(d.id)}`}>
                      {d.name} · {d.site}
                    </Link>
                    <span className="feed-meta">
                      <DeviceStatusBadge status={d.status} /> {d.ipAddress}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </>
      )}
    </section>
  );
}
