/**
 * The catalogue of device alarm types the demo collectors raise: one stable key and one Spanish title per
 * type, so the same condition always carries the same name wherever it is raised (the local seed and the
 * collector simulator both take titles from here). Reports group alarms by title ("Alarmas más
 * frecuentes"), so two spellings of one condition would show as two rows (docs/local-emulation.md#demo-data).
 *
 * Real collectors send their own titles through `POST /ingest/device-alarms`; the API stores them as given.
 */
import type { Severity } from '../contract/schemas.js';

/** One alarm type: its title (Spanish, as shown in the portal) and the severity it is usually raised with. */
export interface DeviceAlarmType {
  title: string;
  severity: Severity;
}

/** The alarm types, by key. `heartbeat_lost` is raised when a device's heartbeats stop. */
export const DEVICE_ALARM_TYPES = {
  heartbeat_lost: { title: 'Sin latido del dispositivo', severity: 'critical' },
  cpu_high: { title: 'CPU por encima del 90 %', severity: 'high' },
  wan_down: { title: 'Interfaz WAN caída', severity: 'high' },
  packet_loss: { title: 'Pérdida de paquetes elevada', severity: 'medium' },
  disk_almost_full: { title: 'Disco casi lleno', severity: 'medium' },
  temperature_high: { title: 'Temperatura alta', severity: 'medium' },
  vpn_sessions_rejected: { title: 'Sesiones VPN rechazadas', severity: 'low' },
} as const satisfies Record<string, DeviceAlarmType>;

/** Key of an alarm type (`heartbeat_lost`, `cpu_high`, …). */
export type DeviceAlarmTypeKey = keyof typeof DEVICE_ALARM_TYPES;
