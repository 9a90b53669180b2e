/** English texts of the `analytics` feature (section `analytics.*`; same keys as `../es/analytics.ts`, docs/portal.md#messages). */
import type { Catalogue } from '../es';

export const analytics: Catalogue['analytics'] = {
  page: {
    analytics: 'Analytics',
    allCustomersFrom: 'All customers · from',
    to: 'to',
    byCustomer: 'By customer',
    noCustomers: 'No customers.',
    figuresByCustomer: 'Figures by customer',
    incidents: 'Incidents',
    mtta: 'MTTA',
    mttr: 'MTTR',
    slaCompliance: 'SLA compliance',
    slaBreached: 'SLA breached',
    fleetHealth: 'Fleet health',
    belowTargetShort: 'below target',
    id: 'ID',
    mttaMin: 'MTTA (min)',
    mttrMin: 'MTTR (min)',
    slaCompliancePct: 'SLA compliance (%)',
    openWithSlaBreached: 'Open with SLA breached',
    fleetAvailabilityPct: 'Fleet availability (%)',
    devicesBelowTarget30d: 'Devices below target (30 days)',
    totalsOnePageOnly: 'Totals across all customers are shown when they fit on one page; with more customers, page through them or download the per-customer CSV.',
    customersShown_one: '{{count}} customer shown',
    customersShown_other: '{{count}} customers shown',
  },
};
