/**
 * The pure part of notification delivery (lambdas/domain/notifications.ts): who gets what, the Spanish
 * e-mail, the Teams / Slack / JSON bodies, the Stripe-style signature, the webhook URL policy and the
 * retry schedule.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ACTIVITY_KINDS } from '../../../lambdas/contract/schemas.js';
import {
  backoffSeconds,
  checkWebhookUrl,
  DEFAULT_PREFERENCES,
  emailWanted,
  isNonPublicAddress,
  KIND_LABELS,
  NOTIFICATION_KINDS,
  planDeliveries,
  portalUrl,
  renderEmail,
  renderWebhookBody,
  signWebhook,
  verifyWebhookSignature,
  WebhookUrlRejected,
  type NotificationEvent,
  type Webhook,
} from '../../../lambdas/domain/notifications.js';

const event: NotificationEvent = {
  eventId: '01JEV',
  tenantId: 'acme',
  kind: 'incident.status_changed',
  severity: 'high',
  at: '2026-11-25T22:31:00.000Z',
  actor: { name: 'admin@vigia.example', sub: 'sub-admin' },
  subject: { type: 'incident', id: 'INC-000012' },
  title: 'INC-000012: estado «Nuevo» → «En curso» <script>',
  link: '/ticket/update/INC-000012?tenant=acme',
};
const hook = (over: Partial<Webhook> = {}): Webhook => ({
  id: 'w1', tenantId: 'acme', name: 'n', kind: 'json', url: 'https://hooks.example.com/x', minSeverity: 'info', kinds: null, createdAt: '2026-01-01T00:00:00Z', createdBy: 'ana', ...over,
});

describe('who gets an event', () => {
  it('kinds and labels cover every activity kind of the contract', () => {
    expect([...NOTIFICATION_KINDS].sort()).toEqual([...ACTIVITY_KINDS].sort());
    for (const k of ACTIVITY_KINDS) expect(KIND_LABELS[k]).toBeTruthy();
  });

  it('e-mail by preferences: off, digest, minimum severity, kinds; defaults = high and above', () => {
    expect(emailWanted(DEFAULT_PREFERENCES, event)).toBe(true);
    expect(emailWanted(DEFAULT_PREFERENCES, { ...event, severity: 'medium' })).toBe(false);
    expect(emailWanted({ ...DEFAULT_PREFERENCES, email: false }, event)).toBe(false);
    expect(emailWanted({ ...DEFAULT_PREFERENCES, digest: true }, event)).toBe(false);
    expect(emailWanted({ ...DEFAULT_PREFERENCES, minSeverity: 'info' }, { ...event, severity: 'info' })).toBe(true);
    expect(emailWanted({ ...DEFAULT_PREFERENCES, kinds: ['sla.breached'] }, event)).toBe(false);
  });

  it('plans one delivery per wanting member and webhook of the same tenant, with deterministic ids', () => {
    const members = [
      { sub: 'b', email: 'b@acme.example', enabled: true },
      { sub: 'a', email: 'a@acme.example', enabled: true },
      { sub: 'c', email: 'c@acme.example', enabled: false },
    ];
    const prefs = (sub: string) => (sub === 'b' ? { ...DEFAULT_PREFERENCES, email: false } : DEFAULT_PREFERENCES);
    const out = planDeliveries(event, members, prefs, [hook(), hook({ id: 'w2', tenantId: 'globex' }), hook({ id: 'w3', minSeverity: 'critical' })]);
    expect(out).toEqual([
      { deliveryId: '01JEV:email:a', channel: 'email', recipient: 'a', address: 'a@acme.example' },
      { deliveryId: '01JEV:webhook:w1', channel: 'webhook', recipient: 'w1', address: 'https://hooks.example.com/x' },
    ]);
  });
});

describe('rendering', () => {
  it('the e-mail is Spanish, escaped, with text and HTML parts and the portal link', () => {
    const m = renderEmail(event, 'https://portal.vigia.example/');
    expect(m.subject).toBe('[Vigía] Alta · INC-000012: estado «Nuevo» → «En curso» <script>');
    expect(m.text).toContain('Cambio de estado de un incidente: INC-000012');
    expect(m.text).toContain('Fecha: 25/11/2026 22:31 UTC');
    expect(m.text).toContain('Ver en el portal: https://portal.vigia.example/ticket/update/INC-000012?tenant=acme');
    // The footer points at the screen where the user changes these notices (web/src/app/AppRoutes.tsx).
    expect(m.text).toContain('Puede cambiarlas en https://portal.vigia.example/notifications/preferences');
    expect(m.html).toContain('&lt;script&gt;');
    expect(m.html).not.toContain('<script>');
    expect(m.html).toContain('lang="es"');
    expect(m.text).not.toContain('sub-admin');
  });

  it('links only into the portal', () => {
    expect(portalUrl('https://p.example', '//evil.example/x')).toBe('https://p.example/');
    expect(portalUrl('https://p.example', 'https://evil.example')).toBe('https://p.example/');
    expect(portalUrl('https://p.example/', '/incidents')).toBe('https://p.example/incidents');
  });

  it('Teams, Slack and JSON bodies', () => {
    const teams = JSON.parse(renderWebhookBody('teams', event, 'https://p.example', 'd1'));
    expect(teams.attachments[0].content).toMatchObject({ type: 'AdaptiveCard', version: '1.4', actions: [{ type: 'Action.OpenUrl', url: 'https://p.example/ticket/update/INC-000012?tenant=acme' }] });
    const slack = JSON.parse(renderWebhookBody('slack', event, 'https://p.example', 'd1'));
    expect(slack.text).toBe('[Alta] INC-000012: estado «Nuevo» → «En curso» &lt;script&gt;');
    expect(slack.blocks[2].elements[0].url).toBe('https://p.example/ticket/update/INC-000012?tenant=acme');
    const json = JSON.parse(renderWebhookBody('json', event, 'https://p.example', 'd1'));
    expect(json).toEqual({
      id: 'd1', type: 'incident.status_changed', createdAt: event.at, tenant: 'acme',
      data: { eventId: '01JEV', kind: 'incident.status_changed', kindLabel: 'Incident status changed', severity: 'high', at: event.at, title: event.title, key: null, params: {}, subject: event.subject, actor: { name: 'admin@vigia.example' }, url: 'https://p.example/ticket/update/INC-000012?tenant=acme' },
    });
  });
});

describe('signature', () => {
  it('is t=<s>,v1=<HMAC-SHA256 of "t.body"> and verifies within the tolerance only', () => {
    const h = signWebhook('secret', '{"a":1}', 1_764_000_000.9);
    expect(h).toBe(`t=1764000000,v1=${createHmac('sha256', 'secret').update('1764000000.{"a":1}').digest('hex')}`);
    expect(verifyWebhookSignature('secret', '{"a":1}', h, 1_764_000_100)).toBe(true);
    expect(verifyWebhookSignature('secret', '{"a":2}', h, 1_764_000_100)).toBe(false);
    expect(verifyWebhookSignature('other', '{"a":1}', h, 1_764_000_100)).toBe(false);
    expect(verifyWebhookSignature('secret', '{"a":1}', h, 1_764_000_400)).toBe(false);
  });
});

describe('webhook URL policy (SSRF guard)', () => {
  it('AWS: https only, no private or metadata addresses, no credentials in the URL', () => {
    const aws = { allowLocalHttp: false };
    expect(checkWebhookUrl('https://outlook.office.com/webhook/x', aws).hostname).toBe('outlook.office.com');
    for (const bad of ['http://hooks.example.com', 'https://localhost/x', 'https://127.0.0.1/', 'https://10.1.2.3/', 'https://169.254.169.254/latest', 'https://[::1]/', 'https://[fd00::1]/', 'https://u:p@hooks.example.com', 'ftp://x.example', 'nope']) {
      expect(() => checkWebhookUrl(bad, aws), bad).toThrow(WebhookUrlRejected);
    }
  });

  it('local: http://localhost allowed', () => {
    expect(checkWebhookUrl('http://127.0.0.1:4000/hook', { allowLocalHttp: true }).port).toBe('4000');
    expect(() => checkWebhookUrl('http://10.0.0.1/hook', { allowLocalHttp: true })).toThrow(WebhookUrlRejected);
  });

  it('classifies addresses', () => {
    for (const ip of ['10.0.0.1', '172.16.0.1', '192.168.1.1', '127.0.0.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fe80::1', 'fc00::1', '::ffff:10.0.0.1']) expect(isNonPublicAddress(ip), ip).toBe(true);
    for (const ip of ['8.8.8.8', '52.95.110.1', '2606:4700::1111']) expect(isNonPublicAddress(ip), ip).toBe(false);
  });
});

it('backoff doubles from 30 s up to 1 h', () => {
  expect([1, 2, 3, 4, 5, 20].map(backoffSeconds)).toEqual([30, 60, 120, 240, 480, 3600]);
});
