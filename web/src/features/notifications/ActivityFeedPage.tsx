/**
 * `/notifications` "Actividad" (docs/portal.md#notifications, docs/notifications.md): the active tenant's
 * activity events, newest first, cursor-paged ("Cargar más"), with "Nuevo" on the caller's unread ones and
 * "Marcar todo como leído". Loading, error and empty states from `ListFrame`. Refreshed with the bell.
 */
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { toApiError } from '../../shared/lib/api';
import { useApiSWRInfinite } from '../../shared/lib/api-context';
import { formatDateTime } from '../../shared/lib/format';
import { t as msg } from '../../shared/lib/messages';
import { useTenant } from '../../shared/lib/tenant';
import { ListFrame } from '../../shared/ui/lists';
import { PageHeader } from '../../shared/ui/states';
import { ActivitySeverityBadge } from './ActivitySeverityBadge';
import { activityTitle } from './event-title';
import '../../shared/ui/screens.css';
import { isUnread, useActivityTenant, useActivityUnread, useMarkAllRead } from './activity';
import './notifications.css';

/** Page size of the feed page. */
export const FEED_PAGE_SIZE = 25;

export function ActivityFeedPage() {
  const { me } = useTenant();
  const tenant = useActivityTenant();
  const list = useApiSWRInfinite('listActivity', tenant ? { query: { ...tenant, limit: FEED_PAGE_SIZE } } : null);
  const unread = useActivityUnread();
  const markAll = useMarkAllRead();
  const [status, setStatus] = useState<string | null>(null);

  const onMarkAll = async () => {
    try {
      await markAll();
      await list.mutate();
      setStatus(msg('notifications.panel.markedRead'));
    } catch (err) {
      setStatus(msg('notifications.panel.markReadFailed', { userMessage: toApiError(err).userMessage }));
    }
  };

  return (
    <section>
      <PageHeader title={msg('notifications.feed.title')}>
        <Link to="/notifications/preferences" className="btn">
          {msg('notifications.preferences.title')}
        </Link>
        <Link to="/notifications/webhooks" className="btn">
          {msg('notifications.webhooks.title')}
        </Link>
        <button type="button" className="btn" disabled={!unread.data || unread.data.count === 0} onClick={() => void onMarkAll()}>
          {msg('notifications.panel.markAllRead')}
        </button>
      </PageHeader>
      {unread.data && unread.data.count > 0 && <p className="muted">{msg('notifications.panel.unread', { count: unread.data.count })}</p>}
      {status && (
        <p role="status" className="muted small">
          {status}
        </p>
      )}
      <ListFrame list={list} empty={msg('notifications.feed.empty')}>
        <table className="data-table responsive">
          <caption className="visually-hidden">{msg('notifications.feed.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{msg('notifications.feed.when')}</th>
              <th scope="col">{msg('notifications.feed.what')}</th>
              <th scope="col">{msg('notifications.feed.severity')}</th>
              <th scope="col">{msg('notifications.feed.who')}</th>
            </tr>
          </thead>
          <tbody>
            {list.items.map((e) => (
              <tr key={e.eventId} className={isUnread(e, unread.data, me?.sub) ? 'feed-unread' : undefined}>
                <td data-label={msg('notifications.feed.when')}>
                  <time dateTime={e.at}>{formatDateTime(e.at)}</time>
                </td>
                <td data-label={msg('notifications.feed.what')}>
                  {isUnread(e, unread.data, me?.sub) && <strong className="feed-new">{msg('notifications.panel.isNew')} · </strong>}
                  <Link to={e.link}>{activityTitle(e)}</Link>
                </td>
                <td data-label={msg('notifications.feed.severity')}>
                  <ActivitySeverityBadge severity={e.severity} />
                </td>
                <td data-label={msg('notifications.feed.who')}>{e.actor?.name ?? msg('notifications.panel.system')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ListFrame>
    </section>
  );
}
