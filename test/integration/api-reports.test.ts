/**
 * Reports and analytics over the REAL handlers and dynoxide: incidents opened, acknowledged and resolved
 * through the API produce the expected MTTA/MTTR/SLA figures; CSV download; analytics is admin-only (403
 * for customers, enforced by the server) and sums every tenant.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startInProcessApi, type InProcessApi } from '../support/in-process-api.js';
import type { ApiHandler } from '../../lambdas/http/api.js';
import { Analytics, Report, Summary, type ApiErrorBody, type Incident } from '../../lambdas/contract/schemas.js';
import { bodyOf, headerOf, type CallerSpec } from '../support/events.js';

const TABLE = 'vigia-reports-main';
const alice: CallerSpec = { sub: 'sub-alice', groups: ['acme'] };
const bob: CallerSpec = { sub: 'sub-bob', groups: ['globex'] };
const soc: CallerSpec = { sub: 'sub-soc', groups: ['admin'] };
let api: InProcessApi;
let incidents: ApiHandler;
let reports: ApiHandler;
const T0 = Date.parse('2026-05-04T08:00:00.000Z');
let clock = T0;


beforeAll(async () => {
  api = await startInProcessApi({ table: TABLE });
  const { data } = api;
  // The deployed handlers with a controllable clock.
  incidents = api.handler('incidents', { now: () => new Date(clock) });
  reports = api.handler('reports', { now: () => new Date(clock) });
  await data.putTenant({ id: 'acme', name: 'Acme' });
  await data.putTenant({ id: 'globex', name: 'Globex' });
  await data.putDevice({ tenantId: 'acme', id: 'fw-1', name: 'fw', type: 'firewall', site: 'M', ipAddress: '10.0.0.1', vendor: 'v', model: 'm' });
  await data.putDailyAvailability({ tenantId: 'acme', deviceId: 'fw-1', date: '2026-05-04', availablePct: 99 });
  await data.putAlarm({ tenantId: 'acme', deviceId: 'fw-1', id: 'al-1', title: 'Sin latido', severity: 'critical', state: 'active', raisedAt: new Date(T0 + 60_000).toISOString() });

  const severities = new Map<string, string>();
  const open = async (caller: CallerSpec, severity: string) => {
    const i = bodyOf<Incident>(await call(incidents, { method: 'POST', path: '/incidents', caller, body: { title: 'Incidente de prueba', description: 'd', severity } }));
    severities.set(`${caller.groups[0]}/${i.id}`, severity);
    return i;
  };
  const patch = async (id: string, version: number, status: string) => {
    // Provider statuses are staff's (docs/api.md#incident-roles).
    // Triage first (docs/sla.md#triage-first): the acknowledgement carries the triage, keeping the severity.
    const triage = status === 'in_progress' && version === 1 ? { triage: { severity: severities.get(`acme/${id}`)!, reason: 'Confirmado por el SOC' } } : {};
    const r = await call(incidents, { method: 'PATCH', path: `/incidents/${id}`, caller: soc, query: { tenant: 'acme' }, body: { version, status, ...triage } });
    expect(r.statusCode, r.body).toBe(200);
  };
  const a = await open(alice, 'critical'); // SLA 4 h
  const b = await open(alice, 'high'); // SLA 8 h
  await open(bob, 'low');
  clock = T0 + 20 * 60_000;
  await patch(a.id, 1, 'in_progress');
  clock = T0 + 40 * 60_000;
  await patch(b.id, 1, 'in_progress');
  clock = T0 + 2 * 3_600_000;
  await patch(a.id, 2, 'resolved');
  clock = T0 + 9 * 3_600_000;
  await patch(b.id, 2, 'resolved');
  clock = T0 + 24 * 3_600_000;
});

afterAll(async () => {
  await api?.stop();
});

describe('reports', () => {
  it('computes the figures of the tenant for the period', async () => {
    const r = await call(reports, { method: 'GET', path: '/reports', caller: alice });
    expect(r.statusCode, r.body).toBe(200);
    const rep = Report.parse(bodyOf(r));
    expect(rep.tenantId).toBe('acme');
    expect(rep.incidents.total).toBe(2);
    expect(rep.incidents.bySeverity).toMatchObject({ critical: 1, high: 1, low: 0 });
    expect(rep.mttaMinutes).toBe(30);
    expect(rep.mttrMinutes).toBe((120 + 540) / 2);
    expect(rep.sla).toEqual({ resolved: 2, resolvedWithinSla: 1, compliancePct: 50, openBreached: 0 });
    // fw-1's one day in the period (99 %); it is not listed below the target: its roll-up was computed with
    // the real clock, months after this report's day, and a roll-up that does not cover the day is not trusted.
    expect(rep.availability).toEqual({ slaTargetPct: 99.5, fleetPct: 99, belowSla: [] });
    expect(rep.topAlarms).toEqual([{ title: 'Sin latido', count: 1, highestSeverity: 'critical' }]);
    // a period before everything is empty
    const empty = Report.parse(bodyOf(await call(reports, { method: 'GET', path: '/reports', caller: alice, query: { from: '2026-01-01T00:00:00Z', to: '2026-01-31T00:00:00Z' } })));
    expect(empty.incidents.total).toBe(0);
    expect(empty.mttaMinutes).toBeNull();
  });

  it('downloads the report as CSV', async () => {
    const r = await call(reports, { method: 'GET', path: '/reports', caller: alice, query: { format: 'csv' } });
    expect(r.statusCode).toBe(200);
    expect(headerOf(r, 'content-type')).toBe('text/csv; charset=utf-8');
    expect(headerOf(r, 'content-disposition')).toMatch(/^attachment; filename="vigia-acme-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(r.body.split('\r\n')).toContain('times,mtta_minutes,30,');
  });

  it('counts the whole UTC days a mid-day period touches, from the day items alone (no GSI1 Query of incidents or alarms)', async () => {
    const { createDocumentClient } = await import('../../lambdas/data/table/client.js');
    const { reportsRepository } = await import('../../lambdas/data/reports.js');
    const { tenantReport } = await import('../../lambdas/domain/reports.js');
    const inner = createDocumentClient(api.documentClientOptions());
    const requests: { operation: string; index: string | undefined; key: unknown }[] = [];
    const doc: typeof inner = {
      send: (operation, input) => {
        const i = input as { IndexName?: string; ExpressionAttributeValues?: Record<string, unknown> };
        requests.push({ operation, index: i.IndexName, key: i.ExpressionAttributeValues?.[':p'] ?? i.ExpressionAttributeValues?.[':q'] });
        return inner.send(operation, input);
      },
      destroy: () => inner.destroy(),
    };
    try {
      // Asked: 08:30 of the incidents' day to 07:15 of the next (partial first and last hours and days).
      const rep = (await tenantReport(reportsRepository({ doc, tableName: TABLE }), 'acme', { from: '2026-05-04T08:30:00Z', to: '2026-05-05T07:15:00Z', format: 'json' }, new Date(clock))) as Report;
      expect(rep.period).toEqual({ from: '2026-05-04T00:00:00.000Z', to: '2026-05-05T23:59:59.999Z' });
      // Both incidents (created at 08:00, before the asked 08:30) and the alarm count: the whole day is counted.
      expect(rep.incidents.total).toBe(2);
      expect(rep.topAlarms).toEqual([{ title: 'Sin latido', count: 1, highestSeverity: 'critical' }]);
      // The day items, the SOC queue's boundary hour, the below-SLA index and the heartbeat histogram (no device
      // in an outage: nothing more, docs/data-model.md#outages): no GSI1 Query (raw incidents/alarms).
      expect(requests.filter((r) => r.index === 'GSI1')).toEqual([]);
      expect(requests.length).toBeLessThanOrEqual(4);
      const csv = await tenantReport(reportsRepository({ doc, tableName: TABLE }), 'acme', { from: '2026-05-04T08:30:00Z', to: '2026-05-05T07:15:00Z', format: 'csv' }, new Date(clock));
      expect((csv as { filename: string }).filename).toBe('vigia-acme-2026-05-04-2026-05-05.csv');
    } finally {
      doc.destroy();
    }
  });

  it('rejects bad periods', async () => {
    const bad: Record<string, string>[] = [{ from: '2026-05-02T00:00:00Z', to: '2026-05-01T00:00:00Z' }, { from: '2024-01-01T00:00:00Z', to: '2026-01-01T00:00:00Z' }, { format: 'pdf' }];
    for (const query of bad) {
      const r = await call(reports, { method: 'GET', path: '/reports', caller: alice, query });
      expect(r.statusCode).toBe(400);
      expect(bodyOf<ApiErrorBody>(r).code).toBe('VALIDATION_FAILED');
    }
  });
});

describe('analytics (admin only)', () => {
  it('is refused to customers by the server', async () => {
    const r = await call(reports, { method: 'GET', path: '/analytics', caller: alice });
    expect(r.statusCode).toBe(403);
    expect(bodyOf<ApiErrorBody>(r).code).toBe('FORBIDDEN');
  });

  it('sums every tenant and breaks the figures down per tenant', async () => {
    const r = await call(reports, { method: 'GET', path: '/analytics', caller: soc });
    expect(r.statusCode, r.body).toBe(200);
    const a = Analytics.parse(bodyOf(r));
    // Two tenants fit one page: the totals come with it.
    expect(a.nextCursor).toBeNull();
    expect(a.totals?.incidents.total).toBe(3);
    expect(a.tenants.map((t) => [t.tenantId, t.incidents.total])).toEqual([['acme', 2], ['globex', 1]]);
    // Analytics counts the whole UTC days the period touches (docs/api.md#success-statuses).
    expect(a.period.from).toMatch(/T00:00:00\.000Z$/);
    expect(a.period.to).toMatch(/T23:59:59\.999Z$/);
    expect(a.totals?.period).toEqual(a.period);
    const csv = await call(reports, { method: 'GET', path: '/analytics', caller: soc, query: { format: 'csv' } });
    expect(csv.body.split('\r\n')).toEqual(expect.arrayContaining(['incidents,total,3,', 'report,tenant,globex,']));
  });

  it('reads the first responses of the period with one Query, not one per incident (GSI1 FIRSTRESPONSES)', async () => {
    const { createDocumentClient } = await import('../../lambdas/data/table/client.js');
    const { loadReportData } = await import('../../lambdas/data/reports.js');
    const inner = createDocumentClient(api.documentClientOptions());
    const commands: string[] = [];
    const doc: typeof inner = {
      send: (operation, input) => {
        commands.push(operation);
        return inner.send(operation, input);
      },
      destroy: () => inner.destroy(),
    };
    try {
      const d = await loadReportData('acme', '2026-05-01T00:00:00.000Z', '2026-05-31T00:00:00.000Z', { doc, tableName: TABLE });
      expect(d.incidents.map((i) => (Date.parse(i.firstResponseAt!) - T0) / 60_000).sort((x, y) => x - y)).toEqual([20, 40]);
      // incidents, devices, alarms, first responses (GSI1) + the one device's days; no HISTORY# Query
      expect(commands).toEqual(Array(5).fill('Query'));
    } finally {
      doc.destroy();
    }
  });
});

describe('summary (GET /summary, from the write-time aggregates)', () => {
  it("gives the tenant's figures now and per day, none of another tenant's", async () => {
    const r = await call(reports, { method: 'GET', path: '/summary', caller: alice });
    expect(r.statusCode, r.body).toBe(200);
    const s = Summary.parse(bodyOf(r));
    expect(s.tenantId).toBe('acme');
    // Both incidents were resolved; bob's low one is globex's.
    expect(s.incidents.open).toBe(0);
    expect(s.incidents.byStatus).toMatchObject({ resolved: 2, new: 0 });
    expect(s.alarms).toEqual({ open: 1, openBySeverity: { critical: 1, high: 0, medium: 0, low: 0 }, active: 1, acknowledged: 0 });
    expect(s.devices.total).toBe(1);
    expect(s.devices.byStatus.unknown).toBe(1);
    // The one device's one day in the window (99 % of 24 h): the fleet figure is the device's.
    // fw-1 is below the target, but its roll-up was computed with the real clock, months after this summary's
    // day: a roll-up that does not cover the day is not trusted, so the list leaves it out.
    expect(s.availability).toEqual({ pct30d: 99, slaTargetPct: 99.5, belowSla: [] });
    // The default series: the 30 UTC days ending today (the clock is T0 + 24 h), oldest first.
    expect(s.days).toHaveLength(30);
    expect(s.days.at(-1)!.date).toBe('2026-05-05');
    expect(s.days.find((d) => d.date === '2026-05-04')).toEqual({ date: '2026-05-04', incidentsCreated: { critical: 1, high: 1, medium: 0, low: 0 }, alarmsRaised: { critical: 1, high: 0, medium: 0, low: 0 } });
    const g = Summary.parse(bodyOf(await call(reports, { method: 'GET', path: '/summary', caller: bob })));
    expect(g.incidents).toMatchObject({ open: 1, openBySeverity: { critical: 0, high: 0, medium: 0, low: 1 } });
    expect(g.devices.total).toBe(0);
  });

  it('takes a month for the calendar and refuses a bad series with 400, another tenant with 403', async () => {
    const may = Summary.parse(bodyOf(await call(reports, { method: 'GET', path: '/summary', caller: alice, query: { from: '2026-05-01', to: '2026-05-31' } })));
    // The series does not cover the 30-day window ending today: the availability is read apart, the same.
    expect(may.availability.pct30d).toBe(99);
    expect(may.days.map((d) => d.date)).toEqual(Array.from({ length: 31 }, (_, i) => `2026-05-${String(i + 1).padStart(2, '0')}`));
    const bads: Record<string, string>[] = [{ from: '2026-05-31', to: '2026-05-01' }, { from: '2026-01-01', to: '2026-05-01' }, { from: '2026-02-30' }, { to: 'mañana' }];
    for (const query of bads) {
      const bad = await call(reports, { method: 'GET', path: '/summary', caller: alice, query });
      expect(bad.statusCode, JSON.stringify(query)).toBe(400);
      expect(bodyOf<ApiErrorBody>(bad).code).toBe('VALIDATION_FAILED');
    }
    const other = await call(reports, { method: 'GET', path: '/summary', caller: alice, query: { tenant: 'globex' } });
    expect(other.statusCode).toBe(403);
    // Staff choose the tenant.
    const staff = Summary.parse(bodyOf(await call(reports, { method: 'GET', path: '/summary', caller: soc, query: { tenant: 'globex' } })));
    expect(staff.tenantId).toBe('globex');
  });

  it('lists the devices below the availability target, lowest first, and drops one that recovers', async () => {
    const { data } = api;
    const day = (d: number) => new Date(T0 - d * 86_400_000).toISOString().slice(0, 10);
    await data.putDevice({ tenantId: 'globex', id: 'sw-1', name: 'switch', type: 'switch', site: 'M', ipAddress: '10.0.0.2', vendor: 'v', model: 'm' }, new Date(clock));
    await data.putDevice({ tenantId: 'globex', id: 'sw-2', name: 'router', type: 'router', site: 'M', ipAddress: '10.0.0.3', vendor: 'v', model: 'm' }, new Date(clock));
    await data.putDevice({ tenantId: 'globex', id: 'sw-3', name: 'ap', type: 'ap', site: 'M', ipAddress: '10.0.0.4', vendor: 'v', model: 'm' }, new Date(clock));
    await data.putDailyAvailability({ tenantId: 'globex', deviceId: 'sw-1', date: day(1), availablePct: 97 }, new Date(clock));
    await data.putDailyAvailability({ tenantId: 'globex', deviceId: 'sw-2', date: day(1), availablePct: 90 }, new Date(clock));
    await data.putDailyAvailability({ tenantId: 'globex', deviceId: 'sw-3', date: day(1), availablePct: 100 }, new Date(clock));
    const before = Summary.parse(bodyOf(await call(reports, { method: 'GET', path: '/summary', caller: bob })));
    expect(before.availability.belowSla).toEqual([
      { deviceId: 'sw-2', name: 'router', availability30d: 90 },
      { deviceId: 'sw-1', name: 'switch', availability30d: 97 },
    ]);
    expect(before.availability.pct30d).toBe(95.67);
    await data.putDailyAvailability({ tenantId: 'globex', deviceId: 'sw-2', date: day(1), availablePct: 99.9 }, new Date(clock));
    const after = Summary.parse(bodyOf(await call(reports, { method: 'GET', path: '/summary', caller: bob })));
    expect(after.availability.belowSla.map((d) => d.deviceId)).toEqual(['sw-1']);
  });
});
