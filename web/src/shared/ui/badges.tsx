/** Badges of API enums with Spanish labels (`shared/lib/format.ts`). */
import type { DeviceStatus, IncidentStatus, Severity } from '../lib/contract';
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
