/**
 * Incident rules: ids, SLA, lifecycle, version-checked updates with change history.
 *
 * Plain functions over a storage port (`IncidentsPort`, implemented in `lambdas/data/incidents.ts`);
 * no AWS imports. Times are ISO-8601 UTC strings; `now` is injected for tests.
 */
import { INCIDENT_TRANSITIONS } from '../contract/schemas.js';
import type {
  CreateIncidentBody,
  Incident,
  IncidentChange,
  IncidentComment,
  IncidentDetail,
  IncidentSource,
  IncidentStatus,
  Page,
  Severity,
} from '../contract/schemas.js';
import type { Context } from 'aws-lambda';
import { ApiError } from './errors.js';
import type { Identity } from './identity.js';
import type { IdempotencyPort, IncidentListOptions, IncidentsPort } from './ports.js';

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

/** SLA deadline: `createdAt` + `SLA_HOURS[severity]`, ISO-8601 UTC. */
export function slaDueAt(createdAt: string, severity: Severity): string {
  return new Date(Date.parse(createdAt) + SLA_HOURS[severity] * 3_600_000).toISOString();
}

/** How the caller is named in reporter/author/history fields: e-mail, or `sub` when the token has none. */
export function actorName(identity: Identity): string {
  return identity.email || identity.sub;
}

/** A validated create body (defaults applied). `assignee`/`source` default to null / `portal`. */
export type NewIncidentInput = Required<Pick<CreateIncidentBody, 'title' | 'description' | 'severity' | 'category'>> & {
  assignee?: string | null | undefined;
  source?: IncidentSource | undefined;
};

/** A new incident (status `new`, version 1) from a validated create body. */
export function newIncident(
  tenantId: string,
  seq: number,
  body: NewIncidentInput,
  reporter: string,
  now: string,
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
    slaDueAt: slaDueAt(now, body.severity),
    version: 1,
  };
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
}

export interface PlannedUpdate {
  incident: Incident;
  change: IncidentChange;
  comment: IncidentComment | null;
}

/** A comment authored now, with a random id. */
export function newComment(author: string, body: string, now: string): IncidentComment {
  return { id: globalThis.crypto.randomUUID(), author, body, createdAt: now };
}

/**
 * Applies a patch to the current incident (pure). The result has version + 1, `updatedAt = now`, one
 * history entry listing every changed field (`from → to`; empty when only a comment was added), and
 * `resolvedAt` set when entering `resolved` / cleared when reopening. A severity change moves `slaDueAt`.
 * @throws ApiError VERSION_CONFLICT (`details.currentVersion`) when `patch.version` is not the current one;
 *         INVALID_TRANSITION (`details.from`, `details.to`, `details.allowed`) for a forbidden status change.
 */
export function planUpdate(current: Incident, patch: IncidentPatch, actor: string, now: string): PlannedUpdate {
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
    next.status = patch.status;
    changes.push({ field: 'status', from: current.status, to: patch.status });
    if (patch.status === 'resolved') next.resolvedAt = now;
    else if (current.status === 'resolved' && patch.status !== 'closed') next.resolvedAt = null;
  }
  if (patch.severity !== undefined && patch.severity !== current.severity) {
    next.severity = patch.severity;
    next.slaDueAt = slaDueAt(current.createdAt, patch.severity);
    changes.push({ field: 'severity', from: current.severity, to: patch.severity });
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
    change: { version: next.version, at: now, by: actor, changes },
    comment: patch.comment !== undefined ? newComment(actor, patch.comment, now) : null,
  };
}

/** A page of the tenant's incidents for a validated `ListIncidentsQuery` (its `tenant` is not a filter). */
export function listIncidents(port: IncidentsPort, tenantId: string, q: IncidentListOptions & { tenant?: string | undefined }): Promise<Page<Incident>> {
  const { tenant: _tenant, ...opts } = q;
  return port.listIncidents(tenantId, opts);
}

/**
 * `POST /incidents`: opens an incident for the caller. Only the SOC (admin) files tickets with source
 * `soc` or `alarm`; customers always open `portal` ones. With an `Idempotency-Key`, a retry with the same
 * key and body answers the incident opened first (see docs/api.md#idempotency).
 * @throws ApiError FORBIDDEN; IDEMPOTENCY_KEY_REUSED; IDEMPOTENCY_IN_PROGRESS
 */
export async function fileIncident(
  ports: { incidents: IncidentsPort; idempotency: IdempotencyPort },
  tenantId: string,
  body: NewIncidentInput,
  identity: Identity,
  now: Date,
  retry: { key?: string | undefined; lambdaContext?: Context | undefined } = {},
): Promise<Incident> {
  if (body.source !== undefined && body.source !== 'portal' && !identity.isAdmin) {
    throw new ApiError('FORBIDDEN', 'only the SOC (admin) may open incidents with source soc or alarm');
  }
  const open = () => openIncident(ports.incidents, tenantId, body, identity, now.toISOString());
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

/** Opens an incident for the caller in `tenantId`. */
export function openIncident(
  port: IncidentsPort,
  tenantId: string,
  body: NewIncidentInput,
  identity: Identity,
  now: string,
): Promise<Incident> {
  return port.createIncident(tenantId, (seq) => newIncident(tenantId, seq, body, actorName(identity), now));
}

/** @throws ApiError NOT_FOUND */
export async function getIncidentDetail(port: IncidentsPort, tenantId: string, id: string): Promise<IncidentDetail> {
  const d = await port.getIncidentDetail(tenantId, id);
  if (!d) throw new ApiError('NOT_FOUND', `incident ${id} not found`);
  return d;
}

/**
 * Version-checked update (see `planUpdate`). Returns the updated incident.
 * @throws ApiError NOT_FOUND, VERSION_CONFLICT (also when a concurrent writer wins the race), INVALID_TRANSITION
 */
export async function updateIncident(
  port: IncidentsPort,
  tenantId: string,
  id: string,
  patch: IncidentPatch,
  identity: Identity,
  now: string,
): Promise<Incident> {
  const current = await port.getIncident(tenantId, id);
  if (!current) throw new ApiError('NOT_FOUND', `incident ${id} not found`);
  const plan = planUpdate(current, patch, actorName(identity), now);
  const ok = await port.saveUpdate(tenantId, plan.incident, current.version, plan.change, plan.comment);
  if (!ok) {
    const latest = await port.getIncident(tenantId, id);
    if (!latest) throw new ApiError('NOT_FOUND', `incident ${id} not found`);
    throw new ApiError('VERSION_CONFLICT', 'the incident was changed by someone else; reload it', {
      currentVersion: latest.version,
    });
  }
  return plan.incident;
}

/** @throws ApiError NOT_FOUND */
export async function commentOnIncident(
  port: IncidentsPort,
  tenantId: string,
  id: string,
  body: string,
  identity: Identity,
  now: string,
): Promise<IncidentComment> {
  const comment = newComment(actorName(identity), body, now);
  if (!(await port.addComment(tenantId, id, comment))) throw new ApiError('NOT_FOUND', `incident ${id} not found`);
  return comment;
}
