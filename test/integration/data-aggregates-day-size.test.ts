/**
 * The tenant day items' size does not grow with how busy the tenant is (issue 14; docs/data-model.md#aggregates,
 * `AGGREGATES_VERSION` 4): a day on which many incidents were created and resolved, falling due in many
 * different hours, is stored in as many bytes as a quiet day (the counts' digits aside) — no due-hour counter
 * is left behind at 0 — and the alarm types are stored under short names. Real dynoxide on a random port, writes through the
 * repository's own write paths.
 */
import { describe, expect, it } from 'vitest';
import { useDynamoTable } from '../support/dynamo-table.js';
import type { TableRef } from '../../lambdas/data/table/client.js';
import { createIncident, getIncident, saveIncidentUpdate } from '../../lambdas/data/incidents.js';
import { putDevice, raiseAlarm } from '../../lambdas/data/devices.js';
import { readTenantDays, rebuildTenantAggregates } from '../../lambdas/data/aggregates.js';
import { keys } from '../../lambdas/data/table/keys.js';
import { agg } from '../../lambdas/domain/aggregates.js';
import { DEVICE_ALARM_TYPES } from '../../lambdas/domain/alarm-types.js';
import { newIncident } from '../../lambdas/domain/incidents.js';
import { SEVERITIES, type Incident, type Severity } from '../../lambdas/contract/schemas.js';

const TABLE = 'vigia-aggregates-day-size';
let table: TableRef;

useDynamoTable(TABLE, (t) => {
  table = t;
});

const DAY = '2026-03-10';
const NOW = new Date('2026-03-20T12:00:00.000Z');

/** DynamoDB's item size (docs: attribute names + values; a number is ~1 byte per two significant digits + 1). */
function itemBytes(item: Record<string, unknown>): number {
  const num = (n: number) => Math.ceil(String(Math.abs(n)).replace('.', '').replace(/^0+/, '').length / 2) + 1;
  return Object.entries(item).reduce((s, [k, v]) => s + Buffer.byteLength(k) + (typeof v === 'number' ? num(v) : Buffer.byteLength(String(v))), 0);
}

/** `n` incidents created on `DAY` (every severity, spread over its hours, so they fall due in many different hours), each acknowledged and then resolved or closed. */
async function busyDay(tenantId: string, n: number): Promise<void> {
  for (let k = 0; k < n; k++) {
    const severity: Severity = SEVERITIES[k % SEVERITIES.length]!;
    const createdAt = new Date(Date.parse(`${DAY}T00:00:00.000Z`) + ((k * 37) % 1440) * 60_000).toISOString();
    const created = await createIncident(tenantId, (seq) => newIncident(tenantId, seq, { title: 'Prueba', description: 'Incidente de prueba', severity, category: 'general' }, 'ana@acme.example', createdAt), table);
    const cur = (await getIncident(tenantId, created.id, table))!;
    const at = (min: number) => new Date(Date.parse(createdAt) + min * 60_000).toISOString();
    const steps: Array<Partial<Incident>> = [{ status: 'in_progress', firstAcknowledgedAt: at(5) }, { status: 'on_hold' }, { status: 'resolved', resolvedAt: at(90 + k) }];
    if (k % 2 === 0) steps.push({ status: 'closed', slaResult: 'met' });
    let prev = cur;
    for (const s of steps) {
      const next: Incident = { ...prev, ...s, version: prev.version + 1, updatedAt: at(100) };
      await saveIncidentUpdate(tenantId, next, prev, { version: next.version, at: at(100), by: 'x', bySub: 'x', changes: [] }, null, table);
      prev = next;
    }
  }
}

/** The rebuild's drift (the stats item of these tenants never had a version: not a drift of the figures). */
const drift = async (tenantId: string) => (await rebuildTenantAggregates(table, tenantId, { write: false, now: NOW })).drift.filter((l) => !l.startsWith('stats.aggVersion'));
const dayItem = async (tenantId: string) => (await table.doc.send('GetItem', { TableName: TABLE, Key: keys.day(tenantId, DAY) })).Item ?? {};
const hourItems = async (tenantId: string) =>
  (await table.doc.send('Query', { TableName: TABLE, KeyConditionExpression: 'PK = :p', ExpressionAttributeValues: { ':p': keys.hoursPk(tenantId) } })).Items ?? [];

describe('tenant day items: a bounded layout', () => {
  it('a day of 40 incidents created and resolved keeps no attribute per due hour and no zero counter: stored in the bytes of a day of 1', async () => {
    await busyDay('day-quiet', 1);
    await busyDay('day-busy', 40);
    const quiet = await dayItem('day-quiet');
    const busy = await dayItem('day-busy');
    // No attribute per due hour is left behind at 0 (as `d#<hour>` counters were, one per hour the day's
    // incidents fell due in); only the status counters (at most 5 names) can stay at 0.
    // (new, in_progress and on_hold are stored with the unresolved incident's attribute: only resolved can.)
    const statusNames = new Set(['sr']);
    for (const item of [quiet, busy, ...(await hourItems('day-busy'))]) expect(Object.entries(item).filter(([k, v]) => v === 0 && !statusNames.has(k))).toEqual([]);
    // The same names whatever the day's volume (severities present, statuses reached): only the counts differ.
    // Per severity at most 3 names: created (`c<sev>`), resolved and met within the SLA (`q<sev>`, `k<sev>`, version 6).
    expect(Object.keys(busy).length).toBeLessThanOrEqual(Object.keys(quiet).length + 3 * SEVERITIES.length);
    expect(itemBytes(busy) - itemBytes(quiet)).toBeLessThanOrEqual(3 * SEVERITIES.length * 4 + 16);
    // The figures are those of the items (nothing was lost by storing less).
    expect(await drift('day-busy')).toEqual([]);
    const read = (await readTenantDays(table, 'day-busy', DAY, DAY)).get(DAY)!;
    expect(read[agg.createdStatus('closed')]).toBe(20);
    expect(read[agg.createdStatus('resolved')]).toBe(20);
    expect(Object.keys(read).filter((k) => k.startsWith('d#'))).toEqual([]);
  });

  it('an unresolved incident is one attribute until it is resolved, read back as its due-hour counter', async () => {
    const t = 'day-open';
    const created = await createIncident(t, (seq) => newIncident(t, seq, { title: 'Abierto', description: 'x', severity: 'high', category: 'general' }, 'ana@acme.example', `${DAY}T10:15:00.000Z`), table);
    const stored = await dayItem(t);
    const open = Object.keys(stored).filter((k) => k.startsWith('o'));
    expect(open).toHaveLength(1);
    expect((await readTenantDays(table, t, DAY, DAY)).get(DAY)![agg.openDue(created.slaDueAt.slice(0, 13))]).toBe(1);
    const next: Incident = { ...created, status: 'resolved', resolvedAt: `${DAY}T11:00:00.000Z`, version: 2 };
    await saveIncidentUpdate(t, next, created, { version: 2, at: next.resolvedAt!, by: 'x', bySub: 'x', changes: [] }, null, table);
    expect(Object.keys(await dayItem(t)).filter((k) => k.startsWith('o'))).toEqual([]);
    expect(await drift(t)).toEqual([]);
  });

  it('a day with an alarm of every catalogue type under every severity stays under 0.5 KB (one short name per type and severity)', async () => {
    const t = 'day-alarms';
    await putDevice({ tenantId: t, id: 'd1', name: 'd1', type: 'firewall', site: 'HQ', ipAddress: '10.0.0.1', vendor: 'v', model: 'm', lastHeartbeatAt: null }, table, NOW);
    let n = 0;
    for (const type of Object.values(DEVICE_ALARM_TYPES))
      for (const severity of SEVERITIES)
        await raiseAlarm({ id: `a${n}`, tenantId: t, deviceId: 'd1', title: type.title, severity, state: 'active', raisedAt: `${DAY}T${String(n++ % 24).padStart(2, '0')}:00:00.000Z`, acknowledgedAt: null, acknowledgedBy: null, clearedAt: null }, table);
    const item = await dayItem(t);
    expect((await readTenantDays(table, t, DAY, DAY)).get(DAY)![agg.alarmsRaised('low')]).toBe(Object.keys(DEVICE_ALARM_TYPES).length);
    expect(await drift(t)).toEqual([]);
    // 28 title counters + 4 by severity: ~5 bytes of name each (the version 3 names were up to 25 bytes).
    expect(Object.keys(item).filter((k) => k.startsWith('t')).every((k) => k.length <= 5)).toBe(true);
    expect(itemBytes(item)).toBeLessThan(512);
  });

  it('an item of the version 3 layout reads the same until the migration rebuilds it in the new one', async () => {
    const t = 'day-v3';
    const created = await createIncident(t, (seq) => newIncident(t, seq, { title: 'Abierto', description: 'x', severity: 'medium', category: 'general' }, 'ana@acme.example', `${DAY}T08:00:00.000Z`), table);
    const v4 = (await readTenantDays(table, t, DAY, DAY)).get(DAY)!;
    // The same figures under the version 3 names, as `npm start` / platform:upgrade-data find them.
    const due = created.slaDueAt.slice(0, 13);
    await table.doc.send('PutItem', { TableName: TABLE, Item: { ...keys.day(t, DAY), entity: 'TenantDay', date: DAY, 'c#m': 1, 's#new': 1, [`d#${due.slice(2, 4)}${due.slice(5, 7)}${due.slice(8, 10)}${due.slice(11, 13)}`]: 1, 'd#26031001': 0 } });
    expect(Object.fromEntries(Object.entries((await readTenantDays(table, t, DAY, DAY)).get(DAY)!).filter(([, v]) => v !== 0))).toEqual(v4);
    await rebuildTenantAggregates(table, t, { write: true, now: NOW });
    const item = await dayItem(t);
    // Rebuilt whole in the version 4 names: no `c#m`, `s#new`, `d#…` left (the zero one included).
    expect(Object.keys(item).filter((k) => k.includes('#'))).toEqual([]);
    expect((await readTenantDays(table, t, DAY, DAY)).get(DAY)).toEqual(v4);
    expect(await rebuildTenantAggregates(table, t, { write: false, now: NOW }).then((r) => r.drift)).toEqual([]);
  });
});
