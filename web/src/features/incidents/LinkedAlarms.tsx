/**
 * The incident detail's "Alarmas vinculadas" (docs/portal.md#linked-alarms): the alarms the incident was opened
 * for, as they are now (`linkedAlarms` of `GET /incidents/{id}`, docs/api.md#linked-alarms) — kind, device or
 * affected user, title, severity, state and a link to the alarm list (the device's alarms, or the tenant's Office
 * 365 alerts of that user). Nothing is shown for an incident opened for no alarm; an alarm gone since (cleared
 * alarms expire after 90 days) is not listed.
 */
import { Link } from 'react-router-dom';
import type { AlarmState, IncidentDetail } from '../../shared/lib/contract';
import { AlarmStateBadge, SeverityBadge } from '../../shared/ui/badges';
import { Badge } from '../../shared/ui/states';
import { DataTable } from '../../shared/ui/lists';
import { enumLabel } from '../../shared/lib/enum-labels';
import { t as msg } from '../../shared/lib/messages';

type LinkedAlarm = NonNullable<IncidentDetail['linkedAlarms']>[number];

/** The alarm list that shows `a`: its device's alarms, or the Office 365 alerts of its user. */
export function alarmListPath(a: LinkedAlarm, tenantId: string): string {
  const q = new URLSearchParams({ tenant: tenantId });
  if (a.kind === 'device') {
    q.set('device', a.deviceId ?? '');
    return `/devices/alarms?${q.toString()}`;
  }
  if (a.name) q.set('user', a.name);
  q.set('range', 'all');
  return `/office365/alarms?${q.toString()}`;
}

export function LinkedAlarms({ incident }: { incident: Pick<IncidentDetail, 'tenantId' | 'alarms' | 'linkedAlarms'> }) {
  if (!incident.alarms?.length) return null;
  const rows = incident.linkedAlarms ?? [];
  return (
    <section className="card" aria-labelledby="linked-alarms-title">
      <h2 id="linked-alarms-title">{msg('incidents.links.linkedAlarms')}</h2>
      {rows.length === 0 ? (
        <p className="muted">{msg('incidents.links.noLinkedAlarms')}</p>
      ) : (
        <DataTable
          caption={msg('incidents.links.linkedAlarmsList')}
          rows={rows}
          rowKey={(a) => `${a.kind}/${a.deviceId ?? ''}/${a.id}`}
          columns={[
            { label: msg('fields.alarm.kind'), cell: (a) => (a.kind === 'device' ? msg('enums.alarmKind.device') : msg('enums.alarmKind.office365')) },
            { label: msg('incidents.links.source'), cell: (a) => a.name ?? '—' },
            { label: msg('fields.alarm.title'), cell: (a) => a.title },
            { label: msg('fields.alarm.severity'), cell: (a) => <SeverityBadge severity={a.severity} /> },
            {
              label: msg('fields.alarm.state'),
              cell: (a) => (a.kind === 'device' ? <AlarmStateBadge state={a.state as AlarmState} /> : <Badge tone={`o365-${a.state}`}>{enumLabel('o365AlertStatus', a.state)}</Badge>),
            },
            {
              label: msg('incidents.links.viewAlarms'),
              hiddenLabel: true,
              cell: (a) => (
                <Link to={alarmListPath(a, incident.tenantId)} aria-label={msg('incidents.links.viewAlarmOf', { title: a.title, name: a.name ?? '—' })}>
                  {msg('incidents.links.viewAlarms')}
                </Link>
              ),
            },
          ]}
        />
      )}
    </section>
  );
}

/** Device alarms of the incident still open (active or acknowledged): those resolving it would clear. */
export function openLinkedDeviceAlarms(incident: Pick<IncidentDetail, 'linkedAlarms'>): number {
  return (incident.linkedAlarms ?? []).filter((a) => a.kind === 'device' && (a.state === 'active' || a.state === 'acknowledged')).length;
}

/**
 * Staff resolving an incident with open linked device alarms: "Borrar las alarmas vinculadas" (checked by default;
 * sent as `clearLinkedAlarms`, docs/api.md#linked-alarms). Nothing when none is open.
 */
export function ClearLinkedAlarmsOption({ open, checked, onChange }: { open: number; checked: boolean; onChange: (v: boolean) => void }) {
  if (open === 0) return null;
  return (
    <div className="field">
      <label className="checkbox">
        <input type="checkbox" id="update-clear-alarms" checked={checked} onChange={(e) => onChange(e.target.checked)} aria-describedby="update-clear-alarms-hint" />{' '}
        {msg('incidents.links.clearLinkedAlarms')}
      </label>
      <p id="update-clear-alarms-hint" className="muted small">
        {msg('incidents.links.clearLinkedAlarmsHint', { count: open })}
      </p>
    </div>
  );
}
