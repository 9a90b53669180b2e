/**
 * Incident rules: ids, SLA, lifecycle, version-checked updates with change history.
 *
 * Plain functions over a storage port (`IncidentsPort`, implemented in `lambdas/data/incidents.ts`);
 * no AWS imports. Times are ISO-8601 UTC strings; `now` is injected for tests.
 */
import { INCIDENT_TRANSITIONS } from '../contract/schemas.js';
import type {
  AlarmRef,
  CreateIncidentBody,
  Incident,
  IncidentChange,
  IncidentComment,
  IncidentDetail,
  IncidentSource,
  IncidentStatus,
  Page,
  Severity,
  SlaTarget,
  Tenant,
} from '../contract/schemas.js';
import type { Context } from 'aws-lambda';
import type { AssigneeList, AuditAction } from '../contract/schemas.js';
import { auditEntryFor, changedFields, type AuditRequest } from './audit.js';
import { ApiError } from './errors.js';
import type { Identity } from './identity.js';
import { socAtRisk } from './soc-queue.js';
import type { DevicesPort, GroupMembersPort, IdempotencyPort, IncidentListOptions, IncidentsPort, TenantsPort } from './ports.js';
import { clearLinkedAlarms, planAlarmLinks } from './alarm-links.js';

/**
 * Time to resolve by severity, hours. The one SLA table of the product (managed-SOC practice:
 * critical 4 h, high 8 h, medium 24 h, low 72 h).
 */
export const SLA_HOURS: Readonly<Record<Severity, number>> = { critical: 4, high: 8, medium: 24, low: 72 };

/**
 * Allowed status transitions (`INCIDENT_TRANSITIONS` of the contract, so the portal offers the same ones):
 * new → in_progress ⇄ on_hold → resolved → closed; resolved may reopen to in_progress; `closed` is
 * terminal. (Setting the current status again is not a transition: no change.)
 */
export const TRANSITIONS = INCIDENT_TRANSITIONS;

/** Whether `from → to` is allowed by `TRANSITIONS`. */
export function canTransition(from: IncidentStatus, to: IncidentStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

/** `INC-` + the per-tenant sequence number, zero-padded to at least 6 digits (`INC-000123`). */
export function formatIncidentId(seq: number): string {
  if (!Number.isSafeInteger(seq) || seq < 1) throw new RangeError(`invalid incident sequence ${seq}`);
  return `INC-${String(seq).padStart(6, '0')}`;
}

/**
 * Default response targets by severity, minutes (first staff acknowledgement): critical 15, high 60,
 * medium 240, low 480. Used when the tenant's contract sets none (docs/sla.md#targets).
 */
export const DEFAULT_RESPONSE_MINUTES: Readonly<Record<Severity, number>> = { critical: 15, high: 60, medium: 240, low: 480 };

/** Days after resolution (or closure) during which the customer may reopen (docs/sla.md#reopening). */
export const REOPEN_GRACE_DAYS = 7;

/** The targets of `severity` in the tenant's contract, else the defaults (`DEFAULT_RESPONSE_MINUTES`, `SLA_HOURS`). */
export function targetsFor(tenant: Pick<Tenant, 'slaTargets'> | null | undefined, severity: Severity): SlaTarget {
  return tenant?.slaTargets?.[severity] ?? { responseMinutes: DEFAULT_RESPONSE_MINUTES[severity], resolutionMinutes: SLA_HOURS[severity] * 60 };
}

/**
 * SLA deadline, ISO-8601 UTC: `createdAt` + the resolution target (minutes) of `targets`, or of the default
 * targets of `severity` when none are given.
 */
export function slaDueAt(createdAt: string, severity: Severity, targets?: SlaTarget | null): string {
  const minutes = targets?.resolutionMinutes ?? SLA_HOURS[severity] * 60;
  return new Date(Date.parse(createdAt) + minutes * 60_000).toISOString();
}

/** The SLA result of an incident as it closes: `met` when resolved (else closed) by `slaDueAt`. */
export function slaResultOf(i: Pick<Incident, 'resolvedAt' | 'slaDueAt'>, closedAt: string): 'met' | 'breached' {
  return (i.resolvedAt ?? closedAt) <= i.slaDueAt ? 'met' : 'breached';
}

/** Days a resolved incident waits for the customer's confirmation before it closes automatically, when the tenant sets none. */
export const DEFAULT_AUTO_CLOSE_DAYS = 7;

/** The name Vigía's own changes are recorded under: history `by`, audit `actor.sub`, activity actor (docs/sla.md#automatic-closure). */
export const SYSTEM_ACTOR = 'Vigía';

/**
 * When an incident resolved at `resolvedAt` closes automatically: `resolvedAt` + the tenant's `autoCloseDays`
 * (`DEFAULT_AUTO_CLOSE_DAYS` when it sets none) × 24 h, ISO-8601 UTC.
 */
export function autoCloseAtFor(tenant: Pick<Tenant, 'autoCloseDays'> | null | undefined, resolvedAt: string): string {
  return new Date(Date.parse(resolvedAt) + (tenant?.autoCloseDays ?? DEFAULT_AUTO_CLOSE_DAYS) * 86_400_000).toISOString();
}

/** Provider statuses: only staff set them (docs/api.md#incident-roles). */
export const PROVIDER_STATUSES: readonly IncidentStatus[] = ['in_progress', 'on_hold', 'resolved', 'closed'];

/** How the caller is named in reporter/author/history fields: e-mail, or `sub` when the token has none. */
export function actorName(identity: Identity): string {
  return identity.email || identity.sub;
}

/** A validated create body (defaults applied). `assignee`/`source` default to null / `portal`. */
export type NewIncidentInput = Required<Pick<CreateIncidentBody, 'title' | 'description' | 'severity' | 'category'>> & {
  assignee?: string | null | undefined;
  source?: IncidentSource | undefined;
  /** Alarms to link (docs/api.md#linked-alarms). */
  alarms?: AlarmRef[] | undefined;
};

/**
 * A new incident (status `new`, version 1) from a validated create body. Its provisional `slaDueAt` uses
 * `targets` (the tenant's contract targets of that severity; default targets when absent) until staff
 * triage fixes them (docs/sla.md#targets).
 */
export function newIncident(
  tenantId: string,
  seq: number,
  body: NewIncidentInput,
  reporter: string,
  now: string,
  targets?: SlaTarget | null,
): Incident {
  return {
    id: formatIncidentId(seq),
    tenantId,
    title: body.title,
    description: body.description,
    severity: body.severity,
    status: 'new',
    category: body.category,
    source: body.source ?? 'portal',
    reporter,
    assignee: body.assignee ?? null,
    createdAt: now,
    updatedAt: now,
    resolvedAt: null,
    slaDueAt: slaDueAt(now, body.severity, targets),
    version: 1,
    slaTargets: null,
    triagedAt: null,
    firstAcknowledgedAt: null,
    closureRequested: false,
    closedAt: null,
    slaResult: null,
    ...(body.alarms?.length ? { alarms: body.alarms } : {}),
  };
}

/**
 * Fills the SLA fields of an incident stored before they existed, from the incident and its history
 * (idempotent: an incident that has them is returned unchanged). Targets: the defaults of its severity
 * (`slaDueAt` as it was); first acknowledgement: the first history entry leaving `new`; a closed incident
 * gets `closedAt` (its entry to `closed`, else `updatedAt`) and its SLA result fixed. docs/sla.md#upgrade.
 */
export function upgradeIncident(stored: Partial<Incident> & Omit<Incident, 'slaTargets' | 'triagedAt' | 'firstAcknowledgedAt' | 'closureRequested' | 'closedAt' | 'slaResult'>, history: readonly IncidentChange[]): Incident {
  const byVersion = [...history].sort((a, b) => a.version - b.version);
  const statusEntry = (pred: (c: { from: string | null; to: string | null }) => boolean) =>
    byVersion.find((h) => h.changes.some((c) => c.field === 'status' && pred(c)))?.at ?? null;
  const closedAt = stored.closedAt ?? (stored.status === 'closed' ? statusEntry((c) => c.to === 'closed') ?? stored.updatedAt : null);
  const base = {
    ...stored,
    slaTargets: stored.slaTargets ?? { responseMinutes: DEFAULT_RESPONSE_MINUTES[stored.severity], resolutionMinutes: Math.round((Date.parse(stored.slaDueAt) - Date.parse(stored.createdAt)) / 60_000) },
    triagedAt: stored.triagedAt ?? null,
    firstAcknowledgedAt: stored.firstAcknowledgedAt !== undefined ? stored.firstAcknowledgedAt : statusEntry((c) => c.from === 'new'),
    closureRequested: stored.closureRequested ?? false,
    closedAt,
  };
  return { ...base, slaResult: stored.slaResult ?? (closedAt ? slaResultOf(base, closedAt) : null) };
}

/** A validated PATCH body (see `UpdateIncidentBody`). */
export interface IncidentPatch {
  version: number;
  status?: IncidentStatus | undefined;
  severity?: Severity | undefined;
  description?: string | undefined;
  comment?: string | undefined;
  title?: string | undefined;
  category?: string | undefined;
  /** `null` unassigns. */
  assignee?: string | null | undefined;
  /** Staff: triage in the same change (severity with a reason; docs/sla.md#triage-first). */
  triage?: { severity: Severity; reason: string } | undefined;
  /** Staff resolving it: also clear its linked device alarms still open (default true; docs/api.md#linked-alarms). */
  clearLinkedAlarms?: boolean | undefined;
}

export interface PlannedUpdate {
  incident: Incident;
  change: IncidentChange;
  comment: IncidentComment | null;
}

/** A public comment authored now, with a random id (internal notes: `lambdas/domain/internal-notes.ts`). */
export function newComment(author: string, body: string, now: string): IncidentComment {
  return { id: globalThis.crypto.randomUUID(), author, body, createdAt: now, visibility: 'public' };
}

/**
 * Applies a patch to the current incident (pure). The result has version + 1, `updatedAt = now`, one
 * history entry listing every changed field (`from → to`; empty when only a comment was added), and
 * `resolvedAt` set when entering `resolved` / cleared when reopening. A severity change moves `slaDueAt`.
 * @throws ApiError VERSION_CONFLICT (`details.currentVersion`) when `patch.version` is not the current one;
 *         INVALID_TRANSITION (`details.from`, `details.to`, `details.allowed`) for a forbidden status change.
 */
export function planUpdate(
  current: Incident,
  patch: IncidentPatch,
  actor: string,
  now: string,
  role: { staff: boolean } = { staff: true },
  tenant: Pick<Tenant, 'slaTargets' | 'autoCloseDays'> | null = null,
): PlannedUpdate {
  assertPatchAllowed(current, patch, role.staff);
  if (patch.version !== current.version) {
    throw new ApiError('VERSION_CONFLICT', 'the incident was changed by someone else; reload it', {
      currentVersion: current.version,
    });
  }
  const next: Incident = { ...current, version: current.version + 1, updatedAt: now };
  const changes: IncidentChange['changes'] = [];
  if (patch.status !== undefined && patch.status !== current.status) {
    if (!canTransition(current.status, patch.status)) {
      throw new ApiError('INVALID_TRANSITION', `cannot change status from ${current.status} to ${patch.status}`, {
        from: current.status,
        to: patch.status,
        allowed: [...TRANSITIONS[current.status]],
      });
    }
    assertTriagedFor(current, patch.status, patch.triage !== undefined);
  }
  // The triage first, so a resolution or closure in the same change is judged against the triaged deadline.
  if (patch.triage) changes.push(...triageInto(next, current, patch.triage.severity, tenant, now));
  if (patch.status !== undefined && patch.status !== current.status) {
    next.status = patch.status;
    changes.push({ field: 'status', from: current.status, to: patch.status });
    if (patch.status === 'resolved') next.resolvedAt = now;
    else if (current.status === 'resolved' && patch.status !== 'closed') next.resolvedAt = null;
    if (current.status === 'new' && next.firstAcknowledgedAt === null) next.firstAcknowledgedAt = now;
    if (patch.status === 'closed') closeInto(next, now);
    // Automatic closure (docs/sla.md#automatic-closure): due the tenant's N days after the resolution, while resolved.
    if (patch.status === 'resolved') next.autoCloseAt = autoCloseAtFor(tenant, now);
    else delete next.autoCloseAt;
  }
  if (patch.description !== undefined && patch.description !== current.description) {
    next.description = patch.description;
    changes.push({ field: 'description', from: current.description, to: patch.description });
  }
  if (patch.title !== undefined && patch.title !== current.title) {
    next.title = patch.title;
    changes.push({ field: 'title', from: current.title, to: patch.title });
  }
  if (patch.category !== undefined && patch.category !== current.category) {
    next.category = patch.category;
    changes.push({ field: 'category', from: current.category, to: patch.category });
  }
  if (patch.assignee !== undefined && patch.assignee !== current.assignee) {
    next.assignee = patch.assignee;
    changes.push({ field: 'assignee', from: current.assignee, to: patch.assignee });
  }
  return {
    incident: next,
    change: { version: next.version, at: now, by: actor, changes, ...(patch.triage ? { reason: patch.triage.reason } : {}) },
    comment: patch.comment !== undefined ? newComment(actor, patch.comment, now) : null,
  };
}

/**
 * Triage first (docs/sla.md#triage-first): staff move an incident to a provider status (`PROVIDER_STATUSES`)
 * only once its severity is triaged — `triagedAt` set, or the same request carries the triage (`withTriage`).
 * @throws ApiError TRIAGE_REQUIRED (409; `details.from`, `details.to`, `details.fields = ['triage']`)
 */
export function assertTriagedFor(current: Incident, to: IncidentStatus, withTriage: boolean): void {
  if (!PROVIDER_STATUSES.includes(to) || current.triagedAt !== null || withTriage) return;
  throw new ApiError('TRIAGE_REQUIRED', `triage the incident (severity with a reason) before moving it to ${to}`, {
    from: current.status,
    to,
    fields: ['triage'],
  });
}

/**
 * Role rules of `PATCH /incidents/{id}` (docs/api.md#incident-roles): customers may change title,
 * description and category and comment; severity, assignee and status are staff's (customers use the
 * closure-request / reopen / confirm-resolution routes). Severity is changed only by triage (it needs a
 * reason). A closed incident takes comments only.
 * @throws ApiError FORBIDDEN (a customer setting a staff field), VALIDATION_FAILED (severity by PATCH),
 *         INVALID_TRANSITION (a closed incident)
 */
export function assertPatchAllowed(current: Incident, patch: IncidentPatch, staff: boolean): void {
  if (!staff) {
    const fields = (['severity', 'assignee', 'status', 'triage'] as const).filter((f) => patch[f] !== undefined);
    if (fields.length > 0) {
      throw new ApiError('FORBIDDEN', `only the SOC (staff) may change ${fields.join(', ')}`, { fields });
    }
  }
  if (patch.severity !== undefined && patch.severity !== current.severity) {
    throw new ApiError('VALIDATION_FAILED', 'change the severity with POST /incidents/{id}/triage, which records a reason', {
      issues: [{ path: 'severity', message: 'use the triage route' }],
    });
  }
  if (current.status === 'closed' && (patch.title !== undefined || patch.description !== undefined || patch.category !== undefined || patch.assignee !== undefined || patch.triage !== undefined)) {
    throw new ApiError('INVALID_TRANSITION', 'a closed incident takes comments only', { from: 'closed', to: 'closed', allowed: [] });
  }
}

/** Marks `next` closed at `now`: `closedAt`, the SLA result (fixed once, never recomputed), no pending closure request. */
function closeInto(next: Incident, now: string): void {
  next.closedAt = now;
  next.slaResult = next.slaResult ?? slaResultOf(next, now);
  next.closureRequested = false;
  delete next.autoCloseAt;
}

/**
 * Automatic closure (pure; docs/sla.md#automatic-closure): a `resolved` incident whose `autoCloseAt` is due at
 * `now` closes as the customer's confirmation closes it — `closedAt`, the SLA result (`slaResultOf`, fixed
 * once) — recorded by {@link SYSTEM_ACTOR} with the reason. Null when it is not resolved or not due (nothing to do).
 */
export function planAutoClose(current: Incident, now: string): PlannedUpdate | null {
  if (current.status !== 'resolved' || !current.autoCloseAt || current.autoCloseAt > now) return null;
  const next = nextVersion(current, undefined, now);
  next.status = 'closed';
  closeInto(next, now);
  const days = Math.round((Date.parse(current.autoCloseAt) - Date.parse(current.resolvedAt ?? current.autoCloseAt)) / 86_400_000);
  return {
    incident: next,
    change: {
      version: next.version,
      at: now,
      by: SYSTEM_ACTOR,
      changes: [{ field: 'status', from: 'resolved', to: 'closed' }],
      reason: `Cerrado automáticamente: resuelto hace ${days} días sin confirmación del cliente`,
    },
    comment: null,
  };
}

/** The next version of `current` at `now` (a shallow copy to change). @throws ApiError VERSION_CONFLICT */
function nextVersion(current: Incident, version: number | undefined, now: string): Incident {
  if (version !== undefined && version !== current.version) {
    throw new ApiError('VERSION_CONFLICT', 'the incident was changed by someone else; reload it', { currentVersion: current.version });
  }
  return { ...current, version: current.version + 1, updatedAt: now };
}

/**
 * Staff triage (pure): sets the severity, fixes the response/resolution targets from the tenant's contract
 * (`targetsFor`) and moves `slaDueAt` to createdAt + the resolution target; the history entry names the
 * severity and target changes with the reason. A closed incident cannot be triaged (its SLA result is fixed).
 * @throws ApiError VERSION_CONFLICT, INVALID_TRANSITION
 */
export function planTriage(current: Incident, body: { severity: Severity; reason: string; version: number }, tenant: Pick<Tenant, 'slaTargets'> | null, actor: string, now: string): PlannedUpdate {
  if (current.status === 'closed') {
    throw new ApiError('INVALID_TRANSITION', 'a closed incident\u2019s SLA result never changes', { from: 'closed', to: 'closed', allowed: [] });
  }
  const next = nextVersion(current, body.version, now);
  const changes = triageInto(next, current, body.severity, tenant, now);
  return { incident: next, change: { version: next.version, at: now, by: actor, changes, reason: body.reason }, comment: null };
}

/**
 * Applies a triage to `next` (a copy of `current`): the severity, the contract targets of that severity
 * (`targetsFor`), `slaDueAt` = createdAt + the resolution target, `triagedAt` (the first triage); returns the
 * history changes (severity, targets as `response N min, resolution M min`, due time), those that moved.
 */
function triageInto(next: Incident, current: Incident, severity: Severity, tenant: Pick<Tenant, 'slaTargets'> | null, now: string): IncidentChange['changes'] {
  const targets = targetsFor(tenant, severity);
  next.severity = severity;
  next.slaTargets = targets;
  next.slaDueAt = slaDueAt(current.createdAt, severity, targets);
  next.triagedAt = current.triagedAt ?? now;
  const changes: IncidentChange['changes'] = [];
  if (current.severity !== next.severity) changes.push({ field: 'severity', from: current.severity, to: next.severity });
  const fmt = (t: SlaTarget | null) => (t ? `response ${t.responseMinutes} min, resolution ${t.resolutionMinutes} min` : null);
  if (fmt(current.slaTargets) !== fmt(targets)) changes.push({ field: 'slaTargets', from: fmt(current.slaTargets), to: fmt(targets) });
  if (current.slaDueAt !== next.slaDueAt) changes.push({ field: 'slaDueAt', from: current.slaDueAt, to: next.slaDueAt });
  return changes;
}

/**
 * Customer closure request (pure): flags `closureRequested` and adds the note as a comment.
 * @throws ApiError INVALID_TRANSITION (closed, or already requested)
 */
export function planClosureRequest(current: Incident, note: string, actor: string, now: string): PlannedUpdate {
  if (current.status === 'closed' || current.closureRequested) {
    throw new ApiError('INVALID_TRANSITION', current.status === 'closed' ? 'the incident is closed' : 'closure was already requested', { from: current.status, to: current.status, allowed: [] });
  }
  const next = nextVersion(current, undefined, now);
  next.closureRequested = true;
  return {
    incident: next,
    change: { version: next.version, at: now, by: actor, changes: [{ field: 'closureRequested', from: 'false', to: 'true' }], reason: note },
    comment: newComment(actor, note, now),
  };
}

/**
 * Reopen (pure): a resolved or closed incident returns to `in_progress` within `REOPEN_GRACE_DAYS` of its
 * resolution (or closure). A closed incident keeps its fixed SLA result and `closedAt`.
 * @throws ApiError INVALID_TRANSITION (not resolved/closed, or past the grace period: `details.graceDays`)
 */
export function planReopen(current: Incident, reason: string, actor: string, now: string): PlannedUpdate {
  const since = current.resolvedAt ?? current.closedAt;
  if ((current.status !== 'resolved' && current.status !== 'closed') || since === null) {
    throw new ApiError('INVALID_TRANSITION', `cannot reopen an incident in ${current.status}`, { from: current.status, to: 'in_progress', allowed: [...TRANSITIONS[current.status]] });
  }
  if (Date.parse(now) - Date.parse(since) > REOPEN_GRACE_DAYS * 86_400_000) {
    throw new ApiError('INVALID_TRANSITION', `the ${REOPEN_GRACE_DAYS}-day reopening period is over`, { from: current.status, to: 'in_progress', allowed: [], graceDays: REOPEN_GRACE_DAYS });
  }
  const next = nextVersion(current, undefined, now);
  next.status = 'in_progress';
  next.resolvedAt = null;
  next.closureRequested = false;
  delete next.autoCloseAt;
  return {
    incident: next,
    change: { version: next.version, at: now, by: actor, changes: [{ field: 'status', from: current.status, to: 'in_progress' }], reason },
    comment: newComment(actor, reason, now),
  };
}

/**
 * Customer confirmation (pure): resolved → closed, fixing the SLA result.
 * @throws ApiError INVALID_TRANSITION (not resolved)
 */
export function planConfirmResolution(current: Incident, note: string | undefined, actor: string, now: string): PlannedUpdate {
  if (current.status !== 'resolved') {
    throw new ApiError('INVALID_TRANSITION', 'only a resolved incident can be confirmed', { from: current.status, to: 'closed', allowed: [...TRANSITIONS[current.status]] });
  }
  const next = nextVersion(current, undefined, now);
  next.status = 'closed';
  closeInto(next, now);
  return {
    incident: next,
    change: { version: next.version, at: now, by: actor, changes: [{ field: 'status', from: 'resolved', to: 'closed' }], ...(note ? { reason: note } : {}) },
    comment: note ? newComment(actor, note, now) : null,
  };
}

/**
 * A page of the tenant's incidents for a validated `ListIncidentsQuery` (its `tenant` is not a filter). The
 * read path (an exact incident id as `q` is one GetItem, the word index, the status partitions, the list) is
 * chosen by the storage, in one place (`incidentReadPath` in lambdas/data/incidents.ts; docs/api.md#incident-search).
 * @throws ApiError VALIDATION_FAILED for a cursor not issued for this tenant/list/range (Query path).
 */
export async function listIncidents(port: IncidentsPort, tenantId: string, q: IncidentListOptions & { tenant?: string | undefined }): Promise<Page<Incident>> {
  const { tenant: _tenant, ...opts } = q;
  return port.listIncidents(tenantId, opts);
}

/**
 * `POST /incidents`: opens an incident for the caller. Only the SOC (admin) files tickets with source
 * `soc` or `alarm` or names an assignee; customers always open unassigned `portal` ones. With an `Idempotency-Key`, a retry with the same
 * key and body answers the incident opened first (see docs/api.md#idempotency).
 * The assignee must be on the tenant's assignee list (`assertAssignee`).
 * @throws ApiError FORBIDDEN; UNKNOWN_ASSIGNEE; IDEMPOTENCY_KEY_REUSED; IDEMPOTENCY_IN_PROGRESS
 */
export async function fileIncident(
  ports: { incidents: IncidentsPort; idempotency: IdempotencyPort; tenants?: TenantsPort | undefined; users: GroupMembersPort },
  tenantId: string,
  body: NewIncidentInput,
  identity: Identity,
  now: Date,
  retry: { key?: string | undefined; lambdaContext?: Context | undefined } = {},
  audit?: AuditRequest,
): Promise<Incident> {
  if (body.source !== undefined && body.source !== 'portal' && !identity.isAdmin) {
    throw new ApiError('FORBIDDEN', 'only the SOC (admin) may open incidents with source soc or alarm');
  }
  if (body.assignee != null && !identity.isAdmin) {
    throw new ApiError('FORBIDDEN', 'only the SOC (staff) may assign incidents', { fields: ['assignee'] });
  }
  if (body.assignee != null) body = { ...body, assignee: await assertAssignee(ports.users, tenantId, body.assignee) };
  const open = async () => {
    const tenant = ports.tenants ? await ports.tenants.getTenant(tenantId) : null;
    return openIncident(ports.incidents, tenantId, body, identity, now.toISOString(), tenant?.slaTargets?.[body.severity], audit);
  };
  if (retry.key === undefined) return open();
  // Once the incident is stored, the answer is that incident even if recording the result for later
  // retries then fails (e.g. throttled): answering an error would invite a retry of a change already made
  // (docs/api.md#idempotency).
  let opened: Incident | undefined;
  try {
    return await ports.idempotency.run({ operation: 'createIncident', tenantId, key: retry.key, payload: body, lambdaContext: retry.lambdaContext }, async () => (opened = await open()));
  } catch (e) {
    if (opened) return opened;
    throw e;
  }
}

/**
 * Opens an incident for the caller in `tenantId`; with `body.alarms`, linked to them both ways in its create
 * transaction (`planAlarmLinks` first). @throws ApiError ALARM_NOT_FOUND, ALARM_ALREADY_LINKED (nothing written)
 */
export async function openIncident(
  port: IncidentsPort,
  tenantId: string,
  body: NewIncidentInput,
  identity: Identity,
  now: string,
  targets?: SlaTarget | null,
  audit?: AuditRequest,
): Promise<Incident> {
  const auditOf = audit
    ? (i: Incident) => auditEntryFor(audit, tenantId, 'incident.create', { type: 'incident', id: i.id }, changedFields(undefined, { title: i.title, severity: i.severity, category: i.category, source: i.source, assignee: i.assignee }))
    : undefined;
  const links = body.alarms?.length ? await planAlarmLinks(port, tenantId, body.alarms) : [];
  return port.createIncident(tenantId, (seq) => ({ ...newIncident(tenantId, seq, body, actorName(identity), now, targets), reporterSub: identity.sub }), auditOf, links);
}

/** @throws ApiError NOT_FOUND */
export async function getIncidentDetail(port: IncidentsPort, tenantId: string, id: string): Promise<IncidentDetail> {
  const d = await port.getIncidentDetail(tenantId, id);
  if (!d) throw new ApiError('NOT_FOUND', `incident ${id} not found`);
  return d;
}

/**
 * Version-checked update (see `planUpdate`). Returns the updated incident. A new assignee (one that differs
 * from the stored one; `null` unassigns) must be on the tenant's assignee list, read from `users` only then
 * (`assertAssignee`); the role rules are checked first, so a customer naming one gets 403.
 * A `triage` in the patch (staff) is applied with the tenant's contract targets (read from `tenants` only
 * then) and audited as `incident.triage`; a provider status on an untriaged incident needs one
 * (`assertTriagedFor`, docs/sla.md#triage-first).
 * @throws ApiError NOT_FOUND, VERSION_CONFLICT (also when a concurrent writer wins the race), INVALID_TRANSITION,
 *         TRIAGE_REQUIRED, FORBIDDEN, UNKNOWN_ASSIGNEE
 */
export async function updateIncident(
  port: IncidentsPort,
  tenantId: string,
  id: string,
  patch: IncidentPatch,
  identity: Identity,
  now: string,
  audit: AuditRequest | undefined,
  users: GroupMembersPort,
  tenants?: TenantsPort,
  /** Given: staff resolving it also clear its linked device alarms (`clearLinkedAlarms`) unless `patch.clearLinkedAlarms` is false. */
  devices?: Pick<DevicesPort, 'transitionAlarm'>,
): Promise<Incident> {
  const role = { staff: identity.isAdmin };
  // The tenant's contract: its targets for a triage, its automatic-closure days for a resolution.
  const tenant = (patch.triage || patch.status === 'resolved') && role.staff && tenants ? await tenants.getTenant(tenantId) : null;
  const check = async (current: Incident): Promise<IncidentPatch> => {
    // Role, closed-incident and version errors come first (`planUpdate`); the pool is read only for a change.
    if (typeof patch.assignee !== 'string' || patch.assignee === current.assignee || patch.version !== current.version) return patch;
    assertPatchAllowed(current, patch, role.staff);
    return { ...patch, assignee: await assertAssignee(users, tenantId, patch.assignee) };
  };
  const action: AuditAction = patch.triage ? 'incident.triage' : 'incident.update';
  const updated = await applyPlan(port, tenantId, id, identity, now, action, (current, checked) => planUpdate(current, checked ?? patch, actorName(identity), now, role, tenant), audit, check);
  // Resolved now (planUpdate refuses resolved → resolved): its linked device alarms, after the incident is stored.
  if (devices && role.staff && patch.status === 'resolved' && patch.clearLinkedAlarms !== false && updated.alarms?.length) {
    await clearLinkedAlarms(devices, updated, identity, now, audit);
  }
  return updated;
}

/**
 * The request facts an audit entry records (`lambdas/domain/audit.ts`); when given, the entry is written
 * in the same transaction as the change.
 */
export type { AuditRequest };

/** Fields of the incident whose before/after an audit entry records. */
const AUDITED = ['status', 'severity', 'assignee', 'category', 'title', 'description', 'slaTargets', 'slaDueAt', 'closureRequested', 'slaResult'] as const;

/**
 * Reads the incident, plans the change, writes it (version-checked, with its history, comment and audit
 * entry in one transaction).
 * @throws ApiError NOT_FOUND, VERSION_CONFLICT (also when a concurrent writer wins the race), and the plan's errors
 */
async function applyPlan(
  port: IncidentsPort,
  tenantId: string,
  id: string,
  identity: Identity,
  now: string,
  action: AuditAction,
  plan: (current: Incident, checked?: IncidentPatch) => PlannedUpdate,
  audit?: AuditRequest,
  check?: (current: Incident) => Promise<IncidentPatch>,
): Promise<Incident> {
  const current = await port.getIncident(tenantId, id);
  if (!current) throw new ApiError('NOT_FOUND', `incident ${id} not found`);
  // Every change and comment records the caller's `sub` as the identity (docs/api.md#identity).
  const plannedRaw = plan(current, check ? await check(current) : undefined);
  const planned: PlannedUpdate = {
    ...plannedRaw,
    change: { ...plannedRaw.change, bySub: identity.sub },
    comment: plannedRaw.comment ? { ...plannedRaw.comment, authorSub: identity.sub } : null,
  };
  const pick = (i: Incident) => Object.fromEntries(AUDITED.map((k) => [k, i[k]]));
  const entry = audit
    ? auditEntryFor(audit, tenantId, action, { type: 'incident', id }, changedFields(pick(current), pick(planned.incident)))
    : undefined;
  const ok = await port.saveUpdate(tenantId, planned.incident, current, planned.change, planned.comment, entry);
  if (!ok) {
    const latest = await port.getIncident(tenantId, id);
    if (!latest) throw new ApiError('NOT_FOUND', `incident ${id} not found`);
    throw new ApiError('VERSION_CONFLICT', 'the incident was changed by someone else; reload it', {
      currentVersion: latest.version,
    });
  }
  return planned.incident;
}

/** `POST /incidents/{id}/triage` (staff; the route admits `admin` only). See `planTriage`. */
export async function triageIncident(
  ports: { incidents: IncidentsPort; tenants: TenantsPort },
  tenantId: string,
  id: string,
  body: { severity: Severity; reason: string; version: number },
  identity: Identity,
  now: string,
  audit?: AuditRequest,
): Promise<Incident> {
  const tenant = await ports.tenants.getTenant(tenantId);
  return applyPlan(ports.incidents, tenantId, id, identity, now, 'incident.triage', (c) => planTriage(c, body, tenant, actorName(identity), now), audit);
}

/**
 * Closes one resolved incident whose automatic closure is due at `now` (`planAutoClose`), with its audit entry
 * `incident.auto_close` by {@link SYSTEM_ACTOR} (request id `auto-close`), in one transaction conditioned on the
 * version read: a customer's confirmation (or any change) that wins the race leaves it as it is.
 * @returns `closed`, `not-due` (not resolved, or not due: nothing written), or `lost` (a concurrent change won).
 */
export async function autoCloseIncident(port: IncidentsPort, tenantId: string, id: string, now: Date): Promise<'closed' | 'not-due' | 'lost'> {
  const current = await port.getIncident(tenantId, id);
  const planned = current ? planAutoClose(current, now.toISOString()) : null;
  if (!current || !planned) return 'not-due';
  const pick = (i: Incident) => Object.fromEntries(AUDITED.map((k) => [k, i[k]]));
  const system: Identity = { sub: SYSTEM_ACTOR, email: '', groups: [], tenants: [], isAdmin: false } as unknown as Identity;
  const entry = auditEntryFor({ identity: system, requestId: 'auto-close', sourceIp: '-', now }, tenantId, 'incident.auto_close', { type: 'incident', id }, changedFields(pick(current), pick(planned.incident)));
  return (await port.saveUpdate(tenantId, planned.incident, current, planned.change, null, entry)) ? 'closed' : 'lost';
}

/** `POST /incidents/{id}/closure-request`. See `planClosureRequest`. */
export function requestIncidentClosure(port: IncidentsPort, tenantId: string, id: string, note: string, identity: Identity, now: string, audit?: AuditRequest): Promise<Incident> {
  return applyPlan(port, tenantId, id, identity, now, 'incident.closure_request', (c) => planClosureRequest(c, note, actorName(identity), now), audit);
}

/** `POST /incidents/{id}/reopen`. See `planReopen`. */
export function reopenIncident(port: IncidentsPort, tenantId: string, id: string, reason: string, identity: Identity, now: string, audit?: AuditRequest): Promise<Incident> {
  return applyPlan(port, tenantId, id, identity, now, 'incident.reopen', (c) => planReopen(c, reason, actorName(identity), now), audit);
}

/** `POST /incidents/{id}/confirm-resolution`. See `planConfirmResolution`. */
export function confirmIncidentResolution(port: IncidentsPort, tenantId: string, id: string, note: string | undefined, identity: Identity, now: string, audit?: AuditRequest): Promise<Incident> {
  return applyPlan(port, tenantId, id, identity, now, 'incident.confirm_resolution', (c) => planConfirmResolution(c, note, actorName(identity), now), audit);
}

/** Minutes from `now` to `slaDueAt`, rounded down; negative once breached. */
export function minutesToBreach(slaDue: string, now: Date): number {
  return Math.floor((Date.parse(slaDue) - now.getTime()) / 60_000);
}

/**
 * `GET /soc/queue` (staff, docs/sla.md#soc-queue): one page of a tab of every tenant's queue — `open` (default):
 * the open work, untriaged or new first, then by SLA due time (`sort=due`: by due time alone); `resolved`: the
 * resolved incidents waiting for the customer — each with its minutes to breach and whether it is at risk
 * (`socAtRisk`), and the tab counts of the page's scope. `mine` filters on the caller's name as assignee
 * (`actorName`), `unassigned` on incidents nobody is assigned.
 * @throws ApiError VALIDATION_FAILED for `unassigned` with `assignee` or `mine` (`details.fields`)
 */
export async function listSocQueue(
  port: IncidentsPort,
  q: {
    tenant?: string | undefined;
    severity?: Severity[] | undefined;
    status?: IncidentStatus[] | undefined;
    assignee?: string | undefined;
    mine?: 'true' | 'false' | undefined;
    unassigned?: 'true' | 'false' | undefined;
    tab?: 'open' | 'resolved' | undefined;
    sort?: 'priority' | 'due' | undefined;
    limit: number;
    cursor?: string | undefined;
  },
  identity: Identity,
  now: Date,
): Promise<Page<Incident & { minutesToBreach: number; atRisk: boolean }> & { counts: { open: number; resolved: number } }> {
  const unassigned = q.unassigned === 'true';
  if (unassigned && (q.mine === 'true' || q.assignee !== undefined)) {
    throw new ApiError('VALIDATION_FAILED', 'unassigned cannot be combined with assignee or mine', [{ path: 'query.unassigned', message: 'not with assignee or mine' }]);
  }
  const page = await port.listSocQueue({
    tenantId: q.tenant,
    severity: q.severity,
    status: q.status,
    assignee: q.mine === 'true' ? actorName(identity) : q.assignee,
    unassigned,
    tab: q.tab,
    sort: q.sort,
    limit: q.limit,
    cursor: q.cursor,
  });
  const item = (i: Incident) => {
    const minutes = minutesToBreach(i.slaDueAt, now);
    return { ...i, minutesToBreach: minutes, atRisk: i.status !== 'resolved' && i.status !== 'closed' && socAtRisk(minutes) };
  };
  return { items: page.items.map(item), nextCursor: page.nextCursor, counts: page.counts };
}

/**
 * A writer of one comment on incident `id` of `tenantId` (`POST /incidents/{id}/comments`): the comment of
 * `body` by `identity` at `now` (ISO 8601), stored with its audit entry when `audit` is given; the stored comment.
 * One per visibility: {@link commentOnIncident} (public), `addInternalNote` (internal-notes.ts).
 * @throws ApiError NOT_FOUND (no such incident), and what the writer's own rules refuse.
 */
export type CommentWriter = (
  port: IncidentsPort,
  tenantId: string,
  id: string,
  body: string,
  identity: Identity,
  now: string,
  audit?: AuditRequest,
) => Promise<IncidentComment>;

/**
 * The public comment (author = the caller), its audit entry under the tenant.
 * @throws ApiError NOT_FOUND
 */
export const commentOnIncident: CommentWriter = async (port, tenantId, id, body, identity, now, audit) => {
  const comment: IncidentComment = { ...newComment(actorName(identity), body, now), authorSub: identity.sub };
  const entry = audit ? auditEntryFor(audit, tenantId, 'incident.comment', { type: 'incident', id }, { after: { commentId: comment.id } }) : undefined;
  if (!(await port.addComment(tenantId, id, comment, entry))) throw new ApiError('NOT_FOUND', `incident ${id} not found`);
  return comment;
};

/**
 * `GET /assignees` (staff): the enabled members of the tenant's group and of `admin` that have an e-mail,
 * staff first, then by e-mail; someone in both counts as staff. Reads the user pool (two group listings,
 * ListUsersInGroup only). The same list bounds the `assignee` of an incident (`assertAssignee`).
 */
export async function listAssignees(users: GroupMembersPort, tenantId: string, staffGroup = 'admin'): Promise<AssigneeList> {
  const [members, staff] = await Promise.all([users.listGroupMembers(tenantId), users.listGroupMembers(staffGroup)]);
  const out = new Map<string, AssigneeList['items'][number]>();
  for (const [list, isStaff] of [[staff, true], [members, false]] as const) {
    for (const u of list) {
      if (!u.enabled || !u.email || out.has(u.username)) continue;
      out.set(u.username, { username: u.username, email: u.email, staff: isStaff });
    }
  }
  const items = [...out.values()].sort((a, b) => Number(b.staff) - Number(a.staff) || a.email.localeCompare(b.email));
  return { items };
}

/**
 * The e-mail `assignee` stands for when it is on the tenant's assignee list (`listAssignees`: enabled
 * members of the tenant group or the staff group with an e-mail; compared without regard to case), as that
 * list spells it. Staff may name only those (docs/api.md#assignees).
 * @throws ApiError UNKNOWN_ASSIGNEE (400, `details: { fields: ['assignee'] }`) for anyone else
 */
export async function assertAssignee(users: GroupMembersPort, tenantId: string, assignee: string): Promise<string> {
  const wanted = assignee.trim().toLowerCase();
  const match = (await listAssignees(users, tenantId)).items.find((a) => a.email.toLowerCase() === wanted);
  if (!match) {
    throw new ApiError('UNKNOWN_ASSIGNEE', `${assignee} is not an enabled user of tenant ${tenantId} nor a staff member`, { fields: ['assignee'] });
  }
  return match.email;
}
