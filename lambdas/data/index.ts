/**
 * Data access entry point: the repository bundle used by the handlers and the write functions used by
 * the seed (`scripts/local/seed.ts`) and the collector simulator. Every write function takes an optional
 * last `TableRef` argument (default: `defaultTable()` from `TABLE_NAME` + the AWS SDK environment).
 */
import type { DevicesPort } from '../domain/devices.js';
import type { IncidentsPort } from '../domain/incidents.js';
import type { TenantsPort } from '../domain/account.js';
import { defaultTable, type TableRef } from './client.js';
import { devicesRepository } from './devices.js';
import { incidentsRepository } from './incidents.js';
import { office365Repository, type Office365Port } from './office365.js';
import { recommendationsRepository, type RecommendationsPort } from './recommendations.js';
import { loadReportData } from './reports.js';
import type { ReportData } from '../domain/reports.js';
import { tenantsRepository } from './tenants.js';

export { createDocumentClient, defaultTable, resetDefaultTable, type TableRef } from './client.js';
export { putTenant, getTenant, listTenants } from './tenants.js';
export { createIncident, putIncident, raiseIncidentCounter, getIncidentDetail } from './incidents.js';
export { putDevice, recordHeartbeat, ingestHeartbeat, raiseAlarm, putDailyAvailability, putAlarm, type DeviceAlarmInput, type DeviceInput } from './devices.js';
export type { DeviceAlarm } from '../contract/schemas.js';
export { upsertO365Alarm, putO365Event, o365EventRetentionDays, type Office365Port } from './office365.js';
export { putRecommendation, type RecommendationsPort } from './recommendations.js';

/** All storage ports the handlers use. */
export interface Repository {
  incidents: IncidentsPort;
  devices: DevicesPort;
  tenants: TenantsPort;
  office365: Office365Port;
  recommendations: RecommendationsPort;
  reports: { load(tenantId: string, from: string, to: string): Promise<ReportData> };
}

/** The DynamoDB implementation of every port over one table. */
export function dynamoRepository(table: TableRef = defaultTable()): Repository {
  return {
    incidents: incidentsRepository(table),
    devices: devicesRepository(table),
    tenants: tenantsRepository(table),
    office365: office365Repository(table),
    recommendations: recommendationsRepository(table),
    reports: { load: (t, from, to) => loadReportData(t, from, to, table) },
  };
}
