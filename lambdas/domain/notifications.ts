/**
 * Notification delivery outside the portal, the pure part (docs/notifications.md#delivery): which
 * channels an activity event goes to given the tenant's users' preferences and webhooks, the Spanish
 * e-mail (HTML + plain text), the Microsoft Teams / Slack / generic JSON webhook bodies, the HMAC-SHA256
 * signature of the generic webhook, the webhook URL policy and the retry schedule. No I/O here: the
 * delivery loop is `notification-delivery.ts`, storage `lambdas/data/notifications.ts`.
 *
 * Rules:
 *  - recipients are members of the event's tenant group only (the caller passes that group's members;
 *    webhooks are checked against `event.tenantId` again here), so nothing goes to another tenant;
 *  - a body carries the event as the portal's feed shows it (title, kind, severity, time, actor name, link)
 *    and nothing else: no user ids, no other tenant's data, no internal keys;
 *  - every delivery has a deterministic id `<eventId>:<channel>:<recipient>` (recipient = user `sub` or
 *    webhook id): the idempotency key of the exactly-once protocol and the `id` a webhook receiver dedupes on.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { ACTIVITY_KINDS, ACTIVITY_SEVERITIES } from '../contract/schemas.js';
import { classifyAddress, isInternalHostname } from './network-address.js';
import { DEFAULT_LANGUAGE, eventTitle, fill, MAIL, renderMessage, type Language } from './messages.js';

/** Severities an activity event carries, most severe first (`info` is below every incident severity). */
/** The activity event's severities and kinds (one list each, in the API contract: lambdas/contract/schemas.ts). */
export const NOTIFICATION_SEVERITIES = ACTIVITY_SEVERITIES;
export type NotificationSeverity = (typeof NOTIFICATION_SEVERITIES)[number];

/** Event kinds users and webhooks can pick: every activity kind (docs/notifications.md#kinds). */
export const NOTIFICATION_KINDS = ACTIVITY_KINDS;

/** Spanish label of each kind (e-mail subject, Teams/Slack heading). */
/** Spanish label of each event kind (e-mails, webhook cards; `MAIL` in lambdas/domain/messages.ts has every language). */
export const KIND_LABELS: Readonly<Record<string, string>> = MAIL.es.kinds;

/** Spanish label of each severity. */
export const SEVERITY_LABELS: Readonly<Record<NotificationSeverity, string>> = MAIL.es.severity as Record<NotificationSeverity, string>;

/**
 * The fields of an activity event that delivery reads (the stored item is written by the activity feed,
 * `lambdas/domain/activity.ts`; shape in docs/notifications.md). `link` is a portal path (`/…`).
 */
export interface NotificationEvent {
  eventId: string;
  tenantId: string;
  kind: string;
  severity: NotificationSeverity;
  /** ISO-8601 UTC. */
  at: string;
  actor: { name: string; sub?: string | undefined } | null;
  subject: { type: string; id: string };
  /** Spanish, as stored (events stored before messages existed have only this). */
  title: string;
  /** Message key and parameters (`lambdas/domain/messages.ts`): rendered in each reader's language. */
  message?: { key: string; params: Record<string, string> } | undefined;
  /** Portal path of the item, e.g. `/ticket/update/INC-000123?tenant=acme`. */
  link: string;
}

/**
 * A user's e-mail preferences. Absent item = {@link DEFAULT_PREFERENCES}. `kinds: null` = every kind.
 * `digest`: one e-mail a day instead of one per event (the flag is stored; see docs/notifications.md#delivery).
 */
export interface NotificationPreferences {
  email: boolean;
  minSeverity: NotificationSeverity;
  kinds: string[] | null;
  digest: boolean;
  /** Language of the user's e-mails and digests (`es` when absent: docs/notifications.md#languages). */
  language?: Language | undefined;
  /** "Informe mensual por correo": the monthly PDF report e-mailed on the 1st (docs/notifications.md#monthly-report-e-mail); absent = off. */
  monthlyReport?: boolean | undefined;
}

/** What a user who never opened the preferences gets: e-mail for high and critical events of every kind. */
export const DEFAULT_PREFERENCES: NotificationPreferences = { email: true, minSeverity: 'high', kinds: null, digest: false };

export const WEBHOOK_KINDS = ['teams', 'slack', 'json'] as const;
export type WebhookKind = (typeof WEBHOOK_KINDS)[number];

/** A tenant's webhook as stored (the secret only for `json`; never returned by the API after creation). */
export interface Webhook {
  id: string;
  tenantId: string;
  name: string;
  kind: WebhookKind;
  url: string;
  minSeverity: NotificationSeverity;
  kinds: string[] | null;
  createdAt: string;
  createdBy: string;
  /** HMAC key of a `json` webhook (hex, 32 random bytes). */
  secret?: string | undefined;
}

/** A tenant user who may receive e-mail (a member of the tenant group). */
export interface Recipient {
  sub: string;
  email: string;
  enabled: boolean;
}

export type DeliveryChannel = 'email' | 'webhook';

/** One message to send: the event to one user's address or to one webhook. */
export interface PlannedDelivery {
  /** `<eventId>:<channel>:<recipient>` — deterministic, the idempotency key. */
  deliveryId: string;
  channel: DeliveryChannel;
  /** User `sub` (e-mail) or webhook id. */
  recipient: string;
  /** E-mail address or webhook URL. */
  address: string;
}

const rank = (s: NotificationSeverity): number => NOTIFICATION_SEVERITIES.indexOf(s);

/** Whether `severity` is at least `min` (critical ≥ high ≥ medium ≥ low ≥ info). */
export function severityAtLeast(severity: NotificationSeverity, min: NotificationSeverity): boolean {
  const r = rank(severity);
  return r >= 0 && r <= rank(min);
}

const kindWanted = (kinds: readonly string[] | null, kind: string): boolean => kinds === null || kinds.includes(kind);

/**
 * Whether `event` passes a filter of minimum severity and kinds (`kinds: null` = every kind): the one rule
 * behind a user's e-mail preferences, the daily digest and a webhook's filter (docs/notifications.md).
 */
export function matchesFilter(filter: { minSeverity: NotificationSeverity; kinds: readonly string[] | null }, event: Pick<NotificationEvent, 'kind' | 'severity'>): boolean {
  return severityAtLeast(event.severity, filter.minSeverity) && kindWanted(filter.kinds, event.kind);
}

/**
 * Whether a user with `prefs` gets an e-mail for `event`. `socReply` (see {@link isSocReply}): the SOC's
 * reply on the tenant's incident, which e-mails whatever the minimum severity (as a reply on your ticket
 * does in Zendesk or ServiceNow); e-mail off, the digest, or the kind `incident.commented` left out of
 * `kinds` still stop it (docs/notifications.md#soc-replies).
 */
export function emailWanted(prefs: NotificationPreferences, event: Pick<NotificationEvent, 'kind' | 'severity'>, socReply = false): boolean {
  if (!prefs.email || prefs.digest) return false;
  return socReply ? kindWanted(prefs.kinds, event.kind) : matchesFilter(prefs, event);
}

/**
 * Whether `event` is a comment by the SOC on one of the tenant's incidents: kind `incident.commented` by an
 * author (`actor.sub`) who is not a member of the tenant group `members` (staff are never tenant members:
 * docs/notifications.md#delivery). A customer's own comment is not one.
 */
export function isSocReply(event: Pick<NotificationEvent, 'kind' | 'actor'>, members: readonly Pick<Recipient, 'sub'>[]): boolean {
  const sub = event.actor?.sub;
  return event.kind === 'incident.commented' && !!sub && !members.some((m) => m.sub === sub);
}

/** Whether `webhook` receives `event` (same tenant, severity and kind filters). */
export function webhookWants(webhook: Webhook, event: Pick<NotificationEvent, 'tenantId' | 'kind' | 'severity'>): boolean {
  return webhook.tenantId === event.tenantId && matchesFilter(webhook, event);
}

/** The delivery id of one (event, channel, recipient). */
export const deliveryIdOf = (eventId: string, channel: DeliveryChannel, recipient: string): string => `${eventId}:${channel}:${recipient}`;

/**
 * Every delivery of `event`: one e-mail per enabled member with an address whose preferences want it
 * ({@link emailWanted}; a SOC reply, {@link isSocReply}, regardless of the minimum severity), one per webhook
 * of the tenant that wants it. The author of a comment never gets an e-mail of it. `members` must be the
 * event tenant's group members (the caller reads that group; nothing else is a recipient). Deterministic
 * order (e-mails by sub, then webhooks by id).
 */
export function planDeliveries(
  event: NotificationEvent,
  members: readonly Recipient[],
  prefsOf: (sub: string) => NotificationPreferences,
  webhooks: readonly Webhook[],
): PlannedDelivery[] {
  const out: PlannedDelivery[] = [];
  const seen = new Set<string>();
  const socReply = isSocReply(event, members);
  const author = event.kind === 'incident.commented' ? event.actor?.sub : undefined;
  for (const m of [...members].sort((a, b) => a.sub.localeCompare(b.sub))) {
    if (!m.enabled || !m.email || seen.has(m.sub) || m.sub === author) continue;
    seen.add(m.sub);
    if (emailWanted(prefsOf(m.sub), event, socReply)) out.push({ deliveryId: deliveryIdOf(event.eventId, 'email', m.sub), channel: 'email', recipient: m.sub, address: m.email });
  }
  for (const w of [...webhooks].sort((a, b) => a.id.localeCompare(b.id))) {
    if (webhookWants(w, event)) out.push({ deliveryId: deliveryIdOf(event.eventId, 'webhook', w.id), channel: 'webhook', recipient: w.id, address: w.url });
  }
  return out;
}

// ------------------------------------------------------------------------------------------- rendering

/** `&<>"'` as HTML entities. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/**
 * Absolute portal URL of the event's item: `link` must be a portal path (`/…`, not `//…`), anything else
 * links to the portal's home (never to another site).
 */
export function portalUrl(siteUrl: string, link: string): string {
  const base = siteUrl.replace(/\/+$/, '');
  return /^\/(?!\/)[^\s\\]*$/.test(link) ? `${base}${link}` : `${base}/`;
}

/** `25/11/2026 22:31 UTC` (the e-mail shows UTC: the reader's time zone is unknown). */
export function formatUtc(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getUTCDate())}/${p(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())} UTC`;
}

export const kindLabel = (kind: string, lang: Language = DEFAULT_LANGUAGE): string => MAIL[lang].kinds[kind] ?? MAIL[lang].activity;

/** An e-mail as SES SendEmail takes it (Simple content). */
export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

/**
 * The e-mail of one event in the recipient's language `lang` (default Spanish; the user's notification
 * preference `language`): subject `[Vigía] <severity> · <title>`, an HTML part (inline styles only: mail
 * clients drop stylesheets) and the same facts as plain text, with a link to the item and one to the
 * notification preferences page (`/notifications/preferences`). The title is the event's message rendered
 * in `lang` (`eventTitle`: the stored Spanish title for events stored before messages existed).
 */
export function renderEmail(event: NotificationEvent, siteUrl: string, lang: Language = DEFAULT_LANGUAGE): RenderedEmail {
  const m = MAIL[lang];
  const title = eventTitle(event, lang);
  const url = portalUrl(siteUrl, event.link);
  const prefsUrl = portalUrl(siteUrl, '/notifications/preferences');
  const sev = m.severity[event.severity] ?? event.severity;
  const label = kindLabel(event.kind, lang);
  const when = formatUtc(event.at);
  const actor = event.actor?.name;
  const subject = `[Vigía] ${sev} · ${title}`.slice(0, 200);
  const rows: Array<[string, string]> = [
    [m.type, label],
    [m.severityLabel, sev],
    [m.date, when],
    ...(actor ? ([[m.by, actor]] as Array<[string, string]>) : []),
  ];
  const text = [
    `${label}: ${title}`,
    '',
    ...rows.map(([k, v]) => `${k}: ${v}`),
    '',
    `${m.viewInPortal}: ${url}`,
    '',
    '—',
    fill(m.footerText, { url: prefsUrl }),
  ].join('\n');
  const html = `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:Arial,Helvetica,sans-serif;color:#1f2937;background:#f3f4f6;margin:0;padding:24px">
<table role="presentation" style="max-width:600px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px;border-collapse:separate">
<tr><td>
<p style="margin:0 0 8px;color:#6b7280;font-size:14px">${escapeHtml(label)}</p>
<h1 style="margin:0 0 16px;font-size:20px">${escapeHtml(title)}</h1>
<table role="presentation" style="font-size:14px;margin-bottom:16px">
${rows.map(([k, v]) => `<tr><td style="padding:2px 12px 2px 0;color:#6b7280">${escapeHtml(k)}</td><td>${escapeHtml(v)}</td></tr>`).join('\n')}
</table>
<p><a href="${escapeHtml(url)}" style="display:inline-block;background:#1d4ed8;color:#ffffff;padding:10px 16px;border-radius:6px;text-decoration:none">${escapeHtml(m.viewInPortal)}</a></p>
<p style="font-size:12px;color:#6b7280;margin-top:24px">${escapeHtml(m.footer)} <a href="${escapeHtml(prefsUrl)}">${escapeHtml(m.changePreferences)}</a></p>
</td></tr></table>
</body></html>`;
  return { subject, html, text };
}

/**
 * The fields every webhook body carries (the generic JSON body's `data`): `title` and `kindLabel` in
 * English, `key` and `params` the event's message (docs/notifications.md#languages; `key` null for events stored before
 * messages existed, whose `title` is their stored Spanish text).
 */
function eventFacts(event: NotificationEvent, siteUrl: string) {
  const rendered = event.message ? renderMessage('en', event.message) : null;
  return {
    eventId: event.eventId,
    kind: event.kind,
    kindLabel: kindLabel(event.kind, 'en'),
    severity: event.severity,
    at: event.at,
    title: rendered ?? event.title,
    key: rendered !== null && event.message ? event.message.key : null,
    params: rendered !== null && event.message ? event.message.params : {},
    subject: { type: event.subject.type, id: event.subject.id },
    actor: event.actor ? { name: event.actor.name } : null,
    url: portalUrl(siteUrl, event.link),
  };
}

/** Slack mrkdwn escaping (`&`, `<`, `>`). */
const slackEscape = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The HTTP body of a webhook delivery (JSON text):
 *  - `teams`: a message with one Adaptive Card 1.4 (what Teams Workflows' "post to a channel when a webhook
 *    request is received" and incoming webhooks accept), with an "Abrir en Vigía" action;
 *  - `slack`: `text` (notification fallback) and Block Kit blocks with a button;
 *  - `json`: `{ id: <deliveryId>, type: <kind>, createdAt, tenant, data: {...} }`, signed (`signWebhook`).
 */
export function renderWebhookBody(kind: WebhookKind, event: NotificationEvent, siteUrl: string, deliveryId: string): string {
  const f = eventFacts(event, siteUrl);
  const sev = SEVERITY_LABELS[event.severity] ?? event.severity;
  const when = formatUtc(event.at);
  if (kind === 'teams') {
    return JSON.stringify({
      type: 'message',
      attachments: [
        {
          contentType: 'application/vnd.microsoft.card.adaptive',
          contentUrl: null,
          content: {
            $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
            type: 'AdaptiveCard',
            version: '1.4',
            body: [
              { type: 'TextBlock', text: f.kindLabel, isSubtle: true, wrap: true },
              { type: 'TextBlock', text: event.title, weight: 'Bolder', size: 'Medium', wrap: true },
              {
                type: 'FactSet',
                facts: [
                  { title: 'Severidad', value: sev },
                  { title: 'Fecha', value: when },
                  ...(f.actor ? [{ title: 'Por', value: f.actor.name }] : []),
                ],
              },
            ],
            actions: [{ type: 'Action.OpenUrl', title: 'Abrir en Vigía', url: f.url }],
          },
        },
      ],
    });
  }
  if (kind === 'slack') {
    const fallback = `[${sev}] ${event.title}`;
    return JSON.stringify({
      text: slackEscape(fallback),
      blocks: [
        { type: 'section', text: { type: 'mrkdwn', text: `*${slackEscape(f.kindLabel)}*\n${slackEscape(event.title)}` } },
        {
          type: 'context',
          elements: [{ type: 'mrkdwn', text: slackEscape(`Severidad: ${sev} · ${when}${f.actor ? ` · ${f.actor.name}` : ''}`) }],
        },
        { type: 'actions', elements: [{ type: 'button', text: { type: 'plain_text', text: 'Abrir en Vigía' }, url: f.url }] },
      ],
    });
  }
  return JSON.stringify({ id: deliveryId, type: event.kind, createdAt: event.at, tenant: event.tenantId, data: f });
}

// ------------------------------------------------------------------------------------------- signing

/** Header of the generic webhook's signature. */
export const SIGNATURE_HEADER = 'X-Vigia-Signature';
/** Header carrying the delivery id (every webhook kind), which receivers dedupe on. */
export const DELIVERY_ID_HEADER = 'X-Vigia-Delivery';
/** Seconds a receiver should accept between the signature's timestamp and its clock (replay window). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/**
 * `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>` — the Stripe scheme: the timestamp is
 * signed with the body so a captured request cannot be replayed outside the tolerance window.
 */
export function signWebhook(secret: string, body: string, unixSeconds: number): string {
  const t = Math.floor(unixSeconds);
  const v1 = createHmac('sha256', secret).update(`${t}.${body}`, 'utf8').digest('hex');
  return `t=${t},v1=${v1}`;
}

/**
 * Receiver-side check (documented for customers, used by the tests): the header parses, some `v1`
 * matches (constant-time) and `t` is within `toleranceSeconds` of `nowSeconds`.
 */
export function verifyWebhookSignature(secret: string, body: string, header: string, nowSeconds: number, toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS): boolean {
  const parts = header.split(',').map((p) => p.trim().split('=') as [string, string]);
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(`${t}.${body}`, 'utf8').digest('hex'), 'utf8');
  return parts.some(([k, v]) => k === 'v1' && typeof v === 'string' && v.length === expected.length && timingSafeEqual(Buffer.from(v, 'utf8'), expected));
}

// ------------------------------------------------------------------------------------------- URL policy

/** Why a webhook URL is refused (Spanish message for the API's VALIDATION_FAILED details). */
export class WebhookUrlRejected extends Error {
  override readonly name = 'WebhookUrlRejected';
}

/**
 * Whether an IP address (v4 or v6, any textual form) may NOT be contacted by a webhook: the negation of the
 * one classifier `classifyAddress` (lambdas/domain/network-address.ts — private, loopback, link-local with
 * the instance metadata service, carrier-grade NAT, multicast, reserved, IPv4-mapped/compatible forms of
 * those, 6to4, NAT64, Teredo, site-local, unique-local…). Not an IP address → true.
 */
export function isNonPublicAddress(ip: string): boolean {
  return !classifyAddress(ip).public;
}

/**
 * The stable code a webhook send that got no HTTP answer reports — DNS failure, refused or reset connection,
 * TLS failure, timeout, or an address the SSRF guard refuses — as the test-send's `error` and a delivery's
 * `lastError`. One code for all of them on purpose: telling them apart would make "Enviar prueba" a port
 * scanner of whatever the URL reaches. The socket detail is logged server-side only
 * (lambdas/data/notification-senders.ts).
 */
export const WEBHOOK_UNREACHABLE = 'WEBHOOK_UNREACHABLE';

/**
 * Checks a webhook URL at creation and before each send. Always: a parseable http(s) URL without user
 * info, at most 2,048 characters. In AWS (`allowLocalHttp` false): `https:` only; an IP literal host must be
 * public by `classifyAddress` (decided on the parsed address: `[::ffff:a9fe:a9fe]`, `[::127.0.0.1]`,
 * `[2002:a00:1::]` are refused like 169.254.169.254, 127.0.0.1 and 10.0.0.1); a name must not be an
 * internal or special-use name (`isInternalHostname`: `localhost`, `*.internal`, single labels…, trailing
 * dots removed first). Locally (`allowLocalHttp`): also `http://localhost` / `http://127.0.0.1` /
 * `http://[::1]` (the test receivers). DNS names are checked after resolution by the sender (every resolved
 * address through the same classifier, lambdas/data/notification-senders.ts), so a name pointing inside is
 * refused too. docs/notifications.md#webhook-url-policy.
 * @throws WebhookUrlRejected
 */
export function checkWebhookUrl(raw: string, opts: { allowLocalHttp: boolean }): URL {
  if (raw.length > 2048) throw new WebhookUrlRejected('La URL es demasiado larga');
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new WebhookUrlRejected('La URL no es válida');
  }
  if (u.username || u.password) throw new WebhookUrlRejected('La URL no puede llevar usuario ni contraseña');
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const local = host === 'localhost' || host === '127.0.0.1' || host === '::1';
  if (opts.allowLocalHttp && local && (u.protocol === 'http:' || u.protocol === 'https:')) return u;
  if (u.protocol !== 'https:') throw new WebhookUrlRejected('La URL debe empezar por https://');
  if (isIP(host) ? !classifyAddress(host).public : isInternalHostname(host)) throw new WebhookUrlRejected('La URL apunta a una dirección privada');
  return u;
}

// ------------------------------------------------------------------------------------------- retries

/** Attempts of one delivery before it is dead-lettered (state `dead`, shown with the webhook's deliveries). */
export const MAX_DELIVERY_ATTEMPTS = 5;

/**
 * Seconds to wait after failed attempt `attempt` (1-based): 30 s × 2^(attempt−1), at most 1 h, so the five
 * attempts span about 7.5 minutes + the sweep interval.
 */
export function backoffSeconds(attempt: number): number {
  return Math.min(3600, 30 * 2 ** Math.max(0, attempt - 1));
}
