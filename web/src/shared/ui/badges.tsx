/** Badges of API enums with Spanish labels (`shared/lib/format.ts`). */
import type { AlarmState, DeviceStatus, IncidentSource, IncidentStatus, Severity } from '../lib/contract';
import { DEVICE_STATUS_LABELS, INCIDENT_STATUS_LABELS, SEVERITY_LABELS } from '../lib/format';
import { Badge } from './states';
import { t as msg } from '../../shared/lib/messages';

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
  get active() { return msg('ui.badges.active'); },
  get acknowledged() { return msg('ui.badges.acknowledged'); },
  get cleared() { return msg('ui.badges.cleared'); },
};

/** Spanish labels of incident sources (contract `INCIDENT_SOURCES`). */
export const INCIDENT_SOURCE_LABELS: Record<IncidentSource, string> = {
  get portal() { return msg('ui.badges.portal'); },
  soc: 'SOC',
  get alarm() { return msg('ui.badges.alarm'); },
};

export function AlarmStateBadge({ state }: { state: AlarmState }) {
  return <Badge tone={`alarm-${state}`}>{ALARM_STATE_LABELS[state] ?? state}</Badge>;
}
