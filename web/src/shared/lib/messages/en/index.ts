/**
 * English message catalogue of the signed-in portal (chosen in `/settings`). Same keys as `es.ts`
 * (typed `Catalogue`: a missing or extra key fails `tsc`); docs/portal.md#messages.
 */
import type { Catalogue } from '../es';
import { incidents } from './incidents';
import { admin } from './admin';
import { audit } from './audit';
import { soc } from './soc';
import { dashboard } from './dashboard';
import { devices } from './devices';
import { calendar } from './calendar';
import { account } from './account';
import { settings } from './settings';
import { notifications } from './notifications';
import { search } from './search';
import { office365 } from './office365';
import { recommendations } from './recommendations';
import { reports } from './reports';
import { analytics } from './analytics';
import { ui } from './ui';
import { escalation } from './escalation';
import { team } from './team';
import { maintenance } from './maintenance';
import { fields } from './fields';
import { actions } from './actions';

export const en: Catalogue = {
  chrome: {
    skipToContent: 'Skip to content',
    openMenu: 'Open menu',
    closeMenu: 'Close menu',
    collapseSidebar: 'Collapse sidebar',
    mainMenu: 'Main menu',
    notifications: 'Notifications',
    account: 'Account',
    search: 'Search',
    openSearch: 'Open search',
    searchPlaceholder: 'Search…',
    tenant: 'Customer',
    brandTag: 'CUSTOMER',
    userFallback: 'User',
    footer: '© {{year}} {{brand}} Security Group',
    profile: 'Profile',
    calendar: 'Calendar',
    settings: 'Settings',
    passwordChange: 'Change password',
    signOut: 'Sign out',
  },
  menu: {
    office365: 'Office 365',
    auditLog: 'Audit log',
    escalationContacts: 'Escalation contacts',
    team: 'Users',
    maintenance: 'Maintenance',
    socQueue: 'SOC queue',
    alarmConsole: 'Alarm console',
    tenants: 'Customers',
    staff: 'SOC staff',
    accessRequests: 'Access requests',
    dashboard: 'Dashboard',
    overview: 'Overview',
    reports: 'Reports',
    incidents: 'Incidents',
    view: 'View',
    add: 'Add',
    devices: 'Devices',
    status: 'Status',
    availability: 'Availability',
    alarms: 'Alarms',
    events: 'Events',
    other: 'Other',
    recommendations: 'Recommendations',
    analytics: 'Analytics',
    soc: 'SOC',
    admin: 'Administration',
  },
  enums: {
    severity: { critical: 'Critical', high: 'High', medium: 'Medium', low: 'Low' },
    incidentStatus: { new: 'New', in_progress: 'In progress', on_hold: 'On hold', resolved: 'Resolved', closed: 'Closed' },
    deviceStatus: { online: 'Online', degraded: 'Degraded', offline: 'Offline', unknown: 'Unknown' },
    deviceType: {
      firewall: 'Firewall',
      switch: 'Switch',
      access_point: 'Access point',
      server: 'Server',
      router: 'Router',
      vpn: 'VPN concentrator',
    },
    alarmState: { active: 'Active', acknowledged: 'Acknowledged', cleared: 'Cleared' },
    alarmKind: {
      device: 'Device',
      office365: 'Office 365',
    },
    o365AlertStatus: {
      active: 'Active',
      investigating: 'Investigating',
      resolved: 'Resolved',
    },
    o365Result: {
      Succeeded: 'Succeeded',
      Failed: 'Failed',
      PartiallySucceeded: 'Partial',
    },
    alarmConsoleState: {
      open: 'Open',
      acknowledged: 'Acknowledged',
      cleared: 'Cleared',
    },
    recommendationStatus: {
      open: 'Open',
      accepted: 'Accepted',
      dismissed: 'Dismissed',
      done: 'Done',
    },
    recommendationPriority: {
      high: 'High',
      medium: 'Medium',
      low: 'Low',
    },
    customerRole: {
      viewer: 'Viewer',
      operator: 'Operator',
      admin: 'Admin',
    },
    maintenanceWindowStatus: {
      upcoming: 'Upcoming',
      active: 'In progress',
      past: 'Ended',
    },
    activitySeverity: {
      info: 'Information',
    },
    webhookFormat: { teams: 'Microsoft Teams', slack: 'Slack', json: 'Signed JSON' },
    webhookDeliveryState: { sending: 'Sending', sent: 'Delivered', failed: 'Failed, will retry', dead: 'Failed, no more retries' },
    userStatus: {
      invited: 'Invited (temporary password)',
      active: 'Active',
      disabled: 'Disabled',
      federated: 'Active (company account)',
      pending: 'Pending',
      resetRequired: 'Must reset the password',
      unconfirmed: 'Unconfirmed',
    },
    incidentSource: { portal: 'Portal', soc: 'SOC', alarm: 'Alarm' },
  },
  common: {
    loading: 'Loading…',
    retry: 'Retry',
    noRecords: 'No records',
    periods: {
      last24Hours: 'Last 24 hours',
      last7Days: 'Last 7 days',
      last30Days: 'Last 30 days',
      last90Days: 'Last 90 days',
    },
    details: 'Details',
    noData: 'No data',
  },
  actions,
  fields,
  incidents,
  escalation,
  team,
  maintenance,
  admin,
  audit,
  soc,
  dashboard,
  devices,
  calendar,
  account,
  settings,
  notifications,
  search,
  office365,
  recommendations,
  reports,
  analytics,
  ui,
};
