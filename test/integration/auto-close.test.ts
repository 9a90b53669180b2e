/**
 * Automatic closure of resolved incidents (docs/sla.md#automatic-closure) over the REAL admin, incidents and
 * account handlers and the SLA job's step on dynoxide, the job run as its function (`sla-watch`: every call
 * evaluated against its synthesized IAM role):
 *  - the per-tenant `autoCloseDays` (1–90, default 7) is set by staff (validated at the edge, audited) and read by
 *    the customer (`GET /me`, read-only: a customer PATCH is 403);
 *  - a resolved incident closes N days after its resolution, per tenant: `closed`, `closedAt`, the SLA result as
 *    a manual close computes it (`slaResultOf`), a history entry by "Vigía" with the reason, an
 *    `incident.auto_close` audit entry, the `incident.closed` activity event (bell, feed; the outbox delivers
 *    e-mail and webhook) — and not a minute earlier;
 *  - the due incidents come from the AUTOCLOSE index, only those due (one Query per page);
 *  - a second run closes nothing more; a customer's confirmation that wins the race is kept (the job's
 *    conditional write is a no-op).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startInProcessApi, type InProcessApi } from '../support/in-process-api.js';
import type { ApiHandler } from '../../lambdas/http/api.js';
import type { ActivityEvent, Incident, IncidentDetail, Me, Page, Tenant } from '../../lambdas/contract/schemas.js';
import { bodyOf, type CallerSpec } from '../support/events.js';
import { createDocumentClient, type TableRef } from '../../lambdas/data/table/client.js';
import { incidentsRepository, listAutoCloseDue } from '../../lambdas/data/incidents.js';
import { autoCloseIncident, slaResultOf } from '../../lambdas/domain/incidents.js';
import { closeDueIncidents } from '../../lambdas/triggers/sla-watch.js';
import { upgradeAutoClose } from '../../lambdas/data/migrations.js';
import { keys } from '../../lambdas/data/table/keys.js';
import { runAsFunction } from '../../scripts/aws-rules/recorder.js';

const TABLE = 'vigia-auto-close-main';
const ana: CallerSpec = { sub: 'sub-ana', email: 'ana@acme.example', groups: ['acme'] };
const carol: CallerSpec = { sub: 'sub-carol', email: 'carol@initech.example', groups: ['initech'] };
const soc: CallerSpec = { sub: 'sub-soc', email: 'soc@vigia.example', groups: ['admin'] };
const T0 = Date.parse('2026-06-01T09:00:00.000Z');
const MIN = 60_000;
const DAY = 86_400_000;
let clock = T0;
let api: InProcessApi;
let incidents: ApiHandler;
let admin: ApiHandler;
let account: ApiHandler;
let table: TableRef;

const job = (at: number) => runAsFunction('sla-watch', () => closeDueIncidents(table, new Date(at)));
const detail = async (tenant: string, id: string) => bodyOf<IncidentDetail>(await call(incidents, { method: 'GET', path: `/incidents/${id}`, caller: soc, query: { tenant } }));
const auditOf = async (tenant: string, id: string) => (await api.repository.audit.listTenant(tenant, { limit: 100 })).items.filter((e) => e.target.id === id);

/** A customer opens an incident at `clock`; staff triage, acknowledge and resolve it at `resolveAt`. */
async function resolvedIncident(caller: CallerSpec, tenant: string, resolveAt: number): Promise<Incident> {
  clock = resolveAt - 30 * MIN;
  const r = await call(incidents, { method: 'POST', path: '/incidents', caller, body: { title: 'Acceso sospechoso', description: 'd', severity: 'high' } });
  expect(r.statusCode, r.body).toBe(201);
  const inc = bodyOf<Incident>(r);
  const ack = await call(incidents, { method: 'PATCH', path: `/incidents/${inc.id}`, caller: soc, query: { tenant }, body: { version: 1, status: 'in_progress', triage: { severity: 'high', reason: 'Confirmado' } } });
  expect(ack.statusCode, ack.body).toBe(200);
  clock = resolveAt;
  const res = await call(incidents, { method: 'PATCH', path: `/incidents/${inc.id}`, caller: soc, query: { tenant }, body: { version: 2, status: 'resolved' } });
  expect(res.statusCode, res.body).toBe(200);
  return bodyOf<Incident>(res);
}

beforeAll(async () => {
  api = await startInProcessApi({ table: TABLE });
  incidents = api.handler('incidents', { now: () => new Date(clock) });
  admin = api.handler('admin', { now: () => new Date(clock) });
  account = api.handler('account', { now: () => new Date(clock) });
  table = { doc: createDocumentClient({ region: 'eu-west-1', endpoint: api.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }), tableName: TABLE };
  await api.data.putTenant({ id: 'acme', name: 'Acme' });
  await api.data.putTenant({ id: 'initech', name: 'Initech' });
});
afterAll(async () => {
  await api?.stop();
});

describe('the per-tenant setting', () => {
  it('staff set autoCloseDays (1–90 whole days, validated at the edge, audited); the customer reads it, cannot set it', async () => {
    for (const bad of [0, 91, 3.5, '3']) {
      const r = await call(admin, { method: 'PATCH', path: '/tenants/acme', caller: soc, body: { autoCloseDays: bad } });
      expect(r.statusCode, String(bad)).toBe(400);
      expect(bodyOf<{ code: string }>(r).code).toBe('VALIDATION_FAILED');
    }
    const ok = await call(admin, { method: 'PATCH', path: '/tenants/acme', caller: soc, body: { autoCloseDays: 3 } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(bodyOf<Tenant>(ok)).toMatchObject({ id: 'acme', autoCloseDays: 3 });
    const audit = (await api.repository.audit.listTenant('acme', { limit: 20 })).items.filter((e) => e.action === 'tenant.update');
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor: { sub: 'sub-soc' }, after: { autoCloseDays: 3 } });
    // The customer sees it (read-only): GET /me carries the tenant's setting; the admin route is staff-only.
    const me = bodyOf<Me>(await call(account, { method: 'GET', path: '/me', caller: ana }));
    expect(me.tenants.find((t) => t.id === 'acme')).toMatchObject({ autoCloseDays: 3 });
    expect((await call(admin, { method: 'PATCH', path: '/tenants/acme', caller: ana, body: { autoCloseDays: 90 } })).statusCode).toBe(403);
  });
});

describe('automatic closure', () => {
  let a: Incident; // acme: 3 days
  let b: Incident; // initech: default 7 days
  const resolvedAt = T0 + DAY;

  it('fixes autoCloseAt at resolution from the tenant’s days and lists only the due ones', async () => {
    a = await resolvedIncident(ana, 'acme', resolvedAt);
    b = await resolvedIncident(carol, 'initech', resolvedAt);
    expect(a.autoCloseAt).toBe(new Date(resolvedAt + 3 * DAY).toISOString());
    expect(b.autoCloseAt).toBe(new Date(resolvedAt + 7 * DAY).toISOString());
    expect((await listAutoCloseDue(table, new Date(resolvedAt + 3 * DAY - MIN))).items).toEqual([]);
    expect((await listAutoCloseDue(table, new Date(resolvedAt + 3 * DAY + MIN))).items).toEqual([{ tenantId: 'acme', incidentId: a.id, autoCloseAt: a.autoCloseAt }]);
  });

  it('closes each tenant’s incident after its N days, not earlier: SLA result, history by Vigía with the reason, audit, activity event', async () => {
    expect(await job(resolvedAt + 3 * DAY - MIN)).toEqual({ autoClosed: 0, autoCloseLost: 0 });
    const at = resolvedAt + 3 * DAY + MIN;
    clock = at;
    expect(await job(at)).toEqual({ autoClosed: 1, autoCloseLost: 0 });
    const d = await detail('acme', a.id);
    expect(d).toMatchObject({ status: 'closed', closedAt: new Date(at).toISOString(), slaResult: slaResultOf(a, new Date(at).toISOString()), closureRequested: false });
    expect(d.autoCloseAt).toBeUndefined();
    expect(d.history.at(-1)).toMatchObject({
      by: 'Vigía',
      at: new Date(at).toISOString(),
      changes: [{ field: 'status', from: 'resolved', to: 'closed' }],
      reason: 'Cerrado automáticamente: resuelto hace 3 días sin confirmación del cliente',
    });
    const audit = (await auditOf('acme', a.id)).filter((e) => e.action === 'incident.auto_close');
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor: { sub: 'Vigía' }, before: { status: 'resolved' }, after: { status: 'closed', slaResult: d.slaResult } });
    // The customer is told: the activity event of the closure (the bell and the feed; the outbox sends e-mail and webhook).
    const feed = bodyOf<Page<ActivityEvent>>(await call(account, { method: 'GET', path: '/activity', caller: ana }));
    expect(feed.items[0]).toMatchObject({ kind: 'incident.closed', subject: { type: 'incident', id: a.id }, actor: { name: 'Vigía' }, outbox: 'PENDING' });
    // Initech's default 7 days are not over: still resolved.
    expect(await detail('initech', b.id)).toMatchObject({ status: 'resolved' });
    clock = resolvedAt + 7 * DAY + MIN;
    expect(await job(clock)).toEqual({ autoClosed: 1, autoCloseLost: 0 });
    expect(await detail('initech', b.id)).toMatchObject({ status: 'closed' });
  });

  it('is idempotent: a second run closes nothing, writes no second history or audit entry', async () => {
    const before = await detail('acme', a.id);
    expect(await job(resolvedAt + 30 * DAY)).toEqual({ autoClosed: 0, autoCloseLost: 0 });
    // Even told to close the same incident again, nothing is due.
    expect(await runAsFunction('sla-watch', () => autoCloseIncident(incidentsRepository(table), 'acme', a.id, new Date(resolvedAt + 30 * DAY)))).toBe('not-due');
    const after = await detail('acme', a.id);
    expect(after.version).toBe(before.version);
    expect(after.history).toHaveLength(before.history.length);
    expect((await auditOf('acme', a.id)).filter((e) => e.action === 'incident.auto_close')).toHaveLength(1);
  });

  it('a confirmation or reopening takes the incident out of the due list', async () => {
    const c = await resolvedIncident(ana, 'acme', T0 + 40 * DAY);
    clock = T0 + 41 * DAY;
    const re = await call(incidents, { method: 'POST', path: `/incidents/${c.id}/reopen`, caller: ana, body: { reason: 'Sigue pasando' } });
    expect(re.statusCode, re.body).toBe(200);
    expect(bodyOf<Incident>(re).autoCloseAt).toBeUndefined();
    expect((await listAutoCloseDue(table, new Date(T0 + 60 * DAY))).items).toEqual([]);
    expect(await job(T0 + 60 * DAY)).toEqual({ autoClosed: 0, autoCloseLost: 0 });
    expect(await detail('acme', c.id)).toMatchObject({ status: 'in_progress' });
  });

  it('a customer confirming at the same time wins or loses cleanly: the job’s conditional write is a no-op, one closure', async () => {
    const c = await resolvedIncident(ana, 'acme', T0 + 70 * DAY);
    const due = T0 + 73 * DAY + MIN;
    clock = due;
    // The customer confirms between the job's read and its write (deterministic interleaving).
    const repo = incidentsRepository(table);
    let confirmed = 0;
    const racing = {
      ...repo,
      getIncident: async (t: string, id: string) => {
        const read = await repo.getIncident(t, id);
        const r = await call(incidents, { method: 'POST', path: `/incidents/${id}/confirm-resolution`, caller: ana, body: { note: 'Confirmado' } });
        if (r.statusCode === 200) confirmed++;
        return read;
      },
    };
    expect(await runAsFunction('sla-watch', () => autoCloseIncident(racing, 'acme', c.id, new Date(due)))).toBe('lost');
    expect(confirmed).toBe(1);
    const d = await detail('acme', c.id);
    expect(d.status).toBe('closed');
    expect(d.history.filter((h) => h.changes.some((x) => x.to === 'closed'))).toHaveLength(1);
    expect(d.history.at(-1)).toMatchObject({ by: 'ana@acme.example', reason: 'Confirmado' });
    expect((await auditOf('acme', c.id)).map((e) => e.action)).not.toContain('incident.auto_close');
    // The job then finds nothing due (the confirmation deleted the entry).
    expect(await job(due + MIN)).toEqual({ autoClosed: 0, autoCloseLost: 0 });
  });
});

describe('incidents resolved before automatic closure existed (npm run platform:upgrade-data)', () => {
  it('upgradeAutoClose dates them from their resolution with their tenant’s N (once), and the job then closes them', async () => {
    const c = await resolvedIncident(carol, 'initech', T0 + 100 * DAY);
    // As an earlier version stored it: resolved, no autoCloseAt, no closure entry.
    await table.doc.send('UpdateItem', { TableName: TABLE, Key: keys.incident('initech', c.id), UpdateExpression: 'REMOVE autoCloseAt' });
    await table.doc.send('DeleteItem', { TableName: TABLE, Key: keys.autoCloseEntry('initech', c.id) });
    expect(await job(T0 + 120 * DAY)).toEqual({ autoClosed: 0, autoCloseLost: 0 });
    expect(await upgradeAutoClose(table)).toBe(1);
    expect(await upgradeAutoClose(table)).toBe(0);
    // initech sets no autoCloseDays: the default 7 days after its resolution.
    expect((await detail('initech', c.id)).autoCloseAt).toBe(new Date(T0 + 107 * DAY).toISOString());
    expect(await job(T0 + 120 * DAY)).toEqual({ autoClosed: 1, autoCloseLost: 0 });
    expect(await detail('initech', c.id)).toMatchObject({ status: 'closed' });
  });
});
