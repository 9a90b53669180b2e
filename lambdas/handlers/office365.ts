/** Office 365 Lambda: listOffice365Alarms, listOffice365Events (read-only; the collectors write via ingest). */
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { ListO365AlarmsQuery, ListO365EventsQuery } from '../contract/schemas.js';
import { createApi, type Operation } from '../http/api.js';

export const operations = {
  listOffice365Alarms: async (ctx) => {
    const { tenant: _t, ...q } = ctx.query(ListO365AlarmsQuery);
    return { status: 200, body: await ctx.repo.office365.listAlarms(ctx.tenantId!, q) };
  },
  listOffice365Events: async (ctx) => {
    const { tenant: _t, ...q } = ctx.query(ListO365EventsQuery);
    return { status: 200, body: await ctx.repo.office365.listEvents(ctx.tenantId!, q) };
  },
} satisfies Record<string, Operation>;

const api = createApi('office365', operations);

/** API Gateway REST (v1 proxy) entry point. */
export function handler(event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> {
  return api(event, context);
}
