/**
 * The "Alarmas" section of the search page: the tenant's device alarms whose title has every word of `q`
 * (`GET /search/alarms`, docs/api.md#alarm-search), newest raised first, each linked to its device's page; first
 * page of `pageSize`, "Cargar más" follows the cursor.
 */
import { Link } from 'react-router-dom';
import { useApiSWRInfinite } from '../../shared/lib/api-context';
import { formatDateTime } from '../../shared/lib/format';
import { devicePath } from '../../shared/lib/links';
import { t as msg } from '../../shared/lib/messages';
import { AlarmStateBadge, SeverityBadge } from '../../shared/ui/badges';
import { ResultsSection } from './ResultsSection';

export function AlarmResults({ q, tenant, pageSize }: { q: string; tenant: { tenant?: string }; pageSize: number }) {
  const alarms = useApiSWRInfinite('searchAlarms', { query: { ...tenant, q, limit: pageSize } });
  return (
    <ResultsSection id="sr-alarms" title={msg('search.results.alarms')} hint={msg('search.results.alarmsHint')} list={alarms} empty={msg('search.results.noAlarmMatches')}>
      {alarms.items.map((a) => (
        <li key={`${a.deviceId}/${a.id}`}>
          <Link to={devicePath(a.deviceId, a.tenantId)}>
            {a.title} · {a.deviceName ?? a.deviceId}
          </Link>
          <span className="feed-meta">
            <SeverityBadge severity={a.severity} /> <AlarmStateBadge state={a.state} />{' '}
            <time dateTime={a.raisedAt}>{formatDateTime(a.raisedAt)}</time>
          </span>
        </li>
      ))}
    </ResultsSection>
  );
}
