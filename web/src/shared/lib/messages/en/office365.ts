/** English texts of `office365` (section `office365.*`; same keys as `../es/office365.ts`, docs/portal.md#messages). */
import type { Catalogue } from '../es';

export const office365: Catalogue['office365'] = {};
