/**
 * The dashboard's screen (`/`, `/dashboard/general`) as a preloadable lazy chunk: the route table renders it,
 * and a sign-in preloads it (`prefetch-signed-in.ts`), so the first screen after a sign-in does not wait for
 * a lazy component's loading state (`preloadable.tsx`, docs/portal.md#sign-in-to-dashboard).
 */
import { preloadableLazy } from './preloadable';

export const DashboardPage = preloadableLazy<object>(() => import('../features/dashboard/DashboardPage').then((m) => m.DashboardPage));
