/** English texts of the `calendar` feature (section `calendar.*`; same keys as `../es/calendar.ts`, docs/portal.md#messages). */
import type { Catalogue } from '../es';

export const calendar: Catalogue['calendar'] = {
  page: {
    weekdays: { mon: 'Mon', tue: 'Tue', wed: 'Wed', thu: 'Thu', fri: 'Fri', sat: 'Sat', sun: 'Sun' },
    previousMonth: 'Previous month',
    nextMonth: 'Next month',
    incidentsAndAlarmsOf: 'Incidents and alarms of',
    alarm: 'Alarm:',
    more: 'more',
    eventsOfTheMonth: 'Events of the month',
    emptyMonth: 'No incidents or alarms this month.',
    firstItemsOnly: "Showing the first {{n}} incidents and the first {{n}} alarms of the month; each day's count includes them all.",
    viewAllIncidents: 'View all incidents',
    viewAllAlarms: 'View all alarms',
    incident: 'Incident',
  },
};
