/**
 * Key builders for the single table (`table-design.ts`): the ONE place item key strings are spelled.
 * Which entity uses which key, its attributes, TTL and list are declared in `entities.ts` (table in
 * docs/data-model.md, with the access patterns).
 *
 * Every tenant-owned key starts with `TENANT#<t>#` so a tenant id can never address another tenant's
 * items; pagination cursors are bound to the list's partition (`cursor.ts`). Tenant ids match `TenantId`
 * (`[a-z0-9-]`), so `#` cannot be smuggled into a key through them. Changing a format here orphans the
 * items already stored under the old one.
 */

/** Partition of the tenant registry. */
export const TENANTS_PK = 'TENANTS';

/** Highest sort key value below which every `AVAIL#yyyy-mm-dd` falls. */
export const AVAIL_SK_MAX = 'AVAIL#9999';

export const keys = {
  tenant: (tenantId: string) => ({ PK: TENANTS_PK, SK: `TENANT#${tenantId}` }),
  incidentCounter: (tenantId: string) => ({ PK: `TENANT#${tenantId}`, SK: 'COUNTER#INCIDENT' }),

  incidentPk: (tenantId: string, id: string) => `TENANT#${tenantId}#INCIDENT#${id}`,
  incident: (tenantId: string, id: string) => ({ PK: keys.incidentPk(tenantId, id), SK: 'INCIDENT' }),
  incidentsGsi1Pk: (tenantId: string) => `TENANT#${tenantId}#INCIDENTS`,
  incidentGsi1: (tenantId: string, id: string, createdAt: string) => ({
    GSI1PK: keys.incidentsGsi1Pk(tenantId),
    GSI1SK: `${createdAt}#${id}`,
  }),
  comment: (tenantId: string, incidentId: string, createdAt: string, commentId: string) => ({
    PK: keys.incidentPk(tenantId, incidentId),
    SK: `COMMENT#${createdAt}#${commentId}`,
  }),
  history: (tenantId: string, incidentId: string, version: number) => ({
    PK: keys.incidentPk(tenantId, incidentId),
    SK: `HISTORY#${String(version).padStart(10, '0')}`,
  }),
  /** GSI1 partition of the history entries that take an incident out of `new` (its first response). */
  firstResponsesGsi1Pk: (tenantId: string) => `TENANT#${tenantId}#FIRSTRESPONSES`,
  firstResponseGsi1: (tenantId: string, incidentId: string, incidentCreatedAt: string, version: number) => ({
    GSI1PK: keys.firstResponsesGsi1Pk(tenantId),
    GSI1SK: `${incidentCreatedAt}#${incidentId}#${String(version).padStart(10, '0')}`,
  }),

  devicePk: (tenantId: string, deviceId: string) => `TENANT#${tenantId}#DEVICE#${deviceId}`,
  device: (tenantId: string, deviceId: string) => ({ PK: keys.devicePk(tenantId, deviceId), SK: 'DEVICE' }),
  devicesGsi1Pk: (tenantId: string) => `TENANT#${tenantId}#DEVICES`,
  deviceGsi1: (tenantId: string, deviceId: string, name: string) => ({
    GSI1PK: keys.devicesGsi1Pk(tenantId),
    GSI1SK: `${name}#${deviceId}`,
  }),
  availability: (tenantId: string, deviceId: string, date: string) => ({
    PK: keys.devicePk(tenantId, deviceId),
    SK: `AVAIL#${date}`,
  }),
  alarm: (tenantId: string, deviceId: string, alarmId: string) => ({
    PK: keys.devicePk(tenantId, deviceId),
    SK: `ALARM#${alarmId}`,
  }),
  alarmsGsi1Pk: (tenantId: string) => `TENANT#${tenantId}#ALARMS`,
  alarmGsi1: (tenantId: string, deviceId: string, alarmId: string, raisedAt: string) => ({
    GSI1PK: keys.alarmsGsi1Pk(tenantId),
    GSI1SK: `${raisedAt}#${deviceId}#${alarmId}`,
  }),

  o365Alarm: (tenantId: string, id: string) => ({ PK: `TENANT#${tenantId}#O365ALARM#${id}`, SK: 'O365ALARM' }),
  o365AlarmGsi1: (tenantId: string, id: string, detectedAt: string) => ({ GSI1PK: `TENANT#${tenantId}#O365ALARMS`, GSI1SK: `${detectedAt}#${id}` }),
  o365AlarmsGsi1Pk: (tenantId: string) => `TENANT#${tenantId}#O365ALARMS`,
  o365Event: (tenantId: string, id: string) => ({ PK: `TENANT#${tenantId}#O365EVENT#${id}`, SK: 'O365EVENT' }),
  o365EventGsi1: (tenantId: string, id: string, at: string) => ({ GSI1PK: `TENANT#${tenantId}#O365EVENTS`, GSI1SK: `${at}#${id}` }),
  o365EventsGsi1Pk: (tenantId: string) => `TENANT#${tenantId}#O365EVENTS`,
  recommendation: (tenantId: string, id: string) => ({ PK: `TENANT#${tenantId}#RECOMMENDATION#${id}`, SK: 'RECOMMENDATION' }),
  recommendationGsi1: (tenantId: string, id: string, createdAt: string) => ({ GSI1PK: `TENANT#${tenantId}#RECOMMENDATIONS`, GSI1SK: `${createdAt}#${id}` }),
  recommendationsGsi1Pk: (tenantId: string) => `TENANT#${tenantId}#RECOMMENDATIONS`,

  /** Partition of the tenant's idempotency records (Powertools idempotency; `idempotency.ts`). */
  idempotencyPk: (tenantId: string) => `TENANT#${tenantId}#IDEMPOTENCY`,

  /** Prefix every key of tenant `t` starts with (except the registry row). */
  tenantPrefix: (tenantId: string) => `TENANT#${tenantId}#`,
} as const;

/** Key attribute names the engine returns in LastEvaluatedKey for a base-table / GSI1 query. */
export const KEY_ATTRIBUTES = ['PK', 'SK', 'GSI1PK', 'GSI1SK'] as const;
