/**
 * `/notifications/preferences` "Preferencias de aviso" (docs/notifications.md#portal-screens): the caller's
 * e-mail notices in the active tenant — e-mail on/off, minimum severity, which event kinds, daily digest, monthly PDF report —
 * saved with `PUT /notifications/preferences`; the API's field errors show under their fields, success as a
 * status message. Staff (group `admin`) are not tenant members and get no customer e-mail: they see a notice
 * and a link to the tenant's webhooks instead of the form.
 */
import { Link } from 'react-router-dom';
import { t as msg } from '../../shared/lib/messages';
import { useTenant } from '../../shared/lib/tenant';
import { ErrorState, LoadingState, PageHeader } from '../../shared/ui/states';
import { useNotificationPreferences } from './notification-settings';
import './notification-settings.css';
import { PreferencesForm } from './PreferencesForm';

/** `/notifications/preferences`: the form of the active tenant's notification preferences, once they are loaded. */
export function NotificationPreferencesPage() {
  const { me, tenants, activeTenant } = useTenant();
  const prefs = useNotificationPreferences();
  const tenantName = tenants.find((t) => t.id === activeTenant)?.name ?? activeTenant ?? '';
  return (
    <section className="notification-settings">
      <PageHeader title={msg('notifications.preferences.title')}>
        <Link to="/notifications/webhooks" className="btn">
          {msg('notifications.webhooks.title')}
        </Link>
      </PageHeader>
      {me?.isAdmin ? (
        <div className="card">
          <p>{msg('notifications.preferences.staffNotice')}</p>
          <p>
            <Link to="/notifications/webhooks">{msg('notifications.preferences.goToWebhooks')}</Link>
          </p>
        </div>
      ) : prefs.error && !prefs.data ? (
        <ErrorState error={prefs.error} onRetry={() => void prefs.mutate()} />
      ) : !prefs.data ? (
        <LoadingState rows={5} />
      ) : (
        // Re-mounted per tenant so a tenant switch shows that tenant's saved values.
        <PreferencesForm key={activeTenant} initial={prefs.data} tenantName={tenantName} />
      )}
    </section>
  );
}
