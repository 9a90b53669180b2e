/**
 * Deterministic demo data for the local stack: two customer tenants, their users, an admin, ~40
 * incidents per tenant over the last 60 days, ~20 devices per tenant with 30 days of availability and
 * some alarms, and per tenant the Office 365 side (60 audit events over the last 14 days, 6 alerts in
 * every status) and the 4 recommendations. Pure functions of a reference time `now` (ms since epoch) —
 * the same inputs always give the same records, so seeding is idempotent (fixed ids) and tests can
 * predict the data. The collector simulator (`collector.ts`) adds live Office 365 activity on top and
 * sends the same recommendations (same ids: its replays are no-ops).
 */
import type { IncidentStatus, Office365Alarm, Office365Event, Recommendation, Severity } from '../../lambdas/contract/schemas.js';
import { DEVICE_ALARM_TYPES } from '../../lambdas/domain/alarm-types.js';
import { pick, prng } from '../lib/seeded-random.js';

/** Demo password for every local user (local emulator only; never a deployed pool). */
export const DEMO_PASSWORD = 'Vigia-Demo-2026';

export interface DemoTenant {
  id: string;
  name: string;
}
export interface DemoUser {
  email: string;
  password: string;
  groups: string[];
  description: string;
  /** Set TOTP up for this user (staff must have it; docs/api.md#staff-accounts-and-totp). */
  totp?: boolean;
  /** The user's TOTP secret (base32) once the local stack set it up (`scripts/local/demo-totp.ts`). */
  totpSecret?: string;
}
export interface DemoIncident {
  tenantId: string;
  /** Sequence number; the incident id is `INC-` + 6 digits. */
  seq: number;
  title: string;
  description: string;
  severity: Severity;
  status: IncidentStatus;
  category: string;
  source: 'portal' | 'soc' | 'alarm';
  reporter: string;
  assignee: string | null;
  /** ISO-8601 UTC. */
  createdAt: string;
  updatedAt: string;
  resolvedAt: string | null;
}
export interface DemoDevice {
  tenantId: string;
  id: string;
  name: string;
  type: string;
  site: string;
  ipAddress: string;
  vendor: string;
  model: string;
  /** Minutes since the last heartbeat at `now`; null = never reported. */
  heartbeatAgeMinutes: number | null;
  /** Daily availability % (0–100) for the 30 days before `now`, oldest first. */
  dailyAvailability: number[];
  alarms: DemoAlarm[];
}
export interface DemoAlarm {
  id: string;
  severity: Severity;
  /** A title of the alarm-type catalogue (`DEVICE_ALARM_TYPES`). */
  title: string;
  state: 'active' | 'acknowledged' | 'cleared';
  /** ISO-8601 UTC. */
  raisedAt: string;
  /** Who acknowledged it and when (ISO-8601 UTC), after `raisedAt`: set on `acknowledged` alarms, else null. */
  acknowledgedBy: string | null;
  acknowledgedAt: string | null;
  /** When it cleared (ISO-8601 UTC, after `raisedAt`): set on `cleared` alarms, else null. */
  clearedAt: string | null;
}

export const DEMO_TENANTS: DemoTenant[] = [
  { id: 'acme', name: 'Acme Logística S.A.' },
  { id: 'globex', name: 'Globex Salud' },
];

export const DEMO_USERS: DemoUser[] = [
  { email: 'ana@acme.example', password: DEMO_PASSWORD, groups: ['acme', 'customer-admin'], description: 'customer of Acme Logística, its customer admin (docs/api.md#customer-roles)' },
  { email: 'vera@acme.example', password: DEMO_PASSWORD, groups: ['acme', 'customer-viewer'], description: 'customer of Acme Logística, a viewer: reads, changes nothing (docs/api.md#customer-roles)' },
  { email: 'bruno@globex.example', password: DEMO_PASSWORD, groups: ['globex'], description: 'customer of Globex Salud' },
  { email: 'admin@vigia.example', password: DEMO_PASSWORD, groups: ['admin'], description: 'staff (admin group; TOTP set up)', totp: true },
];

const seedOf = (s: string) => [...s].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) | 0, 7);

const INCIDENT_TEMPLATES: Array<{ title: string; category: string; description: string }> = [
  { title: 'Intento de acceso por fuerza bruta en la VPN', category: 'acceso', description: 'Se detectaron más de 500 intentos fallidos de autenticación contra el concentrador VPN desde varias IP externas.' },
  { title: 'Malware detectado en estación de trabajo', category: 'malware', description: 'El EDR bloqueó un ejecutable malicioso descargado desde un adjunto de correo.' },
  { title: 'Correo de phishing reportado por un usuario', category: 'phishing', description: 'Un usuario reportó un correo que suplanta al banco; se analizan enlaces y destinatarios.' },
  { title: 'Tráfico saliente anómalo hacia IP sospechosa', category: 'red', description: 'El firewall registra conexiones periódicas hacia una IP listada en inteligencia de amenazas.' },
  { title: 'Caída del firewall perimetral', category: 'disponibilidad', description: 'El firewall principal dejó de responder; la sede opera con el enlace de respaldo.' },
  { title: 'Certificado TLS próximo a expirar', category: 'vulnerabilidad', description: 'El certificado del portal público expira en menos de 15 días.' },
  { title: 'Inicio de sesión desde un país inusual (Office 365)', category: 'office365', description: 'Inicio de sesión correcto desde un país donde la organización no opera.' },
  { title: 'Regla de reenvío de correo sospechosa', category: 'office365', description: 'Se creó una regla que reenvía todo el correo de un buzón a una dirección externa.' },
  { title: 'Escaneo de puertos desde Internet', category: 'red', description: 'Escaneo masivo de puertos contra el rango público de la oficina central.' },
  { title: 'Vulnerabilidad crítica sin parchear en servidor', category: 'vulnerabilidad', description: 'El escaneo semanal encontró una vulnerabilidad crítica explotable remotamente.' },
  { title: 'Cuenta bloqueada tras múltiples intentos fallidos', category: 'acceso', description: 'La cuenta de un usuario se bloqueó por intentos fallidos repetidos.' },
  { title: 'Pérdida de enlace en switch de distribución', category: 'disponibilidad', description: 'Un puerto troncal del switch de distribución presenta caídas intermitentes.' },
];
const SEVERITY_WEIGHTS: Array<[Severity, number]> = [['critical', 0.1], ['high', 0.25], ['medium', 0.4], ['low', 0.25]];
const ANALYSTS = ['soc.maria@vigia.example', 'soc.jorge@vigia.example', 'soc.lucia@vigia.example'];

function weighted<T>(rnd: () => number, items: Array<[T, number]>): T {
  let r = rnd();
  for (const [v, w] of items) {
    if ((r -= w) < 0) return v;
  }
  return items[items.length - 1]![0];
}

const iso = (ms: number) => new Date(ms).toISOString();
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

/** ~40 incidents of a tenant spread over the 60 days before `now`; older ones mostly resolved/closed. */
export function demoIncidents(tenant: DemoTenant, reporter: string, now: number, count = 40): DemoIncident[] {
  const rnd = prng(seedOf(`incidents:${tenant.id}`));
  const out: DemoIncident[] = [];
  for (let i = 0; i < count; i++) {
    // Evenly spread, oldest first, with jitter; seq grows with time like a real counter.
    const ageMs = Math.floor(((count - i) / count) * 60 * DAY - rnd() * DAY * 0.8);
    const created = now - Math.max(ageMs, 30 * MIN);
    const tpl = pick(rnd, INCIDENT_TEMPLATES);
    const severity = weighted(rnd, SEVERITY_WEIGHTS);
    const ageDays = (now - created) / DAY;
    const status: IncidentStatus =
      ageDays > 20
        ? weighted(rnd, [['closed', 0.6], ['resolved', 0.35], ['on_hold', 0.05]])
        : ageDays > 5
          ? weighted(rnd, [['resolved', 0.45], ['in_progress', 0.3], ['on_hold', 0.15], ['closed', 0.1]])
          : weighted(rnd, [['new', 0.45], ['in_progress', 0.4], ['on_hold', 0.15]]);
    const resolved = status === 'resolved' || status === 'closed' ? created + Math.floor((0.5 + rnd() * 47) * HOUR) : null;
    const updated = resolved ?? (status === 'new' ? created : created + Math.floor(rnd() * Math.min(now - created, 2 * DAY)));
    out.push({
      tenantId: tenant.id,
      seq: i + 1,
      title: tpl.title,
      description: tpl.description,
      severity,
      status,
      category: tpl.category,
      source: weighted(rnd, [['soc', 0.6], ['alarm', 0.25], ['portal', 0.15]]),
      reporter: rnd() < 0.2 ? reporter : pick(rnd, ANALYSTS),
      assignee: status === 'new' ? null : pick(rnd, ANALYSTS),
      createdAt: iso(created),
      updatedAt: iso(Math.min(updated, now)),
      resolvedAt: resolved === null ? null : iso(Math.min(resolved, now)),
    });
  }
  return out;
}

/** The device models of the generated fleets (the demo data's and the bench's scale data): type, name prefix, vendor, model. */
export const DEVICE_KINDS: ReadonlyArray<{ type: string; prefix: string; vendor: string; model: string }> = [
  { type: 'firewall', prefix: 'FW', vendor: 'Fortinet', model: 'FortiGate 100F' },
  { type: 'switch', prefix: 'SW', vendor: 'Cisco', model: 'Catalyst 9200' },
  { type: 'access_point', prefix: 'AP', vendor: 'Ubiquiti', model: 'U6 Pro' },
  { type: 'server', prefix: 'SRV', vendor: 'Dell', model: 'PowerEdge R650' },
  { type: 'router', prefix: 'RT', vendor: 'MikroTik', model: 'CCR2004' },
  { type: 'vpn', prefix: 'VPN', vendor: 'Palo Alto', model: 'PA-440' },
];
const SITES: Record<string, string[]> = {
  acme: ['Madrid', 'Barcelona', 'Valencia'],
  globex: ['Sevilla', 'Bilbao', 'Zaragoza'],
};
/** Titles of the alarm types a device raises besides a lost heartbeat (one catalogue with the collector simulator). */
const ALARM_TITLES = Object.entries(DEVICE_ALARM_TYPES)
  .filter(([k]) => k !== 'heartbeat_lost')
  .map(([, t]) => t.title);

/** ~20 devices of a tenant: mostly online, a few degraded/offline, one that never reported. */
export function demoDevices(tenant: DemoTenant, now: number, count = 20): DemoDevice[] {
  const rnd = prng(seedOf(`devices:${tenant.id}`));
  const sites = SITES[tenant.id] ?? ['Central'];
  const tenantOctet = (Math.abs(seedOf(tenant.id)) % 200) + 10;
  return Array.from({ length: count }, (_, i) => {
    const kind = DEVICE_KINDS[i % DEVICE_KINDS.length]!;
    const site = sites[i % sites.length]!;
    const health = i === count - 1 ? 'never' : i % 9 === 4 ? 'offline' : i % 7 === 3 ? 'degraded' : 'online';
    const heartbeatAgeMinutes = health === 'never' ? null : health === 'offline' ? 60 + Math.floor(rnd() * 600) : health === 'degraded' ? 8 + Math.floor(rnd() * 5) : 0;
    const base = health === 'offline' ? 93 : health === 'degraded' ? 97.5 : 99.6;
    const dailyAvailability =
      health === 'never' ? [] : Array.from({ length: 30 }, () => Math.round(Math.min(100, base + (rnd() - 0.3) * (100 - base) * 1.4) * 100) / 100);
    const alarms: DemoAlarm[] = [];
    const nAlarms = health === 'online' ? (rnd() < 0.25 ? 1 : 0) : 1 + Math.floor(rnd() * 2);
    for (let a = 0; a < nAlarms; a++) {
      const state = health === 'online' ? 'cleared' : a === 0 ? 'active' : 'acknowledged';
      const severity: Severity = health === 'offline' ? 'critical' : weighted(rnd, [['high', 0.4], ['medium', 0.4], ['low', 0.2]]);
      const title = health === 'offline' && a === 0 ? DEVICE_ALARM_TYPES.heartbeat_lost.title : pick(rnd, ALARM_TITLES);
      const raised = now - Math.floor((heartbeatAgeMinutes ?? 60) * MIN + rnd() * 3 * DAY);
      // Acknowledged by an SOC analyst 10–40 min after it was raised; cleared within the next 2 hours (never after now).
      const later = (ms: number) => iso(Math.min(now, raised + ms));
      alarms.push({
        id: `ALM-${tenant.id}-${String(i + 1).padStart(2, '0')}-${a + 1}`,
        severity,
        title,
        state,
        raisedAt: iso(raised),
        acknowledgedBy: state === 'acknowledged' ? ANALYSTS[i % ANALYSTS.length]! : null,
        acknowledgedAt: state === 'acknowledged' ? later((10 + ((i * 7) % 31)) * MIN) : null,
        clearedAt: state === 'cleared' ? later(Math.min(2 * HOUR, (now - raised) / 2)) : null,
      });
    }
    return {
      tenantId: tenant.id,
      id: `dev-${String(i + 1).padStart(3, '0')}`,
      name: `${kind.prefix}-${site.slice(0, 3).toUpperCase()}-${String(i + 1).padStart(2, '0')}`,
      type: kind.type,
      site,
      ipAddress: `10.${tenantOctet}.${(i % sites.length) + 1}.${10 + i}`,
      vendor: kind.vendor,
      model: kind.model,
      heartbeatAgeMinutes,
      dailyAvailability,
      alarms,
    };
  });
}

/** People of a tenant's Office 365 (`<name>@<tenant>.example`), as the collector simulator uses them. */
export const O365_USERS = ['ana', 'luis', 'marta', 'pablo', 'sofia', 'admin.it'];
/** [workload, operation] pairs of the Office 365 unified audit log. */
export const O365_OPERATIONS: ReadonlyArray<readonly [string, string]> = [
  ['AzureActiveDirectory', 'UserLoggedIn'],
  ['AzureActiveDirectory', 'UserLoginFailed'],
  ['Exchange', 'New-InboxRule'],
  ['Exchange', 'MailItemsAccessed'],
  ['SharePoint', 'FileDownloaded'],
  ['OneDrive', 'AnonymousLinkCreated'],
  ['MicrosoftTeams', 'MemberAdded'],
];
/** [title, severity, category] of Office 365 alert policies. */
export const O365_ALERTS: ReadonlyArray<readonly [string, Severity, string]> = [
  ['Inicio de sesión desde un país inusual', 'high', 'identidad'],
  ['Regla de reenvío externo creada', 'high', 'exchange'],
  ['Descarga masiva de archivos', 'medium', 'datos'],
  ['Varios intentos de inicio de sesión fallidos', 'low', 'identidad'],
];
/** [title, rationale, priority, category] of the demo recommendations (ids `rec-demo-<tenant>-<1…4>`). */
export const DEMO_RECOMMENDATIONS: ReadonlyArray<readonly [string, string, Recommendation['priority'], string]> = [
  ['Activar MFA para todas las cuentas administrativas', 'Las cuentas con privilegios sin MFA son el principal vector de toma de control de Office 365.', 'high', 'identidad'],
  ['Bloquear el reenvío automático de correo a dominios externos', 'Las reglas de reenvío externas se usan para exfiltrar correo tras un phishing.', 'high', 'office365'],
  ['Actualizar el firmware de los firewalls perimetrales', 'Hay versiones con vulnerabilidades críticas publicadas para el modelo instalado.', 'medium', 'vulnerabilidades'],
  ['Revisar los enlaces anónimos de OneDrive', 'Los enlaces anónimos sin caducidad exponen documentos internos.', 'low', 'datos'],
];

/**
 * Operations of `O365_OPERATIONS` whose name states their outcome: the unified audit log records a failed
 * sign-in as `UserLoginFailed`, never as a failed `UserLoggedIn` (which is a successful sign-in).
 */
export const O365_OUTCOME_OF_OPERATION: Readonly<Record<string, 'Succeeded' | 'Failed'>> = {
  UserLoggedIn: 'Succeeded',
  UserLoginFailed: 'Failed',
};

/**
 * The result of a simulated Office 365 audit event (seed and collector simulator): the outcome named by the
 * operation (`O365_OUTCOME_OF_OPERATION`: `UserLoggedIn` always `Succeeded`, `UserLoginFailed` always
 * `Failed`); any other operation fails with probability `failRate` (0–1), drawn from `rnd` (drawn for every
 * operation but `UserLoginFailed`, so the seeded sequence does not depend on the outcome table);
 * docs/local-emulation.md#demo-data.
 */
export function o365Result(operation: string, rnd: () => number, failRate: number): 'Succeeded' | 'Failed' {
  if (operation === 'UserLoginFailed') return 'Failed';
  const drawn = rnd() < failRate ? 'Failed' : 'Succeeded';
  return O365_OUTCOME_OF_OPERATION[operation] ?? drawn;
}

/**
 * `count` Office 365 audit events of a tenant over the 14 days before `now`, newest last; ids
 * `o365-ev-demo-<tenant>-<nnn>`; about 1 in 7 failed; client IPs in 203.0.113.0/24 (documentation range).
 */
export function demoO365Events(tenant: DemoTenant, now: number, count = 60): Office365Event[] {
  const rnd = prng(seedOf(`o365-events:${tenant.id}`));
  return Array.from({ length: count }, (_, i) => {
    const [workload, operation] = pick(rnd, O365_OPERATIONS);
    const ageMs = Math.floor(((count - i) / count) * 14 * DAY - rnd() * 3 * HOUR);
    return {
      id: `o365-ev-demo-${tenant.id}-${String(i + 1).padStart(3, '0')}`,
      tenantId: tenant.id,
      workload,
      operation,
      user: `${pick(rnd, O365_USERS)}@${tenant.id}.example`,
      result: o365Result(operation, rnd, 0.05),
      clientIp: `203.0.113.${1 + Math.floor(rnd() * 250)}`,
      at: iso(now - Math.max(ageMs, 5 * MIN)),
    };
  });
}

/**
 * 6 Office 365 alerts of a tenant over the 10 days before `now`, oldest first: 3 resolved, 1 under
 * investigation, 2 active (the newest); ids `o365-demo-<tenant>-<n>`.
 */
export function demoO365Alarms(tenant: DemoTenant, now: number): Office365Alarm[] {
  const rnd = prng(seedOf(`o365-alarms:${tenant.id}`));
  const statuses: Office365Alarm['status'][] = ['resolved', 'resolved', 'resolved', 'investigating', 'active', 'active'];
  return statuses.map((status, i) => {
    const [title, severity, category] = O365_ALERTS[(i + (tenant.id.length % O365_ALERTS.length)) % O365_ALERTS.length]!;
    const detected = now - Math.floor(((statuses.length - i) / statuses.length) * 10 * DAY - rnd() * 6 * HOUR);
    const updated = status === 'active' ? detected : Math.min(now, detected + Math.floor((1 + rnd() * 20) * HOUR));
    return {
      id: `o365-demo-${tenant.id}-${i + 1}`,
      tenantId: tenant.id,
      title,
      severity,
      category,
      status,
      affectedUser: i === 2 ? null : `${pick(rnd, O365_USERS)}@${tenant.id}.example`,
      detectedAt: iso(detected),
      updatedAt: iso(updated),
    };
  });
}

/**
 * The `DEMO_RECOMMENDATIONS` of a tenant, created 20–5 days before `now`; all open except the third
 * (firmware), accepted by the tenant's user `acceptedBy` with a note.
 */
export function demoRecommendations(tenant: DemoTenant, now: number, acceptedBy: string): Recommendation[] {
  return DEMO_RECOMMENDATIONS.map(([title, rationale, priority, category], k) => {
    const createdAt = iso(now - (20 - 5 * k) * DAY);
    const accepted = k === 2;
    return {
      id: `rec-demo-${tenant.id}-${k + 1}`,
      tenantId: tenant.id,
      title,
      rationale,
      priority,
      category,
      status: accepted ? 'accepted' : 'open',
      createdAt,
      statusNote: accepted ? 'Planificado para la próxima ventana de mantenimiento.' : null,
      statusChangedBy: accepted ? acceptedBy : null,
      statusChangedAt: accepted ? iso(now - 2 * DAY) : null,
    };
  });
}
