/**
 * Texts of the monthly PDF report (issue 32 point 5) in the reader's language, Spanish (`es`, the default)
 * and English (`en`); severity labels come from the server's one catalogue (`MESSAGES[language].severity`,
 * lambdas/domain/messages.ts). Only characters of the PDF standard fonts' WinAnsi encoding (Latin-1 letters
 * such as á é í ó ú ñ ¿ ¡, no arrows), so the text embeds with Helvetica (`renderMonthlyReportPdf`).
 */
import type { Language } from './messages.js';

export interface MonthlyReportTexts {
  title: string;
  tenant: string;
  month: string;
  generatedAt: string;
  summaryHeading: string;
  /** Executive summary; `{{…}}` placeholders filled by `fill`. */
  summary: string;
  noResolved: string;
  noData: string;
  severityHeading: string;
  severity: string;
  incidents: string;
  total: string;
  slaHeading: string;
  slaResolved: string;
  slaWithin: string;
  slaCompliance: string;
  slaOpenBreached: string;
  /** The table severity × met / breached / % (resolution SLA per severity). */
  slaBySeverityHeading: string;
  slaMet: string;
  slaBreached: string;
  timesHeading: string;
  mtta: string;
  mttr: string;
  availabilityHeading: string;
  fleet: string;
  target: string;
  belowTarget: string;
  noneBelowTarget: string;
  /** The maintenance windows of the month excluded from availability: `{{windows}}` windows (2 or more), `{{minutes}}` min (docs/sla.md#maintenance-windows). */
  maintenanceExcluded: string;
  /** The same line for exactly one window. */
  maintenanceExcludedOne: string;
  topAlarmsHeading: string;
  alarm: string;
  count: string;
  noAlarms: string;
  trendHeading: string;
  availability: string;
  minutes: string;
  monthNames: readonly string[];
}

export const MONTHLY_REPORT_TEXTS: Readonly<Record<Language, MonthlyReportTexts>> = {
  es: {
    title: 'Informe mensual de seguridad',
    tenant: 'Cliente',
    month: 'Mes',
    generatedAt: 'Generado',
    summaryHeading: 'Resumen ejecutivo',
    summary:
      'En {{month}} se abrieron {{total}} incidentes ({{critical}} críticos). Cumplimiento del SLA de resolución: {{compliance}}. Disponibilidad de la flota: {{availability}} (objetivo {{target}} %). ¿Alertas más frecuentes? {{topAlarm}}.',
    noResolved: 'sin incidentes resueltos',
    noData: 'sin datos',
    severityHeading: 'Incidentes por severidad',
    severity: 'Severidad',
    incidents: 'Incidentes',
    total: 'Total',
    slaHeading: 'Cumplimiento del SLA',
    slaResolved: 'Incidentes resueltos',
    slaWithin: 'Resueltos dentro del SLA',
    slaCompliance: 'Cumplimiento',
    slaOpenBreached: 'Abiertos con el SLA incumplido',
    slaBySeverityHeading: 'Cumplimiento del SLA por severidad',
    slaMet: 'Cumplidos',
    slaBreached: 'Incumplidos',
    timesHeading: 'Tiempos de respuesta',
    mtta: 'MTTA (tiempo medio hasta el reconocimiento)',
    mttr: 'MTTR (tiempo medio de resolución)',
    availabilityHeading: 'Disponibilidad',
    fleet: 'Disponibilidad de la flota',
    target: 'Objetivo por dispositivo',
    belowTarget: 'Dispositivos por debajo del objetivo (30 días)',
    noneBelowTarget: 'Ningún dispositivo por debajo del objetivo.',
    maintenanceExcluded: '{{windows}} ventanas de mantenimiento excluidas ({{minutes}} min)',
    maintenanceExcludedOne: '1 ventana de mantenimiento excluida ({{minutes}} min)',
    topAlarmsHeading: 'Alarmas más frecuentes',
    alarm: 'Alarma',
    count: 'Veces',
    noAlarms: 'Ninguna alarma en el mes.',
    trendHeading: 'Evolución de los últimos meses',
    availability: 'Disponibilidad',
    minutes: 'min',
    monthNames: ['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre'],
  },
  en: {
    title: 'Monthly security report',
    tenant: 'Customer',
    month: 'Month',
    generatedAt: 'Generated',
    summaryHeading: 'Executive summary',
    summary:
      'In {{month}}, {{total}} incidents were opened ({{critical}} critical). Resolution SLA compliance: {{compliance}}. Fleet availability: {{availability}} (target {{target}} %). Most frequent alarm: {{topAlarm}}.',
    noResolved: 'no incidents resolved',
    noData: 'no data',
    severityHeading: 'Incidents by severity',
    severity: 'Severity',
    incidents: 'Incidents',
    total: 'Total',
    slaHeading: 'SLA compliance',
    slaResolved: 'Incidents resolved',
    slaWithin: 'Resolved within the SLA',
    slaCompliance: 'Compliance',
    slaOpenBreached: 'Open past the SLA',
    slaBySeverityHeading: 'SLA compliance by severity',
    slaMet: 'Met',
    slaBreached: 'Breached',
    timesHeading: 'Response times',
    mtta: 'MTTA (mean time to acknowledge)',
    mttr: 'MTTR (mean time to resolve)',
    availabilityHeading: 'Availability',
    fleet: 'Fleet availability',
    target: 'Target per device',
    belowTarget: 'Devices below the target (30 days)',
    noneBelowTarget: 'No device below the target.',
    maintenanceExcluded: '{{windows}} maintenance windows excluded ({{minutes}} min)',
    maintenanceExcludedOne: '1 maintenance window excluded ({{minutes}} min)',
    topAlarmsHeading: 'Top alarms',
    alarm: 'Alarm',
    count: 'Count',
    noAlarms: 'No alarms in the month.',
    trendHeading: 'Trend over the last months',
    availability: 'Availability',
    minutes: 'min',
    monthNames: ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'],
  },
};
