/**
 * Header (docs/portal.md#header): menu toggles, brand "<brand> CLIENTE" → `/`, search form →
 * `/page/search-results?q=…`, tenant picker (several tenants or admin), notifications dropdown (the bell with the unread count and
 * the latest activity events, `features/notifications`; empty state "No hay registros") and the profile menu with the user's e-mail ("User" when empty).
 */
import { useEffect, useRef, useState } from 'react';
import type { FormEvent, KeyboardEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { Disclosure } from '../shared/ui/Disclosure';
import { useTenant } from '../shared/lib/tenant';
import { NotificationsBell, NotificationsPanel, useBellLabel } from '../features/notifications/NotificationsPanel';
import { useT } from '../shared/lib/messages';

export interface HeaderProps {
  brandName: string;
  email: string;
  sidebarCollapsed: boolean;
  onToggleCollapsed: () => void;
  mobileOpen: boolean;
  onToggleMobile: () => void;
}

/** Links of the profile menu (docs/portal.md#header). */
export const PROFILE_LINKS = [
  { label: 'chrome.profile', to: '/profile' },
  { label: 'chrome.calendar', to: '/calendar' },
  { label: 'chrome.settings', to: '/settings' },
  { label: 'chrome.passwordChange', to: '/page/passwordchange' },
  { label: 'chrome.signOut', to: '/page/logout' },
] as const;

export function Header({ brandName, email, sidebarCollapsed, onToggleCollapsed, mobileOpen, onToggleMobile }: HeaderProps) {
  const location = useLocation();
  const t = useT();
  const bellLabel = useBellLabel();
  return (
    <header className="app-header">
      <SidebarButton className="mobile-only" aria-expanded={mobileOpen} label={t(mobileOpen ? 'chrome.closeMenu' : 'chrome.openMenu')} onClick={onToggleMobile} />
      <SidebarButton className="desktop-only" aria-pressed={sidebarCollapsed} label={t('chrome.collapseSidebar')} onClick={onToggleCollapsed} />
      <Link to="/" className="brand">
        {brandName} <span className="brand-tag">{t('chrome.brandTag')}</span>
      </Link>
      <SearchForm />
      <div className="header-end">
        <TenantPicker />
        <Disclosure
          label={<NotificationsBell />}
          ariaLabel={bellLabel}
          buttonClassName="icon-btn"
          panelClassName="dropdown-end"
          closeSignal={location.pathname}
        >
          {(close) => <NotificationsPanel onNavigate={close} />}
        </Disclosure>
        <Disclosure
          label={
            <>
              <span className="avatar" aria-hidden="true">
                {(email || 'U').charAt(0).toUpperCase()}
              </span>
              <span className="profile-email">{email || t('chrome.userFallback')}</span>
            </>
          }
          buttonClassName="profile-btn"
          panelClassName="dropdown-end"
          closeSignal={location.pathname}
        >
          {(close) => (
            <ul className="dropdown-list" aria-label={t('chrome.account')}>
              {PROFILE_LINKS.map((l) => (
                <li key={l.to}>
                  <Link to={l.to} onClick={close}>
                    {t(l.label)}
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </Disclosure>
      </div>
    </header>
  );
}

/**
 * Header search (submits to `/page/search-results?q=`). Under 640 px the field is hidden behind an "Abrir búsqueda"
 * toggle button (aria-expanded) that opens it below the header and focuses it; Escape or a search closes it
 * (docs/portal.md#header).
 */
/** A hamburger icon button that opens/closes (`aria-expanded`) or collapses (`aria-pressed`) the sidebar; `label` is for screen readers. */
function SidebarButton({ className, label, onClick, ...state }: { className: string; label: string; onClick: () => void; 'aria-expanded'?: boolean; 'aria-pressed'?: boolean }) {
  return (
    <button type="button" className={`icon-btn ${className}`} aria-controls="sidebar" {...state} onClick={onClick}>
      <span className="hamburger" aria-hidden="true" />
      <span className="visually-hidden">{label}</span>
    </button>
  );
}

function SearchForm() {
  const navigate = useNavigate();
  const location = useLocation();
  const [q, setQ] = useState('');
  // Open on the page where it was opened only: navigating elsewhere folds it.
  const [openAt, setOpenAt] = useState<string | null>(null);
  const open = openAt === location.pathname;
  const setOpen = (next: boolean) => setOpenAt(next ? location.pathname : null);
  const input = useRef<HTMLInputElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const t = useT();
  useEffect(() => {
    if (open) input.current?.focus();
  }, [open]);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setOpen(false);
    navigate(`/page/search-results?q=${encodeURIComponent(q.trim())}`);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && open) {
      setOpen(false);
      toggle.current?.focus();
    }
  };
  return (
    <>
      <button
        ref={toggle}
        type="button"
        className="icon-btn search-toggle"
        aria-expanded={open}
        aria-controls="header-search-form"
        onClick={() => setOpen(!open)}
      >
        <span className="search-icon" aria-hidden="true" />
        <span className="visually-hidden">{t('chrome.openSearch')}</span>
      </button>
      <form id="header-search-form" role="search" className={open ? 'header-search open' : 'header-search'} onSubmit={onSubmit} onKeyDown={onKeyDown}>
        <label htmlFor="header-search-input" className="visually-hidden">
          {t('chrome.search')}
        </label>
        <input
          ref={input}
          id="header-search-input"
          type="search"
          placeholder={t('chrome.searchPlaceholder')}
          value={q}
          onChange={(e) => setQ(e.target.value)}
        />
        <button type="submit" className="visually-hidden">
          {t('chrome.search')}
        </button>
      </form>
    </>
  );
}

function TenantPicker() {
  const { canPick, tenants, activeTenant, setActiveTenant } = useTenant();
  const t = useT();
  if (!canPick) return null;
  return (
    <div className="tenant-picker">
      <label htmlFor="tenant-picker">{t('chrome.tenant')}</label>
      <select id="tenant-picker" value={activeTenant ?? ''} onChange={(e) => setActiveTenant(e.target.value)}>
        {tenants.map((t) => (
          <option key={t.id} value={t.id}>
            {t.name || t.id}
          </option>
        ))}
      </select>
    </div>
  );
}
