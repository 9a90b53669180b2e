/**
 * The incident cell of an alarm row (device alarms, Office 365 alerts; docs/portal.md#linked-alarms): the link
 * to the incident opened for it ("INC-000123") or, without one, "Abrir incidente" — the new-incident form
 * prefilled from the alarm (`newIncidentFromAlarmPath`).
 */
import { Link } from 'react-router-dom';
import { newIncidentFromAlarmPath, type AlarmForIncident } from '../lib/alarm-incident';
import { ticketPath } from '../lib/links';
import { t as msg } from '../lib/messages';

export function AlarmIncidentCell({ alarm, incidentId }: { alarm: AlarmForIncident; incidentId: string | undefined }) {
  if (incidentId) {
    return (
      <Link className="incident-ref" to={ticketPath(incidentId, alarm.tenantId)} aria-label={msg('ui.alarmIncident.incidentOf', { id: incidentId, title: alarm.title })}>
        {incidentId}
      </Link>
    );
  }
  return (
    <Link className="btn" to={newIncidentFromAlarmPath(alarm)} aria-label={msg('ui.alarmIncident.openIncidentFor', { title: alarm.title, name: alarm.name ?? '—' })}>
      {msg('ui.alarmIncident.openIncident')}
    </Link>
  );
}
