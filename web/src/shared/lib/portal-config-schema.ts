/** The `PortalConfig` schema, loaded as its own chunk with zod configured for the CSP first. */
import './zod-setup';

export { PortalConfig } from '../../../../lambdas/contract/portal-config';
