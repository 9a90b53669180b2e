/**
 * `/page/search-results?q=…` (docs/portal.md#screens, the header's search form): the tenant's incidents whose
 * title has every word of the text (`GET /incidents?q=`, the word index: any incident however old) and the
 * devices whose name starts with it (`GET /devices?prefix=`, an index range), case and accents ignored; the
 * public comments having every word (`CommentResults`, `GET /search/comments`) and, for a text that looks like
 * an IP address, the devices at or under it (`DeviceIpResults`, `GET /devices?ip=`); the device alarms whose title
 * has every word (`AlarmResults`, `GET /search/alarms`) and the Office 365 users alerts named whose e-mail starts
 * with it (`Office365UserResults`, `GET /search/office365-users`). Each
 * list shows its first page of 20 and follows the API's cursor with "Cargar más" (never the whole list).
 * The API needs 2–100 characters; shorter text shows a hint instead of a request.
 */
import { Link, useSearchParams } from 'react-router-dom';
import { useApiSWRInfinite } from '../../shared/lib/api-context';
import { formatDateTime } from '../../shared/lib/format';
import { useTenantQuery } from '../../shared/lib/tenant';
import { DeviceStatusBadge, IncidentStatusBadge, SeverityBadge } from '../../shared/ui/badges';
import { ListFrame } from '../../shared/ui/lists';
import { EmptyState, PageHeader } from '../../shared/ui/states';
import '../../shared/ui/screens.css';
import { ticketPath } from '../../shared/lib/links';
import { t as msg } from '../../shared/lib/messages';
import { CommentResults } from './CommentResults';
import { DeviceIpResults, isIpSearch } from './DeviceIpResults';
import { AlarmResults } from './AlarmResults';
import { Office365UserResults } from './Office365UserResults';

/** Items per page of each result list. */
export const SEARCH_PAGE_SIZE = 20;

export function SearchResultsPage() {
  const [params] = useSearchParams();
  const q = (params.get('q') ?? '').trim().slice(0, 100);
  const tenant = useTenantQuery();
  const valid = q.length >= 2;
  const incidents = useApiSWRInfinite('listIncidents', valid ? { query: { ...tenant, q, limit: SEARCH_PAGE_SIZE } } : null);
  const devices = useApiSWRInfinite('listDevices', valid ? { query: { ...tenant, prefix: q, limit: SEARCH_PAGE_SIZE } } : null);

  return (
    <section>
      <PageHeader title={msg('search.results.searchResults')} />
      {!valid ? (
        <EmptyState>{msg('search.results.queryTooShort')}</EmptyState>
      ) : (
        <>
          <p className="muted">
            {msg('search.results.resultsFor')}<strong>{q}</strong>»
          </p>
          <section className="card" aria-labelledby="sr-incidents">
            <h2 id="sr-incidents">{msg('search.results.incidents')}</h2>
            <p className="small muted">{msg('search.results.incidentsHint')}</p>
            <ListFrame list={incidents} empty={msg('search.results.noIncidentMatches')}>
              <ul className="feed">
                {incidents.items.map((i) => (
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
            </ListFrame>
            <p className="small">
              <Link to={`/incidents/all?q=${encodeURIComponent(q)}`}>{msg('search.results.viewAllInList')}</Link>
            </p>
          </section>
          <section className="card" aria-labelledby="sr-devices">
            <h2 id="sr-devices">{msg('search.results.devices')}</h2>
            <p className="small muted">{msg('search.results.devicesHint')}</p>
            <ListFrame list={devices} empty={msg('search.results.noDeviceMatches')}>
              <ul className="feed">
                {devices.items.map((d) => (
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
            </ListFrame>
          </section>
          <CommentResults q={q} tenant={tenant} pageSize={SEARCH_PAGE_SIZE} />
          {isIpSearch(q) && <DeviceIpResults q={q} tenant={tenant} pageSize={SEARCH_PAGE_SIZE} />}
          <AlarmResults q={q} tenant={tenant} pageSize={SEARCH_PAGE_SIZE} />
          <Office365UserResults q={q} tenant={tenant} pageSize={SEARCH_PAGE_SIZE} />
        </>
      )}
    </section>
  );
}
