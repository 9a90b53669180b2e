/** English texts of the `calendar` feature (section `calendar.*`; same keys as `../es/calendar.ts`, docs/portal.md#messages). */
import type { Catalogue } from '../es';

export const calendar: Catalogue['calendar'] = {
  page: {
    weekdays: { mon: 'Mon', tue: 'Tue', wed: 'Wed', thu: 'Thu', fri: 'Fri', sat: 'Sat', sun: 'Sun' },
    calendar: 'Calendar',
    previousMonth: 'Previous month',
    nextMonth: 'Next month',
    incidentsAndAlarmsOf: 'Incidents and alarms of',
    alarm: 'Alarm:',
    more: 'more',
    eventsOfTheMonth: 'Events of the month',
    noIncidentsOrAlarms: 'No incidents or alarms this month.',
    incident: 'Incident',
  },
};
