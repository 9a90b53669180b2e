/** The scheduled jobs' shared steps (`lambdas/domain/tenant-jobs.ts`, `deliveryStatusAt` of notification-delivery.ts). */
import { describe, expect, it } from 'vitest';
import { forEachTenant, subscribedMembers } from '../../../lambdas/domain/tenant-jobs.js';
import { deliveryStatusAt, type DeliveryRecord } from '../../../lambdas/domain/notification-delivery.js';

describe('forEachTenant', () => {
  it('visits every page of the registry in order; a failing tenant counts as open and the run goes on', async () => {
    const pages: Record<string, { tenantIds: string[]; cursor?: string }> = { start: { tenantIds: ['a', 'b'], cursor: 'p2' }, p2: { tenantIds: ['c'] } };
    const visited: string[] = [];
    const errors: string[] = [];
    const out = { tenants: 0, open: 0 };
    await forEachTenant(
      async (c) => pages[c ?? 'start']!,
      async (t) => {
        visited.push(t);
        if (t === 'b') throw new Error('throttled');
      },
      out,
      (t, e) => errors.push(`${t}: ${(e as Error).message}`),
    );
    expect(visited).toEqual(['a', 'b', 'c']);
    expect(out).toEqual({ tenants: 3, open: 1 });
    expect(errors).toEqual(['b: throttled']);
  });

  it("lets the registry's own error end the run", async () => {
    await expect(forEachTenant(async () => Promise.reject(new Error('registry down')), async () => undefined, { tenants: 0, open: 0 })).rejects.toThrow('registry down');
  });
});

describe('subscribedMembers', () => {
  it('keeps enabled subscribers with an address, each once, in sub order', () => {
    const members = [
      { sub: 'c', email: 'c@x.test', enabled: true },
      { sub: 'a', email: 'a@x.test', enabled: true },
      { sub: 'a', email: 'a@x.test', enabled: true },
      { sub: 'b', email: 'b@x.test', enabled: false },
      { sub: 'd', email: '', enabled: true },
      { sub: 'e', email: 'e@x.test', enabled: true },
    ];
    const subs = new Map([['a', 'es'], ['b', 'es'], ['c', 'en'], ['d', 'es']]);
    expect(subscribedMembers(members, subs).map((x) => [x.member.sub, x.prefs])).toEqual([['a', 'es'], ['c', 'en']]);
  });
});

describe('deliveryStatusAt', () => {
  const at = new Date('2026-03-01T10:00:00.000Z');
  const rec = (r: Partial<DeliveryRecord>) => ({ deliveryId: 'x', tenantId: 't', eventId: 'e', channel: 'email', recipient: 's', attempts: 1, createdAt: '', updatedAt: '', kind: 'k', title: 't', state: 'sent', ...r }) as DeliveryRecord;
  it('done, waiting or due by the record and the time', () => {
    expect(deliveryStatusAt(undefined, at)).toBe('due');
    expect(deliveryStatusAt(rec({ state: 'sent' }), at)).toBe('done');
    expect(deliveryStatusAt(rec({ state: 'dead' }), at)).toBe('done');
    expect(deliveryStatusAt(rec({ state: 'failed', nextAttemptAt: '2026-03-01T10:05:00.000Z' }), at)).toBe('waiting');
    expect(deliveryStatusAt(rec({ state: 'failed', nextAttemptAt: '2026-03-01T09:55:00.000Z' }), at)).toBe('due');
    expect(deliveryStatusAt(rec({ state: 'sending', leaseUntil: '2026-03-01T10:01:00.000Z' }), at)).toBe('waiting');
    expect(deliveryStatusAt(rec({ state: 'sending', leaseUntil: '2026-03-01T09:59:00.000Z' }), at)).toBe('due');
  });
});
