/**
 * The SOC queue shows what needs action (issue 31 point 1; docs/sla.md#soc-queue), over the REAL incidents
 * handler on dynoxide behind the rules proxy, every response checked against the OpenAPI document and every
 * AWS call against the function's IAM role:
 *  - a new critical incident filed by a customer is row 1 of page 1, with 30 incidents resolved and waiting
 *    for the customer and 60 older open ones across 3 tenants (before: row 51, behind the resolved ones);
 *  - the default order is untriaged/new first, then the rest of the open work by SLA due time, so those at
 *    risk (`atRisk`: due within 60 min or breached) lead it; `sort=due` is SLA due time alone;
 *  - resolved incidents are in their own tab; the counts per tab are kept at write time (resolve, close,
 *    reassign move them) and never read from the queue;
 *  - "Sin asignar" and "Asignados a mí" read their own partitions; `unassigned` with `mine` is 400;
 *  - every view is ONE Query a page (+ one read of the counts), whatever the tenants hold;
 *  - the upgrade puts incidents stored in the earlier shape in the queue and counts them, idempotently.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startInProcessApi, type InProcessApi } from '../support/in-process-api.js';
import { bodyOf, type CallerSpec } from '../support/events.js';
import { captureCapacity, type CapturedRequest } from '../support/capacity-capture.js';
import type { ApiHandler } from '../../lambdas/http/api.js';
import type { Incident, PoolUser, Severity, SocQueuePage } from '../../lambdas/contract/schemas.js';
import type { UsersPort } from '../../lambdas/domain/ports.js';
import { createDocumentClient, type TableRef } from '../../lambdas/data/table/client.js';
import { listSocQueue } from '../../lambdas/data/incidents.js';
import { IncidentEntity, itemOf } from '../../lambdas/data/entities.js';
import { keys } from '../../lambdas/data/table/keys.js';
import { upgradeSocQueueIndexes } from '../../lambdas/data/migrations.js';
import { newIncident } from '../../lambdas/domain/incidents.js';

const TABLE = 'vigia-socqueue-main';
const TENANTS = ['acme', 'initech', 'globex'] as const;
const alice: CallerSpec = { sub: 'sub-alice', email: 'alice@acme.example', groups: ['acme'] };
const soc: CallerSpec = { sub: 'sub-soc', email: 'soc@vigia.example', groups: ['admin'] };
const OTHER = 'otro@vigia.example';
const MIN = 60_000;
const DAY = 1_440 * MIN;
const NOW = Date.parse('2026-11-20T10:00:00.000Z');
let clock = NOW;
let api: InProcessApi;
let incidents: ApiHandler;
let table: TableRef;
const ops: CapturedRequest[] = [];
const iso = (ms: number) => new Date(ms).toISOString();
let newCritical: Incident;

const queue = async (query: Record<string, string> = {}) => {
  const r = await call(incidents, { method: 'GET', path: '/soc/queue', caller: soc, query: { limit: '25', ...query } });
  expect(r.statusCode, r.body).toBe(200);
  return bodyOf<SocQueuePage>(r);
};
/** Every row of a view, following the cursor. */
const all = async (query: Record<string, string> = {}) => {
  const rows: SocQueuePage['items'] = [];
  let cursor: string | null = null;
  do {
    const page: SocQueuePage = await queue({ ...query, ...(cursor ? { cursor } : {}) });
    rows.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return rows;
};

/** A stored incident of `tenant`, created `ageDays` ago, due `dueMinutes` from now. */
function stored(tenant: string, seq: number, ageDays: number, dueMinutes: number, over: Partial<Incident>): Incident {
  const severity: Severity = (['high', 'medium', 'low'] as const)[seq % 3]!;
  const base = newIncident(tenant, seq, { title: `Incidente antiguo ${seq}`, description: 'd', severity, category: 'general' }, 'cliente@example.com', iso(NOW - ageDays * DAY));
  return { ...base, slaDueAt: iso(NOW + dueMinutes * MIN), triagedAt: iso(NOW - ageDays * DAY + 5 * MIN), ...over };
}

beforeAll(async () => {
  const user = (username: string, email: string): PoolUser => ({ username, email, status: 'CONFIRMED', enabled: true, mfa: false });
  const groups: Record<string, PoolUser[]> = { acme: [user('u-1', 'alice@acme.example')], admin: [user('u-3', 'soc@vigia.example'), user('u-4', OTHER)] };
  const users = { listGroupMembers: async (g: string) => (groups[g] ?? []).map(({ mfa: _m, ...u }) => u) } as Partial<UsersPort> as UsersPort;
  api = await startInProcessApi({ table: TABLE, users });
  incidents = api.handler('incidents', { now: () => new Date(clock) });
  for (const t of TENANTS) await api.data.putTenant({ id: t, name: t.toUpperCase() });
  // 30 incidents resolved weeks ago, waiting for the customer's confirmation (due long ago: they sort first by due time).
  for (let n = 1; n <= 30; n++) {
    const t = TENANTS[n % 3]!;
    await api.data.putIncident(stored(t, n, 30 + n, -40 * 1_440 + n, { status: 'resolved', resolvedAt: iso(NOW - 35 * DAY), firstAcknowledgedAt: iso(NOW - 39 * DAY), assignee: n % 2 ? 'soc@vigia.example' : null }));
  }
  // 60 older open incidents, triaged and acknowledged: 6 breached, 6 due within the hour, the rest due over the next days.
  for (let n = 31; n <= 90; n++) {
    const t = TENANTS[n % 3]!;
    const k = n - 31;
    const due = k < 6 ? -30 - k : k < 12 ? 10 + k : 2 * 60 + k * 30;
    await api.data.putIncident(stored(t, n, 2 + (k % 5), due, { status: 'in_progress', firstAcknowledgedAt: iso(NOW - DAY), assignee: k % 3 === 0 ? null : k % 3 === 1 ? 'soc@vigia.example' : OTHER }));
  }
  table = { doc: createDocumentClient(api.documentClientOptions()), tableName: TABLE };
  captureCapacity(table, ops);
  // A customer files a new critical incident: "ransomware".
  const r = await call(incidents, { method: 'POST', path: '/incidents', caller: alice, body: { title: 'Ransomware en el servidor de ficheros', description: 'Archivos cifrados', severity: 'critical' } });
  expect(r.statusCode, r.body).toBe(201);
  newCritical = bodyOf<Incident>(r);
}, 240_000);

afterAll(async () => {
  table?.doc.destroy();
  await api?.stop();
});

describe('the SOC queue shows what needs action', () => {
  it('a new critical incident is row 1 of page 1, before 60 older open ones; resolved ones are not in the open tab', async () => {
    const page = await queue();
    expect(page.items[0]).toMatchObject({ id: newCritical.id, tenantId: 'acme', status: 'new', severity: 'critical', atRisk: false });
    expect(page.items).toHaveLength(25);
    expect(page.items.filter((i) => i.status === 'resolved')).toEqual([]);
    expect(page.counts).toEqual({ open: 61, resolved: 30 });
  });

  it('default order: untriaged/new first, then the rest by SLA due time — those at risk (breached or due within 60 min) lead it', async () => {
    const rows = await all();
    expect(rows).toHaveLength(61);
    expect(rows[0]!.id).toBe(newCritical.id);
    const rest = rows.slice(1);
    expect(rest.map((i) => i.slaDueAt)).toEqual([...rest.map((i) => i.slaDueAt)].sort());
    // The 12 at risk (6 breached, 6 due within the hour) are rows 2–13, the rest are not at risk.
    expect(rest.slice(0, 12).every((i) => i.atRisk)).toBe(true);
    expect(rest.slice(0, 6).every((i) => i.minutesToBreach < 0)).toBe(true);
    expect(rest.slice(12).some((i) => i.atRisk)).toBe(false);
    // By SLA due time alone (`sort=due`), the new critical (due in 4 h) comes after the 12 at risk.
    const byDue = await all({ sort: 'due' });
    expect(byDue).toHaveLength(61);
    expect(byDue.map((i) => i.slaDueAt)).toEqual([...byDue.map((i) => i.slaDueAt)].sort());
    expect(byDue.findIndex((i) => i.id === newCritical.id)).toBe(12);
  });

  it('the resolved tab holds the 30 resolved incidents waiting for the customer, with the same counts', async () => {
    const page = await queue({ tab: 'resolved' });
    expect(page.counts).toEqual({ open: 61, resolved: 30 });
    const rows = await all({ tab: 'resolved' });
    expect(rows).toHaveLength(30);
    expect(rows.every((i) => i.status === 'resolved' && !i.atRisk)).toBe(true);
    expect(rows.map((i) => i.slaDueAt)).toEqual([...rows.map((i) => i.slaDueAt)].sort());
  });

  it('"Sin asignar" and "Asignados a mí" read their own partitions, with their counts; unassigned with mine is 400', async () => {
    const unassigned = await all({ unassigned: 'true' });
    expect(unassigned).toHaveLength(21); // the new critical + 20 of the 60
    expect(unassigned.every((i) => i.assignee === null)).toBe(true);
    expect(unassigned[0]!.id).toBe(newCritical.id);
    expect((await queue({ unassigned: 'true' })).counts).toEqual({ open: 21, resolved: 15 });
    const mine = await all({ mine: 'true' });
    expect(mine).toHaveLength(20);
    expect(mine.every((i) => i.assignee === 'soc@vigia.example')).toBe(true);
    expect((await queue({ mine: 'true', tab: 'resolved' })).counts).toEqual({ open: 20, resolved: 15 });
    expect((await all({ mine: 'true', tab: 'resolved' })).every((i) => i.status === 'resolved' && i.assignee === 'soc@vigia.example')).toBe(true);
    const dueMine = await all({ mine: 'true', sort: 'due' });
    expect(dueMine.map((i) => i.id).sort()).toEqual(mine.map((i) => i.id).sort());
    // With a customer: that tenant's partition (and its counts).
    const acme = await all({ tenant: 'acme' });
    expect(acme.every((i) => i.tenantId === 'acme')).toBe(true);
    expect(acme[0]!.id).toBe(newCritical.id);
    expect((await queue({ tenant: 'acme' })).counts).toEqual({ open: 21, resolved: 10 });
    const unassignedAcme = await all({ tenant: 'acme', unassigned: 'true' });
    expect(unassignedAcme.every((i) => i.tenantId === 'acme' && i.assignee === null)).toBe(true);
    const bad = await call(incidents, { method: 'GET', path: '/soc/queue', caller: soc, query: { unassigned: 'true', mine: 'true' } });
    expect(bad.statusCode, bad.body).toBe(400);
    expect(bodyOf<{ code: string }>(bad).code).toBe('VALIDATION_FAILED');
    // A cursor of another tab is refused.
    const p = await queue({ tab: 'resolved', limit: '5' });
    const other = await call(incidents, { method: 'GET', path: '/soc/queue', caller: soc, query: { cursor: p.nextCursor! } });
    expect(other.statusCode).toBe(400);
  });

  it('each view is ONE Query a page across 3 tenants, plus one read of the counts', async () => {
    const views = [{}, { sort: 'due' as const }, { tab: 'resolved' as const }, { tenantId: 'initech' }, { tenantId: 'initech', sort: 'due' as const }, { assignee: 'soc@vigia.example' }, { assignee: 'soc@vigia.example', sort: 'due' as const }, { unassigned: true }, { unassigned: true, sort: 'due' as const }];
    for (const v of views) {
      ops.length = 0;
      const page = await listSocQueue({ limit: 10, ...v }, table);
      expect(page.items.length, JSON.stringify(v)).toBeGreaterThan(0);
      // The page: one Query of an index. The counts: one read of the base table (a Query of the 8 shards'
      // partition or a GetItem), 0.5 RCU.
      expect(ops.filter((o) => o.index), JSON.stringify(v)).toHaveLength(1);
      expect(ops.filter((o) => !o.index), JSON.stringify(v)).toHaveLength(1);
      expect(ops.find((o) => !o.index)!.rcu, JSON.stringify(v)).toBe(0.5);
      expect(ops.reduce((a, o) => a + o.rcu, 0), JSON.stringify(v)).toBeLessThanOrEqual(3);
    }
  });

  it('the counts follow the writes: triage and acknowledge, assign, resolve, close', async () => {
    const before = await queue();
    const req = (caller: CallerSpec, method: 'PATCH' | 'POST', path: string, body: object, query: Record<string, string> = {}) => call(incidents, { method, path, caller, body, query });
    clock = NOW + MIN;
    let r = await req(soc, 'POST', `/incidents/${newCritical.id}/triage`, { version: 1, severity: 'critical', reason: 'Cifrado activo confirmado' }, { tenant: 'acme' });
    expect(r.statusCode, r.body).toBe(200);
    // Triaged but still `new`: still first.
    expect((await queue()).items[0]!.id).toBe(newCritical.id);
    r = await req(soc, 'PATCH', `/incidents/${newCritical.id}`, { version: 2, status: 'in_progress', assignee: 'soc@vigia.example' }, { tenant: 'acme' });
    expect(r.statusCode, r.body).toBe(200);
    // Acknowledged: it joins the rest of the open work by due time (4 h: after the 12 at risk).
    const now = await all();
    expect(now.findIndex((i) => i.id === newCritical.id)).toBe(12);
    expect((await queue({ unassigned: 'true' })).counts).toEqual({ open: 20, resolved: 15 });
    expect((await queue({ mine: 'true' })).counts).toEqual({ open: 21, resolved: 15 });
    r = await req(soc, 'PATCH', `/incidents/${newCritical.id}`, { version: 3, status: 'resolved' }, { tenant: 'acme' });
    expect(r.statusCode, r.body).toBe(200);
    expect((await queue()).counts).toEqual({ open: before.counts.open - 1, resolved: before.counts.resolved + 1 });
    expect((await all({ tab: 'resolved' })).some((i) => i.id === newCritical.id)).toBe(true);
    expect((await all()).some((i) => i.id === newCritical.id)).toBe(false);
    r = await req(alice, 'POST', `/incidents/${newCritical.id}/confirm-resolution`, { note: 'Confirmado' });
    expect(r.statusCode, r.body).toBe(200);
    expect((await queue()).counts).toEqual({ open: before.counts.open - 1, resolved: before.counts.resolved });
    expect((await queue({ tenant: 'acme' })).counts).toEqual({ open: 20, resolved: 10 });
    expect((await all({ tab: 'resolved' })).some((i) => i.id === newCritical.id)).toBe(false);
  });

  it('the upgrade puts incidents stored in the earlier shape in the queue and counts them, idempotently', async () => {
    // The earlier shape: every not-closed incident in GSI2 SOCQUEUE (resolved included), no queue entry; an
    // assigned open one with an assignment entry in GSI2 SOCQUEUE#ASSIGNEE#<a>.
    const oldKeys = (i: Incident) => ({ ...keys.socQueueGsi2(i.tenantId, i.id, i.slaDueAt), ...keys.socQueueTenantGsi4(i.tenantId) });
    const fresh = newIncident('globex', 500, { title: 'Antiguo sin triage', description: 'd', severity: 'high', category: 'general' }, 'c@example.com', iso(NOW - 3 * DAY));
    const resolved = { ...stored('globex', 501, 10, -9 * DAY, { status: 'resolved', resolvedAt: iso(NOW - 8 * DAY) }) };
    const assigned = stored('globex', 502, 1, 300, { status: 'on_hold', assignee: OTHER });
    const items = [
      { ...itemOf(IncidentEntity, fresh), ...oldKeys(fresh) },
      { ...itemOf(IncidentEntity, resolved), ...oldKeys(resolved) },
      { ...itemOf(IncidentEntity, assigned), ...oldKeys(assigned) },
      { ...itemOf(IncidentEntity, assigned), ...keys.socQueueEntry(assigned.tenantId, assigned.id), GSI1PK: undefined, GSI1SK: undefined, GSI3PK: undefined, GSI3SK: undefined, GSI4PK: undefined, GSI2PK: `SOCQUEUE#ASSIGNEE#${OTHER}`, GSI2SK: `${assigned.slaDueAt}#globex#${assigned.id}` },
    ].map((it) => Object.fromEntries(Object.entries(it).filter(([, v]) => v !== undefined)));
    for (const Item of items) await table.doc.send('PutItem', { TableName: TABLE, Item });
    const before = await queue({ tenant: 'globex' });
    expect(await upgradeSocQueueIndexes(table)).toEqual({ tenantQueue: 0, queueEntries: 3, resolvedMoved: 1 });
    expect(await upgradeSocQueueIndexes(table)).toEqual({ tenantQueue: 0, queueEntries: 0, resolvedMoved: 0 });
    const after = await queue({ tenant: 'globex' });
    expect(after.counts).toEqual({ open: before.counts.open + 2, resolved: before.counts.resolved + 1 });
    expect(after.items[0]!.id).toBe(fresh.id);
    expect((await all({ tenant: 'globex', sort: 'due' })).some((i) => i.id === resolved.id)).toBe(false);
    expect((await all({ tenant: 'globex', tab: 'resolved' })).some((i) => i.id === resolved.id)).toBe(true);
    expect((await all({ assignee: OTHER, sort: 'due' })).some((i) => i.id === assigned.id)).toBe(true);
  });
});
