/**
 * Notification delivery on the real local engines (docs/notifications.md#delivery): dynoxide holds the
 * activity events (outbox entries in GSI2 `OUTBOX`) and the delivery records, the SES emulator
 * (`aws-ses-v2-local`) receives SES v2 SendEmail calls signed by the same sender the Lambda uses, and a small
 * HTTP server in the test plays the webhook receivers.
 *
 *  - the sender dies midway through a batch (its k+1-th send never returns, as a killed process never
 *    continues) and a new one starts after the claim's lease: every event reaches SES and the webhooks
 *    exactly once, nothing is lost, and the outbox is empty;
 *  - the generic webhook's `X-Vigia-Signature` verifies with node:crypto;
 *  - a user who turned e-mail off gets none, another tenant's user gets none of this tenant's events;
 *  - a failing webhook is retried with backoff and dead-lettered after 5 attempts, visible in its deliveries;
 *  - the Lambda's stream path (Powertools batch processing) reports only the failed record.
 */
import { createHmac } from 'node:crypto';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { Context, DynamoDBStreamEvent } from 'aws-lambda';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDocumentClient, type TableRef } from '../../lambdas/data/table/client.js';
import { keys } from '../../lambdas/data/table/keys.js';
import { notificationsRepository, OUTBOX_SETTLE_MS } from '../../lambdas/data/notifications.js';
import { activityPut } from '../../lambdas/data/activity.js';
import { putTenant } from '../../lambdas/data/tenants.js';
import type { ActivityEvent } from '../../lambdas/contract/schemas.js';
import type { SendersPort } from '../../lambdas/domain/notification-delivery.js';
import type { NotificationEvent, NotificationSeverity } from '../../lambdas/domain/notifications.js';
import type { GroupMember, GroupMembersPort } from '../../lambdas/domain/ports.js';
import { createConsumer } from '../../lambdas/handlers/notifications-consumer.js';
import { localSenders, notificationsTestConfig } from '../support/notifications.js';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../support/webhook-receiver.js';
import { ensureTable, startDynamo, type RunningDynamo } from '../../scripts/local/dynamodb.js';
import { startMailEmulator } from '../../scripts/local/notifications.js';

const TABLE = 'vigia-notify-main';
const SITE = 'https://portal.vigia.example';
let dynamo: RunningDynamo;
let table: TableRef;
let mail: { url: string; stop(): Promise<void> };
let receiver: WebhookReceiver | undefined;
let receiverUrl: string;
/** Requests the webhook receiver got: path, headers, body. */
const received: ReceivedWebhook[] = [];
/** Paths the receiver answers 500 on. */
const failingPaths = new Set<string>(['/broken']);

const members: Record<string, GroupMember[]> = {
  acme: [
    { username: 'ana', sub: 'sub-ana', email: 'ana@acme.example', status: 'CONFIRMED', enabled: true },
    { username: 'luis', sub: 'sub-luis', email: 'luis@acme.example', status: 'CONFIRMED', enabled: true },
    { username: 'eva', sub: 'sub-eva', email: 'eva@acme.example', status: 'CONFIRMED', enabled: false },
  ],
  globex: [{ username: 'bruno', sub: 'sub-bruno', email: 'bruno@globex.example', status: 'CONFIRMED', enabled: true }],
};
const users: GroupMembersPort = { listGroupMembers: async (g) => members[g] ?? [] };

const config = () => notificationsTestConfig({ tableName: TABLE, dynamodbEndpoint: dynamo.endpoint, mailUrl: mail.url, siteUrl: SITE });

const realSenders = (): SendersPort => localSenders(mail.url);

let seq = 0;
/** Writes an activity event as the activity writer does (contract: docs/notifications.md). */
async function putEvent(tenantId: string, severity: NotificationSeverity, kind = 'incident.status_changed'): Promise<NotificationEvent> {
  seq++;
  const at = new Date(Date.UTC(2026, 10, 25, 10, 0, seq)).toISOString();
  const eventId = `EV${String(seq).padStart(6, '0')}`;
  const ev: NotificationEvent = {
    eventId,
    tenantId,
    kind,
    severity,
    at,
    actor: { name: 'admin@vigia.example', sub: 'sub-admin' },
    subject: { type: 'incident', id: `INC-${String(seq).padStart(6, '0')}` },
    title: `INC-${String(seq).padStart(6, '0')}: estado «Nuevo» → «En curso»`,
    link: `/ticket/update/INC-${String(seq).padStart(6, '0')}?tenant=${tenantId}`,
  };
  await table.doc.send('PutItem', {
    TableName: TABLE,
    Item: { ...keys.activityEvent(tenantId, at, eventId), ...keys.outboxGsi2(tenantId, at, eventId), entity: 'ActivityEvent', ...ev, outbox: 'PENDING' },
  });
  return ev;
}

async function sesStore(): Promise<Array<{ destination: { to: string[] }; subject: string; body: { html?: string; text?: string }; from: string }>> {
  const res = await fetch(`${mail.url}/store`);
  return ((await res.json()) as { emails: never[] }).emails;
}

async function outboxCount(): Promise<number> {
  const res = await table.doc.send('Query', { TableName: TABLE, IndexName: 'GSI2', KeyConditionExpression: 'GSI2PK = :p', ExpressionAttributeValues: { ':p': 'OUTBOX' } });
  return (res.Items ?? []).length;
}

/** Empties the outbox of a previous test (marks every pending event done) and the captures. */
async function reset(): Promise<void> {
  const store = notificationsRepository(table);
  for (const ev of await store.listOutbox(1000)) await store.completeEvent(ev, new Date());
  await fetch(`${mail.url}/clear-store`, { method: 'POST' });
  received.length = 0;
}

beforeAll(async () => {
  dynamo = await startDynamo({ port: 0 });
  await ensureTable(dynamo.endpoint, TABLE);
  table = { doc: createDocumentClient({ endpoint: dynamo.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'l', secretAccessKey: 'l' } }), tableName: TABLE };
  mail = await startMailEmulator({ port: 0, host: '127.0.0.1' });
  receiver = await startWebhookReceiver(received, failingPaths);
  receiverUrl = receiver.url;

  const store = notificationsRepository(table);
  const now = new Date().toISOString();
  await store.putPreferences('acme', 'sub-luis', { email: false, minSeverity: 'low', kinds: null, digest: false }, new Date());
  await store.createWebhook({ id: 'wh-json', tenantId: 'acme', name: 'SIEM', kind: 'json', url: `${receiverUrl}/acme-json`, minSeverity: 'info', kinds: null, createdAt: now, createdBy: 'ana', secret: 'a'.repeat(64) });
  await store.createWebhook({ id: 'wh-slack', tenantId: 'acme', name: 'Slack', kind: 'slack', url: `${receiverUrl}/acme-slack`, minSeverity: 'high', kinds: null, createdAt: now, createdBy: 'ana' });
  await store.createWebhook({ id: 'wh-globex', tenantId: 'globex', name: 'Teams', kind: 'teams', url: `${receiverUrl}/globex-teams`, minSeverity: 'info', kinds: null, createdAt: now, createdBy: 'bruno' });
}, 60_000);

afterAll(async () => {
  await receiver?.close();
  await mail?.stop();
  await dynamo?.stop();
});

beforeEach(reset);

describe('delivery of activity events', () => {
  it('a sender that dies midway and a restarted one deliver every event exactly once; HMAC verifies; preferences and tenants are respected', async () => {
    const acme = [await putEvent('acme', 'critical'), await putEvent('acme', 'high'), await putEvent('acme', 'low'), await putEvent('acme', 'high', 'incident.commented')];
    const globex = [await putEvent('globex', 'critical'), await putEvent('globex', 'medium')];
    // Expected deliveries: acme critical/high → ana (luis off, eva disabled) + json + slack; acme low → json only;
    // globex critical → bruno + teams; globex medium → teams only (bruno's default minimum is high).
    const expectedEmails = 3 + 1;
    const expectedWebhooks = 3 * 2 + 1 + 2;

    // The first sender: its 6th send never returns (the process is gone: nothing after it runs).
    const real = realSenders();
    let sends = 0;
    let died!: () => void;
    const dead = new Promise<void>((r) => (died = r));
    const dying: SendersPort = {
      sendEmail: async (m) => { if (++sends > 5) { died(); return new Promise<never>(() => undefined); } return real.sendEmail(m); },
      postWebhook: async (w, b, id, now) => { if (++sends > 5) { died(); return new Promise<never>(() => undefined); } return real.postWebhook(w, b, id, now); },
    };
    const first = createConsumer(config(), { table, users, senders: dying });
    void first.sweep({ minAgeSeconds: 0 });
    await dead;
    const sentBefore = (await sesStore()).length + received.length;
    expect(sentBefore).toBe(5);
    expect(await outboxCount()).toBeGreaterThan(0);

    // The restarted sender, after the dead one's claim (lease 120 s) has expired.
    const later = () => new Date(Date.now() + 10 * 60_000);
    const second = createConsumer(config(), { table, users, senders: realSenders(), now: later });
    for (let i = 0; i < 3 && (await outboxCount()) > 0; i++) await second.sweep({ minAgeSeconds: 0 });
    expect(await outboxCount()).toBe(0);

    const emails = await sesStore();
    expect(emails).toHaveLength(expectedEmails);
    expect(received).toHaveLength(expectedWebhooks);
    // Exactly once per (event, recipient).
    const emailKeys = emails.map((e) => `${e.destination.to.join(',')}|${e.subject}`);
    expect(new Set(emailKeys).size).toBe(emailKeys.length);
    const ids = received.map((r) => String(r.headers['x-vigia-delivery']));
    expect(new Set(ids).size).toBe(ids.length);
    for (const ev of acme.filter((e) => e.severity !== 'low')) {
      expect(emails.filter((e) => e.subject.includes(ev.title) && e.destination.to.includes('ana@acme.example'))).toHaveLength(1);
      expect(ids).toContain(`${ev.eventId}:webhook:wh-json`);
      expect(ids).toContain(`${ev.eventId}:webhook:wh-slack`);
    }
    expect(ids).toContain(`${acme[2]!.eventId}:webhook:wh-json`);
    expect(ids).not.toContain(`${acme[2]!.eventId}:webhook:wh-slack`);
    // E-mail off, disabled user: none. Another tenant: only its own events, only to its own webhook.
    const recipients = emails.flatMap((e) => e.destination.to);
    expect(recipients).not.toContain('luis@acme.example');
    expect(recipients).not.toContain('eva@acme.example');
    const brunos = emails.filter((e) => e.destination.to.includes('bruno@globex.example'));
    expect(brunos).toHaveLength(1);
    expect(brunos[0]!.subject).toContain(globex[0]!.title);
    expect(received.filter((r) => r.path === '/globex-teams')).toHaveLength(2);
    for (const r of received.filter((x) => x.path !== '/globex-teams')) expect(r.body).not.toContain('globex');

    // The e-mail: Spanish, HTML and text, the portal link, from the configured identity.
    const mailToAna = emails.find((e) => e.destination.to.includes('ana@acme.example') && e.subject.includes(acme[0]!.title))!;
    expect(mailToAna.from).toContain('notificaciones@vigia.example');
    expect(mailToAna.subject).toMatch(/^\[Vigía\] Crítica · /);
    expect(mailToAna.body.text).toContain(`${SITE}${acme[0]!.link}`);
    expect(mailToAna.body.html).toContain('Ver en el portal');

    // The generic webhook's signature, checked with node:crypto as a receiver would.
    for (const r of received.filter((x) => x.path === '/acme-json')) {
      const header = String(r.headers['x-vigia-signature']);
      const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
      expect(m).not.toBeNull();
      expect(createHmac('sha256', 'a'.repeat(64)).update(`${m![1]}.${r.body}`).digest('hex')).toBe(m![2]);
      expect(JSON.parse(r.body)).toMatchObject({ id: r.headers['x-vigia-delivery'], tenant: 'acme', data: { url: expect.stringMatching(/^https:\/\/portal\.vigia\.example\/ticket\//) } });
    }
    // Slack / Teams bodies carry no signature header.
    expect(received.filter((x) => x.path !== '/acme-json').every((r) => r.headers['x-vigia-signature'] === undefined)).toBe(true);
  }, 60_000);

  it('retries a failing webhook with backoff and dead-letters it after 5 attempts (visible in its deliveries)', async () => {
    const store = notificationsRepository(table);
    await store.createWebhook({ id: 'wh-broken', tenantId: 'initech', name: 'Roto', kind: 'json', url: `${receiverUrl}/broken`, minSeverity: 'info', kinds: null, createdAt: new Date().toISOString(), createdBy: 'x', secret: 'b'.repeat(64) });
    const ev = await putEvent('initech', 'high');
    let clock = Date.now();
    const consumer = createConsumer(config(), { table, users, senders: realSenders(), now: () => new Date(clock) });
    const attempts: number[] = [];
    for (let i = 0; i < 8 && (await outboxCount()) > 0; i++) {
      await consumer.sweep({ minAgeSeconds: 0 });
      // Not due yet: a sweep right away sends nothing more.
      const before = received.length;
      await consumer.sweep({ minAgeSeconds: 0 });
      expect(received.length).toBe(before);
      attempts.push(received.length);
      clock += 3600_000;
    }
    expect(received.filter((r) => r.path === '/broken')).toHaveLength(5);
    expect(attempts).toEqual([1, 2, 3, 4, 5]);
    expect(await outboxCount()).toBe(0);
    const [d] = await store.listWebhookDeliveries('initech', 'wh-broken', 10);
    expect(d).toMatchObject({ deliveryId: `${ev.eventId}:webhook:wh-broken`, state: 'dead', attempts: 5, lastStatus: 500, title: ev.title });
  }, 60_000);

  it('the stream path (Powertools batch processing) delivers each INSERT and reports only the record whose storage failed', async () => {
    const ok = await putEvent('acme', 'low');
    const bad = await putEvent('acme', 'low');
    const image = async (ev: NotificationEvent) =>
      (await table.doc.send('GetItem', { TableName: TABLE, Key: keys.activityEvent(ev.tenantId, ev.at, ev.eventId) })).Item!;
    const record = async (ev: NotificationEvent, seqNo: string) => ({
      eventID: seqNo,
      eventName: 'INSERT' as const,
      eventSource: 'aws:dynamodb',
      dynamodb: { SequenceNumber: seqNo, NewImage: marshall(await image(ev), { removeUndefinedValues: true }) as never },
    });
    const store = notificationsRepository(table);
    const failing = { ...store, listEventDeliveries: async (t: string, e: string) => (e === bad.eventId ? Promise.reject(new Error('ProvisionedThroughputExceededException')) : store.listEventDeliveries(t, e)) };
    const consumer = createConsumer(config(), { table, users, senders: realSenders(), store: failing });
    const event: DynamoDBStreamEvent = { Records: [await record(ok, '100'), await record(bad, '200')] };
    const res = await consumer.handle(event, { getRemainingTimeInMillis: () => 30_000 } as Context);
    expect(res).toEqual({ batchItemFailures: [{ itemIdentifier: '200' }] });
    expect(received.map((r) => r.headers['x-vigia-delivery'])).toEqual([`${ok.eventId}:webhook:wh-json`]);
    // The failed event is still pending: the sweep (or Lambda's retry) delivers it.
    expect((await store.listOutbox(10)).map((e) => e.eventId)).toEqual([bad.eventId]);
  }, 60_000);
  it('events written in a change\'s transaction have no index entry: the sweep finds them in the tenant\'s feed after its outbox mark, which never passes a pending event nor the settle time', async () => {
    await putTenant({ id: 'acme', name: 'Acme' }, table);
    const txEvent = async (at: Date, title: string): Promise<ActivityEvent> => {
      const ev: ActivityEvent = { eventId: `TX${title}`, tenantId: 'acme', kind: 'incident.status_changed', severity: 'high', at: at.toISOString(), actor: null, subject: { type: 'incident', id: 'INC-000900' }, title, link: '/ticket/update/INC-000900?tenant=acme', outbox: 'PENDING' };
      await table.doc.send('TransactWriteItems', { TransactItems: [activityPut(ev, table)] });
      return ev;
    };
    const statusOf = async (ev: ActivityEvent) => (await table.doc.send('GetItem', { TableName: TABLE, Key: keys.activityEvent('acme', ev.at, ev.eventId), ConsistentRead: true })).Item;
    const markOf = async () => (await table.doc.send('GetItem', { TableName: TABLE, Key: keys.outboxMark('acme'), ConsistentRead: true })).Item?.from as string | undefined;
    const t0 = Date.now();
    const first = await txEvent(new Date(t0), 'uno');
    expect((await statusOf(first))?.GSI2PK).toBeUndefined();
    expect(await outboxCount()).toBe(0);

    const consumer = createConsumer(config(), { table, users, senders: realSenders() });
    await consumer.sweep({ minAgeSeconds: 0 });
    expect((await statusOf(first))?.outbox).toBe('DONE');
    expect(received.filter((r) => r.path === '/acme-json').map((r) => r.body.includes(first.eventId))).toEqual([true]);
    // The mark stays before `now − settle time`: an event dated just before `now` and committed late is still read.
    const mark1 = await markOf();
    expect(mark1).toBeDefined();
    expect(mark1! <= keys.activityAfter(new Date(Date.now() - OUTBOX_SETTLE_MS).toISOString())).toBe(true);
    const late = await txEvent(new Date(Date.now() - 60_000), 'tarde');
    await consumer.sweep({ minAgeSeconds: 0 });
    expect((await statusOf(late))?.outbox).toBe('DONE');

    // A pending event (its webhook fails) pins the mark; later sweeps keep finding it and a newer event.
    await notificationsRepository(table).createWebhook({ id: 'wh-broken', tenantId: 'acme', name: 'Roto', kind: 'json', url: `${receiverUrl}/broken`, minSeverity: 'info', kinds: null, createdAt: new Date().toISOString(), createdBy: 'ana', secret: 'b'.repeat(64) });
    const stuck = await txEvent(new Date(t0 + 1_000), 'atascado');
    const later = createConsumer(config(), { table, users, senders: realSenders(), now: () => new Date(Date.now() + 20 * 60_000) });
    await later.sweep({ minAgeSeconds: 0 });
    expect((await statusOf(stuck))?.outbox).toBe('PENDING');
    expect(await markOf()).toBe(keys.activityEvent('acme', stuck.at, stuck.eventId).SK);
    expect((await notificationsRepository(table).listOutbox(10, undefined, new Date(Date.now() + 20 * 60_000))).map((e) => e.eventId)).toEqual([stuck.eventId]);
    await notificationsRepository(table).deleteWebhook('acme', 'wh-broken');
    const next = await txEvent(new Date(t0 + 2_000), 'siguiente');
    await later.sweep({ minAgeSeconds: 0 });
    expect((await statusOf(next))?.outbox).toBe('DONE');
  }, 60_000);
});
