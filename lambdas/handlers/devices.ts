/**
 * Devices Lambda: listDevices (route table rows with `handler: 'devices'`). Status, availability and open
 * alarms are derived in `lambdas/domain/devices.ts`.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { ListDevicesQuery } from '../contract/schemas.js';
import { listDevicesView } from '../domain/devices.js';
import { createApi, type Operation } from '../http/api.js';

export const operations = {
  listDevices: async (ctx) => {
    const q = ctx.query(ListDevicesQuery);
    return { status: 200, body: await listDevicesView(ctx.repo.devices, ctx.tenantId!, { limit: q.limit, cursor: q.cursor }, ctx.now) };
  },
} satisfies Record<string, Operation>;

const api = createApi('devices', operations);

/** API Gateway REST (v1 proxy) entry point. */
export function handler(event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> {
  return api(event, context);
}
