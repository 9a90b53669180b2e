/** English texts of `soc` (section `soc.*`; same keys as `../es/soc.ts`, docs/portal.md#messages). */
import type { Catalogue } from '../es';

export const soc: Catalogue['soc'] = {};
