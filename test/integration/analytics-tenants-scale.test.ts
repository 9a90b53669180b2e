/**
 * Admin analytics at 1,000 tenants (issue 28 point 5): `GET /analytics` pages the registry and reads each
 * page's tenants together (one Query of each one's day items, a BatchGetItem of their heartbeat histograms,
 * one SOC-queue Query, one below-SLA Query each), so every page costs at most `ANALYTICS_PAGE_REQUESTS` (10)
 * DynamoDB requests and ≤ 50 RCU however
 * many tenants there are — before, one request was 2 + 3 × tenants (2,213 at 1,000 tenants, past the
 * function's timeout). Over the real engine behind the DynamoDB rules proxy with the IAM check: every request
 * of the reports handler is counted (`captureCapacity`), every tenant appears exactly once across the pages,
 * and the CSV export (every tenant, the pages read on the server) has totals equal to the sum of the
 * per-tenant figures of the JSON pages and to what was written.
 *
 * Data: the 1,000 small tenants of the bench's point (`tenantsPointItems`: registry item, built stats, one open
 * incident each), plus, written through the aggregates' own write actions (`aggregateWrites`), each
 * incident's day and hour counters and one monitored device-day of yesterday at 90–99 % availability.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Analytics, type Incident } from '../../lambdas/contract/schemas.js';
import { aggregateWrites, incidentChange } from '../../lambdas/data/aggregates.js';
import { mapLimit } from '../../lambdas/data/table/dynamo-util.js';
import { IncidentEntity, recordOf } from '../../lambdas/data/entities.js';
import { ANALYTICS_PAGE_REQUESTS, analyticsPageSize } from '../../lambdas/data/reports.js';
import { availabilityDay } from '../../lambdas/domain/aggregates.js';
import { addDays } from '../../lambdas/domain/devices.js';
import type { ApiHandler } from '../../lambdas/http/api.js';
import { batchWriteAll } from '../../scripts/bench/scale-data.js';
import { pointTenantId, tenantsPointItems } from '../../scripts/bench/scale-tenants.js';
import { captureCapacity, type CapturedRequest } from '../support/capacity-capture.js';
import { bodyOf, type CallerSpec } from '../support/events.js';
import { call, startInProcessApi, type InProcessApi } from '../support/in-process-api.js';

const TABLE = 'vigia-analytics-tenants';
const TENANTS = 1000;
const soc: CallerSpec = { sub: 'sub-soc', groups: ['admin'] };
const NOW = new Date(Math.floor(Date.now() / 60_000) * 60_000);
const YESTERDAY = addDays(NOW.toISOString().slice(0, 10), -1);
/** Tenant `i`'s device-day of yesterday: 90 + i mod 10 %. */
const availablePct = (i: number) => 90 + (i % 10);

let api: InProcessApi;
let reports: ApiHandler;
const captured: CapturedRequest[] = [];
const incidents: Incident[] = [];

beforeAll(async () => {
  api = await startInProcessApi({ table: TABLE });
  const table = api.data.table;
  const items = [...tenantsPointItems(TENANTS, NOW)];
  await batchWriteAll(table, items, 8);
  for (const item of items) if (item.entity === IncidentEntity.name) incidents.push(recordOf(IncidentEntity, item));
  // What the incident writes and the heartbeats would have added to the aggregates, by the same write actions.
  const updates = [
    ...incidents.flatMap((i) => aggregateWrites(table, i.tenantId, incidentChange(null, i))),
    ...Array.from({ length: TENANTS }, (_, n) =>
      aggregateWrites(table, pointTenantId(n), { days: { [YESTERDAY]: availabilityDay({ availablePct: availablePct(n), monitoredSeconds: 86_400 }) } }),
    ).flat(),
  ];
  await mapLimit(updates, 16, async (a) => {
    if (!('Update' in a) || !a.Update) throw new Error('an aggregate write is an Update');
    await table.doc.send('UpdateItem', a.Update);
  });
  expect(incidents).toHaveLength(TENANTS);
  captureCapacity(table, captured);
  reports = api.handler('reports', { now: () => NOW });
}, 300_000);

afterAll(async () => {
  await api?.stop();
});

describe('GET /analytics at 1,000 tenants', () => {
  it(`pages through every tenant in ≤ ${ANALYTICS_PAGE_REQUESTS} DynamoDB requests a page; the CSV totals are the sum of the per-tenant figures`, async () => {
    const rows: Analytics['tenants'] = [];
    const requestsPerPage: number[] = [];
    const rcuPerPage: number[] = [];
    let cursor: string | null = null;
    let first: Analytics | undefined;
    do {
      captured.length = 0;
      const r = await call(reports, { method: 'GET', path: '/analytics', caller: soc, query: { ...(cursor ? { cursor } : {}) } });
      expect(r.statusCode, r.body).toBe(200);
      const page = Analytics.parse(bodyOf(r));
      first ??= page;
      requestsPerPage.push(captured.length);
      rcuPerPage.push(captured.reduce((a, c) => a + c.rcu, 0));
      rows.push(...page.tenants);
      cursor = page.nextCursor;
      expect(requestsPerPage.length).toBeLessThanOrEqual(TENANTS);
    } while (cursor);
    expect(Math.max(...requestsPerPage)).toBeLessThanOrEqual(ANALYTICS_PAGE_REQUESTS);
    // ≤ 50 RCU a page (docs/benchmarks.md `scale.tenants-views`): the day items are one Query per tenant,
    // charged by the bytes returned — a BatchGetItem of every (tenant, day) key cost 85.5 RCU on the first
    // page, 0.5 RCU per key asked whether the day has an item or not.
    expect(Math.max(...rcuPerPage)).toBeLessThanOrEqual(50);
    // Complete: every tenant once, in id order; 3 tenants a page whatever the period.
    expect(analyticsPageSize()).toBe(3);
    expect(first!.tenants).toHaveLength(3);
    expect(rows.map((t) => t.tenantId)).toEqual(Array.from({ length: TENANTS }, (_, n) => pointTenantId(n)));
    // Across 334 pages the JSON has no totals (they would need every tenant): the CSV export has them.
    expect(first!.totals).toBeNull();
    // Correct: each tenant's own figures are what was written for it.
    rows.forEach((t, n) => {
      expect(t.incidents.total).toBe(1);
      expect(t.incidents.bySeverity[incidents[n]!.severity]).toBe(1);
      expect(t.availability.fleetPct).toBe(availablePct(n));
    });
    const sum = (f: (t: Analytics['tenants'][number]) => number) => rows.reduce((a, t) => a + f(t), 0);

    captured.length = 0;
    const csv = await call(reports, { method: 'GET', path: '/analytics', caller: soc, query: { format: 'csv' } });
    expect(csv.statusCode).toBe(200);
    const lines = csv.body.split('\r\n');
    const total = (section: string, key: string) => {
      // The totals' rows come first, before the first tenant's `report,tenant,…` row.
      const end = lines.findIndex((l) => l.startsWith('report,tenant,'));
      const line = lines.slice(0, end).find((l) => l.startsWith(`${section},${key},`));
      return Number(line?.split(',')[2]);
    };
    expect(lines.filter((l) => l.startsWith('report,tenant,'))).toHaveLength(TENANTS);
    expect(total('incidents', 'total')).toBe(sum((t) => t.incidents.total));
    expect(total('incidents', 'total')).toBe(TENANTS);
    for (const s of ['critical', 'high', 'medium', 'low'] as const) {
      expect(total('incidents_by_severity', s)).toBe(sum((t) => t.incidents.bySeverity[s]));
      expect(total('incidents_by_severity', s)).toBe(TENANTS / 4);
    }
    expect(total('incidents_by_status', 'new')).toBe(sum((t) => t.incidents.byStatus.new));
    expect(total('sla', 'open_breached')).toBe(sum((t) => t.sla.openBreached));
    expect(total('sla', 'open_breached')).toBe(incidents.filter((i) => i.slaDueAt < NOW.toISOString()).length);
    // Every device-day monitored the whole day: the fleet figure is the mean of the tenants' (94.5 %).
    expect(total('availability', 'fleet_pct')).toBe(Math.round((sum((t) => t.availability.fleetPct ?? 0) / TENANTS) * 100) / 100);
    // The export reads the same pages on the server, so it grows with the tenants (a bounded loop).
    expect(captured.length).toBeGreaterThan(TENANTS / 5);
  }, 300_000);

  it('a page of `limit` tenants continues where the cursor points; a bad cursor is 400', async () => {
    const one = Analytics.parse(bodyOf(await call(reports, { method: 'GET', path: '/analytics', caller: soc, query: { limit: '2' } })));
    expect(one.tenants.map((t) => t.tenantId)).toEqual([pointTenantId(0), pointTenantId(1)]);
    const two = Analytics.parse(bodyOf(await call(reports, { method: 'GET', path: '/analytics', caller: soc, query: { limit: '2', cursor: one.nextCursor! } })));
    expect(two.tenants.map((t) => t.tenantId)).toEqual([pointTenantId(2), pointTenantId(3)]);
    // A year: the same 3 tenants a page (one Query of each one's days, whatever the period's length).
    captured.length = 0;
    const year = await call(reports, { method: 'GET', path: '/analytics', caller: soc, query: { from: new Date(NOW.getTime() - 365 * 86_400_000).toISOString(), to: NOW.toISOString() } });
    expect(Analytics.parse(bodyOf(year)).tenants).toHaveLength(3);
    expect(captured.length).toBeLessThanOrEqual(ANALYTICS_PAGE_REQUESTS);
    expect(captured.reduce((a, c) => a + c.rcu, 0)).toBeLessThanOrEqual(50);
    const bad = await call(reports, { method: 'GET', path: '/analytics', caller: soc, query: { cursor: 'not-a-cursor' } });
    expect(bad.statusCode).toBe(400);
  }, 120_000);
});
