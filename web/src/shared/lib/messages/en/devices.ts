/** English texts of `devices` (section `devices.*`; same keys as `../es/devices.ts`, docs/portal.md#messages). */
import type { Catalogue } from '../es';

export const devices: Catalogue['devices'] = {};
