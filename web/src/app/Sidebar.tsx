/**
 * Sidebar navigation (docs/portal.md#shell): groups with collapsible submenus. Submenus reset on every navigation
 * (only the current route's group stays open). On phones it is a drawer opened from the header
 * (`mobileOpen`), closed by the backdrop, Escape or any navigation; on desktop it can be collapsed.
 */
import { useEffect } from 'react';
import { NavLink, useLocation } from 'react-router-dom';
import { groupForPath, menuFor } from './menu';
import { useSession } from '../shared/lib/session';
import { useStateResetOn } from '../shared/lib/hooks';
import { useT } from '../shared/lib/messages';

export interface SidebarProps {
  mobileOpen: boolean;
  onClose: () => void;
}

export function Sidebar({ mobileOpen, onClose }: SidebarProps) {
  const { pathname } = useLocation();
  const session = useSession();
  const menu = menuFor(session.status === 'ready' ? session.user.groups : []);
  const t = useT();
  // Submenus reset on every navigation: only the current page's group stays open (docs/portal.md#shell).
  const [open, setOpen] = useStateResetOn<string | null, string>(pathname, groupForPath);

  useEffect(() => {
    if (!mobileOpen) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [mobileOpen, onClose]);

  return (
    <>
      {mobileOpen && <div className="sidebar-backdrop" data-testid="sidebar-backdrop" aria-hidden="true" onClick={onClose} />}
      <nav id="sidebar" className={`sidebar${mobileOpen ? ' is-open' : ''}`} aria-label={t('chrome.mainMenu')}>
        <ul className="menu">
          {menu.map((group) => {
            const expanded = open === group.id;
            const subId = `submenu-${group.id}`;
            return (
              <li key={group.id} className="menu-group">
                <button
                  type="button"
                  className="menu-group-toggle"
                  aria-expanded={expanded}
                  aria-controls={subId}
                  onClick={() => setOpen(expanded ? null : group.id)}
                >
                  <span>{t(group.label)}</span>
                  <span className="chevron" aria-hidden="true" />
                </button>
                <ul id={subId} className="submenu" hidden={!expanded}>
                  {group.entries.map((entry) => (
                    <li key={entry.to}>
                      <NavLink to={entry.to} className="menu-link" end>
                        {t(entry.label)}
                      </NavLink>
                    </li>
                  ))}
                </ul>
              </li>
            );
          })}
        </ul>
      </nav>
    </>
  );
}
