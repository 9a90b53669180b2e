/**
 * Upgrade steps for data written by earlier versions (docs/sla.md#upgrade; aggregates:
 * docs/data-model.md#aggregates). Each step is idempotent: it
 * touches only items that lack what it adds, so running it on every `npm start` (the seed) or again by hand
 * (`npm run platform:upgrade-data`, docs/sla.md#upgrade) changes nothing the second time.
 */
import type { AlarmConsoleItem, Incident } from '../contract/schemas.js';
import { autoCloseAtFor, upgradeIncident } from '../domain/incidents.js';
import type { AttributeMap, TableRef, TransactWriteItem } from './table/client.js';
import { listTenants } from './tenants.js';
import { isConditionFailureInTransaction, queryAll, writeIf } from './table/dynamo-util.js';
import { putSearchTokens } from './incident-search.js';
import { ensureCommentTokens } from './comment-search.js';
import { ensureAlarmTokens } from './alarm-search.js';
import { ensureO365Users } from './o365-user-search.js';
import { ALARM_CONSOLE_COPIES, AlarmConsoleEntryEntity, AlarmEntity, declaredIndex, DeviceEntity, HistoryEntity, IncidentEntity, indexKeys, inSocQueueByDue, itemOf, O365AlarmEntity, recordOf, SocQueueEntryEntity } from './entities.js';
import { alarmConsolePuts, consoleItemOfDeviceAlarm, consoleItemOfO365Alarm } from './alarm-console.js';
import { autoCloseWrites, socAssignmentWrites, socQueueCountWrites } from './incidents.js';
import { keys } from './table/keys.js';
import { readTenantAggregates, rebuildTenantAggregates } from './aggregates.js';
import { refreshAvailabilityRollup, syncAlarmDeviceNames } from './devices.js';
import { AGGREGATES_VERSION } from '../domain/aggregates.js';
import { indexOf } from './access-patterns.js';

/**
 * Fills the SLA fields (`slaTargets`, `triagedAt`, `firstAcknowledgedAt`, `closureRequested`, `closedAt`,
 * `slaResult`) of every incident stored without them and, by rewriting the item, puts the open ones in the
 * SOC queue (GSI2 by due time; its queue entry and tab counts in the same transaction). Reads each registered tenant's incident list (GSI1, filtered to items without
 * the fields) and each such incident's history; each rewrite is conditioned on the version read, so a concurrent
 * update wins and the incident is upgraded on the next run. Returns how many incidents were upgraded.
 */
export async function upgradeIncidents(table: TableRef): Promise<number> {
  let upgraded = 0;
  for (const tenant of await listTenants(table)) {
    for (const item of await incidentItemsWithout(table, tenant.id, 'closureRequested')) {
      const stored = recordOf(IncidentEntity, item) as Incident;
      const history = await queryAll(table, {
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :h)',
        ExpressionAttributeValues: { ':pk': keys.incidentPk(stored.tenantId, stored.id), ':h': 'HISTORY#' },
      });
      // Without the read defaults, so the upgrade derives the fields from the history.
      const { slaTargets: _a, triagedAt: _b, firstAcknowledgedAt: _c, closureRequested: _d, closedAt: _e, slaResult: _f, ...legacy } = stored;
      const next = upgradeIncident(legacy, history.map((h) => recordOf(HistoryEntity, h)));
      try {
        // With its SOC queue entry and tab counts when it is not closed (docs/sla.md#soc-queue): it never had them.
        await table.doc.send('TransactWriteItems', {
          TransactItems: [
            {
              Put: {
                TableName: table.tableName,
                Item: { ...itemOf(IncidentEntity, next), ...internalOf(item) },
                ConditionExpression: 'version = :v AND attribute_not_exists(closureRequested)',
                ExpressionAttributeValues: { ':v': stored.version },
              },
            },
            ...socAssignmentWrites(table, null, next),
          ],
        });
        upgraded++;
      } catch (e) {
        if (!isConditionFailureInTransaction(e)) throw e;
      }
    }
  }
  return upgraded;
}

/**
 * Builds the write-time aggregates (docs/data-model.md#aggregates) of every registered tenant whose stats
 * item is not at `AGGREGATES_VERSION` (data written before the aggregates existed, or by an older
 * definition): `rebuildTenantAggregates` with `write`, and a refresh of each device's roll-up (which puts
 * the device in the below-SLA index). Tenants already current are only read (one GetItem
 * each). Run it while the tenants are quiet (see `rebuildTenantAggregates`). Returns the tenants rebuilt.
 */
export async function upgradeAggregates(table: TableRef, now: Date = new Date()): Promise<string[]> {
  const rebuilt: string[] = [];
  for (const tenant of await listTenants(table)) {
    const { version } = await readTenantAggregates(table, tenant.id);
    if (version === AGGREGATES_VERSION) continue;
    await rebuildTenantAggregates(table, tenant.id, { write: true, now });
    // The device roll-ups also place each device in the below-SLA index (GSI2) on refresh.
    for (const d of await deviceItems(table, tenant.id, 'id')) await refreshAvailabilityRollup(tenant.id, String(d.id), table, now);
    rebuilt.push(tenant.id);
  }
  return rebuilt;
}

/**
 * Puts stored data in the search indexes (docs/data-model.md#search): every incident without GSI3 keys gets its
 * title's search tokens (BatchWriteItem), then its status partition (UpdateItem `SET GSI3PK, GSI3SK`, `REMOVE
 * searchText`, conditioned on the status read, so a concurrent update — whose Put sets the keys itself — wins);
 * every device whose GSI1 sort key is not its folded name (`deviceNameKey`) gets it, and its GSI3 keys of the device-by-IP search (`deviceIpGsi3`) when
 * missing (conditioned on the name and IP read). Reads each registered tenant's incident list (filtered to items without GSI3 keys) and device list.
 * Idempotent. Returns how many incidents and devices were changed.
 */
export async function upgradeSearchIndex(table: TableRef): Promise<{ incidents: number; devices: number }> {
  let incidents = 0;
  let devices = 0;
  for (const tenant of await listTenants(table)) {
    for (const item of await incidentItemsWithout(table, tenant.id, 'GSI3PK')) {
      const incident = recordOf(IncidentEntity, item) as Incident;
      await putSearchTokens(table, incident, null);
      const gsi3 = indexKeys(declaredIndex(IncidentEntity, 'byStatus'), incident);
      if (
        await writeIf(table, 'UpdateItem', {
          Key: keys.incident(incident.tenantId, incident.id),
          UpdateExpression: 'SET GSI3PK = :pk, GSI3SK = :sk REMOVE searchText',
          ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(GSI3PK) AND #s = :s',
          ExpressionAttributeNames: { '#s': 'status' },
          ExpressionAttributeValues: { ':pk': gsi3.GSI3PK, ':sk': gsi3.GSI3SK, ':s': incident.status },
        })
      )
        incidents++;
    }
    for (const d of await deviceItems(table, tenant.id)) {
      const device = { ...recordOf(DeviceEntity, d), tenantId: tenant.id, id: String(d.id), name: String(d.name), ipAddress: String(d.ipAddress ?? '') };
      const want = indexKeys(declaredIndex(DeviceEntity, 'byName'), device).GSI1SK;
      // Devices by IP (GSI3 `TENANT#<t>#DEVICEIP`, docs/data-model.md#search) for devices stored before it.
      const ip = indexKeys(declaredIndex(DeviceEntity, 'byIp'), device);
      if (d.GSI1SK === want && d.GSI3PK === ip.GSI3PK && d.GSI3SK === ip.GSI3SK) continue;
      if (
        await writeIf(table, 'UpdateItem', {
          Key: keys.device(tenant.id, String(d.id)),
          UpdateExpression: 'SET GSI1SK = :sk, GSI3PK = :ipk, GSI3SK = :isk',
          ConditionExpression: '#n = :n AND #ip = :ip',
          ExpressionAttributeNames: { '#n': 'name', '#ip': 'ipAddress' },
          ExpressionAttributeValues: { ':sk': want, ':n': d.name, ':ipk': ip.GSI3PK, ':isk': ip.GSI3SK, ':ip': d.ipAddress ?? '' },
        })
      )
        devices++;
    }
  }
  return { incidents, devices };
}

/**
 * Copies each device's name onto its alarms stored without it or with another one (docs/data-model.md#alarm-device-names):
 * per registered tenant its device list (GSI1, read whole), per device `syncAlarmDeviceNames` (one Query of
 * its alarm items filtered to those, writes only for them). Idempotent. Returns how many alarms it changed.
 */
export async function upgradeAlarmDeviceNames(table: TableRef): Promise<number> {
  let changed = 0;
  for (const tenant of await listTenants(table)) {
    for (const d of await deviceItems(table, tenant.id)) changed += await syncAlarmDeviceNames(table, tenant.id, String(d.id), String(d.name));
  }
  return changed;
}

/**
 * Puts the comments stored before the comment search (docs/data-model.md#search) in its index: for every
 * registered tenant, its incident list (GSI1, ids only) read whole, then each incident's comments
 * (`ensureCommentTokens`: a Query of its partition's `COMMENT#` items, a BatchGetItem of their word keys, Puts of
 * the missing ones). Public comments only (internal notes live in another partition and are never indexed).
 * Idempotent: a second run writes nothing. Returns how many word items were written.
 */
export async function upgradeCommentSearch(table: TableRef): Promise<number> {
  let written = 0;
  for (const tenant of await listTenants(table)) {
    const ids = await queryAll(table, {
      IndexName: indexOf('tenantLists'),
      KeyConditionExpression: 'GSI1PK = :p',
      ExpressionAttributeValues: { ':p': keys.incidentsGsi1Pk(tenant.id) },
      ProjectionExpression: 'id',
    });
    for (const i of ids) written += await ensureCommentTokens(table, tenant.id, String(i.id));
  }
  return written;
}

/**
 * Puts the device alarms stored before the alarm search (docs/api.md#alarm-search) in its index: for every registered
 * tenant, `ensureAlarmTokens` (its alarm list read whole, a BatchGetItem of each alarm's word keys, Puts of the
 * missing ones with the alarm's TTL). Idempotent: a second run writes nothing. Returns how many word items were written.
 */
export async function upgradeAlarmSearch(table: TableRef): Promise<number> {
  let written = 0;
  for (const tenant of await listTenants(table)) written += await ensureAlarmTokens(table, tenant.id);
  return written;
}

/**
 * Puts the users named by the Office 365 alerts stored before the user search (docs/api.md#office-365-user-search)
 * in its directory: for every registered tenant, `ensureO365Users`. Idempotent. Returns how many entries were written.
 */
export async function upgradeO365UserSearch(table: TableRef): Promise<number> {
  let written = 0;
  for (const tenant of await listTenants(table)) written += await ensureO365Users(table, tenant.id);
  return written;
}

/**
 * The stored incident items of a tenant that lack `attribute` (written before the step that adds it): its
 * incident list (GSI1) read whole, filtered to `attribute_not_exists(<attribute>)`. Raw items, keys included.
 */
function incidentItemsWithout(table: TableRef, tenantId: string, attribute: string): Promise<AttributeMap[]> {
  return queryAll(table, {
    IndexName: indexOf('tenantLists'),
    KeyConditionExpression: 'GSI1PK = :p',
    FilterExpression: 'attribute_not_exists(#a)',
    ExpressionAttributeNames: { '#a': attribute },
    ExpressionAttributeValues: { ':p': keys.incidentsGsi1Pk(tenantId) },
  });
}

/** The stored device items of a tenant (its device list, GSI1, read whole); only `projection` when given. */
function deviceItems(table: TableRef, tenantId: string, projection?: string): Promise<AttributeMap[]> {
  return queryAll(table, {
    IndexName: indexOf('tenantLists'),
    KeyConditionExpression: 'GSI1PK = :p',
    ExpressionAttributeValues: { ':p': keys.devicesGsi1Pk(tenantId) },
    ...(projection ? { ProjectionExpression: projection } : {}),
  });
}

/** Attributes of the stored item that no declaration covers (kept as they are). */
function internalOf(item: AttributeMap): AttributeMap {
  const known = new Set<string>([...IncidentEntity.attributes, 'PK', 'SK', 'GSI1PK', 'GSI1SK', 'GSI2PK', 'GSI2SK', 'GSI3PK', 'GSI3SK', 'entity', 'searchText']);
  return Object.fromEntries(Object.entries(item).filter(([k]) => !known.has(k)));
}

/**
 * Puts the incidents stored before the current SOC queue (docs/sla.md#soc-queue) in it: pages through GSI2
 * `SOCQUEUE` (where earlier versions kept every not-closed incident, resolved ones included; a one-off, not a
 * request path). An incident without `GSI4PK` gets it (UpdateItem conditioned on the status and due time
 * read); a resolved one leaves the queue by due time (UpdateItem REMOVE of its GSI2/GSI4 keys, conditioned on
 * the version read: the resolved tab is its queue entry); each incident whose queue entry is missing or of
 * the earlier shape (an assignment entry, without `GSI3PK`) gets its entry and is counted in its tab
 * (TransactWriteItems: ConditionCheck of the version read, Put conditioned on the entry's absence or old
 * shape, ADD on its count items). A concurrent update writes the entry and counts itself, so a lost
 * condition is simply skipped. Idempotent. Returns how many incidents were re-keyed and entries written.
 */
export async function upgradeSocQueueIndexes(table: TableRef): Promise<{ tenantQueue: number; queueEntries: number; resolvedMoved: number }> {
  let tenantQueue = 0;
  let queueEntries = 0;
  let resolvedMoved = 0;
  let start: AttributeMap | undefined;
  do {
    const res = await table.doc.send('Query', {
      TableName: table.tableName,
      IndexName: indexOf('socQueue'),
      KeyConditionExpression: 'GSI2PK = :p',
      ExpressionAttributeValues: { ':p': keys.SOCQUEUE_GSI2PK },
      ExclusiveStartKey: start,
    });
    start = res.LastEvaluatedKey;
    for (const item of res.Items ?? []) {
      const incident = recordOf(IncidentEntity, item) as Incident;
      if (item.GSI4PK === undefined && inSocQueueByDue(incident)) {
        const gsi4PK = declaredIndex(IncidentEntity, 'socQueueOfTenant').pk(incident);
        const done = await writeIf(table, 'UpdateItem', {
          Key: keys.incident(incident.tenantId, incident.id),
          UpdateExpression: 'SET GSI4PK = :pk',
          ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(GSI4PK) AND #s = :s AND #d = :d',
          ExpressionAttributeNames: { '#s': 'status', '#d': 'slaDueAt' },
          ExpressionAttributeValues: { ':pk': gsi4PK, ':s': incident.status, ':d': incident.slaDueAt },
        });
        if (done) tenantQueue++;
      }
      try {
        await table.doc.send('TransactWriteItems', {
          TransactItems: [
            { ConditionCheck: { TableName: table.tableName, Key: keys.incident(incident.tenantId, incident.id), ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': incident.version } } },
            { Put: { TableName: table.tableName, Item: itemOf(SocQueueEntryEntity, incident), ConditionExpression: 'attribute_not_exists(PK) OR attribute_not_exists(GSI3PK)' } },
            ...socQueueCountWrites(table, null, incident),
          ],
        });
        queueEntries++;
      } catch (e) {
        if (!isConditionFailureInTransaction(e)) throw e;
      }
      if (!inSocQueueByDue(incident)) {
        const done = await writeIf(table, 'UpdateItem', {
          Key: keys.incident(incident.tenantId, incident.id),
          UpdateExpression: 'REMOVE GSI2PK, GSI2SK, GSI4PK',
          ConditionExpression: 'version = :v',
          ExpressionAttributeValues: { ':v': incident.version },
        });
        if (done) resolvedMoved++;
      }
    }
  } while (start);
  return { tenantQueue, queueEntries, resolvedMoved };
}

/**
 * Gives every incident resolved before automatic closure existed its `autoCloseAt` (`autoCloseAtFor` its
 * tenant's `autoCloseDays`, counted from `resolvedAt`; docs/sla.md#automatic-closure) and its entry in the
 * closure index, so the SLA job closes it like one resolved today — at its next run when that day is past.
 * Reads each registered tenant's resolved incidents (ONE Query of the status index per page); each write is
 * one TransactWriteItems (the incident, conditioned on the version read and on having no `autoCloseAt`, and
 * its closure entry). A concurrent change wins and is skipped. Idempotent. Returns how many were given a date.
 */
export async function upgradeAutoClose(table: TableRef): Promise<number> {
  let dated = 0;
  for (const tenant of await listTenants(table)) {
    const items = await queryAll(table, {
      IndexName: indexOf('incidentsByStatus'),
      KeyConditionExpression: 'GSI3PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.incidentStatusGsi3Pk(tenant.id, 'resolved') },
    });
    for (const item of items) {
      const before = recordOf(IncidentEntity, item) as Incident;
      if (before.status !== 'resolved' || before.autoCloseAt) continue;
      const next: Incident = { ...before, autoCloseAt: autoCloseAtFor(tenant, before.resolvedAt ?? before.updatedAt) };
      try {
        await table.doc.send('TransactWriteItems', {
          TransactItems: [
            {
              Update: {
                TableName: table.tableName,
                Key: keys.incident(before.tenantId, before.id),
                UpdateExpression: 'SET autoCloseAt = :a',
                ConditionExpression: 'version = :v AND attribute_not_exists(autoCloseAt)',
                ExpressionAttributeValues: { ':a': next.autoCloseAt, ':v': before.version },
              },
            },
            ...autoCloseWrites(table, before, next),
          ],
        });
        dated++;
      } catch (e) {
        if (!isConditionFailureInTransaction(e)) throw e;
      }
    }
  }
  return dated;
}

/**
 * Writes the alarm console entries (docs/data-model.md#alarm-console) of the device alarms and Office 365 alerts
 * stored before the console existed: per registered tenant, its alarm and alert lists (GSI1, read whole) and the
 * SKs of its console partition (one Query, keys only); for each alarm lacking any of its 4 copies, ONE
 * TransactWriteItems of a ConditionCheck that the alarm is still as read (device alarm: its `state` and
 * `deviceName`; alert: its `updatedAt`) and the 4 Puts — a concurrent change wins and is written by its own
 * transaction. Idempotent: the second run writes nothing. Returns how many alarms got their entries.
 */
export async function upgradeAlarmConsole(table: TableRef): Promise<number> {
  let written = 0;
  for (const tenant of await listTenants(table)) {
    const present = new Set(
      (
        await queryAll(table, {
          KeyConditionExpression: 'PK = :p',
          ExpressionAttributeValues: { ':p': keys.alarmConsoleEntry(tenant.id, 'device', 'x', 0).PK },
          ProjectionExpression: 'SK',
        })
      ).map((i) => String(i.SK)),
    );
    const complete = (item: AlarmConsoleItem) =>
      Array.from({ length: ALARM_CONSOLE_COPIES }, (_, copy) => AlarmConsoleEntryEntity.key({ ...item, copy }).SK).every((sk) => present.has(sk));
    const list = (gsi1pk: string) => queryAll(table, { IndexName: indexOf('tenantLists'), KeyConditionExpression: 'GSI1PK = :p', ExpressionAttributeValues: { ':p': gsi1pk } });
    const todo: { item: AlarmConsoleItem; check: TransactWriteItem }[] = [];
    for (const raw of await list(keys.alarmsGsi1Pk(tenant.id))) {
      const a = recordOf(AlarmEntity, raw);
      const item = consoleItemOfDeviceAlarm(a);
      if (complete(item)) continue;
      const named = a.deviceName !== undefined;
      todo.push({
        item,
        check: {
          ConditionCheck: {
            TableName: table.tableName,
            Key: AlarmEntity.key(a),
            ConditionExpression: named ? '#s = :s AND deviceName = :n' : '#s = :s AND attribute_not_exists(deviceName)',
            ExpressionAttributeNames: { '#s': 'state' },
            ExpressionAttributeValues: { ':s': a.state, ...(named ? { ':n': a.deviceName } : {}) },
          },
        },
      });
    }
    for (const raw of await list(keys.o365AlarmsGsi1Pk(tenant.id))) {
      const a = recordOf(O365AlarmEntity, raw);
      const item = consoleItemOfO365Alarm(a);
      if (complete(item)) continue;
      todo.push({ item, check: { ConditionCheck: { TableName: table.tableName, Key: O365AlarmEntity.key(a), ConditionExpression: 'updatedAt = :u', ExpressionAttributeValues: { ':u': a.updatedAt } } } });
    }
    for (const { item, check } of todo) {
      try {
        await table.doc.send('TransactWriteItems', { TransactItems: [check, ...alarmConsolePuts(item, table)] });
        written++;
      } catch (e) {
        // Changed since read: its own transaction wrote (or writes) its entries.
        if (!isConditionFailureInTransaction(e)) throw e;
      }
    }
  }
  return written;
}
