/** English texts of `calendar` (section `calendar.*`; same keys as `../es/calendar.ts`, docs/portal.md#messages). */
import type { Catalogue } from '../es';

export const calendar: Catalogue['calendar'] = {};
