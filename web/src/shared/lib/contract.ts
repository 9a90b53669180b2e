/**
 * The portal's single door to the API contract (`lambdas/contract`): zod schemas, inferred types, the
 * operation types the API client is typed by, and the route helpers (the `/config.json` shape is imported
 * by `config.ts` alone, to keep the sign-in entry small). A relative re-export (no path alias) so Vite,
 * `tsc -p web` and the vitest `web` project all resolve it the same way.
 */
import './zod-setup';

export {
  CreateIncidentBody,
  DeviceId,
  IncidentId,
  SEVERITIES,
  INCIDENT_STATUSES,
  DEVICE_STATUSES,
  INCIDENT_TRANSITIONS,
  SOC_BULK_MAX_ITEMS,
  ALARM_CONSOLE_KINDS,
  ALARM_CONSOLE_STATES,
  ALARM_STATES,
  O365_ALARM_STATUSES,
  RECOMMENDATION_STATUSES,
  RECOMMENDATION_PRIORITIES,
  RECOMMENDATION_TRANSITIONS,
  INCIDENT_SOURCES,
  AUDIT_ACTIONS,
  ACCESS_REQUEST_STATUSES,
  ACTIVITY_KINDS,
  ACTIVITY_SEVERITIES,
  WEBHOOK_FORMATS,
} from '../../../../lambdas/contract/schemas';
export type {
  Incident,
  IncidentDetail,
  IncidentComment,
  CommentVisibility,
  IncidentChange,
  IncidentStatus,
  Severity,
  Device,
  DeviceStatus,
  DeviceAlarm,
  Office365Alarm,
  Office365Event,
  Recommendation,
  Report,
  ReportFigures,
  Analytics,
  RecommendationStatus,
  DeviceDetail,
  AlarmState,
  IncidentSource,
  Me,
  Tenant,
  Page,
  ApiErrorBody,
  ErrorCode,
  UpdateIncidentBody,
  AddCommentBody,
  TriageIncidentBody,
  SocQueueItem,
  AlarmConsoleItem,
  AlarmConsoleQuery,
  SocBulkBody,
  SocBulkResult,
  Assignee,
  TenantSummary,
  Summary,
  PoolUser,
  AccessRequest,
  AccessRequestStatus,
  SlaTargets,
  AuditEntry,
  AuditAction,
  ActivityEvent,
  ActivityUnread,
  SocQueueQuery,
  ListAuditQuery,
  CreateTenantBody,
  UpdateTenantBody,
  PutTenantIdentityProviderBody,
  TenantIdentityProviderState,
  ActivityKind,
  ActivitySeverity,
  NotificationPreferences,
  WebhookView,
  WebhookDelivery,
  WebhookTestResult,
} from '../../../../lambdas/contract/schemas';
export { MAX_ESCALATION_CONTACTS, WEEKDAYS, E164_PATTERN, PutEscalationContactsBody } from '../../../../lambdas/contract/escalation-contacts';
export type { EscalationContact, EscalationContacts, EscalationWindow, Weekday } from '../../../../lambdas/contract/escalation-contacts';
export { ATTACHMENT_CONTENT_TYPES, ATTACHMENT_MAX_BYTES, attachmentTypeOfName, isAllowedAttachmentType } from '../../../../lambdas/contract/attachments';
export type { Attachment, AttachmentUpload } from '../../../../lambdas/contract/attachments';
export { MAX_WINDOW_DAYS, windowStatus } from '../../../../lambdas/contract/maintenance-windows';
export type { MaintenanceWindow, WindowStatus } from '../../../../lambdas/contract/maintenance-windows';
export { ADMIN_GROUP } from '../../../../lambdas/contract/routes';
export { convertCsv, csvField, csvText, CSV_STANDARD, excelCsvDialect, UTF8_BOM, type CsvDialect } from '../../../../lambdas/contract/csv';
export { buildPath, routeById } from '../../../../lambdas/contract/operations';
export type { OperationBody, OperationId, OperationParams, OperationQuery, OperationResponse } from '../../../../lambdas/contract/operations';
