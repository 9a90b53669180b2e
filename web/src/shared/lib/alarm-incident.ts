/**
 * "Abrir incidente" from an alarm (docs/portal.md#linked-alarms, docs/api.md#linked-alarms): the address of the
 * new-incident form prefilled from a device alarm or an Office 365 alert (`newIncidentFromAlarmPath`), and that
 * form's reading of it (`alarmPrefillOf`). The alarm travels in the address (`/incidents/new?alarm=…`), so the
 * form survives a reload; the API checks the link itself (tenant, existence, not already linked).
 */
import { SEVERITIES, type Severity } from './contract';

/** The alarm an incident is opened for, as the alarm lists show it. */
export interface AlarmForIncident {
  kind: 'device' | 'office365';
  id: string;
  /** Device alarms only: its device (part of the alarm's key). */
  deviceId?: string | undefined;
  tenantId: string;
  title: string;
  severity: Severity;
  /** The device's name, or the affected user of an alert (null: none). */
  name: string | null;
  /** Raised (device alarm) or detected (alert), ISO-8601 UTC. */
  at: string;
}

/**
 * The new-incident form's address for `a`: `/incidents/new?tenant=<t>&alarmKind=…&alarmId=…[&deviceId=…]&title=…&severity=…&name=…&at=…`.
 */
export function newIncidentFromAlarmPath(a: AlarmForIncident): string {
  const q = new URLSearchParams({ tenant: a.tenantId, alarmKind: a.kind, alarmId: a.id });
  if (a.deviceId) q.set('deviceId', a.deviceId);
  q.set('title', a.title);
  q.set('severity', a.severity);
  if (a.name) q.set('name', a.name);
  q.set('at', a.at);
  return `/incidents/new?${q.toString()}`;
}

/**
 * The alarm named by the new-incident form's address, or null when it names none or a malformed one. The
 * alarm's severity is the incident's (both use the same four-level scale, `SEVERITIES`: critical, high, medium,
 * low), so it maps onto itself; an unknown value leaves the form's severity to choose.
 */
export function alarmPrefillOf(params: URLSearchParams): (Omit<AlarmForIncident, 'severity'> & { severity: Severity | '' }) | null {
  const kind = params.get('alarmKind');
  const id = params.get('alarmId');
  const tenantId = params.get('tenant');
  const deviceId = params.get('deviceId') ?? undefined;
  if ((kind !== 'device' && kind !== 'office365') || !id || !/^[A-Za-z0-9_.:-]{1,128}$/.test(id) || !tenantId) return null;
  if ((kind === 'device') !== (deviceId !== undefined)) return null;
  const severity = params.get('severity') ?? '';
  return {
    kind,
    id,
    deviceId,
    tenantId,
    title: (params.get('title') ?? '').slice(0, 200),
    severity: (SEVERITIES as readonly string[]).includes(severity) ? (severity as Severity) : '',
    name: params.get('name'),
    at: params.get('at') ?? '',
  };
}

/** `at` as `yyyy-mm-dd hh:mm` UTC (the form's description is sent as text: no locale formatting). */
export function utcMinute(at: string): string {
  const d = new Date(at);
  return Number.isNaN(d.getTime()) ? at : d.toISOString().slice(0, 16).replace('T', ' ');
}
