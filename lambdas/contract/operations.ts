/**
 * Request/response schemas per operation of the route table: the one map from which the OpenAPI document
 * is generated (`openapi.ts`) and against which integration tests check responses. Every schema is the
 * one the handlers validate with (`schemas.ts`), so the document cannot drift from the code.
 */
import * as z from 'zod';
import type { OperationId } from './routes.js';
import {
  AddCommentBody,
  AlarmParams,
  CreateIncidentBody,
  Device,
  DeviceAlarm,
  DeviceAlarmIngest,
  DeviceDetail,
  DeviceIdParams,
  HeartbeatIngest,
  IdempotencyKey,
  Incident,
  IncidentComment,
  IncidentDetail,
  IncidentIdParams,
  IngestResult,
  ListAlarmsQuery,
  ListDevicesQuery,
  ListIncidentsQuery,
  Me,
  TenantList,
  TenantQuery,
  UpdateIncidentBody,
  pageOf,
  ListO365AlarmsQuery,
  ListO365EventsQuery,
  ListRecommendationsQuery,
  O365AlarmIngest,
  O365EventIngest,
  Office365Alarm,
  Office365Event,
  Recommendation,
  RecommendationIdParams,
  RecommendationIngest,
  UpdateRecommendationBody,
  Analytics,
  AnalyticsQuery,
  Report,
  ReportQuery,
} from './schemas.js';

export interface OperationSchemas {
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Extra request headers, name → schema (e.g. `Idempotency-Key`). */
  headers?: Record<string, z.ZodType>;
  /** Success status and body. */
  status: number;
  response: z.ZodType;
}

const NoQuery = z.strictObject({});

export const OPERATION_SCHEMAS = {
  getMe: { query: NoQuery, status: 200, response: Me },
  listTenants: { query: NoQuery, status: 200, response: TenantList },
  listIncidents: { query: ListIncidentsQuery, status: 200, response: pageOf(Incident) },
  createIncident: {
    query: TenantQuery,
    body: CreateIncidentBody,
    headers: { 'Idempotency-Key': IdempotencyKey },
    status: 201,
    response: Incident,
  },
  getIncident: { params: IncidentIdParams, query: TenantQuery, status: 200, response: IncidentDetail },
  updateIncident: { params: IncidentIdParams, query: TenantQuery, body: UpdateIncidentBody, status: 200, response: Incident },
  addIncidentComment: { params: IncidentIdParams, query: TenantQuery, body: AddCommentBody, status: 201, response: IncidentComment },
  listDevices: { query: ListDevicesQuery, status: 200, response: pageOf(Device) },
  getDevice: { params: DeviceIdParams, query: TenantQuery, status: 200, response: DeviceDetail },
  listAlarms: { query: ListAlarmsQuery, status: 200, response: pageOf(DeviceAlarm) },
  acknowledgeAlarm: { params: AlarmParams, query: TenantQuery, status: 200, response: DeviceAlarm },
  listOffice365Alarms: { query: ListO365AlarmsQuery, status: 200, response: pageOf(Office365Alarm) },
  listOffice365Events: { query: ListO365EventsQuery, status: 200, response: pageOf(Office365Event) },
  listRecommendations: { query: ListRecommendationsQuery, status: 200, response: pageOf(Recommendation) },
  updateRecommendation: { params: RecommendationIdParams, query: TenantQuery, body: UpdateRecommendationBody, status: 200, response: Recommendation },
  getReport: { query: ReportQuery, status: 200, response: Report },
  getAnalytics: { query: AnalyticsQuery, status: 200, response: Analytics },
  ingestOffice365Alarm: { query: NoQuery, body: O365AlarmIngest, status: 202, response: IngestResult },
  ingestOffice365Event: { query: NoQuery, body: O365EventIngest, status: 202, response: IngestResult },
  ingestRecommendation: { query: NoQuery, body: RecommendationIngest, status: 202, response: IngestResult },
  ingestHeartbeat: { query: NoQuery, body: HeartbeatIngest, status: 202, response: IngestResult },
  ingestDeviceAlarm: { query: NoQuery, body: DeviceAlarmIngest, status: 202, response: IngestResult },
} as const satisfies Record<OperationId, OperationSchemas>;

/** Inferred request/response types per operation (for the portal's API client). */
export type OperationResponse<Op extends OperationId> = z.output<(typeof OPERATION_SCHEMAS)[Op]['response']>;
export type OperationQuery<Op extends OperationId> = (typeof OPERATION_SCHEMAS)[Op] extends { query: infer Q extends z.ZodType } ? z.input<Q> : never;
export type OperationBody<Op extends OperationId> = (typeof OPERATION_SCHEMAS)[Op] extends { body: infer B extends z.ZodType } ? z.input<B> : never;
