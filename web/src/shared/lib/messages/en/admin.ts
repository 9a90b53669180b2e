/** English texts of `admin` (section `admin.*`; same keys as `../es/admin.ts`, docs/portal.md#messages). */
import type { Catalogue } from '../es';

export const admin: Catalogue['admin'] = {};
