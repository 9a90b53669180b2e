/**
 * Content of the header notifications dropdown (docs/portal.md#header): the tenant's latest open device
 * alarms (`GET /alarms?state=active`, 4) and latest incident changes (the 20 newest incidents, 4 most
 * recently updated), each linking to its screen, with "Ver todas" and the empty state "No hay
 * registros". Rendered only while the dropdown is open, so it fetches on open (SWR caches it).
 */
import { Link } from 'react-router-dom';
import { useApiSWR } from '../../shared/lib/api-context';
import { formatDateTime, INCIDENT_STATUS_LABELS } from '../../shared/lib/format';
import { useTenantQuery } from '../../shared/lib/tenant';
import { SeverityBadge } from '../../shared/ui/badges';
import { ErrorState, LoadingState } from '../../shared/ui/states';
import { ticketPath } from '../../shared/lib/links';
import { t as msg } from '../../shared/lib/messages';

export function NotificationsPanel({ onNavigate }: { onNavigate: () => void }) {
  const tenant = useTenantQuery();
  const alarms = useApiSWR('listAlarms', { query: { ...tenant, state: 'active', limit: 4 } });
  const incidents = useApiSWR('listIncidents', { query: { ...tenant, limit: 20 } });
  const error = alarms.error ?? incidents.error;
  const updates = [...(incidents.data?.items ?? [])].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt)).slice(0, 4);
  const alarmItems = alarms.data?.items ?? [];

  return (
    <div className="notifications">
      <p className="dropdown-title">{msg('notifications.panel.notifications')}</p>
      {error && !(alarms.data && incidents.data) ? (
        <ErrorState
          error={error}
          onRetry={() => {
            void alarms.mutate();
            void incidents.mutate();
          }}
        />
      ) : !alarms.data || !incidents.data ? (
        <LoadingState rows={3} />
      ) : alarmItems.length === 0 && updates.length === 0 ? (
        <p className="empty-state">{msg('notifications.panel.noRecords')}</p>
      ) : (
        <ul className="feed" aria-label={msg('notifications.panel.latestNotifications')}>
          {alarmItems.map((a) => (
            <li key={`a-${a.deviceId}/${a.id}`}>
              <Link to="/devices/alarms?state=active" onClick={onNavigate}>
                {msg('notifications.panel.alarm')} {a.title}
              </Link>
              <span className="feed-meta">
                <SeverityBadge severity={a.severity} /> <time dateTime={a.raisedAt}>{formatDateTime(a.raisedAt)}</time>
              </span>
            </li>
          ))}
          {updates.map((i) => (
            <li key={`i-${i.id}`}>
              <Link to={ticketPath(i.id, i.tenantId)} onClick={onNavigate}>
                {i.id} · {i.title}
              </Link>
              <span className="feed-meta">
                {INCIDENT_STATUS_LABELS[i.status]} · <time dateTime={i.updatedAt}>{formatDateTime(i.updatedAt)}</time>
              </span>
            </li>
          ))}
        </ul>
      )}
      <p className="small">
        <Link to="/devices/alarms" onClick={onNavigate}>
          {msg('notifications.panel.viewAll')}
        </Link>{' '}
        ·{' '}
        <Link to="/incidents/all" onClick={onNavigate}>
          {msg('notifications.panel.viewIncidents')}
        </Link>
      </p>
    </div>
  );
}
