/** English texts of the `reports` feature (section `reports.*`; same keys as `../es/reports.ts`, docs/portal.md#messages). */
import type { Catalogue } from '../es';

export const reports: Catalogue['reports'] = {
  page: {
    generalReports: 'General reports',
    downloadCsv: 'Download CSV',
    print: 'Print',
    refresh: 'Refresh',
    from: '· from',
    to: 'to',
    generatedOn: '· generated on',
    incidentsBySeverityAnd: 'Incidents by severity and status',
    incidentsBySeverity: 'Incidents by severity',
    severity: 'Severity',
    incidents: 'Incidents',
    incidentsByStatus: 'Incidents by status',
    status: 'Status',
    mostFrequentAlarms: 'Most frequent alarms',
    thereWereNoAlarms: 'There were no alarms in the period.',
    alarm: 'Alarm',
    times: 'Times',
    highestSeverity: 'Highest severity',
    availabilityTarget: 'Availability (target {{v1}})',
    fleetAvailability: 'Fleet availability in the period:',
    belowSlaDevices: 'Devices below the target now (availability over the last 30 days)',
    noneBelowSla: 'No device is below the target over the last 30 days.',
    availability30d: '30-day availability',
    viewAvailabilityByDevice: 'View availability by device',
    device: 'Device',
    availability: 'Availability',
    report: 'Report {{tenantName}} {{v1}} – {{v2}}',
  },
};
