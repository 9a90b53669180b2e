/**
 * The scale section's declarations (`scripts/bench/scale.ts`, `scale-pages.ts`, `scale-data.ts`): routes
 * come from the route table so a new GET route is measured without a change to the bench, the variants
 * and page views name real GET routes, and the generator's scales are the documented ones.
 */
import { describe, expect, it } from 'vitest';
import { ROUTES, routeById, type RouteDef } from '../../lambdas/contract/routes.js';
import { ROUTE_VARIANTS, scaleGetRoutes } from '../../scripts/bench/scale.js';
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

  it('declares variants and page calls of GET routes only', () => {
    for (const op of Object.keys(ROUTE_VARIANTS)) expect(routeById(op as never).method).toBe('GET');
    for (const p of PAGE_VIEWS) for (const c of p.calls) expect(routeById(c.operationId).method, `${p.page} ${c.operationId}`).toBe('GET');
    expect(PAGE_VIEWS.map((p) => p.page)).toEqual(expect.arrayContaining(['dashboard', 'calendar', 'reports-365d', 'analytics-365d', 'incidents', 'devices', 'search']));
  });

  it('sizes the tenants 50 / 500 / 5,000 devices with 10 incidents each', () => {
    expect(SCALE_FACTORS.map((f) => [scaleSpec(f).devices, scaleSpec(f).incidents, scaleSpec(f).tenantId])).toEqual([
      [50, 500, 'scale-x1'],
      [500, 5000, 'scale-x10'],
      [5000, 50000, 'scale-x100'],
    ]);
    expect(() => scaleSpec(0)).toThrow(RangeError);
  });

  it('builds items with the entity keys, 90 days of availability per reporting device, every incident once', () => {
    const now = new Date('2026-03-01T12:00:00.000Z');
    const items = [...scaleItems(scaleSpec(1), now)];
    const count = (e: string) => items.filter((i) => i.entity === e).length;
    expect(count('Device')).toBe(50);
    expect(count('Incident')).toBe(500);
    expect(count('DailyAvailability') % 90).toBe(0);
    expect(new Set(items.map((i) => `${String(i.PK)}|${String(i.SK)}`)).size).toBe(items.length);
    expect(items.every((i) => String(i.PK).startsWith('TENANT#scale-x1#') || String(i.PK) === 'TENANT#scale-x1')).toBe(true);
  });
});
