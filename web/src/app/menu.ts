/**
 * The sidebar menu (docs/portal.md#shell): groups with their entries and routes; the "Analítica", "SOC" and
 * "Administración" groups are shown to `admin` members (staff) only.
 */
export interface MenuEntry {
  label: string;
  to: string;
}
export interface MenuGroup {
  /** Stable id (used for the submenu's element id). */
  id: string;
  label: string;
  entries: MenuEntry[];
  /** Shown only to members of these Cognito groups (e.g. `admin`); absent = everyone. */
  groups?: readonly string[];
}

export const SIDEBAR_MENU: readonly MenuGroup[] = [
  { id: 'dashboard', label: 'Dashboard', entries: [{ label: 'General', to: '/dashboard/general' }] },
  { id: 'reports', label: 'Reportes', entries: [{ label: 'General', to: '/reports/general' }] },
  {
    id: 'incidents',
    label: 'Incidentes',
    entries: [
      { label: 'Ver', to: '/incidents/all' },
      { label: 'Agregar', to: '/incidents/new' },
    ],
  },
  {
    id: 'devices',
    label: 'Dispositivos',
    entries: [
      { label: 'Estado', to: '/devices/status' },
      { label: 'Disponibilidad', to: '/devices/availability' },
      { label: 'Alarmas', to: '/devices/alarms' },
    ],
  },
  {
    id: 'office365',
    label: 'Office 365',
    entries: [
      { label: 'Alarmas', to: '/office365/alarms' },
      { label: 'Eventos', to: '/office365/events' },
    ],
  },
  {
    id: 'others',
    label: 'Otros',
    entries: [
      { label: 'Recomendaciones', to: '/recommendations' },
      { label: 'Registro de auditoría', to: '/audit' },
    ],
  },
  { id: 'analytics', label: 'Analítica', entries: [{ label: 'General', to: '/analytics' }], groups: ['admin'] },
  { id: 'soc', label: 'SOC', entries: [{ label: 'Cola SOC', to: '/soc/queue' }], groups: ['admin'] },
  {
    id: 'admin',
    label: 'Administración',
    entries: [
      { label: 'Clientes', to: '/admin/tenants' },
      { label: 'Personal SOC', to: '/admin/staff' },
    ],
    groups: ['admin'],
  },
];

/** The menu groups visible to a user in `userGroups` (Cognito groups from the ID token). */
export function menuFor(userGroups: readonly string[]): MenuGroup[] {
  return SIDEBAR_MENU.filter((g) => !g.groups || g.groups.some((x) => userGroups.includes(x)));
}

/** The group whose entry matches `pathname` (`/` counts as Dashboard; `/ticket/…` as Incidentes; `/devices/detail/…` as Dispositivos). */
export function groupForPath(pathname: string): string | null {
  if (pathname === '/') return 'dashboard';
  if (pathname.startsWith('/ticket/')) return 'incidents';
  if (pathname.startsWith('/devices/detail/')) return 'devices';
  if (pathname.startsWith('/admin/')) return 'admin';
  const g = SIDEBAR_MENU.find((group) => group.entries.some((e) => pathname === e.to || pathname.startsWith(`${e.to}/`)));
  return g?.id ?? null;
}
