/**
 * The daily digest's pure parts (lambdas/domain/notification-digest.ts, docs/notifications.md#daily-digest):
 * which UTC day a run summarises, the day's bounds, the preference filter and the e-mail (Spanish, escaped,
 * links only into the portal, at most 50 events listed).
 */
import { describe, expect, it } from 'vitest';
import { dayRange, DIGEST_MAX_LISTED, digestDayOf, digestEventsFor, digestWanted, renderDigestEmail } from '../../../lambdas/domain/notification-digest.js';
import type { NotificationEvent, NotificationPreferences } from '../../../lambdas/domain/notifications.js';

const SITE = 'https://portal.vigia.example';
const ev = (i: number, over: Partial<NotificationEvent> = {}): NotificationEvent => ({
  eventId: `EV${i}`,
  tenantId: 'acme',
  kind: 'incident.status_changed',
  severity: 'high',
  at: `2026-11-24T${String(i % 24).padStart(2, '0')}:00:00.000Z`,
  actor: { name: 'admin@vigia.example', sub: 'sub-admin' },
  subject: { type: 'incident', id: `INC-${i}` },
  title: `INC-${i}: estado «Nuevo» → «En curso»`,
  link: `/ticket/update/INC-${i}?tenant=acme`,
  ...over,
});
const prefs = (p: Partial<NotificationPreferences>): NotificationPreferences => ({ email: true, minSeverity: 'high', kinds: null, digest: true, ...p });

describe('daily digest (pure)', () => {
  it('a run summarises the UTC day before its own, across month and year ends', () => {
    expect(digestDayOf(new Date('2026-11-25T06:00:00Z'))).toBe('2026-11-24');
    expect(digestDayOf(new Date('2026-12-01T00:00:00Z'))).toBe('2026-11-30');
    expect(digestDayOf(new Date('2027-01-01T23:59:59Z'))).toBe('2026-12-31');
    expect(dayRange('2026-11-24')).toEqual({ from: '2026-11-24T00:00:00.000Z', to: '2026-11-25T00:00:00.000Z' });
  });

  it('only users with e-mail on and the digest chosen; events by minimum severity and kinds, newest first', () => {
    expect(digestWanted(prefs({}))).toBe(true);
    expect(digestWanted(prefs({ email: false }))).toBe(false);
    expect(digestWanted(prefs({ digest: false }))).toBe(false);
    const events = [ev(1, { severity: 'low' }), ev(2, { severity: 'critical' }), ev(3, { kind: 'incident.commented', severity: 'info' }), ev(4)];
    expect(digestEventsFor(events, prefs({})).map((e) => e.eventId)).toEqual(['EV4', 'EV2']);
    expect(digestEventsFor(events, prefs({ minSeverity: 'info', kinds: ['incident.commented'] })).map((e) => e.eventId)).toEqual(['EV3']);
  });

  it('the e-mail: Spanish subject and counts, escaped titles, portal links only, at most 50 listed', () => {
    const many = Array.from({ length: 60 }, (_, i) => ev(i + 1, i === 0 ? { title: '<script>x</script> & «y»', link: 'https://evil.example/' } : {}));
    const mail = renderDigestEmail('2026-11-24', many, SITE);
    expect(mail.subject).toBe('[Vigía] Resumen del 24/11/2026: 60 novedades');
    expect(mail.text).toContain('Alta: 60');
    expect(mail.text).toContain('…y 10 más.');
    expect((mail.text.match(/^- /gm) ?? []).length).toBe(DIGEST_MAX_LISTED);
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('evil.example');
    expect(mail.text).not.toContain('sub-admin');
    expect(mail.text).toContain('https://portal.vigia.example/notifications/preferences');
    for (const url of mail.html.match(/href="[^"]*"/g) ?? []) expect(url).toMatch(/^href="https:\/\/portal\.vigia\.example\//);
    expect(renderDigestEmail('2026-11-24', [ev(1)], SITE).subject).toBe('[Vigía] Resumen del 24/11/2026: 1 novedad');
  });
});
