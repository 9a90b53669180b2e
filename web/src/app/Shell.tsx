/**
 * The signed-in layout (docs/portal.md#shell): skip link, header, sidebar, main content, footer.
 * Every navigation closes the mobile sidebar and scrolls to the top. The content waits for
 * `GET /me` (the active tenant) and shows its error with "Reintentar". Collapse state, layout toggles, theme and
 * chrome language come from the per-browser preferences (`features/settings/preferences`).
 */
import { useCallback, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { Header } from './Header';
import { Sidebar } from './Sidebar';
import { useTenant } from '../shared/lib/tenant';
import { useSession } from '../shared/lib/session';
import { useStateResetOn } from '../shared/lib/hooks';
import { ErrorState, LoadingState } from '../shared/ui/states';
import { useT } from '../shared/lib/messages';
import { updatePreferences, usePreferences } from '../features/settings/preferences';
import '../features/settings/settings.css';

export function Shell({ brandName }: { brandName: string }) {
  const session = useSession();
  const email = session.status === 'ready' ? session.user.email : '';
  const { pathname } = useLocation();
  // The mobile sidebar closes on every navigation (docs/portal.md#shell).
  const [mobileOpen, setMobileOpen] = useStateResetOn(pathname, () => false);
  const { sidebarCollapsed: collapsed } = usePreferences();
  const t = useT();
  const tenant = useTenant();

  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);

  const closeMobile = useCallback(() => setMobileOpen(false), [setMobileOpen]);
  const toggleCollapsed = () => updatePreferences({ sidebarCollapsed: !collapsed });

  return (
    <div className={`app${collapsed ? ' sidebar-collapsed' : ''}`}>
      <a href="#main-content" className="skip-link">
        {t('chrome.skipToContent')}
      </a>
      <Header
        brandName={brandName}
        email={email}
        sidebarCollapsed={collapsed}
        onToggleCollapsed={toggleCollapsed}
        mobileOpen={mobileOpen}
        onToggleMobile={() => setMobileOpen((o) => !o)}
      />
      <div className="app-body">
        <Sidebar mobileOpen={mobileOpen} onClose={closeMobile} />
        <main id="main-content" className="app-main" tabIndex={-1}>
          {tenant.meError ? (
            <ErrorState error={tenant.meError} onRetry={tenant.retry} />
          ) : tenant.isLoading ? (
            <LoadingState />
          ) : (
            <Outlet />
          )}
        </main>
      </div>
      <footer className="app-footer">
        {t('chrome.footer', { year: new Date().getFullYear(), brand: brandName })}
      </footer>
    </div>
  );
}
