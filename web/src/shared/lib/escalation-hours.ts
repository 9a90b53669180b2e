/**
 * When an escalation contact can be called (docs/api.md#escalation-contacts): `'24x7'`, or days + `HH:MM` range in
 * an IANA time zone, where `to` before `from` is an overnight range ending the next day. Used by the staff view on
 * an incident (contacts for its severity, those available now first) and the customer's page.
 */
export type Weekday = 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun';
export type ContactHours = '24x7' | { days: readonly Weekday[]; from: string; to: string; timeZone: string };

const WEEKDAY_BY_SHORT: Record<string, Weekday> = { Mon: 'mon', Tue: 'tue', Wed: 'wed', Thu: 'thu', Fri: 'fri', Sat: 'sat', Sun: 'sun' };
const ORDER: readonly Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const minutes = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** The weekday and minute of the day (0-1439) of `now` in `timeZone` (wall clock, DST applied by Intl). */
export function localTime(now: Date, timeZone: string): { day: Weekday; minute: number } {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(now);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  return { day: WEEKDAY_BY_SHORT[get('weekday')] ?? 'mon', minute: Number(get('hour')) * 60 + Number(get('minute')) };
}

/** Whether `hours` include `now`: a same-day range `[from, to)`; an overnight one from `from` on a listed day to `to` the next day. */
export function availableAt(hours: ContactHours, now: Date): boolean {
  if (hours === '24x7') return true;
  const { day, minute } = localTime(now, hours.timeZone);
  const from = minutes(hours.from);
  const to = minutes(hours.to);
  if (from < to) return hours.days.includes(day) && minute >= from && minute < to;
  const yesterday = ORDER[(ORDER.indexOf(day) + 6) % 7]!;
  return (hours.days.includes(day) && minute >= from) || (hours.days.includes(yesterday) && minute < to);
}

/** The contacts called for `severity`, those available at `now` first, each group in the tenant's calling order. */
export function contactsFor<C extends { severities: readonly string[]; hours: ContactHours }>(contacts: readonly C[], severity: string, now: Date): Array<C & { availableNow: boolean }> {
  const applicable = contacts.filter((c) => c.severities.includes(severity)).map((c) => ({ ...c, availableNow: availableAt(c.hours, now) }));
  return [...applicable.filter((c) => c.availableNow), ...applicable.filter((c) => !c.availableNow)];
}
