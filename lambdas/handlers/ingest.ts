/**
 * Ingest Lambda: the collectors' routes (`auth: 'iam'` in the route table): ingestHeartbeat,
 * ingestDeviceAlarm. Authorised by IAM (SigV4) in AWS and by the local access key in the local gateway;
 * a Cognito user is refused (403) by the plumbing in `lambdas/http/api.ts`.
 *
 * Every event carries an `eventId`; replays are idempotent by the event's natural key (a heartbeat only
 * moves `lastHeartbeatAt` forward; an alarm id is raised once and cleared once) and answer
 * `200 { eventId, applied: false }`. A first application answers `202 { eventId, applied: true }`.
 * Unknown tenant/device/alarm → 404 NOT_FOUND.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import * as z from 'zod';
import { DeviceAlarmIngest, HeartbeatIngest, O365AlarmIngest, O365EventIngest, RecommendationIngest, type IngestResult } from '../contract/schemas.js';
import { ApiError } from '../domain/errors.js';
import { createApi, type Operation, type OperationContext, type OperationResult } from '../http/api.js';

const NoQuery = z.strictObject({});

/** @throws ApiError NOT_FOUND when the tenant is not registered. */
async function requireTenant(ctx: OperationContext, tenantId: string): Promise<void> {
  if (!(await ctx.repo.tenants.getTenant(tenantId))) throw new ApiError('NOT_FOUND', `tenant ${tenantId} not found`);
}

const result = (eventId: string, applied: boolean): OperationResult => ({
  status: applied ? 202 : 200,
  body: { eventId, applied } satisfies IngestResult,
});

export const operations = {
  ingestHeartbeat: async (ctx) => {
    ctx.query(NoQuery);
    const hb = ctx.body(HeartbeatIngest);
    const applied = await ctx.repo.devices.ingestHeartbeat({ tenantId: hb.tenantId, deviceId: hb.deviceId, at: hb.at });
    if (!applied && !(await ctx.repo.devices.getDevice(hb.tenantId, hb.deviceId))) {
      throw new ApiError('NOT_FOUND', `device ${hb.deviceId} of tenant ${hb.tenantId} not found`);
    }
    return result(hb.eventId, applied);
  },
  ingestDeviceAlarm: async (ctx) => {
    ctx.query(NoQuery);
    const ev = ctx.body(DeviceAlarmIngest);
    if (!(await ctx.repo.devices.getDevice(ev.tenantId, ev.deviceId))) {
      throw new ApiError('NOT_FOUND', `device ${ev.deviceId} of tenant ${ev.tenantId} not found`);
    }
    if (ev.action === 'raise') {
      const applied = await ctx.repo.devices.raiseAlarm({
        id: ev.alarmId,
        tenantId: ev.tenantId,
        deviceId: ev.deviceId,
        title: ev.title,
        severity: ev.severity,
        state: 'active',
        raisedAt: ev.at,
        acknowledgedAt: null,
        acknowledgedBy: null,
        clearedAt: null,
      });
      return result(ev.eventId, applied);
    }
    const r = await ctx.repo.devices.transitionAlarm(ev.tenantId, ev.deviceId, ev.alarmId, ['active', 'acknowledged'], 'cleared', { clearedAt: ev.at });
    if (!r) throw new ApiError('NOT_FOUND', `alarm ${ev.alarmId} of device ${ev.deviceId} not found`);
    return result(ev.eventId, r.changed);
  },
  ingestOffice365Alarm: async (ctx) => {
    ctx.query(NoQuery);
    const ev = ctx.body(O365AlarmIngest);
    await requireTenant(ctx, ev.tenantId);
    const { eventId, alarmId, ...rest } = ev;
    return result(eventId, await ctx.repo.office365.upsertAlarm({ ...rest, id: alarmId }));
  },
  ingestOffice365Event: async (ctx) => {
    ctx.query(NoQuery);
    const { eventId, ...ev } = ctx.body(O365EventIngest);
    await requireTenant(ctx, ev.tenantId);
    return result(eventId, await ctx.repo.office365.putEvent({ ...ev, id: eventId }));
  },
  ingestRecommendation: async (ctx) => {
    ctx.query(NoQuery);
    const ev = ctx.body(RecommendationIngest);
    await requireTenant(ctx, ev.tenantId);
    const applied = await ctx.repo.recommendations.put({
      id: ev.recommendationId,
      tenantId: ev.tenantId,
      title: ev.title,
      rationale: ev.rationale,
      priority: ev.priority,
      category: ev.category,
      status: 'open',
      createdAt: ev.at,
      statusNote: null,
      statusChangedBy: null,
      statusChangedAt: null,
    });
    return result(ev.eventId, applied);
  },
} satisfies Record<string, Operation>;

const api = createApi('ingest', operations);

/** API Gateway REST (v1 proxy) entry point. */
export function handler(event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> {
  return api(event, context);
}
