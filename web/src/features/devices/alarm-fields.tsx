/**
 * A device alarm's fields, declared once (docs/portal.md#field-registries): the columns of `/devices/alarms` and
 * of the device page's alarm table both come from {@link DEVICE_ALARM_FIELDS}, so the two screens name a column
 * alike. Labels are the catalogue's `fields.alarm.*`; the device page shows the columns of
 * {@link DEVICE_PAGE_ALARM_KEYS} (one device: no device or incident column).
 */
import { Link } from 'react-router-dom';
import type { DeviceAlarm } from '../../shared/lib/contract';
import { formatDateTime } from '../../shared/lib/format';
import { devicePath } from '../../shared/lib/links';
import { t as msg } from '../../shared/lib/messages';
import { AlarmIncidentCell } from '../../shared/ui/AlarmIncidentCell';
import { AlarmStateBadge, SeverityBadge } from '../../shared/ui/badges';
import type { EntityField } from '../../shared/ui/fields';
import { Badge } from '../../shared/ui/states';

/** The device's name on the row (alarms written before the copy: its id until the upgrade fills it). */
export const alarmDeviceName = (a: DeviceAlarm): string => a.deviceName ?? a.deviceId;

/** Every field of a device alarm the portal shows, in the alarm list's column order. */
export const DEVICE_ALARM_FIELDS: readonly EntityField<DeviceAlarm>[] = [
  {
    key: 'title',
    label: () => msg('fields.alarm.title'),
    // Raised inside a maintenance window: it notified nobody (docs/api.md#maintenance-windows).
    cell: (a) => (a.inMaintenance ? <>{a.title} <Badge tone="muted">{msg('devices.alarms.inMaintenance')}</Badge></> : a.title),
  },
  { key: 'device', label: () => msg('fields.alarm.device'), cell: (a) => <Link to={devicePath(a.deviceId, a.tenantId)}>{alarmDeviceName(a)}</Link> },
  { key: 'severity', label: () => msg('fields.alarm.severity'), cell: (a) => <SeverityBadge severity={a.severity} /> },
  { key: 'state', label: () => msg('fields.alarm.state'), cell: (a) => <AlarmStateBadge state={a.state} /> },
  { key: 'raisedAt', label: () => msg('fields.alarm.raisedAt'), cell: (a) => <time dateTime={a.raisedAt}>{formatDateTime(a.raisedAt)}</time> },
  {
    key: 'acknowledged',
    label: () => msg('fields.alarm.acknowledged'),
    cell: (a) => (a.acknowledgedAt ? `${formatDateTime(a.acknowledgedAt)}${a.acknowledgedBy ? ` · ${a.acknowledgedBy}` : ''}` : '—'),
  },
  {
    key: 'incident',
    label: () => msg('ui.alarmIncident.incident'),
    cell: (a) => (
      <AlarmIncidentCell
        alarm={{ kind: 'device', id: a.id, deviceId: a.deviceId, tenantId: a.tenantId, title: a.title, severity: a.severity, name: alarmDeviceName(a), at: a.raisedAt }}
        incidentId={a.incidentId}
      />
    ),
  },
];

/** The columns of the device page's alarm table (the device's own alarms), in its order. */
export const DEVICE_PAGE_ALARM_KEYS = ['title', 'severity', 'state', 'raisedAt', 'acknowledged'] as const;
