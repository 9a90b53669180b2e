/** English texts of `analytics` (section `analytics.*`; same keys as `../es/analytics.ts`, docs/portal.md#messages). */
import type { Catalogue } from '../es';

export const analytics: Catalogue['analytics'] = {};
