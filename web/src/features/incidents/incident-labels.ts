/** History fields and values of an incident in the portal's language (the timeline, docs/portal.md#incident-detail). */
import type { IncidentStatus, Severity } from '../../shared/lib/contract';
import { formatDateTime, INCIDENT_STATUS_LABELS, SEVERITY_LABELS } from '../../shared/lib/format';
import { t as msg } from '../../shared/lib/messages';

/** Names of the history's fields: the incident's field labels (`fields.incident.*`, the same as its field registry's). */
export const FIELD_LABELS: Record<string, string> = {
  get status() { return msg('fields.incident.status'); },
  get severity() { return msg('fields.incident.severity'); },
  get description() { return msg('fields.incident.description'); },
  get assignee() { return msg('fields.incident.assignee'); },
  get title() { return msg('fields.incident.title'); },
  get category() { return msg('fields.incident.category'); },
  get closureRequested() { return msg('incidents.detail.closureRequestedChange'); },
  get slaTargets() { return msg('fields.incident.slaTargets'); },
  get slaDueAt() { return msg('fields.incident.slaDueAt'); },
  get slaResult() { return msg('fields.incident.slaResult'); },
};

/**
 * A history value in the portal's language. The API records SLA targets as `response <n> min, resolution <n> min` and
 * times as ISO-8601 UTC (docs/sla.md); they are shown as "respuesta 1 h · resolución 8 h" and local dates.
 */
export function valueLabel(field: string, v: string | null): string {
  if (v === null || v === '') return '—';
  if (field === 'status') return INCIDENT_STATUS_LABELS[v as IncidentStatus] ?? v;
  if (field === 'severity') return SEVERITY_LABELS[v as Severity] ?? v;
  if (field === 'closureRequested') return v === 'true' ? msg('incidents.detail.yes') : msg('incidents.detail.no');
  if (field === 'slaResult') return v === 'met' ? msg('fields.incident.met') : v === 'breached' ? msg('fields.incident.breached') : v;
  if (field === 'slaDueAt' && !Number.isNaN(Date.parse(v))) return formatDateTime(v);
  const targets = field === 'slaTargets' ? /^response (\d+) min, resolution (\d+) min$/.exec(v) : null;
  if (targets) return msg('incidents.detail.responseResolution', { response: minutesLabel(Number(targets[1])), resolution: minutesLabel(Number(targets[2])) });
  return v;
}

/** Minutes as "45 min", "4 h", "1 d 2 h". */
export function minutesLabel(m: number): string {
  if (m < 60) return `${m} min`;
  const d = Math.floor(m / 1440);
  const h = Math.floor((m % 1440) / 60);
  const rest = m % 60;
  return [d ? `${d} d` : '', h ? `${h} h` : '', rest ? `${rest} min` : ''].filter(Boolean).join(' ');
}
