/** Which change becomes which activity event (lambdas/domain/activity.ts; docs/notifications.md#kinds). */
import { describe, expect, it } from 'vitest';
import { ActivityEvent, type DeviceAlarm, type Incident, type IncidentChange } from '../../../lambdas/contract/schemas.js';
import {
  alarmEvent,
  incidentCommentEvent,
  incidentCreatedEvent,
  incidentUpdateEvent,
  isUnreadFor,
  office365AlertEvent,
  recommendationAddedEvent,
  slaEventId,
  slaEvents,
  ulid,
} from '../../../lambdas/domain/activity.js';
import { newIncident } from '../../../lambdas/domain/incidents.js';

const T0 = '2026-03-01T10:00:00.000Z';
const inc: Incident = { ...newIncident('acme', 7, { title: 'Phishing a contabilidad', description: 'd', severity: 'high', category: 'phishing' }, 'ana@acme.example', T0), reporterSub: 'sub-ana' };

function change(next: Incident, changes: IncidentChange['changes'], by = 'soc@vigia.example', bySub = 'sub-soc'): IncidentChange {
  return { version: next.version, at: '2026-03-01T11:00:00.000Z', by, bySub, changes };
}

describe('incident events', () => {
  it('created: the reporter is the actor, the link carries the tenant, the item matches the contract', () => {
    const e = incidentCreatedEvent(inc);
    expect(ActivityEvent.parse(e)).toEqual(e);
    expect(e).toMatchObject({
      tenantId: 'acme',
      kind: 'incident.created',
      severity: 'high',
      at: T0,
      actor: { name: 'ana@acme.example', sub: 'sub-ana' },
      subject: { type: 'incident', id: 'INC-000007' },
      title: 'Nuevo incidente INC-000007: Phishing a contabilidad',
      link: '/ticket/update/INC-000007?tenant=acme',
      outbox: 'PENDING',
    });
    expect(e.eventId).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
  });

  it('an incident opened by a collector has no actor', () => {
    expect(incidentCreatedEvent({ ...inc, source: 'alarm', reporter: 'collector', reporterSub: undefined }).actor).toBeNull();
  });

  it('status changes: resolved, closed and the others, with Spanish labels', () => {
    const to = (status: Incident['status']) => ({ ...inc, status, version: 2 });
    const ev = (from: Incident, next: Incident) => incidentUpdateEvent(from, next, change(next, [{ field: 'status', from: from.status, to: next.status }]), null);
    expect(ev(inc, to('in_progress'))).toMatchObject({ kind: 'incident.status_changed', title: 'INC-000007: estado «Nuevo» → «En curso»', actor: { name: 'soc@vigia.example', sub: 'sub-soc' }, at: '2026-03-01T11:00:00.000Z' });
    expect(ev(to('in_progress'), to('resolved'))?.kind).toBe('incident.resolved');
    expect(ev(to('resolved'), to('closed'))?.kind).toBe('incident.closed');
    expect(ev(to('resolved'), to('in_progress'))?.title).toBe('INC-000007: estado «Resuelto» → «En curso»');
  });

  it('triage without a status change is incident.triaged; a comment-only update is incident.commented; other fields none', () => {
    const next = { ...inc, severity: 'critical' as const, version: 2 };
    expect(incidentUpdateEvent(inc, next, change(next, [{ field: 'severity', from: 'high', to: 'critical' }]), null)).toMatchObject({ kind: 'incident.triaged', severity: 'critical', title: 'INC-000007 clasificado: severidad crítica' });
    const same = { ...inc, version: 2 };
    const comment = { id: 'c1', author: 'ana@acme.example', authorSub: 'sub-ana', body: 'hola', createdAt: '2026-03-01T11:00:00.000Z', visibility: 'public' as const };
    expect(incidentUpdateEvent(inc, same, change(same, [], 'ana@acme.example', 'sub-ana'), comment)).toMatchObject({ kind: 'incident.commented', severity: 'info' });
    const assigned = { ...inc, assignee: 'soc@vigia.example', version: 2 };
    expect(incidentUpdateEvent(inc, assigned, change(assigned, [{ field: 'assignee', from: null, to: 'soc@vigia.example' }]), null)).toBeNull();
  });

  it('a comment on its own', () => {
    const e = incidentCommentEvent('acme', 'INC-000007', { id: 'c1', author: 'soc@vigia.example', authorSub: 'sub-soc', body: 'x', createdAt: T0, visibility: 'public' });
    expect(e).toMatchObject({ kind: 'incident.commented', severity: 'info', at: T0, actor: { sub: 'sub-soc' }, title: 'Nuevo comentario de soc@vigia.example en INC-000007' });
  });

  it('titles are one line of at most 200 characters', () => {
    const e = incidentCreatedEvent({ ...inc, title: `a\nb ${'x'.repeat(400)}` });
    expect(e.title.length).toBe(200);
    expect(e.title).not.toContain('\n');
  });
});

describe('alarm, Office 365 and recommendation events', () => {
  const alarm: DeviceAlarm = { id: 'al-1', tenantId: 'acme', deviceId: 'fw-1', title: 'CPU alta', severity: 'critical', state: 'active', raisedAt: T0, acknowledgedAt: null, acknowledgedBy: null, clearedAt: null };

  it('raised, acknowledged and cleared for critical and high; none for medium/low or a replay', () => {
    expect(alarmEvent(null, alarm)).toMatchObject({ kind: 'alarm.raised', severity: 'critical', actor: null, subject: { type: 'alarm', id: 'fw-1/al-1' }, link: '/devices/detail/fw-1?tenant=acme' });
    const acked = { ...alarm, state: 'acknowledged' as const, acknowledgedAt: '2026-03-01T10:05:00.000Z', acknowledgedBy: 'ana@acme.example', acknowledgedBySub: 'sub-ana' };
    expect(alarmEvent(alarm, acked)).toMatchObject({ kind: 'alarm.acknowledged', severity: 'info', at: '2026-03-01T10:05:00.000Z', actor: { name: 'ana@acme.example', sub: 'sub-ana' } });
    expect(alarmEvent(acked, { ...acked, state: 'cleared', clearedAt: '2026-03-01T10:09:00.000Z' })).toMatchObject({ kind: 'alarm.cleared', at: '2026-03-01T10:09:00.000Z' });
    expect(alarmEvent(null, { ...alarm, severity: 'medium' })).toBeNull();
    expect(alarmEvent(alarm, alarm)).toBeNull();
  });

  it('an Office 365 alert only when first stored; a recommendation with its priority as severity', () => {
    const a = { id: 'o1', tenantId: 'acme', title: 'Reenvío sospechoso', severity: 'high' as const, category: 'c', status: 'active' as const, affectedUser: null, detectedAt: T0, updatedAt: T0 };
    expect(office365AlertEvent(null, a)).toMatchObject({ kind: 'office365.alert_raised', title: 'Alerta de Office 365: Reenvío sospechoso', link: '/office365/alarms?tenant=acme' });
    expect(office365AlertEvent(a, { ...a, status: 'resolved' })).toBeNull();
    const r = { id: 'rec-1', tenantId: 'acme', title: 'Activar MFA', rationale: 'r', priority: 'medium' as const, category: 'c', status: 'open' as const, createdAt: T0, statusNote: null, statusChangedBy: null, statusChangedAt: null };
    expect(recommendationAddedEvent(r as never)).toMatchObject({ kind: 'recommendation.added', severity: 'medium', title: 'Nueva recomendación: Activar MFA' });
  });
});

describe('SLA events', () => {
  // high: 8 h window from T0 → due 18:00; at risk from 16:00 (25 % left).
  const due = inc.slaDueAt;
  it('none before the threshold, at_risk dated at the threshold, breached dated at the deadline; ids deterministic', () => {
    expect(due).toBe('2026-03-01T18:00:00.000Z');
    expect(slaEvents(inc, new Date('2026-03-01T15:59:00Z'))).toEqual([]);
    const [risk] = slaEvents(inc, new Date('2026-03-01T16:30:00Z'));
    expect(risk).toMatchObject({ kind: 'sla.at_risk', at: '2026-03-01T16:00:00.000Z', eventId: slaEventId('sla.at_risk', inc), actor: null });
    expect(slaEvents(inc, new Date('2026-03-01T17:00:00Z'))[0]).toEqual(risk);
    const [breach] = slaEvents(inc, new Date('2026-03-01T19:00:00Z'));
    expect(breach).toMatchObject({ kind: 'sla.breached', at: due, eventId: 'SLA-BREACH-INC-000007-20260301180000' });
    expect(ActivityEvent.parse(breach)).toEqual(breach);
  });
  it('none for resolved or closed incidents; a moved deadline gives new ids', () => {
    expect(slaEvents({ ...inc, status: 'resolved', resolvedAt: T0 }, new Date('2026-03-02T00:00:00Z'))).toEqual([]);
    expect(slaEventId('sla.breached', { ...inc, slaDueAt: '2026-03-01T14:00:00.000Z' })).not.toBe(slaEventId('sla.breached', inc));
  });
  it('the at-risk lead is at most 24 h for long windows', () => {
    const long = { ...inc, slaDueAt: '2026-03-11T10:00:00.000Z' };
    expect(slaEvents(long, new Date('2026-03-10T09:59:00Z'))).toEqual([]);
    expect(slaEvents(long, new Date('2026-03-10T10:00:00Z'))[0]?.kind).toBe('sla.at_risk');
  });
});

describe('ids and unread', () => {
  it('ULIDs sort by time', () => {
    const a = ulid(Date.parse('2026-03-01T10:00:00Z'));
    const b = ulid(Date.parse('2026-03-01T10:00:00.001Z'));
    expect(a < b).toBe(true);
    expect(ulid(0, (x) => x.fill(0))).toBe('0'.repeat(26));
  });
  it("the caller's own events are never unread", () => {
    expect(isUnreadFor({ actor: { name: 'a', sub: 's1' } }, 's1')).toBe(false);
    expect(isUnreadFor({ actor: null }, 's1')).toBe(true);
  });
});
