/** English texts of `dashboard` (section `dashboard.*`; same keys as `../es/dashboard.ts`, docs/portal.md#messages). */
import type { Catalogue } from '../es';

export const dashboard: Catalogue['dashboard'] = {};
