/**
 * Every route of the route table through the REAL local stack (dynoxide, cognito-local + compatibility
 * proxy, local gateway, demo seed; random ports, temp dir, collector simulator off), with ID tokens from
 * SRP sign-in (the portal's app client allows only SRP and refresh) and SigV4-signed collector requests:
 *  - each route answers its success status for an authorised caller (and the body matches its schema);
 *  - the authorisation matrix: no token, malformed, forged signature, tampered payload, expired, wrong
 *    audience, wrong issuer, access token, other tenant, no group, customer on admin routes, customer on
 *    ingest routes, unsigned/forged/stale collector signatures → the designed 401/403/404, always with the
 *    JSON error shape, and no other tenant's data in any body (the suite's one test of refused tokens);
 *  - every method a route path lacks: 404 NOT_FOUND "Missing Authentication Token" with CORS headers, as the
 *    stage's MISSING_AUTHENTICATION_TOKEN gateway response answers it;
 *  - tenant isolation: another tenant's ids are 404, its data never in a list, its cursors refused (the
 *    suite's one test of it through the gateway);
 *  - `/openapi.json` documents every route; the collector simulator's tick is accepted by the ingest API.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { decodeJwt, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';
import { startLocalStack, type RunningLocalStack } from '../../scripts/local/stack.js';
import { seedCognito } from '../../scripts/local/seed.js';
import { signInWithSrp } from '../../scripts/local/cognito/sign-in.js';
import { totpCode } from '../../scripts/local/demo-totp.js';
import { DEMO_PASSWORD } from '../../scripts/local/demo-data.js';
import { LOCAL_COLLECTOR_CREDENTIAL, signCollectorRequest } from '../../scripts/local/collector-auth.js';
import { startCollector } from '../../scripts/local/collector.js';
import { ROUTES, successStatuses, type RouteDef } from '../../lambdas/contract/routes.js';
import { ApiErrorBody, type DeviceAlarm, type Incident, type Page } from '../../lambdas/contract/schemas.js';
import { createResponseValidator } from '../support/openapi-validator.js';

/** Every API response this suite receives is checked against the generated OpenAPI document. */
const openApi = createResponseValidator();

let stack: RunningLocalStack;
let dataDir: string;
const tokens: Record<'ana' | 'bruno' | 'admin' | 'nobody', { id: string; access: string }> = {} as never;
let expiredToken: string;
let wrongAudienceToken: string;
let wrongIssuerToken: string;
let forgedToken: string;
let tamperedToken: string;

async function signIn(email: string): Promise<{ id: string; access: string }> {
  const idp = new CognitoIdentityProviderClient({ endpoint: stack.urls.cognito, region: stack.config.region, credentials: { accessKeyId: 'l', secretAccessKey: 'l' } });
  // SRP: the portal's app client allows only SRP and refresh, as deployed.
  // The demo admin has TOTP set up (staff must; docs/api.md#staff-accounts-and-totp): answer its challenge.
  const secret = stack.demoUsers.find((u) => u.email === email)?.totpSecret;
  const r = await signInWithSrp(idp, { userPoolId: stack.config.userPoolId, clientId: stack.config.userPoolClientId, username: email, password: DEMO_PASSWORD, totpCode: secret ? () => totpCode(secret) : undefined });
  idp.destroy();
  return { id: r.IdToken!, access: r.AccessToken! };
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'vigia-api-routes-'));
  stack = await startLocalStack({
    dataDir,
    ports: { dynamodb: 0, cognito: 0, cognitoInternal: 0, cognitoOAuth: 0, idp: 0, api: 0, web: 0 },
    persist: false,
    serveWeb: false,
    collector: false,
    // Staff-configured identity providers are offered only with federation (as a stage with identityProviders).
    federation: true,
  });
  await seedCognito(stack.urls.cognito, stack.config.userPoolId, [
    { email: 'nadie@example.com', password: DEMO_PASSWORD, groups: [], description: 'no group' },
    { email: 'sinacceso@example.com', password: DEMO_PASSWORD, groups: [], description: 'no group (an access request to dismiss)' },
  ]);
  tokens.ana = await signIn('ana@acme.example');
  tokens.bruno = await signIn('bruno@globex.example');
  tokens.admin = await signIn('admin@vigia.example');
  tokens.nobody = await signIn('nadie@example.com');
  // Its sign-in raises the access request the dismiss route decides (nadie's is granted).
  await signIn('sinacceso@example.com');
  // Tokens signed with the pool's REAL key (cognito-local's bundled key) but expired / for another client.
  const priv = JSON.parse(readFileSync(path.resolve('node_modules/cognito-local/lib/keys/cognitoLocal.private.json'), 'utf8')) as { jwk: JWK };
  const key = await importJWK(priv.jwk, 'RS256');
  const header = JSON.parse(Buffer.from(tokens.ana.id.split('.')[0]!, 'base64url').toString()) as { kid: string };
  const claims = decodeJwt(tokens.ana.id);
  const now = Math.floor(Date.now() / 1000);
  expiredToken = await new SignJWT({ ...claims, iat: now - 7200, exp: now - 3600 }).setProtectedHeader({ alg: 'RS256', kid: header.kid }).sign(key);
  wrongAudienceToken = await new SignJWT({ ...claims, aud: 'someotherappclient' }).setProtectedHeader({ alg: 'RS256', kid: header.kid }).sign(key);
  wrongIssuerToken = await new SignJWT({ ...claims, iss: 'http://evil.example/local_pool' }).setProtectedHeader({ alg: 'RS256', kid: header.kid }).sign(key);
  // Ana's real token with the payload rewritten to another tenant's group, signature kept.
  const [h, , sig] = tokens.ana.id.split('.');
  tamperedToken = `${h}.${Buffer.from(JSON.stringify({ ...claims, 'cognito:groups': ['globex'] })).toString('base64url')}.${sig}`;
  const other = await generateKeyPair('RS256');
  forgedToken = await new SignJWT({ ...claims }).setProtectedHeader({ alg: 'RS256', kid: header.kid }).sign(other.privateKey);
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

interface Sent {
  status: number;
  text: string;
  json: unknown;
}

async function send(method: string, p: string, opts: { token?: string | null; body?: unknown; headers?: Record<string, string> } = {}): Promise<Sent> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.token) headers.Authorization = opts.token;
  let body: string | undefined;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['Content-Type'] = 'application/json';
  }
  const res = await fetch(`${stack.urls.api}${p}`, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  if (p !== '/openapi.json') openApi.checkResponse({ method, path: p.split('?')[0]!, status: res.status, contentType: res.headers.get('content-type') ?? undefined, body: text });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: res.status, text, json };
}

async function sendSigned(p: string, body: unknown, opts: { date?: Date; secret?: string } = {}): Promise<Sent> {
  const url = `${stack.urls.api}${p}`;
  const text = JSON.stringify(body);
  const cred = opts.secret ? { ...LOCAL_COLLECTOR_CREDENTIAL, secretAccessKey: opts.secret } : LOCAL_COLLECTOR_CREDENTIAL;
  const headers = await signCollectorRequest(cred, { method: 'POST', url, body: text, headers: { 'content-type': 'application/json' } }, 'eu-west-1', opts.date);
  const res = await fetch(url, { method: 'POST', headers, body: text });
  const t = await res.text();
  openApi.checkResponse({ method: 'POST', path: p, status: res.status, contentType: res.headers.get('content-type') ?? undefined, body: t });
  return { status: res.status, text: t, json: JSON.parse(t) as unknown };
}

function expectError(r: Sent, status: number, what: string): void {
  expect(r.status, `${what}: ${r.text}`).toBe(status);
  expect(ApiErrorBody.safeParse(r.json).success, `${what}: error shape ${r.text}`).toBe(true);
}

/** A concrete request per route for a caller of tenant acme (or the admin/collector where required). */
function sample(route: RouteDef, ctx: Fixtures): { path: string; body?: unknown } {
  switch (route.operationId) {
    case 'getIncident':
      return { path: `/incidents/${ctx.incident.id}` };
    case 'updateIncident':
      return { path: `/incidents/${ctx.incident.id}`, body: { version: ctx.incident.version, comment: 'Revisado desde la prueba' } };
    case 'addIncidentComment':
      return { path: `/incidents/${ctx.incident.id}/comments`, body: { body: 'Comentario de prueba' } };
    case 'createIncidentAttachment':
      return { path: `/incidents/${ctx.incident.id}/attachments`, body: { fileName: 'prueba.log', contentType: 'text/plain', size: 10 } };
    case 'listIncidentAttachments':
      return { path: `/incidents/${ctx.incident.id}/attachments` };
    case 'completeIncidentAttachment':
    case 'getIncidentAttachment':
      return { path: route.path.replace('{id}', ctx.incident.id).replace('{attachmentId}', ctx.attachmentId) };
    case 'triageIncident':
      return { path: `/incidents/${ctx.fresh.id}/triage?tenant=acme`, body: { version: ctx.fresh.version, severity: 'high', reason: 'Prueba de triaje' } };
    case 'requestIncidentClosure':
      return { path: `/incidents/${ctx.fresh.id}/closure-request`, body: { note: 'Ya no ocurre' } };
    case 'reopenIncident':
      return { path: `/incidents/${ctx.resolved[0]!.id}/reopen`, body: { reason: 'Ha vuelto a ocurrir' } };
    case 'searchComments':
      return { path: '/search/comments?q=prueba' };
    case 'searchAlarms':
      return { path: '/search/alarms?q=enlace' };
    case 'searchOffice365Users':
      return { path: '/search/office365-users?q=ana' };
    case 'getMonthlyReport':
      return { path: '/reports/monthly/2026-01' };
    case 'getTenant':
      return { path: '/tenants/acme' };
    case 'createTenant':
      return { path: '/tenants', body: { tenantId: 'ruta-nueva', name: 'Ruta Nueva' } };
    case 'updateTenant':
      return { path: '/tenants/ruta-nueva', body: { availabilityTargetPct: 99.5 } };
    case 'listTenantUsers':
      return { path: '/tenants/acme/users' };
    case 'inviteUser':
      return { path: '/tenants/ruta-nueva/users', body: { email: 'ruta@ruta-nueva.example' } };
    case 'removeTenantUser':
      return { path: '/tenants/ruta-nueva/users/ruta%40ruta-nueva.example' };
    case 'resendInvitation':
      return { path: '/users/ruta%40ruta-nueva.example/resend-invitation' };
    case 'setUserEnabled':
      return { path: '/users/ruta%40ruta-nueva.example/enabled', body: { enabled: false } };
    case 'resetUserMfa':
      return { path: '/users/ruta%40ruta-nueva.example/reset-mfa' };
    case 'grantStaff':
    case 'revokeStaff':
      return { path: '/staff/ruta%40ruta-nueva.example' };
    case 'grantAccessRequest':
      return { path: `/access-requests/${encodeURIComponent(ctx.accessRequests[0])}/grant`, body: { tenantId: 'acme' } };
    case 'dismissAccessRequest':
      return { path: `/access-requests/${encodeURIComponent(ctx.accessRequests[1])}/dismiss` };
    case 'listAssignees':
      return { path: '/assignees?tenant=acme' };
    case 'confirmIncidentResolution':
      return { path: `/incidents/${ctx.resolved[1]!.id}/confirm-resolution`, body: { note: 'Confirmado' } };
    case 'createIncident':
      return { path: '/incidents', body: { title: 'Prueba de ruta', description: 'creado por la prueba', severity: 'low' } };
    case 'getDevice':
      return { path: `/devices/${ctx.alarm.deviceId}` };
    case 'acknowledgeAlarm':
      return { path: `/devices/${ctx.alarm.deviceId}/alarms/${ctx.alarm.id}/acknowledge` };
    case 'acknowledgeOffice365Alarm':
      return { path: `/office365/alarms/${ctx.o365AlarmId}/acknowledge` };
    case 'ingestHeartbeat':
      return { path: '/ingest/heartbeats', body: { eventId: 'ev-hb-1', tenantId: 'acme', deviceId: ctx.alarm.deviceId, at: new Date().toISOString() } };
    case 'ingestHeartbeatBatch':
      return { path: '/ingest/heartbeats/batch', body: { heartbeats: [{ eventId: 'ev-hb-b1', tenantId: 'acme', deviceId: ctx.alarm.deviceId, at: new Date().toISOString() }] } };
    case 'updateRecommendation':
      return { path: `/recommendations/${ctx.recommendationId}`, body: { status: 'accepted', note: 'Lo aplicamos este mes' } };
    case 'ingestOffice365Alarm':
      return {
        path: '/ingest/office365/alarms',
        body: { eventId: 'ev-o365a-1', tenantId: 'acme', alarmId: 'o365-route-1', title: 'Regla de reenvío sospechosa', severity: 'high', category: 'exchange', status: 'active', affectedUser: 'ana@acme.example', detectedAt: new Date().toISOString(), updatedAt: new Date().toISOString() },
      };
    case 'ingestOffice365Event':
      return {
        path: '/ingest/office365/events',
        body: { eventId: 'ev-o365e-1', tenantId: 'acme', workload: 'Exchange', operation: 'New-InboxRule', user: 'ana@acme.example', result: 'Succeeded', clientIp: '203.0.113.9', at: new Date().toISOString() },
      };
    case 'ingestRecommendation':
      return {
        path: '/ingest/recommendations',
        body: { eventId: 'ev-rec-route', tenantId: 'acme', recommendationId: 'rec-route-2', title: 'Activar MFA', rationale: 'Reduce el riesgo', priority: 'high', category: 'identidad', at: new Date().toISOString() },
      };
    case 'ingestDeviceAlarm':
      return {
        path: '/ingest/device-alarms',
        body: { action: 'raise', eventId: 'ev-al-1', tenantId: 'acme', deviceId: ctx.alarm.deviceId, alarmId: 'route-test-1', severity: 'high', title: 'Prueba', at: new Date().toISOString() },
      };
    // A real tenant in the path (the template's `{tenantId}` is not one: 400 VALIDATION_FAILED); the provider is the
    // stack's local OpenID provider, bound to the tenant the walk created, for one of its own e-mail domains.
    case 'getTenantIdentityProvider':
    case 'deleteTenantIdentityProvider':
      return { path: '/tenants/ruta-nueva/identity-provider' };
    case 'putTenantIdentityProvider': {
      const idp = stack.identityProvider!;
      return { path: '/tenants/ruta-nueva/identity-provider', body: { type: 'oidc', issuerUrl: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, emailDomains: ['ruta-nueva.example'] } };
    }
    // Webhooks: one made by the fixtures for deletion, another for "send test" and its deliveries (a closed
    // local port: the test delivery fails, the route still answers its result).
    case 'createWebhook':
      return { path: '/webhooks', body: { name: 'Prueba de ruta', kind: 'json', url: 'http://localhost:9/vigia' } };
    case 'deleteWebhook':
      return { path: `/webhooks/${ctx.webhooks[0]}` };
    case 'testWebhook':
      return { path: `/webhooks/${ctx.webhooks[1]}/test` };
    case 'listWebhookDeliveries':
      return { path: `/webhooks/${ctx.webhooks[1]}/deliveries` };
    // One row of another tenant's fresh incident: applied or refused, the route answers 200 with the row's result.
    case 'bulkUpdateSocQueue':
      return { path: route.path, body: { action: 'assign', assignee: null, items: [{ tenantId: ctx.fresh.tenantId, id: ctx.fresh.id, version: ctx.fresh.version }] } };
    case 'putEscalationContacts':
      return { path: route.path, body: { version: 0, contacts: [{ name: 'Ruta', phone: '+34911234567', email: 'ruta@acme.example', severities: ['high'], hours: '24x7' }] } };
    // Ana (acme's customer admin) invites a colleague, changes its role and removes it (the local pool's user name is the e-mail).
    case 'inviteTeamMember':
      return { path: route.path, body: { email: 'ruta-equipo@acme.example', name: 'Ruta Equipo', role: 'viewer' } };
    case 'updateTeamMember':
      return { path: '/team/ruta-equipo%40acme.example', body: { role: 'operator' } };
    case 'removeTeamMember':
      return { path: '/team/ruta-equipo%40acme.example' };
    // Maintenance windows of acme tomorrow: one made by the fixtures to change, another to remove.
    case 'createMaintenanceWindow':
      return { path: route.path, body: maintenanceBody(ctx.alarm.deviceId) };
    case 'updateMaintenanceWindow':
      return { path: `/maintenance-windows/${ctx.windows[0]}`, body: { ...maintenanceBody(ctx.alarm.deviceId), title: 'Cambio de firmware (2)', version: 1 } };
    case 'deleteMaintenanceWindow':
      return { path: `/maintenance-windows/${ctx.windows[1]}` };
    case 'putNotificationPreferences':
      return { path: route.path, body: { email: true, minSeverity: 'high', kinds: null, digest: false } };
    default:
      return { path: route.path };
  }
}

/** A two-hour maintenance window tomorrow on `deviceId`. */
function maintenanceBody(deviceId: string) {
  const start = Date.now() + 86_400_000;
  return { title: 'Cambio de firmware', scope: { deviceIds: [deviceId], sites: [] }, startAt: new Date(start).toISOString(), endAt: new Date(start + 7_200_000).toISOString() };
}

let recCounter = 0;
/** The data the samples refer to: a recent incident, a fresh one (triage) and two resolved ones (reopen, confirm). */
interface Fixtures {
  incident: Incident;
  alarm: DeviceAlarm;
  recommendationId: string;
  /** An active Office 365 alert of acme nobody acknowledged yet (new for each walk). */
  o365AlarmId: string;
  fresh: Incident;
  resolved: Incident[];
  /** Two webhooks of acme made through the API: [to delete, to test]. */
  webhooks: [string, string];
  /** Two maintenance windows of acme made through the API: [to change, to remove]. */
  windows: [string, string];
  /** The pending access requests raised by the no-group users' sign-ins: [to grant, to dismiss]. */
  accessRequests: [string, string];
  /** An attachment of `incident`, uploaded to the local S3 with its presigned POST but not completed yet. */
  attachmentId: string;
}

/** Opens an incident as Ana; with `resolve`, the SOC (demo admin) acknowledges and resolves it. */
async function openIncident(resolve: boolean): Promise<Incident> {
  const r = await send('POST', '/incidents', { token: tokens.ana.id, body: { title: 'Incidente de fixture', description: 'para la prueba de rutas', severity: 'low' } });
  expect(r.status, r.text).toBe(201);
  let inc = r.json as Incident;
  if (!resolve) return inc;
  for (const status of ['in_progress', 'resolved']) {
    // Triage first (docs/sla.md#triage-first): the acknowledgement carries the triage.
    const triage = status === 'in_progress' ? { triage: { severity: 'low', reason: 'Triaje de la fixture' } } : {};
    const p = await send('PATCH', `/incidents/${inc.id}?tenant=acme`, { token: tokens.admin.id, body: { version: inc.version, status, ...triage } });
    expect(p.status, p.text).toBe(200);
    inc = p.json as Incident;
  }
  return inc;
}

async function fixtures(): Promise<Fixtures> {
  const recommendationId = `rec-fixture-${++recCounter}`;
  const rec = await sendSigned('/ingest/recommendations', {
    eventId: `ev-${recommendationId}`,
    tenantId: 'acme',
    recommendationId,
    title: 'Revisar reglas de reenvío',
    rationale: 'Las reglas de reenvío externas son un vector de exfiltración',
    priority: 'medium',
    category: 'office365',
    at: new Date().toISOString(),
  });
  expect(rec.status, rec.text).toBe(202);
  const o365AlarmId = `o365-fixture-${recCounter}`;
  const at = new Date().toISOString();
  const o365 = await sendSigned('/ingest/office365/alarms', {
    eventId: `ev-${o365AlarmId}`, tenantId: 'acme', alarmId: o365AlarmId, title: 'Inicio de sesión desde un país nuevo', severity: 'medium', category: 'identity', status: 'active', affectedUser: 'ana@acme.example', detectedAt: at, updatedAt: at,
  });
  expect(o365.status, o365.text).toBe(202);
  const inc = (await send('GET', '/incidents?limit=1', { token: tokens.ana.id })).json as Page<Incident>;
  const alarms = (await send('GET', '/alarms?state=active&limit=1', { token: tokens.ana.id })).json as Page<DeviceAlarm>;
  expect(inc.items).toHaveLength(1);
  expect(alarms.items).toHaveLength(1);
  const fresh = await openIncident(false);
  const resolved = [await openIncident(true), await openIncident(true)];
  const webhooks: string[] = [];
  for (const name of ['Para borrar', 'Para probar']) {
    const w = await send('POST', '/webhooks', { token: tokens.ana.id, body: { name, kind: 'json', url: 'http://localhost:9/vigia' } });
    expect(w.status, w.text).toBe(201);
    webhooks.push((w.json as { webhook: { id: string } }).webhook.id);
  }
  const windows: string[] = [];
  for (let n = 0; n < 2; n++) {
    const w = await send('POST', '/maintenance-windows', { token: tokens.ana.id, body: maintenanceBody(alarms.items[0]!.deviceId) });
    expect(w.status, w.text).toBe(201);
    windows.push((w.json as { windowId: string }).windowId);
  }
  // An attachment uploaded as a browser does (FormData straight to the local S3); `complete` is walked below.
  const att = await send('POST', `/incidents/${inc.items[0]!.id}/attachments`, { token: tokens.ana.id, body: { fileName: 'ruta.txt', contentType: 'text/plain', size: 4 } });
  expect(att.status, att.text).toBe(201);
  const { attachment, upload } = att.json as { attachment: { attachmentId: string }; upload: { url: string; fields: Record<string, string> } };
  const form = new FormData();
  for (const [k, v] of Object.entries(upload.fields)) form.append(k, v);
  form.append('file', new Blob(['ruta'], { type: 'text/plain' }), 'ruta.txt');
  expect((await fetch(upload.url, { method: 'POST', body: form })).status).toBeLessThan(300);
  const pending = (await send('GET', '/access-requests', { token: tokens.admin.id })).json as Page<{ id: string; email: string | null }>;
  const requestOf = (email: string) => pending.items.find((r) => r.email === email)?.id;
  // Pending only until the first walk decides them (later tests need no success from these two routes).
  const toGrant = requestOf('nadie@example.com') ?? 'decided-already';
  const toDismiss = requestOf('sinacceso@example.com') ?? 'decided-already';
  return { incident: inc.items[0]!, alarm: alarms.items[0]!, recommendationId, o365AlarmId, fresh, resolved, webhooks: [webhooks[0]!, webhooks[1]!], windows: [windows[0]!, windows[1]!], accessRequests: [toGrant, toDismiss], attachmentId: attachment.attachmentId };
}

describe('every route through the local gateway', () => {
  it('answers each route with its success status and a body of its schema', async () => {
    const ctx = await fixtures();
    for (const route of ROUTES as readonly RouteDef[]) {
      const s = sample(route, ctx);
      const r =
        route.auth === 'iam'
          ? await sendSigned(s.path, s.body)
          : await send(route.method, s.path, { token: (route.groups as readonly string[]).includes('admin') ? tokens.admin.id : tokens.ana.id, body: s.body });
      // a first application (ingest answers 200 only for a replay): the row's highest success status
      expect(r.status, `${route.operationId}: ${r.text}`).toBe(Math.max(...successStatuses(route)));
      const parsed = route.responses[r.status as keyof typeof route.responses]!.body.safeParse(r.json);
      expect(parsed.success, `${route.operationId}: ${JSON.stringify(parsed.error?.issues.slice(0, 3))}`).toBe(true);
    }
  });

  it('refuses every route for bad credentials with the designed status and error shape', async () => {
    const ctx = await fixtures();
    for (const route of ROUTES as readonly RouteDef[]) {
      const s = sample(route, ctx);
      const m = route.method;
      const name = route.operationId;
      if (route.auth === 'iam') {
        expectError(await send(m, s.path, { body: s.body }), 403, `${name} unsigned`);
        expectError(await send(m, s.path, { token: tokens.ana.id, body: s.body }), 403, `${name} customer ID token`);
        expectError(await send(m, s.path, { token: tokens.admin.id, body: s.body }), 403, `${name} admin ID token`);
        expectError(await sendSigned(s.path, s.body, { secret: 'wrong-secret' }), 403, `${name} forged signature`);
        expectError(await sendSigned(s.path, s.body, { date: new Date(Date.now() - 20 * 60_000) }), 403, `${name} stale signature`);
        continue;
      }
      expectError(await send(m, s.path, { body: s.body }), 401, `${name} no token`);
      expectError(await send(m, s.path, { token: 'not.a.jwt', body: s.body }), 401, `${name} malformed`);
      expectError(await send(m, s.path, { token: forgedToken, body: s.body }), 401, `${name} forged`);
      expectError(await send(m, s.path, { token: tamperedToken, body: s.body }), 401, `${name} tampered payload`);
      expectError(await send(m, s.path, { token: expiredToken, body: s.body }), 401, `${name} expired`);
      expectError(await send(m, s.path, { token: wrongAudienceToken, body: s.body }), 401, `${name} wrong audience`);
      expectError(await send(m, s.path, { token: wrongIssuerToken, body: s.body }), 401, `${name} wrong issuer`);
      expectError(await send(m, s.path, { token: tokens.ana.access, body: s.body }), 401, `${name} access token`);
      expectError(await send(m, s.path, { token: tokens.nobody.id, body: s.body }), 403, `${name} no group`);
      if ((route.groups as readonly string[]).includes('admin')) {
        expectError(await send(m, s.path, { token: tokens.ana.id, body: s.body }), 403, `${name} customer on admin route`);
      }
      if (route.tenantScoped) {
        const sep = s.path.includes('?') ? '&' : '?';
        const r = await send(m, `${s.path}${sep}tenant=acme`, { token: tokens.bruno.id, body: s.body });
        expectError(r, 403, `${name} other tenant`);
        expect(r.text).not.toMatch(/"tenantId":"acme"/);
      }
    }
  });

  // API Gateway answers a method a resource does not define with its MISSING_AUTHENTICATION_TOKEN gateway
  // response (403 "Missing Authentication Token") before any authorizer, which the stage rewrites to 404
  // NOT_FOUND with CORS headers (GATEWAY_RESPONSES, lambdas/contract/platform-limits.ts). "Gateway response
  // types for API Gateway": https://docs.aws.amazon.com/apigateway/latest/developerguide/supported-gateway-response-types.html
  it('answers every method a route path lacks with 404 NOT_FOUND "Missing Authentication Token", with or without a token', async () => {
    const origin = stack.lambdaConfig.allowedOrigins[0]!;
    const methodsOf = new Map<string, { path: string; methods: Set<string> }>();
    for (const route of ROUTES as readonly RouteDef[]) {
      // Any value of a path parameter: API Gateway refuses the method before anything looks the item up.
      const entry = methodsOf.get(route.path) ?? { path: route.path.replace(/\{[^}]+\}/g, 'x-1'), methods: new Set<string>() };
      entry.methods.add(route.method);
      methodsOf.set(route.path, entry);
    }
    let checked = 0;
    for (const [template, { path: p, methods }] of methodsOf) {
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((m) => !methods.has(m))) {
        for (const token of [null, tokens.admin.id]) {
          const res = await fetch(`${stack.urls.api}${p}`, { method, headers: { Origin: origin, ...(token ? { Authorization: token } : {}) } });
          const text = await res.text();
          const what = `${method} ${template}${token ? ' (admin token)' : ''}`;
          openApi.checkResponse({ method, path: p, status: res.status, contentType: res.headers.get('content-type') ?? undefined, body: text });
          expect(res.status, `${what}: ${text}`).toBe(404);
          expect(res.headers.get('access-control-allow-origin'), what).toBe(origin);
          const body = JSON.parse(text) as unknown;
          expect(ApiErrorBody.safeParse(body).success, what).toBe(true);
          expect(body, what).toMatchObject({ code: 'NOT_FOUND', message: 'Missing Authentication Token' });
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(2 * methodsOf.size);
  });

  it("never shows another tenant's data: acme's ids are 404 to globex's user, never in its lists, acme's cursors refused", async () => {
    const ctx = await fixtures();
    // Acme's newest incidents get numbers Globex has never used, so a leak could not hide behind an id clash.
    for (let i = 0; i < 3; i++) {
      const created = await send('POST', '/incidents', { token: tokens.ana.id, body: { title: `Solo Acme ${i}`, description: 'Prueba de aislamiento', severity: 'low' } });
      expect(created.status, created.text).toBe(201);
    }
    const acmePage = (await send('GET', '/incidents?limit=2', { token: tokens.ana.id })).json as Page<Incident>;
    const newest = acmePage.items[0]!;
    expect(newest.title).toBe('Solo Acme 2');
    const globexIds = new Set<string>();
    let cursor: string | null = null;
    do {
      const page = (await send('GET', `/incidents?limit=100${cursor ? `&cursor=${cursor}` : ''}`, { token: tokens.bruno.id })).json as Page<Incident>;
      page.items.forEach((x) => globexIds.add(x.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(globexIds.has(newest.id)).toBe(false);
    const foreign = await send('GET', `/incidents/${newest.id}`, { token: tokens.bruno.id });
    expectError(foreign, 404, 'foreign incident');
    expect((foreign.json as ApiErrorBody).code).toBe('NOT_FOUND');
    expect(foreign.text).not.toContain('Solo Acme');
    expectError(await send('PATCH', `/incidents/${newest.id}`, { token: tokens.bruno.id, body: { version: newest.version, status: 'in_progress' } }), 404, 'foreign incident update');
    expectError(await send('POST', `/incidents/${newest.id}/comments`, { token: tokens.bruno.id, body: { body: 'x' } }), 404, 'foreign incident comment');
    const stolen = await send('GET', `/incidents?cursor=${acmePage.nextCursor!}`, { token: tokens.bruno.id });
    expectError(stolen, 400, 'cursor of another tenant');
    expect((stolen.json as ApiErrorBody).code).toBe('VALIDATION_FAILED');
    const own = await send('GET', `/incidents/${newest.id}`, { token: tokens.ana.id });
    expect(own.status).toBe(200);
    expect((own.json as Incident).version).toBe(newest.version);
    expectError(await send('POST', `/devices/${ctx.alarm.deviceId}/alarms/${ctx.alarm.id}/acknowledge`, { token: tokens.bruno.id }), 404, 'foreign alarm');
    expectError(await send('PATCH', `/recommendations/${ctx.recommendationId}`, { token: tokens.bruno.id, body: { status: 'accepted', note: 'x' } }), 404, 'foreign recommendation');
    for (const p of ['/incidents?limit=100', '/devices?limit=100', '/alarms?limit=100', `/devices/${ctx.alarm.deviceId}`, '/recommendations', '/office365/alarms', '/office365/events']) {
      const r = await send('GET', p, { token: tokens.bruno.id });
      expect(r.status, p).toBe(200);
      expect(r.text, p).not.toMatch(/"tenantId":"acme"/);
      expect(r.text, p).not.toMatch(/ALM-acme|rec-fixture|acme\.example/);
    }
  });

  it('serves the OpenAPI 3.1 document of every route', async () => {
    const r = await send('GET', '/openapi.json');
    expect(r.status).toBe(200);
    const doc = r.json as { openapi: string; paths: Record<string, Record<string, { operationId: string; security: unknown[] }>> };
    expect(doc.openapi).toBe('3.1.0');
    // Operations only: a path item also carries its description and `x-vigia-other-methods` (the unknown-method 404).
    const ops = Object.values(doc.paths).flatMap((p) => Object.entries(p).filter(([k]) => ['get', 'post', 'put', 'patch', 'delete'].includes(k)).map(([, o]) => o));
    expect(ops.map((o) => o.operationId).sort()).toEqual(ROUTES.map((x) => x.operationId).sort());
    expect(doc.paths['/ingest/heartbeats']!.post!.security).toEqual([{ sigv4: [] }]);
  });

  it('accepts the collector simulator: heartbeats, an outage alarm and its clearing', async () => {
    const collector = startCollector({
      apiUrl: stack.urls.api,
      intervalMs: 3_600_000,
      outageProbability: 1,
      outageTicks: 2,
      devices: [
        { tenantId: 'acme', id: 'dev-001' },
        { tenantId: 'acme', id: 'dev-002' },
      ],
    });
    try {
      const first = await collector.tick(); // the immediate tick already ran: this one recovers nothing yet
      const second = await collector.tick();
      const all = [first, second];
      expect(all.every((t) => t.failures === 0)).toBe(true);
      expect(all.reduce((n, t) => n + t.heartbeats, 0)).toBeGreaterThan(0);
      expect(all.reduce((n, t) => n + t.cleared, 0)).toBeGreaterThanOrEqual(1);
      const alarms = (await send('GET', '/alarms?limit=100&deviceId=dev-001', { token: tokens.ana.id })).json as Page<DeviceAlarm>;
      const alarms2 = (await send('GET', '/alarms?limit=100&deviceId=dev-002', { token: tokens.ana.id })).json as Page<DeviceAlarm>;
      const sim = [...alarms.items, ...alarms2.items].filter((a) => a.id.startsWith('sim-'));
      expect(sim.length).toBeGreaterThanOrEqual(1);
      expect(sim.some((a) => a.state === 'cleared')).toBe(true);
      expect(all.reduce((n, t) => n + t.office365, 0)).toBeGreaterThan(0);
      const events = (await send('GET', '/office365/events?limit=5', { token: tokens.ana.id })).json as Page<{ tenantId: string }>;
      expect(events.items.length).toBeGreaterThan(0);
      const recs = (await send('GET', '/recommendations?limit=100', { token: tokens.ana.id })).json as Page<{ id: string }>;
      expect(recs.items.map((r) => r.id)).toContain('rec-demo-acme-1');
    } finally {
      await collector.stop();
    }
  });
});
