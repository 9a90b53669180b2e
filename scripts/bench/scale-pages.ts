/**
 * The portal's page views, as the API calls each page makes today (docs/benchmarks.md#scale). The scale
 * section (`scale.ts`) runs each page's calls — all at once, as the page's hooks do, each `all` call paging
 * sequentially like `useAllPages` — and a page view's figures are the sums over its calls.
 *
 * Keep this table equal to the portal: when a page changes the calls it makes (`web/src/features/<page>/`
 * and its `api.ts`), change its row here. Calls every signed-in page makes once per session (`GET /me`
 * for the tenant picker) and the notifications panel are not part of a page.
 */
import type { OperationId } from '../../lambdas/contract/routes.js';

/** What the query builders of a page call get: the tenant, "now" and a few ids of the generated data. */
export interface PageContext {
  /** The scale tenant (its id goes in `tenant=`). */
  tenantId: string;
  /** Reference time of the run, ms since epoch. */
  now: number;
  /** A device of the tenant (its page, its name for the incident search). */
  deviceId: string;
  deviceName: string;
  /** The search box's text of the search page. */
  searchText: string;
}

/** One API call of a page. */
export interface PageCall {
  operationId: OperationId;
  /** Query parameters besides `tenant` (tenant-scoped routes get `tenant=<tenantId>` added). */
  query?: (ctx: PageContext) => Record<string, string>;
  /** Path parameters. */
  params?: (ctx: PageContext) => Record<string, string>;
  /**
   * `useAllPages`: pages of 100 items (`limit=100`) following `nextCursor` until it ends or 1,000 items
   * were read (`web/src/shared/ui/useAllPages.ts`); otherwise one call (its `limit` in `query`).
   */
  all?: boolean;
}

/** One page of the portal and the calls it makes when opened. */
export interface PageView {
  /** Stable id, e.g. `dashboard` (budget ids: `scale.page-requests:dashboard`). */
  page: string;
  /** Where in the portal, and the source of its calls. */
  description: string;
  /** Who opens it: a customer of the tenant, or staff (`admin`). */
  as: 'customer' | 'admin';
  calls: PageCall[];
}

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
/** `periodQuery` of a preset period of `days` UTC days ending today (web/src/shared/ui/report.tsx): 00:00 UTC of today − (days − 1) to now. The route variants of `scale.ts` use it too. */
export const lastDays = (days: number) => (c: PageContext) => ({ from: iso((Math.floor(c.now / DAY) - (days - 1)) * DAY), to: iso(c.now) });
/** The month's first and last day (`yyyy-mm-dd`): the calendar's summary series. */
const monthDays = (now: number) => {
  const d = new Date(now);
  return { from: iso(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)).slice(0, 10), to: iso(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).slice(0, 10) };
};
/** The calendar's grid of the current month (`monthGrid`, local time = UTC here): first to last day. */
const monthGrid = (now: number) => {
  const d = new Date(now);
  return { from: iso(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)), to: iso(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) - 1) };
};

/** The page views measured by the scale section. */
export const PAGE_VIEWS: readonly PageView[] = [
  {
    page: 'dashboard',
    description: 'Panel (`features/dashboard/api.ts`): the summary, one page of open alarms, one of newest incidents',
    as: 'customer',
    calls: [
      { operationId: 'getSummary' },
      { operationId: 'listAlarms', query: () => ({ state: 'active,acknowledged', limit: '5' }) },
      { operationId: 'listIncidents', query: () => ({ limit: '20' }) },
    ],
  },
  {
    page: 'calendar',
    description: "Calendario (`features/calendar/CalendarPage.tsx`): the month's day counts from the summary, one page of the month's incidents and one of its alarms",
    as: 'customer',
    calls: [
      { operationId: 'getSummary', query: (c) => monthDays(c.now) },
      { operationId: 'listIncidents', query: (c) => ({ ...monthGrid(c.now), sort: 'oldest', limit: '100' }) },
      { operationId: 'listAlarms', query: (c) => ({ ...monthGrid(c.now), limit: '100' }) },
    ],
  },
  {
    page: 'reports-365d',
    description: 'Informes, 365 días (`features/reports/ReportsPage.tsx`, `useReportSWR`)',
    as: 'customer',
    calls: [{ operationId: 'getReport', query: lastDays(365) }],
  },
  {
    page: 'analytics-365d',
    description: 'Analítica (staff), 365 días (`features/analytics/AnalyticsPage.tsx`)',
    as: 'admin',
    calls: [{ operationId: 'getAnalytics', query: lastDays(365) }],
  },
  {
    page: 'incidents',
    description: 'Incidentes (`features/incidents/api.ts`): the first page of 20',
    as: 'customer',
    calls: [{ operationId: 'listIncidents', query: () => ({ limit: '20' }) }],
  },
  {
    page: 'devices',
    description: 'Estado de dispositivos (`features/devices/DeviceStatusPage.tsx`): the first page of 50',
    as: 'customer',
    calls: [{ operationId: 'listDevices', query: () => ({ limit: '50' }) }],
  },
  {
    page: 'device-detail',
    description: 'Página de un dispositivo (`features/devices/DevicePage.tsx`): the device, its alarms, incidents naming it (the title word index)',
    as: 'customer',
    calls: [
      { operationId: 'getDevice', params: (c) => ({ id: c.deviceId }) },
      { operationId: 'listAlarms', query: (c) => ({ deviceId: c.deviceId, limit: '25' }) },
      { operationId: 'listIncidents', query: (c) => ({ q: c.deviceName, limit: '10' }) },
    ],
  },
  {
    page: 'device-availability',
    description:
      'Disponibilidad de dispositivos (`features/devices/DeviceAvailabilityPage.tsx`): the device picker\'s first page of 10 by name (`DevicePicker`, the default device) and the chosen device',
    as: 'customer',
    calls: [
      { operationId: 'listDevices', query: () => ({ limit: '10' }) },
      { operationId: 'getDevice', params: (c) => ({ id: c.deviceId }) },
    ],
  },
  {
    page: 'device-alarms',
    description: 'Alarmas de dispositivos (`features/devices/DeviceAlarmsPage.tsx`): the first page of 25 alarms (names on the rows) and the device picker\'s first page of 10',
    as: 'customer',
    calls: [
      { operationId: 'listAlarms', query: () => ({ limit: '25' }) },
      { operationId: 'listDevices', query: () => ({ limit: '10' }) },
    ],
  },
  {
    page: 'device-alarms-filtered',
    description: 'Alarmas de dispositivos filtered by a device found with the picker: the name search (`prefix`, 10) and that device\'s first page of 25 alarms',
    as: 'customer',
    calls: [
      { operationId: 'listDevices', query: (c) => ({ prefix: c.deviceName, limit: '10' }) },
      { operationId: 'listAlarms', query: (c) => ({ deviceId: c.deviceId, limit: '25' }) },
    ],
  },
  {
    page: 'search',
    description: 'Búsqueda (`features/search/SearchResultsPage.tsx`): the first page (20) of incidents by title words and of devices by name prefix',
    as: 'customer',
    calls: [
      { operationId: 'listIncidents', query: (c) => ({ q: c.searchText, limit: '20' }) },
      { operationId: 'listDevices', query: (c) => ({ prefix: c.searchText, limit: '20' }) },
    ],
  },
];
