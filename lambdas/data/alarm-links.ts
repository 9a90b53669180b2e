/**
 * Alarms linked to incidents (docs/api.md#linked-alarms, docs/data-model.md#linked-alarms): the incident item
 * holds the references (`Incident.alarms`, ≤ `MAX_LINKED_ALARMS`), each alarm item (`AlarmEntity`,
 * `O365AlarmEntity`) the incident's id (`incidentId`), both written in the incident's create transaction
 * (`alarmLinkWrites`). Reads: one BatchGetItem of the referenced alarm items (`getAlarmsByRef`).
 */
import { alarmRefKey, type AlarmRef, type LinkedAlarm } from '../contract/schemas.js';
import type { AlarmLink } from '../domain/ports.js';
import type { TableRef, TransactWriteItem } from './table/client.js';
import { batchGetAll } from './table/dynamo-util.js';
import { AlarmEntity, O365AlarmEntity, recordOf } from './entities.js';
import { keys } from './table/keys.js';

/** The item key of the alarm `r` of tenant `tenantId`. */
export function alarmKeyOf(tenantId: string, r: AlarmRef): { PK: string; SK: string } {
  return r.kind === 'device' ? keys.alarm(tenantId, r.deviceId ?? '', r.id) : keys.o365Alarm(tenantId, r.id);
}

/** A stored alarm item (device alarm or Office 365 alert) as the incident detail shows it. */
function linkedOf(item: Record<string, unknown>): LinkedAlarm {
  if (String(item.SK).startsWith('ALARM#')) {
    const a = recordOf(AlarmEntity, item);
    return { kind: 'device', id: a.id, deviceId: a.deviceId, name: a.deviceName ?? null, title: a.title, severity: a.severity, state: a.state, at: a.raisedAt, ...(a.incidentId ? { incidentId: a.incidentId } : {}) };
  }
  const o = recordOf(O365AlarmEntity, item);
  return { kind: 'office365', id: o.id, name: o.affectedUser, title: o.title, severity: o.severity, state: o.status, at: o.detectedAt, ...(o.incidentId ? { incidentId: o.incidentId } : {}) };
}

/**
 * The alarms `refs` of the tenant as they are now, in the order of `refs` (null: no such alarm in this tenant —
 * the key holds the tenant, so another tenant's alarm is never read). ONE BatchGetItem (≤ 100 keys; refs ≤ 20),
 * `consistent` for the create path; 0.5 RCU per alarm item read eventually consistent (< 4 KB), 1 consistent.
 * @throws Error when keys are still unprocessed after `BATCH_ATTEMPTS` calls (`batchGetAll`).
 */
export type { AlarmLink };

export async function getAlarmsByRef(tenantId: string, refs: readonly AlarmRef[], table: TableRef, consistent = false): Promise<(LinkedAlarm | null)[]> {
  if (!refs.length) return [];
  const found = new Map<string, LinkedAlarm>();
  for (const item of await batchGetAll(table, refs.map((r) => alarmKeyOf(tenantId, r)), { consistent })) {
    const l = linkedOf(item);
    found.set(alarmRefKey(l), l);
  }
  return refs.map((r) => found.get(alarmRefKey(r)) ?? null);
}


/**
 * The TransactWriteItems actions linking `links` to incident `incidentId`: per alarm one UpdateItem
 * `SET incidentId` conditioned on the alarm existing and still holding the `incidentId` read (so a concurrent
 * link, or a deleted alarm, cancels the whole create). 1 WCU each (+ 1 for its GSI1 copy).
 */
export function alarmLinkWrites(table: TableRef, tenantId: string, incidentId: string, links: readonly AlarmLink[]): TransactWriteItem[] {
  return links.map(({ ref, previousIncidentId }) => ({
    Update: {
      TableName: table.tableName,
      Key: alarmKeyOf(tenantId, ref),
      UpdateExpression: 'SET #i = :i',
      ConditionExpression: previousIncidentId === null ? 'attribute_exists(PK) AND attribute_not_exists(#i)' : 'attribute_exists(PK) AND #i = :prev',
      ExpressionAttributeNames: { '#i': 'incidentId' },
      ExpressionAttributeValues: { ':i': incidentId, ...(previousIncidentId === null ? {} : { ':prev': previousIncidentId }) },
    },
  }));
}
