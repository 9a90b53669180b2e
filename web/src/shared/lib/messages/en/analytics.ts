/** English texts of the `analytics` feature (section `analytics.*`; same keys as `../es/analytics.ts`, docs/portal.md#messages). */
import type { Catalogue } from '../es';

export const analytics: Catalogue['analytics'] = {
  page: {
    allCustomersFrom: 'All customers · from',
    to: 'to',
    byCustomer: 'By customer',
    noCustomers: 'No customers.',
    figuresByCustomer: 'Figures by customer',
    totalsOnePageOnly: 'Totals across all customers are shown when they fit on one page; with more customers, page through them or download the per-customer CSV.',
    customersShown_one: '{{count}} customer shown',
    customersShown_other: '{{count}} customers shown',
  },
};
