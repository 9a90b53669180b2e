/**
 * Incidents Lambda: listIncidents, createIncident, getIncident, updateIncident, addIncidentComment
 * (route table rows with `handler: 'incidents'`). Validation and errors: `lambdas/http/api.ts`;
 * rules: `lambdas/domain/incidents.ts`.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import {
  AddCommentBody,
  CreateIncidentBody,
  IdempotencyKey,
  IncidentIdParams,
  ListIncidentsQuery,
  TenantQuery,
  UpdateIncidentBody,
} from '../contract/schemas.js';
import { ApiError } from '../domain/errors.js';
import { commentOnIncident, getIncidentDetail, openIncident, updateIncident } from '../domain/incidents.js';
import { createApi, type Operation, type OperationContext } from '../http/api.js';
import { header, validate } from '../http/validation.js';

/** Tenant of a tenant-scoped route (always set by the plumbing for these routes). */
const tenant = (ctx: OperationContext): string => ctx.tenantId!;

export const operations = {
  listIncidents: async (ctx) => {
    const q = ctx.query(ListIncidentsQuery);
    return {
      status: 200,
      body: await ctx.repo.incidents.listIncidents(tenant(ctx), {
        limit: q.limit,
        cursor: q.cursor,
        status: q.status,
        severity: q.severity,
        from: q.from,
        to: q.to,
        q: q.q,
        sort: q.sort,
      }),
    };
  },
  createIncident: async (ctx) => {
    ctx.query(TenantQuery);
    const rawKey = header(ctx.event, 'idempotency-key');
    const key = rawKey === undefined ? undefined : validate(IdempotencyKey, rawKey, 'header');
    const body = ctx.body(CreateIncidentBody);
    // Only the SOC (admin) files tickets on behalf of its own analysts or alarms.
    if (body.source !== undefined && body.source !== 'portal' && !ctx.identity.isAdmin) {
      throw new ApiError('FORBIDDEN', 'only the SOC (admin) may open incidents with source soc or alarm');
    }
    const open = () => openIncident(ctx.repo.incidents, tenant(ctx), body, ctx.identity, ctx.now.toISOString());
    const incident = key === undefined ? await open() : await ctx.repo.idempotency.run({ operation: 'createIncident', tenantId: tenant(ctx), key, payload: body, lambdaContext: ctx.lambdaContext }, open);
    return { status: 201, body: incident };
  },
  getIncident: async (ctx) => {
    const { id } = ctx.params(IncidentIdParams);
    ctx.query(TenantQuery);
    return { status: 200, body: await getIncidentDetail(ctx.repo.incidents, tenant(ctx), id) };
  },
  updateIncident: async (ctx) => {
    const { id } = ctx.params(IncidentIdParams);
    ctx.query(TenantQuery);
    const patch = ctx.body(UpdateIncidentBody);
    return { status: 200, body: await updateIncident(ctx.repo.incidents, tenant(ctx), id, patch, ctx.identity, ctx.now.toISOString()) };
  },
  addIncidentComment: async (ctx) => {
    const { id } = ctx.params(IncidentIdParams);
    ctx.query(TenantQuery);
    const { body } = ctx.body(AddCommentBody);
    return { status: 201, body: await commentOnIncident(ctx.repo.incidents, tenant(ctx), id, body, ctx.identity, ctx.now.toISOString()) };
  },
} satisfies Record<string, Operation>;

const api = createApi('incidents', operations);

/** API Gateway REST (v1 proxy) entry point. */
export function handler(event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> {
  return api(event, context);
}
