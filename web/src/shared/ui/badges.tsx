/** Badges of API enums with Spanish labels (`shared/lib/format.ts`). */
import type { AlarmState, DeviceStatus, IncidentSource, IncidentStatus, Severity } from '../lib/contract';
import { DEVICE_STATUS_LABELS, INCIDENT_STATUS_LABELS, SEVERITY_LABELS } from '../lib/format';
import { Badge } from './states';

export function SeverityBadge({ severity }: { severity: Severity }) {
  return <Badge tone={`sev-${severity}`}>{SEVERITY_LABELS[severity] ?? severity}</Badge>;
}

export function IncidentStatusBadge({ status }: { status: IncidentStatus }) {
  return <Badge tone={`st-${status}`}>{INCIDENT_STATUS_LABELS[status] ?? status}</Badge>;
}

export function DeviceStatusBadge({ status }: { status: DeviceStatus }) {
  return <Badge tone={`dev-${status}`}>{DEVICE_STATUS_LABELS[status] ?? status}</Badge>;
}

/** Spanish labels of device-alarm states (contract `ALARM_STATES`). */
export const ALARM_STATE_LABELS: Record<AlarmState, string> = {
  active: 'Activa',
  acknowledged: 'Reconocida',
  cleared: 'Resuelta',
};

/** Spanish labels of incident sources (contract `INCIDENT_SOURCES`). */
export const INCIDENT_SOURCE_LABELS: Record<IncidentSource, string> = {
  portal: 'Portal',
  soc: 'SOC',
  alarm: 'Alarma',
};

export function AlarmStateBadge({ state }: { state: AlarmState }) {
  return <Badge tone={`alarm-${state}`}>{ALARM_STATE_LABELS[state] ?? state}</Badge>;
}
