/** English texts of the `office365` feature (section `office365.*`; same keys as `../es/office365.ts`, docs/portal.md#messages). */
import type { Catalogue } from '../es';

export const office365: Catalogue['office365'] = {
  pages: {
    office365Alarms: 'Office 365 alarms',
    filterOffice365Alarms: 'Filter Office 365 alarms',
    all: 'All',
    status: 'Status',
    affectedUser: 'Affected user',
    userDomainExact: 'user@domain (exact)',
    noAlarmsInPeriod: 'No Office 365 alarms in this period.',
    category: 'Category',
    detected: 'Detected',
    office365Events: 'Office 365 events',
    filterOffice365Events: 'Filter Office 365 events',
    service: 'Service',
    result: 'Result',
    user: 'User',
    noEventsInPeriod: 'No Office 365 events in this period.',
    date: 'Date',
    operation: 'Operation',
    sourceIp: 'Source IP',
    acknowledgement: 'Acknowledgement',
    acknowledgeOf: 'Acknowledge the alert “{{title}}”',
    acknowledgedOn: '{{at}} · {{who}}',
    alertAcknowledged: 'Alert “{{title}}” acknowledged. Its status in Microsoft 365 does not change.',
  },
  options: {
    all: 'All',
  },
};
