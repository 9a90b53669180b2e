/**
 * The portal's route table (docs/portal.md#routes). Product routes render inside the shell behind the group guard;
 * `/analytics`, `/soc/queue`, `/soc/alarms` and `/admin/*` need `admin` (staff); unknown paths and the template leftovers (/email/*, /pos/*, /ui/*, …)
 * show the error screen; `/page/login` and `/page/register` while signed in go to `/`.
 */
import { lazy, Suspense } from 'react';
import type { ReactNode } from 'react';
import { Link, Navigate, Route, Routes } from 'react-router-dom';
import { ADMIN_GROUP } from '../shared/lib/contract';
import { ComingSoonPage, PageHeader } from '../shared/ui/states';
import { useT } from '../shared/lib/messages';
import type { MessageKey } from '../shared/lib/messages';
import { RequireGroupMembership, RequireGroups } from './guards';
import { Shell } from './Shell';
import { LoadingState } from '../shared/ui/states';
import { NewIncidentPage } from '../features/incidents/NewIncidentPage';
import { IncidentDetailPage } from '../features/incidents/IncidentDetailPage';
import { DeviceStatusPage } from '../features/devices/DeviceStatusPage';
import { DevicePage } from '../features/devices/DevicePage';
import { LogoutPage } from '../features/account/LogoutPage';
import { ProfilePage } from '../features/account/ProfilePage';
import { PasswordChangePage } from '../features/account/PasswordChangePage';
import { SettingsPage } from '../features/settings/SettingsPage';
// The first screen after a sign-in: preloaded by the sign-in (dashboard-route.ts), so it needs no loading state then.
import { DashboardPage } from './dashboard-route';

// Business screens load as their own chunks (charts and their d3 parts stay out of the shell's chunk).
const IncidentListPage = lazy(() => import('../features/incidents/IncidentListPage').then((m) => ({ default: m.IncidentListPage })));
const DeviceAvailabilityPage = lazy(() => import('../features/devices/DeviceAvailabilityPage').then((m) => ({ default: m.DeviceAvailabilityPage })));
const DeviceAlarmsPage = lazy(() => import('../features/devices/DeviceAlarmsPage').then((m) => ({ default: m.DeviceAlarmsPage })));
const MaintenancePage = lazy(() => import('../features/devices/MaintenancePage').then((m) => ({ default: m.MaintenancePage })));
const CalendarPage = lazy(() => import('../features/calendar/CalendarPage').then((m) => ({ default: m.CalendarPage })));
const RecommendationsPage = lazy(() => import('../features/recommendations/RecommendationsPage').then((m) => ({ default: m.RecommendationsPage })));
const Office365AlarmsPage = lazy(() => import('../features/office365/Office365Pages').then((m) => ({ default: m.Office365AlarmsPage })));
const Office365EventsPage = lazy(() => import('../features/office365/Office365Pages').then((m) => ({ default: m.Office365EventsPage })));
const ReportsPage = lazy(() => import('../features/reports/ReportsPage').then((m) => ({ default: m.ReportsPage })));
const AnalyticsPage = lazy(() => import('../features/analytics/AnalyticsPage').then((m) => ({ default: m.AnalyticsPage })));
const EscalationContactsPage = lazy(() => import('../features/escalation/EscalationContactsPage').then((m) => ({ default: m.EscalationContactsPage })));
const TeamPage = lazy(() => import('../features/team/TeamPage').then((m) => ({ default: m.TeamPage })));
const SocQueuePage = lazy(() => import('../features/soc/SocQueuePage').then((m) => ({ default: m.SocQueuePage })));
const AlarmConsolePage = lazy(() => import('../features/soc/AlarmConsolePage').then((m) => ({ default: m.AlarmConsolePage })));
const TenantsPage = lazy(() => import('../features/admin/AdminPages').then((m) => ({ default: m.TenantsPage })));
const TenantAdminPage = lazy(() => import('../features/admin/AdminPages').then((m) => ({ default: m.TenantAdminPage })));
const StaffPage = lazy(() => import('../features/admin/AdminPages').then((m) => ({ default: m.StaffPage })));
const AccessRequestsPage = lazy(() => import('../features/admin/AccessRequestsPage').then((m) => ({ default: m.AccessRequestsPage })));
const AuditLogPage = lazy(() => import('../features/audit/AuditLogPage').then((m) => ({ default: m.AuditLogPage })));
const ActivityFeedPage = lazy(() => import('../features/notifications/ActivityFeedPage').then((m) => ({ default: m.ActivityFeedPage })));
const NotificationPreferencesPage = lazy(() => import('../features/notifications/NotificationPreferencesPage').then((m) => ({ default: m.NotificationPreferencesPage })));
const WebhooksPage = lazy(() => import('../features/notifications/WebhooksPage').then((m) => ({ default: m.WebhooksPage })));
const SearchResultsPage = lazy(() => import('../features/search/SearchResultsPage').then((m) => ({ default: m.SearchResultsPage })));

/** A lazily loaded screen with the standard loading state while its chunk downloads. */
function Screen({ children }: { children: ReactNode }) {
  return <Suspense fallback={<LoadingState />}>{children}</Suspense>;
}

/** Product routes that show "Próximamente" for now: path → catalogue key of the page title. */
export const COMING_SOON_ROUTES: Readonly<Record<string, MessageKey>> = {
  '/page/coming-soon': 'ui.states.comingSoonTitle',
};

export function AppRoutes({ brandName }: { brandName: string }) {
  const t = useT();
  return (
    <Routes>
      <Route path="/page/login" element={<Navigate to="/" replace />} />
      <Route path="/page/register" element={<Navigate to="/" replace />} />
      <Route path="/page/logout" element={<LogoutPage />} />
      <Route
        element={
          <RequireGroupMembership>
            <Shell brandName={brandName} />
          </RequireGroupMembership>
        }
      >
        <Route index element={<Screen><DashboardPage /></Screen>} />
        <Route path="/dashboard/general" element={<Screen><DashboardPage /></Screen>} />
        <Route path="/incidents/all" element={<Screen><IncidentListPage /></Screen>} />
        <Route path="/incidents/new" element={<NewIncidentPage />} />
        <Route path="/ticket/update/:id" element={<IncidentDetailPage />} />
        <Route path="/devices/status" element={<DeviceStatusPage />} />
        <Route path="/devices/availability" element={<Screen><DeviceAvailabilityPage /></Screen>} />
        <Route path="/devices/alarms" element={<Screen><DeviceAlarmsPage /></Screen>} />
        <Route path="/devices/maintenance" element={<Screen><MaintenancePage /></Screen>} />
        <Route path="/devices/detail/:id" element={<DevicePage />} />
        <Route path="/reports/general" element={<Screen><ReportsPage /></Screen>} />
        <Route path="/recommendations" element={<Screen><RecommendationsPage /></Screen>} />
        <Route path="/office365/alarms" element={<Screen><Office365AlarmsPage /></Screen>} />
        <Route path="/office365/events" element={<Screen><Office365EventsPage /></Screen>} />
        <Route path="/calendar" element={<Screen><CalendarPage /></Screen>} />
        <Route path="/page/search-results" element={<Screen><SearchResultsPage /></Screen>} />
        <Route path="/profile" element={<ProfilePage />} />
        <Route path="/settings" element={<SettingsPage />} />
        <Route path="/page/passwordchange" element={<PasswordChangePage />} />
        <Route path="/audit" element={<Screen><AuditLogPage /></Screen>} />
        <Route path="/escalation-contacts" element={<Screen><EscalationContactsPage /></Screen>} />
        <Route path="/team" element={<Screen><TeamPage /></Screen>} />
        <Route path="/notifications" element={<Screen><ActivityFeedPage /></Screen>} />
        <Route path="/notifications/preferences" element={<Screen><NotificationPreferencesPage /></Screen>} />
        <Route path="/notifications/webhooks" element={<Screen><WebhooksPage /></Screen>} />
        {(
          [
            ['/soc/queue', <SocQueuePage key="q" />],
            ['/soc/alarms', <AlarmConsolePage key="ac" />],
            ['/admin/tenants', <TenantsPage key="t" />],
            ['/admin/tenants/:tenantId', <TenantAdminPage key="ta" />],
            ['/admin/staff', <StaffPage key="s" />],
            ['/admin/access-requests', <AccessRequestsPage key="ar" />],
          ] as const
        ).map(([path, page]) => (
          <Route
            key={path}
            path={path}
            element={
              <RequireGroups groups={[ADMIN_GROUP]}>
                <Screen>{page}</Screen>
              </RequireGroups>
            }
          />
        ))}
        <Route
          path="/analytics"
          element={
            <RequireGroups groups={[ADMIN_GROUP]}>
              <Screen>
                <AnalyticsPage />
              </Screen>
            </RequireGroups>
          }
        />
        {Object.entries(COMING_SOON_ROUTES).map(([path, title]) => (
          <Route key={path} path={path} element={<ComingSoonPage title={t(title)} />} />
        ))}
        <Route path="/page/error" element={<NotFoundPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}

/** The error screen (`/page/error` and any unknown path). */
export function NotFoundPage() {
  const t = useT();
  return (
    <section className="not-found">
      <PageHeader title={t('ui.notFoundPage.title')} />
      <p>{t('ui.notFoundPage.text')}</p>
      <p>
        <Link to="/" className="btn">
          {t('ui.notFoundPage.home')}
        </Link>
      </p>
    </section>
  );
}
