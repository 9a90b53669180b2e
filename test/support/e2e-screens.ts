/**
 * The portal's screens as the browser suite visits them (docs/testing.md): every screen a customer
 * (`ana@acme.example`, tenant acme) reaches, and every screen of the staff (`admin`). Used by the accessibility
 * check (`screens-a11y.e2e.ts`) and the English-mode check (`language-en.e2e.ts`).
 */
/** Screens of a customer user, with demo data ids. */
export const SCREENS = [
  '/',
  '/incidents/all',
  '/ticket/update/INC-000001',
  '/devices/status',
  '/devices/availability',
  '/devices/alarms',
  '/devices/detail/dev-001',
  '/office365/alarms?range=all',
  '/office365/events?range=all',
  '/recommendations',
  '/reports/general',
  '/calendar',
  '/page/search-results?q=VPN',
  '/audit',
  '/escalation-contacts',
  '/incidents/new',
  '/profile',
  '/settings',
  '/notifications',
  '/notifications/preferences',
  '/notifications/webhooks',
  '/page/passwordchange',
] as const;
/** Screens of the staff (`admin`): analytics, SOC queue, administration, the audit log of every tenant, a staff ticket page. */
export const STAFF_SCREENS = [
  '/analytics',
  '/soc/queue',
  '/soc/alarms',
  '/admin/tenants',
  '/admin/tenants/acme',
  '/admin/staff',
  '/ticket/update/INC-000001?tenant=acme',
  ...SCREENS.filter((p) => !p.startsWith('/ticket/')),
] as const;
