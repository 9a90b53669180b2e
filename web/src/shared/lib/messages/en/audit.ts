/** English texts of `audit` (section `audit.*`; same keys as `../es/audit.ts`, docs/portal.md#messages). */
import type { Catalogue } from '../es';

export const audit: Catalogue['audit'] = {};
