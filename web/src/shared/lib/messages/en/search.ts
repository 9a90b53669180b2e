/** English texts of `search` (section `search.*`; same keys as `../es/search.ts`, docs/portal.md#messages). */
import type { Catalogue } from '../es';

export const search: Catalogue['search'] = {};
