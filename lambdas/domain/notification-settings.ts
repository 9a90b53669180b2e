/**
 * The notification settings API (docs/notifications.md#settings-api): a user's e-mail
 * preferences in the active tenant, and the tenant's webhooks (list, create with a secret shown once,
 * delete, send a test, last deliveries). Tenant users and staff (for the tenant they pick) may manage the
 * tenant's webhooks; preferences are the caller's own (`sub` from the verified token).
 *
 * Errors: an unknown webhook → NOT_FOUND; a URL refused by the policy (`checkWebhookUrl`) or a tenant at
 * `MAX_WEBHOOKS_PER_TENANT` → VALIDATION_FAILED with `details` naming `body.url` / `body`.
 */
import { randomBytes } from 'node:crypto';
import type * as z from 'zod';
import { ACTIVITY_KINDS, type ActivityKind, type CreateWebhookBody, type NotificationPreferences as PreferencesBody, type WebhookDelivery, type WebhookTestResult, type WebhookView } from '../contract/schemas.js';
import { ApiError } from './errors.js';
import type { DeliveryRecord, NotificationsPort, SendersPort } from './notification-delivery.js';
import { checkWebhookUrl, DEFAULT_PREFERENCES, renderWebhookBody, WebhookUrlRejected, type NotificationEvent, type NotificationPreferences, type Webhook } from './notifications.js';

/** Most webhooks per tenant (listed with one Query). */
export const MAX_WEBHOOKS = 20;
/** Deliveries shown per webhook. */
export const WEBHOOK_DELIVERIES_SHOWN = 20;

/** Scheme, host and the last 4 characters of the URL: enough to recognise it, not enough to post to it. */
export function maskUrl(url: string): string {
  try {
    const u = new URL(url);
    const rest = `${u.pathname}${u.search}`;
    return `${u.protocol}//${u.host}/…${rest.length > 4 ? rest.slice(-4) : ''}`;
  } catch {
    return '…';
  }
}

export function webhookView(w: Webhook): WebhookView {
  return { id: w.id, name: w.name, kind: w.kind, urlPreview: maskUrl(w.url), minSeverity: w.minSeverity, kinds: w.kinds, createdAt: w.createdAt, createdBy: w.createdBy, signed: !!w.secret };
}

function deliveryView(d: DeliveryRecord): WebhookDelivery {
  return {
    deliveryId: d.deliveryId,
    eventId: d.eventId,
    kind: d.kind,
    title: d.title,
    state: d.state,
    attempts: d.attempts,
    lastStatus: d.lastStatus ?? null,
    lastError: d.lastError ?? null,
    nextAttemptAt: d.state === 'failed' ? (d.nextAttemptAt ?? null) : null,
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
    sentAt: d.sentAt ?? null,
  };
}

const isKind = (k: string): k is ActivityKind => (ACTIVITY_KINDS as readonly string[]).includes(k);
/** Stored preferences as the API shows them (kinds no longer known are dropped). */
const prefsView = (p: NotificationPreferences): PreferencesBody => ({ ...p, kinds: p.kinds ? p.kinds.filter(isKind) : null });

export async function getPreferences(store: NotificationsPort, tenantId: string, sub: string): Promise<PreferencesBody> {
  return prefsView((await store.getPreferences(tenantId, sub)) ?? DEFAULT_PREFERENCES);
}

export async function putPreferences(store: NotificationsPort, tenantId: string, sub: string, body: PreferencesBody, now: Date): Promise<PreferencesBody> {
  const prefs: NotificationPreferences = { email: body.email, minSeverity: body.minSeverity, kinds: body.kinds ? [...new Set(body.kinds)] : null, digest: body.digest, ...(body.monthlyReport ? { monthlyReport: true } : {}), ...(body.language ? { language: body.language } : {}) };
  await store.putPreferences(tenantId, sub, prefs, now);
  return prefsView(prefs);
}

export async function listWebhooks(store: NotificationsPort, tenantId: string): Promise<{ items: WebhookView[] }> {
  const items = await store.listWebhooks(tenantId);
  return { items: items.sort((a, b) => a.createdAt.localeCompare(b.createdAt)).map(webhookView) };
}

const rejected = (message: string, path = 'body.url') => new ApiError('VALIDATION_FAILED', message, [{ path, message }]);

/** Creates a webhook; the `json` kind gets a 32-byte secret (hex), returned here only. */
export async function createWebhook(
  store: NotificationsPort,
  tenantId: string,
  /** After the route's schema (defaults applied). */
  body: z.output<typeof CreateWebhookBody>,
  by: string,
  now: Date,
  policy: { allowLocalHttp: boolean },
): Promise<{ webhook: WebhookView; secret: string | null }> {
  try {
    checkWebhookUrl(body.url, policy);
  } catch (e) {
    if (e instanceof WebhookUrlRejected) throw rejected(e.message);
    throw e;
  }
  if ((await store.listWebhooks(tenantId)).length >= MAX_WEBHOOKS) throw rejected(`Como mucho ${MAX_WEBHOOKS} webhooks por cliente`, 'body');
  const secret = body.kind === 'json' ? randomBytes(32).toString('hex') : null;
  const id = `wh-${randomBytes(12).toString('hex').slice(0, 20)}`;
  const w: Webhook = { id, tenantId, name: body.name, kind: body.kind, url: body.url, minSeverity: body.minSeverity, kinds: body.kinds ? [...new Set(body.kinds)] : null, createdAt: now.toISOString(), createdBy: by, ...(secret ? { secret } : {}) };
  if (!(await store.createWebhook(w))) throw new ApiError('VERSION_CONFLICT', 'webhook id collision, try again');
  return { webhook: webhookView(w), secret };
}

export async function deleteWebhook(store: NotificationsPort, tenantId: string, id: string): Promise<WebhookView> {
  const w = await store.getWebhook(tenantId, id);
  if (!w || !(await store.deleteWebhook(tenantId, id))) throw new ApiError('NOT_FOUND', 'no such webhook');
  return webhookView(w);
}

export async function listWebhookDeliveries(store: NotificationsPort, tenantId: string, id: string): Promise<{ items: WebhookDelivery[] }> {
  if (!(await store.getWebhook(tenantId, id))) throw new ApiError('NOT_FOUND', 'no such webhook');
  return { items: (await store.listWebhookDeliveries(tenantId, id, WEBHOOK_DELIVERIES_SHOWN)).map(deliveryView) };
}

/**
 * Sends a test message ("Mensaje de prueba de Vigía", kind `test`, severity `info`) to the webhook now and
 * reports the receiver's answer. Not recorded as a delivery, never retried.
 */
export async function testWebhook(
  store: NotificationsPort,
  senders: Pick<SendersPort, 'postWebhook'>,
  tenantId: string,
  id: string,
  siteUrl: string,
  now: Date,
): Promise<WebhookTestResult> {
  const w = await store.getWebhook(tenantId, id);
  if (!w) throw new ApiError('NOT_FOUND', 'no such webhook');
  const eventId = `test-${now.getTime()}`;
  const ev: NotificationEvent = {
    eventId,
    tenantId,
    kind: 'test',
    severity: 'info',
    at: now.toISOString(),
    actor: null,
    subject: { type: 'webhook', id },
    title: 'Mensaje de prueba de Vigía: el webhook está bien configurado',
    link: '/notifications/webhooks',
  };
  const deliveryId = `${eventId}:webhook:${id}`;
  try {
    const status = await senders.postWebhook(w, renderWebhookBody(w.kind, ev, siteUrl, deliveryId), deliveryId, now);
    return { ok: true, status, error: null };
  } catch (e) {
    const status = (e as { status?: unknown }).status;
    return { ok: false, status: typeof status === 'number' ? status : null, error: e instanceof Error ? e.message.slice(0, 300) : String(e) };
  }
}
