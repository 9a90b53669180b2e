/**
 * The daily digest e-mail (docs/notifications.md#daily-digest): once a day, every tenant user who chose the
 * digest in their preferences (`digest: true`, e-mail on) receives ONE Spanish e-mail (HTML + plain text)
 * listing the previous UTC day's activity events of their own tenant that match their preferences (kinds,
 * minimum severity), with links into the portal. Nothing is sent when nothing matches.
 *
 * Exactly once per user per UTC day: the digest of day `D` (events with `D ≤ at < D + 1 day`, UTC) has the
 * delivery id `DIGEST-<D>:email:<sub>` and goes through the same claim → send → finish protocol as the
 * per-event deliveries (`lambdas/domain/notification-delivery.ts`, the same `NotificationsPort` methods and
 * the same record `TENANT#<t>#DELIVERY#DIGEST-<D>` / `email#<sub>`): the claim is a conditional UpdateItem
 * that only one run wins, so a job that runs twice, or twice at once, sends one e-mail; a job that crashed
 * before sending leaves a `sending` claim whose lease expires and the next run sends it; a failed send is
 * retried by the next run once due (backoff), dead after `MAX_DELIVERY_ATTEMPTS`. As for the per-event
 * e-mails, a crash in the milliseconds between SES's answer and the finishing UpdateItem is the one window
 * that can send twice (SES SendEmail has no idempotency key).
 *
 * Who: the enabled members, with an address, of the tenant's Cognito group (the same `MembersOf` as the
 * per-event e-mails) whose stored preferences have `digest: true` and `email: true`. Nobody of another
 * tenant: tenants are iterated one by one, each with its own group, preferences and feed partition.
 * What: the events as the portal's feed shows them to that tenant's users (kind, severity, time, title,
 * actor name, link) and nothing else (no `sub`, no keys).
 */
import { DEFAULT_LANGUAGE, eventTitle, fill, languageOf, MAIL, type Language } from './messages.js';
import { deliveryStatusAt, sendClaimed, type DeliveryRecord, type SendingDeps } from './notification-delivery.js';
import { forEachTenant, subscribedMembers, type TenantPage } from './tenant-jobs.js';
import {
  deliveryIdOf,
  escapeHtml,
  formatUtc,
  kindLabel,
  portalUrl,
  SEVERITY_LABELS,
  matchesFilter,
  type NotificationEvent,
  type NotificationPreferences,
  type RenderedEmail,
} from './notifications.js';

/** UTC hour the AWS schedule runs the digest job (EventBridge `cron(0 6 * * ? *)`). */
export const DIGEST_HOUR_UTC = 6;
/** Most events one digest lists (the rest are counted, with a link to the feed). */
export const DIGEST_MAX_LISTED = 50;
/** Most events read from one tenant's feed for one day (paged Queries of 200). */
export const DIGEST_MAX_READ = 2000;
/** The per-event "event id" of a digest's delivery record: `DIGEST-<yyyy-mm-dd>`. */
export const digestKeyOf = (day: string): string => `DIGEST-${day}`;

/** The UTC day (`yyyy-mm-dd`) a run at `at` summarises: the day before `at`'s UTC day. */
export function digestDayOf(at: Date): string {
  const d = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() - 1));
  return d.toISOString().slice(0, 10);
}

/** `[from, to)` ISO instants of a UTC day. */
export function dayRange(day: string): { from: string; to: string } {
  const from = new Date(`${day}T00:00:00.000Z`);
  return { from: from.toISOString(), to: new Date(from.getTime() + 86_400_000).toISOString() };
}

/** Whether a user with these preferences gets the digest. */
export const digestWanted = (prefs: NotificationPreferences): boolean => prefs.email && prefs.digest;

/** The events of `events` a user with `prefs` wants, in feed order (newest first). */
export function digestEventsFor(events: readonly NotificationEvent[], prefs: NotificationPreferences): NotificationEvent[] {
  return events
    .filter((e) => matchesFilter(prefs, e))
    .sort((a, b) => (a.at === b.at ? b.eventId.localeCompare(a.eventId) : b.at.localeCompare(a.at)));
}

/** `25/11/2026` */
const dayLabel = (day: string): string => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;

/**
 * The digest e-mail of `day` for one user in `opts.lang` (default Spanish; the user's notification
 * preference `language`): subject `[Vigía] Resumen del dd/mm/aaaa: N novedades` (English: `Summary of …:
 * N updates`), a count per severity, the newest `DIGEST_MAX_LISTED` events (time, severity, kind, title in
 * that language linked to the item, actor), a link to the feed page (`/notifications`) and to the
 * notification preferences (`/notifications/preferences`). `events` must be non-empty and already
 * filtered (`digestEventsFor`).
 */
export function renderDigestEmail(day: string, events: readonly NotificationEvent[], siteUrl: string, opts: { truncated?: boolean; lang?: Language } = {}): RenderedEmail {
  const lang = opts.lang ?? DEFAULT_LANGUAGE;
  const m = MAIL[lang];
  const d = m.digest;
  const sevLabel = (s: string) => m.severity[s] ?? s;
  const n = events.length;
  const listed = events.slice(0, DIGEST_MAX_LISTED);
  const more = n - listed.length;
  const feedUrl = portalUrl(siteUrl, '/notifications');
  const prefsUrl = portalUrl(siteUrl, '/notifications/preferences');
  const total = `${n}${opts.truncated ? '+' : ''} ${n === 1 && !opts.truncated ? d.one : d.other}`;
  const heading = fill(d.title, { day: dayLabel(day), total });
  const subject = `[Vigía] ${heading}`;
  const counts = Object.keys(SEVERITY_LABELS)
    .map((s) => [sevLabel(s), events.filter((e) => e.severity === s).length] as const)
    .filter(([, c]) => c > 0);
  const countsLine = counts.map(([label, c]) => `${label}: ${c}`).join(' · ');
  const intro = fill(d.intro, { day: dayLabel(day), total });
  const moreLine = more > 0 ? fill(d.moreN, { count: more }) : d.more;
  const rowText = (e: NotificationEvent) =>
    `- ${formatUtc(e.at)} · ${sevLabel(e.severity)} · ${kindLabel(e.kind, lang)}: ${eventTitle(e, lang)}${e.actor ? ` (${fill(d.by, { name: e.actor.name })})` : ''}\n  ${portalUrl(siteUrl, e.link)}`;
  const text = [
    intro,
    countsLine,
    '',
    ...listed.map(rowText),
    ...(more > 0 || opts.truncated ? ['', moreLine] : []),
    '',
    `${d.viewAllText}: ${feedUrl}`,
    '',
    '—',
    fill(d.footerText, { url: prefsUrl }),
  ].join('\n');
  const rowHtml = (e: NotificationEvent) =>
    `<tr><td style="padding:6px 12px 6px 0;color:#6b7280;white-space:nowrap;vertical-align:top">${escapeHtml(formatUtc(e.at))}</td>` +
    `<td style="padding:6px 12px 6px 0;vertical-align:top">${escapeHtml(sevLabel(e.severity))}</td>` +
    `<td style="padding:6px 0;vertical-align:top"><span style="color:#6b7280">${escapeHtml(kindLabel(e.kind, lang))}</span><br>` +
    `<a href="${escapeHtml(portalUrl(siteUrl, e.link))}" style="color:#1d4ed8">${escapeHtml(eventTitle(e, lang))}</a>` +
    `${e.actor ? `<br><span style="color:#6b7280;font-size:12px">${escapeHtml(fill(d.by, { name: e.actor.name }))}</span>` : ''}</td></tr>`;
  const html = `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:Arial,Helvetica,sans-serif;color:#1f2937;background:#f3f4f6;margin:0;padding:24px">
<table role="presentation" style="max-width:680px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px;border-collapse:separate">
<tr><td>
<p style="margin:0 0 8px;color:#6b7280;font-size:14px">${escapeHtml(d.label)}</p>
<h1 style="margin:0 0 16px;font-size:20px">${escapeHtml(heading)}</h1>
<p style="font-size:14px;margin:0 0 4px">${escapeHtml(intro)}</p>
<p style="font-size:14px;margin:0 0 16px">${escapeHtml(countsLine)}</p>
<table role="presentation" style="font-size:14px;margin-bottom:16px;border-collapse:collapse">
${listed.map(rowHtml).join('\n')}
</table>
${more > 0 || opts.truncated ? `<p style="font-size:14px">${escapeHtml(moreLine)}</p>` : ''}
<p><a href="${escapeHtml(feedUrl)}" style="display:inline-block;background:#1d4ed8;color:#ffffff;padding:10px 16px;border-radius:6px;text-decoration:none">${escapeHtml(d.viewAll)}</a></p>
<p style="font-size:12px;color:#6b7280;margin-top:24px">${escapeHtml(d.footer)} <a href="${escapeHtml(prefsUrl)}">${escapeHtml(m.changePreferences)}</a></p>
</td></tr></table>
</body></html>`;
  return { subject, html, text };
}

/** What the digest job reads besides `NotificationsPort` (`lambdas/data/notification-digest.ts`). */
export interface DigestSourcePort {
  /** One page of registered tenant ids (Query `PK = TENANTS`), with the cursor of the next page. */
  tenantPage: TenantPage;
  /** The tenant's users whose stored preferences ask for the digest (`digest` and `email` true), by sub. */
  digestSubscribers(tenantId: string): Promise<Map<string, NotificationPreferences>>;
  /** The tenant's activity events with `from ≤ at < to`, newest first, at most `max` (`truncated` when more exist). */
  activityBetween(tenantId: string, from: string, to: string, max: number): Promise<{ events: NotificationEvent[]; truncated: boolean }>;
}

/** The digest job's dependencies: {@link SendingDeps} and the activity it summarises, its outcome hooks. */
export interface DigestDeps extends SendingDeps {
  source: DigestSourcePort;
  onOutcome?: (o: { deliveryId: string; state: 'sent' | 'failed' | 'dead'; error?: string }) => void;
  /** A tenant that failed (storage, Cognito); the job goes on with the next one and reports it. */
  onTenantError?: (tenantId: string, e: unknown) => void;
}

/** What one run did. */
export interface DigestOutcome {
  day: string;
  tenants: number;
  subscribers: number;
  sent: number;
  failed: number;
  dead: number;
  /** Subscribers with nothing to report (no e-mail). */
  empty: number;
  /** Digests done before (`sent`/`dead`), not yet due, or held by another run. */
  skipped: number;
  /** Digests still to send (failed and due later, held by a live claim) and tenants that failed: a later run must come. */
  open: number;
}

/**
 * Sends the digest of `day` (default: the day before `now`'s UTC day) to every subscriber of every tenant;
 * see the module doc. Tenants are read page by page (cursor), each tenant's subscribers with one Query, its
 * feed for the day with paged Queries (only when it has subscribers), its digest delivery records with one
 * consistent Query. @throws storage errors of the tenant registry only (a tenant's errors go to `onTenantError`)
 */
export async function runDigest(deps: DigestDeps, opts: { day?: string } = {}): Promise<DigestOutcome> {
  const now = deps.now ?? (() => new Date());
  const day = opts.day ?? digestDayOf(now());
  const out: DigestOutcome = { day, tenants: 0, subscribers: 0, sent: 0, failed: 0, dead: 0, empty: 0, skipped: 0, open: 0 };
  await forEachTenant((c) => deps.source.tenantPage(c), (tenantId) => digestTenant(tenantId, day, deps, out), out, deps.onTenantError);
  return out;
}

async function digestTenant(tenantId: string, day: string, deps: DigestDeps, out: DigestOutcome): Promise<void> {
  const now = deps.now ?? (() => new Date());
  const subscribers = await deps.source.digestSubscribers(tenantId);
  if (subscribers.size === 0) return;
  const key = digestKeyOf(day);
  const range = dayRange(day);
  const [members, feed, existing] = await Promise.all([
    deps.members(tenantId),
    deps.source.activityBetween(tenantId, range.from, range.to, DIGEST_MAX_READ),
    deps.store.listEventDeliveries(tenantId, key),
  ]);
  const byId = new Map<string, DeliveryRecord>(existing.map((r) => [r.deliveryId, r]));
  for (const { member: m, prefs } of subscribedMembers(members, subscribers)) {
    out.subscribers++;
    const events = digestEventsFor(feed.events.filter((e) => e.tenantId === tenantId), prefs);
    if (events.length === 0) { out.empty++; continue; }
    const deliveryId = deliveryIdOf(key, 'email', m.sub);
    const t = now();
    const status = deliveryStatusAt(byId.get(deliveryId), t);
    if (status === 'done') { out.skipped++; continue; }
    if (status === 'waiting') { out.skipped++; out.open++; continue; }
    const mail = renderDigestEmail(day, events, deps.siteUrl, { truncated: feed.truncated, lang: languageOf(prefs.language) });
    const claimed = await deps.store.claimDelivery({ tenantId, eventId: key, channel: 'email', recipient: m.sub, deliveryId, kind: 'digest', title: mail.subject }, t, deps.leaseSeconds ?? 120);
    if (!claimed) { out.skipped++; out.open++; continue; }
    const { state, error } = await sendClaimed(deps.store, claimed, () => deps.senders.sendEmail({ to: m.email, ...mail, deliveryId }), now);
    out[state]++;
    if (state === 'failed') out.open++;
    deps.onOutcome?.({ deliveryId, state, ...(error !== undefined ? { error } : {}) });
  }
}
