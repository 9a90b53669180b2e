/**
 * Office 365 alerts and audit events of a tenant (read by the portal; written by the collectors through
 * the ingest routes, see `lambdas/domain/ingest.ts`).
 */
import type { Office365Alarm, Office365Event, Page } from '../contract/schemas.js';
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
