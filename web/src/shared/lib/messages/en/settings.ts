/** English texts of `settings` (section `settings.*`; same keys as `../es/settings.ts`, docs/portal.md#messages). */
import type { Catalogue } from '../es';

export const settings: Catalogue['settings'] = {};
