/**
 * Key builders for the single table (`table-design.ts`): the ONE place item keys are spelled.
 *
 * Entities (all attributes besides keys are the entity's fields; `entity` names the entity type):
 *
 * | Entity              | PK                               | SK                          | GSI1PK                     | GSI1SK               |
 * |---------------------|----------------------------------|-----------------------------|----------------------------|----------------------|
 * | Tenant (registry)   | `TENANTS`                        | `TENANT#<tenantId>`         | –                          | –                    |
 * | Incident counter    | `TENANT#<t>`                     | `COUNTER#INCIDENT`          | –                          | –                    |
 * | Incident            | `TENANT#<t>#INCIDENT#<id>`       | `INCIDENT`                  | `TENANT#<t>#INCIDENTS`     | `<createdAt>#<id>`   |
 * | Incident comment    | `TENANT#<t>#INCIDENT#<id>`       | `COMMENT#<createdAt>#<uuid>`| –                          | –                    |
 * | Incident history    | `TENANT#<t>#INCIDENT#<id>`       | `HISTORY#<version, 10 digits>` | `TENANT#<t>#FIRSTRESPONSES` (only the entry leaving `new`) | `<incident createdAt>#<id>#<version>` |
 * | Device              | `TENANT#<t>#DEVICE#<id>`         | `DEVICE`                    | `TENANT#<t>#DEVICES`       | `<name>#<id>`        |
 * | Daily availability  | `TENANT#<t>#DEVICE#<id>`         | `AVAIL#<yyyy-mm-dd>`        | –                          | –                    |
 * | Device alarm        | `TENANT#<t>#DEVICE#<id>`         | `ALARM#<alarmId>`           | `TENANT#<t>#ALARMS`        | `<raisedAt>#<deviceId>#<alarmId>` |
 * | Office 365 alarm    | `TENANT#<t>#O365ALARM#<id>`      | `O365ALARM`                 | `TENANT#<t>#O365ALARMS`    | `<detectedAt>#<id>`  |
 * | Office 365 event    | `TENANT#<t>#O365EVENT#<id>`      | `O365EVENT`                 | `TENANT#<t>#O365EVENTS`    | `<at>#<id>` (TTL)    |
 * | Recommendation      | `TENANT#<t>#RECOMMENDATION#<id>` | `RECOMMENDATION`            | `TENANT#<t>#RECOMMENDATIONS` | `<createdAt>#<id>` |
 * | Idempotency record  | `TENANT#<t>#IDEMPOTENCY`         | `<operation>#<hash>`        | –                          | –                    |
 *
 * Access patterns (every request path is a GetItem, a Query or a transaction on known keys; never a Scan):
 *  1. List tenants (admin, /me)            Query PK=`TENANTS`
 *  2. Does tenant t exist                  GetItem TENANTS / TENANT#t
 *  3. List incidents of t, newest first    Query GSI1 GSI1PK=`TENANT#t#INCIDENTS`, ScanIndexForward=false
 *  4. Incident with comments + history     Query PK=`TENANT#t#INCIDENT#id` (one partition)
 *  5. Create incident                      GetItem counter, then TransactWrite [counter (version-checked), incident]
 *  6. Update incident                      TransactWrite [incident (condition version), history, comment?]
 *  7. Add comment                          TransactWrite [ConditionCheck incident exists, comment]
 *  8. List devices of t by name            Query GSI1 GSI1PK=`TENANT#t#DEVICES` (roll-ups on the item: docs/data-model.md)
 *  9. Device 30-day availability (fallback) Query PK=device, SK BETWEEN `AVAIL#<from>` AND `AVAIL#9999`
 * 10. Device open alarms (fallback)        Query PK=device, begins_with(SK,`ALARM#`), filter state IN (active, acknowledged)
 * 11. Alarms of t, newest first (filters)  Query GSI1 GSI1PK=`TENANT#t#ALARMS` (+ BETWEEN on raisedAt), filter state/severity/device
 * 12. Acknowledge / clear one alarm        UpdateItem device partition / `ALARM#<alarmId>` with a condition on `state`
 * 13. Heartbeat (collector)                UpdateItem device (condition lastHeartbeatAt < at, ALL_OLD) + UpdateItem ADD day bucket
 * 14. Device detail (90 days)              Query PK=device, SK BETWEEN `ALARM#` AND `DEVICE` (alarms, days, device)
 *
 * Every tenant-owned key starts with `TENANT#<t>#` so a tenant id can never address another tenant's
 * items; pagination cursors are bound to the list's partition (`cursor.ts`).
 * Tenant ids match `TenantId` (`[a-z0-9-]`), so `#` cannot be smuggled into a key through them.
 */

export const ENTITY = {
  tenant: 'Tenant',
  counter: 'Counter',
  incident: 'Incident',
  comment: 'IncidentComment',
  history: 'IncidentHistory',
  device: 'Device',
  availability: 'DailyAvailability',
  alarm: 'DeviceAlarm',
  o365Alarm: 'Office365Alarm',
  o365Event: 'Office365Event',
  recommendation: 'Recommendation',
} as const;

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
