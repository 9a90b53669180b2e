/** English texts of `reports` (section `reports.*`; same keys as `../es/reports.ts`, docs/portal.md#messages). */
import type { Catalogue } from '../es';

export const reports: Catalogue['reports'] = {};
