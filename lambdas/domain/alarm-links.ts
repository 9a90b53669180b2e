/**
 * Alarms linked to incidents (docs/api.md#linked-alarms): which alarms an incident being created may link
 * (`planAlarmLinks`), and clearing an incident's linked device alarms when staff resolve it (`clearLinkedAlarms`).
 */
import { alarmRefKey, type AlarmRef, type Incident } from '../contract/schemas.js';
import { auditEntryFor, type AuditRequest } from './audit.js';
import { ApiError } from './errors.js';
import type { Identity } from './identity.js';
import type { AlarmLink, DevicesPort, IncidentsPort } from './ports.js';

/**
 * Reads the alarms `refs` of the tenant (one consistent BatchGetItem) and, for those already linked, their
 * incident (one GetItem each), and answers the links to write with the link each alarm held (the create's
 * condition). An alarm linked to a closed incident (or to one that no longer exists) may be linked again.
 * @throws ApiError ALARM_NOT_FOUND (404, `details.alarms`: the refs the tenant does not have — another tenant's
 *         alarm included, its key holds the tenant); ALARM_ALREADY_LINKED (409, `details.alarms`: each ref with
 *         the `incidentId` of the not-closed incident it is linked to).
 */
export async function planAlarmLinks(port: Pick<IncidentsPort, 'getAlarms' | 'getIncident'>, tenantId: string, refs: readonly AlarmRef[]): Promise<AlarmLink[]> {
  const alarms = await port.getAlarms(tenantId, refs);
  const missing = refs.filter((_, i) => alarms[i] === null);
  if (missing.length) throw new ApiError('ALARM_NOT_FOUND', `${missing.length} of the alarms to link do not exist in tenant ${tenantId}`, { alarms: missing });
  const linkedTo = [...new Set(alarms.map((a) => a?.incidentId).filter((id): id is string => id !== undefined))];
  const open = new Set<string>();
  for (const id of linkedTo) {
    const incident = await port.getIncident(tenantId, id);
    if (incident && incident.status !== 'closed') open.add(id);
  }
  const taken = refs.flatMap((r, i) => (alarms[i]?.incidentId && open.has(alarms[i].incidentId) ? [{ ...r, incidentId: alarms[i].incidentId }] : []));
  if (taken.length) throw new ApiError('ALARM_ALREADY_LINKED', `${taken.length} of the alarms are already linked to an open incident`, { alarms: taken });
  return refs.map((ref, i) => ({ ref, previousIncidentId: alarms[i]?.incidentId ?? null }));
}

/**
 * Clears the incident's linked device alarms still open (active or acknowledged), as a collector's
 * `state: cleared` does (`DevicesPort.transitionAlarm`: the device's open-alarm count, the tenant's aggregates and
 * the `alarm.cleared` activity event move in the alarm's own transaction), each with an `alarm.clear` audit entry
 * in that transaction. Office 365 alerts are left as they are: their status belongs to Microsoft 365 and only the
 * collectors write it. An alarm already cleared (or gone) changes nothing; a failure is logged and the others
 * still cleared. Returns the refs of the alarms it cleared. One GetItem + one TransactWriteItems per open alarm.
 */
export async function clearLinkedAlarms(
  devices: Pick<DevicesPort, 'transitionAlarm'>,
  incident: Pick<Incident, 'tenantId' | 'id' | 'alarms'>,
  identity: Identity,
  now: string,
  audit?: AuditRequest,
): Promise<AlarmRef[]> {
  const cleared: AlarmRef[] = [];
  for (const ref of incident.alarms ?? []) {
    if (ref.kind !== 'device' || ref.deviceId === undefined) continue;
    const entry = audit
      ? auditEntryFor(audit, incident.tenantId, 'alarm.clear', { type: 'alarm', id: `${ref.deviceId}/${ref.id}` }, { after: { state: 'cleared', clearedAt: now, incidentId: incident.id } })
      : undefined;
    try {
      const r = await devices.transitionAlarm(incident.tenantId, ref.deviceId, ref.id, ['active', 'acknowledged'], 'cleared', { clearedAt: now }, entry);
      if (r?.changed) cleared.push(ref);
    } catch (e) {
      console.warn(
        JSON.stringify({
          level: 'WARN',
          message: 'linked alarm not cleared with its incident',
          tenantId: incident.tenantId,
          incidentId: incident.id,
          alarm: alarmRefKey(ref),
          actor: identity.sub,
          error: e instanceof Error ? `${e.name}: ${e.message}` : String(e),
        }),
      );
    }
  }
  return cleared;
}
