/** English texts of `recommendations` (section `recommendations.*`; same keys as `../es/recommendations.ts`, docs/portal.md#messages). */
import type { Catalogue } from '../es';

export const recommendations: Catalogue['recommendations'] = {};
