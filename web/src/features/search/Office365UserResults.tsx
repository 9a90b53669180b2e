/**
 * The "Usuarios de Office 365" section of the search page: the users the tenant's Office 365 alerts named whose
 * UPN (e-mail) has a part starting with `q` (`GET /search/office365-users`, docs/api.md#office-365-user-search),
 * in UPN order, each linked to the Office 365 alerts filtered by that user, with when the last alert about them
 * was detected; first page of `pageSize`, "Cargar más" follows the cursor.
 */
import { Link } from 'react-router-dom';
import { useApiSWRInfinite } from '../../shared/lib/api-context';
import { formatDateTime } from '../../shared/lib/format';
import { t as msg } from '../../shared/lib/messages';
import { ResultsSection } from './ResultsSection';

export function Office365UserResults({ q, tenant, pageSize }: { q: string; tenant: { tenant?: string }; pageSize: number }) {
  const users = useApiSWRInfinite('searchOffice365Users', { query: { ...tenant, q, limit: pageSize } });
  return (
    <ResultsSection id="sr-o365-users" title={msg('search.results.office365Users')} hint={msg('search.results.office365UsersHint')} list={users} empty={msg('search.results.noOffice365UserMatches')}>
      {users.items.map((u) => (
        <li key={u.upn}>
          <Link to={`/office365/alarms?user=${encodeURIComponent(u.upn)}`}>{u.upn}</Link>
          <span className="feed-meta">
            {msg('search.results.lastAlert')} <time dateTime={u.lastAlertAt}>{formatDateTime(u.lastAlertAt)}</time>
          </span>
        </li>
      ))}
    </ResultsSection>
  );
}
