/**
 * The SOC-reply rule of e-mail delivery (docs/notifications.md#soc-replies): a comment by someone outside the
 * tenant group (the SOC) e-mails members whatever their minimum severity; the kind filter, e-mail off and
 * the digest still apply; a member's own comment is never e-mailed to that member and stays under the
 * minimum severity for the others.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_PREFERENCES, emailWanted, isSocReply, planDeliveries, type NotificationEvent } from '../../../lambdas/domain/notifications.js';

const members = [
  { sub: 'ana', email: 'ana@acme.example', enabled: true },
  { sub: 'luis', email: 'luis@acme.example', enabled: true },
];
const comment = (sub: string): NotificationEvent => ({
  eventId: '01JEV',
  tenantId: 'acme',
  kind: 'incident.commented',
  severity: 'info',
  at: '2026-11-25T10:00:00.000Z',
  actor: { name: `${sub}@x.example`, sub },
  subject: { type: 'incident', id: 'INC-000001' },
  title: 'Nuevo comentario de soc@vigia.example en INC-000001',
  link: '/ticket/update/INC-000001?tenant=acme',
});
const emailed = (ev: NotificationEvent, prefs = (_: string) => DEFAULT_PREFERENCES) => planDeliveries(ev, members, prefs, []).map((d) => d.recipient);

describe('SOC replies', () => {
  it('a SOC comment is a SOC reply; a member comment, another kind or no author is not', () => {
    expect(isSocReply(comment('soc'), members)).toBe(true);
    expect(isSocReply(comment('ana'), members)).toBe(false);
    expect(isSocReply({ ...comment('soc'), kind: 'incident.status_changed' }, members)).toBe(false);
    expect(isSocReply({ ...comment('soc'), actor: null }, members)).toBe(false);
  });

  it('default preferences: every member gets the SOC reply; kinds without comments, e-mail off or the digest do not', () => {
    expect(emailed(comment('soc'))).toEqual(['ana', 'luis']);
    expect(emailWanted(DEFAULT_PREFERENCES, comment('soc'), false)).toBe(false);
    expect(emailWanted({ ...DEFAULT_PREFERENCES, kinds: ['incident.created'] }, comment('soc'), true)).toBe(false);
    expect(emailWanted({ ...DEFAULT_PREFERENCES, email: false }, comment('soc'), true)).toBe(false);
    expect(emailWanted({ ...DEFAULT_PREFERENCES, digest: true }, comment('soc'), true)).toBe(false);
  });

  it("a member's comment: never to its author, to the others only by their minimum severity", () => {
    expect(emailed(comment('ana'))).toEqual([]);
    expect(emailed(comment('ana'), () => ({ ...DEFAULT_PREFERENCES, minSeverity: 'info' }))).toEqual(['luis']);
  });
});
