/**
 * The daily digest on the real local engines (docs/notifications.md#daily-digest): dynoxide holds the tenant
 * registry, the users' preferences, the activity feed and the delivery records; the SES emulator
 * (`aws-ses-v2-local`) receives the SES v2 SendEmail calls of the same sender the Lambdas use.
 *
 *  - each subscriber gets ONE Spanish e-mail (HTML + text, portal links) with the previous UTC day's events of
 *    their own tenant that match their kinds and minimum severity, nothing of another day or tenant;
 *  - disabled users, users with e-mail off, users without the digest, and a preferences item of someone who
 *    is not a member of the tenant's group get nothing; a day without matching events sends nothing;
 *  - running the job again, or twice at once, sends nothing more;
 *  - a job that dies midway (its 2nd send never returns) and a rerun after the claim's lease: every digest
 *    exactly once, none lost;
 *  - a failed send is retried by a later run once due (backoff), not before.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDocumentClient, type TableRef } from '../../lambdas/data/table/client.js';
import { keys } from '../../lambdas/data/table/keys.js';
import { notificationsRepository } from '../../lambdas/data/notifications.js';
import type { SendersPort } from '../../lambdas/domain/notification-delivery.js';
import { digestKeyOf } from '../../lambdas/domain/notification-digest.js';
import type { NotificationPreferences, NotificationSeverity } from '../../lambdas/domain/notifications.js';
import type { GroupMember, GroupMembersPort } from '../../lambdas/domain/ports.js';
import { createDigestJob } from '../../lambdas/triggers/notification-digest.js';
import { groupMember, localSenders, notificationsTestConfig } from '../support/notifications.js';
import { ensureTable, startDynamo, type RunningDynamo } from '../../scripts/local/dynamodb.js';
import { startMailEmulator } from '../../scripts/local/notifications.js';

const TABLE = 'vigia-digest-main';
const SITE = 'https://portal.vigia.example';
let dynamo: RunningDynamo;
let table: TableRef;
let mail: { url: string; stop(): Promise<void> };

const member = groupMember;
const members: Record<string, GroupMember[]> = {
  acme: [member('ana', 'acme.example'), member('luis', 'acme.example'), member('eva', 'acme.example', false), member('marta', 'acme.example'), member('pepe', 'acme.example')],
  globex: [member('bruno', 'globex.example')],
  initech: [member('irene', 'initech.example')],
};
const users: GroupMembersPort = { listGroupMembers: async (g) => members[g] ?? [] };

const config = () => notificationsTestConfig({ tableName: TABLE, dynamodbEndpoint: dynamo.endpoint, mailUrl: mail.url, siteUrl: SITE });

const realSenders = (): SendersPort => localSenders(mail.url);

let seq = 0;
/** An activity event as the activity writer stores it (docs/notifications.md), already delivered per event. */
async function putEvent(tenantId: string, at: string, severity: NotificationSeverity, kind = 'incident.status_changed'): Promise<{ title: string; link: string }> {
  seq++;
  const id = `INC-${String(seq).padStart(6, '0')}`;
  const ev = {
    eventId: `EV${String(seq).padStart(6, '0')}`,
    tenantId,
    kind,
    severity,
    at,
    actor: { name: 'admin@vigia.example', sub: 'sub-admin' },
    subject: { type: 'incident', id },
    title: `${id} (${tenantId}, ${severity}, ${kind})`,
    link: `/ticket/update/${id}?tenant=${tenantId}`,
  };
  await table.doc.send('PutItem', { TableName: TABLE, Item: { ...keys.activityEvent(tenantId, at, ev.eventId), entity: 'ActivityEvent', ...ev, outbox: 'DONE' } });
  return ev;
}

type Stored = { destination: { to: string[] }; subject: string; body: { html?: string; text?: string }; from: string };
async function sesStore(): Promise<Stored[]> {
  return ((await (await fetch(`${mail.url}/store`)).json()) as { emails: Stored[] }).emails;
}
const to = (emails: Stored[], address: string) => emails.filter((e) => e.destination.to.includes(address));

const prefs = (p: Partial<NotificationPreferences>): NotificationPreferences => ({ email: true, minSeverity: 'high', kinds: null, digest: true, ...p });

beforeAll(async () => {
  dynamo = await startDynamo({ port: 0 });
  await ensureTable(dynamo.endpoint, TABLE);
  table = { doc: createDocumentClient({ endpoint: dynamo.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'l', secretAccessKey: 'l' } }), tableName: TABLE };
  mail = await startMailEmulator({ port: 0, host: '127.0.0.1' });
  for (const id of ['acme', 'globex', 'initech']) {
    await table.doc.send('PutItem', { TableName: TABLE, Item: { ...keys.tenant(id), entity: 'Tenant', id, name: id } });
  }
  const store = notificationsRepository(table);
  const now = new Date();
  await store.putPreferences('acme', 'sub-ana', prefs({ minSeverity: 'medium' }), now);
  await store.putPreferences('acme', 'sub-luis', prefs({ minSeverity: 'info', kinds: ['incident.commented'] }), now);
  await store.putPreferences('acme', 'sub-eva', prefs({ minSeverity: 'info' }), now); // disabled user
  await store.putPreferences('acme', 'sub-pepe', prefs({ email: false, minSeverity: 'info' }), now); // e-mail off
  await store.putPreferences('acme', 'sub-bruno', prefs({ minSeverity: 'info' }), now); // not an acme member
  // marta: no preferences (per-event defaults, no digest).
  await store.putPreferences('globex', 'sub-bruno', prefs({ minSeverity: 'info' }), now);
  await store.putPreferences('initech', 'sub-irene', prefs({ minSeverity: 'critical' }), now);
}, 60_000);

afterAll(async () => {
  await mail?.stop();
  await dynamo?.stop();
});

beforeEach(async () => {
  await fetch(`${mail.url}/clear-store`, { method: 'POST' });
});

describe('daily digest', () => {
  it('one Spanish e-mail per subscriber with their tenant\'s matching events of the previous UTC day; reruns and concurrent runs send nothing more', async () => {
    const day = '2026-11-24';
    const acme = {
      critical: await putEvent('acme', `${day}T09:00:00.000Z`, 'critical'),
      medium: await putEvent('acme', `${day}T10:00:00.000Z`, 'medium'),
      low: await putEvent('acme', `${day}T11:00:00.000Z`, 'low'),
      comment: await putEvent('acme', `${day}T23:59:59.999Z`, 'info', 'incident.commented'),
      before: await putEvent('acme', '2026-11-23T23:59:59.999Z', 'critical'),
      after: await putEvent('acme', '2026-11-25T00:00:00.000Z', 'critical'),
    };
    const globex = await putEvent('globex', `${day}T12:00:00.000Z`, 'low');
    await putEvent('initech', `${day}T12:00:00.000Z`, 'high'); // below irene's minimum (critical)

    const at = new Date('2026-11-25T06:00:00.000Z');
    const job = createDigestJob(config(), { table, users, senders: realSenders() });
    const first = await job.run(at);
    expect(first).toMatchObject({ day, tenants: 3, sent: 3, failed: 0, open: 0, empty: 1 });

    const emails = await sesStore();
    expect(emails.flatMap((e) => e.destination.to).sort()).toEqual(['ana@acme.example', 'bruno@globex.example', 'luis@acme.example']);
    const [ana] = to(emails, 'ana@acme.example');
    expect(ana!.from).toContain('notificaciones@vigia.example');
    expect(ana!.subject).toBe('[Vigía] Resumen del 24/11/2026: 2 novedades');
    for (const part of [ana!.body.text!, ana!.body.html!]) {
      expect(part).toContain(acme.critical.title);
      expect(part).toContain(acme.medium.title);
      for (const no of [acme.low, acme.comment, acme.before, acme.after, globex]) expect(part).not.toContain(no.title);
      expect(part).not.toContain('sub-admin');
      expect(part).not.toContain('globex');
    }
    expect(ana!.body.text).toContain(`${SITE}${acme.critical.link}`);
    expect(ana!.body.text).toContain(`${SITE}/notifications`);
    expect(ana!.body.html).toContain(`href="${SITE}${acme.medium.link}"`);
    expect(ana!.body.html).toContain('Ver toda la actividad');
    expect(ana!.body.text).toContain('Crítica: 1 · Media: 1');
    const [luis] = to(emails, 'luis@acme.example');
    expect(luis!.subject).toBe('[Vigía] Resumen del 24/11/2026: 1 novedad');
    expect(luis!.body.text).toContain(acme.comment.title);
    expect(luis!.body.text).not.toContain(acme.critical.title);
    const [bruno] = to(emails, 'bruno@globex.example');
    expect(bruno!.body.text).toContain(globex.title);
    expect(bruno!.body.text).not.toContain('acme');

    // The same day again, and twice at once: nothing more.
    const again = await job.run(new Date('2026-11-25T18:00:00.000Z'));
    expect(again).toMatchObject({ day, sent: 0, skipped: 3, open: 0 });
    const both = await Promise.all([job.run(at), createDigestJob(config(), { table, users, senders: realSenders() }).run(at)]);
    expect(both.map((o) => o.sent)).toEqual([0, 0]);
    expect(await sesStore()).toHaveLength(3);
    // The delivery record of ana's digest (user + day).
    const records = await notificationsRepository(table).listEventDeliveries('acme', digestKeyOf(day));
    expect(records.map((r) => [r.deliveryId, r.state, r.attempts]).sort()).toEqual([
      [`${digestKeyOf(day)}:email:sub-ana`, 'sent', 1],
      [`${digestKeyOf(day)}:email:sub-luis`, 'sent', 1],
    ]);
  }, 60_000);

  it('two runs racing on a fresh day send each digest once', async () => {
    const day = '2026-11-20';
    await putEvent('acme', `${day}T08:00:00.000Z`, 'high');
    await putEvent('globex', `${day}T08:00:00.000Z`, 'high');
    const at = new Date('2026-11-21T06:00:00.000Z');
    const runs = await Promise.all([0, 1, 2].map(() => createDigestJob(config(), { table, users, senders: realSenders() }).run(at)));
    expect(runs.reduce((n, o) => n + o.sent, 0)).toBe(2);
    expect((await sesStore()).flatMap((e) => e.destination.to).sort()).toEqual(['ana@acme.example', 'bruno@globex.example']);
  }, 60_000);

  it('a day without matching events sends nothing and records nothing', async () => {
    const day = '2026-11-10';
    await putEvent('acme', `${day}T08:00:00.000Z`, 'low'); // below ana's minimum, not a comment for luis
    const out = await createDigestJob(config(), { table, users, senders: realSenders() }).run(new Date('2026-11-11T06:00:00.000Z'));
    expect(out).toMatchObject({ day, sent: 0, subscribers: 4, empty: 4, open: 0 });
    expect(await sesStore()).toEqual([]);
    expect(await notificationsRepository(table).listEventDeliveries('acme', digestKeyOf(day))).toEqual([]);
  }, 60_000);

  it('a job that dies midway and a rerun after the lease send every digest exactly once', async () => {
    const day = '2026-11-22';
    await putEvent('acme', `${day}T08:00:00.000Z`, 'high');
    await putEvent('acme', `${day}T09:00:00.000Z`, 'info', 'incident.commented');
    await putEvent('globex', `${day}T08:00:00.000Z`, 'high');
    const at = new Date('2026-11-23T06:00:00.000Z');
    const real = realSenders();
    let sends = 0;
    let died!: () => void;
    const dead = new Promise<void>((r) => (died = r));
    // The 2nd send never returns (the process is gone: nothing after it runs).
    const dying: SendersPort = { ...real, sendEmail: async (m) => { if (++sends > 1) { died(); return new Promise<never>(() => undefined); } return real.sendEmail(m); } };
    void createDigestJob(config(), { table, users, senders: dying }).run(at);
    await dead;
    expect(await sesStore()).toHaveLength(1);

    // Right away (the dead run's claim still holds): the held digest is left alone and the run reports it open.
    const soon = await createDigestJob(config(), { table, users, senders: realSenders() }).run(at);
    expect(soon.open).toBe(1);
    // After the lease (120 s): the rest, once.
    const later = createDigestJob(config(), { table, users, senders: realSenders(), now: () => new Date(Date.now() + 10 * 60_000) });
    const out = await later.run(at);
    expect(out.open).toBe(0);
    const emails = await sesStore();
    expect(emails.flatMap((e) => e.destination.to).sort()).toEqual(['ana@acme.example', 'bruno@globex.example', 'luis@acme.example']);
    expect((await later.run(at)).sent).toBe(0);
    expect(await sesStore()).toHaveLength(3);
  }, 60_000);

  it('a failed send is retried by a later run once due, not before', async () => {
    const day = '2026-11-15';
    await putEvent('initech', `${day}T08:00:00.000Z`, 'critical');
    const at = new Date('2026-11-16T06:00:00.000Z');
    let clock = Date.now();
    const real = realSenders();
    let fail = true;
    const flaky: SendersPort = { ...real, sendEmail: async (m) => (fail ? Promise.reject(new Error('Throttling: Maximum sending rate exceeded')) : real.sendEmail(m)) };
    const job = createDigestJob(config(), { table, users, senders: flaky, now: () => new Date(clock) });
    expect(await job.run(at)).toMatchObject({ failed: 1, open: 1 });
    fail = false;
    expect(await job.run(at)).toMatchObject({ sent: 0, open: 1 }); // not due yet (30 s backoff)
    clock += 31_000;
    expect(await job.run(at)).toMatchObject({ sent: 1, open: 0 });
    expect(to(await sesStore(), 'irene@initech.example')).toHaveLength(1);
    const [rec] = await notificationsRepository(table).listEventDeliveries('initech', digestKeyOf(day));
    expect(rec).toMatchObject({ state: 'sent', attempts: 2 });
  }, 60_000);
});
