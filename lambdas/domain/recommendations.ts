/**
 * Recommendation rules: listing, and the status change of `PATCH /recommendations/{id}`.
 *
 * A status change follows `RECOMMENDATION_TRANSITIONS` (lambdas/contract/schemas.ts; the portal offers the
 * same table) and records the note, who (e-mail or `sub`) and when. The status read is the write
 * condition, so a concurrent change of the same recommendation loses with 409 VERSION_CONFLICT.
 */
import { RECOMMENDATION_TRANSITIONS, type Page, type Recommendation, type RecommendationStatus } from '../contract/schemas.js';
import { auditEntryFor } from './audit.js';
import { ApiError } from './errors.js';
import type { Identity } from './identity.js';
import { actorName } from './incidents.js';
import type { RecommendationListOptions, RecommendationsPort } from './ports.js';

/** A page of the tenant's recommendations, newest first (the query's `tenant` is not a filter). */
export function listRecommendations(port: Pick<RecommendationsPort, 'list'>, tenantId: string, q: RecommendationListOptions & { tenant?: string | undefined }): Promise<Page<Recommendation>> {
  const { tenant: _tenant, ...opts } = q;
  return port.list(tenantId, opts);
}

/**
 * Changes the status of a recommendation with a note (see module doc).
 * @throws ApiError NOT_FOUND; INVALID_TRANSITION (409, `details: { from, to, allowed }`); VERSION_CONFLICT
 */
export async function changeRecommendationStatus(
  port: Pick<RecommendationsPort, 'get' | 'changeStatus'>,
  tenantId: string,
  id: string,
  change: { status: RecommendationStatus; note: string },
  identity: Identity,
  now: Date,
  /** The request, for the audit entry written with the change (docs/api.md#audit-log); none = not audited. */
  request?: { requestId: string; sourceIp: string },
): Promise<Recommendation> {
  const current = await port.get(tenantId, id);
  if (!current) throw new ApiError('NOT_FOUND', `recommendation ${id} not found`);
  if (!RECOMMENDATION_TRANSITIONS[current.status].includes(change.status)) {
    throw new ApiError('INVALID_TRANSITION', `cannot change status from ${current.status} to ${change.status}`, {
      from: current.status,
      to: change.status,
      allowed: [...RECOMMENDATION_TRANSITIONS[current.status]],
    });
  }
  const audit = request
    ? auditEntryFor({ identity, now, ...request }, tenantId, 'recommendation.update', { type: 'recommendation', id }, {
        before: { status: current.status },
        after: { status: change.status, note: change.note },
      })
    : undefined;
  const updated = await port.changeStatus(
    tenantId,
    id,
    current.status,
    { status: change.status, note: change.note, by: actorName(identity), bySub: identity.sub, at: now.toISOString() },
    audit,
  );
  if (!updated) throw new ApiError('VERSION_CONFLICT', 'the recommendation was changed by someone else; reload it');
  return updated;
}
