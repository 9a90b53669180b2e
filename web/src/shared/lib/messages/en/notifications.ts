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
    markAllRead: 'Mark all as read',
    unread_one: '{{count}} unread',
    unread_other: '{{count}} unread',
    unreadCapped: 'More than 99 unread',
    bellLabel: 'Notifications, {{unread}}',
    isNew: 'New',
    system: 'System',
    markedRead: 'All marked as read.',
    couldNotMark: 'Could not mark as read: {{userMessage}}',
  },
  feed: {
    title: 'Activity',
    caption: "The customer's activity, most recent first",
    empty: 'No activity yet.',
    when: 'Date',
    what: 'What happened',
    who: 'Who',
    severity: 'Severity',
  },
  severity: {
    critical: 'Critical',
    high: 'High',
    medium: 'Medium',
    low: 'Low',
    info: 'Information',
  },
};
