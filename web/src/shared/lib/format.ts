/**
 * Spanish labels of API enums and date formatting (es-ES, the browser's time zone).
 */
import type { DeviceStatus, IncidentStatus, Severity } from './contract';

export const SEVERITY_LABELS: Record<Severity, string> = {
  critical: 'Crítica',
  high: 'Alta',
  medium: 'Media',
  low: 'Baja',
};

export const INCIDENT_STATUS_LABELS: Record<IncidentStatus, string> = {
  new: 'Nuevo',
  in_progress: 'En curso',
  on_hold: 'En espera',
  resolved: 'Resuelto',
  closed: 'Cerrado',
};

export const DEVICE_STATUS_LABELS: Record<DeviceStatus, string> = {
  online: 'En línea',
  degraded: 'Degradado',
  offline: 'Fuera de línea',
  unknown: 'Desconocido',
};

/** Device types sent by the collectors (free text in the API); unknown types are shown as sent. */
const DEVICE_TYPE_LABELS: Record<string, string> = {
  firewall: 'Cortafuegos',
  switch: 'Switch',
  access_point: 'Punto de acceso',
  server: 'Servidor',
  router: 'Router',
  vpn: 'Concentrador VPN',
};

/** Spanish label of a device type, e.g. `access_point` → "Punto de acceso". */
export function deviceTypeLabel(type: string): string {
  return DEVICE_TYPE_LABELS[type] ?? type;
}

const dateTime = new Intl.DateTimeFormat('es-ES', { dateStyle: 'medium', timeStyle: 'short' });

/** ISO-8601 instant → e.g. "3 mar 2026, 14:05" in the browser's time zone; '—' for null/invalid. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '—' : dateTime.format(d);
}

const percent = new Intl.NumberFormat('es-ES', { maximumFractionDigits: 2, minimumFractionDigits: 0 });

/** 0–100 → "99,95 %"; '—' for null. */
export function formatPercent(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : `${percent.format(value)} %`;
}
