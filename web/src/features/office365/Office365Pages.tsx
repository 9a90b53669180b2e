/**
 * `/office365/alarms` and `/office365/events` (docs/portal.md#screens): Office 365 alerts reported by the SOC and the
 * unified audit log of the tenant, newest first, with a time range (24 h / 7 / 30 days / all) and
 * severity + status (alerts) or workload + result (events) filters, and the user filter (exact match, as the API
 * matches it); cursor pages ("Cargar más"). Each alert links the incident opened for it, or offers "Abrir
 * incidente" (docs/portal.md#linked-alarms), and an active one "Reconocer" (Vigía's acknowledgement beside
 * Microsoft's status, docs/api.md#acknowledging-office-365-alerts).
 */
// The Office 365 screens' lazy chunk (web/src/app/AppRoutes.tsx): the two pages, one file each.
export { Office365AlarmsPage } from './Office365AlarmsPage';
export { Office365EventsPage } from './Office365EventsPage';
