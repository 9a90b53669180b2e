/** English texts of `account` (section `account.*`; same keys as `../es/account.ts`, docs/portal.md#messages). */
import type { Catalogue } from '../es';

export const account: Catalogue['account'] = {};
