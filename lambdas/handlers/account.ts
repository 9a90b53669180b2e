/** Account Lambda: getMe (`GET /me`) and listTenants (`GET /tenants`, admin only by the route table). */
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import * as z from 'zod';
import { describeMe } from '../domain/account.js';
import { createApi, type Operation } from '../http/api.js';

const NoQuery = z.strictObject({});

export const operations = {
  getMe: async (ctx) => {
    ctx.query(NoQuery);
    return { status: 200, body: await describeMe(ctx.repo.tenants, ctx.identity) };
  },
  listTenants: async (ctx) => {
    ctx.query(NoQuery);
    return { status: 200, body: { items: await ctx.repo.tenants.listTenants() } };
  },
} satisfies Record<string, Operation>;

const api = createApi('account', operations);

/** API Gateway REST (v1 proxy) entry point. */
export function handler(event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> {
  return api(event, context);
}
