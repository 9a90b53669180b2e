/**
 * Recommendations Lambda: listRecommendations, updateRecommendation. A status change follows
 * `RECOMMENDATION_TRANSITIONS` (409 INVALID_TRANSITION otherwise, with `details.allowed`) and records the
 * note, who (e-mail or `sub`) and when; a concurrent change of the same recommendation answers 409
 * VERSION_CONFLICT (the status read is the write condition).
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import {
  ListRecommendationsQuery,
  RECOMMENDATION_TRANSITIONS,
  RecommendationIdParams,
  TenantQuery,
  UpdateRecommendationBody,
} from '../contract/schemas.js';
import { ApiError } from '../domain/errors.js';
import { actorName } from '../domain/incidents.js';
import { createApi, type Operation } from '../http/api.js';

export const operations = {
  listRecommendations: async (ctx) => {
    const { tenant: _t, ...q } = ctx.query(ListRecommendationsQuery);
    return { status: 200, body: await ctx.repo.recommendations.list(ctx.tenantId!, q) };
  },
  updateRecommendation: async (ctx) => {
    const { id } = ctx.params(RecommendationIdParams);
    ctx.query(TenantQuery);
    const body = ctx.body(UpdateRecommendationBody);
    const current = await ctx.repo.recommendations.get(ctx.tenantId!, id);
    if (!current) throw new ApiError('NOT_FOUND', `recommendation ${id} not found`);
    if (!RECOMMENDATION_TRANSITIONS[current.status].includes(body.status)) {
      throw new ApiError('INVALID_TRANSITION', `cannot change status from ${current.status} to ${body.status}`, {
        from: current.status,
        to: body.status,
        allowed: [...RECOMMENDATION_TRANSITIONS[current.status]],
      });
    }
    const updated = await ctx.repo.recommendations.changeStatus(ctx.tenantId!, id, current.status, {
      status: body.status,
      note: body.note,
      by: actorName(ctx.identity),
      at: ctx.now.toISOString(),
    });
    if (!updated) throw new ApiError('VERSION_CONFLICT', 'the recommendation was changed by someone else; reload it');
    return { status: 200, body: updated };
  },
} satisfies Record<string, Operation>;

const api = createApi('recommendations', operations);

/** API Gateway REST (v1 proxy) entry point. */
export function handler(event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> {
  return api(event, context);
}
