/**
 * The monthly PDF report and the 12-month SLA history over the REAL reports handler and dynoxide (IAM
 * evaluated): incidents opened and resolved through the API show in the PDF and the history; a bad or future
 * month is a 400 VALIDATION_FAILED; a customer reads only their tenant; staff need TOTP; the reads are
 * measured with `captureCapacity` for a quiet tenant and for one with 400 incidents a month.
 */
import { inflateSync } from 'node:zlib';
import { PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MonthlyReportFile, SlaHistory } from '../../lambdas/contract/monthly-report.js';
import type { ApiErrorBody, Incident } from '../../lambdas/contract/schemas.js';
import { createDocumentClient, type TableRef } from '../../lambdas/data/client.js';
import { reportsRepository } from '../../lambdas/data/reports.js';
import { itemOf, MaintenanceWindowEntity } from '../../lambdas/data/entities.js';
import { maintenanceWindowsRepository } from '../../lambdas/data/maintenance-windows.js';
import { tenantsRepository } from '../../lambdas/data/tenants.js';
import { MONTHLY_TREND_MONTHS, monthPeriod, monthlyReport, monthlyReportFile, slaHistory } from '../../lambdas/domain/monthly-report.js';
import { markOutages } from '../../lambdas/data/outages.js';
import { readTenantAggregates } from '../../lambdas/data/aggregates.js';
import type { ApiHandler } from '../../lambdas/http/api.js';
import { captureCapacity, type CapturedRequest } from '../support/capacity-capture.js';
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

/** The strings a PDF draws (page content streams inflated, `<hex> Tj` decoded as Latin-1). */
async function pdfStrings(bytes: Uint8Array): Promise<{ pages: number; text: string }> {
  const doc = await PDFDocument.load(bytes);
  const out: string[] = [];
  for (const page of doc.getPages()) {
    const contents = page.node.Contents();
    const refs = contents && 'asArray' in contents ? contents.asArray() : [page.node.get(PDFName.of('Contents'))];
    for (const ref of refs) {
      const stream = doc.context.lookup(ref);
      if (!(stream instanceof PDFRawStream)) continue;
      const text = inflateSync(Buffer.from(stream.contents)).toString('latin1');
      for (const m of text.matchAll(/<([0-9A-Fa-f]*)> Tj/g)) out.push(Buffer.from(m[1]!, 'hex').toString('latin1'));
    }
  }
  return { pages: doc.getPageCount(), text: out.join('\n') };
}

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
    const { pages, text } = await pdfStrings(bytes);
    expect(pages).toBe(1);
    expect(text).toContain('Cliente: Acme Logística (acme)');
    expect(text).toContain('En septiembre 2026 se abrieron 2 incidentes (1 críticos)');
    expect(text).toMatch(/Cumplimiento\n50 %/);
    expect(text).toContain('abril 2026');
    const en = await pdfStrings(Buffer.from(MonthlyReportFile.parse(JSON.parse((await call(reports, { method: 'GET', path: '/reports/monthly/2026-09', query: { lang: 'en' }, caller: alice })).body)).base64, 'base64'));
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
    expect((await pdfStrings(Buffer.from(es.base64, 'base64'))).text).toContain('2 ventanas de mantenimiento excluidas (120 min)');
    const en = MonthlyReportFile.parse(JSON.parse((await call(reports, { method: 'GET', path: '/reports/monthly/2026-10', query: { lang: 'en' }, caller: bob })).body));
    expect((await pdfStrings(Buffer.from(en.base64, 'base64'))).text).toContain('2 maintenance windows excluded (120 min)');
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
    const text = (await pdfStrings(Buffer.from(MonthlyReportFile.parse(JSON.parse(g.body)).base64, 'base64'))).text;
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
    expect(ops.length).toBeLessThanOrEqual(1 + 6 * 10);
    expect(file.size).toBeLessThan(6 * 1024 * 1024 / 10);
  });

  it('reads the devices below target and the open outages once, not once a month of the trend', async () => {
    const now = new Date(NOW);
    const device = (id: string, minutesAgo: number) => ({ tenantId: 'initech', id, name: id, type: 'firewall', site: 'M', ipAddress: '10.0.0.1', vendor: 'v', model: 'm', lastHeartbeatAt: new Date(NOW - minutesAgo * 60_000).toISOString() });
    await api.data.putTenant({ id: 'initech', name: 'Initech' });
    for (const [id, ago] of [['fw-1', 2 * 1440], ['fw-2', 90], ['fw-3', 1]] as const) await api.data.putDevice(device(id, ago), now);
    await markOutages('initech', (await readTenantAggregates(table, 'initech')).heartbeat, now, table);
    const port = reportsRepository(table);
    const reads: boolean[] = [];
    const counted = { loadAggregates: (...a: Parameters<typeof port.loadAggregates>) => (reads.push(a[4] === undefined), port.loadAggregates(...a)) };
    const report = await monthlyReport(counted, { id: 'initech', name: 'Initech' }, '2026-11', now);
    expect(reads).toHaveLength(MONTHLY_TREND_MONTHS);
    expect(reads.filter(Boolean)).toHaveLength(1);
    // Each month's figures are the ones its own full read gives.
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
