/**
 * Labels of API enums and date/number formatting in the portal's current language (the message catalogue,
 * `./messages`, docs/portal.md#messages): Spanish (es-ES) by default, English (en-GB) when chosen in
 * `/settings`; dates in the browser's time zone.
 */
import type { AlarmState, DeviceStatus, IncidentSource, IncidentStatus, Severity } from './contract';
import { messagesLanguage, t } from './messages';

/**
 * A read-only record `value → label` whose labels are read from the catalogue group `enums.<group>` in the
 * current language at each access (so `SEVERITY_LABELS.high` is "Alta" in Spanish, "High" in English).
 */
function enumLabels<K extends string>(group: 'severity' | 'incidentStatus' | 'deviceStatus' | 'deviceType' | 'alarmState' | 'incidentSource', values: readonly K[]): Readonly<Record<K, string>> {
  const record = {} as Record<K, string>;
  for (const value of values) {
    Object.defineProperty(record, value, { enumerable: true, get: () => t(`enums.${group}.${value}` as 'enums.severity.high') });
  }
  return Object.freeze(record);
}

export const SEVERITY_LABELS: Readonly<Record<Severity, string>> = enumLabels('severity', ['critical', 'high', 'medium', 'low']);

export const INCIDENT_STATUS_LABELS: Readonly<Record<IncidentStatus, string>> = enumLabels('incidentStatus', ['new', 'in_progress', 'on_hold', 'resolved', 'closed']);

export const DEVICE_STATUS_LABELS: Readonly<Record<DeviceStatus, string>> = enumLabels('deviceStatus', ['online', 'degraded', 'offline', 'unknown']);

/** Device-alarm states (contract `ALARM_STATES`). */
export const ALARM_STATE_LABELS: Readonly<Record<AlarmState, string>> = enumLabels('alarmState', ['active', 'acknowledged', 'cleared']);

/** Incident sources (contract `INCIDENT_SOURCES`). */
export const INCIDENT_SOURCE_LABELS: Readonly<Record<IncidentSource, string>> = enumLabels('incidentSource', ['portal', 'soc', 'alarm']);

/** Device types sent by the collectors (free text in the API); unknown types are shown as sent. */
const DEVICE_TYPE_LABELS: Readonly<Record<string, string>> = enumLabels('deviceType', ['firewall', 'switch', 'access_point', 'server', 'router', 'vpn']);

/** Label of a device type in the current language, e.g. `access_point` → "Punto de acceso"; unknown types as sent. */
export function deviceTypeLabel(type: string): string {
  return Object.hasOwn(DEVICE_TYPE_LABELS, type) ? DEVICE_TYPE_LABELS[type]! : type;
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
