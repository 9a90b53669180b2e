/**
 * Office 365 alerts and audit events of a tenant (read by the portal; written by the collectors through
 * the ingest routes, see `lambdas/domain/ingest.ts`).
 */
import type { Office365Alarm, Office365Event, Page } from '../contract/schemas.js';
import { auditEntryFor } from './audit.js';
import { ApiError } from './errors.js';
import type { Identity } from './identity.js';
import { actorName } from './incidents.js';
import type { O365AlarmListOptions, O365EventListOptions, Office365Port } from './ports.js';

/** A page of the tenant's Office 365 alerts for a validated query (its `tenant` is not a filter). */
export function listOffice365Alarms(
  port: Pick<Office365Port, 'listAlarms'>,
  tenantId: string,
  q: O365AlarmListOptions & { tenant?: string | undefined },
): Promise<Page<Office365Alarm>> {
  const { tenant: _tenant, ...opts } = q;
  return port.listAlarms(tenantId, opts);
}

/** A page of the tenant's Office 365 audit events for a validated query (its `tenant` is not a filter). */
export function listOffice365Events(
  port: Pick<Office365Port, 'listEvents'>,
  tenantId: string,
  q: O365EventListOptions & { tenant?: string | undefined },
): Promise<Page<Office365Event>> {
  const { tenant: _tenant, ...opts } = q;
  return port.listEvents(tenantId, opts);
}

/**
 * The customer or the SOC acknowledges an active Office 365 alert (docs/api.md#acknowledging-office-365-alerts):
 * Vigía stores who and when beside Microsoft's `status`, which it does not change (the collectors keep
 * reporting it); the alarm console shows the alert `acknowledged`. Audited as `alarm.acknowledge`
 * (docs/api.md#audit-log) in the same transaction.
 * @throws ApiError NOT_FOUND (no such alert in the tenant); INVALID_TRANSITION (409, `details.status`,
 *         `details.acknowledgedAt`) when Microsoft's status is not `active` or it was already acknowledged.
 */
export async function acknowledgeOffice365Alarm(
  port: Pick<Office365Port, 'acknowledgeAlarm'>,
  tenantId: string,
  alarmId: string,
  identity: Identity,
  now: Date,
  request: { requestId: string; sourceIp: string },
): Promise<Office365Alarm> {
  const fields = { acknowledgedAt: now.toISOString(), acknowledgedBy: actorName(identity), acknowledgedBySub: identity.sub };
  const audit = auditEntryFor({ identity, now, ...request }, tenantId, 'alarm.acknowledge', { type: 'office365Alarm', id: alarmId }, {
    before: { status: 'active', acknowledgedAt: null },
    after: { status: 'active', ...fields },
  });
  const r = await port.acknowledgeAlarm(tenantId, alarmId, fields, audit);
  if (!r) throw new ApiError('NOT_FOUND', `Office 365 alert ${alarmId} not found`);
  if (!r.changed) {
    const why = r.alarm.acknowledgedAt ? `it was already acknowledged at ${r.alarm.acknowledgedAt}` : `its Microsoft status is ${r.alarm.status}`;
    throw new ApiError('INVALID_TRANSITION', `only active alerts not yet acknowledged can be acknowledged; ${why}`, {
      status: r.alarm.status,
      acknowledgedAt: r.alarm.acknowledgedAt ?? null,
    });
  }
  return r.alarm;
}
