/**
 * English everywhere (issue 32 point 6) on the real local engines: an activity event is stored as a message
 * key with parameters (dynoxide), and the delivery side renders it per reader — an e-mail (SES emulator) to a
 * user whose notification preference `language` is `en` is in English, to a user with default preferences
 * in Spanish; the generic JSON webhook carries `key`, `params` and an English `title`; a device alarm names
 * the device by its name (not `dev-…`) in all three. An event stored before messages existed (Spanish
 * `title` only) is still delivered with its stored title.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient, type TableRef } from '../../lambdas/data/table/client.js';
import { keys } from '../../lambdas/data/table/keys.js';
import { putActivityEventOnce } from '../../lambdas/data/activity.js';
import { notificationsRepository } from '../../lambdas/data/notifications.js';
import { alarmEvent } from '../../lambdas/domain/activity.js';
import type { DeviceAlarm } from '../../lambdas/contract/schemas.js';
import type { GroupMembersPort } from '../../lambdas/domain/ports.js';
import { createConsumer } from '../../lambdas/handlers/notifications-consumer.js';
import { localSenders, notificationsTestConfig } from '../support/notifications.js';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../support/webhook-receiver.js';
import { ensureTable, startDynamo, type RunningDynamo } from '../../scripts/local/dynamodb.js';
import { startMailEmulator } from '../../scripts/local/notifications.js';

const TABLE = 'vigia-notify-lang';
const SITE = 'https://portal.vigia.example';
let dynamo: RunningDynamo;
let table: TableRef;
let mail: { url: string; stop(): Promise<void> };
let receiver: WebhookReceiver | undefined;
const received: ReceivedWebhook[] = [];

const users: GroupMembersPort = {
  listGroupMembers: async (g) =>
    g === 'acme'
      ? [
          { username: 'ana', sub: 'sub-ana', email: 'ana@acme.example', status: 'CONFIRMED', enabled: true },
          { username: 'john', sub: 'sub-john', email: 'john@acme.example', status: 'CONFIRMED', enabled: true },
        ]
      : [],
};

async function sesStore(): Promise<Array<{ destination: { to: string[] }; subject: string; body: { html?: string; text?: string } }>> {
  return ((await (await fetch(`${mail.url}/store`)).json()) as { emails: never[] }).emails;
}

beforeAll(async () => {
  dynamo = await startDynamo({ port: 0 });
  await ensureTable(dynamo.endpoint, TABLE);
  table = { doc: createDocumentClient({ endpoint: dynamo.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'l', secretAccessKey: 'l' } }), tableName: TABLE };
  mail = await startMailEmulator({ port: 0, host: '127.0.0.1' });
  receiver = await startWebhookReceiver(received);
  const url = receiver.url;
  const store = notificationsRepository(table);
  // john reads English; ana never saved preferences (defaults: e-mail for high and above, Spanish).
  await store.putPreferences('acme', 'sub-john', { email: true, minSeverity: 'high', kinds: null, digest: false, language: 'en' }, new Date());
  await store.createWebhook({ id: 'wh-json', tenantId: 'acme', name: 'SIEM', kind: 'json', url: `${url}/json`, minSeverity: 'info', kinds: null, createdAt: new Date().toISOString(), createdBy: 'ana', secret: 'c'.repeat(64) });
}, 60_000);

afterAll(async () => {
  await receiver?.close();
  await mail?.stop();
  await dynamo?.stop();
});

describe('activity messages in each reader’s language', () => {
  it('stores key + params; e-mails in the recipient’s language; the webhook carries key, params and an English title; the device is named', async () => {
    const alarm: DeviceAlarm = {
      id: 'ALM-1', tenantId: 'acme', deviceId: 'dev-007', deviceName: 'FW Madrid', title: 'CPU al 95 %', severity: 'high', state: 'active',
      raisedAt: new Date(Date.now() - 10 * 60_000).toISOString(),
    } as DeviceAlarm;
    const ev = alarmEvent(null, alarm, { eventId: 'EV-LANG-1' })!;
    expect(await putActivityEventOnce(ev, table)).toBe(true);

    // The stored item: the message key and its parameters (the device's name and id, the enum code, the alarm's own title).
    const item = (await table.doc.send('GetItem', { TableName: TABLE, Key: keys.activityEvent('acme', ev.at, ev.eventId) })).Item!;
    expect(item.message).toEqual({ key: 'activity.alarm.raised', params: { deviceId: 'dev-007', deviceName: 'FW Madrid', title: 'CPU al 95 %', severity: 'high' } });

    const consumer = createConsumer(notificationsTestConfig({ tableName: TABLE, dynamodbEndpoint: dynamo.endpoint, mailUrl: mail.url, siteUrl: SITE }), { table, users, senders: localSenders(mail.url) });
    await consumer.sweep({ minAgeSeconds: 0 });

    const emails = await sesStore();
    const toJohn = emails.find((e) => e.destination.to.includes('john@acme.example'))!;
    const toAna = emails.find((e) => e.destination.to.includes('ana@acme.example'))!;
    expect(toJohn.subject).toBe('[Vigía] High · High alarm on FW Madrid: CPU al 95 %');
    expect(toJohn.body.text).toContain('View in the portal');
    expect(toJohn.body.html).toContain('<html lang="en">');
    expect(toAna.subject).toBe('[Vigía] Alta · Alarma alta en FW Madrid: CPU al 95 %');
    expect(toAna.body.text).toContain('Ver en el portal');
    for (const e of [toJohn, toAna]) expect(e.subject).not.toContain('dev-007');

    const hook = received.find((r) => r.path === '/json')!;
    expect(JSON.parse(hook.body).data).toMatchObject({
      kind: 'alarm.raised',
      kindLabel: 'Alarm raised',
      key: 'activity.alarm.raised',
      params: { deviceId: 'dev-007', deviceName: 'FW Madrid', severity: 'high', title: 'CPU al 95 %' },
      title: 'High alarm on FW Madrid: CPU al 95 %',
    });
  }, 60_000);

  it('an event stored before messages existed (Spanish title only) is delivered with its stored title', async () => {
    await fetch(`${mail.url}/clear-store`, { method: 'POST' });
    const at = new Date(Date.now() - 5 * 60_000).toISOString();
    await table.doc.send('PutItem', {
      TableName: TABLE,
      Item: {
        ...keys.activityEvent('acme', at, 'EV-OLD-1'), ...keys.outboxGsi2('acme', at, 'EV-OLD-1'), entity: 'ActivityEvent',
        eventId: 'EV-OLD-1', tenantId: 'acme', kind: 'incident.created', severity: 'critical', at, actor: null,
        subject: { type: 'incident', id: 'INC-000001' }, title: 'Nuevo incidente INC-000001: Ransomware', link: '/ticket/update/INC-000001?tenant=acme', outbox: 'PENDING',
      },
    });
    const consumer = createConsumer(notificationsTestConfig({ tableName: TABLE, dynamodbEndpoint: dynamo.endpoint, mailUrl: mail.url, siteUrl: SITE }), { table, users, senders: localSenders(mail.url) });
    await consumer.sweep({ minAgeSeconds: 0 });
    const toJohn = (await sesStore()).find((e) => e.destination.to.includes('john@acme.example'))!;
    expect(toJohn.subject).toBe('[Vigía] Critical · Nuevo incidente INC-000001: Ransomware');
  }, 60_000);
});
