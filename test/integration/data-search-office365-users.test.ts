/**
 * Office 365 user search (`GET /search/office365-users`, docs/api.md#office-365-user-search, docs/data-model.md#search;
 * issue 32 point 8): a tenant whose alerts named 2,000 users and another tenant whose alerts named users with the
 * same UPN parts, on the in-process API (dynoxide behind the rules proxy, IAM evaluated on every call).
 *  - a user an alert names is found by a prefix of the UPN or of a word of its local part (case and accents
 *    ignored), by a viewer and by staff with ?tenant=, never by another tenant; the entries are written in the
 *    alert's own transaction, and a status update writes none;
 *  - a common prefix pages in UPN order with a cursor, no user twice, each page ≤ 4 requests and ≤ 20 RCU;
 *  - empty `q` and one letter → 400 VALIDATION_FAILED; a foreign cursor → 400;
 *  - `upgradeO365UserSearch` (`platform:upgrade-data`) adds the users of alerts stored before the index, once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type InProcessApi } from '../support/in-process-api.js';
import { startTwoTenantApi, stopTwoTenantApi } from '../support/seeded-api.js';
import type { ApiHandler } from '../../lambdas/http/api.js';
import type { Office365Alarm, Page } from '../../lambdas/contract/schemas.js';
import type { Office365UserHit } from '../../lambdas/contract/search.js';
import { bodyOf, type CallerSpec } from '../support/events.js';
import type { TableRef } from '../../lambdas/data/table/client.js';
import { captureCapacity, type CapturedRequest, measuredOn, putItems } from '../support/capacity-capture.js';
import { O365AlarmEntity, itemOf } from '../../lambdas/data/entities.js';
import { o365UserItems, searchO365Users } from '../../lambdas/data/o365-user-search.js';
import { upgradeO365UserSearch } from '../../lambdas/data/migrations.js';

const TABLE = 'vigia-search-o365-users';
const USERS = 2_000;
const alice: CallerSpec = { sub: 'sub-alice', email: 'alice@acme.example', groups: ['acme'] };
const viewer: CallerSpec = { sub: 'u-viewer', email: 'victor@acme.example', groups: ['acme', 'customer-viewer'] };
const bob: CallerSpec = { sub: 'sub-bob', email: 'bob@globex.example', groups: ['globex'] };
const staff: CallerSpec = { sub: 'sub-soc', email: 'soc@vigia.example', groups: ['admin'] };

let api: InProcessApi;
let office365: ApiHandler;
let table: TableRef;
const ops: CapturedRequest[] = [];

const measured = <T>(fn: () => Promise<T>) => measuredOn(ops, fn);
const search = (caller: CallerSpec, query: Record<string, string>) => call(office365, { method: 'GET', path: '/search/office365-users', caller, query });
const upns = (r: Awaited<ReturnType<typeof search>>) => bodyOf<Page<Office365UserHit>>(r).items.map((u) => u.upn);
const user = (n: number) => `usuario${String(n).padStart(4, '0')}.prueba@acme.example`;
const alert = (tenantId: string, id: string, affectedUser: string | null, over: Partial<Office365Alarm> = {}): Office365Alarm => ({
  id, tenantId, title: 'Inicio de sesión sospechoso', severity: 'high', category: 'identity', status: 'active', affectedUser,
  detectedAt: '2026-05-01T10:00:00.000Z', updatedAt: '2026-05-01T10:00:00.000Z', ...over,
});

beforeAll(async () => {
  ({ api, table } = await startTwoTenantApi(TABLE));
  office365 = api.handler('office365');
  const seeded = (tenantId: string, n: number) => o365UserItems(alert(tenantId, `seed-${n}`, tenantId === 'acme' ? user(n) : `usuario${n}.prueba@globex.example`, { detectedAt: new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString() }));
  await putItems(table, [...Array.from({ length: USERS }, (_, n) => seeded('acme', n)).flat(), ...Array.from({ length: 300 }, (_, n) => seeded('globex', n)).flat()]);
  captureCapacity(table, ops);
}, 300_000);

afterAll(() => stopTwoTenantApi(api, table));

describe('Office 365 user search', () => {
  it('finds the user an alert names by a prefix of the UPN or of a word of it, for a viewer and staff, never for another tenant', async () => {
    const w = await measured(() => api.data.upsertO365Alarm(alert('acme', 'o-1', 'María.López@acme.example')));
    expect(w.out).toBe(true);
    expect(ops.slice(-w.requests).map((o) => o.op)).not.toContain('BatchWriteItem');
    for (const [caller, query] of [[alice, { q: 'maria' }], [viewer, { q: 'LÓPEZ' }], [alice, { q: 'maría.lo' }], [alice, { q: 'lopez maria' }], [staff, { q: 'lope', tenant: 'acme' }]] as const) {
      const s = await search(caller, query);
      expect(s.statusCode, s.body).toBe(200);
      expect(bodyOf<Page<Office365UserHit>>(s)).toEqual({ items: [{ upn: 'María.López@acme.example', lastAlertAt: '2026-05-01T10:00:00.000Z', lastAlertId: 'o-1' }], nextCursor: null });
    }
    // The domain alone is no entry; another tenant's caller sees nothing of it.
    expect(upns(await search(alice, { q: 'acme.example' }))).toEqual([]);
    expect(upns(await search(bob, { q: 'maria' }))).toEqual([]);
    // A status update of the alert writes no entry; a newer alert about the user moves lastAlertAt.
    const upd = await measured(() => api.data.upsertO365Alarm(alert('acme', 'o-1', 'María.López@acme.example', { status: 'resolved', updatedAt: '2026-05-02T10:00:00.000Z' })));
    expect(upd.out).toBe(true);
    await api.data.upsertO365Alarm(alert('acme', 'o-2', 'María.López@acme.example', { detectedAt: '2026-05-03T10:00:00.000Z', updatedAt: '2026-05-03T10:00:00.000Z' }));
    expect(bodyOf<Page<Office365UserHit>>(await search(alice, { q: 'lopez' })).items).toEqual([{ upn: 'María.López@acme.example', lastAlertAt: '2026-05-03T10:00:00.000Z', lastAlertId: 'o-2' }]);
    // An alert about nobody in particular adds nobody.
    expect(await api.data.upsertO365Alarm(alert('acme', 'o-3', null))).toBe(true);
  }, 60_000);

  it('a common prefix pages in UPN order within the budget, no user twice; tenants never mix', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    let max = 0;
    do {
      const m = await measured(() => searchO365Users(table, 'acme', { q: 'usuario', limit: 100, ...(cursor ? { cursor } : {}) }));
      max = Math.max(max, m.requests);
      expect(m.rcu).toBeLessThanOrEqual(20);
      if (pages === 0) console.log(`Office 365 user search 'usuario' at ${USERS} users: ${m.requests} requests, ${m.rcu} RCU a page`);
      seen.push(...m.out.items.map((u) => u.upn));
      cursor = m.out.nextCursor ?? undefined;
      pages++;
    } while (cursor && pages < 5);
    expect(max).toBeLessThanOrEqual(4);
    expect(seen).toEqual(Array.from({ length: 500 }, (_, n) => user(n)));
    // Through the API: `prueba` (the second word of every local part) with `0042`: one user.
    expect(upns(await search(alice, { q: 'prueba usuario0042' }))).toEqual([user(42)]);
    const globex = bodyOf<Page<Office365UserHit>>(await search(bob, { q: 'usuario1', limit: '100' }));
    expect(globex.items.length).toBeGreaterThan(0);
    expect(globex.items.every((u) => u.upn.endsWith('@globex.example'))).toBe(true);
  }, 120_000);

  it('empty or one-letter q, or a foreign cursor → 400 VALIDATION_FAILED', async () => {
    for (const q of ['', ' ', 'm']) {
      const r = await search(alice, { q });
      expect(r.statusCode, r.body).toBe(400);
      expect(r.body).toContain('VALIDATION_FAILED');
    }
    const first = bodyOf<Page<Office365UserHit>>(await search(alice, { q: 'usuario', limit: '5' }));
    // A cursor of another search (its position does not start with this search's word) is refused.
    const r = await search(alice, { q: 'maria', cursor: first.nextCursor! });
    expect(r.statusCode, r.body).toBe(400);
    expect(r.body).toContain('VALIDATION_FAILED');
  }, 30_000);

  it('the upgrade adds the users of alerts stored before the index, once', async () => {
    await table.doc.send('PutItem', { TableName: TABLE, Item: itemOf(O365AlarmEntity, alert('acme', 'old-1', 'jorge_ruiz@acme.example', { detectedAt: '2025-06-01T10:00:00.000Z' })) });
    expect(upns(await search(alice, { q: 'ruiz' }))).toEqual([]);
    expect(await upgradeO365UserSearch(table)).toBe(2); // jorge_ruiz@…, ruiz@…
    expect(await upgradeO365UserSearch(table)).toBe(0);
    expect(bodyOf<Page<Office365UserHit>>(await search(alice, { q: 'ruiz' })).items).toEqual([{ upn: 'jorge_ruiz@acme.example', lastAlertAt: '2025-06-01T10:00:00.000Z', lastAlertId: 'old-1' }]);
  }, 120_000);
});
