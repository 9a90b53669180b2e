/** "Ver últimas entregas": a webhook's last 20 deliveries (time, event, result, HTTP status, attempts). */
import { useId } from 'react';
import type { WebhookView } from '../../shared/lib/contract';
import { formatDateTime } from '../../shared/lib/format';
import { WEBHOOK_DELIVERY_STATE_LABELS } from '../../shared/lib/enum-labels';
import { t as msg } from '../../shared/lib/messages';
import { EmptyState, ErrorState, LoadingState } from '../../shared/ui/states';
import '../../shared/ui/screens.css';
import { kindLabel, useWebhookDeliveries, sendErrorText } from './notification-settings';
import './notification-settings.css';

export function Deliveries({ webhook: w }: { webhook: WebhookView }) {
  const d = useWebhookDeliveries(w.id);
  const id = useId();
  if (d.error && !d.data) return <ErrorState error={d.error} onRetry={() => void d.mutate()} />;
  if (!d.data) return <LoadingState rows={2} />;
  return (
    <div className="deliveries">
      <div className="form-actions">
        <button type="button" className="btn btn-small" onClick={() => void d.mutate()}>
          {msg('actions.refresh')}
        </button>
      </div>
      {d.data.items.length === 0 ? (
        <EmptyState>{msg('notifications.webhooks.deliveriesEmpty')}</EmptyState>
      ) : (
        // A heading rather than a <caption>: the phone layout turns the table into blocks, where a caption is squeezed.
        <>
          <h4 id={`${id}-title`} className="deliveries-title">
            {msg('notifications.webhooks.deliveriesCaption', { name: w.name })}
          </h4>
          <table className="data-table responsive" aria-labelledby={`${id}-title`}>
            <thead>
              <tr>
                <th scope="col">{msg('notifications.webhooks.when')}</th>
                <th scope="col">{msg('notifications.webhooks.event')}</th>
                <th scope="col">{msg('notifications.webhooks.result')}</th>
                <th scope="col">{msg('notifications.webhooks.httpStatus')}</th>
                <th scope="col">{msg('notifications.webhooks.attempts')}</th>
              </tr>
            </thead>
            <tbody>
              {d.data.items.map((x) => (
                <tr key={x.deliveryId}>
                  <td data-label={msg('notifications.webhooks.when')}>
                    <time dateTime={x.sentAt ?? x.updatedAt}>{formatDateTime(x.sentAt ?? x.updatedAt)}</time>
                  </td>
                  <td data-label={msg('notifications.webhooks.event')}>
                    <span className="delivery-event">
                      <span className="muted small">{kindLabel(x.kind)}</span>
                      <span>{x.title}</span>
                    </span>
                  </td>
                  <td data-label={msg('notifications.webhooks.result')}>
                    <span className="delivery-event">
                      <strong className={`delivery-${x.state}`}>{WEBHOOK_DELIVERY_STATE_LABELS[x.state]}</strong>
                      {x.lastError && x.state !== 'sent' && <span className="muted small">{sendErrorText(x.lastError)}</span>}
                      {x.nextAttemptAt && <span className="muted small">{msg('notifications.webhooks.nextAttempt', { when: formatDateTime(x.nextAttemptAt) })}</span>}
                    </span>
                  </td>
                  <td data-label={msg('notifications.webhooks.httpStatus')}>{x.lastStatus ?? '—'}</td>
                  <td data-label={msg('notifications.webhooks.attempts')}>{x.attempts}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </div>
  );
}
