/**
 * Activity feed, unread count and "marcar todo como leído" over the REAL handlers on dynoxide, every
 * response checked against the OpenAPI document (docs/notifications.md):
 *  - a status change on an OLD incident (not among the 20 newest the old bell read) appears in the feed and
 *    in the customer's unread count; another tenant's user never sees it; mark-as-read resets the count;
 *  - the event is written atomically with its change: a stale-version update (409) or a comment on a missing
 *    incident writes no event; alarm, Office 365 and recommendation writes add theirs once (replays none);
 *  - the feed is newest first, one Query per page, cursors bound to the tenant's feed;
 *  - the SLA job writes one event per incident and threshold however often it runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityEvent, ActivityUnread, Incident, Page } from '../../lambdas/contract/schemas.js';
import type { ApiHandler } from '../../lambdas/http/api.js';
import { newIncident } from '../../lambdas/domain/incidents.js';
import { runSlaWatch } from '../../lambdas/data/activity.js';
import { keys } from '../../lambdas/data/table/keys.js';
import { seedDemoActivity } from '../../scripts/local/demo-activity.js';
import { bodyOf, lambdaContext, type CallerSpec } from '../support/events.js';
import { call, collectorEvent, startInProcessApi, type InProcessApi } from '../support/in-process-api.js';

const TABLE = 'vigia-activity-main';
const ana: CallerSpec = { sub: 'sub-ana', email: 'ana@acme.example', groups: ['acme'] };
const bea: CallerSpec = { sub: 'sub-bea', email: 'bea@acme.example', groups: ['acme'] };
const carol: CallerSpec = { sub: 'sub-carol', email: 'carol@initech.example', groups: ['initech'] };
const soc: CallerSpec = { sub: 'sub-soc', email: 'soc@vigia.example', groups: ['admin'] };
const COLLECTOR = { userArn: 'arn:aws:iam::000000000000:role/vigia-collector', accessKey: 'AKIDLOCAL' };

const NOW = Date.parse('2026-06-10T12:00:00.000Z');
let clock = NOW;
const at = (msAfter: number) => new Date(NOW + msAfter).toISOString();
const DAY = 86_400_000;

let api: InProcessApi;
let account: ApiHandler;
let incidents: ApiHandler;
let ingest: ApiHandler;
let devices: ApiHandler;

const feed = async (caller: CallerSpec, query: Record<string, string> = {}) => {
  const r = await call(account, { method: 'GET', path: '/activity', caller, query });
  expect(r.statusCode, r.body).toBe(200);
  return bodyOf<Page<ActivityEvent>>(r);
};
const unread = async (caller: CallerSpec, query: Record<string, string> = {}) => {
  const r = await call(account, { method: 'GET', path: '/activity/unread', caller, query });
  expect(r.statusCode, r.body).toBe(200);
  return bodyOf<ActivityUnread>(r);
};
const markRead = async (caller: CallerSpec, query: Record<string, string> = {}) => {
  const r = await call(account, { method: 'POST', path: '/activity/read', caller, query });
  expect(r.statusCode, r.body).toBe(200);
  return bodyOf<ActivityUnread>(r);
};
/** Every event of a tenant's feed (through the repository, all pages). */
const allEvents = async (tenantId: string) => {
  const out: ActivityEvent[] = [];
  let cursor: string | undefined;
  do {
    const p = await api.repository.activity.list(tenantId, { limit: 100, cursor });
    out.push(...p.items);
    cursor = p.nextCursor ?? undefined;
  } while (cursor);
  return out;
};
const collect = (path: string, body: unknown) => ingest(collectorEvent(path, body, COLLECTOR), lambdaContext);

/** An incident stored by the seed path (no event), created `daysAgo` days before NOW. */
const seedIncident = async (tenantId: string, seq: number, daysAgo: number) => {
  const i: Incident = newIncident(tenantId, seq, { title: `Incidente ${seq}`, description: 'd', severity: 'medium', category: 'general' }, 'ana@acme.example', new Date(NOW - daysAgo * DAY).toISOString());
  await api.data.putIncident(i);
  return i;
};

beforeAll(async () => {
  api = await startInProcessApi({ table: TABLE });
  const now = () => new Date(clock);
  account = api.handler('account', { now });
  incidents = api.handler('incidents', { now });
  ingest = api.handler('ingest', { now });
  devices = api.handler('devices', { now });
  await api.data.putTenant({ id: 'acme', name: 'Acme' });
  await api.data.putTenant({ id: 'initech', name: 'Initech' });
  await api.data.grantCollector('acme', COLLECTOR.userArn);
  // One old incident and 25 newer ones: the old one is not among the 20 newest.
  await seedIncident('acme', 1, 40);
  for (let s = 2; s <= 26; s++) await seedIncident('acme', s, 30 - s);
  await seedIncident('initech', 1, 1);
});
afterAll(async () => {
  await api?.stop();
});

describe('a change on an old incident reaches the feed and the bell of its tenant only', () => {
  it('staff change the status: ana sees it unread and in the feed; carol never does; mark as read resets', async () => {
    expect(await unread(ana)).toEqual({ count: 0, capped: false, seenAt: null });
    clock = NOW;
    const patch = await call(incidents, { method: 'PATCH', path: '/incidents/INC-000001', caller: soc, query: { tenant: 'acme' }, body: { version: 1, status: 'in_progress', triage: { severity: 'medium', reason: 'Confirmado' } } });
    expect(patch.statusCode, patch.body).toBe(200);

    expect(await unread(ana)).toEqual({ count: 1, capped: false, seenAt: null });
    const page = await feed(ana);
    expect(page.items[0]).toMatchObject({
      tenantId: 'acme',
      kind: 'incident.status_changed',
      severity: 'medium',
      at: at(0),
      actor: { name: 'soc@vigia.example', sub: 'sub-soc' },
      subject: { type: 'incident', id: 'INC-000001' },
      title: 'INC-000001: estado «Nuevo» → «En curso»',
      link: '/ticket/update/INC-000001?tenant=acme',
      outbox: 'PENDING',
    });
    // Pending for the delivery side, in no index (it finds the event in the feed: docs/notifications.md#outbox).
    const raw = await api.data.table.doc.send('GetItem', { TableName: TABLE, Key: keys.activityEvent('acme', page.items[0]!.at, page.items[0]!.eventId) });
    expect(raw.Item).toMatchObject({ entity: 'ActivityEvent', outbox: 'PENDING' });
    expect(raw.Item?.GSI2PK).toBeUndefined();

    // Another tenant: nothing in its feed or count, and no way to ask for acme's.
    expect((await feed(carol)).items).toEqual([]);
    expect((await unread(carol)).count).toBe(0);
    const foreign = await call(account, { method: 'GET', path: '/activity', caller: carol, query: { tenant: 'acme' } });
    expect(foreign.statusCode).toBe(403);
    const foreignCursor = await call(account, { method: 'GET', path: '/activity', caller: carol, query: { cursor: Buffer.from(JSON.stringify({ s: keys.activityPk('acme'), k: { PK: keys.activityPk('acme'), SK: 'EV#~' } })).toString('base64url') } });
    expect(foreignCursor.statusCode).toBe(400);

    // Staff see the tenant they pick; their own change is not unread for them.
    expect((await feed(soc, { tenant: 'acme' })).items[0]?.subject.id).toBe('INC-000001');
    expect((await unread(soc, { tenant: 'acme' })).count).toBe(0);

    // Mark as read: the count goes to 0 for ana only.
    clock = NOW + 60_000;
    expect(await markRead(ana)).toEqual({ count: 0, capped: false, seenAt: at(60_000) });
    expect((await unread(ana)).count).toBe(0);
    expect((await unread(bea)).count).toBe(1);

    // A later change is unread again; ana's own comment is not unread for her but is for bea.
    clock = NOW + 120_000;
    expect((await call(incidents, { method: 'POST', path: '/incidents/INC-000001/comments', caller: soc, query: { tenant: 'acme' }, body: { body: 'Analizando' } })).statusCode).toBe(201);
    clock = NOW + 180_000;
    expect((await call(incidents, { method: 'POST', path: '/incidents/INC-000001/comments', caller: ana, body: { body: 'Gracias' } })).statusCode).toBe(201);
    expect((await unread(ana)).count).toBe(1);
    expect((await unread(bea)).count).toBe(3);
    expect((await feed(ana)).items.slice(0, 3).map((e) => [e.kind, e.actor?.sub])).toEqual([
      ['incident.commented', 'sub-ana'],
      ['incident.commented', 'sub-soc'],
      ['incident.status_changed', 'sub-soc'],
    ]);
  });

  it('a refused change writes no event: stale version (409), comment on a missing incident (404)', async () => {
    const before = (await allEvents('acme')).length;
    clock = NOW + 240_000;
    const stale = await call(incidents, { method: 'PATCH', path: '/incidents/INC-000002', caller: soc, query: { tenant: 'acme' }, body: { version: 7, status: 'in_progress' } });
    expect(stale.statusCode, stale.body).toBe(409);
    const missing = await call(incidents, { method: 'POST', path: '/incidents/INC-009999/comments', caller: ana, body: { body: 'hola' } });
    expect(missing.statusCode).toBe(404);
    // An assignee-only change is accepted but is not an event customers are told about.
    expect((await allEvents('acme')).length).toBe(before);
  });

  it('create, resolve and close each write one event in their transaction', async () => {
    clock = NOW + 300_000;
    const created = await call(incidents, { method: 'POST', path: '/incidents', caller: ana, body: { title: 'Correo sospechoso', description: 'd', severity: 'high', category: 'phishing' } });
    expect(created.statusCode, created.body).toBe(201);
    const id = bodyOf<Incident>(created).id;
    const step = async (version: number, status: string) => {
      clock += 60_000;
      const triage = status === 'in_progress' ? { triage: { severity: 'high', reason: 'Confirmado' } } : {};
      const r = await call(incidents, { method: 'PATCH', path: `/incidents/${id}`, caller: soc, query: { tenant: 'acme' }, body: { version, status, ...triage } });
      expect(r.statusCode, r.body).toBe(200);
    };
    await step(1, 'in_progress');
    await step(2, 'resolved');
    await step(3, 'closed');
    const mine = (await allEvents('acme')).filter((e) => e.subject.id === id).map((e) => e.kind);
    expect(mine).toEqual(['incident.closed', 'incident.resolved', 'incident.status_changed', 'incident.created']);
  });
});

describe('alarms, Office 365 alerts and recommendations', () => {
  it('write their events once; medium alarms and replays write none', async () => {
    await api.data.putDevice({ tenantId: 'acme', id: 'fw-1', name: 'Firewall', type: 'firewall', site: 'HQ', ipAddress: '10.0.0.1', vendor: 'v', model: 'm' });
    const before = (await allEvents('acme')).length;
    const raise = (id: string, severity: string) => collect('/ingest/device-alarms', { action: 'raise', eventId: `r-${id}`, tenantId: 'acme', deviceId: 'fw-1', alarmId: id, severity, title: `CPU ${id}`, at: at(400_000) });
    expect((await raise('a1', 'critical')).statusCode).toBe(202);
    expect((await raise('a1', 'critical')).statusCode).toBe(200);
    expect((await raise('a2', 'medium')).statusCode).toBe(202);
    clock = NOW + 500_000;
    const ack = await call(devices, { method: 'POST', path: '/devices/fw-1/alarms/a1/acknowledge', caller: ana });
    expect(ack.statusCode, ack.body).toBe(200);
    expect((await collect('/ingest/device-alarms', { action: 'clear', eventId: 'c-a1', tenantId: 'acme', deviceId: 'fw-1', alarmId: 'a1', at: at(600_000) })).statusCode).toBe(202);
    const o365 = { eventId: 'o-1', tenantId: 'acme', alarmId: 'o365-1', title: 'Reenvío a dominio externo', severity: 'high', category: 'Exchange', status: 'active', affectedUser: null, detectedAt: at(610_000), updatedAt: at(610_000) };
    expect((await collect('/ingest/office365/alarms', o365)).statusCode).toBe(202);
    expect((await collect('/ingest/office365/alarms', { ...o365, eventId: 'o-2', status: 'resolved', updatedAt: at(620_000) })).statusCode).toBe(202);
    const rec = { eventId: 'rec-e1', recommendationId: 'rec-1', tenantId: 'acme', title: 'Activar MFA', rationale: 'r', priority: 'high', category: 'identidad', at: at(630_000) };
    expect((await collect('/ingest/recommendations', rec)).statusCode).toBe(202);
    expect((await collect('/ingest/recommendations', rec)).statusCode).toBe(200);
    const all = await allEvents('acme');
    expect(all.length - before).toBe(5);
    const added = all.filter((e) => e.subject.type !== 'incident');
    expect(added.map((e) => e.kind).sort()).toEqual(['alarm.acknowledged', 'alarm.cleared', 'alarm.raised', 'office365.alert_raised', 'recommendation.added']);
    expect(added.find((e) => e.kind === 'alarm.acknowledged')?.actor).toEqual({ name: 'ana@acme.example', sub: 'sub-ana' });
  });
});

describe('feed pages and the SLA job', () => {
  it('pages newest first without gaps or repeats, one Query each', async () => {
    const all = await allEvents('acme');
    expect(all.length).toBeGreaterThan(10);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const p = await feed(ana, { limit: '4', ...(cursor ? { cursor } : {}) });
      seen.push(...p.items.map((e) => e.eventId));
      cursor = p.nextCursor ?? undefined;
      pages++;
    } while (cursor && pages < 50);
    expect(seen).toEqual(all.map((e) => e.eventId));
    expect([...all].sort((a, b) => b.at.localeCompare(a.at))).toEqual(all);
  });

  it('the unread count stops at 99 ("99+")', async () => {
    for (let k = 0; k < 105; k++) await api.repository.activity.putOnce({ eventId: `bulk-${String(k).padStart(3, '0')}`, tenantId: 'initech', kind: 'incident.commented', severity: 'info', at: at(700_000 + k), actor: null, subject: { type: 'incident', id: 'INC-000001' }, title: 'x', link: '/', outbox: 'PENDING' });
    expect(await unread(carol)).toMatchObject({ count: 99, capped: true });
  });

  it('writes one sla event per incident and threshold, however often it runs', async () => {
    // INC-000026 of acme (medium: 24 h window) was created NOW − 4 days: breached. Re-running writes nothing.
    const first = await runSlaWatch(new Date(NOW + DAY), api.data.table);
    expect(first.written).toBeGreaterThan(0);
    const again = await Promise.all([runSlaWatch(new Date(NOW + DAY), api.data.table), runSlaWatch(new Date(NOW + DAY + 60_000), api.data.table)]);
    expect(again.map((r) => r.written)).toEqual([0, 0]);
    const sla = (await allEvents('acme')).filter((e) => e.kind.startsWith('sla.'));
    expect(new Set(sla.map((e) => e.eventId)).size).toBe(sla.length);
    expect(sla.every((e) => e.actor === null && e.link.startsWith('/ticket/update/'))).toBe(true);
  });
});

describe('demo seed', () => {
  it('writes the events of the newest incidents and their status changes once; an existing feed is left alone', async () => {
    await api.data.putTenant({ id: 'demo', name: 'Demo' });
    const i = newIncident('demo', 1, { title: 'Ransomware', description: 'd', severity: 'critical', category: 'malware' }, 'ana@acme.example', at(-DAY));
    const history = [{ version: 2, at: at(-DAY + 60_000), by: 'soc@vigia.example', changes: [{ field: 'status', from: 'new', to: 'in_progress' }] }];
    await api.data.putIncident({ ...i, status: 'in_progress', version: 2 }, { history });
    expect(await seedDemoActivity('demo', api.data.table)).toBe(2);
    expect(await seedDemoActivity('demo', api.data.table)).toBe(0);
    expect(await seedDemoActivity('demo', api.data.table, { onlyIfEmpty: true })).toBe(0);
    expect((await allEvents('demo')).map((e) => e.kind)).toEqual(['incident.status_changed', 'incident.created']);
  });
});
