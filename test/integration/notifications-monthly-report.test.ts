/**
 * The monthly report e-mail on the real local engines (docs/notifications.md#monthly-report-e-mail): dynoxide
 * holds the tenants, the users' preferences, the incidents with their aggregates and the delivery records;
 * the SES emulator (`aws-ses-v2-local`) receives the SES v2 SendEmail calls (with the PDF attached) of the
 * same sender the Lambdas use.
 *  - a subscribed user gets ONE e-mail with last month's PDF of their own tenant, in their language;
 *  - an unsubscribed user, a disabled one, a subscriber of another tenant's preferences get none;
 *  - the PDF carries the month's SLA per severity from the hand-built incidents;
 *  - a second run sends nothing and reads no aggregates; requests per tenant are counted.
 * The job runs as its function (`runAsFunction`): each call is evaluated against its role, and a call AWS would
 * deny fails the file (test/support/aws-rules-setup.ts) — e.g. the BatchGetItem of the incident due in
 * October's last hour (`loadPeriodsAggregates`) without the role's grant, or the boundary hour of a day item
 * of the layout before v4 read from GSI2 `SOCQUEUE` (a leading key outside the role's `TENANT#*`).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDocumentClient, type TableRef } from '../../lambdas/data/table/client.js';
import { itemOf, MaintenanceWindowEntity } from '../../lambdas/data/entities.js';
import { createIncident, getIncident, saveIncidentUpdate } from '../../lambdas/data/incidents.js';
import { keys } from '../../lambdas/data/table/keys.js';
import { notificationsRepository } from '../../lambdas/data/notifications.js';
import { reportsRepository } from '../../lambdas/data/reports.js';
import { monthPeriod } from '../../lambdas/domain/monthly-report.js';
import { newIncident } from '../../lambdas/domain/incidents.js';
import type { NotificationPreferences } from '../../lambdas/domain/notifications.js';
import type { GroupMember, GroupMembersPort } from '../../lambdas/domain/ports.js';
import { createMonthlyReportJob } from '../../lambdas/triggers/monthly-report-mail.js';
import type { Severity } from '../../lambdas/contract/schemas.js';
import { groupMember, localSenders, notificationsTestConfig } from '../support/notifications.js';
import { pdfText } from '../support/pdf-text.js';
import { ensureTable, startDynamo, type RunningDynamo } from '../../scripts/local/dynamodb.js';
import { startMailEmulator } from '../../scripts/local/notifications.js';
import { acquireRuntimeIamCheck, runAsFunction, type RuntimeIamCheck } from '../../scripts/aws-rules/recorder.js';

const TABLE = 'vigia-monthly-mail';
let dynamo: RunningDynamo;
let table: TableRef;
let mail: { url: string; stop(): Promise<void> };
let ops: string[] = [];

const members: Record<string, GroupMember[]> = {
  acme: [groupMember('ana', 'acme.example'), groupMember('john', 'acme.example'), groupMember('luis', 'acme.example'), groupMember('eva', 'acme.example', false)],
  globex: [groupMember('bruno', 'globex.example')],
};
const users: GroupMembersPort = { listGroupMembers: async (g) => members[g] ?? [] };
const AT = new Date('2026-11-01T06:00:00.000Z');
const prefs = (p: Partial<NotificationPreferences>): NotificationPreferences => ({ email: true, minSeverity: 'high', kinds: null, digest: false, ...p });

type Stored = { destination: { to: string[] }; subject: string; body: { text?: string }; attachments?: { filename: string; contentType: string; content: string }[] };
const sesStore = async (): Promise<Stored[]> => ((await (await fetch(`${mail.url}/store`)).json()) as { emails: Stored[] }).emails;

/** An incident created at `createdAt`, resolved `resolveMin` minutes later (SLA: 4 h critical, 8 h high). */
async function incident(tenantId: string, severity: Severity, createdAt: string, resolveMin: number) {
  const inc = await createIncident(tenantId, (seq) => newIncident(tenantId, seq, { title: 'Prueba', description: 'Incidente de prueba', severity, category: 'general' }, 'ana@acme.example', createdAt), table);
  const cur = (await getIncident(tenantId, inc.id, table))!;
  const resolvedAt = new Date(Date.parse(createdAt) + resolveMin * 60_000).toISOString();
  await saveIncidentUpdate(tenantId, { ...cur, status: 'resolved', resolvedAt, slaResult: null, version: cur.version + 1, updatedAt: resolvedAt }, cur, { version: cur.version + 1, at: resolvedAt, by: 'x', bySub: 'x', changes: [] }, null, table);
  return cur;
}

// IAM on every call made inside `runAsFunction` (docs/local-emulation.md#iam).
let iam: RuntimeIamCheck;

beforeAll(async () => {
  iam = await acquireRuntimeIamCheck();
  dynamo = await startDynamo({ port: 0 });
  await ensureTable(dynamo.endpoint, TABLE);
  const doc = createDocumentClient({ endpoint: dynamo.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'l', secretAccessKey: 'l' } });
  // Every request the job makes is counted (requests per tenant).
  table = { doc: { ...doc, send: ((op: string, input: never) => (ops.push(op), doc.send(op as never, input))) as typeof doc.send } as typeof doc, tableName: TABLE };
  mail = await startMailEmulator({ port: 0, host: '127.0.0.1' });
  for (const id of ['acme', 'globex']) await table.doc.send('PutItem', { TableName: TABLE, Item: { ...keys.tenant(id), entity: 'Tenant', id, name: id === 'acme' ? 'Acme Logística' : 'Globex' } });
  const store = notificationsRepository(table);
  await store.putPreferences('acme', 'sub-ana', prefs({ monthlyReport: true }), AT);
  await store.putPreferences('acme', 'sub-john', prefs({ monthlyReport: true, language: 'en' }), AT);
  await store.putPreferences('acme', 'sub-luis', prefs({}), AT); // not subscribed
  await store.putPreferences('acme', 'sub-eva', prefs({ monthlyReport: true }), AT); // disabled user
  await store.putPreferences('acme', 'sub-bruno', prefs({ monthlyReport: true }), AT); // not an acme member
  await store.putPreferences('globex', 'sub-bruno', prefs({}), AT); // globex: nobody subscribed
  // October 2026, acme: critical met (1 h) and breached (10 h), high met (2 h); globex: one critical.
  const created = await incident('acme', 'critical', '2026-10-05T10:00:00.000Z', 60);
  expect(Date.parse(created.slaDueAt) - Date.parse(created.createdAt)).toBeLessThan(10 * 3_600_000);
  await incident('acme', 'critical', '2026-10-12T10:00:00.000Z', 600);
  await incident('acme', 'high', '2026-10-20T10:00:00.000Z', 120);
  await incident('globex', 'critical', '2026-10-07T10:00:00.000Z', 60);
  // Unresolved, due at 23:30 on October 31st: breached by the month's end, read in its boundary hour (one BatchGetItem).
  await createIncident('acme', (seq) => newIncident('acme', seq, { title: 'Prueba', description: 'Sin resolver', severity: 'critical', category: 'general' }, 'ana@acme.example', '2026-10-31T19:30:00.000Z'), table);
  // One maintenance window of acme in October (45 min): the e-mailed PDF says so, as the route's does.
  await table.doc.send('PutItem', {
    TableName: TABLE,
    Item: itemOf(MaintenanceWindowEntity, {
      windowId: 'mw-mail00000001', tenantId: 'acme', title: 'Firmware', scope: { deviceIds: ['fw-1'], sites: [] }, startAt: '2026-10-15T01:00:00.000Z', endAt: '2026-10-15T01:45:00.000Z',
      createdAt: '2026-10-01T00:00:00.000Z', createdBy: 'ana@acme.example', updatedAt: '2026-10-01T00:00:00.000Z', version: 1,
    }),
  });
}, 120_000);

afterAll(async () => {
  await mail?.stop();
  await dynamo?.stop();
  iam?.release();
});

beforeEach(async () => {
  await fetch(`${mail.url}/clear-store`, { method: 'POST' });
});

describe('monthly report e-mail', () => {
  it('each subscriber of acme gets one e-mail with October\'s PDF in their language; nobody else; a second run sends nothing', async () => {
    const config = notificationsTestConfig({ tableName: TABLE, dynamodbEndpoint: dynamo.endpoint, mailUrl: mail.url, siteUrl: 'https://portal.vigia.example' });
    const job = createMonthlyReportJob(config, { table, users, senders: localSenders(mail.url), now: () => AT });
    ops = [];
    const first = await runAsFunction('monthly-report-mail', () => job.run(AT));
    expect(first).toMatchObject({ month: '2026-10', tenants: 2, reported: 1, subscribers: 2, sent: 2, failed: 0, open: 0, rendered: 2 });
    const firstOps = ops.length;
    // acme's six months: ONE Query of its day items, the below-SLA index, the histogram, and the incident due in October's last hour.
    expect(ops.filter((o) => o === 'BatchGetItem')).toHaveLength(1);
    const emails = await sesStore();
    expect(emails.flatMap((e) => e.destination.to).sort()).toEqual(['ana@acme.example', 'john@acme.example']);
    const ana = emails.find((e) => e.destination.to.includes('ana@acme.example'))!;
    const john = emails.find((e) => e.destination.to.includes('john@acme.example'))!;
    expect(ana.subject).toBe('[Vigía] Informe mensual de Acme Logística — 2026-10');
    expect(john.subject).toBe('[Vigía] Monthly report of Acme Logística — 2026-10');
    expect(ana.attachments).toHaveLength(1);
    expect(ana.attachments![0]).toMatchObject({ filename: 'vigia-acme-2026-10.pdf', contentType: 'application/pdf' });
    const pdf = (e: Stored) => new Uint8Array(Buffer.from(e.attachments![0]!.content, 'base64'));
    expect(Buffer.from(pdf(ana).subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    const es = (await pdfText(pdf(ana))).strings;
    const at = es.indexOf('Cumplimiento del SLA por severidad');
    // critical: 1 met, 1 breached (50 %); high: 1 met, 0 breached (100 %); medium and low: none.
    expect(es.slice(at + 5, at + 13)).toEqual(['crítica', '1', '1', '50 %', 'alta', '1', '0', '100 %']);
    expect(es).toContain('Cliente: Acme Logística (acme)');
    expect(es.join(' ')).toContain('1 ventana de mantenimiento excluida (45 min)');
    const en = (await pdfText(pdf(john))).strings;
    expect(en).toContain('SLA compliance by severity');
    expect(en).not.toContain('Resumen ejecutivo');
    expect(en.join(' ')).toContain('1 maintenance window excluded (45 min)');
    console.log(`monthly report mail: ${firstOps} DynamoDB requests for 2 tenants (1 with 2 subscribers, 1 without)`);

    await fetch(`${mail.url}/clear-store`, { method: 'POST' });
    ops = [];
    const second = await runAsFunction('monthly-report-mail', () => job.run(AT));
    expect(second).toMatchObject({ sent: 0, skipped: 2, reported: 0, rendered: 0, open: 0 });
    expect(await sesStore()).toEqual([]);
    // A rerun: per tenant the subscribers' Query, and for acme its delivery records — no aggregates read.
    console.log(`monthly report mail rerun: ${ops.length} DynamoDB requests`);
    expect(ops.length).toBeLessThanOrEqual(2 + 3);
  });

  // Last in the file: it rewrites acme's October 31st day item. AWS evaluates `dynamodb:LeadingKeys` on a Query of an
  // index too (the index's partition key value): the job's role may read `TENANT#*` only, so the boundary hour
  // read from GSI2 `SOCQUEUE` (every tenant's queue, filtered to the tenant) was denied; it is read from the
  // tenant's own queue, GSI4 `TENANT#acme#SOCQUEUE`, with the same incidents.
  it('a day item of the layout before the `o…` attributes: the job reads its boundary hour from the tenant\'s own SOC queue, which its role allows', async () => {
    const key = keys.day('acme', '2026-10-31');
    const item = (await table.doc.send('GetItem', { TableName: TABLE, Key: key })).Item!;
    const attr = Object.keys(item).find((k) => /^o\d+$/.test(k))!;
    expect(item[attr]).toBeTypeOf('number');
    // As the layout before AGGREGATES_VERSION 4 stored the unresolved incident due at 23:30: counters, no `o…` attribute.
    await table.doc.send('UpdateItem', { TableName: TABLE, Key: key, UpdateExpression: 'REMOVE #o SET #d = :one, #s = :one', ExpressionAttributeNames: { '#o': attr, '#d': 'd#26103123', '#s': 'sn' }, ExpressionAttributeValues: { ':one': 1 } });
    ops = [];
    const [oct] = await runAsFunction('monthly-report-mail', () => reportsRepository(table).loadPeriodsAggregates('acme', [monthPeriod('2026-10')], AT));
    expect(ops).not.toContain('BatchGetItem');
    expect(oct!.boundaryBreached).toBe(1);
  });
});
