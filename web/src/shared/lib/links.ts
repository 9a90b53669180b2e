/**
 * Addresses of screens that several features link to (docs/portal.md#routes).
 */

/**
 * The incident page of `id` in `tenantId`: `/ticket/update/{id}?tenant=<t>`. The tenant is part of the
 * address so a link shared between staff always opens the same customer's incident, whatever tenant the
 * header's picker shows (docs/portal.md#incident-detail).
 */
export function ticketPath(id: string, tenantId: string): string {
  return `/ticket/update/${encodeURIComponent(id)}?tenant=${encodeURIComponent(tenantId)}`;
}

/**
 * The page of device `id` in `tenantId`: `/devices/detail/{id}?tenant=<t>` (the tenant in the address for
 * the same reason as {@link ticketPath}; docs/portal.md#device-page).
 */
export function devicePath(id: string, tenantId: string): string {
  return `/devices/detail/${encodeURIComponent(id)}?tenant=${encodeURIComponent(tenantId)}`;
}
