/**
 * One valid request per operation of the route table, for tests that walk every row (input hardening,
 * storage faults, the property test): an acme user (or the SOC admin / a collector where the row requires
 * it) and the smallest body the row's schema accepts. The data they refer to (`INC-000001`…`INC-000004`, `dev-1`,
 * `al-1`, the Office 365 alert `o365-ack-1`, `rec-1` in tenants `acme`) is created by `seedExamples`.
 *
 * `exampleEvent(row, change?)` builds the API Gateway event; `change` may replace parts (`params`, `query`,
 * `body`, `headers`) to mutate one field.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type * as z from 'zod';
import { buildPath, type OperationId, type RouteDef } from '../../lambdas/contract/routes.js';
import type { TableWriters } from '../../lambdas/data/index.js';
import { attachmentsRepository } from '../../lambdas/data/attachments.js';
import { notificationsRepository } from '../../lambdas/data/notifications.js';
import { office365Repository } from '../../lambdas/data/office365.js';
import { accessRequestsRepository } from '../../lambdas/data/access-requests.js';
import { maintenanceWindowsRepository } from '../../lambdas/data/maintenance-windows.js';
import { accessRequestOf } from '../../lambdas/domain/access-requests.js';
import { newAuditEntry, STAFF_AUDIT_TENANT } from '../../lambdas/domain/audit.js';
import { apiEvent, type CallerSpec } from './events.js';

export interface Example {
  params?: Record<string, string>;
  query: Record<string, string>;
  body?: Record<string, unknown>;
  headers?: Record<string, string>;
  caller: CallerSpec | 'collector';
}

const AT = '2026-01-02T10:00:00.000Z';
/** The available attachment of INC-000001 (seeded by `seedExamples`). */
const EXAMPLE_ATTACHMENT_ID = 'att-0190a000-0000-7000-8000-000000000001';
/** Acme's customer admin (docs/api.md#customer-roles): reaches every tenant-scoped row's `minRole`. */
const user: CallerSpec = { sub: 'u-acme', groups: ['acme', 'customer-admin'] };
const admin: CallerSpec = { sub: 'u-soc', groups: ['admin'] };
/** A maintenance window tomorrow, two hours long (a customer may not declare one in the past). */
const MW_START = new Date(Date.now() + 86_400_000).toISOString();
const MW_END = new Date(Date.now() + 86_400_000 + 7_200_000).toISOString();
const MW_BODY = { title: 'Cambio de firmware', scope: { deviceIds: ['dev-1'], sites: ['M'] }, startAt: MW_START, endAt: MW_END };

export const EXAMPLES: Record<OperationId, Example> = {
  getMe: { query: {}, caller: user },
  listTenants: { query: {}, caller: admin },
  listIncidents: { query: { limit: '5' }, caller: user },
  searchComments: { query: { q: 'Hola', limit: '5' }, caller: user },
  createIncident: { query: {}, body: { title: 'Phishing', description: 'Correo', severity: 'high', category: 'phishing' }, headers: { 'Idempotency-Key': 'k-1' }, caller: user },
  getIncident: { params: { id: 'INC-000001' }, query: {}, caller: user },
  updateIncident: { params: { id: 'INC-000001' }, query: {}, body: { version: 1, comment: 'Revisado' }, caller: user },
  addIncidentComment: { params: { id: 'INC-000001' }, query: {}, body: { body: 'Hola' }, caller: user },
  createIncidentAttachment: { params: { id: 'INC-000001' }, query: {}, body: { fileName: 'firewall.log', contentType: 'text/plain', size: 1024 }, caller: user },
  // An available attachment: `complete` answers it as it is (no HeadObject), the download is presigned locally.
  completeIncidentAttachment: { params: { id: 'INC-000001', attachmentId: EXAMPLE_ATTACHMENT_ID }, query: {}, caller: user },
  listIncidentAttachments: { params: { id: 'INC-000001' }, query: { limit: '5' }, caller: user },
  getIncidentAttachment: { params: { id: 'INC-000001', attachmentId: EXAMPLE_ATTACHMENT_ID }, query: {}, caller: user },
  triageIncident: { params: { id: 'INC-000002' }, query: { tenant: 'acme' }, body: { version: 1, severity: 'critical', reason: 'Ransomware confirmado' }, caller: admin },
  requestIncidentClosure: { params: { id: 'INC-000001' }, query: {}, body: { note: 'Ya no ocurre' }, caller: user },
  reopenIncident: { params: { id: 'INC-000003' }, query: {}, body: { reason: 'Ha vuelto a ocurrir' }, caller: user },
  confirmIncidentResolution: { params: { id: 'INC-000004' }, query: {}, body: { note: 'Confirmado' }, caller: user },
  listSocQueue: { query: { limit: '5' }, caller: admin },
  // A row that applies or fails (its version moved) answers 200 with the row's result either way.
  bulkUpdateSocQueue: { query: {}, body: { action: 'assign', items: [{ tenantId: 'acme', id: 'INC-000002', version: 1 }], assignee: null }, caller: admin },
  listAssignees: { query: { tenant: 'acme' }, caller: admin },
  listDevices: { query: {}, caller: user },
  getDevice: { params: { id: 'dev-1' }, query: {}, caller: user },
  listAlarms: { query: { deviceId: 'dev-1' }, caller: user },
  searchAlarms: { query: { q: 'Enlace', limit: '5' }, caller: user },
  acknowledgeAlarm: { params: { deviceId: 'dev-1', alarmId: 'al-1' }, query: {}, caller: user },
  listAlarmConsole: { query: { tenant: 'acme', severity: 'high', state: 'open', kind: 'device', limit: '5' }, caller: admin },
  listOffice365Alarms: { query: { user: 'ana@acme.example' }, caller: user },
  searchOffice365Users: { query: { q: 'ana', limit: '5' }, caller: user },
  acknowledgeOffice365Alarm: { params: { alarmId: 'o365-ack-1' }, query: {}, caller: user },
  listOffice365Events: { query: { workload: 'Exchange', operation: 'UserLoggedIn', user: 'ana@acme.example', result: 'Succeeded' }, caller: user },
  listRecommendations: { query: {}, caller: user },
  updateRecommendation: { params: { id: 'rec-1' }, query: {}, body: { status: 'accepted', note: 'De acuerdo' }, caller: user },
  getReport: { query: { format: 'json' }, caller: user },
  getMonthlyReport: { params: { month: '2026-01' }, query: { lang: 'es' }, caller: user },
  getSlaHistory: { query: {}, caller: user },
  getAnalytics: { query: {}, caller: admin },
  getSummary: { query: {}, caller: user },
  getTenant: { params: { tenantId: 'acme' }, query: {}, caller: admin },
  createTenant: { query: {}, body: { tenantId: 'nueva', name: 'Nueva' }, caller: admin },
  updateTenant: { params: { tenantId: 'acme' }, query: {}, body: { name: 'Acme' }, caller: admin }, // same name: changes nothing other suites read
  listTenantSummaries: { query: {}, caller: admin },
  listTenantUsers: { params: { tenantId: 'acme' }, query: {}, caller: admin },
  inviteUser: { params: { tenantId: 'acme' }, query: {}, body: { email: 'nuevo@acme.example' }, caller: admin },
  removeTenantUser: { params: { tenantId: 'acme', username: 'u-1' }, query: {}, caller: admin },
  resendInvitation: { params: { username: 'u-1' }, query: {}, caller: admin },
  setUserEnabled: { params: { username: 'u-1' }, query: {}, body: { enabled: false }, caller: admin },
  resetUserMfa: { params: { username: 'u-1' }, query: {}, caller: admin },
  listStaff: { query: {}, caller: admin },
  grantStaff: { params: { username: 'u-1' }, query: {}, caller: admin },
  revokeStaff: { params: { username: 'u-1' }, query: {}, caller: admin },
  listAccessRequests: { query: {}, caller: admin },
  grantAccessRequest: { params: { id: 'u-1' }, query: {}, body: { tenantId: 'acme' }, caller: admin },
  dismissAccessRequest: { params: { id: 'u-2' }, query: {}, caller: admin },
  getTenantIdentityProvider: { params: { tenantId: 'acme' }, query: {}, caller: admin },
  putTenantIdentityProvider: { params: { tenantId: 'acme' }, query: {}, body: { type: 'saml', metadataUrl: 'https://login.example/metadata.xml', emailDomains: ['acme.example'] }, caller: admin },
  deleteTenantIdentityProvider: { params: { tenantId: 'acme' }, query: {}, caller: admin },
  listAuditLog: { query: {}, caller: user },
  getNotificationPreferences: { query: {}, caller: user },
  putNotificationPreferences: { query: {}, body: { email: true, minSeverity: 'high', kinds: null, digest: false }, caller: user },
  getEscalationContacts: { query: {}, caller: user },
  putEscalationContacts: {
    query: {},
    body: { version: 0, contacts: [{ name: 'Ana Pérez', phone: '+34911234567', email: 'ana@acme.example', severities: ['critical', 'high'], hours: '24x7' }] },
    caller: user,
  },
  // The in-memory pool's `t-1` (acme, operator by no role group); removal keeps it there, so examples repeat.
  listTeam: { query: { limit: '10' }, caller: user },
  inviteTeamMember: { query: {}, body: { email: 'nueva@acme.example', name: 'Nueva Colega', role: 'viewer' }, caller: user },
  updateTeamMember: { params: { username: 't-1' }, query: {}, body: { role: 'operator', enabled: true }, caller: user },
  removeTeamMember: { params: { username: 't-1' }, query: {}, caller: user },
  listMaintenanceWindows: { query: { status: 'upcoming', limit: '5' }, caller: user },
  createMaintenanceWindow: { query: {}, body: MW_BODY, caller: user },
  updateMaintenanceWindow: { params: { windowId: 'mw-example00000001' }, query: {}, body: { ...MW_BODY, version: 1 }, caller: user },
  deleteMaintenanceWindow: { params: { windowId: 'mw-example00000002' }, query: {}, caller: user },
  listWebhooks: { query: {}, caller: user },
  createWebhook: { query: {}, body: { name: 'SIEM', kind: 'json', url: 'https://hooks.example.com/vigia' }, caller: user },
  deleteWebhook: { params: { id: 'wh-example0002' }, query: {}, caller: user },
  testWebhook: { params: { id: 'wh-example0001' }, query: {}, caller: user },
  listWebhookDeliveries: { params: { id: 'wh-example0001' }, query: {}, caller: user },
  listActivity: { query: { limit: '5' }, caller: user },
  getActivityUnread: { query: {}, caller: user },
  markActivityRead: { query: {}, caller: user },
  ingestHeartbeat: { query: {}, body: { eventId: 'ev-hb-1', tenantId: 'acme', deviceId: 'dev-1', at: AT }, caller: 'collector' },
  ingestHeartbeatBatch: { query: {}, body: { heartbeats: [{ eventId: 'ev-hb-2', tenantId: 'acme', deviceId: 'dev-1', at: AT }] }, caller: 'collector' },
  ingestDeviceAlarm: {
    query: {},
    body: { action: 'raise', eventId: 'ev-al-1', tenantId: 'acme', deviceId: 'dev-1', alarmId: 'al-2', severity: 'high', title: 'CPU', at: AT },
    caller: 'collector',
  },
  ingestOffice365Alarm: {
    query: {},
    body: { eventId: 'ev-o1', tenantId: 'acme', alarmId: 'o365-1', title: 'Reenvío', severity: 'medium', category: 'mail', status: 'active', affectedUser: 'ana@acme.example', detectedAt: AT, updatedAt: AT },
    caller: 'collector',
  },
  ingestOffice365Event: {
    query: {},
    body: { eventId: 'ev-o2', tenantId: 'acme', workload: 'Exchange', operation: 'UserLoggedIn', user: 'ana@acme.example', result: 'Succeeded', clientIp: '203.0.113.7', at: AT },
    caller: 'collector',
  },
  ingestRecommendation: {
    query: {},
    body: { eventId: 'ev-r1', tenantId: 'acme', recommendationId: 'rec-2', title: 'Activar MFA', rationale: 'Porque sí', priority: 'high', category: 'identity', at: AT },
    caller: 'collector',
  },
};

/** The IAM caller API Gateway names for a collector (`requestContext.identity.userArn`). */
export const COLLECTOR_ARN = 'arn:aws:iam::000000000000:user/collector';

/**
 * `buildPath`, except that a value `encodeURIComponent` cannot encode (a lone surrogate) is put in as it
 * is, so a test can hand the handler what no URL could carry.
 */
function pathOf(path: string, params: Record<string, string>): string {
  return path.replace(/\{([^}]+)\}/g, (_, k: string) => {
    const v = params[k] ?? '';
    try {
      return buildPath(`{${k}}`, { [k]: v });
    } catch {
      return v;
    }
  });
}

/** The API Gateway event of `row`'s example, with `change` laid over it. */
export function exampleEvent(row: RouteDef, change: Partial<Example> = {}): APIGatewayProxyEvent {
  const ex = { ...EXAMPLES[row.operationId as OperationId], ...change };
  const e = apiEvent({
    method: row.method,
    path: pathOf(row.path, ex.params ?? {}),
    query: ex.query,
    caller: ex.caller === 'collector' ? null : ex.caller,
    ...(ex.body !== undefined ? { body: ex.body } : {}),
    ...(ex.headers ? { headers: ex.headers } : {}),
  });
  if (ex.caller === 'collector') e.requestContext.identity = { ...e.requestContext.identity, userArn: COLLECTOR_ARN };
  return e;
}

/** The keys of an object schema (or of every option of a discriminated union); `[]` for anything else. */
export function fieldsOf(schema: z.ZodType | undefined): string[] {
  if (!schema) return [];
  const s = schema as unknown as { shape?: Record<string, unknown>; options?: z.ZodType[] };
  if (s.shape) return Object.keys(s.shape);
  if (Array.isArray(s.options)) return [...new Set(s.options.flatMap((o) => fieldsOf(o)))];
  return [];
}

/**
 * Creates what the examples refer to: tenants acme and globex (the collector granted acme), INC-000001,
 * dev-1 with alarm al-1, rec-1, maintenance windows mw-example00000001/2, pending access requests of u-1 and u-2.
 */
export async function seedExamples(data: TableWriters): Promise<void> {
  const { newIncident } = await import('../../lambdas/domain/incidents.js');
  await data.putTenant({ id: 'acme', name: 'Acme' });
  await data.putTenant({ id: 'globex', name: 'Globex' });
  await data.grantCollector('acme', COLLECTOR_ARN);
  await data.putIncident(newIncident('acme', 1, { title: 'Seeded', description: 'd', severity: 'high', category: 'c' }, 's', new Date().toISOString()));
  // INC-000002 untouched for triage; INC-000003 / INC-000004 resolved, to reopen and to confirm.
  await data.putIncident(newIncident('acme', 2, { title: 'Seeded 2', description: 'd', severity: 'high', category: 'c' }, 's', new Date().toISOString()));
  for (const seq of [3, 4]) {
    const at = new Date().toISOString();
    await data.putIncident({ ...newIncident('acme', seq, { title: `Seeded ${seq}`, description: 'd', severity: 'high', category: 'c' }, 's', at), status: 'resolved', resolvedAt: at, firstAcknowledgedAt: at });
  }
  await data.putDevice({ tenantId: 'acme', id: 'dev-1', name: 'fw', type: 'firewall', site: 'M', ipAddress: '10.0.0.1', vendor: 'v', model: 'm', lastHeartbeatAt: new Date(Date.now() - 60_000).toISOString() });
  await data.putAlarm({ tenantId: 'acme', deviceId: 'dev-1', id: 'al-1', severity: 'high', state: 'active', title: 'x', raisedAt: new Date().toISOString() });
  await office365Repository(data.table).upsertAlarm({
    tenantId: 'acme', id: 'o365-ack-1', title: 'Regla de reenvío', severity: 'high', category: 'mail', status: 'active', affectedUser: 'ana@acme.example', detectedAt: AT, updatedAt: AT,
  });
  await attachmentsRepository(data.table).create({
    attachmentId: EXAMPLE_ATTACHMENT_ID, tenantId: 'acme', incidentId: 'INC-000001', commentId: null, fileName: 'evidence.txt', contentType: 'text/plain',
    size: 12, status: 'available', uploadedBy: 'ana@acme.example', uploadedBySub: 'u-acme', createdAt: AT, completedAt: AT,
  });
  // Webhooks of the notification examples (a private address: "send test" is refused before any connection).
  for (const id of ['wh-example0001', 'wh-example0002']) {
    await notificationsRepository(data.table).createWebhook({ id, tenantId: 'acme', name: id, kind: 'json', url: 'https://127.0.0.1:9/x', minSeverity: 'info', kinds: null, createdAt: AT, createdBy: 'u-acme', secret: 'x'.repeat(64) });
  }
  // Maintenance windows to update (…0001) and to delete (…0002), tomorrow.
  for (const windowId of ['mw-example00000001', 'mw-example00000002']) {
    const entry = newAuditEntry({ tenantId: 'acme', actor: { sub: 'u-acme' }, action: 'maintenance.create', target: { type: 'maintenance_window', id: windowId }, requestId: `seed-${windowId}`, sourceIp: '' });
    await maintenanceWindowsRepository(data.table).put({ windowId, tenantId: 'acme', ...MW_BODY, createdAt: AT, createdBy: 'u-acme', updatedAt: AT, version: 1 }, 0, entry);
  }
  // Pending access requests of u-1 (to grant) and u-2 (to dismiss), as the pre token generation trigger raises them.
  for (const username of ['u-1', 'u-2']) {
    const request = accessRequestOf({ username, sub: `sub-${username}`, email: `${username}@example.com`, emailVerified: true, provider: null }, new Date());
    const entry = newAuditEntry({ tenantId: STAFF_AUDIT_TENANT, actor: { sub: request.sub }, action: 'user.access_request', target: { type: 'user', id: username }, requestId: `seed-${username}`, sourceIp: '' });
    await accessRequestsRepository(data.table).raise(request, entry);
  }
  await data.putRecommendation({
    tenantId: 'acme', id: 'rec-1', title: 'Revisar reglas', rationale: 'r', priority: 'medium', category: 'mail', status: 'open',
    createdAt: new Date().toISOString(), statusNote: null, statusChangedBy: null, statusChangedAt: null,
  });
}
