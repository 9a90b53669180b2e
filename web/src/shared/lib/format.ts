/**
 * Labels of API enums and date/number formatting in the portal's current language (the message catalogue,
 * `./messages`, docs/portal.md#messages): Spanish (es-ES) by default, English (en-GB) when chosen in
 * `/settings`; dates in the browser's time zone.
 */
import { enumLabel } from './enum-labels';
import { messagesLanguage } from './messages';

// The API's enum labels are declared once, in `./enum-labels.ts`; re-exported here for the screens that format.
export { ALARM_STATE_LABELS, DEVICE_STATUS_LABELS, INCIDENT_SOURCE_LABELS, INCIDENT_STATUS_LABELS, SEVERITY_LABELS } from './enum-labels';

/** Label of a device type in the current language, e.g. `access_point` → "Punto de acceso"; unknown types as sent. */
export function deviceTypeLabel(type: string): string {
  return enumLabel('deviceType', type);
}

/** BCP 47 locale of the current messages language (dates and numbers). */
export function formatLocale(): string {
  return messagesLanguage() === 'en' ? 'en-GB' : 'es-ES';
}

const formatters = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();
/** One cached formatter per (kind, locale). */
function cached<F extends Intl.DateTimeFormat | Intl.NumberFormat>(kind: string, make: (locale: string) => F): F {
  const locale = formatLocale();
  const key = `${kind}|${locale}`;
  let f = formatters.get(key) as F | undefined;
  if (!f) formatters.set(key, (f = make(locale)));
  return f;
}

/**
 * UTC calendar day `YYYY-MM-DD` → e.g. "3 mar" (en: "3 Mar"); the text itself when it is not a date. One cached
 * formatter per language: the charts call it for every tick and tooltip, and `toLocaleDateString` builds a new
 * `Intl.DateTimeFormat` on each call (the sign-in's CPU profile showed ~30 ms of it in the dashboard's charts).
 */
export function formatShortDay(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  return Number.isNaN(d.getTime()) ? date : cached('shortDay', (l) => new Intl.DateTimeFormat(l, { day: 'numeric', month: 'short', timeZone: 'UTC' })).format(d);
}

/** ISO-8601 instant → e.g. "3 mar 2026, 14:05" (en: "3 Mar 2026, 14:05") in the browser's time zone; '—' for null/invalid. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '—' : cached('dateTime', (l) => new Intl.DateTimeFormat(l, { dateStyle: 'medium', timeStyle: 'short' })).format(d);
}

/** A count → "50.000" (en: "50,000") in the user's language; '—' for null. */
export function formatNumber(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : cached('number', (l) => new Intl.NumberFormat(l, { maximumFractionDigits: 0 })).format(value);
}

/** 0–100 → "99,95 %" (en: "99.95 %"); '—' for null. */
export function formatPercent(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : `${cached('percent', (l) => new Intl.NumberFormat(l, { maximumFractionDigits: 2, minimumFractionDigits: 0 })).format(value)} %`;
}

/**
 * Builds the dashboard's cached formatters (counts, percentages, dates, chart days) for the current language,
 * ahead of their first use. The first `Intl` formatter of a locale in a page loads that locale's ICU data:
 * 20–45 ms of CPU in the sign-in's profile, spent while the dashboard's figures were rendered. The sign-in
 * page calls this in idle time once the signed-in chunk is loaded (`app/AuthGate.tsx`, docs/portal.md#sign-in-to-dashboard).
 */
export function warmFormatters(): void {
  formatNumber(0);
  formatPercent(0);
  formatDateTime('1970-01-01T00:00:00Z');
  formatShortDay('1970-01-01');
}
