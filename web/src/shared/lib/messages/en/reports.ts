/** English texts of the `reports` feature (section `reports.*`; same keys as `../es/reports.ts`, docs/portal.md#messages). */
import type { Catalogue } from '../es';

export const reports: Catalogue['reports'] = {
  monthly: {
    title: 'Monthly report',
    month: 'Month',
    downloadPdf: 'Download PDF',
    downloadFailed: 'The PDF could not be generated. Try again.',
    slaHistory: 'SLA compliance over the last 12 months',
    resolved: 'Resolved',
    compliance: 'Compliance',
    noResolved: 'None resolved',
    maintenanceExcluded_one: '{{count}} maintenance window excluded ({{minutes}} min)',
    maintenanceExcluded_other: '{{count}} maintenance windows excluded ({{minutes}} min)',
  },
  page: {
    generalReports: 'General reports',
    print: 'Print',
    from: '· from',
    to: 'to',
    generatedOn: '· generated on',
    incidentsBySeverityAndStatus: 'Incidents by severity and status',
    incidentsBySeverity: 'Incidents by severity',
    severity: 'Severity',
    incidents: 'Incidents',
    incidentsByStatus: 'Incidents by status',
    status: 'Status',
    mostFrequentAlarms: 'Most frequent alarms',
    noAlarmsInPeriod: 'There were no alarms in the period.',
    availabilityTarget: 'Availability (target {{target}})',
    fleetAvailability: 'Fleet availability in the period:',
    belowSlaDevices: 'Devices below the target now (availability over the last 30 days)',
    noneBelowSla: 'No device is below the target over the last 30 days.',
    viewAvailabilityByDevice: 'View availability by device',
    availability: 'Availability',
    report: 'Report {{tenantName}} {{from}} – {{to}}',
  },
};
