/** English texts of the `dashboard` feature (section `dashboard.*`; same keys as `../es/dashboard.ts`, docs/portal.md#messages). */
import type { Catalogue } from '../es';

export const dashboard: Catalogue['dashboard'] = {
  page: {
    openIncidentsBySeverity: 'Open incidents by severity',
    openIncidents: 'open incidents.',
    viewIncidents: 'View incidents',
    devicesByStatus: 'Devices by status',
    devices: 'devices.',
    viewStatus: 'View status',
    availabilityAndAlarms: 'Availability and alarms',
    availability30d: '30-day availability',
    activeAlarms: 'Active alarms',
    activeOffice365Alarms: 'Active Office 365 alarms',
    incidentTrend: 'Incident trend',
    noIncidentTrend: 'No incidents were opened in the last 30 days.',
    incidentTrendCaption: 'Incidents opened per day in the last 30 days ({{length}} in total)',
    availabilityByDevice: 'Availability by device',
    noAvailabilityData: 'No availability data.',
    availabilityByDeviceCaption: 'The {{length}} devices with the lowest 30-day availability, below the target; dashed line: SLA target {{target}}',
    allDevicesMeetTarget: 'Every device meets the availability target ({{target}}) over 30 days.',
    viewAvailabilityByDevice: 'View availability by device',
    latestAlarms: 'Latest alarms',
    latestIncidentUpdates: 'Latest incident updates',
    noOpenAlarms: 'No open alarms.',
    viewAllAlarms: 'View all alarms',
  },
};
