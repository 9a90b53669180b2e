/**
 * The header's notifications (docs/portal.md#header, docs/notifications.md): `NotificationsBell` is the
 * bell with the caller's unread count ("99+" beyond 99) and `useBellLabel` its accessible name;
 * `NotificationsPanel` the dropdown: the latest activity events of the active tenant (each linking to its
 * item, "Nuevo" on the unread ones), "Marcar todo como leído" and "Ver todas" (→ `/notifications`). Loading,
 * error ("Reintentar") and empty ("No hay registros") states.
 */
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { toApiError } from '../../shared/lib/api';
import { formatDateTime } from '../../shared/lib/format';
import { t as msg } from '../../shared/lib/messages';
import { useTenant } from '../../shared/lib/tenant';
import { ErrorState, LoadingState } from '../../shared/ui/states';
import { ActivitySeverityBadge } from './ActivitySeverityBadge';
import { activityTitle } from './event-title';
import { badgeText, isUnread, useActivityUnread, useLatestActivity, useMarkAllRead } from './activity';
import './notifications.css';

/** The bell icon with the unread badge (inside the header's dropdown button). */
export function NotificationsBell() {
  const unread = useActivityUnread();
  const text = badgeText(unread.data);
  return (
    <span className="bell-wrap">
      <span className="bell" aria-hidden="true" />
      {text && (
        <span className="bell-count" data-testid="bell-count" aria-hidden="true">
          {text}
        </span>
      )}
    </span>
  );
}

/** Accessible name of the bell button: "Notificaciones" plus the unread count when there is one. */
export function useBellLabel(): string {
  const unread = useActivityUnread();
  const text = badgeText(unread.data);
  if (!text) return msg('notifications.panel.notifications');
  const n = text === '99+' ? msg('notifications.panel.unreadCapped') : msg('notifications.panel.unread', { count: unread.data?.count ?? 0 });
  return msg('notifications.panel.bellLabel', { unread: n });
}

export function NotificationsPanel({ onNavigate }: { onNavigate: () => void }) {
  const { me } = useTenant();
  const unread = useActivityUnread();
  const latest = useLatestActivity();
  const markAll = useMarkAllRead();
  const [status, setStatus] = useState<string | null>(null);
  const items = latest.data?.items ?? [];

  const onMarkAll = async () => {
    try {
      await markAll();
      setStatus(msg('notifications.panel.markedRead'));
    } catch (err) {
      setStatus(msg('notifications.panel.markReadFailed', { userMessage: toApiError(err).userMessage }));
    }
  };

  return (
    <div className="notifications">
      <p className="dropdown-title">
        {msg('notifications.panel.notifications')}
        {unread.data && unread.data.count > 0 && <span className="muted small"> · {msg('notifications.panel.unread', { count: unread.data.count })}</span>}
      </p>
      {latest.error && !latest.data ? (
        <ErrorState error={latest.error} onRetry={() => void latest.mutate()} />
      ) : !latest.data ? (
        <LoadingState rows={3} />
      ) : items.length === 0 ? (
        <p className="empty-state">{msg('common.noRecords')}</p>
      ) : (
        <ul className="feed" aria-label={msg('notifications.panel.latestNotifications')}>
          {items.map((e) => (
            <li key={e.eventId} className={isUnread(e, unread.data, me?.sub) ? 'feed-unread' : undefined}>
              <Link to={e.link} onClick={onNavigate}>
                {activityTitle(e)}
              </Link>
              <span className="feed-meta">
                {isUnread(e, unread.data, me?.sub) && <strong className="feed-new">{msg('notifications.panel.isNew')} · </strong>}
                <ActivitySeverityBadge severity={e.severity} /> <time dateTime={e.at}>{formatDateTime(e.at)}</time>
              </span>
            </li>
          ))}
        </ul>
      )}
      {status && (
        <p role="status" className="muted small">
          {status}
        </p>
      )}
      <p className="small notifications-actions">
        <button type="button" className="btn btn-small" disabled={!unread.data || unread.data.count === 0} onClick={() => void onMarkAll()}>
          {msg('notifications.panel.markAllRead')}
        </button>{' '}
        ·{' '}
        <Link to="/notifications" onClick={onNavigate}>
          {msg('notifications.panel.viewAll')}
        </Link>
      </p>
    </div>
  );
}
