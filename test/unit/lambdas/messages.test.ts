/**
 * The server's message catalogue (lambdas/domain/messages.ts, issue 32 point 6): every activity message key
 * has a template in Spanish and English with the same placeholders, the portal's catalogue
 * (`notifications.events.*` in web/src/shared/lib/messages/{es,en}) has the same templates for the same keys,
 * and rendering uses the reader's language, names devices by name (id as fallback) and keeps old events'
 * stored titles.
 */
import { describe, expect, it } from 'vitest';
import { ACTIVITY_MESSAGE_KEYS, eventTitle, LANGUAGES, MAIL, MESSAGES, renderMessage } from '../../../lambdas/domain/messages.js';
import { ACTIVITY_KINDS } from '../../../lambdas/contract/schemas.js';

const placeholders = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
/** The portal's `notifications` catalogue of `lang` (web/ is outside the root tsconfig: loaded by path, typed here). */
type PortalEvents = { events: Record<string, Record<string, string>> & { severity: Record<string, string>; status: Record<string, string> } };
const portalOf = async (lang: string): Promise<PortalEvents> =>
  ((await import(/* @vite-ignore */ new URL(`../../../web/src/shared/lib/messages/${lang}/notifications.ts`, import.meta.url).href)) as { notifications: PortalEvents }).notifications;

describe('message catalogue', () => {
  it('has every activity key in both languages, with the same placeholders, and nothing else', () => {
    for (const lang of LANGUAGES) {
      expect(Object.keys(MESSAGES[lang].events).sort()).toEqual([...ACTIVITY_MESSAGE_KEYS].sort());
      for (const key of ACTIVITY_MESSAGE_KEYS) expect(MESSAGES[lang].events[key].trim()).not.toBe('');
    }
    for (const key of ACTIVITY_MESSAGE_KEYS) expect(placeholders(MESSAGES.en.events[key])).toEqual(placeholders(MESSAGES.es.events[key]));
    // One key per kind of activity (and the labels of every kind in both languages' e-mails).
    expect(ACTIVITY_MESSAGE_KEYS.map((k) => k.slice('activity.'.length)).sort()).toEqual([...ACTIVITY_KINDS].sort());
    for (const lang of LANGUAGES) expect(Object.keys(MAIL[lang].kinds).sort()).toEqual([...ACTIVITY_KINDS].sort());
  });

  it('the portal catalogue has the same templates and enum labels under notifications.events', async () => {
    for (const lang of LANGUAGES) {
      const portal = await portalOf(lang);
      const events = portal.events;
      for (const key of ACTIVITY_MESSAGE_KEYS) {
        const [group, name] = key.slice('activity.'.length).split('.') as [string, string];
        expect(events[group]?.[name], `${lang} ${key}`).toBe(MESSAGES[lang].events[key]);
      }
      expect(portal.events.severity).toEqual(MESSAGES[lang].severity);
      expect(portal.events.status).toEqual(MESSAGES[lang].status);
    }
  });

  it('renders in the reader’s language, names the device by name, falls back to the id and to an old title', () => {
    const alarm = { key: 'activity.alarm.raised', params: { deviceId: 'dev-007', deviceName: 'FW Madrid', severity: 'high', title: 'CPU 95 %' } };
    expect(renderMessage('es', alarm)).toBe('Alarma alta en FW Madrid: CPU 95 %');
    expect(renderMessage('en', alarm)).toBe('High alarm on FW Madrid: CPU 95 %');
    expect(renderMessage('en', { ...alarm, params: { ...alarm.params, deviceName: '' } })).toBe('High alarm on dev-007: CPU 95 %');
    const status = { key: 'activity.incident.status_changed', params: { incidentId: 'INC-000007', from: 'new', to: 'in_progress' } };
    expect(renderMessage('en', status)).toBe('INC-000007: status “New” → “In progress”');
    expect(renderMessage('es', status)).toBe('INC-000007: estado «Nuevo» → «En curso»');
    expect(renderMessage('en', { key: 'activity.unknown', params: {} })).toBeNull();
    expect(eventTitle({ title: 'Nuevo incidente INC-000001: viejo' }, 'en')).toBe('Nuevo incidente INC-000001: viejo');
    expect(eventTitle({ title: 'x', message: { key: 'activity.unknown', params: {} } }, 'en')).toBe('x');
  });
});
