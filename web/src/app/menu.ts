/**
 * The sidebar menu, exactly as spec §2 "Sidebar menu (Spanish)": groups with their entries and routes.
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
  { id: 'others', label: 'Otros', entries: [{ label: 'Recomendaciones', to: '/recommendations' }] },
];

/** The group whose entry matches `pathname` (`/` counts as Dashboard; `/ticket/…` as Incidentes). */
export function groupForPath(pathname: string): string | null {
  if (pathname === '/') return 'dashboard';
  if (pathname.startsWith('/ticket/')) return 'incidents';
  const g = SIDEBAR_MENU.find((group) => group.entries.some((e) => pathname === e.to || pathname.startsWith(`${e.to}/`)));
  return g?.id ?? null;
}
