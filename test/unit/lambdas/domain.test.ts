import { describe, expect, it } from 'vitest';
import { assertGroups, identityFromClaims, parseGroups, resolveTenant, type Identity } from '../../../lambdas/domain/identity.js';
import { ApiError } from '../../../lambdas/domain/errors.js';
import { canTransition, formatIncidentId, newIncident, planUpdate, SLA_HOURS, slaDueAt, TRANSITIONS } from '../../../lambdas/domain/incidents.js';
import { availability30d, availabilityWindowStart, deviceStatus, HEARTBEAT_THRESHOLDS_MS } from '../../../lambdas/domain/devices.js';
import { INCIDENT_STATUSES, type Incident } from '../../../lambdas/contract/schemas.js';

async function codeOf(p: Promise<unknown> | (() => unknown)): Promise<string | undefined> {
  try {
    await (typeof p === 'function' ? p() : p);
    return undefined;
  } catch (e) {
    if (e instanceof ApiError) return e.code;
    throw e;
  }
}

describe('cognito:groups parsing', () => {
  it.each([
    ['acme,admin', ['acme', 'admin']],
    ['acme, admin', ['acme', 'admin']],
    ['acme admin', ['acme', 'admin']],
    ['[acme admin]', ['acme', 'admin']],
    ['[acme, admin]', ['acme', 'admin']],
    ['["acme","admin"]', ['acme', 'admin']],
    ['acme', ['acme']],
    ['[]', []],
    ['', []],
    ['  ', []],
    ['acme,acme', ['acme']],
  ])('%j → %j', (raw, expected) => {
    expect(parseGroups(raw)).toEqual(expected);
  });
  it('accepts real arrays and ignores non-strings', () => {
    expect(parseGroups(['acme', 3, 'globex'])).toEqual(['acme', 'globex']);
    expect(parseGroups(undefined)).toEqual([]);
    expect(parseGroups(42)).toEqual([]);
  });
});

describe('identity from claims', () => {
  it('derives tenants (groups except admin, valid ids only) and the admin flag', () => {
    const id = identityFromClaims({ sub: 's1', email: 'a@b.c', email_verified: 'true', 'cognito:groups': '[admin acme Bad_Group]' });
    expect(id).toEqual({ sub: 's1', email: 'a@b.c', groups: ['admin', 'acme', 'Bad_Group'], tenants: ['acme'], isAdmin: true, mfa: false });
  });
  // Cognito ID tokens carry `email_verified` (boolean; a string once API Gateway's authorizer flattens the
  // claims): https://docs.aws.amazon.com/cognito/latest/developerguide/amazon-cognito-user-pools-using-the-id-token.html
  it('uses the e-mail only when email_verified is true', () => {
    expect(identityFromClaims({ sub: 's1', email: 'a@b.c', 'cognito:groups': 'acme' })!.email).toBe('');
    expect(identityFromClaims({ sub: 's1', email: 'a@b.c', email_verified: 'false', 'cognito:groups': 'acme' })!.email).toBe('');
    expect(identityFromClaims({ sub: 's1', email: 'a@b.c', email_verified: true, 'cognito:groups': 'acme' })!.email).toBe('a@b.c');
  });
  // The Cognito user-pool authorizer of a REST API accepts an ID token of any app client of the pool
  // (https://docs.aws.amazon.com/apigateway/latest/developerguide/apigateway-integrate-with-cognito.html), so
  // the Lambdas check `aud` against the portal's app client when configured.
  it('refuses a token issued to another app client when audiences are configured', () => {
    const claims = { sub: 's1', aud: 'other-client', 'cognito:groups': 'acme' };
    expect(identityFromClaims(claims)).not.toBeNull();
    expect(identityFromClaims(claims, ['portal-client'])).toBeNull();
    expect(identityFromClaims({ sub: 's1', 'cognito:groups': 'acme' }, ['portal-client'])).toBeNull();
    expect(identityFromClaims({ ...claims, aud: 'portal-client' }, ['portal-client'])!.sub).toBe('s1');
  });
  it('returns null without a sub', () => {
    expect(identityFromClaims({ email: 'x' })).toBeNull();
    expect(identityFromClaims(null)).toBeNull();
    expect(identityFromClaims({ sub: '' })).toBeNull();
  });
  it('never takes groups from anything but cognito:groups', () => {
    expect(identityFromClaims({ sub: 's', groups: 'admin', 'custom:groups': 'admin' })!.isAdmin).toBe(false);
  });
});

/** A caller of `groups`; members of admin have TOTP (`vigia:mfa`) unless `mfa` is false. */
const who = (groups: string[], mfa = groups.includes('admin')): Identity =>
  identityFromClaims({ sub: 's', 'cognito:groups': groups.join(','), ...(mfa ? { 'vigia:mfa': 'totp' } : {}) })!;

describe('route groups', () => {
  it('requires some group, and one of the listed groups when there are any', async () => {
    expect(await codeOf(() => assertGroups(who([]), []))).toBe('FORBIDDEN');
    expect(await codeOf(() => assertGroups(who(['acme']), []))).toBeUndefined();
    expect(await codeOf(() => assertGroups(who(['acme']), ['admin']))).toBe('FORBIDDEN');
    expect(await codeOf(() => assertGroups(who(['acme', 'admin']), ['admin']))).toBeUndefined();
  });
  it('requires TOTP (vigia:mfa = totp) of admin on admin rows only (docs/api.md#staff-accounts-and-totp)', async () => {
    expect(await codeOf(() => assertGroups(who(['admin'], false), ['admin']))).toBe('MFA_REQUIRED');
    expect(await codeOf(() => assertGroups(who(['admin'], false), []))).toBeUndefined();
    expect(identityFromClaims({ sub: 's', 'cognito:groups': 'admin', 'vigia:mfa': 'sms' })!.mfa).toBe(false);
  });
});

describe('tenant resolution', () => {
  const exists = async (id: string) => ['acme', 'globex'].includes(id);
  it('uses the only tenant by default', async () => {
    expect(await resolveTenant(who(['acme']), undefined, exists)).toBe('acme');
  });
  it('lets a caller pick one of its tenants and forbids others', async () => {
    expect(await resolveTenant(who(['acme', 'globex']), 'globex', exists)).toBe('globex');
    expect(await codeOf(resolveTenant(who(['acme']), 'globex', exists))).toBe('FORBIDDEN');
  });
  it('requires a choice with several tenants', async () => {
    expect(await codeOf(resolveTenant(who(['acme', 'globex']), undefined, exists))).toBe('TENANT_REQUIRED');
    expect(await codeOf(resolveTenant(who(['admin']), undefined, exists))).toBe('TENANT_REQUIRED');
  });
  it('lets admin without TOTP act on its own tenants only (403 MFA_REQUIRED elsewhere, before the existence check)', async () => {
    expect(await codeOf(resolveTenant(who(['admin'], false), 'globex', exists))).toBe('MFA_REQUIRED');
    expect(await codeOf(resolveTenant(who(['admin'], false), 'initech', exists))).toBe('MFA_REQUIRED');
    expect(await resolveTenant(who(['admin', 'acme'], false), 'acme', exists)).toBe('acme');
    expect(await resolveTenant(who(['admin', 'acme'], false), undefined, exists)).toBe('acme');
  });
  it('lets admin pick any existing tenant only', async () => {
    expect(await resolveTenant(who(['admin']), 'globex', exists)).toBe('globex');
    expect(await codeOf(resolveTenant(who(['admin']), 'initech', exists))).toBe('NOT_FOUND');
    expect(await resolveTenant(who(['admin', 'acme']), undefined, exists)).toBe('acme');
  });
  it('forbids users with no group or no tenant', async () => {
    expect(await codeOf(resolveTenant(who([]), undefined, exists))).toBe('FORBIDDEN');
    expect(await codeOf(resolveTenant(who([]), 'acme', exists))).toBe('FORBIDDEN');
    expect(await codeOf(resolveTenant(who(['Not_A_Tenant']), undefined, exists))).toBe('FORBIDDEN');
  });
  it('treats a group that looks like a tenant id but is not registered as no tenant', async () => {
    expect(await codeOf(resolveTenant(who(['soc-analysts']), undefined, exists))).toBe('FORBIDDEN');
    expect(await codeOf(resolveTenant(who(['soc-analysts']), 'soc-analysts', exists))).toBe('FORBIDDEN');
    expect(await resolveTenant(who(['acme', 'soc-analysts']), undefined, exists)).toBe('acme');
    expect(await codeOf(resolveTenant(who(['admin', 'soc-analysts']), 'soc-analysts', exists))).toBe('NOT_FOUND');
    const err = await resolveTenant(who(['acme', 'globex', 'soc-analysts']), undefined, exists).catch((e: unknown) => e);
    expect((err as { details: unknown }).details).toEqual({ tenants: ['acme', 'globex'] });
  });
});

describe('incident rules', () => {
  const created = '2025-01-01T00:00:00.000Z';
  const base: Incident = newIncident('acme', 7, { title: 'Malware', description: 'd', severity: 'medium', category: 'general' }, 'a@b.c', created);

  it('formats per-tenant ids', () => {
    expect(formatIncidentId(123)).toBe('INC-000123');
    expect(formatIncidentId(1234567)).toBe('INC-1234567');
    expect(() => formatIncidentId(0)).toThrow(RangeError);
    expect(base.id).toBe('INC-000007');
  });

  it('computes SLA due dates from one table', () => {
    expect(SLA_HOURS).toEqual({ critical: 4, high: 8, medium: 24, low: 72 });
    expect(slaDueAt(created, 'critical')).toBe('2025-01-01T04:00:00.000Z');
    expect(slaDueAt(created, 'low')).toBe('2025-01-04T00:00:00.000Z');
    expect(base.slaDueAt).toBe('2025-01-02T00:00:00.000Z');
  });

  it('allows exactly the documented transitions', () => {
    const allowed = new Set([
      'new>in_progress', 'in_progress>on_hold', 'on_hold>in_progress', 'in_progress>resolved', 'on_hold>resolved',
      'resolved>closed', 'resolved>in_progress',
    ]);
    for (const from of INCIDENT_STATUSES) for (const to of INCIDENT_STATUSES) {
      expect(canTransition(from, to), `${from}>${to}`).toBe(allowed.has(`${from}>${to}`));
    }
    expect(TRANSITIONS.closed).toEqual([]);
  });

  it('plans an update: version +1, history from → to, first acknowledgement, resolvedAt set and cleared, SLA result fixed at close', () => {
    const t1 = '2025-01-01T01:00:00.000Z';
    // Triaged (provider statuses need it: docs/sla.md#triage-first).
    const a = planUpdate({ ...base, triagedAt: created }, { version: 1, status: 'in_progress', category: 'malware', comment: 'on it' }, 'x@y.z', t1);
    expect(a.incident).toMatchObject({ version: 2, status: 'in_progress', category: 'malware', updatedAt: t1, firstAcknowledgedAt: t1 });
    expect(a.change).toEqual({
      version: 2, at: t1, by: 'x@y.z',
      changes: [{ field: 'status', from: 'new', to: 'in_progress' }, { field: 'category', from: base.category, to: 'malware' }],
    });
    expect(a.comment).toMatchObject({ author: 'x@y.z', body: 'on it', createdAt: t1 });
    const r = planUpdate(a.incident, { version: 2, status: 'resolved' }, 'x', '2025-01-01T02:00:00.000Z');
    expect(r.incident.resolvedAt).toBe('2025-01-01T02:00:00.000Z');
    const closed = planUpdate(r.incident, { version: 3, status: 'closed' }, 'x', '2025-01-01T03:00:00.000Z');
    expect(closed.incident).toMatchObject({ resolvedAt: '2025-01-01T02:00:00.000Z', closedAt: '2025-01-01T03:00:00.000Z', slaResult: 'met' });
    const reopened = planUpdate(r.incident, { version: 3, status: 'in_progress' }, 'x', '2025-01-01T03:00:00.000Z');
    expect(reopened.incident.resolvedAt).toBeNull();
  });

  it('rejects stale versions and invalid transitions with details', () => {
    try {
      planUpdate(base, { version: 5, status: 'in_progress' }, 'x', created);
      expect.unreachable();
    } catch (e) {
      expect(e).toMatchObject({ code: 'VERSION_CONFLICT', details: { currentVersion: 1 } });
    }
    try {
      planUpdate(base, { version: 1, status: 'closed' }, 'x', created);
      expect.unreachable();
    } catch (e) {
      expect(e).toMatchObject({ code: 'INVALID_TRANSITION', details: { from: 'new', to: 'closed', allowed: ['in_progress'] } });
    }
  });

  it('treats setting the current value as no change', () => {
    const p = planUpdate(base, { version: 1, status: 'new', description: 'd', comment: 'just a note' }, 'x', created);
    expect(p.change.changes).toEqual([]);
    expect(p.incident.version).toBe(2);
  });
});

describe('device rules', () => {
  const now = new Date('2025-03-10T12:00:00.000Z');
  const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();

  it('derives status at the threshold boundaries', () => {
    expect(HEARTBEAT_THRESHOLDS_MS).toEqual({ online: 300_000, degraded: 900_000 });
    expect(deviceStatus(null, now)).toBe('unknown');
    expect(deviceStatus('garbage', now)).toBe('unknown');
    expect(deviceStatus(ago(0), now)).toBe('online');
    expect(deviceStatus(ago(300_000), now)).toBe('online');
    expect(deviceStatus(ago(300_001), now)).toBe('degraded');
    expect(deviceStatus(ago(900_000), now)).toBe('degraded');
    expect(deviceStatus(ago(900_001), now)).toBe('offline');
    expect(deviceStatus(ago(-60_000), now)).toBe('online');
  });

  it('weights availability by monitored time over the 30-day window', () => {
    expect(availabilityWindowStart(now)).toBe('2025-02-09');
    const full = 86_400;
    expect(availability30d([], now)).toBeNull();
    expect(
      availability30d(
        [
          { date: '2025-03-10', availablePct: 100, monitoredSeconds: full },
          { date: '2025-03-09', availablePct: 50, monitoredSeconds: full },
          { date: '2025-02-08', availablePct: 0, monitoredSeconds: full }, // outside
          { date: '2025-02-09', availablePct: 99.999, monitoredSeconds: 0 }, // no weight
        ],
        now,
      ),
    ).toBe(75);
    expect(availability30d([{ date: '2025-03-01', availablePct: 99.996, monitoredSeconds: full / 2 }, { date: '2025-03-02', availablePct: 90, monitoredSeconds: full / 2 }], now)).toBe(95);
    expect(availability30d([{ date: '2025-03-01', availablePct: 150, monitoredSeconds: full }], now)).toBe(100);
  });
});
