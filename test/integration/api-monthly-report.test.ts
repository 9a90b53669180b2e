/**
 * The monthly PDF report and the 12-month SLA history over the REAL reports handler and dynoxide (IAM
 * evaluated): incidents opened and resolved through the API show in the PDF and the history; a bad or future
 * month is a 400 VALIDATION_FAILED; a customer reads only their tenant; staff need TOTP; the reads are
 * measured with `captureCapacity` for a quiet tenant and for one with 400 incidents a month.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MonthlyReportFile, SlaHistory } from '../../lambdas/contract/monthly-report.js';
import type { ApiErrorBody, Incident } from '../../lambdas/contract/schemas.js';
import { createDocumentClient, type TableRef } from '../../lambdas/data/table/client.js';
import { reportsRepository } from '../../lambdas/data/reports.js';
import { itemOf, MaintenanceWindowEntity } from '../../lambdas/data/entities.js';
import { maintenanceWindowsRepository } from '../../lambdas/data/maintenance-windows.js';
import { tenantsRepository } from '../../lambdas/data/tenants.js';
import { pdfText } from '../support/pdf-text.js';
import { MONTHLY_TREND_MONTHS, monthPeriod, monthlyReport, monthlyReportFile, monthsEnding, periodSlaBySeverity, slaHistory } from '../../lambdas/domain/monthly-report.js';
import { markOutages } from '../../lambdas/data/outages.js';
import { readTenantAggregates } from '../../lambdas/data/aggregates.js';
import { createIncident, getIncident, saveIncidentUpdate } from '../../lambdas/data/incidents.js';
import { newIncident } from '../../lambdas/domain/incidents.js';
import { keys } from '../../lambdas/data/table/keys.js';
import { reportFromAggregates } from '../../lambdas/domain/reports.js';
import type { Severity } from '../../lambdas/contract/schemas.js';
import type { ApiHandler } from '../../lambdas/http/api.js';
import { LIMITS } from '../../scripts/bench/budgets.js';
import { runtimeIamReport } from '../../scripts/aws-rules/recorder.js';
import { captureCapacity, measuredOn, type CapturedRequest } from '../support/capacity-capture.js';
import { bodyOf, type CallerSpec } from '../support/events.js';
import { call, startInProcessApi, type InProcessApi } from '../support/in-process-api.js';

const TABLE = 'vigia-monthly-report';
const alice: CallerSpec = { sub: 'sub-alice', groups: ['acme'] };
const bob: CallerSpec = { sub: 'sub-bob', groups: ['globex'] };
const soc: CallerSpec = { sub: 'sub-soc', groups: ['admin'] };
const socNoTotp: CallerSpec = { sub: 'sub-soc2', groups: ['admin'], mfa: false };
let api: InProcessApi;
let incidents: ApiHandler;
let reports: ApiHandler;
let table: TableRef;
const ops: CapturedRequest[] = [];
const T0 = Date.parse('2026-09-10T08:00:00.000Z');
let clock = T0;
const NOW = Date.parse('2026-11-15T12:00:00.000Z');

/** The PDF's page count and its strings, one a line. */
const pdfTextOf = async (bytes: Uint8Array) => {
  const { pages, strings } = await pdfText(bytes);
  return { pages, text: strings.join('\n') };
};

beforeAll(async () => {
  api = await startInProcessApi({ table: TABLE });
  incidents = api.handler('incidents', { now: () => new Date(clock) });
  reports = api.handler('reports', { now: () => new Date(NOW) });
  await api.data.putTenant({ id: 'acme', name: 'Acme Logística' });
  await api.data.putTenant({ id: 'globex', name: 'Globex' });
  table = { doc: createDocumentClient(api.documentClientOptions()), tableName: TABLE };
  captureCapacity(table, ops);
  // September: a critical incident resolved in 2 h (within its 4 h SLA), a high one in 9 h (past its 8 h SLA).
  const open = async (severity: string) => bodyOf<Incident>(await call(incidents, { method: 'POST', path: '/incidents', caller: alice, body: { title: 'Acceso sospechoso', description: 'd', severity } }));
  const patch = async (i: Incident, version: number, status: string) => {
    const triage = version === 1 ? { triage: { severity: i.severity, reason: 'Confirmado' } } : {};
    const r = await call(incidents, { method: 'PATCH', path: `/incidents/${i.id}`, caller: soc, query: { tenant: 'acme' }, body: { version, status, ...triage } });
    expect(r.statusCode, r.body).toBe(200);
  };
  const a = await open('critical');
  const b = await open('high');
  clock = T0 + 20 * 60_000;
  await patch(a, 1, 'in_progress');
  await patch(b, 1, 'in_progress');
  clock = T0 + 2 * 3_600_000;
  await patch(a, 2, 'resolved');
  clock = T0 + 9 * 3_600_000;
  await patch(b, 2, 'resolved');
}, 120_000);

afterAll(async () => {
  table?.doc.destroy();
  await api?.stop();
});

describe('GET /reports/monthly/{month}', () => {
  it('answers the PDF of the month with its figures, in Spanish and English', async () => {
    const r = await call(reports, { method: 'GET', path: '/reports/monthly/2026-09', caller: alice });
    expect(r.statusCode, r.body).toBe(200);
    const file = MonthlyReportFile.parse(JSON.parse(r.body));
    expect(file.fileName).toBe('vigia-acme-2026-09.pdf');
    const bytes = Buffer.from(file.base64, 'base64');
    expect(bytes.byteLength).toBe(file.size);
    const { pages, text } = await pdfTextOf(bytes);
    expect(pages).toBe(1);
    expect(text).toContain('Cliente: Acme Logística (acme)');
    expect(text).toContain('En septiembre 2026 se abrieron 2 incidentes (1 críticos)');
    expect(text).toMatch(/Cumplimiento\n50 %/);
    expect(text).toContain('abril 2026');
    const en = await pdfTextOf(Buffer.from(MonthlyReportFile.parse(JSON.parse((await call(reports, { method: 'GET', path: '/reports/monthly/2026-09', query: { lang: 'en' }, caller: alice })).body)).base64, 'base64'));
    expect(en.text).toContain('In September 2026, 2 incidents were opened (1 critical)');
  });

  it('says which maintenance windows the month excludes: JSON `maintenance` and the PDF line, es and en (docs/sla.md#maintenance-windows)', async () => {
    const w = (windowId: string, startAt: string, endAt: string) => ({
      windowId, tenantId: 'globex', title: 'Firmware', scope: { deviceIds: ['sw-9'], sites: [] }, startAt, endAt,
      createdAt: '2026-08-01T00:00:00.000Z', createdBy: 'soc@vigia.example', updatedAt: '2026-08-01T00:00:00.000Z', version: 1,
    });
    // Two overlapping windows in October (one started in September: 30 min of it in October), one in November (not counted).
    for (const item of [
      w('mw-report000001', '2026-09-30T23:30:00.000Z', '2026-10-01T01:00:00.000Z'),
      w('mw-report000002', '2026-10-01T00:30:00.000Z', '2026-10-01T02:00:00.000Z'),
      w('mw-report000003', '2026-11-02T00:00:00.000Z', '2026-11-02T01:00:00.000Z'),
    ]) await table.doc.send('PutItem', { TableName: TABLE, Item: itemOf(MaintenanceWindowEntity, item) });
    const es = MonthlyReportFile.parse(JSON.parse((await call(reports, { method: 'GET', path: '/reports/monthly/2026-10', caller: bob })).body));
    // 00:00–02:00 on October 1st, the overlap once.
    expect(es.maintenance).toEqual({ windows: 2, minutes: 120 });
    expect((await pdfTextOf(Buffer.from(es.base64, 'base64'))).text).toContain('2 ventanas de mantenimiento excluidas (120 min)');
    const en = MonthlyReportFile.parse(JSON.parse((await call(reports, { method: 'GET', path: '/reports/monthly/2026-10', query: { lang: 'en' }, caller: bob })).body));
    expect((await pdfTextOf(Buffer.from(en.base64, 'base64'))).text).toContain('2 maintenance windows excluded (120 min)');
    const sept = MonthlyReportFile.parse(JSON.parse((await call(reports, { method: 'GET', path: '/reports/monthly/2026-09', caller: bob })).body));
    expect(sept.maintenance).toEqual({ windows: 1, minutes: 30 });
    // Another tenant's windows are not its own.
    expect(MonthlyReportFile.parse(JSON.parse((await call(reports, { method: 'GET', path: '/reports/monthly/2026-10', caller: alice })).body)).maintenance).toEqual({ windows: 0, minutes: 0 });
  });

  it('refuses a month that is not one or has not started with 400 VALIDATION_FAILED', async () => {
    for (const m of ['2026-13', '2026-12', '2026-9', 'junio']) {
      const r = await call(reports, { method: 'GET', path: `/reports/monthly/${m}`, caller: alice });
      expect(r.statusCode, m).toBe(400);
      expect(bodyOf<ApiErrorBody>(r).code).toBe('VALIDATION_FAILED');
    }
  });

  it("keeps tenants apart: globex's user gets globex's report, never acme's; staff need TOTP", async () => {
    const g = await call(reports, { method: 'GET', path: '/reports/monthly/2026-09', caller: bob });
    const text = (await pdfTextOf(Buffer.from(MonthlyReportFile.parse(JSON.parse(g.body)).base64, 'base64'))).text;
    expect(text).toContain('Globex (globex)');
    expect(text).toContain('se abrieron 0 incidentes');
    const other = await call(reports, { method: 'GET', path: '/reports/monthly/2026-09', query: { tenant: 'acme' }, caller: bob });
    expect(other.statusCode).toBe(403);
    expect((await call(reports, { method: 'GET', path: '/reports/monthly/2026-09', query: { tenant: 'acme' }, caller: soc })).statusCode).toBe(200);
    expect((await call(reports, { method: 'GET', path: '/reports/monthly/2026-09', query: { tenant: 'acme' }, caller: socNoTotp })).statusCode).toBe(403);
  });

  it('reads a bounded number of requests whatever the number of incidents (measured)', async () => {
    ops.length = 0;
    const file = await monthlyReportFile({ reports: reportsRepository(table), tenants: tenantsRepository(table), maintenanceWindows: maintenanceWindowsRepository(table) }, 'acme', '2026-09', 'es', new Date(NOW));
    const rcu = ops.reduce((a, o) => a + o.rcu, 0);
    console.log(`monthly report acme: ${ops.length} requests, ${rcu} RCU, ${file.size} B PDF`);
    expect(ops.filter((o) => o.op === 'Scan')).toEqual([]);
    // The route's session check aside (docs/api.md#monthly-report).
    expect(ops.length + 1).toBeLessThanOrEqual(LIMITS.scaleRequests);
    expect(file.size).toBeLessThan(6 * 1024 * 1024 / 10);
  });

  it('reads the devices below target and the open outages once, not once a month of the trend', async () => {
    const now = new Date(NOW);
    const device = (id: string, minutesAgo: number) => ({ tenantId: 'initech', id, name: id, type: 'firewall', site: 'M', ipAddress: '10.0.0.1', vendor: 'v', model: 'm', lastHeartbeatAt: new Date(NOW - minutesAgo * 60_000).toISOString() });
    await api.data.putTenant({ id: 'initech', name: 'Initech' });
    for (const [id, ago] of [['fw-1', 2 * 1440], ['fw-2', 90], ['fw-3', 1]] as const) await api.data.putDevice(device(id, ago), now);
    await markOutages('initech', (await readTenantAggregates(table, 'initech')).heartbeat, now, table);
    const port = reportsRepository(table);
    ops.length = 0;
    const report = await monthlyReport(port, { id: 'initech', name: 'Initech' }, '2026-11', now);
    // For the six months: ONE Query of the day items, ONE of GSI2 (the below-SLA index; no SOC queue hour), ONE
    // GetItem of the heartbeat histogram, ONE Query of the outage markers and ONE of GSI1 (the maintenance
    // windows over the outages); no incident due in a boundary hour, so no BatchGetItem.
    expect(ops.map((o) => o.op + (o.index ? `/${o.index}` : '')).sort()).toEqual(['GetItem', 'Query', 'Query', 'Query/GSI1', 'Query/GSI2']);
    expect(report.trend).toHaveLength(MONTHLY_TREND_MONTHS);
    // `GET /reports` still takes the reads as of now from another period's (`loadAggregates` with `atNow`).
    const p = monthPeriod('2026-10');
    ops.length = 0;
    const full = await port.loadAggregates('initech', p.from, p.to, now);
    const fullRequests = ops.length;
    ops.length = 0;
    expect(await port.loadAggregates('initech', p.from, p.to, now, { belowSla: full.belowSla, outages: full.outages })).toEqual(full);
    // Not read again: the below-SLA index, the histogram, the outage markers and the maintenance windows.
    expect(fullRequests - ops.length).toBe(4);
    expect(report.figures.availability.belowSla.map((d) => d.deviceId).sort()).toEqual(['fw-1', 'fw-2']);
  });
});

/**
 * A tenant with many devices, several in an outage (one since before the previous month's end), and incidents
 * at the months' edges: created at 00:00:00.000 on the 1st and 23:59:59.999 on the last day, unresolved and due
 * in a month's last hour (counted as breached at the month's end), due exactly at the month's last
 * millisecond (not counted: not before the end), due in the current hour before and after now.
 */
describe('monthly report at a tenant with many devices, several down', () => {
  const T = 'umbrella';
  // Mid-hour, so the current month's boundary hour splits its incidents at now.
  const NOW2 = new Date('2026-11-15T12:34:56.789Z');
  const ago = (ms: number) => new Date(NOW2.getTime() - ms).toISOString();
  const MIN = 60_000;
  const DEVICES = 40;
  /** Devices in an outage at NOW2: id → last heartbeat. fw-01's outage started before October's end. */
  const DOWN: Record<string, string> = {
    'fw-01': '2026-10-25T10:00:00.000Z',
    'fw-02': ago(2 * 1440 * MIN),
    'fw-03': ago(90 * MIN),
    'fw-04': ago(5 * 1440 * MIN),
    'fw-05': ago(3 * 60 * MIN),
    'fw-06': ago(36 * 60 * MIN),
  };
  const ports = () => ({ reports: reportsRepository(table), tenants: tenantsRepository(table), maintenanceWindows: maintenanceWindowsRepository(table) });

  /** An incident of `T` created at `createdAt` (SLA: 4 h critical, 8 h high, 24 h medium, 72 h low), then moved to `then.status` `then.afterMin` minutes later. */
  async function incident(severity: Severity, createdAt: string, then?: { status: 'in_progress' | 'on_hold' | 'resolved'; afterMin: number }) {
    const inc = await createIncident(T, (seq) => newIncident(T, seq, { title: 'Acceso sospechoso', description: 'd', severity, category: 'general' }, 'soc@vigia.example', createdAt), table);
    if (!then) return;
    const cur = (await getIncident(T, inc.id, table))!;
    const at = new Date(Date.parse(createdAt) + then.afterMin * MIN).toISOString();
    const resolvedAt = then.status === 'resolved' ? at : null;
    await saveIncidentUpdate(T, { ...cur, status: then.status, resolvedAt, slaResult: null, version: cur.version + 1, updatedAt: at }, cur, { version: cur.version + 1, at, by: 'soc', bySub: 'sub-soc', changes: [] }, null, table);
  }

  beforeAll(async () => {
    await api.data.putTenant({ id: T, name: 'Umbrella' });
    for (let n = 1; n <= DEVICES; n++) {
      const id = `fw-${String(n).padStart(2, '0')}`;
      await api.data.putDevice({ tenantId: T, id, name: `MAD-FW-${id}`, type: 'firewall', site: 'MAD', ipAddress: `10.0.0.${n}`, vendor: 'v', model: 'm', lastHeartbeatAt: DOWN[id] ?? ago(MIN) }, NOW2);
    }
    // Stored days: at the months' edges, and fw-01's days before its outage.
    for (const [deviceId, date, availablePct] of [
      ['fw-07', '2026-09-30', 97.5], ['fw-07', '2026-10-01', 99], ['fw-08', '2026-10-31', 92.25], ['fw-08', '2026-11-01', 100], ['fw-09', '2026-11-14', 88],
      ['fw-01', '2026-10-23', 100], ['fw-01', '2026-10-24', 99.5], ['fw-10', '2026-11-15', 100],
    ] as const) await api.data.putDailyAvailability({ tenantId: T, deviceId, date, availablePct }, NOW2);
    for (const [id, raisedAt, severity] of [['a1', '2026-09-30T23:59:59.999Z', 'high'], ['a2', '2026-10-01T00:00:00.000Z', 'critical'], ['a3', '2026-10-31T23:59:59.999Z', 'medium'], ['a4', '2026-11-15T11:00:00.000Z', 'high']] as const) {
      await api.data.putAlarm({ tenantId: T, deviceId: 'fw-11', id, title: 'CPU alta', severity, state: 'cleared', raisedAt, acknowledgedAt: null, acknowledgedBy: null, clearedAt: raisedAt });
    }
    await incident('high', '2026-06-03T10:00:00.000Z', { status: 'resolved', afterMin: 120 });
    await incident('low', '2026-06-30T23:59:59.999Z'); // due in July: not breached at June's end
    await incident('critical', '2026-07-31T20:00:00.000Z'); // due 2026-08-01T00:00: not July's
    await incident('critical', '2026-08-31T19:00:00.000Z', { status: 'in_progress', afterMin: 10 }); // due in August's last hour
    await incident('critical', '2026-09-01T00:00:00.000Z', { status: 'resolved', afterMin: 60 });
    await incident('critical', '2026-09-30T20:15:00.000Z', { status: 'in_progress', afterMin: 5 }); // due 2026-10-01T00:15
    await incident('high', '2026-10-01T00:00:00.000Z', { status: 'resolved', afterMin: 600 }); // breached
    await incident('high', '2026-10-31T15:00:00.000Z'); // due 23:00 on the 31st
    await incident('critical', '2026-10-31T19:30:00.000Z'); // due 23:30 on the 31st
    await incident('critical', '2026-10-31T19:59:59.999Z', { status: 'on_hold', afterMin: 30 }); // due at October's last millisecond
    await incident('medium', '2026-10-31T23:59:59.999Z', { status: 'resolved', afterMin: 30 });
    await incident('low', '2026-11-01T00:00:00.000Z', { status: 'resolved', afterMin: 100 });
    await incident('critical', '2026-11-14T10:00:00.000Z'); // due yesterday
    await incident('high', '2026-11-15T04:00:00.000Z'); // due 12:00:00.000, before now
    await incident('critical', '2026-11-15T08:10:00.000Z'); // due 12:10, before now
    await incident('critical', '2026-11-15T08:40:00.000Z'); // due 12:40, after now
    await markOutages(T, (await readTenantAggregates(table, T)).heartbeat, NOW2, table);
  }, 120_000);

  it('costs at most the route budget (10 requests with the session check, 50 RCU) for a past month and the current one (measured)', async () => {
    const measured: Record<string, { requests: number; rcu: number }> = {};
    for (const month of ['2026-10', '2026-11']) {
      const m = await measuredOn(ops, () => monthlyReportFile(ports(), T, month, 'es', NOW2));
      console.log(`monthly report ${T} ${month} (${DEVICES} devices, ${Object.keys(DOWN).length} down): ${m.requests} requests (+1 session check), ${m.rcu} RCU: ${ops.map((o) => o.op + (o.index ? `/${o.index}` : '')).join(', ')}`);
      measured[month] = { requests: m.requests + 1, rcu: m.rcu };
    }
    for (const m of Object.values(measured)) {
      expect(m.requests).toBeLessThanOrEqual(LIMITS.scaleRequests);
      expect(m.rcu).toBeLessThanOrEqual(LIMITS.scaleReadUnits);
    }
    // Through the route, as the reports function: its role allows the BatchGetItem of October's last-hour incidents (IAM on every call).
    const r = await call(reports, { method: 'GET', path: '/reports/monthly/2026-10', query: { tenant: T }, caller: soc });
    expect(r.statusCode, r.body).toBe(200);
    expect(runtimeIamReport().byPrincipal['vigia-dev-reports']?.used.filter((u) => u.startsWith('dynamodb:BatchGetItem'))).toHaveLength(1);
  });

  it('gives, for every month of the trend, the figures of that month read on its own (`loadAggregates`, GET /reports)', async () => {
    const port = reportsRepository(table);
    for (const month of ['2026-10', '2026-11', '2026-09']) {
      const report = await monthlyReport(port, { id: T, name: 'Umbrella' }, month, NOW2);
      const months = monthsEnding(month, MONTHLY_TREND_MONTHS);
      expect(report.trend.map((m) => m.month)).toEqual(months);
      for (const [i, m] of months.entries()) {
        const p = monthPeriod(m);
        const alone = await port.loadAggregates(T, p.from, p.to, NOW2);
        expect(report.trend[i]!.figures, m).toEqual(reportFromAggregates([alone], p, NOW2));
        if (m === month) expect(report.slaBySeverity, m).toEqual(periodSlaBySeverity([alone]));
      }
    }
    // The edges are in the figures: breached by the month's end (or now), not at its last millisecond or after now.
    const trend = (await monthlyReport(port, { id: T, name: 'Umbrella' }, '2026-11', NOW2)).trend;
    const breached = Object.fromEntries(trend.map((m) => [m.month, m.figures.sla.openBreached]));
    expect(breached).toEqual({ '2026-06': 0, '2026-07': 0, '2026-08': 1, '2026-09': 0, '2026-10': 2, '2026-11': 3 });
    const oct = trend.find((m) => m.month === '2026-10')!.figures;
    expect(oct.incidents.total).toBe(5);
    expect(oct.topAlarms).toEqual([{ title: 'CPU alta', count: 2, highestSeverity: 'critical' }]);
    expect(oct.availability.belowSla.map((d) => d.deviceId)).toContain('fw-01');
  });

  it('reads for each period what `loadAggregates` reads for it alone: whole months, and a period that is not whole days', async () => {
    const port = reportsRepository(table);
    const periods = [...monthsEnding('2026-11', MONTHLY_TREND_MONTHS).map(monthPeriod), { from: '2026-11-10T06:30:00.000Z', to: NOW2.toISOString() }, monthPeriod('2026-02')];
    const together = await port.loadPeriodsAggregates(T, periods, NOW2);
    expect(together).toHaveLength(periods.length);
    for (const [i, p] of periods.entries()) expect(together[i], `${p.from}…${p.to}`).toEqual(await port.loadAggregates(T, p.from, p.to, NOW2));
    expect(together.map((d) => d.boundaryBreached)).toEqual([0, 0, 1, 0, 2, 2, 2, 0]);
    expect(await port.loadPeriodsAggregates(T, [], NOW2)).toEqual([]);
  });

  it('a day item of the layout before the `o…` attributes (`d#` counters): its boundary hour is read from the tenant\'s SOC queue, with the same figures', async () => {
    const L = 'stark';
    await api.data.putTenant({ id: L, name: 'Stark' });
    const inc = await createIncident(L, (seq) => newIncident(L, seq, { title: 'Acceso sospechoso', description: 'd', severity: 'critical', category: 'general' }, 'soc@vigia.example', '2026-10-31T19:45:00.000Z'), table);
    // As the layout before AGGREGATES_VERSION 4 stored it: a due-hour counter and a status counter, no `o…` attribute.
    const key = keys.day(L, '2026-10-31');
    const item = (await table.doc.send('GetItem', { TableName: TABLE, Key: key })).Item!;
    const attr = `o${Number(inc.id.slice(4))}`;
    expect(item[attr]).toBeTypeOf('number');
    await table.doc.send('UpdateItem', { TableName: TABLE, Key: key, UpdateExpression: 'REMOVE #o SET #d = :one, #s = :one', ExpressionAttributeNames: { '#o': attr, '#d': 'd#26103123', '#s': 'sn' }, ExpressionAttributeValues: { ':one': 1 } });
    const port = reportsRepository(table);
    const p = monthPeriod('2026-10');
    ops.length = 0;
    const [oct] = await port.loadPeriodsAggregates(L, [p], NOW2);
    expect(ops.filter((o) => o.index === 'GSI2')).toHaveLength(1); // the below-SLA index
    expect(ops.filter((o) => o.index === 'GSI4')).toHaveLength(1); // the tenant's SOC queue's hour (`TENANT#stark#SOCQUEUE`)
    expect(oct).toEqual(await port.loadAggregates(L, p.from, p.to, NOW2));
    expect(oct!.boundaryBreached).toBe(1);
    expect(reportFromAggregates([oct!], p, NOW2).sla.openBreached).toBe(1);
  });
});

describe('GET /reports/sla-history', () => {
  it('answers 12 months, oldest first, with September at 50 %, in ONE Query', async () => {
    const r = await call(reports, { method: 'GET', path: '/reports/sla-history', caller: alice });
    expect(r.statusCode, r.body).toBe(200);
    const h = SlaHistory.parse(JSON.parse(r.body));
    expect(h.months.map((m) => m.month)).toEqual(['2025-12', '2026-01', '2026-02', '2026-03', '2026-04', '2026-05', '2026-06', '2026-07', '2026-08', '2026-09', '2026-10', '2026-11']);
    expect(h.months.find((m) => m.month === '2026-09')).toEqual({ month: '2026-09', resolved: 2, resolvedWithinSla: 1, compliancePct: 50 });
    expect(h.months.find((m) => m.month === '2026-10')!.compliancePct).toBeNull();
    ops.length = 0;
    await slaHistory(reportsRepository(table), 'acme', new Date(NOW));
    console.log(`sla history acme: ${ops.length} requests, ${ops.reduce((a, o) => a + o.rcu, 0)} RCU`);
    expect(ops.map((o) => o.op)).toEqual(['Query']);
  });
});
