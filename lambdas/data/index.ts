/**
 * Data access entry point: the repository bundle used by the handlers (`createRepository` from the Lambda
 * configuration, or `dynamoRepository` over a given table) and the write functions used by the seed
 * (`scripts/local/seed.ts`) and the collector simulator, which take the `TableRef` to write to.
 * Nothing here reads the process environment.
 */
import type { LambdaConfig } from '../config.js';
import type { Repository } from '../domain/ports.js';
import * as activity from './activity.js';
import { activityRepository } from './activity.js';
import { auditRepository } from './audit.js';
import { tenantAdminRepository } from './tenant-admin.js';
import { notificationsRepository } from './notifications.js';
import { createDocumentClient, type TableRef } from './table/client.js';
import * as devices from './devices.js';
import { runIdempotent } from './idempotency.js';
import * as incidents from './incidents.js';
import * as office365 from './office365.js';
import * as recommendations from './recommendations.js';
import { reportsRepository } from './reports.js';
import { DEFAULT_RETENTION, type Retention } from './retention.js';
import * as tenants from './tenants.js';
import { sessionRevocationRepository } from './session-revocations.js';
import { accessRequestsRepository } from './access-requests.js';
import { escalationContactsRepository } from './escalation-contacts.js';
import { attachmentsRepository } from './attachments.js';
import { maintenanceWindowsRepository } from './maintenance-windows.js';

export { createDocumentClient, wrapTableClient, type TableRef } from './table/client.js';
export { DEFAULT_RETENTION, type Retention } from './retention.js';
export { putTenant, getTenant, listTenants, getTenantCollectors, setTenantCollector, TenantNotRegistered } from './tenants.js';
export { createIncident, putIncident, raiseIncidentCounter, getIncidentDetail } from './incidents.js';
export { putDevice, recordHeartbeat, ingestHeartbeat, raiseAlarm, putDailyAvailability, putAlarm, type DeviceAlarmInput, type DeviceInput } from './devices.js';
export { upsertO365Alarm, putO365Event } from './office365.js';
export { putRecommendation } from './recommendations.js';
export { activityPut, putActivityEventOnce, listActivity, countUnreadActivity, markActivityRead } from './activity.js';
export { auditPut, putAuditEntry, newAuditEntry, changedFields, STAFF_AUDIT_TENANT } from './audit.js';
export type { Repository } from '../domain/ports.js';

/** Options of `dynamoRepository`. */
export interface RepositoryOptions {
  /** TTL of time-series items, days (default `DEFAULT_RETENTION`). */
  retention?: Retention | undefined;
}

/** The DynamoDB implementation of every port over one table. */
export function dynamoRepository(table: TableRef, options: RepositoryOptions = {}): Repository {
  const retention = options.retention ?? DEFAULT_RETENTION;
  return {
    activity: activityRepository(table),
    audit: auditRepository(table, retention),
    tenantAdmin: tenantAdminRepository(table, retention),
    incidents: incidents.incidentsRepository(table),
    devices: devices.devicesRepository(table, retention),
    tenants: tenants.tenantsRepository(table),
    office365: office365.office365Repository(table, retention),
    recommendations: recommendations.recommendationsRepository(table, retention),
    reports: reportsRepository(table),
    idempotency: { run: (req, fn) => runIdempotent(req, fn, table) },
    notifications: notificationsRepository(table),
    sessions: sessionRevocationRepository(table, retention),
    accessRequests: accessRequestsRepository(table, retention),
    escalationContacts: escalationContactsRepository(table, retention),
    attachments: attachmentsRepository(table, retention),
    maintenanceWindows: maintenanceWindowsRepository(table, retention),
  };
}

/**
 * The write functions of the seed, the collector simulator and the tests, bound to `table` (and the
 * retention of time-series items): the same functions as the named exports, without the table argument.
 */
export function tableWriters(table: TableRef, options: RepositoryOptions = {}) {
  const retention = options.retention ?? DEFAULT_RETENTION;
  return {
    table,
    putTenant: (t: Parameters<typeof tenants.putTenant>[0]) => tenants.putTenant(t, table),
    getTenant: (id: string) => tenants.getTenant(id, table),
    grantCollector: (tenantId: string, principal: string) => tenants.setTenantCollector(tenantId, principal, 'grant', table),
    createIncident: (tenantId: string, build: Parameters<typeof incidents.createIncident>[1]) => incidents.createIncident(tenantId, build, table),
    putIncident: (i: Parameters<typeof incidents.putIncident>[0], extras?: Parameters<typeof incidents.putIncident>[1]) => incidents.putIncident(i, extras, table),
    raiseIncidentCounter: (tenantId: string, seq: number) => incidents.raiseIncidentCounter(tenantId, seq, table),
    putDevice: (d: devices.DeviceInput, now?: Date) => devices.putDevice(d, table, now),
    recordHeartbeat: (i: Parameters<typeof devices.recordHeartbeat>[0]) => devices.recordHeartbeat(i, table),
    ingestHeartbeat: (i: Parameters<typeof devices.ingestHeartbeat>[0], now?: Date) => devices.ingestHeartbeat(i, table, now, retention),
    putDailyAvailability: (d: Parameters<typeof devices.putDailyAvailability>[0], now?: Date) => devices.putDailyAvailability(d, table, now, retention),
    putAlarm: (a: devices.DeviceAlarmInput) => devices.putAlarm(a, table),
    raiseAlarm: (a: Parameters<typeof devices.raiseAlarm>[0]) => devices.raiseAlarm(a, table),
    upsertO365Alarm: (a: Parameters<typeof office365.upsertO365Alarm>[0]) => office365.upsertO365Alarm(a, table),
    putO365Event: (e: Parameters<typeof office365.putO365Event>[0]) => office365.putO365Event(e, table, retention),
    putRecommendation: (r: Parameters<typeof recommendations.putRecommendation>[0]) => recommendations.putRecommendation(r, table),
    putActivityEvent: (e: Parameters<typeof activity.putActivityEventOnce>[0]) => activity.putActivityEventOnce(e, table),
  };
}
/** See `tableWriters`. */
export type TableWriters = ReturnType<typeof tableWriters>;

/** Settings of the Lambda configuration the repository needs. */
export type RepositoryConfig = Pick<LambdaConfig, 'tableName' | 'region' | 'dynamodbEndpoint' | 'retention'>;

/**
 * The repository of a Lambda container: an aws-lite document client for `config.region` (and
 * `config.dynamodbEndpoint` when set, e.g. the local engine) on table `config.tableName`.
 */
export function createRepository(config: RepositoryConfig): Repository {
  const table: TableRef = { doc: createDocumentClient({ region: config.region, endpoint: config.dynamodbEndpoint }), tableName: config.tableName };
  return dynamoRepository(table, { retention: config.retention });
}
