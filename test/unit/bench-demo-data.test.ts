/**
 * The demo seed's Office 365 and recommendation data (`scripts/local/demo-data.ts`). The bench's local
 * stack runs without the collector simulator, so these records are what its "typical call" on
 * GET /office365/alarms, /office365/events and /recommendations reads (and what `npm start -- --no-collector`
 * shows): they must be valid for the contract, fixed (idempotent seed), recent and per tenant.
 */
import { describe, expect, it } from 'vitest';
import { Office365Alarm, Office365Event, Recommendation } from '../../lambdas/contract/schemas.js';
import { DEMO_RECOMMENDATIONS, DEMO_TENANTS, demoO365Alarms, demoO365Events, demoRecommendations, o365Result } from '../../scripts/local/demo-data.js';

const NOW = Date.parse('2026-11-20T12:00:00.000Z');
const DAY = 86_400_000;
const [acme, globex] = DEMO_TENANTS as [(typeof DEMO_TENANTS)[0], (typeof DEMO_TENANTS)[0]];

describe('demo Office 365 events', () => {
  it('are valid audit records of the tenant, within the 14 days before now, with unique fixed ids', () => {
    const evs = demoO365Events(acme, NOW);
    expect(evs).toHaveLength(60);
    for (const e of evs) {
      expect(Office365Event.parse(e)).toEqual(e);
      expect(e.tenantId).toBe('acme');
      expect(e.user).toMatch(/@acme\.example$/);
      const at = Date.parse(e.at);
      expect(at).toBeLessThan(NOW);
      expect(at).toBeGreaterThan(NOW - 14 * DAY - DAY);
    }
    expect(new Set(evs.map((e) => e.id)).size).toBe(60);
    expect(evs[0]!.id).toBe('o365-ev-demo-acme-001');
    expect(new Set(evs.map((e) => e.workload)).size).toBeGreaterThan(2);
    expect(evs.some((e) => e.result === 'Failed') && evs.some((e) => e.result === 'Succeeded')).toBe(true);
  });

  it('never show a failed sign-in as succeeded (seed and collector share o365Result)', () => {
    const failedLogins = demoO365Events(acme, NOW, 400).filter((e) => e.operation === 'UserLoginFailed');
    expect(failedLogins.length).toBeGreaterThan(0);
    expect(failedLogins.every((e) => e.result === 'Failed')).toBe(true);
    expect(o365Result('UserLoginFailed', () => 0.99, 0)).toBe('Failed');
    expect(o365Result('UserLoggedIn', () => 0.99, 0.15)).toBe('Succeeded');
    expect(o365Result('UserLoggedIn', () => 0.01, 0.15)).toBe('Succeeded'); // a failed sign-in is UserLoginFailed
  });

  it('are the same for the same inputs and differ between tenants', () => {
    expect(demoO365Events(acme, NOW)).toEqual(demoO365Events(acme, NOW));
    const g = demoO365Events(globex, NOW);
    expect(g.every((e) => e.tenantId === 'globex' && !JSON.stringify(e).includes('acme'))).toBe(true);
  });
});

describe('demo Office 365 alerts', () => {
  it('cover every status, the newest active, valid and per tenant', () => {
    for (const t of DEMO_TENANTS) {
      const alarms = demoO365Alarms(t, NOW);
      expect(alarms.map((a) => a.status)).toEqual(['resolved', 'resolved', 'resolved', 'investigating', 'active', 'active']);
      for (const a of alarms) {
        expect(Office365Alarm.parse(a)).toEqual(a);
        expect(a.id).toMatch(new RegExp(`^o365-demo-${t.id}-\\d$`));
        expect(Date.parse(a.detectedAt)).toBeLessThan(NOW);
        expect(Date.parse(a.updatedAt)).toBeGreaterThanOrEqual(Date.parse(a.detectedAt));
        expect(Date.parse(a.updatedAt)).toBeLessThanOrEqual(NOW);
        expect(JSON.stringify(a)).not.toContain(t.id === 'acme' ? 'globex' : 'acme');
      }
    }
  });
});

describe('demo recommendations', () => {
  it("are the collector's four (same ids), open except one accepted by the tenant's user with a note", () => {
    const recs = demoRecommendations(acme, NOW, 'ana@acme.example');
    expect(recs.map((r) => r.id)).toEqual(['rec-demo-acme-1', 'rec-demo-acme-2', 'rec-demo-acme-3', 'rec-demo-acme-4']);
    expect(recs.map((r) => r.title)).toEqual(DEMO_RECOMMENDATIONS.map((r) => r[0]));
    for (const r of recs) expect(Recommendation.parse(r)).toEqual(r);
    expect(recs.map((r) => r.status)).toEqual(['open', 'open', 'accepted', 'open']);
    expect(recs[2]).toMatchObject({ statusChangedBy: 'ana@acme.example', statusNote: expect.stringMatching(/\S/) });
    expect(Date.parse(recs[2]!.statusChangedAt!)).toBeGreaterThan(Date.parse(recs[2]!.createdAt));
  });
});
