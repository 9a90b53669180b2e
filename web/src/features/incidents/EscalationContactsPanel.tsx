/**
 * "A quién llamar" on an incident, for staff (issue: escalation contacts shown on each incident of the tenant;
 * docs/portal.md#incident-detail): the tenant's escalation contacts called for the incident's severity, those
 * available now first (shared/lib/escalation-hours.ts: `24x7` or days + HH:MM in the contact's IANA zone), each with
 * a `tel:` and a `mailto:` link, its hours and notes. Read with `GET /escalation-contacts?tenant=<incident's
 * tenant>` (one GetItem); loading, error and both empty states (none at all, none for this severity).
 */
import { useApiSWR } from '../../shared/lib/api-context';
import type { EscalationContact, Severity } from '../../shared/lib/contract';
import { contactsFor } from '../../shared/lib/escalation-hours';
import { SEVERITY_LABELS } from '../../shared/lib/format';
import { t as msg } from '../../shared/lib/messages';
import { Badge, ErrorState, LoadingState } from '../../shared/ui/states';

/** The hours of a contact in words: "24x7", or "lun, mar · 09:00–18:00 (Europe/Madrid)". */
export function hoursText(hours: EscalationContact['hours']): string {
  if (hours === '24x7') return msg('escalation.panel.always');
  return `${hours.days.map((d) => msg(`escalation.days.${d}`)).join(', ')} · ${hours.from}–${hours.to} (${hours.timeZone})`;
}

export function EscalationContactsPanel({ tenantId, severity, now = new Date() }: { tenantId: string; severity: Severity; now?: Date }) {
  const { data, error, mutate } = useApiSWR('getEscalationContacts', { query: { tenant: tenantId } }, { revalidateOnFocus: false });
  const applicable = data ? contactsFor(data.contacts, severity, now) : [];
  return (
    <section className="card" aria-labelledby="escalation-panel-title">
      <h2 id="escalation-panel-title">{msg('escalation.panel.title')}</h2>
      {error && !data ? (
        <ErrorState error={error} onRetry={() => void mutate()} />
      ) : !data ? (
        <LoadingState rows={2} />
      ) : data.contacts.length === 0 ? (
        <p className="empty-state">{msg('escalation.panel.noneAtAll')}</p>
      ) : applicable.length === 0 ? (
        <p className="empty-state">{msg('escalation.panel.none')}</p>
      ) : (
        <>
          <p className="muted small">{msg('escalation.panel.forSeverity', { severity: SEVERITY_LABELS[severity] })}</p>
          <ol className="escalation-panel-list">
            {applicable.map((c) => (
              <li key={`${c.name}|${c.phone}`}>
                <p className="escalation-panel-name">
                  <strong>{c.name}</strong>
                  {c.role && <span className="muted"> · {c.role}</span>}{' '}
                  <Badge tone={c.availableNow ? 'ok' : 'muted'}>{c.availableNow ? msg('escalation.panel.availableNow') : msg('escalation.panel.notNow')}</Badge>
                </p>
                <p>
                  {/* The visible text stays in the accessible name (WCAG 2.5.3 Label in Name): a hidden prefix says what the link does. */}
                  <a href={`tel:${c.phone}`}>
                    <span className="visually-hidden">{msg('escalation.panel.call', { name: c.name })}: </span>
                    {c.phone}
                  </a>
                  {' · '}
                  <a href={`mailto:${c.email}`}>
                    <span className="visually-hidden">{msg('escalation.panel.write', { name: c.name })}: </span>
                    {c.email}
                  </a>
                </p>
                <p className="muted small">{hoursText(c.hours)}</p>
                {c.notes && <p className="small pre-wrap">{c.notes}</p>}
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
