/**
 * `/notifications/webhooks` "Webhooks" (docs/notifications.md#portal-screens): the active tenant's webhooks
 * (customers: their tenant; staff: the tenant picked in the header) — name, masked URL, format (Microsoft
 * Teams, Slack, JSON firmado), what each receives; "Enviar prueba" shows the receiver's answer; "Eliminar"
 * asks first; "Ver últimas entregas" lists the last 20 deliveries (time, event, result, HTTP status,
 * attempts). The form adds one; a JSON webhook's signing secret is shown this once, with "Copiar" and a
 * warning. Field errors of the API show under their fields.
 */
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { WebhookView } from '../../shared/lib/contract';
import { t as msg } from '../../shared/lib/messages';
import { useTenant } from '../../shared/lib/tenant';
import { EmptyState, ErrorState, LoadingState, PageHeader } from '../../shared/ui/states';
import '../../shared/ui/screens.css';
import { useWebhooks } from './notification-settings';
import './notification-settings.css';
import { CreatedNotice } from './CreatedNotice';
import { WebhookItem } from './WebhookItem';
import { AddWebhookForm } from './AddWebhookForm';

export function WebhooksPage() {
  const { tenants, activeTenant } = useTenant();
  const list = useWebhooks();
  const [created, setCreated] = useState<{ webhook: WebhookView; secret: string | null } | null>(null);
  const [status, setStatus] = useState('');
  const tenantName = tenants.find((t) => t.id === activeTenant)?.name ?? activeTenant ?? '';
  return (
    <section className="notification-settings">
      <PageHeader title={msg('notifications.webhooks.title')}>
        <Link to="/notifications/preferences" className="btn">
          {msg('notifications.preferences.title')}
        </Link>
      </PageHeader>
      <p>{msg('notifications.webhooks.intro', { tenant: tenantName })}</p>
      <p role="status" className="save-status">
        {status}
      </p>
      {created && <CreatedNotice created={created} onDone={() => setCreated(null)} />}
      <section className="card" aria-labelledby="webhooks-list-title">
        <h2 id="webhooks-list-title">{msg('notifications.webhooks.listTitle')}</h2>
        {list.error && !list.data ? (
          <ErrorState error={list.error} onRetry={() => void list.mutate()} />
        ) : !list.data ? (
          <LoadingState rows={2} />
        ) : list.data.items.length === 0 ? (
          <EmptyState>{msg('notifications.webhooks.empty')}</EmptyState>
        ) : (
          <ul className="webhook-list">
            {list.data.items.map((w) => (
              <WebhookItem key={w.id} webhook={w} onStatus={setStatus} />
            ))}
          </ul>
        )}
      </section>
      <AddWebhookForm
        key={activeTenant}
        onCreated={(c) => {
          setCreated(c);
          setStatus(msg('notifications.webhooks.added', { name: c.webhook.name }));
        }}
      />
    </section>
  );
}

/** The new webhook's notice; for JSON its signing secret, shown this once, with "Copiar". */
