/**
 * The entity declarations (`lambdas/data/entities.ts`) are what the API returns and what the docs say:
 *  - an attribute stored on an item but not declared by its entity (an internal attribute added later, a
 *    roll-up, a key, the TTL, `searchText`) never reaches an object the repository returns, over every read
 *    path of every port — real dynoxide, every item of the table given an undeclared attribute;
 *  - the entity tables of docs/data-model.md are the ones rendered from the declarations.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DynamoDBClient, ScanCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { LOCAL_CREDENTIALS, useDynamoTable } from '../support/dynamo-table.js';
import { dynamoRepository, tableWriters, type TableRef } from '../../lambdas/data/index.js';
import { DEVICE_ROLLUP_ATTRIBUTES, ENTITIES, type Entity } from '../../lambdas/data/entities.js';
import { newIncident, planUpdate } from '../../lambdas/domain/incidents.js';

const TABLE = 'vigia-entities-main';
let table: TableRef;
let endpoint: string;
useDynamoTable(TABLE, (t, e) => {
  table = t;
  endpoint = e;
});

/** Attributes that exist on stored items and must never appear in a returned object. */
const NEVER_RETURNED = ['internalNote', 'searchText', 'PK', 'SK', 'GSI1PK', 'GSI1SK', 'entity', 'expiresAt', 'hbUpSeconds', 'hbMonitoredSeconds', ...DEVICE_ROLLUP_ATTRIBUTES.filter((a) => a !== 'openAlarms')];

/** Every object key found anywhere in `value`, with its path. */
function keysIn(value: unknown, path = '$', out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v, i) => keysIn(v, `${path}[${i}]`, out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.push(`${path}.${k}`);
      keysIn(v, `${path}.${k}`, out);
    }
  }
  return out;
}

describe('stored attributes the entity does not declare', () => {
  it('never appear in what any port returns', async () => {
    const w = tableWriters(table);
    const now = new Date();
    const t = 'acme';
    await w.putTenant({ id: t, name: 'Acme' });
    const inc = newIncident(t, 7, { title: 'Phishing', description: 'mail', severity: 'high', category: 'email' }, 'ana', now.toISOString());
    const upd = planUpdate(inc, { version: 1, status: 'in_progress', comment: 'looking', triage: { severity: 'high', reason: 'confirmed' } }, 'bo', now.toISOString());
    await w.putIncident(upd.incident, { comments: [upd.comment!], history: [upd.change] });
    await w.putDevice({ id: 'fw-1', tenantId: t, name: 'Firewall', type: 'firewall', site: 'HQ', ipAddress: '10.0.0.1', vendor: 'V', model: 'M' }, now);
    await w.putDailyAvailability({ tenantId: t, deviceId: 'fw-1', date: now.toISOString().slice(0, 10), availablePct: 99 }, now);
    await w.ingestHeartbeat({ tenantId: t, deviceId: 'fw-1', at: new Date(now.getTime() - 60_000).toISOString() }, now);
    await w.ingestHeartbeat({ tenantId: t, deviceId: 'fw-1', at: now.toISOString() }, now);
    await w.putAlarm({ id: 'a1', tenantId: t, deviceId: 'fw-1', raisedAt: now.toISOString(), severity: 'high', state: 'active', title: 'CPU' });
    await w.putAlarm({ id: 'a2', tenantId: t, deviceId: 'fw-1', raisedAt: now.toISOString(), severity: 'low', state: 'cleared', title: 'Fan', clearedAt: now.toISOString() });
    await w.upsertO365Alarm({ id: 'o1', tenantId: t, title: 'Rule', severity: 'medium', category: 'mail', status: 'active', affectedUser: null, detectedAt: now.toISOString(), updatedAt: now.toISOString() });
    await w.putO365Event({ id: 'e1', tenantId: t, workload: 'Exchange', operation: 'New-InboxRule', user: 'u@acme', result: 'Succeeded', clientIp: null, at: now.toISOString() });
    const rec = { id: 'r1', tenantId: t, title: 'MFA', rationale: 'why', priority: 'high', category: 'identity', status: 'open', createdAt: now.toISOString(), statusNote: null, statusChangedBy: null, statusChangedAt: null } as const;
    await w.putRecommendation(rec);

    // Give EVERY stored item an attribute no entity declares (test-only Scan).
    const raw = new DynamoDBClient({ endpoint, region: 'eu-west-1', credentials: LOCAL_CREDENTIALS });
    const scanned = await raw.send(new ScanCommand({ TableName: TABLE }));
    expect(scanned.Items!.length).toBeGreaterThan(10);
    for (const item of scanned.Items!) {
      await raw.send(new UpdateItemCommand({ TableName: TABLE, Key: { PK: item.PK!, SK: item.SK! }, UpdateExpression: 'SET internalNote = :n', ExpressionAttributeValues: { ':n': { S: 'internal' } } }));
    }
    raw.destroy();

    const repo = dynamoRepository(table);
    const from = new Date(now.getTime() - 86_400_000).toISOString();
    const day = from.slice(0, 10);
    const outputs: Record<string, unknown> = {
      tenant: await repo.tenants.getTenant(t),
      tenants: await repo.tenants.listTenants(),
      incident: await repo.incidents.getIncident(t, inc.id),
      detail: await repo.incidents.getIncidentDetail(t, inc.id),
      incidents: await repo.incidents.listIncidents(t, { limit: 10 }),
      filteredIncidents: await repo.incidents.listIncidents(t, { limit: 10, q: 'phish', status: ['in_progress'] }),
      devices: (await repo.devices.listDevices(t, { limit: 10 })).items.map((d) => d.device),
      device: await repo.devices.getDevice(t, 'fw-1'),
      history: await repo.devices.deviceHistory(t, 'fw-1', day),
      stats: await repo.devices.deviceStats(t, 'fw-1', day),
      alarms: await repo.devices.listAlarms(t, { limit: 10 }),
      acknowledged: await repo.devices.transitionAlarm(t, 'fw-1', 'a1', ['active'], 'acknowledged', { acknowledgedAt: now.toISOString(), acknowledgedBy: 'bo' }),
      o365Alarms: await repo.office365.listAlarms(t, { limit: 10 }),
      o365Events: await repo.office365.listEvents(t, { limit: 10 }),
      recommendation: await repo.recommendations.get(t, 'r1'),
      recommendations: await repo.recommendations.list(t, { limit: 10 }),
      changed: await repo.recommendations.changeStatus(t, 'r1', 'open', { status: 'accepted', note: 'ok', by: 'bo', at: now.toISOString() }),
      report: await repo.reports.load(t, from, new Date(now.getTime() + 60_000).toISOString()),
    };
    for (const [name, value] of Object.entries(outputs)) expect(value, name).toBeTruthy();
    const leaked = keysIn(outputs).filter((p) => NEVER_RETURNED.includes(p.slice(p.lastIndexOf('.') + 1)));
    expect(leaked).toEqual([]);
    // …while the declared attributes are all there.
    expect(outputs.incident).toEqual(upd.incident);
    expect(outputs.recommendation).toEqual(rec);
  });
});

/** A record whose every field reads as `<field>` (tenant `<t>`), to render key templates. */
const placeholder = new Proxy({} as Record<string, unknown>, {
  get: (_t, p) => {
    if (p === 'tenantId') return '<t>';
    if (p === 'version') return '<version, 10 digits>';
    if (p === 'changes') return [{ field: 'status', from: 'new', to: 'in_progress' }];
    return typeof p === 'string' ? `<${p}>` : undefined;
  },
});

/** The two entity tables of docs/data-model.md (keys, then attributes), rendered from the declarations. */
function entityTables(): string {
  const entities = ENTITIES as readonly Entity<never, object>[];
  const code = (x: string) => `\`${x}\``;
  const keyRows = entities.map((e) => {
    const k = e.key(placeholder as never);
    const g = e.gsi1?.(placeholder as never);
    const gsi1pk = g ? code(g.GSI1PK) + (e.gsi1Note ? ` (${e.gsi1Note})` : '') : '–';
    return `| ${[e.name, code(k.PK), code(k.SK), gsi1pk, g ? code(g.GSI1SK) : '–', e.ttlNote ?? '–'].join(' | ')} |`;
  });
  const attributeRows = entities.map((e) => {
    const stored = [
      ...e.attributes.map((a) => ((e.omitNull as readonly string[] | undefined)?.includes(a) ? `${code(a)} (absent while null)` : code(a))),
      ...Object.keys(e.derived?.(placeholder as never) ?? {}).map((a) => `${code(a)} (derived)`),
      ...(e.internal ?? []).map((a) => `${code(a)} (internal)`),
    ];
    const list = e.list ? `Query GSI1 ${code(e.list.gsi1pk('<t>'))}${e.list.newestFirst ? ', newest first' : ''}${e.list.byTime ? ' by time' : ''}` : '';
    return `| ${[`${e.name}: ${e.description}`, stored.join(', '), [list, e.readBy].filter(Boolean).join('; ')].join(' | ')} |`;
  });
  return [
    '| Entity | PK | SK | GSI1PK | GSI1SK | TTL (`expiresAt`) |',
    '|---|---|---|---|---|---|',
    ...keyRows,
    '',
    '| Entity | Attributes stored | Read by |',
    '|---|---|---|',
    ...attributeRows,
  ].join('\n');
}

describe('docs/data-model.md', () => {
  it('has the entity tables of the declarations (paste the expected text between the markers when it fails)', () => {
    const doc = readFileSync(new URL('../../docs/data-model.md', import.meta.url), 'utf8');
    const section = /<!-- entities:start -->\n([\s\S]*?)\n<!-- entities:end -->/.exec(doc)?.[1];
    expect(section).toBe(entityTables());
  });
});
