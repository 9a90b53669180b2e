/** English texts of `ui` (section `ui.*`; same keys as `../es/ui.ts`, docs/portal.md#messages). */
import type { Catalogue } from '../es';

export const ui: Catalogue['ui'] = {};
