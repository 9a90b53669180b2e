/** English texts of the `notifications` feature (section `notifications.*`; same keys as `../es/notifications.ts`, docs/portal.md#messages). */
import type { Catalogue } from '../es';

export const notifications: Catalogue['notifications'] = {
  panel: {
    notifications: 'Notifications',
    noRecords: 'No records',
    latestNotifications: 'Latest notifications',
    alarm: 'Alarm:',
    viewAll: 'View all',
    viewIncidents: 'View incidents',
  },
};
