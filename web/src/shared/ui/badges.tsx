/** Badges of API enums, labelled in the current language by the one set of enum labels (`shared/lib/format.ts`). */
import type { AlarmState, DeviceStatus, IncidentStatus, Severity } from '../lib/contract';
import { ALARM_STATE_LABELS, DEVICE_STATUS_LABELS, INCIDENT_STATUS_LABELS, SEVERITY_LABELS } from '../lib/format';
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

export function AlarmStateBadge({ state }: { state: AlarmState }) {
  return <Badge tone={`alarm-${state}`}>{ALARM_STATE_LABELS[state] ?? state}</Badge>;
}
