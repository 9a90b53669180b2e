/**
 * Demo activity events (docs/notifications.md, docs/local-emulation.md#demo-data): the seed stores incidents
 * with `putIncident`, which writes no event, so the feed of a fresh local stack would only hold the events of
 * the seeded Office 365 alerts and recommendations. This adds, per tenant, the events of its
 * `DEMO_ACTIVITY_INCIDENTS` newest incidents — created, and each status change of their history — with
 * deterministic ids (`DEMO-<incident>-<version>`), written with `putActivityEventOnce`. Run after the
 * incidents are stored; on an existing `.local/` state only when the tenant's feed is empty.
 */
import type { ActivityEvent, Incident, IncidentChange } from '../../lambdas/contract/schemas.js';
import { listActivity, putActivityEventOnce } from '../../lambdas/data/activity.js';
import type { TableRef } from '../../lambdas/data/table/client.js';
import { getIncidentDetail, listIncidents } from '../../lambdas/data/incidents.js';
import { incidentCreatedEvent, incidentUpdateEvent } from '../../lambdas/domain/activity.js';

/** Incidents per tenant whose events are seeded. */
export const DEMO_ACTIVITY_INCIDENTS = 8;

/** The events of one stored incident: created, then one per status change of its history. */
export function demoIncidentEvents(incident: Incident, history: readonly IncidentChange[]): ActivityEvent[] {
  const out: ActivityEvent[] = [incidentCreatedEvent(incident, { eventId: `DEMO-${incident.id}-1` })];
  for (const h of history) {
    const s = h.changes.find((c) => c.field === 'status');
    if (!s?.from || !s.to) continue;
    const before = { ...incident, status: s.from as Incident['status'] };
    const after = { ...incident, status: s.to as Incident['status'] };
    const e = incidentUpdateEvent(before, after, h, null, { eventId: `DEMO-${incident.id}-${h.version}` });
    if (e) out.push(e);
  }
  return out;
}

/**
 * Seeds the demo events of `tenantId` (see the module doc); with `onlyIfEmpty`, nothing when its feed holds
 * any event. Returns the events written.
 */
export async function seedDemoActivity(tenantId: string, table: TableRef, { onlyIfEmpty = false }: { onlyIfEmpty?: boolean } = {}): Promise<number> {
  if (onlyIfEmpty && (await listActivity(tenantId, { limit: 1 }, table)).items.length > 0) return 0;
  const page = await listIncidents(tenantId, { limit: DEMO_ACTIVITY_INCIDENTS }, table);
  let written = 0;
  for (const i of page.items) {
    const d = await getIncidentDetail(tenantId, i.id, table);
    if (!d) continue;
    const { comments: _c, history, ...incident } = d;
    for (const e of demoIncidentEvents(incident, history)) if (await putActivityEventOnce(e, table)) written++;
  }
  return written;
}
