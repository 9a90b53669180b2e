/**
 * The server's message catalogue (issue 32 point 6): activity events store a message key and its
 * parameters (`ActivityMessage`), never a sentence; e-mails, digests, webhooks and the portal render them in
 * the reader's language. Spanish (`es`, the default) and English (`en`). The portal's catalogue has the same
 * templates under `notifications.events.*` (web/src/shared/lib/messages/{es,en}/notifications.ts;
 * test/unit/lambdas/messages.test.ts checks both sides have every key). Templates use i18next's
 * `{{name}}` syntax; the enum parameters `severity`, `from` and `to` are shown through `severity.*` /
 * `status.*` of the same language.
 */
import type { ActivityMessage, IncidentStatus, Severity } from '../contract/schemas.js';

/** Languages a reader may have; `es` is the default (docs/notifications.md#languages). */
export const LANGUAGES = ['es', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'es';

/** Message keys of activity events (one per sentence shape). */
export const ACTIVITY_MESSAGE_KEYS = [
  'activity.incident.created',
  'activity.incident.closed',
  'activity.incident.resolved',
  'activity.incident.status_changed',
  'activity.incident.triaged',
  'activity.incident.commented',
  'activity.alarm.raised',
  'activity.alarm.acknowledged',
  'activity.alarm.cleared',
  'activity.office365.alert_raised',
  'activity.recommendation.added',
  'activity.sla.breached',
  'activity.sla.at_risk',
] as const;
export type ActivityMessageKey = (typeof ACTIVITY_MESSAGE_KEYS)[number];

/** One language's texts: the event templates and the enum labels they use. */
export interface MessageCatalogue {
  events: Record<ActivityMessageKey, string>;
  severity: Record<Severity, string>;
  status: Record<IncidentStatus, string>;
}

export const MESSAGES: Readonly<Record<Language, MessageCatalogue>> = {
  es: {
    events: {
      'activity.incident.created': 'Nuevo incidente {{incidentId}}: {{title}}',
      'activity.incident.closed': '{{incidentId}} cerrado: {{title}}',
      'activity.incident.resolved': '{{incidentId}} resuelto: {{title}}',
      'activity.incident.status_changed': '{{incidentId}}: estado «{{from}}» → «{{to}}»',
      'activity.incident.triaged': '{{incidentId}} clasificado: severidad {{severity}}',
      'activity.incident.commented': 'Nuevo comentario de {{author}} en {{incidentId}}',
      'activity.alarm.raised': 'Alarma {{severity}} en {{deviceName}}: {{title}}',
      'activity.alarm.acknowledged': 'Alarma reconocida en {{deviceName}}: {{title}}',
      'activity.alarm.cleared': 'Alarma resuelta en {{deviceName}}: {{title}}',
      'activity.office365.alert_raised': 'Alerta de Office 365: {{title}}',
      'activity.recommendation.added': 'Nueva recomendación: {{title}}',
      'activity.sla.breached': '{{incidentId}} ha incumplido el SLA de resolución: {{title}}',
      'activity.sla.at_risk': '{{incidentId}} está a punto de incumplir el SLA (vence {{dueTime}} UTC): {{title}}',
    },
    severity: { critical: 'crítica', high: 'alta', medium: 'media', low: 'baja' },
    status: { new: 'Nuevo', in_progress: 'En curso', on_hold: 'En espera', resolved: 'Resuelto', closed: 'Cerrado' },
  },
  en: {
    events: {
      'activity.incident.created': 'New incident {{incidentId}}: {{title}}',
      'activity.incident.closed': '{{incidentId}} closed: {{title}}',
      'activity.incident.resolved': '{{incidentId}} resolved: {{title}}',
      'activity.incident.status_changed': '{{incidentId}}: status “{{from}}” → “{{to}}”',
      'activity.incident.triaged': '{{incidentId}} triaged: severity {{severity}}',
      'activity.incident.commented': 'New comment by {{author}} on {{incidentId}}',
      'activity.alarm.raised': '{{severity}} alarm on {{deviceName}}: {{title}}',
      'activity.alarm.acknowledged': 'Alarm acknowledged on {{deviceName}}: {{title}}',
      'activity.alarm.cleared': 'Alarm cleared on {{deviceName}}: {{title}}',
      'activity.office365.alert_raised': 'Office 365 alert: {{title}}',
      'activity.recommendation.added': 'New recommendation: {{title}}',
      'activity.sla.breached': '{{incidentId}} has breached its resolution SLA: {{title}}',
      'activity.sla.at_risk': '{{incidentId}} is about to breach its SLA (due {{dueTime}} UTC): {{title}}',
    },
    severity: { critical: 'Critical', high: 'High', medium: 'Medium', low: 'Low' },
    status: { new: 'New', in_progress: 'In progress', on_hold: 'On hold', resolved: 'Resolved', closed: 'Closed' },
  },
};

/** `value` as one of the languages, else the default (`es`). */
export function languageOf(value: unknown): Language {
  return (LANGUAGES as readonly unknown[]).includes(value) ? (value as Language) : DEFAULT_LANGUAGE;
}

/** Titles are one line of at most 200 characters. */
export function oneLine(s: string): string {
  const line = s.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

/**
 * `message` rendered in `lang`: the key's template with its parameters (the enum parameters `severity`,
 * `from`, `to` through the language's labels; `deviceName` falls back to `deviceId`), one line of at most
 * 200 characters; null for an unknown key.
 */
export function renderMessage(lang: Language, message: ActivityMessage): string | null {
  const cat = MESSAGES[lang];
  const template = (cat.events as Record<string, string | undefined>)[message.key];
  if (template === undefined) return null;
  const p = message.params;
  const value = (name: string): string => {
    const v = p[name];
    if (name === 'severity' && v && v in cat.severity) return cat.severity[v as Severity];
    if ((name === 'from' || name === 'to') && v && v in cat.status) return cat.status[v as IncidentStatus];
    if (name === 'deviceName') return v || p.deviceId || '';
    return v ?? '';
  };
  return oneLine(template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => value(name)));
}

/**
 * The title of a stored event for a reader of `lang`: its message rendered, or — events stored before
 * messages existed (Spanish `title` only) — the stored title as it is.
 */
export function eventTitle(event: { message?: ActivityMessage | undefined; title?: string | undefined }, lang: Language): string {
  return (event.message && renderMessage(lang, event.message)) ?? event.title ?? '';
}

/** Texts of e-mails and webhook cards around an event's title, per language (`renderEmail`, digests). */
export interface MailTexts {
  kinds: Readonly<Record<string, string>>;
  activity: string;
  severity: Readonly<Record<string, string>>;
  type: string;
  severityLabel: string;
  date: string;
  by: string;
  viewInPortal: string;
  openInVigia: string;
  footer: string;
  /** Plain-text footer with the preferences page's `{{url}}`. */
  footerText: string;
  changePreferences: string;
  /** Digest texts: `{{day}}`, `{{total}}`, `{{count}}`, `{{name}}` are replaced. */
  digest: {
    title: string;
    one: string;
    other: string;
    intro: string;
    more: string;
    moreN: string;
    viewAll: string;
    viewAllText: string;
    footer: string;
    footerText: string;
    label: string;
    by: string;
  };
}

export const MAIL: Readonly<Record<Language, MailTexts>> = {
  es: {
    kinds: {
      'incident.created': 'Incidente creado',
      'incident.triaged': 'Incidente clasificado',
      'incident.status_changed': 'Cambio de estado de un incidente',
      'incident.commented': 'Nuevo comentario en un incidente',
      'incident.resolved': 'Incidente resuelto',
      'incident.closed': 'Incidente cerrado',
      'alarm.raised': 'Alarma activada',
      'alarm.cleared': 'Alarma despejada',
      'alarm.acknowledged': 'Alarma reconocida',
      'office365.alert_raised': 'Alerta de Office 365',
      'recommendation.added': 'Nueva recomendación',
      'sla.at_risk': 'SLA a punto de vencer',
      'sla.breached': 'SLA incumplido',
    },
    activity: 'Actividad',
    severity: { critical: 'Crítica', high: 'Alta', medium: 'Media', low: 'Baja', info: 'Informativa' },
    type: 'Tipo',
    severityLabel: 'Severidad',
    date: 'Fecha',
    by: 'Por',
    viewInPortal: 'Ver en el portal',
    openInVigia: 'Abrir en Vigía',
    footer: 'Recibe este correo por sus preferencias de notificación en Vigía.',
    footerText: 'Recibe este correo por sus preferencias de notificación en Vigía. Puede cambiarlas en {{url}}',
    changePreferences: 'Cambiar preferencias',
    digest: {
      title: 'Resumen del {{day}}: {{total}}',
      one: 'novedad',
      other: 'novedades',
      intro: 'Actividad del {{day}} (UTC) según sus preferencias de notificación: {{total}}.',
      more: '…y más.',
      moreN: '…y {{count}} más.',
      viewAll: 'Ver toda la actividad',
      viewAllText: 'Ver toda la actividad en el portal',
      footer: 'Recibe este resumen diario por sus preferencias de notificación en Vigía.',
      footerText: 'Recibe este resumen diario por sus preferencias de notificación en Vigía. Puede cambiarlas en {{url}}',
      label: 'Resumen diario',
      by: 'por {{name}}',
    },
  },
  en: {
    kinds: {
      'incident.created': 'Incident created',
      'incident.triaged': 'Incident triaged',
      'incident.status_changed': 'Incident status changed',
      'incident.commented': 'New comment on an incident',
      'incident.resolved': 'Incident resolved',
      'incident.closed': 'Incident closed',
      'alarm.raised': 'Alarm raised',
      'alarm.cleared': 'Alarm cleared',
      'alarm.acknowledged': 'Alarm acknowledged',
      'office365.alert_raised': 'Office 365 alert',
      'recommendation.added': 'New recommendation',
      'sla.at_risk': 'SLA at risk',
      'sla.breached': 'SLA breached',
    },
    activity: 'Activity',
    severity: { critical: 'Critical', high: 'High', medium: 'Medium', low: 'Low', info: 'Informational' },
    type: 'Type',
    severityLabel: 'Severity',
    date: 'Date',
    by: 'By',
    viewInPortal: 'View in the portal',
    openInVigia: 'Open in Vigía',
    footer: 'You receive this e-mail because of your notification preferences in Vigía.',
    footerText: 'You receive this e-mail because of your notification preferences in Vigía. You can change them at {{url}}',
    changePreferences: 'Change preferences',
    digest: {
      title: 'Summary of {{day}}: {{total}}',
      one: 'update',
      other: 'updates',
      intro: 'Activity of {{day}} (UTC) according to your notification preferences: {{total}}.',
      more: '…and more.',
      moreN: '…and {{count}} more.',
      viewAll: 'View all activity',
      viewAllText: 'View all activity in the portal',
      footer: 'You receive this daily summary because of your notification preferences in Vigía.',
      footerText: 'You receive this daily summary because of your notification preferences in Vigía. You can change them at {{url}}',
      label: 'Daily summary',
      by: 'by {{name}}',
    },
  },
};

/** `template` with each `{{name}}` replaced by `values[name]` (empty when absent). */
export function fill(template: string, values: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? ''));
}
