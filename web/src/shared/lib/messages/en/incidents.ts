/** English texts of `incidents` (section `incidents.*`; same keys as `../es/incidents.ts`, docs/portal.md#messages). */
import type { Catalogue } from '../es';

export const incidents: Catalogue['incidents'] = {};
