/**
 * Pure incident role and SLA rules (`lambdas/domain/incidents.ts`; docs/sla.md, docs/api.md#incident-roles):
 * the customer/staff PATCH matrix, triage targets, the fixed SLA result, the reopen grace period and the
 * upgrade of incidents stored before the SLA fields.
 */
import { describe, expect, it } from 'vitest';
import {
  assertPatchAllowed,
  newIncident,
  planConfirmResolution,
  planReopen,
  planTriage,
  planUpdate,
  targetsFor,
  upgradeIncident,
} from '../../../lambdas/domain/incidents.js';
import type { Incident } from '../../../lambdas/contract/schemas.js';

const T0 = '2026-03-01T10:00:00.000Z';
const at = (min: number) => new Date(Date.parse(T0) + min * 60_000).toISOString();
const base = newIncident('acme', 1, { title: 'Phishing', description: 'd', severity: 'medium', category: 'mail' }, 'ana@acme.example', T0);
const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as { code: string }).code;
  }
  return 'OK';
};

describe('PATCH per role', () => {
  it('refuses customers severity, assignee and status; staff change severity only by triage', () => {
    for (const f of [{ severity: 'low' as const }, { assignee: 'x@y.z' }, { status: 'in_progress' as const }]) {
      expect(code(() => assertPatchAllowed(base, { version: 1, ...f }, false))).toBe('FORBIDDEN');
    }
    expect(code(() => assertPatchAllowed(base, { version: 1, title: 'Otro', comment: 'c' }, false))).toBe('OK');
    expect(code(() => assertPatchAllowed(base, { version: 1, severity: 'low' }, true))).toBe('VALIDATION_FAILED');
    expect(code(() => assertPatchAllowed(base, { version: 1, status: 'in_progress', assignee: 'x@y.z' }, true))).toBe('OK');
  });
});

describe('triage first (docs/sla.md#triage-first)', () => {
  it('refuses a provider status on an untriaged incident unless the patch carries the triage, which it applies', () => {
    const ack = { ...base, status: 'in_progress' as const, firstAcknowledgedAt: at(1) };
    for (const [from, to] of [[base, 'in_progress'], [ack, 'on_hold'], [ack, 'resolved']] as const) {
      try {
        planUpdate(from, { version: 1, status: to }, 's', at(10));
        expect.unreachable();
      } catch (e) {
        expect(e).toMatchObject({ code: 'TRIAGE_REQUIRED', details: { from: from.status, to, fields: ['triage'] } });
      }
    }
    const p = planUpdate(base, { version: 1, status: 'in_progress', triage: { severity: 'high', reason: 'Credenciales robadas' } }, 's', at(10), { staff: true }, { slaTargets: { high: { responseMinutes: 5, resolutionMinutes: 90 } } });
    expect(p.incident).toMatchObject({ version: 2, status: 'in_progress', severity: 'high', triagedAt: at(10), firstAcknowledgedAt: at(10), slaDueAt: at(90), slaTargets: { responseMinutes: 5, resolutionMinutes: 90 } });
    expect(p.change).toMatchObject({ version: 2, reason: 'Credenciales robadas' });
    // Non-provider changes need none; a customer cannot send a triage.
    expect(code(() => planUpdate(base, { version: 1, title: 'Otro' }, 's', at(10)))).toBe('OK');
    expect(code(() => assertPatchAllowed(base, { version: 1, triage: { severity: 'low', reason: 'leve' } }, false))).toBe('FORBIDDEN');
  });
});

describe('triage and the SLA result', () => {
  it('fixes the contract targets (default when the contract has none) and records the reason', () => {
    expect(targetsFor(null, 'critical')).toEqual({ responseMinutes: 15, resolutionMinutes: 240 });
    expect(targetsFor({ slaTargets: { high: { responseMinutes: 5, resolutionMinutes: 90 } } }, 'high')).toEqual({ responseMinutes: 5, resolutionMinutes: 90 });
    const t = planTriage(base, { version: 1, severity: 'high', reason: 'Credenciales robadas' }, { slaTargets: { high: { responseMinutes: 5, resolutionMinutes: 90 } } }, 'soc@v.example', at(3));
    expect(t.incident).toMatchObject({ severity: 'high', slaTargets: { responseMinutes: 5, resolutionMinutes: 90 }, slaDueAt: at(90), triagedAt: at(3), version: 2 });
    expect(t.change).toMatchObject({ by: 'soc@v.example', at: at(3), reason: 'Credenciales robadas' });
  });

  it('fixes the result at the first close; a closed incident cannot be triaged; reopening keeps the result', () => {
    const ack = planUpdate({ ...base, triagedAt: at(5) }, { version: 1, status: 'in_progress' }, 's', at(10)).incident;
    expect(ack.firstAcknowledgedAt).toBe(at(10));
    const resolved = planUpdate(ack, { version: 2, status: 'resolved' }, 's', at(24 * 60 + 1)).incident; // medium: 24 h
    const closed = planConfirmResolution(resolved, undefined, 'ana', at(24 * 60 + 5)).incident;
    expect(closed).toMatchObject({ status: 'closed', slaResult: 'breached', closedAt: at(24 * 60 + 5) });
    expect(code(() => planTriage(closed, { version: closed.version, severity: 'low', reason: 'rebajar' }, null, 's', at(24 * 60 + 6)))).toBe('INVALID_TRANSITION');
    const reopened = planReopen(closed, 'Otra vez', 'ana', at(24 * 60 + 10)).incident;
    expect(reopened).toMatchObject({ status: 'in_progress', slaResult: 'breached', resolvedAt: null });
    const again = planUpdate(planUpdate(reopened, { version: reopened.version, status: 'resolved' }, 's', at(24 * 60 + 20)).incident, { version: reopened.version + 1, status: 'closed' }, 's', at(24 * 60 + 30)).incident;
    expect(again.slaResult).toBe('breached');
    expect(again.firstAcknowledgedAt).toBe(at(10));
  });

  it('allows reopening for 7 days after resolution, not later', () => {
    const resolved: Incident = { ...base, status: 'resolved', resolvedAt: at(60) };
    expect(code(() => planReopen(resolved, 'sigue', 'ana', at(60 + 7 * 24 * 60)))).toBe('OK');
    expect(code(() => planReopen(resolved, 'sigue', 'ana', at(61 + 7 * 24 * 60)))).toBe('INVALID_TRANSITION');
    expect(code(() => planReopen(base, 'sigue', 'ana', at(1)))).toBe('INVALID_TRANSITION');
  });
});

describe('upgrade of stored incidents', () => {
  it('derives the fields from the history and is idempotent', () => {
    const { slaTargets: _a, triagedAt: _b, firstAcknowledgedAt: _c, closureRequested: _d, closedAt: _e, slaResult: _f, ...legacy } = {
      ...base, status: 'closed' as const, resolvedAt: at(30), version: 4,
    };
    const history = [
      { version: 2, at: at(5), by: 'x', changes: [{ field: 'status', from: 'new', to: 'in_progress' }] },
      { version: 4, at: at(40), by: 'x', changes: [{ field: 'status', from: 'resolved', to: 'closed' }] },
    ];
    const up = upgradeIncident(legacy, history);
    expect(up).toMatchObject({ firstAcknowledgedAt: at(5), closedAt: at(40), slaResult: 'met', closureRequested: false, slaTargets: { responseMinutes: 240, resolutionMinutes: 24 * 60 } });
    expect(upgradeIncident(up, [])).toEqual(up);
  });
});
