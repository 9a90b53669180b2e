/**
 * The sidebar menu (docs/portal.md#shell): groups with their entries and routes; the "Analítica", "SOC" and
 * "Administración" groups are shown to `admin` members (staff) only, "Usuarios" to customer admins only.
 */
import type { MessageKey } from '../shared/lib/messages';

export interface MenuEntry {
  /** Catalogue key of the entry's text (docs/portal.md#messages). */
  label: MessageKey;
  to: string;
}
export interface MenuGroup {
  /** Stable id (used for the submenu's element id). */
  id: string;
  /** Catalogue key of the group's text. */
  label: MessageKey;
  entries: MenuEntry[];
  /** Shown only to members of these Cognito groups (e.g. `admin`); absent = everyone. */
  groups?: readonly string[];
}

export const SIDEBAR_MENU: readonly MenuGroup[] = [
  { id: 'dashboard', label: 'menu.dashboard', entries: [{ label: 'menu.overview', to: '/dashboard/general' }] },
  { id: 'reports', label: 'menu.reports', entries: [{ label: 'menu.overview', to: '/reports/general' }] },
  {
    id: 'incidents',
    label: 'menu.incidents',
    entries: [
      { label: 'menu.view', to: '/incidents/all' },
      { label: 'menu.add', to: '/incidents/new' },
    ],
  },
  {
    id: 'devices',
    label: 'menu.devices',
    entries: [
      { label: 'menu.status', to: '/devices/status' },
      { label: 'menu.availability', to: '/devices/availability' },
      { label: 'menu.alarms', to: '/devices/alarms' },
      { label: 'menu.maintenance', to: '/devices/maintenance' },
    ],
  },
  {
    id: 'office365',
    label: 'menu.office365',
    entries: [
      { label: 'menu.alarms', to: '/office365/alarms' },
      { label: 'menu.events', to: '/office365/events' },
    ],
  },
  {
    id: 'others',
    label: 'menu.other',
    entries: [
      { label: 'menu.recommendations', to: '/recommendations' },
      { label: 'menu.escalationContacts', to: '/escalation-contacts' },
      { label: 'menu.auditLog', to: '/audit' },
    ],
  },
  // A customer admin's own users (docs/portal.md#team); staff use Administración → Clientes instead.
  { id: 'team', label: 'menu.team', entries: [{ label: 'menu.team', to: '/team' }], groups: ['customer-admin'] },
  { id: 'analytics', label: 'menu.analytics', entries: [{ label: 'menu.overview', to: '/analytics' }], groups: ['admin'] },
  { id: 'soc', label: 'menu.soc', entries: [{ label: 'menu.socQueue', to: '/soc/queue' }, { label: 'menu.alarmConsole', to: '/soc/alarms' }], groups: ['admin'] },
  {
    id: 'admin',
    label: 'menu.admin',
    entries: [
      { label: 'menu.tenants', to: '/admin/tenants' },
      { label: 'menu.staff', to: '/admin/staff' },
      { label: 'menu.accessRequests', to: '/admin/access-requests' },
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
