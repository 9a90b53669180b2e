/**
 * Triage first (docs/sla.md#triage-first) over the REAL incidents handler on dynoxide, every response checked
 * against the OpenAPI document: staff cannot move an untriaged incident to a provider status
 * (`PROVIDER_STATUSES`) — 409 TRIAGE_REQUIRED and nothing written (incident, history, audit) — unless the
 * same PATCH carries the triage (severity + reason), which then triages it with the tenant's contract targets,
 * in one history entry with the reason and one `incident.triage` audit entry. An incident triaged before
 * moves as always; customers cannot send a triage (403).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startInProcessApi, type InProcessApi } from '../support/in-process-api.js';
import type { ApiHandler } from '../../lambdas/http/api.js';
import type { Incident, IncidentDetail } from '../../lambdas/contract/schemas.js';
import { bodyOf, type CallerSpec } from '../support/events.js';

const TABLE = 'vigia-triage-first-main';
const alice: CallerSpec = { sub: 'sub-alice', email: 'alice@acme.example', groups: ['acme'] };
const soc: CallerSpec = { sub: 'sub-soc', email: 'soc@vigia.example', groups: ['admin'] };
const T0 = Date.parse('2026-05-04T08:00:00.000Z');
const MIN = 60_000;
let clock = T0;
let api: InProcessApi;
let incidents: ApiHandler;

const staff = { tenant: 'acme' };
const open = async (severity = 'medium') => {
  const r = await call(incidents, { method: 'POST', path: '/incidents', caller: alice, body: { title: 'Correo de phishing', description: 'd', severity } });
  expect(r.statusCode, r.body).toBe(201);
  return bodyOf<Incident>(r);
};
const patch = (id: string, body: object, caller: CallerSpec = soc) => call(incidents, { method: 'PATCH', path: `/incidents/${id}`, caller, body, query: caller === soc ? staff : {} });
const detail = async (id: string) => bodyOf<IncidentDetail>(await call(incidents, { method: 'GET', path: `/incidents/${id}`, caller: soc, query: staff }));
const auditOf = async (id: string) => (await api.repository.audit.listTenant('acme', { limit: 100 })).items.filter((e) => e.target.id === id);

beforeAll(async () => {
  api = await startInProcessApi({ table: TABLE });
  incidents = api.handler('incidents', { now: () => new Date(clock) });
  await api.data.putTenant({ id: 'acme', name: 'Acme', slaTargets: { high: { responseMinutes: 30, resolutionMinutes: 120 } } });
});
afterAll(async () => {
  await api?.stop();
});

describe('triage first', () => {
  it('answers 409 TRIAGE_REQUIRED to a provider status on an untriaged incident and writes nothing', async () => {
    clock = T0;
    const inc = await open();
    clock = T0 + 5 * MIN;
    const r = await patch(inc.id, { version: 1, status: 'in_progress', assignee: null });
    expect(r.statusCode, r.body).toBe(409);
    expect(bodyOf<{ code: string; details: unknown }>(r)).toMatchObject({ code: 'TRIAGE_REQUIRED', details: { from: 'new', to: 'in_progress', fields: ['triage'] } });
    const d = await detail(inc.id);
    expect(d).toMatchObject({ version: 1, status: 'new', triagedAt: null, firstAcknowledgedAt: null });
    expect(d.history).toEqual([]);
    expect((await auditOf(inc.id)).map((e) => e.action)).toEqual(['incident.create']);
    // An invalid transition is still INVALID_TRANSITION (the lifecycle first), not a triage question.
    const bad = await patch(inc.id, { version: 1, status: 'resolved' });
    expect(bodyOf<{ code: string }>(bad).code).toBe('INVALID_TRANSITION');
    // Changes that are not a provider status need no triage.
    const ok = await patch(inc.id, { version: 1, category: 'phishing', comment: 'Revisando cabeceras' });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('moves and triages in one request when the PATCH carries the triage (severity + reason): one history entry, one incident.triage audit entry', async () => {
    clock = T0;
    const inc = await open('medium');
    clock = T0 + 10 * MIN;
    const r = await patch(inc.id, { version: 1, status: 'in_progress', triage: { severity: 'high', reason: 'Credenciales de un administrador' } });
    expect(r.statusCode, r.body).toBe(200);
    const at = new Date(T0 + 10 * MIN).toISOString();
    expect(bodyOf<Incident>(r)).toMatchObject({
      version: 2,
      status: 'in_progress',
      severity: 'high',
      triagedAt: at,
      firstAcknowledgedAt: at,
      // The tenant's contract targets of the triaged severity.
      slaTargets: { responseMinutes: 30, resolutionMinutes: 120 },
      slaDueAt: new Date(T0 + 120 * MIN).toISOString(),
    });
    const d = await detail(inc.id);
    expect(d.history).toHaveLength(1);
    expect(d.history[0]).toMatchObject({ version: 2, at, by: 'soc@vigia.example', reason: 'Credenciales de un administrador' });
    expect(d.history[0]!.changes).toEqual(
      expect.arrayContaining([
        { field: 'severity', from: 'medium', to: 'high' },
        { field: 'slaTargets', from: null, to: 'response 30 min, resolution 120 min' },
        { field: 'status', from: 'new', to: 'in_progress' },
      ]),
    );
    const audit = await auditOf(inc.id);
    expect(audit.map((e) => e.action).sort()).toEqual(['incident.create', 'incident.triage']);
    expect(audit.find((e) => e.action === 'incident.triage')).toMatchObject({ before: { status: 'new', severity: 'medium' }, after: { status: 'in_progress', severity: 'high' } });
    // Triaged now: later provider statuses need no new triage.
    const hold = await patch(inc.id, { version: 2, status: 'on_hold' });
    expect(hold.statusCode, hold.body).toBe(200);
  });

  it('an incident triaged by POST /triage moves without a triage in the PATCH; a customer cannot send one', async () => {
    clock = T0;
    const inc = await open('low');
    const t = await call(incidents, { method: 'POST', path: `/incidents/${inc.id}/triage`, caller: soc, query: staff, body: { version: 1, severity: 'low', reason: 'Sin impacto' } });
    expect(t.statusCode, t.body).toBe(200);
    const r = await patch(inc.id, { version: 2, status: 'in_progress' });
    expect(r.statusCode, r.body).toBe(200);
    const c = await patch(inc.id, { version: 3, triage: { severity: 'critical', reason: 'Lo digo yo' } }, alice);
    expect(c.statusCode, c.body).toBe(403);
    expect(bodyOf<{ code: string }>(c).code).toBe('FORBIDDEN');
    // A triage with a reason too short is refused at the edge.
    const short = await patch(inc.id, { version: 3, triage: { severity: 'high', reason: 'no' } });
    expect(short.statusCode).toBe(400);
  });
});
