/** Report figures (MTTA, MTTR, SLA compliance, availability, top alarms) and CSV rendering. */
import { describe, expect, it } from 'vitest';
import { buildReport, reportToCsv } from '../../../lambdas/domain/reports.js';
import { csvField } from '../../../lambdas/contract/csv.js';
import type { ReportData } from '../../../lambdas/domain/ports.js';
import { newIncident } from '../../../lambdas/domain/incidents.js';
import type { Incident } from '../../../lambdas/contract/schemas.js';

const T0 = Date.parse('2026-04-01T00:00:00.000Z');
const at = (h: number) => new Date(T0 + h * 3_600_000).toISOString();
const inc = (seq: number, severity: Incident['severity'], createdH: number, extra: Partial<Incident> = {}): Incident => ({
  ...newIncident('acme', seq, { title: `t${seq}`, description: 'd', severity, category: 'c' }, 'r', at(createdH)),
  ...extra,
});
const device = { tenantId: 'acme', id: 'd1', name: 'fw', type: 'fw', site: 's', ipAddress: '1', vendor: 'v', model: 'm', lastHeartbeatAt: null };
const alarm = (id: string, title: string, severity: 'critical' | 'high' | 'low') => ({
  id, tenantId: 'acme', deviceId: 'd1', title, severity, state: 'active' as const, raisedAt: at(1), acknowledgedAt: null, acknowledgedBy: null, clearedAt: null,
});

const data: ReportData = {
  tenantId: 'acme',
  incidents: [
    // critical (SLA 4 h): acknowledged after 30 min, resolved after 3 h → within SLA
    { incident: inc(1, 'critical', 0, { status: 'resolved', resolvedAt: at(3) }), firstResponseAt: at(0.5) },
    // high (SLA 8 h): acknowledged after 90 min, resolved after 10 h → breached
    { incident: inc(2, 'high', 0, { status: 'closed', resolvedAt: at(10) }), firstResponseAt: at(1.5) },
    // low, still new, SLA (72 h) already past at the end of the period
    { incident: inc(3, 'low', 0), firstResponseAt: null },
    // medium, in progress, SLA not yet due
    { incident: inc(4, 'medium', 100, { status: 'in_progress' }), firstResponseAt: at(101) },
  ],
  devices: [
    { device, days: [{ date: '2026-04-01', availablePct: 100, monitoredSeconds: 86_400 }, { date: '2026-04-02', availablePct: 98, monitoredSeconds: 43_200 }] },
    { device: { ...device, id: 'd2', name: 'sw' }, days: [] },
  ],
  alarms: [alarm('a', 'CPU alta', 'low'), alarm('b', 'CPU alta', 'high'), alarm('c', 'Sin latido', 'critical')],
};

describe('buildReport', () => {
  const period = { from: at(0), to: at(110) };
  const r = buildReport([data], period, new Date(T0 + 200 * 3_600_000));

  it('counts incidents by severity and status', () => {
    expect(r.incidents).toEqual({
      total: 4,
      bySeverity: { critical: 1, high: 1, medium: 1, low: 1 },
      byStatus: { new: 1, in_progress: 1, on_hold: 0, resolved: 1, closed: 1 },
    });
  });

  it('computes MTTA and MTTR in minutes and SLA compliance', () => {
    expect(r.mttaMinutes).toBe((30 + 90 + 60) / 3);
    expect(r.mttrMinutes).toBe((180 + 600) / 2);
    expect(r.sla).toEqual({ resolved: 2, resolvedWithinSla: 1, compliancePct: 50, openBreached: 1 });
  });

  it('weights the fleet availability by monitored time (a device without days adds nothing)', () => {
    expect(r.availability).toEqual({ slaTargetPct: 99.5, fleetPct: 99.33, belowSla: [] });
  });

  it('groups top alarms by title with their highest severity', () => {
    expect(r.topAlarms).toEqual([
      { title: 'CPU alta', count: 2, highestSeverity: 'high' },
      { title: 'Sin latido', count: 1, highestSeverity: 'critical' },
    ]);
  });

  it('answers nulls, not NaN, for an empty period', () => {
    const e = buildReport([{ tenantId: 'x', incidents: [], devices: [], alarms: [] }], period, new Date(T0));
    expect(e.mttaMinutes).toBeNull();
    expect(e.mttrMinutes).toBeNull();
    expect(e.sla.compliancePct).toBeNull();
  });
});

describe('CSV', () => {
  it('quotes per RFC 4180 and defuses spreadsheet formulas', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField('-5')).toBe("'-5");
    expect(csvField(-5)).toBe('-5');
    expect(csvField(null)).toBe('');
  });

  it('renders every figure as section,key,value rows', () => {
    const csv = reportToCsv({ tenantId: 'acme', ...buildReport([data], { from: at(0), to: at(110) }, new Date(T0)) });
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe('section,key,value,extra');
    expect(lines).toContain('report,tenant,acme,');
    expect(lines).toContain('incidents_by_severity,critical,1,');
    expect(lines).toContain('sla,compliance_pct,50,');
    expect(lines).toContain('availability,fleet_pct,99.33,');
    expect(lines).toContain('availability,sla_target_pct,99.5,');
    expect(lines).toContain('top_alarms,CPU alta,2,high');
  });
});
