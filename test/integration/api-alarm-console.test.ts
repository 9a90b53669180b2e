/**
 * The staff alarm console (issue 31 point 4; docs/api.md#alarm-console, docs/data-model.md#alarm-console) over the
 * REAL devices handler on dynoxide behind the rules proxy, every response checked against the OpenAPI document and
 * every AWS call against the function's IAM role:
 *  - staff only: a customer gets 403 FORBIDDEN, staff without TOTP 403 MFA_REQUIRED;
 *  - device alarms AND Office 365 alerts of every tenant, newest raised first; O365 `investigating` is
 *    `acknowledged`, `resolved` is `cleared` on the console's scale;
 *  - every filter combination (tenant, severity, state, kind, and together) is ONE Query of one index partition,
 *    no FilterExpression, and answers exactly the matching rows; the cursor pages without gaps and is bound
 *    to its filters;
 *  - staff acknowledge a device alarm of any tenant through the existing route with `?tenant=` (audited); the
 *    console row changes in the same transaction, and so do a clear, an alert update and a device rename;
 *  - `upgradeAlarmConsole` writes the entries of alarms stored before the console, once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startInProcessApi, type InProcessApi } from '../support/in-process-api.js';
import { bodyOf, type CallerSpec } from '../support/events.js';
import { captureCapacity, type CapturedRequest } from '../support/capacity-capture.js';
import type { ApiHandler } from '../../lambdas/http/api.js';
import type { AlarmConsoleItem, AuditEntry, DeviceAlarm, Office365Alarm, Page, Severity } from '../../lambdas/contract/schemas.js';
import { createDocumentClient, type TableRef } from '../../lambdas/data/table/client.js';
import { listAlarmConsole } from '../../lambdas/data/alarm-console.js';
import { AlarmEntity, itemOf } from '../../lambdas/data/entities.js';
import { upgradeAlarmConsole } from '../../lambdas/data/migrations.js';

const TABLE = 'vigia-alarmconsole-main';
const TENANTS = ['acme', 'initech', 'globex'] as const;
const alice: CallerSpec = { sub: 'sub-alice', email: 'alice@acme.example', groups: ['acme'] };
const soc: CallerSpec = { sub: 'sub-soc', email: 'soc@vigia.example', groups: ['admin'] };
const socNoTotp: CallerSpec = { ...soc, mfa: false };
const NOW = Date.parse('2026-11-20T10:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const SEVERITIES: Severity[] = ['critical', 'high', 'medium', 'low'];

let api: InProcessApi;
let devices: ApiHandler;
let table: TableRef;
const ops: CapturedRequest[] = [];
/** What the console must hold, as written: kind, tenant, id, severity, console state, raisedAt. */
const expected: { kind: 'device' | 'office365'; tenantId: string; id: string; severity: Severity; state: string; raisedAt: string }[] = [];

const consolePage = async (query: Record<string, string>, caller: CallerSpec = soc) => call(devices, { method: 'GET', path: '/soc/alarms', caller, query });
const page = async (query: Record<string, string> = {}) => {
  const r = await consolePage({ limit: '100', ...query });
  expect(r.statusCode, r.body).toBe(200);
  return bodyOf<Page<AlarmConsoleItem>>(r);
};
const rowKey = (r: { kind: string; tenantId: string; id: string }) => `${r.kind}/${r.tenantId}/${r.id}`;

beforeAll(async () => {
  api = await startInProcessApi({ table: TABLE });
  devices = api.handler('devices', { now: () => new Date(NOW) });
  let n = 0;
  for (const t of TENANTS) {
    await api.data.putTenant({ id: t, name: t.toUpperCase() });
    await api.data.putDevice({ tenantId: t, id: `fw-${t}`, name: `Cortafuegos ${t}`, type: 'firewall', site: 'Madrid', ipAddress: '10.0.0.1', vendor: 'Fortinet', model: 'FG-60F' });
    // 4 device alarms a tenant (one per severity), the third of each acknowledged, the fourth cleared.
    for (let k = 0; k < 4; k++) {
      n++;
      const state = k === 2 ? 'acknowledged' : k === 3 ? 'cleared' : 'active';
      const a: DeviceAlarm = {
        id: `al-${k}`, tenantId: t, deviceId: `fw-${t}`, title: `Alarma ${k} de ${t}`, severity: SEVERITIES[k]!, state, raisedAt: iso(NOW - n * 60_000),
        acknowledgedAt: state === 'acknowledged' ? iso(NOW - 1000) : null, acknowledgedBy: state === 'acknowledged' ? 'ana@example.com' : null, clearedAt: state === 'cleared' ? iso(NOW - 1000) : null,
      };
      await api.data.putAlarm(a);
      expected.push({ kind: 'device', tenantId: t, id: a.id, severity: a.severity, state: state === 'active' ? 'open' : state, raisedAt: a.raisedAt });
    }
    // 3 Office 365 alerts a tenant: active, investigating, resolved.
    for (const [k, status] of (['active', 'investigating', 'resolved'] as const).entries()) {
      n++;
      const o: Office365Alarm = { id: `o365-${t}-${k}`, tenantId: t, title: `Alerta ${k} de ${t}`, severity: SEVERITIES[(k + 1) % 4]!, category: 'exchange', status, affectedUser: `ana@${t}.example`, detectedAt: iso(NOW - n * 60_000), updatedAt: iso(NOW - n * 60_000) };
      await api.data.upsertO365Alarm(o);
      expected.push({ kind: 'office365', tenantId: t, id: o.id, severity: o.severity, state: { active: 'open', investigating: 'acknowledged', resolved: 'cleared' }[status], raisedAt: o.detectedAt });
    }
  }
  table = { doc: createDocumentClient(api.documentClientOptions()), tableName: TABLE };
  captureCapacity(table, ops);
}, 120_000);
afterAll(async () => {
  table?.doc.destroy();
  await api?.stop();
});

describe('GET /soc/alarms (staff alarm console)', () => {
  it('is for staff only: a customer gets 403 FORBIDDEN, staff without TOTP 403 MFA_REQUIRED', async () => {
    const customer = await consolePage({}, alice);
    expect(customer.statusCode).toBe(403);
    expect(bodyOf(customer)).toMatchObject({ code: 'FORBIDDEN' });
    const noTotp = await consolePage({}, socNoTotp);
    expect(noTotp.statusCode).toBe(403);
    expect(bodyOf(noTotp)).toMatchObject({ code: 'MFA_REQUIRED' });
  });

  it('lists the device alarms and Office 365 alerts of every tenant, newest raised first, with the states mapped', async () => {
    const p = await page();
    expect(p.nextCursor).toBeNull();
    const want = [...expected].sort((a, b) => b.raisedAt.localeCompare(a.raisedAt));
    expect(p.items.map(rowKey)).toEqual(want.map(rowKey));
    expect(p.items.map((r) => r.state)).toEqual(want.map((w) => w.state));
    const alert = p.items.find((r) => r.id === 'o365-initech-1')!;
    expect(alert).toMatchObject({ kind: 'office365', state: 'acknowledged', sourceState: 'investigating', affectedUser: 'ana@initech.example', deviceId: null });
    const alarm = p.items.find((r) => r.kind === 'device' && r.tenantId === 'globex' && r.id === 'al-0')!;
    expect(alarm).toMatchObject({ state: 'open', sourceState: 'active', deviceId: 'fw-globex', deviceName: 'Cortafuegos globex', affectedUser: null });
  });

  it('answers every filter combination with exactly its rows from ONE Query of one partition', async () => {
    const combos: Record<string, string>[] = [
      { tenant: 'initech' },
      { severity: 'high' },
      { state: 'open' },
      { kind: 'office365' },
      { tenant: 'globex', state: 'acknowledged' },
      { severity: 'medium', kind: 'device' },
      { tenant: 'acme', severity: 'critical', state: 'open', kind: 'device' },
      { state: 'cleared', kind: 'office365' },
    ];
    for (const q of combos) {
      ops.length = 0;
      const got = await listAlarmConsole({ tenantId: q.tenant, severity: q.severity, state: q.state, kind: q.kind, limit: 100 }, table);
      const want = expected
        .filter((e) => (!q.tenant || e.tenantId === q.tenant) && (!q.severity || e.severity === q.severity) && (!q.state || e.state === q.state) && (!q.kind || e.kind === q.kind))
        .sort((a, b) => b.raisedAt.localeCompare(a.raisedAt));
      expect(want.length, JSON.stringify(q)).toBeGreaterThan(0);
      expect(got.items.map(rowKey), JSON.stringify(q)).toEqual(want.map(rowKey));
      expect(ops.map((o) => o.op), JSON.stringify(q)).toEqual(['Query']);
      // The API answers the same rows.
      expect((await page(q)).items.map(rowKey)).toEqual(want.map(rowKey));
    }
  });

  it('pages with a cursor (no gap, no repeat) bound to its filters', async () => {
    const rows: AlarmConsoleItem[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const p: Page<AlarmConsoleItem> = await page({ state: 'open', limit: '2', ...(cursor ? { cursor } : {}) });
      expect(p.items.length).toBeLessThanOrEqual(2);
      rows.push(...p.items);
      cursor = p.nextCursor;
      pages++;
    } while (cursor && pages < 20);
    const want = expected.filter((e) => e.state === 'open').sort((a, b) => b.raisedAt.localeCompare(a.raisedAt));
    expect(rows.map(rowKey)).toEqual(want.map(rowKey));
    const first = await page({ state: 'open', limit: '2' });
    const other = await consolePage({ state: 'cleared', limit: '2', cursor: first.nextCursor! });
    expect(other.statusCode).toBe(400);
    expect(bodyOf(other)).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('staff acknowledge a device alarm of any tenant from the console (audited); the row changes with it', async () => {
    const before = (await page({ tenant: 'initech', state: 'open', kind: 'device' })).items;
    const target = before.find((r) => r.id === 'al-1')!;
    expect(target).toBeDefined();
    const ack = await call(devices, { method: 'POST', path: `/devices/${target.deviceId}/alarms/${target.id}/acknowledge`, caller: soc, query: { tenant: target.tenantId } });
    expect(ack.statusCode, ack.body).toBe(200);
    const after = (await page({ tenant: 'initech' })).items.find((r) => r.kind === 'device' && r.id === 'al-1')!;
    expect(after).toMatchObject({ state: 'acknowledged', acknowledgedBy: 'soc@vigia.example' });
    expect((await page({ tenant: 'initech', state: 'open', kind: 'device' })).items.map((r) => r.id)).not.toContain('al-1');
    expect((await page({ state: 'acknowledged', severity: 'high' })).items.map(rowKey)).toContain('device/initech/al-1');
    const log = bodyOf<{ items: AuditEntry[] }>(await call(api.handler('admin'), { method: 'GET', path: '/audit', caller: soc, query: { tenant: 'initech' } })).items;
    expect(log.find((e) => e.action === 'alarm.acknowledge')).toMatchObject({ target: { type: 'alarm', id: 'fw-initech/al-1' }, actor: { sub: 'sub-soc' } });
    const again = await call(devices, { method: 'POST', path: `/devices/fw-initech/alarms/al-1/acknowledge`, caller: soc, query: { tenant: 'initech' } });
    expect(again.statusCode).toBe(409);
  });

  it('follows a clear, an Office 365 update and a device rename in the same transactions', async () => {
    await api.repository.devices.transitionAlarm('acme', 'fw-acme', 'al-0', ['active', 'acknowledged'], 'cleared', { clearedAt: iso(NOW) });
    expect((await page({ tenant: 'acme', state: 'cleared', kind: 'device' })).items.map((r) => r.id)).toContain('al-0');
    expect((await page({ tenant: 'acme', state: 'open' })).items.map((r) => r.id)).not.toContain('al-0');

    await api.data.upsertO365Alarm({ id: 'o365-globex-0', tenantId: 'globex', title: 'Alerta 0 de globex', severity: 'high', category: 'exchange', status: 'resolved', affectedUser: 'ana@globex.example', detectedAt: expected.find((e) => e.id === 'o365-globex-0')!.raisedAt, updatedAt: iso(NOW) });
    expect((await page({ kind: 'office365', state: 'cleared' })).items.map((r) => r.id)).toContain('o365-globex-0');
    expect((await page({ kind: 'office365', state: 'open' })).items.map((r) => r.id)).not.toContain('o365-globex-0');

    await api.data.putDevice({ tenantId: 'globex', id: 'fw-globex', name: 'Perímetro Globex', type: 'firewall', site: 'Madrid', ipAddress: '10.0.0.1', vendor: 'Fortinet', model: 'FG-60F' });
    const rows = (await page({ tenant: 'globex', kind: 'device' })).items;
    expect(rows).toHaveLength(4);
    for (const r of rows) expect(r.deviceName).toBe('Perímetro Globex');
    expect((await page({ severity: 'low', state: 'cleared', kind: 'device' })).items.find((r) => r.tenantId === 'globex')?.deviceName).toBe('Perímetro Globex');
  });

  it('upgradeAlarmConsole writes the entries of alarms and alerts stored before the console, once', async () => {
    const old: DeviceAlarm = { id: 'al-old', tenantId: 'acme', deviceId: 'fw-acme', deviceName: 'Cortafuegos acme', title: 'Anterior a la consola', severity: 'critical', state: 'active', raisedAt: iso(NOW - 86_400_000), acknowledgedAt: null, acknowledgedBy: null, clearedAt: null };
    await table.doc.send('PutItem', { TableName: TABLE, Item: itemOf(AlarmEntity, old) });
    expect((await page({ tenant: 'acme' })).items.map((r) => r.id)).not.toContain('al-old');
    expect(await upgradeAlarmConsole(table)).toBe(1);
    expect(await upgradeAlarmConsole(table)).toBe(0);
    expect((await page({ tenant: 'acme', severity: 'critical', state: 'open' })).items.map((r) => r.id)).toContain('al-old');
    expect((await page({ state: 'open', kind: 'device' })).items.map(rowKey)).toContain('device/acme/al-old');
  });
});
