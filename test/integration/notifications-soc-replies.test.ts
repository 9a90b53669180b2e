/**
 * A SOC reply reaches the customer by e-mail with the DEFAULT preferences (docs/notifications.md#soc-replies;
 * issue 32 point 9), over the REAL handlers on dynoxide and the real notification path: the comment's
 * activity event in the outbox, the consumer's sweep with the Lambda's code, the real SES v2 sender and the
 * local SES emulator (`aws-ses-v2-local`).
 *
 *  - staff comment on acme's INC-000001; ana and luis never saved preferences (defaults: minimum `high`,
 *    while a comment event is `info`): both get ONE e-mail with the incident's portal link;
 *  - luis leaves the kind `incident.commented` out of his kinds: the next SOC reply reaches ana only;
 *  - an internal note (staff-only) reaches nobody;
 *  - ana's own comment: never e-mailed to ana (the author), even with minimum `info`; luis (defaults) gets
 *    none either — a customer's comment is not a SOC reply and stays under the minimum severity.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPath, ROUTES, type OperationId, type RouteDef } from '../../lambdas/contract/routes.js';
import { createDocumentClient } from '../../lambdas/data/table/client.js';
import type { GroupMembersPort } from '../../lambdas/domain/ports.js';
import { createConsumer } from '../../lambdas/handlers/notifications-consumer.js';
import { startMailEmulator } from '../../scripts/local/notifications.js';
import type { CallerSpec } from '../support/events.js';
import { useExampleApi } from '../support/example-api.js';
import { call } from '../support/in-process-api.js';
import { localSenders, TEST_EMAIL_FROM } from '../support/notifications.js';

const TABLE = 'vigia-soc-replies';
const SITE = 'https://portal.vigia.example';
const ana: CallerSpec = { sub: 'u-acme', email: 'ana@acme.example', groups: ['acme'] };
const luis: CallerSpec = { sub: 'u-luis', email: 'luis@acme.example', groups: ['acme'] };
const staff: CallerSpec = { sub: 'u-soc', email: 'soc@vigia.example', groups: ['admin'] };
const users: GroupMembersPort = {
  listGroupMembers: async (g) => (g === 'acme' ? [ana, luis].map((c) => ({ username: c.sub, sub: c.sub, email: c.email!, status: 'CONFIRMED', enabled: true })) : []),
};

let mail: { url: string; stop(): Promise<void> };
beforeAll(async () => {
  mail = await startMailEmulator({ port: 0, host: '127.0.0.1' });
}, 60_000);
const ctx = useExampleApi(() => ({
  table: TABLE,
  config: { notifications: { siteUrl: SITE, emailFrom: TEST_EMAIL_FROM, sesEndpoint: mail.url, allowLocalWebhooks: true } },
}));
afterAll(async () => {
  await mail?.stop();
});

const row = (op: OperationId): RouteDef => ROUTES.find((r) => r.operationId === op)!;
function callRow(r: RouteDef, caller: CallerSpec, o: { params?: Record<string, string>; query?: Record<string, string>; body?: unknown } = {}) {
  return call(ctx.handlers[r.handler], { method: r.method, path: buildPath(r.path, o.params ?? {}), query: o.query ?? {}, caller, ...(o.body !== undefined ? { body: o.body } : {}) });
}
const comment = async (caller: CallerSpec, body: Record<string, unknown>) => {
  const res = await callRow(row('addIncidentComment'), caller, { params: { id: 'INC-000001' }, query: { tenant: 'acme' }, body });
  expect(res.statusCode, res.body).toBe(201);
};

type Email = { destination: { to: string[] }; subject: string; body: { html?: string; text?: string } };
/**
 * Sweeps the outbox with the consumer's code, returns the e-mails about INC-000001 the SES emulator got since
 * the last call (the seed's other events, e.g. a recommendation, may be swept alongside).
 */
async function deliver(): Promise<Email[]> {
  const table = { doc: createDocumentClient(ctx.api.documentClientOptions()), tableName: TABLE };
  try {
    const consumer = createConsumer(ctx.api.config, { table, users, senders: localSenders(mail.url) });
    for (let i = 0; i < 2; i++) await consumer.sweep({ minAgeSeconds: 0 });
  } finally {
    table.doc.destroy();
  }
  const got = ((await (await fetch(`${mail.url}/store`)).json()) as { emails: Email[] }).emails;
  await fetch(`${mail.url}/clear-store`, { method: 'POST' });
  return got.filter((m) => m.subject.includes('INC-000001'));
}
const to = (mails: Email[]) => mails.flatMap((m) => m.destination.to).sort();

describe('SOC replies by e-mail', () => {
  it('default preferences: a SOC comment e-mails every customer user once, with the incident link; kind off, internal note and the author get none', async () => {
    await deliver(); // the seed's own events
    await comment(staff, { body: 'Hemos bloqueado la IP de origen en el cortafuegos.' });
    const first = await deliver();
    expect(to(first)).toEqual(['ana@acme.example', 'luis@acme.example']);
    for (const m of first) {
      expect(m.body.text).toContain(`${SITE}/ticket/update/INC-000001?tenant=acme`);
      expect(m.subject).toContain('INC-000001');
    }

    // luis turns the comments kind off (every other kind on): the next reply reaches ana only.
    const kinds = (await import('../../lambdas/contract/schemas.js')).ACTIVITY_KINDS.filter((k) => k !== 'incident.commented');
    const prefs = await callRow(row('putNotificationPreferences'), luis, { body: { email: true, minSeverity: 'high', kinds, digest: false } });
    expect(prefs.statusCode, prefs.body).toBe(200);
    await comment(staff, { body: 'Seguimos vigilando el equipo.' });
    expect(to(await deliver())).toEqual(['ana@acme.example']);

    // An internal note: no customer channel.
    await comment(staff, { body: 'Nota solo para el SOC.', visibility: 'internal' });
    expect(await deliver()).toEqual([]);

    // ana's own comment, ana subscribed from info up: not to ana; luis (kinds without comments) none either.
    const anaPrefs = await callRow(row('putNotificationPreferences'), ana, { body: { email: true, minSeverity: 'info', kinds: null, digest: false } });
    expect(anaPrefs.statusCode, anaPrefs.body).toBe(200);
    await comment(ana, { body: 'Gracias, confirmamos que era un falso positivo.' });
    expect(await deliver()).toEqual([]);
  }, 60_000);
});
