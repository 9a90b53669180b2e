/**
 * The delivery loop of activity events (docs/notifications.md#delivery), shared by the AWS consumer (the
 * table's DynamoDB stream and a scheduled sweep of the outbox index) and the local poller: the same
 * {@link deliverEvent} runs in both.
 *
 * Exactly-once protocol, per delivery id `<eventId>:<channel>:<recipient>` (`planDeliveries`):
 *  1. claim: one conditional UpdateItem puts the delivery record in state `sending` (attempts + 1, a lease)
 *     only if it does not exist, or failed and is due, or its `sending` lease expired (a sender that died);
 *     a concurrent consumer's claim fails the condition and it leaves that delivery alone;
 *  2. send (SES SendEmail or the webhook POST);
 *  3. mark `sent` (conditional on still holding the claim), or `failed` with the next attempt time
 *     (`backoffSeconds`), or `dead` after `MAX_DELIVERY_ATTEMPTS` (visible with the webhook's deliveries).
 * A crash before 2 leaves a `sending` record whose lease expires: the next run sends it once. A crash between
 * 2 and 3 (milliseconds) also ends in a second send after the lease: at-least-once in that window only.
 * Webhook receivers dedupe on `X-Vigia-Delivery`; SES has no idempotency key (documented).
 * When every planned delivery of the event is `sent` or `dead`, the event leaves the outbox
 * (`completeEvent`: `outbox = DONE`, GSI2 keys removed).
 *
 * Errors: a storage failure rejects (the stream record is then reported as a batch item failure and retried
 * by Lambda, then sent to the DLQ); a send failure never rejects (recorded on the delivery).
 */
import { languageOf, type Language } from './messages.js';
import {
  backoffSeconds,
  MAX_DELIVERY_ATTEMPTS,
  planDeliveries,
  renderEmail,
  renderWebhookBody,
  DEFAULT_PREFERENCES,
  type DeliveryChannel,
  type NotificationEvent,
  type NotificationPreferences,
  type PlannedDelivery,
  type Recipient,
  type Webhook,
} from './notifications.js';

export type DeliveryState = 'sending' | 'sent' | 'failed' | 'dead';

/** A delivery record as stored. */
export interface DeliveryRecord {
  deliveryId: string;
  tenantId: string;
  eventId: string;
  channel: DeliveryChannel;
  recipient: string;
  state: DeliveryState;
  attempts: number;
  /** ISO; while `sending`, another consumer leaves it alone until then. */
  leaseUntil?: string | undefined;
  /** ISO; when a `failed` delivery is due again. */
  nextAttemptAt?: string | undefined;
  lastError?: string | undefined;
  /** HTTP status of the last webhook answer. */
  lastStatus?: number | undefined;
  createdAt: string;
  updatedAt: string;
  sentAt?: string | undefined;
  /** The event's kind and title (the webhook's delivery list shows them). */
  kind: string;
  title: string;
}

/** Storage of preferences, webhooks, delivery records and the outbox (`lambdas/data/notifications.ts`). */
export interface NotificationsPort {
  getPreferences(tenantId: string, sub: string): Promise<NotificationPreferences | null>;
  putPreferences(tenantId: string, sub: string, prefs: NotificationPreferences, now: Date): Promise<void>;
  /** Every stored preference of the tenant's users (one Query), by sub. */
  listPreferences(tenantId: string): Promise<Map<string, NotificationPreferences>>;
  listWebhooks(tenantId: string): Promise<Webhook[]>;
  getWebhook(tenantId: string, id: string): Promise<Webhook | null>;
  /** Creates the webhook (false when the id exists). */
  createWebhook(webhook: Webhook): Promise<boolean>;
  /** Deletes it; false when absent. */
  deleteWebhook(tenantId: string, id: string): Promise<boolean>;
  /** Newest first, at most `limit`. */
  listWebhookDeliveries(tenantId: string, webhookId: string, limit: number): Promise<DeliveryRecord[]>;
  /** The event's delivery records (one Query, consistent). */
  listEventDeliveries(tenantId: string, eventId: string): Promise<DeliveryRecord[]>;
  /** Step 1 of the protocol; the claimed record, or null when the condition failed. */
  claimDelivery(d: { tenantId: string; eventId: string; channel: DeliveryChannel; recipient: string; deliveryId: string; kind: string; title: string; webhookCreatedAt?: string }, now: Date, leaseSeconds: number): Promise<DeliveryRecord | null>;
  /** Step 3; conditional on `state = sending AND attempts = :attempts`. False when the claim was lost. */
  finishDelivery(rec: DeliveryRecord, outcome: { state: 'sent' | 'failed' | 'dead'; error?: string; httpStatus?: number; nextAttemptAt?: string }, now: Date): Promise<boolean>;
  /** `outbox = DONE`, GSI2 keys removed (conditional on `PENDING`; false when already done). */
  completeEvent(event: NotificationEvent, now: Date): Promise<boolean>;
  /**
   * Pending events of every tenant, at most `limit`, optionally only those at or before `before`: the GSI2
   * `OUTBOX` entries (oldest first), then each tenant's feed from its outbox mark, which this call moves forward
   * (never past `now` − the settle time). docs/notifications.md#outbox.
   */
  listOutbox(limit: number, before?: string, now?: Date): Promise<NotificationEvent[]>;
}

/** How messages leave (`lambdas/data/notification-senders.ts`; the tests wrap them). */
export interface SendersPort {
  /** SES v2 SendEmail (Simple content, optional attachments: the monthly report's PDF); rejects on failure. */
  sendEmail(msg: { to: string; subject: string; html: string; text: string; deliveryId: string; attachments?: EmailAttachment[] | undefined }): Promise<void>;
  /** HTTP POST of `body`; resolves with the status (2xx), rejects otherwise (`WebhookSendError`). */
  postWebhook(webhook: Webhook, body: string, deliveryId: string, now: Date): Promise<number>;
}

/** A file attached to an e-mail: name, MIME type and bytes (SES v2 `Simple.Attachments`, ≤ 40 MB message). */
export interface EmailAttachment {
  fileName: string;
  contentType: string;
  content: Uint8Array;
}

/** The tenant group's members (a `GroupMembersPort` view). */
export type MembersOf = (tenantId: string) => Promise<Recipient[]>;

/** What every sending job needs (the event consumer's delivery, the daily digest): its stores, senders, clock. */
export interface SendingDeps {
  /** The outbox and the delivery records (claims, outcomes). */
  store: NotificationsPort;
  /** E-mail (SES) and webhook senders. */
  senders: SendersPort;
  /** The tenant group's members (the recipients). */
  members: MembersOf;
  /** Portal origin for links, e.g. `https://portal.vigia.example`. */
  siteUrl: string;
  /** The clock (default: the system's). */
  now?: () => Date;
  /** Seconds a claim holds before another consumer may retry it (default 120). */
  leaseSeconds?: number;
}

/** The event consumer's dependencies: {@link SendingDeps} and its outcome hook and per-event preparation. */
export interface DeliveryDeps extends SendingDeps {
  /** Called once per delivery outcome (logs, metrics). */
  onOutcome?: (o: { deliveryId: string; state: DeliveryState | 'skipped'; error?: string }) => void;
  /**
   * Work the event's consumer owes besides deliveries, run first on every run of the event (stream and sweep),
   * so an error in it (a storage error) leaves the event in the outbox for the next run: the search-word
   * backstop of `incident.created` (docs/data-model.md#search). Must be idempotent.
   */
  prepare?: (event: NotificationEvent) => Promise<void>;
}

/** What one run did to one event. */
export interface EventOutcome {
  eventId: string;
  planned: number;
  sent: number;
  failed: number;
  dead: number;
  /** Not touched this run: done before, not yet due, or held by another consumer. */
  waiting: number;
  /** The event left the outbox in this run. */
  completed: boolean;
}

const DEFAULT_LEASE_SECONDS = 120;
/** An error as stored on a delivery record: `name: message` (or its JSON), at most 500 characters. */
export const errorText = (e: unknown): string => {
  if (e instanceof Error) return `${e.name}: ${e.message}`.slice(0, 500);
  try {
    return (JSON.stringify(e) ?? String(e)).slice(0, 500);
  } catch {
    return String(e).slice(0, 500);
  }
};

/**
 * Where an existing delivery record leaves a delivery at `at` (the protocol of the module doc): `done` — sent,
 * or dead after `MAX_DELIVERY_ATTEMPTS`; `waiting` — failed and not yet due (`nextAttemptAt`), or claimed by a
 * run whose lease (`leaseUntil`) still holds; `due` — no record, a due failure or an expired lease.
 */
export function deliveryStatusAt(rec: DeliveryRecord | undefined, at: Date): 'done' | 'waiting' | 'due' {
  if (!rec) return 'due';
  if (rec.state === 'sent' || rec.state === 'dead') return 'done';
  const t = at.toISOString();
  if (rec.state === 'failed' && rec.nextAttemptAt && rec.nextAttemptAt > t) return 'waiting';
  if (rec.state === 'sending' && rec.leaseUntil && rec.leaseUntil > t) return 'waiting';
  return 'due';
}

/** What one send attempt gave: ok (with the webhook's HTTP status), or the error text (and status). */
export type AttemptResult = { ok: true; status?: number } | { ok: false; error: string; status?: number };

/**
 * Step 3 of the protocol for a claimed delivery: stores `sent`; or, on failure, `dead` once `claimed.attempts`
 * reached `MAX_DELIVERY_ATTEMPTS`, else `failed` with `nextAttemptAt` = `finished` + `backoffSeconds(attempts)`.
 * Returns the state stored (the callers count it). @throws storage errors of `finishDelivery`
 */
export async function finishAttempt(store: Pick<NotificationsPort, 'finishDelivery'>, claimed: DeliveryRecord, result: AttemptResult, finished: Date): Promise<'sent' | 'failed' | 'dead'> {
  const status = result.status !== undefined ? { httpStatus: result.status } : {};
  if (result.ok) {
    await store.finishDelivery(claimed, { state: 'sent', ...status }, finished);
    return 'sent';
  }
  if (claimed.attempts >= MAX_DELIVERY_ATTEMPTS) {
    await store.finishDelivery(claimed, { state: 'dead', error: result.error, ...status }, finished);
    return 'dead';
  }
  const nextAttemptAt = new Date(finished.getTime() + backoffSeconds(claimed.attempts) * 1000).toISOString();
  await store.finishDelivery(claimed, { state: 'failed', error: result.error, nextAttemptAt, ...status }, finished);
  return 'failed';
}

/**
 * Sends one claimed delivery with `send` and finishes it (`finishAttempt`); a rejection of `send` is the
 * failure (its text, at most 500 characters). @throws storage errors only
 */
export async function sendClaimed(store: Pick<NotificationsPort, 'finishDelivery'>, claimed: DeliveryRecord, send: () => Promise<void>, now: () => Date): Promise<{ state: 'sent' | 'failed' | 'dead'; error?: string }> {
  let result: AttemptResult;
  try {
    await send();
    result = { ok: true };
  } catch (e) {
    result = { ok: false, error: errorText(e) };
  }
  const state = await finishAttempt(store, claimed, result, now());
  return result.ok ? { state } : { state, error: result.error };
}

/** Delivers what is due of one event; see the module doc. @throws storage errors only */
export async function deliverEvent(event: NotificationEvent, deps: DeliveryDeps): Promise<EventOutcome> {
  const now = deps.now ?? (() => new Date());
  const lease = deps.leaseSeconds ?? DEFAULT_LEASE_SECONDS;
  await deps.prepare?.(event);
  const [members, prefs, webhooks, existing] = await Promise.all([
    deps.members(event.tenantId),
    deps.store.listPreferences(event.tenantId),
    deps.store.listWebhooks(event.tenantId),
    deps.store.listEventDeliveries(event.tenantId, event.eventId),
  ]);
  const planned = planDeliveries(event, members, (sub) => prefs.get(sub) ?? DEFAULT_PREFERENCES, webhooks);
  const byId = new Map(existing.map((r) => [r.deliveryId, r]));
  const out: EventOutcome = { eventId: event.eventId, planned: planned.length, sent: 0, failed: 0, dead: 0, waiting: 0, completed: false };
  let open = 0;
  for (const p of planned) {
    const t = now();
    const status = deliveryStatusAt(byId.get(p.deliveryId), t);
    if (status === 'done') continue;
    if (status === 'waiting') { out.waiting++; open++; continue; }
    const webhook = p.channel === 'webhook' ? webhooks.find((w) => w.id === p.recipient) : undefined;
    const claimed = await deps.store.claimDelivery(
      { tenantId: event.tenantId, eventId: event.eventId, channel: p.channel, recipient: p.recipient, deliveryId: p.deliveryId, kind: event.kind, title: event.title, ...(webhook ? { webhookCreatedAt: event.at } : {}) },
      t,
      lease,
    );
    if (!claimed) { out.waiting++; open++; continue; }
    const lang = languageOf((prefs.get(p.recipient) ?? DEFAULT_PREFERENCES).language);
    const result = await attempt(event, p, webhook, deps, t, lang);
    const state = await finishAttempt(deps.store, claimed, result, now());
    out[state]++;
    if (state === 'failed') open++;
    deps.onOutcome?.({ deliveryId: p.deliveryId, state, ...(result.ok ? {} : { error: result.error }) });
  }
  if (open === 0) out.completed = await deps.store.completeEvent(event, now());
  return out;
}

async function attempt(
  event: NotificationEvent,
  p: PlannedDelivery,
  webhook: Webhook | undefined,
  deps: DeliveryDeps,
  now: Date,
  lang: Language,
): Promise<AttemptResult> {
  try {
    if (p.channel === 'email') {
      const mail = renderEmail(event, deps.siteUrl, lang);
      await deps.senders.sendEmail({ to: p.address, ...mail, deliveryId: p.deliveryId });
      return { ok: true };
    }
    const body = renderWebhookBody(webhook!.kind, event, deps.siteUrl, p.deliveryId);
    const status = await deps.senders.postWebhook(webhook!, body, p.deliveryId, now);
    return { ok: true, status };
  } catch (e) {
    const status = (e as { status?: unknown }).status;
    return { ok: false, error: errorText(e), ...(typeof status === 'number' ? { status } : {}) };
  }
}

/** What a sweep of the outbox did. */
export interface SweepOutcome {
  events: number;
  completed: number;
  sent: number;
  failed: number;
  dead: number;
}

/**
 * Runs {@link deliverEvent} over the pending events (`listOutbox`: GSI2 `OUTBOX`, then each tenant's feed from
 * its outbox mark), at most `maxEvents`;
 * `minAgeSeconds` leaves the newest to the stream consumer in AWS (0 locally). Events are handled one by
 * one; a storage error on one event is reported through `onError` and the sweep goes on.
 */
export async function sweepOutbox(
  deps: DeliveryDeps,
  opts: { maxEvents?: number; minAgeSeconds?: number; onError?: (eventId: string, e: unknown) => void } = {},
): Promise<SweepOutcome> {
  const now = deps.now ?? (() => new Date());
  const before = opts.minAgeSeconds ? new Date(now().getTime() - opts.minAgeSeconds * 1000).toISOString() : undefined;
  const events = await deps.store.listOutbox(opts.maxEvents ?? 100, before, now());
  const total: SweepOutcome = { events: events.length, completed: 0, sent: 0, failed: 0, dead: 0 };
  for (const ev of events) {
    try {
      const o = await deliverEvent(ev, deps);
      total.sent += o.sent;
      total.failed += o.failed;
      total.dead += o.dead;
      if (o.completed) total.completed++;
    } catch (e) {
      opts.onError?.(ev.eventId, e);
    }
  }
  return total;
}
