/**
 * Typed keys for i18next: `t('…')` accepts only the keys of the Spanish catalogue (docs/portal.md#messages).
 */
import 'i18next';
import type { es } from './es';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof es };
  }
}
