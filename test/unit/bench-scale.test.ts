/**
 * The scale section's declarations (`scripts/bench/scale.ts`, `scale-pages.ts`, `scale-data.ts`): routes
 * come from the route table so a new GET route is measured without a change to the bench, the variants
 * and page views name real GET routes, and the generator's scales are the documented ones.
 */
import { describe, expect, it } from 'vitest';
import { ROUTES, routeById, type RouteDef } from '../../lambdas/contract/routes.js';
import { previousMonth, ROUTE_VARIANTS, scaleGetRoutes } from '../../scripts/bench/scale.js';
import { PAGE_VIEWS } from '../../scripts/bench/scale-pages.js';
import { scaleItems, scaleSpec, SCALE_FACTORS } from '../../scripts/bench/scale-data.js';

describe('scale section', () => {
  it('measures every GET route a portal user can call, list routes before detail routes', () => {
    const gets = (ROUTES as readonly RouteDef[]).filter((r) => r.method === 'GET' && (r.auth ?? 'cognito') === 'cognito').map((r) => r.operationId);
    const measured = scaleGetRoutes().map((r) => r.operationId);
    expect([...measured].sort()).toEqual([...gets].sort());
    const firstDetail = scaleGetRoutes().findIndex((r) => r.path.includes('{'));
    expect(scaleGetRoutes().slice(firstDetail).every((r) => r.path.includes('{'))).toBe(true);
  });

  it('measures the monthly report of the month before the run (a complete month, the one the e-mail of the 1st sends), across a year end', () => {
    expect(previousMonth(Date.parse('2026-03-15T10:00:00Z'))).toBe('2026-02');
    expect(previousMonth(Date.parse('2027-01-01T00:00:00Z'))).toBe('2026-12');
    expect(scaleGetRoutes().some((r) => r.operationId === 'getMonthlyReport')).toBe(true);
  });

  it('declares variants and page calls of GET routes only', () => {
    for (const op of Object.keys(ROUTE_VARIANTS)) expect(routeById(op as never).method).toBe('GET');
    for (const p of PAGE_VIEWS) for (const c of p.calls) expect(routeById(c.operationId).method, `${p.page} ${c.operationId}`).toBe('GET');
    expect(PAGE_VIEWS.map((p) => p.page)).toEqual(expect.arrayContaining(['dashboard', 'calendar', 'reports-365d', 'analytics-365d', 'incidents', 'devices', 'search']));
  });

  it('sizes the tenants 50 / 500 / 5,000 devices; ×1 with the ×10 tenant\'s event volumes (docs/benchmarks.md#the-generated-tenant)', () => {
    expect(SCALE_FACTORS.map((f) => [scaleSpec(f).devices, scaleSpec(f).incidents, scaleSpec(f).tenantId])).toEqual([
      [50, 5000, 'scale-x001'],
      [500, 5000, 'scale-x010'],
      [5000, 50000, 'scale-x100'],
    ]);
    expect(scaleSpec(0.1)).toMatchObject({ devices: 5, incidents: 50, tenantId: 'scale-x0-1' });
    expect(() => scaleSpec(0)).toThrow(RangeError);
  });

  const now = new Date('2026-03-01T12:00:00.000Z');
  const items = [...scaleItems(scaleSpec(1), now)];
  const count = (e: string, f: (i: Record<string, unknown>) => boolean = () => true) => items.filter((i) => i.entity === e && f(i)).length;

  it('builds items with the entity keys, 90 days of availability per reporting device, every incident once', () => {
    expect(count('Device')).toBe(50);
    expect(count('Incident')).toBe(5000);
    expect(count('DailyAvailability') % 90).toBe(0);
    expect(new Set(items.map((i) => `${String(i.PK)}|${String(i.SK)}`)).size).toBe(items.length);
    // Every item is the tenant's, but the SOC queue's tab counts, which are every tenant's (docs/sla.md#soc-queue).
    const foreign = items.filter((i) => !(String(i.PK).startsWith('TENANT#scale-x001#') || String(i.PK) === 'TENANT#scale-x001'));
    expect(foreign.length).toBeGreaterThan(0);
    expect(foreign.every((i) => i.entity === 'SocQueueCount' && String(i.PK).startsWith('SOCQUEUE#COUNT'))).toBe(true);
  });

  it('fills at ×1 a page of 20 of every list the growth budget compares (docs/benchmarks.md#growth-budgets)', () => {
    for (const status of ['new', 'in_progress', 'on_hold']) expect(count('Incident', (i) => i.status === status), status).toBeGreaterThanOrEqual(20);
    expect(count('Device', (i) => String(i.name).startsWith('MAD-'))).toBeGreaterThanOrEqual(20);
    expect(count('DeviceAlarm', (i) => i.state === 'active' || i.state === 'acknowledged')).toBeGreaterThanOrEqual(20);
    expect(count('Recommendation')).toBeGreaterThanOrEqual(20);
    expect(count('Office365Alarm')).toBeGreaterThanOrEqual(20);
    // The unread count reads up to 99 events.
    expect(count('ActivityEvent')).toBeGreaterThanOrEqual(99);
    // Incidents and alarms on every one of the last 30 days.
    const days = (e: string, at: string) => new Set(items.filter((i) => i.entity === e).map((i) => String(i[at]).slice(0, 10)));
    const incidentDays = days('Incident', 'createdAt');
    const alarmDays = days('DeviceAlarm', 'raisedAt');
    for (let k = 1; k <= 30; k++) {
      const d = new Date(now.getTime() - k * 86_400_000).toISOString().slice(0, 10);
      expect(incidentDays.has(d) && alarmDays.has(d), d).toBe(true);
    }
  });
});
