/**
 * Devices Lambda: listDevices, getDevice, listAlarms, acknowledgeAlarm (route table rows with
 * `handler: 'devices'`). Status, availability and alarm rules live in `lambdas/domain/devices.ts`.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { AlarmParams, DeviceIdParams, ListAlarmsQuery, ListDevicesQuery, TenantQuery } from '../contract/schemas.js';
import { acknowledgeAlarm, deviceDetailView, listDevicesView } from '../domain/devices.js';
import { createApi, type Operation } from '../http/api.js';

export const operations = {
  listDevices: async (ctx) => {
    const q = ctx.query(ListDevicesQuery);
    return { status: 200, body: await listDevicesView(ctx.repo.devices, ctx.tenantId!, { limit: q.limit, cursor: q.cursor }, ctx.now) };
  },
  getDevice: async (ctx) => {
    const { id } = ctx.params(DeviceIdParams);
    ctx.query(TenantQuery);
    return { status: 200, body: await deviceDetailView(ctx.repo.devices, ctx.tenantId!, id, ctx.now) };
  },
  listAlarms: async (ctx) => {
    const q = ctx.query(ListAlarmsQuery);
    const { tenant: _tenant, ...opts } = q;
    return { status: 200, body: await ctx.repo.devices.listAlarms(ctx.tenantId!, opts) };
  },
  acknowledgeAlarm: async (ctx) => {
    const { deviceId, alarmId } = ctx.params(AlarmParams);
    ctx.query(TenantQuery);
    return { status: 200, body: await acknowledgeAlarm(ctx.repo.devices, ctx.tenantId!, deviceId, alarmId, ctx.identity, ctx.now) };
  },
} satisfies Record<string, Operation>;

const api = createApi('devices', operations);

/** API Gateway REST (v1 proxy) entry point. */
export function handler(event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> {
  return api(event, context);
}
