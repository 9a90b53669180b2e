/**
 * Labels of the API's enum values (and the few the portal derives, like a maintenance window's status) in
 * the current language: every group is `enums.<group>.<value>` of the message catalogue and its values are
 * the catalogue group's keys, so a label is added in the catalogue alone. Every enum label table of the portal is
 * here (`./format.ts` re-exports the ones the formatting screens import) (docs/portal.md#messages).
 */
import { CATALOGUES, t } from './messages';

type Groups = (typeof CATALOGUES)['es']['enums'];
/** A group of `enums.*` in the catalogue, e.g. `'o365AlertStatus'`. */
export type EnumGroup = keyof Groups;
/** The values of a group, e.g. `'active' | 'investigating' | 'resolved'`. */
export type EnumValue<G extends EnumGroup> = keyof Groups[G] & string;

/**
 * A read-only record `value → label` of `group`, each label read from the catalogue in the current language at
 * each access (`O365_ALERT_STATUS_LABELS.active` is "Activa" in Spanish, "Active" in English).
 */
export function enumLabels<G extends EnumGroup>(group: G): Readonly<Record<EnumValue<G>, string>> {
  const record = {} as Record<EnumValue<G>, string>;
  for (const value of Object.keys(CATALOGUES.es.enums[group]) as EnumValue<G>[]) {
    Object.defineProperty(record, value, { enumerable: true, get: () => t(`enums.${group}.${value}` as 'enums.severity.high') });
  }
  return Object.freeze(record);
}

/** Label of `value` in `group`; a value the catalogue does not know (newer API, data) is shown as sent. */
export function enumLabel<G extends EnumGroup>(group: G, value: string): string {
  return Object.hasOwn(CATALOGUES.es.enums[group], value) ? t(`enums.${group}.${value}` as 'enums.severity.high') : value;
}

/** Incident and alarm severity (contract `SEVERITIES`). */
export const SEVERITY_LABELS = enumLabels('severity');
/** Incident status (contract `INCIDENT_STATUSES`). */
export const INCIDENT_STATUS_LABELS = enumLabels('incidentStatus');
/** Device status (contract `DEVICE_STATUSES`). */
export const DEVICE_STATUS_LABELS = enumLabels('deviceStatus');
/** Device-alarm states (contract `ALARM_STATES`). */
export const ALARM_STATE_LABELS = enumLabels('alarmState');
/** Incident sources (contract `INCIDENT_SOURCES`). */
export const INCIDENT_SOURCE_LABELS = enumLabels('incidentSource');
/** Device alarm or Office 365 alert (contract `ALARM_CONSOLE_KINDS`, a linked alarm's `kind`). */
export const ALARM_KIND_LABELS = enumLabels('alarmKind');
/** States of the staff alarm console (contract `ALARM_CONSOLE_STATES`). */
export const ALARM_CONSOLE_STATE_LABELS = enumLabels('alarmConsoleState');
/** Office 365 alert status as Microsoft sends it (contract `O365_ALARM_STATUSES`). */
export const O365_ALERT_STATUS_LABELS = enumLabels('o365AlertStatus');
/** Result of an Office 365 audit event (`Succeeded`, `Failed`, `PartiallySucceeded`). */
export const O365_RESULT_LABELS = enumLabels('o365Result');
/** Recommendation status (contract `RECOMMENDATION_STATUSES`). */
export const RECOMMENDATION_STATUS_LABELS = enumLabels('recommendationStatus');
/** Recommendation priority. */
export const RECOMMENDATION_PRIORITY_LABELS = enumLabels('recommendationPriority');
/** A customer user's role (`/me` role, GET /team). */
export const CUSTOMER_ROLE_LABELS = enumLabels('customerRole');
/** A maintenance window's status as of now (derived in the portal from its start and end). */
export const MAINTENANCE_WINDOW_STATUS_LABELS = enumLabels('maintenanceWindowStatus');
/** A webhook's payload format. */
export const WEBHOOK_FORMAT_LABELS = enumLabels('webhookFormat');
/** A webhook delivery's state. */
export const WEBHOOK_DELIVERY_STATE_LABELS = enumLabels('webhookDeliveryState');
