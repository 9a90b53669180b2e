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
import {
  EventId,
  HeartbeatIngest,
  type DeviceAlarmIngest,
  type HeartbeatBatchEntryResult,
  type HeartbeatBatchIngest,
  type HeartbeatBatchResult,
  type IngestResult,
  type O365AlarmIngest,
  type O365EventIngest,
  type RecommendationIngest,
} from '../contract/schemas.js';
import { authorizeCollector } from './collectors.js';
import { ApiError } from './errors.js';
import { windowCovers } from './maintenance-windows.js';
import type { DevicesPort, MaintenanceWindowsPort, Office365Port, RecommendationsPort, TenantsPort } from './ports.js';

/** The stores the collectors write to. */
export interface IngestPorts {
  tenants: Pick<TenantsPort, 'getTenantCollectors'>;
  devices: Pick<DevicesPort, 'getDevice' | 'ingestHeartbeat' | 'raiseAlarm' | 'transitionAlarm'>;
  office365: Pick<Office365Port, 'upsertAlarm' | 'putEvent'>;
  recommendations: Pick<RecommendationsPort, 'put'>;
  /** The tenant's active maintenance windows when an alarm is raised (ONE Query). */
  maintenanceWindows: Pick<MaintenanceWindowsPort, 'overlapping'>;
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

/** Devices whose heartbeats of one batch are applied at the same time (one device's entries run in order). */
export const BATCH_DEVICE_CONCURRENCY = 8;

/**
 * Many heartbeats in one call (`POST /ingest/heartbeats/batch`, docs/api.md#batch-heartbeats). Each entry is
 * validated on its own (`HeartbeatIngest`) and applied as `ingestHeartbeat` would apply it alone — same
 * authorisation (the collector must be one of the entry's tenant's collectors: one registry read per tenant
 * of the batch), same idempotence (a replayed or stale beat is `replay`) — so a bad entry is answered in its
 * own result (`VALIDATION_FAILED`, `NOT_FOUND`, `FORBIDDEN`) and the others are applied. Entries of one device
 * run in request order; `BATCH_DEVICE_CONCURRENCY` devices at a time.
 * @throws the first unexpected error (e.g. storage unavailable) once every entry has run; each entry is
 *   idempotent, so the collector sends the same batch again.
 */
export async function ingestHeartbeatBatch(ports: IngestPorts, collector: string, batch: HeartbeatBatchIngest): Promise<HeartbeatBatchResult> {
  const results: HeartbeatBatchEntryResult[] = [];
  const tenants = new Map<string, Promise<ApiError | null>>();
  const authorized = (tenantId: string): Promise<ApiError | null> => {
    let p = tenants.get(tenantId);
    if (!p) {
      p = requireTenant(ports, collector, tenantId).then(
        () => null,
        (e: unknown) => {
          if (e instanceof ApiError) return e;
          throw e;
        },
      );
      tenants.set(tenantId, p);
    }
    return p;
  };
  const byDevice = new Map<string, { index: number; hb: HeartbeatIngest }[]>();
  batch.heartbeats.forEach((raw, index) => {
    const parsed = HeartbeatIngest.safeParse(raw);
    if (!parsed.success) {
      const id = EventId.safeParse((raw as { eventId?: unknown } | null)?.eventId);
      const message = parsed.error.issues.map((i) => `${i.path.join('.') || 'entry'}: ${i.message}`).join('; ');
      results[index] = { index, eventId: id.success ? id.data : null, status: 'error', error: { code: 'VALIDATION_FAILED', message } };
      return;
    }
    const key = `${parsed.data.tenantId}/${parsed.data.deviceId}`;
    byDevice.set(key, [...(byDevice.get(key) ?? []), { index, hb: parsed.data }]);
  });
  const one = async ({ index, hb }: { index: number; hb: HeartbeatIngest }): Promise<HeartbeatBatchEntryResult> => {
    try {
      const denied = await authorized(hb.tenantId);
      if (denied) throw denied;
      const applied = await ports.devices.ingestHeartbeat({ tenantId: hb.tenantId, deviceId: hb.deviceId, at: hb.at });
      if (!applied && !(await ports.devices.getDevice(hb.tenantId, hb.deviceId))) {
        throw new ApiError('NOT_FOUND', `device ${hb.deviceId} of tenant ${hb.tenantId} not found`);
      }
      return { index, eventId: hb.eventId, status: applied ? 'applied' : 'replay', error: null };
    } catch (e) {
      if (e instanceof ApiError) return { index, eventId: hb.eventId, status: 'error', error: { code: e.code, message: e.message } };
      throw e;
    }
  };
  const groups = [...byDevice.values()];
  let failure: { error: unknown } | null = null;
  const worker = async () => {
    for (let g = groups.shift(); g; g = groups.shift()) {
      for (const entry of g) {
        try {
          results[entry.index] = await one(entry);
        } catch (e) {
          failure ??= { error: e };
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(BATCH_DEVICE_CONCURRENCY, groups.length) }, worker));
  if (failure) throw (failure as { error: unknown }).error;
  const count = (s: HeartbeatBatchEntryResult['status']) => results.filter((r) => r.status === s).length;
  return { applied: count('applied'), replayed: count('replay'), failed: count('error'), results };
}

/** Raise or clear a device alarm. @throws ApiError NOT_FOUND for an unknown tenant, device, or alarm to clear; FORBIDDEN for another tenant's collector */
export async function ingestDeviceAlarm(ports: IngestPorts, collector: string, ev: DeviceAlarmIngest): Promise<IngestResult> {
  await requireTenant(ports, collector, ev.tenantId);
  const device = await ports.devices.getDevice(ev.tenantId, ev.deviceId);
  if (!device) {
    throw new ApiError('NOT_FOUND', `device ${ev.deviceId} of tenant ${ev.tenantId} not found`);
  }
  if (ev.action === 'raise') {
    // In an active maintenance window covering the device (by id or site) at the alarm's time: stored marked, and
    // alarmEvent makes no event of it, so nobody is notified (docs/api.md#maintenance-windows). ONE Query.
    const at = new Date(ev.at).toISOString();
    const window = (await ports.maintenanceWindows.overlapping(ev.tenantId, at, at)).find((w) => windowCovers(w, { id: device.id, site: device.site }));
    // The device's name rides on the alarm (the alarm list shows it without reading devices; docs/data-model.md#alarm-device-names).
    const applied = await ports.devices.raiseAlarm({
      id: ev.alarmId,
      tenantId: ev.tenantId,
      deviceId: ev.deviceId,
      deviceName: device.name,
      title: ev.title,
      severity: ev.severity,
      state: 'active',
      raisedAt: ev.at,
      acknowledgedAt: null,
      acknowledgedBy: null,
      clearedAt: null,
      ...(window ? { inMaintenance: true, maintenanceWindowId: window.windowId } : {}),
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
