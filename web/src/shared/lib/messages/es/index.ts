/**
 * Spanish message catalogue of the signed-in portal (the default language). Keys are grouped by screen or
 * shared part; `en.ts` must have exactly the same keys (its type is `Catalogue`, derived from this object, so
 * a missing or extra key fails `tsc`). Interpolations use i18next's `{{name}}` syntax; plurals the `_one` /
 * `_other` suffixes. How texts are added and used: docs/portal.md#messages.
 */
import { incidents } from './incidents';
import { admin } from './admin';
import { audit } from './audit';
import { soc } from './soc';
import { dashboard } from './dashboard';
import { devices } from './devices';
import { calendar } from './calendar';
import { account } from './account';
import { settings } from './settings';
import { notifications } from './notifications';
import { search } from './search';
import { office365 } from './office365';
import { recommendations } from './recommendations';
import { reports } from './reports';
import { analytics } from './analytics';
import { ui } from './ui';
import { escalation } from './escalation';
import { team } from './team';
import { maintenance } from './maintenance';
import { fields } from './fields';
import { actions } from './actions';

export const es = {
  chrome: {
    skipToContent: 'Saltar al contenido',
    openMenu: 'Abrir menú',
    closeMenu: 'Cerrar menú',
    collapseSidebar: 'Contraer menú lateral',
    mainMenu: 'Menú principal',
    notifications: 'Notificaciones',
    account: 'Cuenta',
    search: 'Buscar',
    openSearch: 'Abrir búsqueda',
    searchPlaceholder: 'Buscar…',
    tenant: 'Cliente',
    brandTag: 'CLIENTE',
    userFallback: 'User',
    footer: '© {{year}} {{brand}} Security Group',
    profile: 'Perfil',
    calendar: 'Calendario',
    settings: 'Configuración',
    passwordChange: 'Cambiar contraseña',
    signOut: 'Cerrar sesión',
  },
  menu: {
    office365: 'Office 365',
    auditLog: 'Registro de auditoría',
    escalationContacts: 'Contactos de escalado',
    team: 'Usuarios',
    maintenance: 'Mantenimiento',
    socQueue: 'Cola SOC',
    alarmConsole: 'Consola de alarmas',
    tenants: 'Clientes',
    staff: 'Personal SOC',
    accessRequests: 'Solicitudes de acceso',
    dashboard: 'Dashboard',
    overview: 'General',
    reports: 'Reportes',
    incidents: 'Incidentes',
    view: 'Ver',
    add: 'Agregar',
    devices: 'Dispositivos',
    status: 'Estado',
    availability: 'Disponibilidad',
    alarms: 'Alarmas',
    events: 'Eventos',
    other: 'Otros',
    recommendations: 'Recomendaciones',
    analytics: 'Analítica',
    soc: 'SOC',
    admin: 'Administración',
  },
  enums: {
    severity: { critical: 'Crítica', high: 'Alta', medium: 'Media', low: 'Baja' },
    incidentStatus: { new: 'Nuevo', in_progress: 'En curso', on_hold: 'En espera', resolved: 'Resuelto', closed: 'Cerrado' },
    deviceStatus: { online: 'En línea', degraded: 'Degradado', offline: 'Fuera de línea', unknown: 'Desconocido' },
    deviceType: {
      firewall: 'Cortafuegos',
      switch: 'Switch',
      access_point: 'Punto de acceso',
      server: 'Servidor',
      router: 'Router',
      vpn: 'Concentrador VPN',
    },
    alarmState: { active: 'Activa', acknowledged: 'Reconocida', cleared: 'Resuelta' },
    alarmKind: {
      device: 'Dispositivo',
      office365: 'Office 365',
    },
    o365AlertStatus: {
      active: 'Activa',
      investigating: 'En investigación',
      resolved: 'Resuelta',
    },
    o365Result: {
      Succeeded: 'Correcto',
      Failed: 'Fallido',
      PartiallySucceeded: 'Parcial',
    },
    alarmConsoleState: {
      open: 'Abierta',
      acknowledged: 'Reconocida',
      cleared: 'Borrada',
    },
    recommendationStatus: {
      open: 'Abierta',
      accepted: 'Aceptada',
      dismissed: 'Descartada',
      done: 'Completada',
    },
    recommendationPriority: {
      high: 'Alta',
      medium: 'Media',
      low: 'Baja',
    },
    customerRole: {
      viewer: 'Lectura',
      operator: 'Operador',
      admin: 'Administrador',
    },
    maintenanceWindowStatus: {
      upcoming: 'Próxima',
      active: 'En curso',
      past: 'Finalizada',
    },
    activitySeverity: {
      info: 'Información',
    },
    webhookFormat: { teams: 'Microsoft Teams', slack: 'Slack', json: 'JSON firmado' },
    webhookDeliveryState: { sending: 'Enviando', sent: 'Entregado', failed: 'Fallido, se reintentará', dead: 'Fallido, sin más reintentos' },
    userStatus: {
      invited: 'Invitado (contraseña temporal)',
      active: 'Activo',
      disabled: 'Deshabilitado',
      federated: 'Activo (cuenta de empresa)',
      pending: 'Pendiente',
      resetRequired: 'Debe restablecer la contraseña',
      unconfirmed: 'Sin confirmar',
    },
    incidentSource: { portal: 'Portal', soc: 'SOC', alarm: 'Alarma' },
  },
  common: {
    loading: 'Cargando…',
    retry: 'Reintentar',
    noRecords: 'No hay registros',
    periods: {
      last24Hours: 'Últimas 24 horas',
      last7Days: 'Últimos 7 días',
      last30Days: 'Últimos 30 días',
      last90Days: 'Últimos 90 días',
    },
    details: 'Detalles',
    noData: 'Sin datos',
  },
  actions,
  fields,
  incidents,
  escalation,
  team,
  maintenance,
  admin,
  audit,
  soc,
  dashboard,
  devices,
  calendar,
  account,
  settings,
  notifications,
  search,
  office365,
  recommendations,
  reports,
  analytics,
  ui,
};

/** The shape every language's catalogue has: the Spanish one's keys, every leaf a string. */
export type Catalogue = Strings<typeof es>;
type Strings<T> = { [K in keyof T]: T[K] extends string ? string : Strings<T[K]> };
