/**
 * The title of an activity event in the reader's language (issue 32 point 6): the event's message key and
 * parameters through the catalogue (`notifications.events.*`, the same templates as the server's
 * lambdas/domain/messages.ts); the enum parameters `severity`, `from` and `to` through
 * `notifications.events.severity.*` / `.status.*`; `deviceName` falls back to `deviceId`. Events stored before
 * messages existed (or with a key this portal does not know) show their stored Spanish `title`.
 */
import type { ActivityEvent } from '../../shared/lib/contract';
import { i18n, t as msg } from '../../shared/lib/messages';

const PREFIX = 'activity.';

/** Catalogue key of a server message key (`activity.alarm.raised` → `notifications.events.alarm.raised`), or null. */
export function catalogueKey(key: string): string | null {
  return key.startsWith(PREFIX) && /^[a-z0-9_]+\.[a-z0-9_]+$/.test(key.slice(PREFIX.length)) ? `notifications.events.${key.slice(PREFIX.length)}` : null;
}

/** `e`'s title rendered in the current language (see the module comment). */
export function activityTitle(e: Pick<ActivityEvent, 'title' | 'message'>): string {
  const key = e.message ? catalogueKey(e.message.key) : null;
  if (!e.message || !key || !i18n.exists(key)) return e.title;
  const p = e.message.params;
  const values: Record<string, string> = { ...p, deviceName: p.deviceName || p.deviceId || '' };
  for (const name of ['severity'] as const) {
    const v = p[name];
    if (v && i18n.exists(`notifications.events.severity.${v}`)) values[name] = msg(`notifications.events.severity.${v}` as never);
  }
  for (const name of ['from', 'to'] as const) {
    const v = p[name];
    if (v && i18n.exists(`notifications.events.status.${v}`)) values[name] = msg(`notifications.events.status.${v}` as never);
  }
  return msg(key as never, values as never) as unknown as string;
}
