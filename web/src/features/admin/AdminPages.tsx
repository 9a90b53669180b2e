/**
 * Administration screens (staff only, docs/portal.md#administration):
 *  - `/admin/tenants`: the customers with their user and device counts, and "Crear cliente" (id + name);
 *  - `/admin/tenants/{tenantId}`: the customer's name, contract SLA targets per severity (response and
 *    resolution, minutes) and device availability target; its users with status (Cognito's
 *    FORCE_CHANGE_PASSWORD / CONFIRMED, or disabled) and MFA state, "Invitar usuario", and per
 *    user: resend the invitation, disable/enable, remove from the customer, reset MFA, grant/revoke staff
 *    (disable, remove, reset MFA and revoke staff ask first in a dialog naming the user: confirmTexts.ts and the shared ConfirmDialog);
 *    and "Proveedor de identidad de la empresa", the customer's own OIDC/SAML provider (IdentityProviderCard.tsx);
 *  - `/admin/staff`: the staff (`admin` group) with "Quitar acceso SOC".
 * The API refuses all of it to anyone but staff; errors show in the portal's language with the request reference.
 */
// The administration screens' lazy chunk (web/src/app/AppRoutes.tsx): the three pages, one file each.
export { TenantsPage } from './TenantsPage';
export { TenantAdminPage } from './TenantAdminPage';
export { StaffPage } from './StaffPage';
export { userStatusLabel } from './admin-notice';
