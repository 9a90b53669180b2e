/**
 * Internal work notes (docs/api.md#internal-notes; issue 31 point 3) over the REAL handlers on dynoxide,
 * every response checked against the OpenAPI document, with the notification channels of the local stack:
 * the SES emulator (`aws-ses-v2-local`) receiving the SES v2 calls of the real senders, and a webhook
 * receiver in the test; the consumer's outbox sweep and the daily digest job run with the Lambdas' code.
 *
 *  - staff (admin, TOTP) write a note with `visibility: 'internal'`; staff read it in `GET /incidents/{id}`,
 *    marked internal; a public comment written next to it reaches the customer and the channels (the
 *    control that proves the walk sees comments and the channels deliver);
 *  - THE WALK: every customer-reachable GET row of the route table (`ROUTES`, collector rows aside), with the
 *    examples of test/support/route-examples.ts (and the CSV of rows that offer one, the title search for the
 *    note's words, the deliveries of the customer's own webhook), as a customer of the tenant; then every
 *    e-mail the SES emulator got (per event and the digest) and every webhook body: the note's unique text is
 *    in none of them. A route added later that leaks a note fails here;
 *  - stored: the note's text is on ONE item, in the notes' own partition; no activity event for it; its
 *    audit entry is in the staff log (`_staff`), not the tenant's;
 *  - bad input: a customer posting `visibility: 'internal'` gets 403 FORBIDDEN (`details.fields`), an admin
 *    without TOTP 403 MFA_REQUIRED, and nothing is written.
 */
import { randomUUID } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPath, ROUTES, type OperationId, type RouteDef } from '../../lambdas/contract/routes.js';
import type { IncidentDetail } from '../../lambdas/contract/schemas.js';
import { createDocumentClient } from '../../lambdas/data/table/client.js';
import type { GroupMembersPort } from '../../lambdas/domain/ports.js';
import { createConsumer } from '../../lambdas/handlers/notifications-consumer.js';
import { createDigestJob } from '../../lambdas/triggers/notification-digest.js';
import { startMailEmulator } from '../../scripts/local/notifications.js';
import { bodyOf, type CallerSpec } from '../support/events.js';
import { useExampleApi } from '../support/example-api.js';
import { call } from '../support/in-process-api.js';
import { localSenders, TEST_EMAIL_FROM } from '../support/notifications.js';
import { EXAMPLES } from '../support/route-examples.js';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../support/webhook-receiver.js';

const TABLE = 'vigia-internal-notes';
const SITE = 'https://portal.vigia.example';
/** The note's text: a word found nowhere else (also searched for as a title word). */
const MARKER = `notainterna${randomUUID().replaceAll('-', '')}`;
const NOTE = `Sospechamos de un empleado del cliente; no contactar aún. ${MARKER}`;
const PUBLIC = `Estamos revisando los registros del cortafuegos ${randomUUID()}`;

const customer: CallerSpec = { sub: 'u-acme', email: 'ana@acme.example', groups: ['acme', 'customer-admin'] };
/** Another user of the tenant, who takes e-mail per event (ana takes the daily digest instead). */
const luis: CallerSpec = { sub: 'u-luis', email: 'luis@acme.example', groups: ['acme'] };
const staff: CallerSpec = { sub: 'u-soc', email: 'soc@vigia.example', groups: ['admin'] };
const staffWithoutTotp: CallerSpec = { ...staff, sub: 'u-soc2', email: 'soc2@vigia.example', groups: ['admin', 'acme'], mfa: false };
const users: GroupMembersPort = {
  listGroupMembers: async (g) =>
    g === 'acme'
      ? [customer, luis].map((c) => ({ username: c.sub, sub: c.sub, email: c.email!, status: 'CONFIRMED', enabled: true }))
      : [],
};

let mail: { url: string; stop(): Promise<void> };
let receiver: WebhookReceiver | undefined;
let receiverUrl = '';
/** Every webhook request the receiver got. */
const received: ReceivedWebhook[] = [];

// Registered before useExampleApi's hooks, so the channels exist when its configuration is built.
beforeAll(async () => {
  mail = await startMailEmulator({ port: 0, host: '127.0.0.1' });
  receiver = await startWebhookReceiver(received);
  receiverUrl = receiver.url;
}, 60_000);

const ctx = useExampleApi(() => ({
  table: TABLE,
  config: { notifications: { siteUrl: SITE, emailFrom: TEST_EMAIL_FROM, sesEndpoint: mail.url, allowLocalWebhooks: true } },
}));

afterAll(async () => {
  await receiver?.close();
  await mail?.stop();
});

/** A call to `row`'s handler as `caller`. */
function callRow(row: RouteDef, caller: CallerSpec, o: { params?: Record<string, string>; query?: Record<string, string>; body?: unknown } = {}) {
  return call(ctx.handlers[row.handler], {
    method: row.method,
    path: buildPath(row.path, o.params ?? {}),
    query: o.query ?? {},
    caller,
    ...(o.body !== undefined ? { body: o.body } : {}),
  });
}
const row = (op: OperationId): RouteDef => ROUTES.find((r) => r.operationId === op)!;
const addComment = (caller: CallerSpec, body: Record<string, unknown>, query: Record<string, string> = { tenant: 'acme' }) =>
  callRow(row('addIncidentComment'), caller, { params: { id: 'INC-000001' }, query, body });

/** Every item of the table (test-only Scan), unmarshalled. */
async function allItems(): Promise<Record<string, unknown>[]> {
  const raw = ctx.api.rawClient();
  try {
    const out: Record<string, unknown>[] = [];
    let start: Record<string, never> | undefined;
    do {
      const page = await raw.send(new ScanCommand({ TableName: TABLE, ...(start ? { ExclusiveStartKey: start } : {}) }));
      out.push(...(page.Items ?? []).map((i) => unmarshall(i)));
      start = page.LastEvaluatedKey as Record<string, never> | undefined;
    } while (start);
    return out;
  } finally {
    raw.destroy();
  }
}

type Email = { destination: { to: string[] }; subject: string; body: { html?: string; text?: string } };
const emails = async (): Promise<Email[]> => ((await (await fetch(`${mail.url}/store`)).json()) as { emails: Email[] }).emails;

describe('internal notes: bad input', () => {
  it('a customer posting visibility internal gets 403 FORBIDDEN on visibility, staff without TOTP 403 MFA_REQUIRED; nothing is written', async () => {
    const before = await ctx.snapshot();
    const asCustomer = await addComment(customer, { body: 'Intento de nota interna', visibility: 'internal' }, {});
    expect(asCustomer.statusCode, asCustomer.body).toBe(403);
    expect(bodyOf(asCustomer)).toMatchObject({ code: 'FORBIDDEN', details: { fields: ['visibility'] } });
    // An admin who is also a member of the tenant, without TOTP: the tenant is its own, the note still needs TOTP.
    const noTotp = await addComment(staffWithoutTotp, { body: 'Intento sin TOTP', visibility: 'internal' });
    expect(noTotp.statusCode, noTotp.body).toBe(403);
    expect(bodyOf(noTotp)).toMatchObject({ code: 'MFA_REQUIRED' });
    const unknown = await addComment(staff, { body: 'x', visibility: 'secret' });
    expect(unknown.statusCode, unknown.body).toBe(400);
    expect(bodyOf(unknown)).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(await ctx.snapshot()).toBe(before);
  });
});

describe('internal notes: never returned to customers', () => {
  it('staff see the note marked internal; the walk of every customer GET route and every channel never finds its text', async () => {
    // The customers subscribe to everything: ana the daily digest, luis e-mail per event from info up; a webhook.
    for (const [who, digest] of [[customer, true], [luis, false]] as const) {
      const prefs = await callRow(row('putNotificationPreferences'), who, { body: { email: true, minSeverity: 'info', kinds: null, digest } });
      expect(prefs.statusCode, prefs.body).toBe(200);
    }
    const hook = await callRow(row('createWebhook'), customer, { body: { name: 'SIEM', kind: 'json', url: `${receiverUrl}/siem`, minSeverity: 'info' } });
    expect(hook.statusCode, hook.body).toBe(201);
    const webhookId = bodyOf<{ webhook: { id: string } }>(hook).webhook.id;

    // Staff: a public comment (the control) and an internal note on the same incident.
    const pub = await addComment(staff, { body: PUBLIC });
    expect(pub.statusCode, pub.body).toBe(201);
    expect(bodyOf(pub)).toMatchObject({ visibility: 'public' });
    const note = await addComment(staff, { body: NOTE, visibility: 'internal' });
    expect(note.statusCode, note.body).toBe(201);
    expect(bodyOf(note)).toMatchObject({ body: NOTE, visibility: 'internal', author: 'soc@vigia.example' });

    const asStaff = await callRow(row('getIncident'), staff, { params: { id: 'INC-000001' }, query: { tenant: 'acme' } });
    expect(asStaff.statusCode, asStaff.body).toBe(200);
    const staffView = bodyOf<IncidentDetail>(asStaff).comments.map((c) => ({ body: c.body, visibility: c.visibility }));
    expect(staffView).toEqual([
      { body: PUBLIC, visibility: 'public' },
      { body: NOTE, visibility: 'internal' },
    ]);

    // The channels: the consumer's outbox sweep (e-mail per event, webhooks), then the digest of the day.
    const table = { doc: createDocumentClient(ctx.api.documentClientOptions()), tableName: TABLE };
    try {
      const consumer = createConsumer(ctx.api.config, { table, users, senders: localSenders(mail.url) });
      for (let i = 0; i < 3; i++) await consumer.sweep({ minAgeSeconds: 0 });
      const tomorrow = new Date(Date.now() + 86_400_000);
      const digest = await createDigestJob(ctx.api.config, { table, users, senders: localSenders(mail.url) }).run(
        new Date(`${tomorrow.toISOString().slice(0, 10)}T06:00:00.000Z`),
      );
      expect(digest.sent, 'the digest of the day reached the customer').toBe(1);
    } finally {
      table.doc.destroy();
    }

    // THE WALK: every GET row a customer may call, as a customer of the tenant.
    const customerRows = (ROUTES as readonly RouteDef[]).filter((r) => r.method === 'GET' && r.auth !== 'iam' && r.groups.length === 0);
    const walked: Array<{ op: string; status: number; text: string }> = [];
    for (const r of customerRows) {
      const ex = EXAMPLES[r.operationId as OperationId];
      const variants: Array<{ params?: Record<string, string>; query: Record<string, string> }> = [{ ...(ex.params ? { params: ex.params } : {}), query: ex.query }];
      if (r.responses[200]?.csv) variants.push({ ...(ex.params ? { params: ex.params } : {}), query: { ...ex.query, format: 'csv' } });
      if (r.operationId === 'listIncidents') variants.push({ query: { q: MARKER } }, { query: { q: 'Seeded' } });
      if (r.operationId === 'listWebhookDeliveries') variants.push({ params: { id: webhookId }, query: {} });
      if (r.operationId === 'listActivity') variants.push({ query: { limit: '100' } });
      for (const v of variants) {
        const res = await callRow(r, customer, v);
        walked.push({ op: r.operationId, status: res.statusCode, text: res.body });
      }
    }
    // Every walked request answered (a refused example would walk nothing).
    expect(walked.filter((w) => w.status !== 200).map((w) => `${w.op} ${w.status} ${w.text.slice(0, 200)}`)).toEqual([]);
    expect(new Set(walked.map((w) => w.op))).toEqual(new Set(customerRows.map((r) => r.operationId)));
    expect(walked.length).toBeGreaterThanOrEqual(customerRows.length + 3);
    // The control: the customer's incident shows the public comment; the feed has its event.
    expect(walked.find((w) => w.op === 'getIncident')!.text).toContain(PUBLIC);
    expect(walked.filter((w) => w.op === 'listActivity').some((w) => w.text.includes('Nuevo comentario de soc@vigia.example en INC-000001'))).toBe(true);

    const mails = await emails();
    const mailTexts = mails.map((m) => `${m.subject}\n${m.body.html ?? ''}\n${m.body.text ?? ''}`);
    // The control: the comment's e-mail, the digest and the webhook POST were captured.
    expect(mails.some((m) => m.destination.to.includes('luis@acme.example') && /comentario/i.test(m.subject))).toBe(true);
    expect(mails.some((m) => m.destination.to.includes('ana@acme.example') && /Resumen/.test(m.subject))).toBe(true);
    expect(received.some((r) => r.path === '/siem' && r.body.includes('incident.commented'))).toBe(true);

    const leaks = [
      ...walked.filter((w) => w.text.includes(MARKER)).map((w) => `route ${w.op}`),
      ...mailTexts.filter((t) => t.includes(MARKER)).map(() => 'e-mail'),
      ...received.filter((r) => r.body.includes(MARKER)).map((r) => `webhook ${r.path}`),
    ];
    expect(leaks).toEqual([]);
  });

  it('stored: the text on ONE item in the notes\' partition; no activity event for it; its audit entry in the staff log only', async () => {
    const items = await allItems();
    const withText = items.filter((i) => JSON.stringify(i).includes(MARKER));
    expect(withText.map((i) => [i.PK, i.entity])).toEqual([['TENANT#acme#INCNOTES#INC-000001', 'IncidentInternalNote']]);
    const noteId = withText[0]!.id;
    const commentEvents = items.filter((i) => i.entity === 'ActivityEvent' && i.kind === 'incident.commented' && (i.subject as { id?: string }).id === 'INC-000001');
    expect(commentEvents).toHaveLength(1); // the public comment's
    const audits = items.filter((i) => i.entity === 'AuditEntry' && JSON.stringify(i.after ?? {}).includes(String(noteId)));
    expect(audits.map((a) => [a.tenantId, a.action, a.after])).toEqual([['_staff', 'incident.comment', { tenantId: 'acme', commentId: noteId, visibility: 'internal' }]]);
  });
});
