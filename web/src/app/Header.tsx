/**
 * Header (docs/portal.md#header): menu toggles, brand "<brand> CLIENTE" → `/`, search form →
 * `/page/search-results?q=…`, tenant picker (several tenants or admin), notifications dropdown (latest alarms and incident changes from
 * the API, `features/notifications`; empty state "No hay registros") and the profile menu with the user's e-mail ("User" when empty).
 */
import { useState } from 'react';
import type { FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { Disclosure } from '../shared/ui/Disclosure';
import { useTenant } from '../shared/lib/tenant';
import { NotificationsPanel } from '../features/notifications/NotificationsPanel';
import { translateChrome } from '../shared/lib/i18n';
import { usePreferences } from '../features/settings/preferences';

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
  { label: 'Perfil', to: '/profile' },
  { label: 'Configuración', to: '/settings' },
  { label: 'Cambiar contraseña', to: '/page/passwordchange' },
  { label: 'Cerrar sesión', to: '/page/logout' },
] as const;

export function Header({ brandName, email, sidebarCollapsed, onToggleCollapsed, mobileOpen, onToggleMobile }: HeaderProps) {
  const location = useLocation();
  const { language } = usePreferences();
  const tr = (text: string) => translateChrome(text, language);
  return (
    <header className="app-header">
      <button
        type="button"
        className="icon-btn mobile-only"
        aria-controls="sidebar"
        aria-expanded={mobileOpen}
        onClick={onToggleMobile}
      >
        <span className="hamburger" aria-hidden="true" />
        <span className="visually-hidden">{tr(mobileOpen ? 'Cerrar menú' : 'Abrir menú')}</span>
      </button>
      <button
        type="button"
        className="icon-btn desktop-only"
        aria-controls="sidebar"
        aria-pressed={sidebarCollapsed}
        onClick={onToggleCollapsed}
      >
        <span className="hamburger" aria-hidden="true" />
        <span className="visually-hidden">{tr('Contraer menú lateral')}</span>
      </button>
      <Link to="/" className="brand">
        {brandName} <span className="brand-tag">CLIENTE</span>
      </Link>
      <SearchForm />
      <div className="header-end">
        <TenantPicker />
        <Disclosure
          label={<span className="bell" aria-hidden="true" />}
          ariaLabel={tr('Notificaciones')}
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
              <span className="profile-email">{email || 'User'}</span>
            </>
          }
          buttonClassName="profile-btn"
          panelClassName="dropdown-end"
          closeSignal={location.pathname}
        >
          {(close) => (
            <ul className="dropdown-list" aria-label={tr('Cuenta')}>
              {PROFILE_LINKS.map((l) => (
                <li key={l.to}>
                  <Link to={l.to} onClick={close}>
                    {tr(l.label)}
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

function SearchForm() {
  const navigate = useNavigate();
  const [q, setQ] = useState('');
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    navigate(`/page/search-results?q=${encodeURIComponent(q.trim())}`);
  };
  return (
    <form role="search" className="header-search" onSubmit={onSubmit}>
      <label htmlFor="header-search-input" className="visually-hidden">
        Buscar
      </label>
      <input
        id="header-search-input"
        type="search"
        placeholder="Buscar…"
        value={q}
        onChange={(e) => setQ(e.target.value)}
      />
      <button type="submit" className="visually-hidden">
        Buscar
      </button>
    </form>
  );
}

function TenantPicker() {
  const { canPick, tenants, activeTenant, setActiveTenant } = useTenant();
  if (!canPick) return null;
  return (
    <div className="tenant-picker">
      <label htmlFor="tenant-picker">Cliente</label>
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
