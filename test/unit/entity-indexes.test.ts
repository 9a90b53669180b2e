/**
 * Issue 30 point 1, "Access patterns are data": every entity declares the indexes it is in with their key
 * builders (`indexes` in lambdas/data/entities.ts) and `itemOf` writes the GSI key attributes from those only.
 *  - the GSI attributes written for a sample item of each indexed entity are byte-identical to what the
 *    item writer stored before the move (the expected strings are spelled out here, not rebuilt with `keys`);
 *  - no entity writes a GSI key attribute its `indexes` do not declare (nor through `derived`);
 *  - each declaration's index is its access pattern's, so the Query's `IndexName` and the IAM grant name it.
 */
import { describe, expect, it } from 'vitest';
import {
  ACTIVITY_OUTBOX_INDEX,
  declaredIndex,
  ENTITIES,
  INCIDENT_BY_STATUS,
  gsiOf,
  indexKeys,
  itemOf,
  type Entity,
  type IndexDeclaration,
  AccessRequestEntity,
  ActivityEventEntity,
  AlarmConsoleEntryEntity,
  AlarmEntity,
  AuditEntity,
  AutoCloseEntity,
  DeviceEntity,
  HistoryEntity,
  IncidentEntity,
  MaintenanceWindowEntity,
  O365AlarmEntity,
  O365EventEntity,
  RecommendationEntity,
  SocQueueEntryEntity,
} from '../../lambdas/data/entities.js';
import { INDEX_ACCESS } from '../../lambdas/data/access-patterns.js';
import { GSIS } from '../../lambdas/data/table/table-design.js';

const RETENTION = { availabilityDays: 400, o365EventDays: 90, auditDays: 400 };
/** Every GSI key attribute name of the table. */
const GSI_ATTRIBUTES: ReadonlySet<string> = new Set(GSIS.flatMap((g) => [g.partitionKey, g.sortKey]));
const gsiAttributesOf = (item: Record<string, unknown>) => Object.fromEntries(Object.entries(item).filter(([k]) => GSI_ATTRIBUTES.has(k)));

const C = '2026-01-02T03:04:05.000Z';
const DUE = '2026-01-02T07:04:05.000Z';
const incident = {
  id: 'INC-7', tenantId: 'acme', title: 'Phishing', description: 'mail', severity: 'high', status: 'in_progress', category: 'email', source: 'portal',
  reporter: 'ana@acme', reporterSub: 's-ana', assignee: 'bo@soc', createdAt: C, updatedAt: C, resolvedAt: null, slaDueAt: DUE, version: 3,
  slaTargets: null, triagedAt: C, firstAcknowledgedAt: C, closureRequested: false, closedAt: null, slaResult: null, autoCloseAt: null, alarms: [],
} as const;
const alarm = { id: 'a1', tenantId: 'acme', deviceId: 'fw-1', deviceName: 'Firewall', title: 'CPU', severity: 'high', state: 'active', raisedAt: C, acknowledgedAt: null, acknowledgedBy: null, acknowledgedBySub: null, clearedAt: null, incidentId: null, inMaintenance: false, maintenanceWindowId: null } as const;
const consoleRow = { kind: 'device', tenantId: 'acme', id: 'a1', deviceId: 'fw-1', deviceName: 'Firewall', affectedUser: null, title: 'CPU', severity: 'high', state: 'active', sourceState: 'active', raisedAt: C, acknowledgedAt: null, acknowledgedBy: null, clearedAt: null, inMaintenance: false } as const;
const CONSOLE_SK = `${C}#acme#device#fw-1#a1`;

/** A sample record of an entity and the GSI attributes the item writer stored for it before the move. */
type Case = { name: string; entity: Entity<never, object>; record: object; gsi: Record<string, string> };
const cases: Case[] = [
  {
    name: 'open incident: tenant list, status (GSI3), SOC queue (GSI2, GSI4)',
    entity: IncidentEntity as never,
    record: incident,
    gsi: {
      GSI1PK: 'TENANT#acme#INCIDENTS', GSI1SK: `${C}#INC-7`,
      GSI3PK: 'TENANT#acme#INCSTATUS#in_progress', GSI3SK: `${C}#INC-7`,
      GSI2PK: 'SOCQUEUE', GSI2SK: `${DUE}#acme#INC-7`, GSI4PK: 'TENANT#acme#SOCQUEUE',
    },
  },
  {
    name: 'resolved incident: out of the SOC queue by due time',
    entity: IncidentEntity as never,
    record: { ...incident, status: 'resolved', resolvedAt: C },
    gsi: { GSI1PK: 'TENANT#acme#INCIDENTS', GSI1SK: `${C}#INC-7`, GSI3PK: 'TENANT#acme#INCSTATUS#resolved', GSI3SK: `${C}#INC-7` },
  },
  {
    name: 'queue entry of an open, triaged, assigned incident: rank 2, tab o',
    entity: SocQueueEntryEntity as never,
    record: incident,
    gsi: {
      GSI2PK: 'SOCQUEUE#RANKED', GSI2SK: `2#${DUE}#acme#INC-7`, GSI4PK: 'TENANT#acme#SOCQUEUE#RANKED',
      GSI1PK: 'SOCQUEUE#ASSIGNEE#bo@soc#RANKED', GSI1SK: `2#${DUE}#acme#INC-7`,
      GSI3PK: 'SOCQUEUE#ASSIGNEE#bo@soc', GSI3SK: `o#${DUE}#acme#INC-7`,
    },
  },
  {
    name: 'queue entry of a new unassigned incident: rank 1',
    entity: SocQueueEntryEntity as never,
    record: { ...incident, status: 'new', assignee: null, triagedAt: null },
    gsi: {
      GSI2PK: 'SOCQUEUE#RANKED', GSI2SK: `1#${DUE}#acme#INC-7`, GSI4PK: 'TENANT#acme#SOCQUEUE#RANKED',
      GSI1PK: 'SOCQUEUE#ASSIGNEE#-#RANKED', GSI1SK: `1#${DUE}#acme#INC-7`,
      GSI3PK: 'SOCQUEUE#ASSIGNEE#-', GSI3SK: `o#${DUE}#acme#INC-7`,
    },
  },
  {
    name: 'queue entry of a resolved incident: rank 9, tab r',
    entity: SocQueueEntryEntity as never,
    record: { ...incident, status: 'resolved', assignee: null },
    gsi: {
      GSI2PK: 'SOCQUEUE#RANKED', GSI2SK: `9#${DUE}#acme#INC-7`, GSI4PK: 'TENANT#acme#SOCQUEUE#RANKED',
      GSI1PK: 'SOCQUEUE#ASSIGNEE#-#RANKED', GSI1SK: `9#${DUE}#acme#INC-7`,
      GSI3PK: 'SOCQUEUE#ASSIGNEE#-', GSI3SK: `r#${DUE}#acme#INC-7`,
    },
  },
  { name: 'queue entry of a closed incident: in no index', entity: SocQueueEntryEntity as never, record: { ...incident, status: 'closed', closedAt: C }, gsi: {} },
  { name: 'automatic-closure entry', entity: AutoCloseEntity as never, record: { tenantId: 'acme', incidentId: 'INC-7', autoCloseAt: DUE }, gsi: { GSI2PK: 'AUTOCLOSE', GSI2SK: `${DUE}#acme#INC-7` } },
  {
    name: 'history entry of the first response',
    entity: HistoryEntity as never,
    record: { tenantId: 'acme', incidentId: 'INC-7', incidentCreatedAt: C, version: 2, at: DUE, by: 'bo', bySub: 's-bo', changes: [{ field: 'status', from: 'new', to: 'in_progress' }], reason: null },
    gsi: { GSI1PK: 'TENANT#acme#FIRSTRESPONSES', GSI1SK: `${C}#INC-7#0000000002` },
  },
  {
    name: 'history entry of another change: in no index',
    entity: HistoryEntity as never,
    record: { tenantId: 'acme', incidentId: 'INC-7', incidentCreatedAt: C, version: 3, at: DUE, by: 'bo', bySub: 's-bo', changes: [{ field: 'severity', from: 'low', to: 'high' }], reason: null },
    gsi: {},
  },
  {
    name: 'device: by folded name (GSI1), by IP (GSI3)',
    entity: DeviceEntity as never,
    record: { id: 'fw-1', tenantId: 'acme', name: ' Fírewall Ñandú ', type: 'firewall', site: 'HQ', ipAddress: ' FE80::1 ', vendor: 'V', model: 'M', lastHeartbeatAt: null },
    gsi: { GSI1PK: 'TENANT#acme#DEVICES', GSI1SK: 'firewall nandu#fw-1', GSI3PK: 'TENANT#acme#DEVICEIP', GSI3SK: 'fe80::1#fw-1' },
  },
  { name: 'device alarm', entity: AlarmEntity as never, record: alarm, gsi: { GSI1PK: 'TENANT#acme#ALARMS', GSI1SK: `${C}#fw-1#a1` } },
  {
    name: 'Office 365 alert',
    entity: O365AlarmEntity as never,
    record: { id: 'o1', tenantId: 'acme', title: 'Rule', severity: 'medium', category: 'mail', status: 'active', affectedUser: null, detectedAt: C, updatedAt: C, incidentId: null, acknowledgedAt: null, acknowledgedBy: null, acknowledgedBySub: null },
    gsi: { GSI1PK: 'TENANT#acme#O365ALARMS', GSI1SK: `${C}#o1` },
  },
  {
    name: 'alarm console copy 0: every tenant / tenant, no filter / severity',
    entity: AlarmConsoleEntryEntity as never,
    record: { ...consoleRow, copy: 0 },
    gsi: {
      GSI1PK: 'ALARMCONSOLE#*#*#*', GSI1SK: CONSOLE_SK,
      GSI2PK: 'TENANT#acme#ALARMCONSOLE#*#*#*', GSI2SK: CONSOLE_SK,
      GSI3PK: 'ALARMCONSOLE#high#*#*', GSI3SK: CONSOLE_SK,
      GSI4PK: 'TENANT#acme#ALARMCONSOLE#high#*#*',
    },
  },
  {
    name: 'alarm console copy 1: state',
    entity: AlarmConsoleEntryEntity as never,
    record: { ...consoleRow, copy: 1 },
    gsi: {
      GSI1PK: 'ALARMCONSOLE#*#active#*', GSI1SK: CONSOLE_SK,
      GSI2PK: 'TENANT#acme#ALARMCONSOLE#*#active#*', GSI2SK: CONSOLE_SK,
      GSI3PK: 'ALARMCONSOLE#high#active#*', GSI3SK: CONSOLE_SK,
      GSI4PK: 'TENANT#acme#ALARMCONSOLE#high#active#*',
    },
  },
  {
    name: 'alarm console copy 3 of an Office 365 alert: state and kind',
    entity: AlarmConsoleEntryEntity as never,
    record: { ...consoleRow, kind: 'office365', id: 'o1', deviceId: null, deviceName: null, affectedUser: 'u@acme', copy: 3 },
    gsi: {
      GSI1PK: 'ALARMCONSOLE#*#active#office365', GSI1SK: `${C}#acme#office365#o1`,
      GSI2PK: 'TENANT#acme#ALARMCONSOLE#*#active#office365', GSI2SK: `${C}#acme#office365#o1`,
      GSI3PK: 'ALARMCONSOLE#high#active#office365', GSI3SK: `${C}#acme#office365#o1`,
      GSI4PK: 'TENANT#acme#ALARMCONSOLE#high#active#office365',
    },
  },
  {
    name: 'Office 365 event',
    entity: O365EventEntity as never,
    record: { id: 'e1', tenantId: 'acme', workload: 'Exchange', operation: 'New-InboxRule', user: 'u@acme', result: 'Succeeded', clientIp: null, at: C },
    gsi: { GSI1PK: 'TENANT#acme#O365EVENTS', GSI1SK: `${C}#e1` },
  },
  {
    name: 'recommendation',
    entity: RecommendationEntity as never,
    record: { id: 'r1', tenantId: 'acme', title: 'MFA', rationale: 'why', priority: 'high', category: 'identity', status: 'open', createdAt: C, statusNote: null, statusChangedBy: null, statusChangedBySub: null, statusChangedAt: null },
    gsi: { GSI1PK: 'TENANT#acme#RECOMMENDATIONS', GSI1SK: `${C}#r1` },
  },
  {
    name: 'audit entry: the tenant log (GSI1) and every tenant\'s (GSI2)',
    entity: AuditEntity as never,
    record: { id: 'au1', at: C, tenantId: 'acme', actor: 'bo', action: 'incident.update', target: 'INC-7', before: null, after: null, requestId: 'req', sourceIp: null },
    gsi: { GSI1PK: 'TENANT#acme#AUDIT', GSI1SK: `${C}#au1`, GSI2PK: 'AUDIT', GSI2SK: `${C}#acme#au1` },
  },
  {
    name: 'activity event: no index entry from itemOf (the outbox entry is putActivityEventOnce\'s)',
    entity: ActivityEventEntity as never,
    record: { eventId: 'ev1', tenantId: 'acme', kind: 'incident.created', severity: 'high', at: C, actor: 'ana', subject: 'INC-7', title: 't', message: 'm', link: '/incidents/INC-7', outbox: 'PENDING' },
    gsi: {},
  },
  {
    name: 'access request',
    entity: AccessRequestEntity as never,
    record: { id: 'user-1', sub: 's-1', email: 'u@x', emailVerified: true, provider: null, emailDomain: 'x', requestedAt: C, status: 'pending', tenantId: null, decidedAt: null, decidedBy: null },
    gsi: { GSI2PK: 'ACCESSREQUESTS#pending', GSI2SK: `${C}#user-1` },
  },
  {
    name: 'maintenance window: by end time',
    entity: MaintenanceWindowEntity as never,
    record: { windowId: 'w1', tenantId: 'acme', title: 'Patch', scope: { deviceIds: [], sites: ['HQ'] }, startAt: C, endAt: DUE, createdAt: C, createdBy: 'bo', updatedAt: C, version: 1 },
    gsi: { GSI1PK: 'TENANT#acme#MAINTENANCE', GSI1SK: `${DUE}#w1` },
  },
];

/** The GSI attribute names an entity's `indexes` declare for what `itemOf` writes. */
function declaredAttributes(entity: Entity<never, object>): Set<string> {
  return new Set(Object.values(entity.indexes ?? {}).filter((d) => !d.writtenBy).flatMap((d) => {
    const g = gsiOf(d as IndexDeclaration<never>);
    return [g.partitionKey, g.sortKey];
  }));
}

describe('entity indexes (issue 30 point 1)', () => {
  it.each(cases)('$name: the GSI attributes written are the ones stored before', ({ entity, record, gsi }) => {
    expect(gsiAttributesOf(itemOf(entity, record as never, RETENTION))).toEqual(gsi);
  });

  it('every indexed entity has a sample item above', () => {
    const sampled = new Set(cases.map((c) => c.entity));
    expect(ENTITIES.filter((e) => Object.keys((e as Entity<never, object>).indexes ?? {}).length > 0 && !sampled.has(e as never)).map((e) => e.name)).toEqual([]);
  });

  it.each(cases)('$name: writes no GSI key attribute its indexes do not declare', ({ entity, record }) => {
    const declared = declaredAttributes(entity);
    const undeclared = Object.keys(itemOf(entity, record as never, RETENTION)).filter((a) => GSI_ATTRIBUTES.has(a) && !declared.has(a));
    expect(undeclared, entity.name).toEqual([]);
  });

  it('no entity computes a GSI key attribute in `derived` (index keys are declared in `indexes`)', () => {
    for (const c of cases) expect(Object.keys(c.entity.derived?.(c.record as never) ?? {}).filter((a) => GSI_ATTRIBUTES.has(a)), c.entity.name).toEqual([]);
    // Entities without a sample: a record whose every field reads as a string.
    const anything = new Proxy({} as Record<string, unknown>, { get: (_t, p) => (p === 'changes' ? [] : typeof p === 'string' ? `<${p}>` : undefined) });
    for (const e of ENTITIES as readonly Entity<never, object>[]) expect(Object.keys(e.derived?.(anything as never) ?? {}).filter((a) => GSI_ATTRIBUTES.has(a)), e.name).toEqual([]);
  });

  it('the GSI1 view (`gsi1`, the docs table) is the GSI1 keys written', () => {
    for (const c of cases) {
      const view = c.entity.gsi1?.(c.record as never);
      if (view) expect(view).toEqual({ GSI1PK: c.gsi.GSI1PK, GSI1SK: c.gsi.GSI1SK });
    }
  });

  it('each declaration is on its access pattern\'s index; a Query of that pattern has the declared index\'s IndexName', () => {
    for (const e of ENTITIES as readonly Entity<never, object>[]) {
      for (const d of Object.values(e.indexes ?? {})) expect(gsiOf(d as IndexDeclaration<never>)).toBe(INDEX_ACCESS[d.access].index);
    }
  });

  it('the outbox entry (written by putActivityEventOnce, not itemOf) is only for a PENDING event', () => {
    const ev = cases.find((c) => c.entity === (ActivityEventEntity as never))!.record as never;
    expect(indexKeys(ACTIVITY_OUTBOX_INDEX, ev)).toEqual({ GSI2PK: 'OUTBOX', GSI2SK: `${C}#acme#ev1` });
    expect(indexKeys(ACTIVITY_OUTBOX_INDEX, { ...(ev as object), outbox: 'DONE' } as never)).toEqual({});
  });

  it('declaredIndex: the declaration of that name (the upgrade re-keys with them), an error for a name not declared', () => {
    const device = cases.find((c) => c.entity === (DeviceEntity as never))!;
    expect(indexKeys(declaredIndex(DeviceEntity, 'byIp'), device.record as never)).toEqual({ GSI3PK: device.gsi.GSI3PK, GSI3SK: device.gsi.GSI3SK });
    expect(indexKeys(declaredIndex(DeviceEntity, 'byName'), device.record as never)).toEqual({ GSI1PK: device.gsi.GSI1PK, GSI1SK: device.gsi.GSI1SK });
    expect(indexKeys(declaredIndex(IncidentEntity, 'byStatus'), incident as never)).toEqual({ GSI3PK: 'TENANT#acme#INCSTATUS#in_progress', GSI3SK: `${C}#INC-7` });
    expect(declaredIndex(IncidentEntity, 'socQueueOfTenant').pk(incident as never)).toBe('TENANT#acme#SOCQUEUE');
    expect(() => declaredIndex(IncidentEntity, 'byColour')).toThrow(/Incident declares no index byColour/);
    // The status filter's Query builds its partitions with the declaration's pk from the tenant and status only.
    expect(declaredIndex(IncidentEntity, 'byStatus')).toBe(INCIDENT_BY_STATUS);
    expect(INCIDENT_BY_STATUS.pk({ tenantId: 'acme', status: 'resolved' })).toBe('TENANT#acme#INCSTATUS#resolved');
  });

  it('a GSI attribute two declarations share (GSI4 sorts by GSI2SK) must have one value', () => {
    const clash: Entity<{ a: string }> = {
      name: 'Clash',
      description: 'test',
      key: (r) => ({ PK: r.a, SK: r.a }),
      attributes: ['a'],
      indexes: {
        x: { access: 'socQueue', pk: () => 'P', sk: () => 'one' },
        y: { access: 'socQueueOfTenant', pk: () => 'P', sk: () => 'two' },
      },
    };
    expect(() => itemOf(clash, { a: 'k' })).toThrow(/GSI2SK/);
  });
});
