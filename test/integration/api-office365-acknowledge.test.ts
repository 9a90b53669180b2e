/**
 * Acknowledging an Office 365 alert (issue 31 point 4; docs/api.md#acknowledging-office-365-alerts) over the REAL
 * office365 handler on dynoxide behind the rules proxy, every response checked against the OpenAPI document and
 * every AWS call against the function's IAM role:
 *  - the customer (and staff with TOTP, `?tenant=`) acknowledges an ACTIVE alert: Vigía stores who and when beside
 *    Microsoft's `status`, which stays `active`; the alarm console shows it `acknowledged`; audited;
 *  - ONE TransactWriteItems carries the alert, its four console entries and the audit entry;
 *  - refusals write nothing: again → 409 INVALID_TRANSITION, an `investigating`/`resolved` alert → 409, an unknown or
 *    another tenant's alert → 404, staff without TOTP → 403 MFA_REQUIRED;
 *  - the collectors keep the acknowledgement: a newer update (new title, then `resolved`) does not erase it, also
 *    when it races the acknowledgement.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startInProcessApi, type InProcessApi } from '../support/in-process-api.js';
import { bodyOf, type CallerSpec } from '../support/events.js';
import { captureCapacity, type CapturedRequest } from '../support/capacity-capture.js';
import type { ApiHandler } from '../../lambdas/http/api.js';
import type { AlarmConsoleItem, AuditEntry, Office365Alarm, Page } from '../../lambdas/contract/schemas.js';
import { createDocumentClient, type TableRef } from '../../lambdas/data/table/client.js';
import { acknowledgeO365Alarm } from '../../lambdas/data/office365.js';

const TABLE = 'vigia-o365ack-main';
const ana: CallerSpec = { sub: 'sub-ana', email: 'ana@acme.example', groups: ['acme'] };
const bruno: CallerSpec = { sub: 'sub-bruno', email: 'bruno@globex.example', groups: ['globex'] };
const soc: CallerSpec = { sub: 'sub-soc', email: 'soc@vigia.example', groups: ['admin'] };
const socNoTotp: CallerSpec = { ...soc, mfa: false };
const NOW = Date.parse('2026-11-20T10:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

let api: InProcessApi;
let o365: ApiHandler;
let table: TableRef;

const alert = (id: string, over: Partial<Office365Alarm> = {}): Office365Alarm => ({
  id, tenantId: 'acme', title: `Alerta ${id}`, severity: 'high', category: 'exchange', status: 'active', affectedUser: 'ana@acme.example',
  detectedAt: iso(NOW - 3_600_000), updatedAt: iso(NOW - 3_600_000), ...over,
});
const ack = (id: string, caller: CallerSpec = ana, query: Record<string, string> = {}) =>
  call(o365, { method: 'POST', path: `/office365/alarms/${id}/acknowledge`, caller, query });
const stored = async (id: string, tenant = 'acme'): Promise<Office365Alarm | undefined> =>
  bodyOf<Page<Office365Alarm>>(await call(o365, { method: 'GET', path: '/office365/alarms', caller: soc, query: { tenant, limit: '100' } })).items.find((a) => a.id === id);
const consoleRow = async (id: string): Promise<AlarmConsoleItem | undefined> =>
  bodyOf<Page<AlarmConsoleItem>>(await call(api.handler('devices', { now: () => new Date(NOW) }), { method: 'GET', path: '/soc/alarms', caller: soc, query: { kind: 'office365', limit: '100' } })).items.find((r) => r.id === id);
const auditOf = async (id: string): Promise<AuditEntry[]> =>
  bodyOf<{ items: AuditEntry[] }>(await call(api.handler('admin'), { method: 'GET', path: '/audit', caller: soc, query: { tenant: 'acme' } })).items.filter((e) => e.target.id === id);

beforeAll(async () => {
  api = await startInProcessApi({ table: TABLE });
  o365 = api.handler('office365', { now: () => new Date(NOW) });
  for (const t of ['acme', 'globex']) await api.data.putTenant({ id: t, name: t.toUpperCase() });
  for (const a of [alert('o-1'), alert('o-2'), alert('o-3'), alert('o-race'), alert('o-inv', { status: 'investigating' }), alert('o-res', { status: 'resolved' }), alert('o-glx', { tenantId: 'globex' })]) {
    await api.data.upsertO365Alarm(a);
  }
  table = { doc: createDocumentClient(api.documentClientOptions()), tableName: TABLE };
}, 120_000);
afterAll(async () => {
  table?.doc.destroy();
  await api?.stop();
});

describe('POST /office365/alarms/{alarmId}/acknowledge', () => {
  it("the customer acknowledges an active alert: who and when beside Microsoft's status, the console row acknowledged, audited", async () => {
    expect((await consoleRow('o-1'))?.state).toBe('open');
    const r = await ack('o-1');
    expect(r.statusCode, r.body).toBe(200);
    const body = bodyOf<Office365Alarm>(r);
    expect(body).toMatchObject({ id: 'o-1', status: 'active', acknowledgedAt: iso(NOW), acknowledgedBy: 'ana@acme.example', acknowledgedBySub: 'sub-ana' });
    expect(await stored('o-1')).toMatchObject({ status: 'active', acknowledgedAt: iso(NOW), acknowledgedBy: 'ana@acme.example' });
    expect(await consoleRow('o-1')).toMatchObject({ state: 'acknowledged', sourceState: 'active', acknowledgedAt: iso(NOW), acknowledgedBy: 'ana@acme.example' });
    const log = await auditOf('o-1');
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ action: 'alarm.acknowledge', tenantId: 'acme', target: { type: 'office365Alarm', id: 'o-1' }, actor: { sub: 'sub-ana' } });
  });

  it('refuses what cannot be acknowledged with a stable code, and writes nothing', async () => {
    const again = await ack('o-1');
    expect(again.statusCode).toBe(409);
    expect(bodyOf<{ code: string }>(again).code).toBe('INVALID_TRANSITION');
    for (const id of ['o-inv', 'o-res']) {
      const r = await ack(id);
      expect(r.statusCode, id).toBe(409);
      expect(bodyOf<{ code: string; details: { status: string } }>(r)).toMatchObject({ code: 'INVALID_TRANSITION', details: { status: id === 'o-inv' ? 'investigating' : 'resolved' } });
      expect((await stored(id))?.acknowledgedAt).toBeUndefined();
    }
    // Another tenant's alert is not found (no existence leak), and stays untouched.
    const foreign = await ack('o-glx');
    expect(foreign.statusCode).toBe(404);
    expect((await stored('o-glx', 'globex'))?.acknowledgedAt).toBeUndefined();
    expect((await ack('o-2', bruno)).statusCode).toBe(404);
    expect((await ack('no-such-alert')).statusCode).toBe(404);
    // Staff need TOTP to act on a customer's data.
    const noTotp = await ack('o-2', socNoTotp, { tenant: 'acme' });
    expect(noTotp.statusCode).toBe(403);
    expect(bodyOf<{ code: string }>(noTotp).code).toBe('MFA_REQUIRED');
    expect((await stored('o-2'))?.acknowledgedAt).toBeUndefined();
    expect(await auditOf('o-2')).toHaveLength(0);
    expect(await auditOf('o-1')).toHaveLength(1);
  });

  it('staff with TOTP acknowledge any tenant\'s alert from the console with ?tenant= — one transaction of alert, console entries and audit', async () => {
    const ops: CapturedRequest[] = [];
    captureCapacity(table, ops);
    // The data function on a captured client: the requests one acknowledgement makes.
    const done = await acknowledgeO365Alarm(table, 'acme', 'o-3', { acknowledgedAt: iso(NOW), acknowledgedBy: 'soc@vigia.example', acknowledgedBySub: 'sub-soc' }, undefined);
    expect(done?.changed).toBe(true);
    expect(ops.map((o) => o.op)).toEqual(['GetItem', 'TransactWriteItems']);
    // Bounded: the alert (base + GSI1) and 4 console entries (base + at most 4 index entries each), each WCU
    // doubled in a transaction: (2 + 4 × 5) × 2 = 44 at most (measured 35; docs/data-model.md#alarm-console).
    expect(ops[1]!.wcu).toBeGreaterThan(0);
    expect(ops[1]!.wcu).toBeLessThanOrEqual(44);
    const r = await ack('o-2', soc, { tenant: 'acme' });
    expect(r.statusCode, r.body).toBe(200);
    expect(bodyOf<Office365Alarm>(r)).toMatchObject({ acknowledgedBy: 'soc@vigia.example', status: 'active' });
    expect(await consoleRow('o-2')).toMatchObject({ state: 'acknowledged', acknowledgedBy: 'soc@vigia.example' });
    expect(await auditOf('o-2')).toEqual([expect.objectContaining({ action: 'alarm.acknowledge', actor: expect.objectContaining({ sub: 'sub-soc' }) })]);
  });

  it("the collectors' later updates keep Vigía's acknowledgement (also when they race it)", async () => {
    await api.data.upsertO365Alarm(alert('o-1', { title: 'Alerta o-1 (actualizada)', updatedAt: iso(NOW + 60_000) }));
    expect(await stored('o-1')).toMatchObject({ title: 'Alerta o-1 (actualizada)', status: 'active', acknowledgedAt: iso(NOW), acknowledgedBy: 'ana@acme.example' });
    expect((await consoleRow('o-1'))?.state).toBe('acknowledged');
    await api.data.upsertO365Alarm(alert('o-1', { status: 'resolved', updatedAt: iso(NOW + 120_000) }));
    expect(await stored('o-1')).toMatchObject({ status: 'resolved', acknowledgedAt: iso(NOW) });
    expect(await consoleRow('o-1')).toMatchObject({ state: 'cleared', sourceState: 'resolved', acknowledgedAt: iso(NOW) });

    // An acknowledgement and a collector update at the same moment: both land, neither erases the other.
    const [acked] = await Promise.all([ack('o-race'), api.data.upsertO365Alarm(alert('o-race', { title: 'Carrera', updatedAt: iso(NOW + 1000) }))]);
    expect(acked.statusCode, acked.body).toBe(200);
    expect(await stored('o-race')).toMatchObject({ title: 'Carrera', acknowledgedAt: iso(NOW), acknowledgedBy: 'ana@acme.example' });
    expect(await consoleRow('o-race')).toMatchObject({ title: 'Carrera', state: 'acknowledged' });
  });
});
