/** English texts of `notifications` (section `notifications.*`; same keys as `../es/notifications.ts`, docs/portal.md#messages). */
import type { Catalogue } from '../es';

export const notifications: Catalogue['notifications'] = {};
