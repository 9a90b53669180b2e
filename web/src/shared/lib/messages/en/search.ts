/** English texts of the `search` feature (section `search.*`; same keys as `../es/search.ts`, docs/portal.md#messages). */
import type { Catalogue } from '../es';

export const search: Catalogue['search'] = {
  results: {
    searchResults: 'Search results',
    queryTooShort: 'Type at least 2 characters in the header search box.',
    resultsFor: 'Results for «',
    incidents: 'Incidents',
    noIncidentMatches: 'No incident matches.',
    incidentsHint: 'Incidents whose title contains every word searched for (case and accents ignored).',
    viewAllInList: 'View all in the incident list',
    devices: 'Devices',
    noDeviceMatches: 'No device matches.',
    devicesHint: 'Devices whose name starts with the text searched for.',
    comments: 'Comments',
    commentsHint: 'Incident comments containing every word searched for.',
    noCommentMatches: 'No comment matches.',
    devicesByIp: 'Devices by IP',
    devicesByIpHint: 'Devices whose IP address is the one searched for or starts with it.',
    noDeviceIpMatches: 'No device has that address.',
    alarms: 'Alarms',
    alarmsHint: 'Device alarms whose title contains every word searched for.',
    noAlarmMatches: 'No alarm matches.',
    office365Users: 'Office 365 users',
    office365UsersHint: 'Users named by Office 365 alerts whose e-mail (or a word of it) starts with the text searched for.',
    noOffice365UserMatches: 'No Office 365 user matches.',
    lastAlert: 'Last alert:',
  },
};
