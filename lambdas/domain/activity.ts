/**
 * Activity events (docs/notifications.md): which change becomes which event, its message (key and
 * parameters, `lambdas/domain/messages.ts`; the stored `title` is its Spanish rendering), link and severity. Pure functions of the record before and after a change; the data layer (`lambdas/data/*.ts`)
 * puts the event in the same TransactWriteItems as the change (`lambdas/data/activity.ts#activityPut`), so
 * an event exists if and only if its change does.
 *
 * Rules (one event per write at most, so a write costs one more small item):
 *  - incident created → `incident.created`;
 *  - an update whose status becomes `closed` → `incident.closed`; `resolved` → `incident.resolved`; any other
 *    status change → `incident.status_changed`; otherwise a triage (severity / SLA targets recorded) →
 *    `incident.triaged`; otherwise an update carrying a comment → `incident.commented`; other field changes
 *    (assignee, title, description, category, closure request without comment) → no event;
 *  - a comment added → `incident.commented` (severity `info`);
 *  - device alarm raised / acknowledged / cleared → `alarm.*`, only for `critical` and `high` alarms
 *    (`ALARM_EVENT_SEVERITIES`); cleared and acknowledged carry severity `info`;
 *  - an Office 365 alert stored for the first time → `office365.alert_raised`;
 *  - a recommendation stored for the first time → `recommendation.added` (priority as severity);
 *  - SLA: `sla.at_risk` once an open incident's `slaDueAt` is less than `SLA_AT_RISK_FRACTION` of its
 *    resolution window (at most 24 h) away, `sla.breached` once it is past; one event per incident and threshold, with a
 *    deterministic id (`slaEventId`) so the scheduled job can run any number of times.
 */
import type {
  ActivityEvent,
  ActivityMessage,
  ActivityKind,
  ActivitySeverity,
  DeviceAlarm,
  Incident,
  IncidentChange,
  IncidentComment,
  Office365Alarm,
  Recommendation,
  Severity,
} from '../contract/schemas.js';
import { oneLine, renderMessage, type ActivityMessageKey } from './messages.js';

/** Alarm severities whose raise / acknowledge / clear become events (the others stay in the alarm list only). */
export const ALARM_EVENT_SEVERITIES: readonly Severity[] = ['critical', 'high'];

/**
 * `sla.at_risk` when less than this fraction of the resolution window (`slaDueAt − createdAt`) is left, and
 * at most `SLA_AT_RISK_MAX_MS` before the deadline (so the job reads only incidents due within that horizon).
 */
export const SLA_AT_RISK_FRACTION = 0.25;
export const SLA_AT_RISK_MAX_MS = 24 * 3_600_000;

/** Who made a change: display name (e-mail or sub) and sub; null = the system. */
export type Actor = ActivityEvent['actor'];

// ------------------------------------------------------------------------------------------------ ids

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A ULID (https://github.com/ulid/spec): 10 Crockford base-32 characters of the epoch milliseconds `ms`
 * then 16 of randomness (from `random`, 80 bits; default `crypto.getRandomValues`). 26 characters,
 * lexicographic order = time order.
 */
export function ulid(ms: number, random: (bytes: Uint8Array) => Uint8Array = (b) => globalThis.crypto.getRandomValues(b)): string {
  let time = '';
  let t = Math.max(0, Math.floor(ms));
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32]! + time;
    t = Math.floor(t / 32);
  }
  const bytes = random(new Uint8Array(16));
  let rand = '';
  for (let i = 0; i < 16; i++) rand += CROCKFORD[bytes[i]! % 32]!;
  return time + rand;
}

/** Deterministic id of the SLA event `kind` of an incident for its current deadline (idempotent writes). */
export function slaEventId(kind: 'sla.at_risk' | 'sla.breached', incident: Pick<Incident, 'id' | 'slaDueAt'>): string {
  return `${kind === 'sla.at_risk' ? 'SLA-RISK' : 'SLA-BREACH'}-${incident.id}-${incident.slaDueAt.replace(/[^0-9]/g, '').slice(0, 14)}`;
}

// ---------------------------------------------------------------------------------------------- links

const q = (tenantId: string) => `?tenant=${encodeURIComponent(tenantId)}`;
/** Portal paths (web/src/shared/lib/links.ts spells the same ones). */
export const activityLinks = {
  incident: (tenantId: string, id: string) => `/ticket/update/${encodeURIComponent(id)}${q(tenantId)}`,
  device: (tenantId: string, deviceId: string) => `/devices/detail/${encodeURIComponent(deviceId)}${q(tenantId)}`,
  office365Alarms: (tenantId: string) => `/office365/alarms${q(tenantId)}`,
  recommendations: (tenantId: string) => `/recommendations${q(tenantId)}`,
};

// ------------------------------------------------------------------------------------------- builders

/** Options of every builder: `eventId` overrides the fresh ULID (tests, deterministic ids). */
export interface BuildOptions {
  eventId?: string;
}

function event(
  tenantId: string,
  kind: ActivityKind,
  severity: ActivitySeverity,
  at: string,
  actor: Actor,
  subject: ActivityEvent['subject'],
  message: ActivityMessage,
  link: string,
  opts: BuildOptions | undefined,
): ActivityEvent {
  const title = renderMessage('es', message) ?? '';
  return { eventId: opts?.eventId ?? ulid(Date.parse(at)), tenantId, kind, severity, at, actor, subject, title, message, link, outbox: 'PENDING' };
}

/**
 * The message `key` with `params` (string values, user texts clipped to one line of 200 characters so the
 * item stays small: docs/notifications.md#kinds).
 */
function msg(key: ActivityMessageKey, params: Record<string, string | undefined>): ActivityMessage {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) if (v !== undefined) out[k] = oneLine(v);
  return { key, params: out };
}

const incidentSubject = (i: Pick<Incident, 'id'>) => ({ type: 'incident' as const, id: i.id });

/** `incident.created` for a new incident; the actor is its reporter (null when a collector opened it). */
export function incidentCreatedEvent(incident: Incident, opts?: BuildOptions): ActivityEvent {
  const actor: Actor = incident.source === 'portal' || incident.reporterSub ? { name: incident.reporter, ...(incident.reporterSub ? { sub: incident.reporterSub } : {}) } : null;
  return event(
    incident.tenantId,
    'incident.created',
    incident.severity,
    incident.createdAt,
    actor,
    incidentSubject(incident),
    msg('activity.incident.created', { incidentId: incident.id, title: incident.title, severity: incident.severity }),
    activityLinks.incident(incident.tenantId, incident.id),
    opts,
  );
}

/**
 * The event of an accepted incident update (`current` → `next`, history entry `change`, optional comment),
 * or null when the change is not one customers are told about (see the module rules).
 */
export function incidentUpdateEvent(current: Incident, next: Incident, change: IncidentChange, comment: IncidentComment | null, opts?: BuildOptions): ActivityEvent | null {
  const actor: Actor = { name: change.by, ...(change.bySub ? { sub: change.bySub } : {}) };
  const build = (kind: ActivityKind, severity: ActivitySeverity, message: ActivityMessage) =>
    event(next.tenantId, kind, severity, change.at, actor, incidentSubject(next), message, activityLinks.incident(next.tenantId, next.id), opts);
  if (current.status !== next.status) {
    if (next.status === 'closed') return build('incident.closed', next.severity, msg('activity.incident.closed', { incidentId: next.id, title: next.title }));
    if (next.status === 'resolved') return build('incident.resolved', next.severity, msg('activity.incident.resolved', { incidentId: next.id, title: next.title }));
    return build('incident.status_changed', next.severity, msg('activity.incident.status_changed', { incidentId: next.id, from: current.status, to: next.status }));
  }
  if (change.changes.some((c) => c.field === 'severity' || c.field === 'slaTargets')) {
    return build('incident.triaged', next.severity, msg('activity.incident.triaged', { incidentId: next.id, severity: next.severity }));
  }
  if (comment) return build('incident.commented', 'info', msg('activity.incident.commented', { incidentId: next.id, author: comment.author }));
  return null;
}

/** `incident.commented` for a comment added on its own (`POST /incidents/{id}/comments`). */
export function incidentCommentEvent(tenantId: string, incidentId: string, comment: IncidentComment, opts?: BuildOptions): ActivityEvent {
  const actor: Actor = { name: comment.author, ...(comment.authorSub ? { sub: comment.authorSub } : {}) };
  return event(tenantId, 'incident.commented', 'info', comment.createdAt, actor, { type: 'incident', id: incidentId }, msg('activity.incident.commented', { incidentId, author: comment.author }), activityLinks.incident(tenantId, incidentId), opts);
}

/**
 * The event of a device alarm write (`before` null = raised), or null for alarms below
 * `ALARM_EVENT_SEVERITIES`, alarms raised in a maintenance window (`inMaintenance`: they notify nobody) and writes
 * that do not change the state (replays).
 */
export function alarmEvent(before: DeviceAlarm | null, after: DeviceAlarm, opts?: BuildOptions): ActivityEvent | null {
  if (!ALARM_EVENT_SEVERITIES.includes(after.severity)) return null;
  // Raised inside a maintenance window: no event, so no bell, e-mail or webhook (docs/api.md#maintenance-windows).
  if (after.inMaintenance) return null;
  if (before && before.state === after.state) return null;
  const names = { deviceId: after.deviceId, deviceName: after.deviceName || after.deviceId, title: after.title };
  const subject = { type: 'alarm' as const, id: `${after.deviceId}/${after.id}` };
  const link = activityLinks.device(after.tenantId, after.deviceId);
  if (!before || (after.state === 'active' && before.state === 'cleared')) {
    return event(after.tenantId, 'alarm.raised', after.severity, after.raisedAt, null, subject, msg('activity.alarm.raised', { ...names, severity: after.severity }), link, opts);
  }
  if (after.state === 'acknowledged') {
    const actor: Actor = after.acknowledgedBy ? { name: after.acknowledgedBy, ...(after.acknowledgedBySub ? { sub: after.acknowledgedBySub } : {}) } : null;
    return event(after.tenantId, 'alarm.acknowledged', 'info', after.acknowledgedAt ?? after.raisedAt, actor, subject, msg('activity.alarm.acknowledged', names), link, opts);
  }
  if (after.state === 'cleared') {
    return event(after.tenantId, 'alarm.cleared', 'info', after.clearedAt ?? after.raisedAt, null, subject, msg('activity.alarm.cleared', names), link, opts);
  }
  return null;
}

/** `office365.alert_raised` when an Office 365 alert is stored for the first time (`before` null), else null. */
export function office365AlertEvent(before: Office365Alarm | null, after: Office365Alarm, opts?: BuildOptions): ActivityEvent | null {
  if (before) return null;
  return event(after.tenantId, 'office365.alert_raised', after.severity, after.detectedAt, null, { type: 'office365Alarm', id: after.id }, msg('activity.office365.alert_raised', { title: after.title }), activityLinks.office365Alarms(after.tenantId), opts);
}

/** `recommendation.added` for a new recommendation (severity = its priority). */
export function recommendationAddedEvent(r: Recommendation, opts?: BuildOptions): ActivityEvent {
  return event(r.tenantId, 'recommendation.added', r.priority, r.createdAt, null, { type: 'recommendation', id: r.id }, msg('activity.recommendation.added', { title: r.title }), activityLinks.recommendations(r.tenantId), opts);
}

/**
 * The SLA events due for an incident at `now`: `sla.breached` once `slaDueAt ≤ now`, else `sla.at_risk`
 * once less than `SLA_AT_RISK_FRACTION` of the window is left; none for a resolved or closed incident.
 * Each is dated at its threshold (not at `now`) and has a deterministic id, so writing it conditionally
 * (`attribute_not_exists`) makes every run of the job idempotent.
 */
export function slaEvents(incident: Incident, now: Date): ActivityEvent[] {
  if (incident.status === 'resolved' || incident.status === 'closed' || incident.resolvedAt) return [];
  const due = Date.parse(incident.slaDueAt);
  const created = Date.parse(incident.createdAt);
  const riskAt = due - Math.min(SLA_AT_RISK_MAX_MS, Math.max(0, due - created) * SLA_AT_RISK_FRACTION);
  const t = now.getTime();
  const link = activityLinks.incident(incident.tenantId, incident.id);
  const subject = incidentSubject(incident);
  if (t >= due) {
    return [event(incident.tenantId, 'sla.breached', incident.severity, incident.slaDueAt, null, subject, msg('activity.sla.breached', { incidentId: incident.id, title: incident.title }), link, { eventId: slaEventId('sla.breached', incident) })];
  }
  if (t >= riskAt) {
    return [
      event(incident.tenantId, 'sla.at_risk', incident.severity, new Date(riskAt).toISOString(), null, subject, msg('activity.sla.at_risk', { incidentId: incident.id, dueTime: incident.slaDueAt.slice(11, 16), title: incident.title }), link, {
        eventId: slaEventId('sla.at_risk', incident),
      }),
    ];
  }
  return [];
}

/** Whether `event` counts as unread for `sub` (events of others only; the caller's own changes never do). */
export function isUnreadFor(event: Pick<ActivityEvent, 'actor'>, sub: string): boolean {
  return event.actor?.sub !== sub;
}
