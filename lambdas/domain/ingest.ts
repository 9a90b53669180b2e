/**
 * What the collectors send (the `auth: 'iam'` routes of the route table), applied to storage.
 *
 * Every event carries an `eventId`; replays are idempotent by the event's natural key (a heartbeat only
 * moves `lastHeartbeatAt` forward; an alarm id is raised once and cleared once; an Office 365 event id and a
 * recommendation id are stored once) and give `{ eventId, applied: false }` (answered 200); a first
 * application gives `applied: true` (answered 202). Unknown tenant/device/alarm → 404 NOT_FOUND.
 *
 * Every event is first authorised: the calling collector (its IAM ARN) must be one of the tenant's
 * collectors (`authorizeCollector`, one GetItem of the tenant registry item; 403 FORBIDDEN otherwise;
 * docs/api.md#collectors-and-tenants).
 */
import type {
  DeviceAlarmIngest,
  HeartbeatIngest,
  IngestResult,
  O365AlarmIngest,
  O365EventIngest,
  RecommendationIngest,
} from '../contract/schemas.js';
import { authorizeCollector } from './collectors.js';
import { ApiError } from './errors.js';
import type { DevicesPort, Office365Port, RecommendationsPort, TenantsPort } from './ports.js';

/** The stores the collectors write to. */
export interface IngestPorts {
  tenants: Pick<TenantsPort, 'getTenantCollectors'>;
  devices: Pick<DevicesPort, 'getDevice' | 'ingestHeartbeat' | 'raiseAlarm' | 'transitionAlarm'>;
  office365: Pick<Office365Port, 'upsertAlarm' | 'putEvent'>;
  recommendations: Pick<RecommendationsPort, 'put'>;
}

const result = (eventId: string, applied: boolean): IngestResult => ({ eventId, applied });

/**
 * The tenant is registered and `collector` (the caller's IAM ARN) may write it.
 * @throws ApiError NOT_FOUND (tenant not registered), FORBIDDEN (not one of the tenant's collectors)
 */
const requireTenant = (ports: IngestPorts, collector: string, tenantId: string): Promise<void> => authorizeCollector(ports.tenants, collector, tenantId);

/** A device heartbeat. @throws ApiError NOT_FOUND for an unknown tenant or device, FORBIDDEN for another tenant's collector */
export async function ingestHeartbeat(ports: IngestPorts, collector: string, hb: HeartbeatIngest): Promise<IngestResult> {
  await requireTenant(ports, collector, hb.tenantId);
  const applied = await ports.devices.ingestHeartbeat({ tenantId: hb.tenantId, deviceId: hb.deviceId, at: hb.at });
  if (!applied && !(await ports.devices.getDevice(hb.tenantId, hb.deviceId))) {
    throw new ApiError('NOT_FOUND', `device ${hb.deviceId} of tenant ${hb.tenantId} not found`);
  }
  return result(hb.eventId, applied);
}

/** Raise or clear a device alarm. @throws ApiError NOT_FOUND for an unknown tenant, device, or alarm to clear; FORBIDDEN for another tenant's collector */
export async function ingestDeviceAlarm(ports: IngestPorts, collector: string, ev: DeviceAlarmIngest): Promise<IngestResult> {
  await requireTenant(ports, collector, ev.tenantId);
  if (!(await ports.devices.getDevice(ev.tenantId, ev.deviceId))) {
    throw new ApiError('NOT_FOUND', `device ${ev.deviceId} of tenant ${ev.tenantId} not found`);
  }
  if (ev.action === 'raise') {
    const applied = await ports.devices.raiseAlarm({
      id: ev.alarmId,
      tenantId: ev.tenantId,
      deviceId: ev.deviceId,
      title: ev.title,
      severity: ev.severity,
      state: 'active',
      raisedAt: ev.at,
      acknowledgedAt: null,
      acknowledgedBy: null,
      clearedAt: null,
    });
    return result(ev.eventId, applied);
  }
  const r = await ports.devices.transitionAlarm(ev.tenantId, ev.deviceId, ev.alarmId, ['active', 'acknowledged'], 'cleared', { clearedAt: ev.at });
  if (!r) throw new ApiError('NOT_FOUND', `alarm ${ev.alarmId} of device ${ev.deviceId} not found`);
  return result(ev.eventId, r.changed);
}

/** An Office 365 alert, created or updated. @throws ApiError NOT_FOUND for an unknown tenant, FORBIDDEN for another tenant's collector */
export async function ingestOffice365Alarm(ports: IngestPorts, collector: string, ev: O365AlarmIngest): Promise<IngestResult> {
  await requireTenant(ports, collector, ev.tenantId);
  const { eventId, alarmId, ...rest } = ev;
  return result(eventId, await ports.office365.upsertAlarm({ ...rest, id: alarmId }));
}

/** An Office 365 audit event. @throws ApiError NOT_FOUND for an unknown tenant, FORBIDDEN for another tenant's collector */
export async function ingestOffice365Event(ports: IngestPorts, collector: string, input: O365EventIngest): Promise<IngestResult> {
  const { eventId, ...ev } = input;
  await requireTenant(ports, collector, ev.tenantId);
  return result(eventId, await ports.office365.putEvent({ ...ev, id: eventId }));
}

/** A new recommendation (status open). @throws ApiError NOT_FOUND for an unknown tenant, FORBIDDEN for another tenant's collector */
export async function ingestRecommendation(ports: IngestPorts, collector: string, ev: RecommendationIngest): Promise<IngestResult> {
  await requireTenant(ports, collector, ev.tenantId);
  const applied = await ports.recommendations.put({
    id: ev.recommendationId,
    tenantId: ev.tenantId,
    title: ev.title,
    rationale: ev.rationale,
    priority: ev.priority,
    category: ev.category,
    status: 'open',
    createdAt: ev.at,
    statusNote: null,
    statusChangedBy: null,
    statusChangedAt: null,
  });
  return result(ev.eventId, applied);
}
